"""The search bot's trials: where a pair of orders leads, played on by the fast bot and judged as the system
offers (:mod:`vectorwar.search`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from vectorwar.dice import Dice
from vectorwar.errors import VectorwarError
from vectorwar.search.budget import (
    HARD_STOP,
    HELD,
    HELD_ENDS,
    HOLD,
    LATER,
    PLAN_KEPT,
    PROSPECT_STOP,
    Budget,
    Judging,
)
from vectorwar.search.choice import Outcome
from vectorwar.search.near import by_nearness

if TYPE_CHECKING:
    from vectorwar.rules import Bot, RuleSystem

#: A rollout's end: the state it reached and the standing it is judged by.
Trial = tuple[Any, Mapping[str, float]]


@dataclass(slots=True)
class Progress:
    """How far a ``fire_in_prospect`` trial has come (:meth:`SearchBot._moves_in_prospect`): what it has judged so far,
    the standing and the fire in prospect at its last stop, the stops made, the weight of the next move's
    change, and the turn of the last movement plot played (``None`` after a stop until the next)."""

    moved: int | None
    judged: dict[str, float] | None = None
    last: Mapping[str, float] = field(default_factory=dict)
    fired: Mapping[str, float] = field(default_factory=dict)
    stops: int = 0
    weight: float = 1.0
    #: What each side was expected to lose on the way, to fire not rolled (``resolve_in_prospect``).
    lost: dict[str, float] = field(default_factory=dict)

    def copy(self) -> Progress:
        """The same progress, its judgement a copy of its own, for a branch that goes on apart."""
        return replace(self, judged=None if self.judged is None else dict(self.judged), lost=dict(self.lost))

    def less_lost(self, standing: Mapping[str, float]) -> dict[str, float]:
        """``standing`` less what each side was expected to lose on the way."""
        return {s: v - self.lost.get(s, 0.0) for s, v in standing.items()}


class CountedRandom(random.Random):
    """A ``random.Random`` that counts its draws, the numbers unchanged: every draw of ``random.Random`` goes
    through ``random`` or ``getrandbits``, and overriding both keeps its choice of ``_randbelow``."""

    draws = 0

    def random(self) -> float:
        self.draws += 1
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self.draws += 1
        return super().getrandbits(k)


#: The most segments (and as many fast orders) a :class:`HeldMemo` keeps: far more than one decision plays.
HELD_MEMO_SIZE = 20_000


class HeldMemo:
    """Held-fire segments and fast orders already played in one decision, to be played again for free, and the
    standings of the trials' ends.

    About a sixth of a decision's held-fire segments repeat one already played: the same position and the
    same orders (every trial of a candidate starts at the root, and the fast bot answers the same position
    the same way). An entry is kept only where the work drew nothing from the dice (a segment) or the
    policy's random numbers (a fast order): such work is a function of the position and the orders alone
    (the rules read nothing else), so replaying it gives what playing it again would, and the dice and
    random numbers the trial goes on with are where they would be. Keys are the identities of the position
    and the orders, which the entry keeps alive so that no other object can take their identity; a found
    position is the same object again, so a trial that repeats a segment finds the next one too. Cleared at
    each decision (:meth:`clear`) and never larger than ``HELD_MEMO_SIZE``.
    """

    __slots__ = ("_orders", "_segments", "_standings")

    def __init__(self) -> None:
        self._segments: dict[tuple[int, tuple[tuple[str, int], ...]], tuple[Any, Any, Any, Any, Any]] = {}
        self._orders: dict[tuple[int, str], tuple[Any, Any]] = {}
        self._standings: dict[int, tuple[Any, Mapping[str, float]]] = {}

    def clear(self) -> None:
        """Forget everything: a new decision."""
        self._segments.clear()
        self._orders.clear()
        self._standings.clear()

    def standing(self, system: RuleSystem[Any], state: Any) -> Mapping[str, float]:
        """The system's standing at ``state``, a trial's end: a trial played again ends at the very same state (a
        found segment's position is the one kept), and the standing reads the state alone. Shared: not to be
        changed."""
        found = self._standings.get(id(state))
        if found is not None:
            return found[1]
        now = system.standing(state)
        if len(self._standings) < HELD_MEMO_SIZE:
            self._standings[id(state)] = (state, now)
        return now

    def segment(
        self, system: RuleSystem[Any], state: Any, given: Mapping[str, Any], dice: Dice
    ) -> tuple[Any, Mapping[str, float], Any] | None:
        """``given`` resolved in prospect from ``state``: the position after, the expected losses and its prompt."""
        key = (id(state), tuple((s, id(o)) for s, o in given.items()))
        found = self._segments.get(key)
        if found is not None:
            return found[2], found[3], found[4]
        count = dice.count
        done = system.resolve_in_prospect(state, given, dice)
        if done is None:  # pragma: no cover - the system offered it at the root
            return None
        after, losses = done
        prompt = system.prompt(after)
        if dice.count == count and len(self._segments) < HELD_MEMO_SIZE:
            self._segments[key] = (state, given, after, losses, prompt)
        return after, losses, prompt

    def order(self, state: Any, side: str, rng: CountedRandom, fast: Callable[[Any, str, random.Random], Any]) -> Any:
        """The fast bot's order (``fast``) for ``side`` at ``state``."""
        key = (id(state), side)
        found = self._orders.get(key)
        if found is not None:
            return found[1]
        draws = rng.draws
        order = fast(state, side, rng)
        if rng.draws == draws and len(self._orders) < HELD_MEMO_SIZE:
            self._orders[key] = (state, order)
        return order


class Trials:
    """Plays and judges trials for a searching bot: the system, the budget and the fast bot it plays on with."""

    system: RuleSystem[Any]
    #: The budget of trials that roll their dice, the only ones ``turns`` and ``horizon`` bind.
    rolled: Budget
    #: The fast bot the trials play on with (the system's ``rollout_bot``, or the one named).
    fast: Bot
    #: Rollouts run so far (for benchmarks and tests).
    rollouts: int
    #: The held-fire segments and fast orders of the decision under way (:meth:`_held_fire`).
    held: HeldMemo

    def _rollout(
        self, state: Any, orders: Mapping[str, Any], dice_seed: int, judging: Judging, side: str | None = None
    ) -> Trial:
        """Where ``orders`` lead, on the bot's own dice, the fast bot playing on: the end and its standing.

        Played as ``judging`` says: :meth:`_moves_in_prospect` (``PROSPECT``), :meth:`_held_fire` (``HELD``), or
        ``horizon`` more prompts (to the end of the next turn at most) with the fire rolled (``ROLLED``).
        ``side`` is the searching side, whose next plot a ``PROSPECT`` trial searches too where the system
        plans ahead (``plan_ahead``); left out, the fast bot gives it like every other.
        """
        self.rollouts += 1
        dice = Dice(dice_seed)
        if judging is Judging.HELD:
            return self._held_fire(state, orders, dice, CountedRandom(dice_seed))
        policy_rng = random.Random(dice_seed)
        start = self.system.prompt(state)
        turn = start.clock.turn if start is not None else 0
        planner = (
            side if judging is Judging.PROSPECT and side is not None and self.system.plan_ahead(state, side) else None
        )
        if judging is Judging.PROSPECT:
            progress = Progress(moved=turn)
            state = self._move_in_prospect(state, orders, dice, progress)
            return self._moves_in_prospect(state, dice, policy_rng, progress, planner)
        state, _ = self.system.resolve(state, orders, dice)
        last_turn = turn + self.rolled.turns
        for played in range(HARD_STOP * self.rolled.horizon):
            prompt = self.system.prompt(state)
            # Stopping at a turn's start, or where several sides plot together, leaves no side a move or a
            # shot ahead of another since the root.
            if prompt is None or prompt.clock.turn > last_turn:
                break
            if played >= self.rolled.horizon and prompt.simultaneous and len(prompt.sides) > 1:
                break
            given = {s: self._fast_order(state, s, policy_rng) for s in prompt.sides}
            state, _ = self.system.resolve(state, given, dice)
            dice.log.clear()
        return state, self.system.standing(state)

    def _moves_in_prospect(
        self,
        state: Any,
        dice: Dice,
        rng: random.Random,
        progress: Progress,
        planner: str | None,
        until: int | None = None,
    ) -> Trial:
        """The trial of a system whose standing counts the fire to come: judged where the moves are made.

        It stops where the moves are made and the fire is still to come: at the first declaration in turn
        (a prompt not ``simultaneous``) after the moves, or at a later turn's first prompt, whichever comes
        first (VV5's fire opens the next turn; VMS's follows the moves in the same turn). There the
        standing holds the damage done so far and the fire the ships now face, in expectation: no throw of
        the dice decides the trial. The fast bot then makes every side's next moves with the fire held (it is
        counted already), and what those moves change, mostly the fire they promise, is added at ``LATER``'s
        weight at the next such stop, and so on for the system's ``prospect_moves`` (each at ``LATER`` times
        the weight of the one before): a plot that wins the next fire but leaves its ship overshooting, or
        drifting off the board, pays for it there.

        The ``planner``'s next plot, if one is named, is searched too (:meth:`_planned`). With ``until``, the
        trial ends at that stop (counted from the first) whatever the system's ``prospect_moves``.
        """
        moves = self.system.prospect_moves
        stop_at = moves if until is None else min(moves, until)
        p = progress
        for _ in range(PROSPECT_STOP * max(1, moves - 1)):
            prompt = self.system.prompt(state)
            if prompt is None:
                break
            if p.moved is not None and (not prompt.simultaneous or prompt.clock.turn > p.moved):
                now = p.less_lost(self.system.standing(state))
                if p.judged is None:
                    p.judged = dict(now)
                else:
                    # What these moves changed: the fire before them was held, so mostly the fire now in prospect.
                    p.weight *= LATER
                    for s in p.judged:
                        p.judged[s] += p.weight * (now.get(s, 0.0) - p.last.get(s, 0.0) + p.fired.get(s, 0.0))
                p.stops += 1
                if p.stops >= moves:
                    return state, p.judged
                p.last = now
                p.fired = self.system.fire_in_prospect(state) or {}
                p.moved = None
                if p.stops >= stop_at:
                    # Cut short at a stop, the progress ready to go on: passed back in with the same dice and
                    # ``rng``, the state plays on as if the trial had never stopped (``_planned``).
                    return state, p.judged
            # A declaration in turn after the first stop is fire the standing counted already: held.
            hold = p.judged is not None and not prompt.simultaneous
            if prompt.simultaneous:
                p.moved = prompt.clock.turn
            given = {s: self._fast_order(state, s, rng, hold=hold) for s in prompt.sides}
            if planner is not None and prompt.simultaneous and planner in prompt.sides:
                return self._planned(state, given, dice, rng, p, planner)
            state = self._move_in_prospect(state, given, dice, p)
            dice.log.clear()
        return state, p.less_lost(self.system.standing(state)) if p.judged is None else p.judged

    def _move_in_prospect(self, state: Any, orders: Mapping[str, Any], dice: Dice, progress: Progress) -> Any:
        """``orders`` resolved in a ``fire_in_prospect`` trial: by ``resolve_in_prospect`` where the system
        offers it there (VMS's moves, the missiles in flight counted in expectation), what each side was
        expected to lose kept in ``progress``; else by ``resolve``."""
        done = self.system.resolve_in_prospect(state, orders, dice)
        if done is None:
            return self.system.resolve(state, orders, dice)[0]
        state, losses = done
        for s, v in losses.items():
            progress.lost[s] = progress.lost.get(s, 0.0) + v
        return state

    def _planned(
        self, state: Any, given: Mapping[str, Any], dice: Dice, rng: random.Random, progress: Progress, side: str
    ) -> Trial:
        """The rest of a ``fire_in_prospect`` trial from ``side``'s next plot, that plot searched too.

        A trial that played the fast bot's next plot for the searching side judged each first plot by what
        the fast bot makes of it, and the fast bot looks one move ahead: a first plot whose worth lies in the
        plot after it (a turn away from the pursuers that the next plot completes) was judged short. So the
        trial tries the fast bot's next plot and the system's ``plan_ahead`` one-ship changes of it (those
        ending nearest first), each judged where its moves are made, plays the best ``PLAN_KEPT`` on to the
        trial's end, and takes the best end. The others' plots stay the fast bot's: they are made at the same
        time, so they cannot answer this one. Every branch throws the same dice.
        """
        tried = [given[side], *self._next_plots(state, side, given[side])]

        def played(order: Any, until: int | None) -> tuple[Trial, Dice, random.Random, Progress]:
            branch_dice = Dice(dice.seed, dice.count)
            branch_rng = random.Random()
            branch_rng.setstate(rng.getstate())
            branch = progress.copy()
            after = self._move_in_prospect(state, {**given, side: order}, branch_dice, branch)
            branch_dice.log.clear()
            trial = self._moves_in_prospect(after, branch_dice, branch_rng, branch, None, until)
            return trial, branch_dice, branch_rng, branch

        def rank(trial: Trial) -> tuple[float, float]:
            # Within one trial the root's standing is the same for every branch: it can be left out.
            fixed, gain = self._outcome(trial, side, {})
            return (0.5 if fixed is None else fixed), gain

        if len(tried) == 1:
            return played(tried[0], None)[0]
        # Each branch is judged at its next stop; the best are played on from there to the trial's end.
        # Sorting is stable: among equals the fast bot's own plot (first) stays first.
        cut = progress.stops + 1
        shortlist = sorted((played(order, cut) for order in tried), key=lambda b: rank(b[0]), reverse=True)
        ends: list[Trial] = []
        for (end, judged), branch_dice, branch_rng, branch in shortlist[:PLAN_KEPT]:
            if cut < self.system.prospect_moves and branch.stops == cut:
                ends.append(self._moves_in_prospect(end, branch_dice, branch_rng, branch, None))
            else:  # the branch ran to its end (or the game's) before the cut
                ends.append((end, judged))
        return max(ends, key=rank)

    def _next_plots(self, state: Any, side: str, base: Any) -> list[Any]:
        """Up to the system's ``plan_ahead`` legal one-ship changes of ``base``, the moves ending nearest first."""
        found: dict[str, Any] = {str(base): base}
        wanted = self.system.plan_ahead(state, side)
        for order in self._changes(state, side, base, self.system.move_options(state, side)):
            if len(found) > wanted:
                break
            try:
                self.system.check_order(state, side, order)
            except VectorwarError:
                continue
            found.setdefault(str(order), order)
        return list(found.values())[1:]

    def _changes(self, state: Any, side: str, base: Any, options: Mapping[str, Sequence[Any]]) -> Iterator[Any]:
        """``base`` with one ship's move swapped for another of ``options`` (``with_move``), the moves ending
        nearest the ship's own first; a swap the system cannot make is skipped. Not checked."""
        for ship, move in by_nearness(str(base), options):
            try:
                yield self.system.with_move(state, side, base, ship, move)
            except VectorwarError:
                continue

    def _held_fire(self, state: Any, orders: Mapping[str, Any], dice: Dice, rng: CountedRandom) -> Trial:
        """The trial of a system whose fire comes in the same orders as the moves (``resolve_in_prospect``).

        Every prompt, the root's and then ``HELD`` more of the fast bot's (in AV:T, segments: a turn), is
        resolved with its shots at ships counted in expectation and not rolled. Each of the last ``HELD_ENDS``
        positions (the end among them; the end alone if the game ends sooner) is worth its standing less what
        each side was expected to lose on the way there, and the trial is worth their mean. The ships take no
        damage on the way, so every trial of a position meets the same fire and no throw of the dice decides
        it. Segments and fast orders already played in this decision are taken from :attr:`held`
        (:class:`HeldMemo`).
        """
        lost: dict[str, float] = {}
        judged: list[dict[str, float]] = []
        given = orders
        for played in range(1 + HELD):
            done = self.held.segment(self.system, state, given, dice)
            if done is None:  # pragma: no cover - the system offered it at the root
                break
            state, losses, prompt = done
            for s, v in losses.items():
                lost[s] = lost.get(s, 0.0) + v
            dice.log.clear()
            if prompt is None:  # the game ended: its end is judged alone
                judged = [self._held_value(state, lost)]
                break
            if played > HELD - HELD_ENDS:
                judged.append(self._held_value(state, lost))
            # The trial's last position is judged, never played on: no fast orders for it (a fifth of the fast
            # bot's work; the rollout's own random numbers end with it, so nothing after is moved).
            if played == HELD:
                break
            given = {s: self.held.order(state, s, rng, self._fast_order) for s in prompt.sides}
        if not judged:  # pragma: no cover - stopped before any cut (see above): the position reached is judged
            judged = [self._held_value(state, lost)]
        return state, {s: sum(value[s] for value in judged) / len(judged) for s in judged[-1]}

    def _held_value(self, state: Any, lost: Mapping[str, float]) -> dict[str, float]:
        """A held-fire trial's position judged: each side's standing less what it was expected to lose on the way."""
        return {s: v - lost.get(s, 0.0) for s, v in self.held.standing(self.system, state).items()}

    def _fast_order(self, state: Any, side: str, rng: random.Random, hold: bool = False) -> Any:
        """The fast bot's order (the menu's if it fails its check); with ``hold``, no fire if the order the
        kernel's notation calls ``hold`` is legal here (a fire declaration; not an order of declaring)."""
        if hold:
            try:
                held = self.system.parse_order(state, side, HOLD)
                self.system.check_order(state, side, held)
                return held
            except VectorwarError:
                pass  # not a fire declaration (an order of declaring, a set-up choice): the fast bot's
        order = self.fast.choose(state, side, rng)
        if self.system.greedy_orders_legal(state):
            return order  # what the check would pass: a trial's every step asks it of the same rules
        try:
            self.system.check_order(state, side, order)
        except VectorwarError:
            return self.system.random_order(state, side, rng)
        return order

    def _outcome(self, trial: Trial, side: str, root: Mapping[str, float]) -> Outcome:
        """A rollout's end for ``side``: the value of a decided game, or ``None`` and the standing gained."""
        state, now = trial
        others = [s for s in now if s != side]
        gain = now.get(side, 0.0) - root.get(side, 0.0)
        if others:
            gain -= sum(now[s] - root.get(s, 0.0) for s in others) / len(others)
        result = self.system.result(state)
        if result is None:
            return None, gain
        if not result.winners:
            return None, gain / 2  # a draw: half the weight of the same standing in an open game
        return (1.0 / len(result.winners) if side in result.winners else 0.0), 0.0
