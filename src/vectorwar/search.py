"""The ``search`` computer player: short look-ahead by sampled plots and rollouts, for any rule system.

It is built only on the rule-system contract (:mod:`vectorwar.rules`): who must
act (``prompt``), the legal orders (``random_order``, ``move_options``, the
system's own fast bot), ``resolve`` and ``result``, and :meth:`standing` to
judge a game not yet over. It knows nothing of any system's rules.

How one decision is made, for the seat's view of the game (never the game):

1. **Candidates for itself**: the system's fast bot's order (``greedy``), the
   same order with one ship's move swapped for another of its legal moves
   (``move_options``, put in by ``with_move``, which keeps the rest of the
   ship's entry; mostly a move ending next to the fast bot's), and orders
   drawn from the menu (``random_order``); each is parsed and checked,
   duplicates dropped, at most ``screen`` of them.
2. **Plausible orders for the others** who plot at the same time: drawn the
   same way from *their* menus, seen from this seat's view. A secret plot
   already given waits in the kernel's ``pending`` and is in no state, so the
   bot cannot see it: it can only guess, and these guesses are the guess.
3. **The matrix**: the ``mine`` best candidates of a screen against the
   others' likeliest orders meet every guess, each pair resolved and played
   on by the fast bot for every seat to the end of the next turn (``turns``),
   ``rounds`` times. Each round uses its own dice, the same for every pair
   (common random numbers: the pairs differ by the orders, not by luck). The
   dice are the bot's own (:class:`~vectorwar.dice.Dice` with a seed drawn
   from its own random source), never the game's, so it cannot foresee a
   real roll. A system whose rollouts cost more or less than most says so
   (``rollout_cost``), and the budget shrinks or grows to match. A system
   whose standing counts the fire still to come in expectation
   (``fire_in_prospect``, VV5 and VMS) is judged where the moves are made instead,
   no shot rolled, with the fire a second turn's moves promise at half
   weight (and where the moves themselves throw dice, VMS's missiles in
   flight, the system's ``resolve_in_prospect`` counts them in expectation
   too); its trials are cheap and all but free of luck, so the bot tries
   every one-ship change of the fast bot's order rather than a sample. A
   system whose fire comes in the same orders as the moves (AV:T) offers
   ``resolve_in_prospect`` instead (``holds_fire``): every prompt of a trial
   is resolved with its shots at ships counted in expectation, and the trial
   is swept the same way. A system may have a ``fire_in_prospect`` trial
   search the seat's own next plot too (``plan_ahead``, VV5's side making a
   run: :meth:`SearchBot._planned`), so that a first plot is judged with the
   best second plot found for it rather than the fast bot's. A sweep also
   tries the system's ``order_variants`` (what the movement menu does not
   vary: AV:T's pivots). After a sweep's
   screen the ships' best changes are also tried together
   (:meth:`SearchBot._joined`).
4. **The choice**: the orders are judged against the guesses weighted mostly
   by plausibility (the fast bot's guess ``TRUST``) and partly
   (``CAUTION``) by regret matching's most damaging mix; the best replaces
   the fast bot's own order only if it wins by ``FAST_BONUS`` plus ``Z``
   standard errors, round by round. A fire declaration in turn (nobody else
   plotting now, no movement to plot) and a set-up choice are the fast bot's
   own: the first sees everything before it and its trials would differ only
   by luck; a rollout cannot judge the second. A system may have a searcher
   give the fast bot's declaration otherwise (``search_declaration``: VV5's
   launches every missile ready and aims its guns where they are worth most
   together).

Its random source is seeded from the bot's own seed, the seat and the clock,
not from the game's seed, so two games that look the same to the seat get the
same answer. The budget is counted in rollouts, so a decision is reproducible;
rule code and this module read no clock (see ``tests/test_architecture.py``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Protocol

from vectorwar.dice import Dice
from vectorwar.errors import VectorwarError
from vectorwar.notation import entries, is_hold

__all__ = ["LEVELS", "Budget", "Judging", "SearchBot", "search_bots"]


class Judging(Enum):
    """How a position's trials are played and judged, by what its system offers (:meth:`SearchBot.judging`)."""

    #: The fast bot plays on for ``horizon`` prompts, the fire rolled on the bot's own dice.
    ROLLED = "rolled"
    #: Stopped where the moves are made, the fire to come counted in expectation (``fire_in_prospect``).
    PROSPECT = "prospect"
    #: Every prompt resolved with its shots at ships counted in expectation (``resolve_in_prospect``).
    HELD = "held"

    @property
    def swept(self) -> bool:
        """Trials all but free of luck: one each, and every one-ship change of the fast bot's order tried."""
        return self is not Judging.ROLLED


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard the bot thinks: candidate counts, rollouts per pair and how far each rollout looks."""

    #: Own orders screened (``SCREEN_ROUNDS`` rollouts each) against the others' likeliest orders;
    #: the best ``mine`` kept.
    screen: int = 12
    mine: int = 6
    theirs: int = 4
    rounds: int = 1
    #: Whole turns a rollout plays after the one under way (it stops at the first prompt of the turn after).
    #: Neither this nor ``horizon`` binds a ``fire_in_prospect`` trial, which plays the system's ``prospect_moves``.
    turns: int = 1
    #: Prompts after which a rollout stops early, at the next prompt where several seats plot together
    #: (a point where no side has moved or fired more than another since the root). AV:T has eight a turn.
    horizon: int = 4

    @property
    def rollouts(self) -> int:
        """The most rollouts one decision may cost, before the system's ``rollout_cost`` scales the budget."""
        return SCREEN_ROUNDS * self.screen + self.mine * self.theirs * self.rounds


