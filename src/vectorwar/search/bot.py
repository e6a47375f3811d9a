"""The search bot itself: candidates, the screen and the matrix of trials, the choice (:mod:`vectorwar.search`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from vectorwar.errors import VectorwarError
from vectorwar.search.budget import (
    FAST_BONUS,
    LEVELS,
    NEAR_SHARE,
    PLAN_COST,
    ROLLED_LEVELS,
    SCREEN_ROUNDS,
    SETTLED_ROUNDS,
    Budget,
    Judging,
    scaled,
    sweep_size,
)
from vectorwar.search.choice import Outcome, pick, scale_of, value_of
from vectorwar.search.collector import DECIDING
from vectorwar.search.near import entry_map, near_moves
from vectorwar.search.trials import HeldMemo, Trials

if TYPE_CHECKING:
    from vectorwar.rules import Bot, RuleSystem


class SearchBot(Trials):
    """Sampled-matrix search with rollouts by the system's fast bot (``trials``); see the module's text."""

    def __init__(
        self,
        system: RuleSystem[Any],
        budget: Budget | None = None,
        seed: int = 0,
        rolled: Budget | None = None,
        trials: str | None = None,
    ) -> None:
        self.system = system
        self.budget = budget or LEVELS[1]
        #: The budget where the trials roll their dice (``Judging.ROLLED``); ``budget`` unless given.
        self.rolled = rolled or self.budget
        #: The bot's own seed: with the side and the clock it seeds every decision, apart from the game's seed.
        self.seed = seed
        made = system.bots()
        #: The fast bot of the candidates and the guesses of the others' orders: ``greedy`` (``random`` where none).
        self.policy: Bot = made["greedy"]() if "greedy" in made else made["random"]()
        #: The fast bot the trials play on with, by name: ``trials``, else the system's ``rollout_bot``.
        self.trials = trials or system.rollout_bot()
        bots = system.rollout_bots()
        if self.trials not in bots:
            raise VectorwarError(f"{self.trials}: no such fast bot for a search's trials (choose from {sorted(bots)})")
        self.fast = bots[self.trials]()
        #: Rollouts run so far (for benchmarks and tests).
        self.rollouts = 0
        self.held = HeldMemo()

    def choose(self, state: Any, side: str, rng: random.Random) -> Any:
        # The cyclic collector's passes find no garbage in a decision's objects and cost up to 5 % of it (.collector).
        with DECIDING:
            return self._decided(state, side, rng)

    def _decided(self, state: Any, side: str, rng: random.Random) -> Any:
        """:meth:`choose`'s answer, worked out."""
        # ``rng`` comes from the game's seed: left unused, so the answer depends on what the side sees only.
        del rng
        self.held.clear()
        prompt = self.system.prompt(state)
        own = random.Random(f"search:{self.seed}:{side}:{prompt.clock if prompt else ''}")
        others = [s for s in prompt.sides if s != side] if prompt is not None and prompt.simultaneous else []
        setup = self.system.setup_menu(state, side) is not None
        options = {} if setup else self.system.move_options(state, side)
        if setup or (not others and not options):
            # A fire declaration in turn sees everything before it, and its trials would differ only by luck
            # (two orders throw the same dice for different things): the fast bot's expected-value choice is
            # better. A movement plot is searched even when nobody else plots now (VMS subphases): where a
            # ship ends decides what the others can answer. A set-up choice (a fleet, a purchase, a
            # placement) shapes the whole game, which a rollout of a turn or two cannot judge: the fast bot's
            # rules of thumb are the better guide there too.
            given = self._candidates(state, side, 1, own, {})[0]
            return given if setup else self._declared(state, side, given)
        judging = self.judging(state)
        # A trial that searches the side's next plot costs several of one that does not: the budget shrinks
        # to match, so a decision keeps to the same time.
        planning = PLAN_COST if judging is Judging.PROSPECT and self.system.plan_ahead(state, side) else 1.0
        cost = self.system.rollout_cost(state, self.trials) * planning
        budget = scaled(self.rolled if judging is Judging.ROLLED else self.budget, cost)
        # A system that counts the fire to come judges a trial nearly free of luck, and cheaply (a few moves,
        # no shots rolled): the bot can try every one-ship change of the fast bot's order, not a sample.
        wanted = sweep_size(self.budget, cost) if judging.swept else max(budget.screen, budget.mine)
        mine = self._candidates(state, side, wanted, own, options, sweep=judging.swept)
        if len(mine) == 1:
            return mine[0]
        if judging is Judging.HELD:
            # Held-fire trials (AV:T) played no stronger guessing the others by a search: the fast bot's guess
            # leads there at every level (docs/bots.md, Levels).
            budget = replace(budget, foresee=0)
        profiles = self._profiles(state, others, budget, own)
        root = dict(self.system.standing(state))
        mine = self._narrowed(state, side, mine, profiles[0], root, budget, own, judging)
        # Held-fire trials throw no dice at ships: a second round would repeat the first.
        rounds = 1 if judging is Judging.HELD else budget.rounds
        table = self._matrix(state, side, mine, profiles, root, rounds, own, judging)
        if self.system.search_margin:
            return mine[pick(table)]
        # The system's trials were measured stronger played as they judge, without favouring the fast bot's.
        return mine[pick(table, z=0.0, bonus=0.0)]

    def _narrowed(
        self,
        state: Any,
        side: str,
        mine: list[Any],
        likeliest: dict[str, Any],
        root: Mapping[str, float],
        budget: Budget,
        rng: random.Random,
        judging: Judging,
    ) -> list[Any]:
        """``mine`` cut to the budget's ``mine`` orders by the screen."""
        if len(mine) <= budget.mine:
            return mine
        return self._screened(state, side, mine, likeliest, root, budget.mine, rng, judging)

    def _declared(self, state: Any, side: str, given: Any) -> Any:
        """A fire declaration in turn: the fast bot's ``given``, as the system has a searcher give it
        (``search_declaration``), if that is legal here."""
        order = self.system.search_declaration(state, side, given)
        if order is given:
            return given
        try:
            self.system.check_order(state, side, order)
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
        side: str,
        wanted: int,
        rng: random.Random,
        options: Mapping[str, Sequence[Any]],
        sweep: bool = False,
    ) -> list[Any]:
        """Distinct legal orders for ``side``: the fast bot's first, then one-ship variants of it (from
        ``options``, the side's ``move_options``), then the menu's.

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
                parsed = self.system.parse_order(state, side, text)
                self.system.check_order(state, side, parsed)
            except VectorwarError:
                return
            found[text] = parsed

        base = self.policy.choose(state, side, random.Random(rng.getrandbits(64)))
        offer(base)
        if sweep:
            for order in self._changes(state, side, base, options):
                if len(found) >= wanted:
                    break
                offer(order)
            # What the movement menu does not vary (AV:T's pivots): every one the system offers, past ``wanted``.
            variants = self.system.order_variants(state, side, base)
            limit = len(found) + len(variants)
            for order in variants:
                offer(order, limit)
            return list(found.values())
        swaps = max(0, (wanted - 1) * 2 // 3)
        tries = 0
        near = {ship: near_moves(str(base), ship, moves) for ship, moves in options.items()} if swaps else {}
        while options and len(found) < 1 + swaps and tries < 4 * wanted:
            tries += 1
            ship = rng.choice(sorted(options))
            # Mostly a move ending next to the fast bot's (a small correction), sometimes any legal move.
            pool = near[ship] if near[ship] and rng.random() < NEAR_SHARE else options[ship]
            if pool:
                try:
                    offer(self.system.with_move(state, side, base, ship, rng.choice(pool)))
                except VectorwarError:
                    continue
        tries = 0
        while len(found) < wanted and tries < 4 * wanted:
            tries += 1
            offer(self.system.random_order(state, side, rng))
        if not found:
            # Every draw failed its check (it should not): the menu's order, unchecked, is still the rules' own.
            return [self.system.random_order(state, side, rng)]
        return list(found.values())

    def _profiles(self, state: Any, others: Sequence[str], budget: Budget, rng: random.Random) -> list[dict[str, Any]]:
        """Plausible orders of everyone else plotting now, as joint profiles (one empty one if nobody is).

        Each side's likeliest order leads: the fast bot's, or where the budget says so (``foresee``) the order a
        search of that level would give in the side's place, worked out on this side's view.
        """
        if not others:
            return [{}]
        per_side = {
            s: self._candidates(state, s, budget.theirs, rng, self.system.move_options(state, s)) for s in others
        }
        if budget.foresee:
            for s, guesses in per_side.items():
                led = self._foreseen(state, s, budget.foresee)
                per_side[s] = [led, *(g for g in guesses if str(g) != str(led))][: budget.theirs]
        count = max(len(c) for c in per_side.values())
        return [{s: c[j % len(c)] for s, c in per_side.items()} for j in range(count)]

    def _foreseen(self, state: Any, side: str, level: int) -> Any:
        """What a search of ``level`` would plot for ``side`` on ``state`` (this side's view), its trials counted."""
        other = SearchBot(self.system, LEVELS[level], self.seed, ROLLED_LEVELS.get(level), self.trials)
        # The other search reads no game's random source (``choose`` seeds its own from the view): any will do.
        order = other.choose(state, side, random.Random(0))
        self.rollouts += other.rollouts
        return order

    # -- evaluation -------------------------------------------------------------------

    def _screened(
        self,
        state: Any,
        side: str,
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
                self._outcome(self._rollout(state, {side: order, **likeliest}, d, judging, side), side, root)
                for d in seeds
            ]
            for order in mine
        ]
        scale = scale_of([o for row in outcomes for o in row])
        raw = [sum(value_of(o, scale) for o in row) / len(row) for row in outcomes]
        kept = [mine[i] for i in fast_first(dict(enumerate(raw)))[:keep]]
        if judging.swept:
            # A sweep changes one ship at a time, so where two ships each found a better move, no order
            # tried both: the joint orders go to the matrix beside the best single changes.
            seen = {str(order) for order in kept}
            joined = self._joined(state, side, mine, raw)
            kept.extend(order for order in joined if str(order) not in seen)
        return kept

    def _joined(self, state: Any, side: str, mine: Sequence[Any], scores: Sequence[float]) -> list[Any]:
        """Orders that make several ships' best one-ship changes of ``mine[0]`` together (``scores`` in order).

        Each ship whose best variant scored over the fast bot's order lends that variant's entry: all of them
        together, and the best two alone when there are more. Orders that fail their check are dropped.
        """
        base = entry_map(str(mine[0]))
        better: dict[str, tuple[float, str]] = {}
        for order, score in zip(mine[1:], scores[1:], strict=True):
            if score <= scores[0]:
                continue
            changed = [(ship, text) for ship, text in entry_map(str(order)).items() if base.get(ship) != text]
            if len(changed) == 1 and score > better.get(changed[0][0], (float("-inf"), ""))[0]:
                better[changed[0][0]] = (score, changed[0][1])
        ranked = sorted(better.items(), key=lambda item: -item[1][0])
        joined: list[Any] = []
        for count in sorted({len(ranked), 2}, reverse=True):
            if count < 2 or count > len(ranked):
                continue
            merged = {**base, **{ship: text for ship, (_, text) in ranked[:count]}}
            try:
                order = self.system.parse_order(state, side, "; ".join(merged.values()))
                self.system.check_order(state, side, order)
            except VectorwarError:
                continue
            joined.append(order)
        return joined

    def _matrix(
        self,
        state: Any,
        side: str,
        mine: Sequence[Any],
        profiles: Sequence[dict[str, Any]],
        root: Mapping[str, float],
        rounds: int,
        rng: random.Random,
        judging: Judging,
    ) -> list[list[list[float]]]:
        cells: list[list[list[Outcome]]] = [[[] for _ in profiles] for _ in mine]
        settles = self.budget.settle and judging.swept
        for played in range(rounds):
            dice_seed = rng.getrandbits(64)
            if played == SETTLED_ROUNDS and settles and all(len(set(c)) == 1 for row in cells for c in row):
                break  # every cell's rounds ended alike: more rounds would repeat them (``SETTLED_ROUNDS``)
            for i, order in enumerate(mine):
                for j, theirs in enumerate(profiles):
                    trial = self._rollout(state, {side: order, **theirs}, dice_seed, judging, side)
                    cells[i][j].append(self._outcome(trial, side, root))
        scale = scale_of([o for row in cells for cell in row for o in cell])
        return [[[value_of(o, scale) for o in cell] for cell in row] for row in cells]