#: Strength levels by name suffix: ``search`` is level 1, ``search:2`` and ``search:3`` think harder.
LEVELS: dict[int, Budget] = {
    1: Budget(screen=12, mine=5, theirs=2, rounds=6, turns=1, horizon=4),
    2: Budget(screen=24, mine=6, theirs=3, rounds=8, turns=1, horizon=6),
    3: Budget(screen=40, mine=8, theirs=4, rounds=10, turns=2, horizon=10),
}

#: Rollouts each own order gets in the screen (on the same dice for every order).
SCREEN_ROUNDS = 2
#: The fast bot's order is preferred unless another is worth this much more (a tenth of the open games' range).
FAST_BONUS = 0.04
#: A rollout stops after this many times ``horizon`` prompts whatever else (a game of one seat's prompts).
HARD_STOP = 3
#: Weight of the fast bot's guess of the others among the guesses as drawn (the rest share what is left).
TRUST = 0.8
#: Share of regret matching's most damaging mix in the blend the choice is judged against.
CAUTION = 0.2
#: Standard errors of the paired advantage another order must show over the fast bot's to be played.
Z = 1.0
#: With a ``fire_in_prospect`` judge, one-ship variants tried at most, as a multiple of the budget's screen
#: (divided by the system's ``rollout_cost``).
SWEEP = 16
#: Share of one-ship variants drawn from the moves ending next to the fast bot's (the rest: any legal move).
NEAR_SHARE = 0.7
#: Regret-matching sweeps over the estimated matrix (cheap: the matrix is at most a few dozen cells).
RM_SWEEPS = 400
#: How much a rollout that ends before the game does may say: values stay inside 0.5 +/- this.
OPEN_WEIGHT = 0.4
#: Weight of what each move after the first changes, beside the move before's (``fire_in_prospect`` trials).
LATER = 0.5
#: Prompts a move of a ``fire_in_prospect`` trial plays at most (two turns of four sides and aces).
PROSPECT_STOP = 40
#: Prompts a ``resolve_in_prospect`` trial plays after the root's, at every level: in AV:T, half a turn's
#: segments. Not the budget's ``horizon``: eight segments, and two, judged the burns worse (the history of
#: docs/bots.md).
HELD = 4
#: The order that gives no fire (the kernel's notation for an empty declaration).
HOLD = "hold"
#: Of the seat's next plots a ``fire_in_prospect`` trial tries (the system's ``plan_ahead``), those judged best
#: where their moves are made that are played on to the trial's end (:meth:`SearchBot._planned`).
PLAN_KEPT = 2
#: What searching the seat's next plot multiplies a trial's cost by, as the budget counts it (``rollout_cost``).
PLAN_COST = 3.0


class Player(Protocol):
    def choose(self, state: Any, seat: str, rng: random.Random) -> Any: ...


class Engine(Protocol):
    """What the bot asks of a rule system (a :class:`~vectorwar.rules.RuleSystem` has all of it)."""

    @property
    def holds_fire(self) -> bool: ...
    @property
    def prospect_moves(self) -> int: ...
    @property
    def search_margin(self) -> bool: ...

    def prompt(self, state: Any) -> Any: ...
    def parse_order(self, state: Any, seat: str, text: str) -> Any: ...
    def check_order(self, state: Any, seat: str, order: Any) -> None: ...
    def resolve(self, state: Any, orders: Mapping[str, Any], dice: Dice) -> tuple[Any, list[Any]]: ...
    def result(self, state: Any) -> Any: ...
    def random_order(self, state: Any, seat: str, rng: random.Random) -> Any: ...
    def move_options(self, state: Any, seat: str) -> Mapping[str, Sequence[Any]]: ...
    def with_move(self, state: Any, seat: str, order: Any, ship: str, move: Any) -> Any: ...
    def order_variants(self, state: Any, seat: str, order: Any) -> Sequence[Any]: ...
    def standing(self, state: Any) -> Mapping[str, float]: ...
    def fire_in_prospect(self, state: Any) -> Mapping[str, float] | None: ...
    def resolve_in_prospect(
        self, state: Any, orders: Mapping[str, Any], dice: Dice
    ) -> tuple[Any, Mapping[str, float]] | None: ...
    def setup_menu(self, state: Any, seat: str) -> Any: ...
    def search_declaration(self, state: Any, seat: str, order: Any) -> Any: ...
    def plan_ahead(self, state: Any, seat: str) -> int: ...
    def rollout_cost(self, state: Any) -> float: ...
    def bots(self) -> Mapping[str, Callable[[], Player]]: ...


class SearchBot:
    """Sampled-matrix search with rollouts by the system's fast bot; see the module's text."""

    def __init__(self, system: Engine, budget: Budget | None = None, seed: int = 0) -> None:
        self.system = system
        self.budget = budget or LEVELS[1]
        #: The bot's own seed: with the seat and the clock it seeds every decision, apart from the game's seed.
        self.seed = seed
        made = system.bots()
        self.policy: Player = made["greedy"]() if "greedy" in made else made["random"]()
        #: Rollouts run so far (for benchmarks and tests).
        self.rollouts = 0

    def choose(self, state: Any, seat: str, rng: random.Random) -> Any:
        # ``rng`` comes from the game's seed: left unused, so the answer depends on what the seat sees only.
        del rng
        prompt = self.system.prompt(state)
        own = random.Random(f"search:{self.seed}:{seat}:{prompt.clock if prompt else ''}")
        others = [s for s in prompt.seats if s != seat] if prompt is not None and prompt.simultaneous else []
        setup = self.system.setup_menu(state, seat) is not None
        options = {} if setup else self.system.move_options(state, seat)
        if setup or (not others and not options):
            # A fire declaration in turn sees everything before it, and its trials would differ only by luck
            # (two orders throw the same dice for different things): the fast bot's expected-value choice is
            # better. A movement plot is searched even when nobody else plots now (VMS subphases): where a
            # ship ends decides what the others can answer. A set-up choice (a fleet, a purchase, a
            # placement) shapes the whole game, which a rollout of a turn or two cannot judge: the fast bot's
            # rules of thumb are the better guide there too.
            given = self._candidates(state, seat, 1, own, {})[0]
            return given if setup else self._declared(state, seat, given)
        judging = self.judging(state)
        # A trial that searches the seat's next plot costs several of one that does not: the budget shrinks
        # to match, so a decision keeps to the same time.
        planning = PLAN_COST if judging is Judging.PROSPECT and self.system.plan_ahead(state, seat) else 1.0
        cost = self.system.rollout_cost(state) * planning
        budget = _scaled(self.budget, cost)
        # A system that counts the fire to come judges a trial nearly free of luck, and cheaply (a few moves,
        # no shots rolled): the bot can try every one-ship change of the fast bot's order, not a sample.
        wanted = _sweep(self.budget, cost) if judging.swept else max(budget.screen, budget.mine)
        mine = self._candidates(state, seat, wanted, own, options, sweep=judging.swept)
        if len(mine) == 1:
            return mine[0]
        profiles = self._profiles(state, others, budget.theirs, own)
        root = dict(self.system.standing(state))
        if len(mine) > budget.mine:
            mine = self._screened(state, seat, mine, profiles[0], root, budget.mine, own, judging)
        # Held-fire trials throw no dice at ships: a second round would repeat the first.
        rounds = 1 if judging is Judging.HELD else budget.rounds
        table = self._matrix(state, seat, mine, profiles, root, rounds, own, judging)
        if self.system.search_margin:
            return mine[_pick(table)]
        # The system's trials were measured stronger played as they judge, without favouring the fast bot's.
        return mine[_pick(table, z=0.0, bonus=0.0)]

    def _declared(self, state: Any, seat: str, given: Any) -> Any:
        """A fire declaration in turn: the fast bot's ``given``, as the system has a searcher give it
        (``search_declaration``), if that is legal here."""
        order = self.system.search_declaration(state, seat, given)
        if order is given:
            return given
        try:
            self.system.check_order(state, seat, order)
        except VectorwarError:
            return given
        return order

    def judging(self, state: Any) -> Judging:
        """How the trials from ``state`` are played and judged: by what the system offers there."""
        if self.system.fire_in_prospect(state) is not None:
            return Judging.PROSPECT
        return Judging.HELD if self.system.holds_fire else Judging.ROLLED

    # -- candidates -------------------------------------------------------------------

    def _candidates(
        self,
        state: Any,
        seat: str,
        wanted: int,
        rng: random.Random,
        options: Mapping[str, Sequence[Any]],
        sweep: bool = False,
    ) -> list[Any]:
        """Distinct legal orders for ``seat``: the fast bot's first, then one-ship variants of it (from
        ``options``, the seat's ``move_options``), then the menu's.

        With ``sweep``, the variants are every legal move of every ship (those ending nearest the fast
        bot's first, should ``wanted`` cut them short), then the system's ``order_variants``, and the menu
        adds nothing.
        """
        found: dict[str, Any] = {}

        def offer(order: Any, limit: int = wanted) -> None:
            text = str(order)
            if text in found or len(found) >= limit:
                return
            try:
                parsed = self.system.parse_order(state, seat, text)
                self.system.check_order(state, seat, parsed)
            except VectorwarError:
                return
            found[text] = parsed

        base = self.policy.choose(state, seat, random.Random(rng.getrandbits(64)))
        offer(base)
        if sweep:
            for order in self._changes(state, seat, base, options):
                if len(found) >= wanted:
                    break
                offer(order)
            # What the movement menu does not vary (AV:T's pivots): every one the system offers, past ``wanted``.
            variants = self.system.order_variants(state, seat, base)
            limit = len(found) + len(variants)
            for order in variants:
                offer(order, limit)
            return list(found.values())
        swaps = max(0, (wanted - 1) * 2 // 3)
        tries = 0
        near = {ship: _near(str(base), ship, moves) for ship, moves in options.items()} if swaps else {}
        while options and len(found) < 1 + swaps and tries < 4 * wanted:
            tries += 1
            ship = rng.choice(sorted(options))
            # Mostly a move ending next to the fast bot's (a small correction), sometimes any legal move.
            pool = near[ship] if near[ship] and rng.random() < NEAR_SHARE else options[ship]
            if pool:
                try:
                    offer(self.system.with_move(state, seat, base, ship, rng.choice(pool)))
                except VectorwarError:
                    continue
        tries = 0
        while len(found) < wanted and tries < 4 * wanted:
            tries += 1
            offer(self.system.random_order(state, seat, rng))
        if not found:
            # Every draw failed its check (it should not): the menu's order, unchecked, is still the rules' own.
            return [self.system.random_order(state, seat, rng)]
        return list(found.values())

    def _profiles(self, state: Any, others: Sequence[str], theirs: int, rng: random.Random) -> list[dict[str, Any]]:
        """Plausible orders of everyone else plotting now, as joint profiles (one empty one if nobody is)."""
        if not others:
            return [{}]
        per_seat = {s: self._candidates(state, s, theirs, rng, self.system.move_options(state, s)) for s in others}
        count = max(len(c) for c in per_seat.values())
        return [{s: c[j % len(c)] for s, c in per_seat.items()} for j in range(count)]

    # -- evaluation -------------------------------------------------------------------

    def _screened(
        self,
        state: Any,
        seat: str,
        mine: Sequence[Any],
        likeliest: dict[str, Any],
        root: Mapping[str, float],
        keep: int,
        rng: random.Random,
        judging: Judging,
    ) -> list[Any]:
        """The ``keep`` best of ``mine`` by ``SCREEN_ROUNDS`` rollouts each against the others' likeliest orders.

        One each where the fire is judged in prospect: those trials throw few dice (initiative, collisions),
        so a second says little, and the sweep tries ten times the orders.
        """
        seeds = [rng.getrandbits(64) for _ in range(1 if judging.swept else SCREEN_ROUNDS)]
        outcomes = [
            [
                self._outcome(self._rollout(state, {seat: order, **likeliest}, d, judging, seat), seat, root)
                for d in seeds
            ]
            for order in mine
        ]
        scale = _scale([o for row in outcomes for o in row])
        raw = [sum(_value(o, scale) for o in row) / len(row) for row in outcomes]
        scored = [(value + (FAST_BONUS if i == 0 else 0.0), -i) for i, value in enumerate(raw)]
        # The fast bot's own order (index 0) always stays in: it is the yardstick the rest must beat.
        best = [0, *(-i for _, i in sorted(scored, reverse=True) if i != 0)]
        kept = [mine[i] for i in best[:keep]]
        if judging.swept:
            # A sweep changes one ship at a time, so where two ships each found a better move, no order
            # tried both: the joint orders go to the matrix beside the best single changes.
            seen = {str(order) for order in kept}
            joined = self._joined(state, seat, mine, raw)
            kept.extend(order for order in joined if str(order) not in seen)
        return kept

    def _joined(self, state: Any, seat: str, mine: Sequence[Any], scores: Sequence[float]) -> list[Any]:
        """Orders that make several ships' best one-ship changes of ``mine[0]`` together (``scores`` in order).

        Each ship whose best variant scored over the fast bot's order lends that variant's entry: all of them
        together, and the best two alone when there are more. Orders that fail their check are dropped.
        """
        base = _entry_map(str(mine[0]))
        better: dict[str, tuple[float, str]] = {}
        for order, score in zip(mine[1:], scores[1:], strict=True):
            if score <= scores[0]:
                continue
            changed = [(ship, text) for ship, text in _entry_map(str(order)).items() if base.get(ship) != text]
            if len(changed) == 1 and score > better.get(changed[0][0], (float("-inf"), ""))[0]:
                better[changed[0][0]] = (score, changed[0][1])
        ranked = sorted(better.items(), key=lambda item: -item[1][0])
        joined: list[Any] = []
        for count in sorted({len(ranked), 2}, reverse=True):
            if count < 2 or count > len(ranked):
                continue
            merged = {**base, **{ship: text for ship, (_, text) in ranked[:count]}}
            try:
                order = self.system.parse_order(state, seat, "; ".join(merged.values()))
                self.system.check_order(state, seat, order)
            except VectorwarError:
                continue
            joined.append(order)
        return joined

    def _matrix(
        self,
        state: Any,
        seat: str,
        mine: Sequence[Any],
        profiles: Sequence[dict[str, Any]],
        root: Mapping[str, float],
        rounds: int,
        rng: random.Random,
        judging: Judging,
    ) -> list[list[list[float]]]:
        cells: list[list[list[Outcome]]] = [[[] for _ in profiles] for _ in mine]
        for _ in range(rounds):
            dice_seed = rng.getrandbits(64)
            for i, order in enumerate(mine):
                for j, theirs in enumerate(profiles):
                    trial = self._rollout(state, {seat: order, **theirs}, dice_seed, judging, seat)
                    cells[i][j].append(self._outcome(trial, seat, root))
        scale = _scale([o for row in cells for cell in row for o in cell])
        return [[[_value(o, scale) for o in cell] for cell in row] for row in cells]

    def _rollout(
        self, state: Any, orders: Mapping[str, Any], dice_seed: int, judging: Judging, seat: str | None = None
    ) -> Trial:
        """Where ``orders`` lead, on the bot's own dice, the fast bot playing on: the end and its standing.

        Played as ``judging`` says: :meth:`_moves_in_prospect` (``PROSPECT``), :meth:`_held_fire` (``HELD``), or
        ``horizon`` more prompts (to the end of the next turn at most) with the fire rolled (``ROLLED``).
        ``seat`` is the searching seat, whose next plot a ``PROSPECT`` trial searches too where the system
        plans ahead (``plan_ahead``); left out, the fast bot gives it like every other.
        """
        self.rollouts += 1
        dice = Dice(dice_seed)
        policy_rng = random.Random(dice_seed)
        if judging is Judging.HELD:
            return self._held_fire(state, orders, dice, policy_rng)
        start = self.system.prompt(state)
        turn = start.clock.turn if start is not None else 0
        planner = (
            seat if judging is Judging.PROSPECT and seat is not None and self.system.plan_ahead(state, seat) else None
        )
        if judging is Judging.PROSPECT:
            progress = _Progress(moved=turn)
            state = self._move_in_prospect(state, orders, dice, progress)
            return self._moves_in_prospect(state, dice, policy_rng, progress, planner)
        state, _ = self.system.resolve(state, orders, dice)
        last_turn = turn + self.budget.turns
        for played in range(HARD_STOP * self.budget.horizon):
            prompt = self.system.prompt(state)
            # Stopping at a turn's start, or where several seats plot together, leaves no side a move or a
            # shot ahead of another since the root.
            if prompt is None or prompt.clock.turn > last_turn:
                break
            if played >= self.budget.horizon and prompt.simultaneous and len(prompt.seats) > 1:
                break
            given = {s: self._fast_order(state, s, policy_rng) for s in prompt.seats}
            state, _ = self.system.resolve(state, given, dice)
            dice.log.clear()
        return state, self.system.standing(state)

    def _moves_in_prospect(
        self,
        state: Any,
        dice: Dice,
        rng: random.Random,
        progress: _Progress,
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
            given = {s: self._fast_order(state, s, rng, hold=hold) for s in prompt.seats}
            if planner is not None and prompt.simultaneous and planner in prompt.seats:
                return self._planned(state, given, dice, rng, p, planner)
            state = self._move_in_prospect(state, given, dice, p)
            dice.log.clear()
        return state, p.less_lost(self.system.standing(state)) if p.judged is None else p.judged

    def _move_in_prospect(self, state: Any, orders: Mapping[str, Any], dice: Dice, progress: _Progress) -> Any:
        """``orders`` resolved in a ``fire_in_prospect`` trial: by ``resolve_in_prospect`` where the system
        offers it there (VMS's moves, the missiles in flight counted in expectation), what each seat was
        expected to lose kept in ``progress``; else by ``resolve``."""
        done = self.system.resolve_in_prospect(state, orders, dice)
        if done is None:
            return self.system.resolve(state, orders, dice)[0]
        state, losses = done
        for s, v in losses.items():
            progress.lost[s] = progress.lost.get(s, 0.0) + v
        return state

    def _planned(
        self, state: Any, given: Mapping[str, Any], dice: Dice, rng: random.Random, progress: _Progress, seat: str
    ) -> Trial:
        """The rest of a ``fire_in_prospect`` trial from ``seat``'s next plot, that plot searched too.

        A trial that played the fast bot's next plot for the searching seat judged each first plot by what
        the fast bot makes of it, and the fast bot looks one move ahead: a first plot whose worth lies in the
        plot after it (a turn away from the pursuers that the next plot completes) was judged short. So the
        trial tries the fast bot's next plot and the system's ``plan_ahead`` one-ship changes of it (those
        ending nearest first), each judged where its moves are made, plays the best ``PLAN_KEPT`` on to the
        trial's end, and takes the best end. The others' plots stay the fast bot's: they are made at the same
        time, so they cannot answer this one. Every branch throws the same dice.
        """
        tried = [given[seat], *self._next_plots(state, seat, given[seat])]

        def played(order: Any, until: int | None) -> tuple[Trial, Dice, random.Random, _Progress]:
            branch_dice = Dice(dice.seed, dice.count)
            branch_rng = random.Random()
            branch_rng.setstate(rng.getstate())
            branch = progress.copy()
            after = self._move_in_prospect(state, {**given, seat: order}, branch_dice, branch)
            branch_dice.log.clear()
            trial = self._moves_in_prospect(after, branch_dice, branch_rng, branch, None, until)
            return trial, branch_dice, branch_rng, branch

        def rank(trial: Trial) -> tuple[float, float]:
            # Within one trial the root's standing is the same for every branch: it can be left out.
            fixed, gain = self._outcome(trial, seat, {})
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

    def _next_plots(self, state: Any, seat: str, base: Any) -> list[Any]:
        """Up to the system's ``plan_ahead`` legal one-ship changes of ``base``, the moves ending nearest first."""
        found: dict[str, Any] = {str(base): base}
        wanted = self.system.plan_ahead(state, seat)
        for order in self._changes(state, seat, base, self.system.move_options(state, seat)):
            if len(found) > wanted:
                break
            try:
                self.system.check_order(state, seat, order)
            except VectorwarError:
                continue
            found.setdefault(str(order), order)
        return list(found.values())[1:]

    def _changes(self, state: Any, seat: str, base: Any, options: Mapping[str, Sequence[Any]]) -> Iterator[Any]:
        """``base`` with one ship's move swapped for another of ``options`` (``with_move``), the moves ending
        nearest the ship's own first; a swap the system cannot make is skipped. Not checked."""
        for ship, move in _by_nearness(str(base), options):
            try:
                yield self.system.with_move(state, seat, base, ship, move)
            except VectorwarError:
                continue

    def _held_fire(self, state: Any, orders: Mapping[str, Any], dice: Dice, rng: random.Random) -> Trial:
        """The trial of a system whose fire comes in the same orders as the moves (``resolve_in_prospect``).

        Every prompt, the root's and then ``HELD`` more of the fast bot's (in AV:T, segments: half a turn), is
        resolved with its shots at ships counted in expectation and not rolled: the standing at the end, less
        what each seat was expected to lose on the way. The ships take no damage on the way, so every trial of
        a position meets the same fire and no throw of the dice decides it.
        """
        lost: dict[str, float] = {}
        given = orders
        for _ in range(1 + HELD):
            done = self.system.resolve_in_prospect(state, given, dice)
            if done is None:  # pragma: no cover - the system offered it at the root
                break
            state, losses = done
            for s, v in losses.items():
                lost[s] = lost.get(s, 0.0) + v
            dice.log.clear()
            prompt = self.system.prompt(state)
            if prompt is None:
                break
            given = {s: self._fast_order(state, s, rng) for s in prompt.seats}
        now = self.system.standing(state)
        return state, {s: v - lost.get(s, 0.0) for s, v in now.items()}

    def _fast_order(self, state: Any, seat: str, rng: random.Random, hold: bool = False) -> Any:
        """The fast bot's order (the menu's if it fails its check); with ``hold``, no fire if the order the
        kernel's notation calls ``hold`` is legal here (a fire declaration; not an order of declaring)."""
        if hold:
            try:
                held = self.system.parse_order(state, seat, HOLD)
                self.system.check_order(state, seat, held)
                return held
            except VectorwarError:
                pass  # not a fire declaration (an order of declaring, a set-up choice): the fast bot's
        order = self.policy.choose(state, seat, rng)
        try:
            self.system.check_order(state, seat, order)
        except VectorwarError:
            return self.system.random_order(state, seat, rng)
        return order

    def _outcome(self, trial: Trial, seat: str, root: Mapping[str, float]) -> Outcome:
        """A rollout's end for ``seat``: the value of a decided game, or ``None`` and the standing gained."""
        state, now = trial
        others = [s for s in now if s != seat]
        gain = now.get(seat, 0.0) - root.get(seat, 0.0)
        if others:
            gain -= sum(now[s] - root.get(s, 0.0) for s in others) / len(others)
        result = self.system.result(state)
        if result is None:
            return None, gain
        if not result.winners:
            return None, gain / 2  # a draw: half the weight of the same standing in an open game
        return (1.0 / len(result.winners) if seat in result.winners else 0.0), 0.0


#: A rollout's end: the value of a decided game (else ``None``) and the standing gained over the others.
Outcome = tuple[float | None, float]
#: A rollout's end: the state it reached and the standing it is judged by.
Trial = tuple[Any, Mapping[str, float]]


@dataclass(slots=True)
class _Progress:
    """How far a ``fire_in_prospect`` trial has come (:meth:`SearchBot._moves_in_prospect`): what it has judged so far,
    the standing and the fire in prospect at its last stop, the stops made, the weight of the next move's
    change, and the turn of the last movement plot played (``None`` after a stop until the next)."""

    moved: int | None
    judged: dict[str, float] | None = None
    last: Mapping[str, float] = field(default_factory=dict)
    fired: Mapping[str, float] = field(default_factory=dict)
    stops: int = 0
    weight: float = 1.0
    #: What each seat was expected to lose on the way, to fire not rolled (``resolve_in_prospect``).
    lost: dict[str, float] = field(default_factory=dict)

    def copy(self) -> _Progress:
        """The same progress, its judgement a copy of its own, for a branch that goes on apart."""
        return replace(self, judged=None if self.judged is None else dict(self.judged), lost=dict(self.lost))

    def less_lost(self, standing: Mapping[str, float]) -> dict[str, float]:
        """``standing`` less what each seat was expected to lose on the way."""
        return {s: v - self.lost.get(s, 0.0) for s, v in standing.items()}


def _scaled(budget: Budget, cost: float) -> Budget:
    """``budget`` with its screen and rounds divided by a rollout's relative ``cost``.

    A costly system's (``cost`` over 1) keeps at least ``mine`` orders and 2 rounds; a cheap one's (under 1)
    grows, so a decision takes about the same time in every system.
    """
    if cost == 1.0:
        return budget
    return replace(
        budget,
        screen=max(budget.mine, round(budget.screen / cost)),
        rounds=max(2, round(budget.rounds / cost)),
    )


def _sweep(budget: Budget, cost: float) -> int:
    """One-ship variants tried at most with a ``fire_in_prospect`` judge: ``SWEEP`` times the screen, divided by
    a rollout's relative ``cost``, never fewer than the orders kept.

    >>> _sweep(LEVELS[1], 1.0), _sweep(LEVELS[1], 3.5), _sweep(LEVELS[1], 100.0)
    (192, 55, 5)
    """
    return max(budget.mine, round(SWEEP * budget.screen / cost))


def _scale(outcomes: Sequence[Outcome]) -> float:
    """The largest gain among ``outcomes``: open games are judged against the best and worst seen this decision."""
    return max((abs(gain) for _, gain in outcomes), default=0.0) or 1.0


def _value(outcome: Outcome, scale: float) -> float:
    """0 (lost) to 1 (won); an open game lies within 0.5 +/- ``OPEN_WEIGHT`` by its share of the largest gain."""
    fixed, gain = outcome
    return fixed if fixed is not None else 0.5 + OPEN_WEIGHT * gain / scale


def _entry_map(text: str) -> dict[str, str]:
    """An order's entries by ship (lower-cased first word), each as written with its spaces collapsed.

    >>> _entry_map("Hawk 3; kite L")
    {'hawk': 'Hawk 3', 'kite': 'kite L'}
    """
    found: dict[str, str] = {}
    for e in [] if is_hold(text) else entries(text):
        found.setdefault(e.split()[0].lower(), " ".join(e.split()))  # a ship named twice: its first entry
    return found


def _chosen(text: str, ship: str, moves: Sequence[Any]) -> Any:
    """The move of ``moves`` that ``ship``'s entry in the order ``text`` makes, or ``None``."""
    mine = _entry_map(text).get(ship.lower())
    if mine is None:
        return None
    return next((m for m in moves if " ".join(m.text.lower().split()) == mine.lower()), None)


def _gap(a: Any, b: Any) -> int:
    """Hexes (and levels) between where two moves end."""
    return int(a.end.hex.distance(b.end.hex) + abs(a.end.altitude - b.end.altitude))


def _near(text: str, ship: str, moves: Sequence[Any]) -> list[Any]:
    """``ship``'s legal moves ending within a hex (or a level) of where its entry in ``text`` ends, itself left out."""
    chosen = _chosen(text, ship, moves)
    if chosen is None:
        return []
    return [m for m in moves if m is not chosen and _gap(m, chosen) <= 1]


def _by_nearness(text: str, options: Mapping[str, Sequence[Any]]) -> list[tuple[str, Any]]:
    """Every ``(ship, move)`` of ``options`` but the one the order ``text`` makes, nearest its end first."""
    found: list[tuple[int, int, str, Any]] = []
    for ship, moves in sorted(options.items()):
        chosen = _chosen(text, ship, moves)
        found.extend(
            (0 if chosen is None else _gap(m, chosen), i, ship, m) for i, m in enumerate(moves) if m is not chosen
        )
    found.sort(key=lambda item: item[:2])
    return [(ship, move) for _, _, ship, move in found]


def _pick(
    samples: Sequence[Sequence[Sequence[float]]],
    trust: float | None = None,
    caution: float | None = None,
    z: float | None = None,
    bonus: float | None = None,
) -> int:
    """The row to play: the best against the others' likely mix, if it beats the fast bot's (row 0) clearly.

    ``samples[i][j]`` holds row ``i``'s rollout values against guess ``j``, one per round, every round on
    the same dice for every cell. Regret matching on the mean table (rows maximise) gives the others' most
    damaging mix of guesses; alone it makes the bot timid, since on a few noisy trials the riskiest rows
    look worst somewhere. So the mix is blended with the guesses as drawn (the first, the fast bot's own,
    weighted ``trust``; the rest evenly), ``caution`` of the blend being regret matching's mix, and the row
    best against the blend is played if its paired advantage over row 0, round by round on the same dice,
    is more than ``bonus`` plus ``z`` standard errors; else row 0. An argument left out takes the
    module's setting (``TRUST``, ``CAUTION``, ``Z``, ``FAST_BONUS``).
    """
    trust = TRUST if trust is None else trust
    caution = CAUTION if caution is None else caution
    z = Z if z is None else z
    bonus = FAST_BONUS if bonus is None else bonus
    table = [[sum(cell) / len(cell) for cell in row] for row in samples]
    rows, cols = len(table), len(table[0])
    y = _equilibrium(table)
    prior = [1.0] if cols == 1 else [trust, *([(1 - trust) / (cols - 1)] * (cols - 1))]
    blend = [caution * y[j] + (1 - caution) * prior[j] for j in range(cols)]
    values = [sum(table[i][j] * blend[j] for j in range(cols)) for i in range(rows)]
    best = max(range(rows), key=lambda i: (values[i], -i))
    if best == 0:
        return 0
    rounds = min(len(cell) for row in samples for cell in row)
    diffs = [sum(blend[j] * (samples[best][j][r] - samples[0][j][r]) for j in range(cols)) for r in range(rounds)]
    mean = sum(diffs) / rounds
    spread = (sum((d - mean) ** 2 for d in diffs) / (rounds - 1)) ** 0.5 / rounds**0.5 if rounds > 1 else 0.0
    return best if mean > bonus + z * spread else 0


def _equilibrium(table: Sequence[Sequence[float]]) -> list[float]:
    """The columns' average strategy from regret matching plus on ``table`` (columns minimise)."""
    rows, cols = len(table), len(table[0])
    regret_r = [0.0] * rows
    regret_c = [0.0] * cols
    total_c = [0.0] * cols
    for _ in range(RM_SWEEPS):
        x = _strategy(regret_r)
        y = _strategy(regret_c)
        row_values = [sum(table[i][j] * y[j] for j in range(cols)) for i in range(rows)]
        col_values = [sum(table[i][j] * x[i] for i in range(rows)) for j in range(cols)]
        mean_r = sum(x[i] * row_values[i] for i in range(rows))
        mean_c = sum(y[j] * col_values[j] for j in range(cols))
        for i in range(rows):
            regret_r[i] = max(0.0, regret_r[i] + row_values[i] - mean_r)  # regret matching plus
        for j in range(cols):
            regret_c[j] = max(0.0, regret_c[j] + mean_c - col_values[j])
            total_c[j] += y[j]
    return [t / RM_SWEEPS for t in total_c]


def _strategy(regrets: Sequence[float]) -> list[float]:
    positive = sum(regrets)
    if positive <= 0:
        return [1.0 / len(regrets)] * len(regrets)
    return [r / positive for r in regrets]


def search_bots(system: Engine) -> dict[str, Callable[[], SearchBot]]:
    """``search`` (level 1) and the stronger ``search:2`` and ``search:3`` for ``system``."""
    made: dict[str, Callable[[], SearchBot]] = {}
    for level, budget in LEVELS.items():
        name = "search" if level == 1 else f"search:{level}"
        made[name] = lambda budget=budget: SearchBot(system, budget)  # type: ignore[misc]
    return made