def level_name(level: int) -> str:
    """The player's name of a search level: ``search`` for level 1, ``search:N`` above.

    >>> level_name(1), level_name(3)
    ('search', 'search:3')
    """
    return "search" if level == 1 else f"search:{level}"


def search_bots(system: RuleSystem[Any]) -> dict[str, Callable[[], SearchBot]]:
    """``search`` (level 1) and the stronger ``search:2`` and ``search:3`` for ``system``."""
    made: dict[str, Callable[[], SearchBot]] = {}
    for level, budget in LEVELS.items():
        name = level_name(level)
        rolled = ROLLED_LEVELS.get(level, budget)
        made[name] = lambda budget=budget, rolled=rolled: SearchBot(system, budget, rolled=rolled)  # type: ignore[misc]
    return made


def fast_first(values: Mapping[int, float]) -> list[int]:
    """Candidate indices best first by ``values`` (the fast bot's order, index 0, worth ``FAST_BONUS`` more;
    ties to the lower index), with index 0 first whatever its value: the yardstick the rest must beat always
    stays in.

    >>> fast_first({0: 0.1, 1: 0.5, 2: 0.5, 3: 0.2})
    [0, 1, 2, 3]
    """
    ranked = sorted(values, key=lambda i: (values[i] + (FAST_BONUS if i == 0 else 0.0), -i), reverse=True)
    return [0, *(i for i in ranked if i != 0)]
