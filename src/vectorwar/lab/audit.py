"""The bot audit: computer players watched over whole games for what no player should ever do.

Every side of a scenario is given the same computer player and the game is played out, step by step,
watching for

* a **crash**: the bot raised an error instead of giving an order;
* a **refused order**: the bot gave an order the rules refused;
* a ship that **left the map** though one of its legal plots would have kept it on (a plot the rules
  warn of no edge for), where leaving gained its side nothing: its standing did not rise, as the dice
  fell nor on average over other throws of them, and the game did not end won by it (a run that scores
  by leaving, like a pirate's escape, a prize carried home or a bomb that may miss, is the point);
* a side that **stalled**: five turns in a row in which none of its ships moved, turned or changed
  speed though one had another plot to choose, and no side's standing changed, while an enemy ship was
  on the map, in a game it did not win (a side that sits out the clock on a lead that wins it is
  playing, not stalling);
* a two-side game that **drifted** to the turn limit after the first contact: it ran to the scenario's
  last turn and ended undecided (no side won), the sides having met and then lost touch, with no
  contact in its last five turns, while a side could still attack (a game where the system says none
  can, :meth:`~vectorwar.rules.RuleSystem.can_attack`, is a stalemate). A *contact* is a turn in which
  a shot was fired, read from the game's events as the lab reads them
  (:func:`vectorwar.lab.games.ship_tallies`: an event naming a ``ship`` and its ``target``, as a shot,
  a missile launch or its landing does in every system), or in which a side declaring fire had a shot
  to declare (:meth:`~vectorwar.rules.RuleSystem.fire_options` not empty); the *first contact* is the
  first such turn. A game whose sides never came within reach
  has nothing to fight over, and one fought to its last turn did not drift. One finding a game,
  charged to the first side.

The first two are faults in any player; the last three in a player that means to play well, so they
are not counted against ``random``, which plays any legal order by design.

Nothing here changes a bot: it reports (:func:`audit`), and a test lists what it finds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vectorwar.catalogue import builtin_scenario
from vectorwar.dice import Dice
from vectorwar.display import Counter
from vectorwar.errors import VectorwarError
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.play import bot_order
from vectorwar.rules import Bot, RuleSystem
from vectorwar.scenario import Scenario
from vectorwar.setup import set_up

#: Turns in a row with nothing changed that make a stall.
STILL_TURNS = 5
#: Players judged only on crashes and refused orders (they play any legal order by design).
ANY_LEGAL_ORDER = frozenset({"random"})
#: A counter's statuses that mean it flew off the map (MSC and VMS disengage, VV5 exits).
LEFT = frozenset({"disengaged", "exited"})

CRASH = "crash"
REFUSED = "refused order"
LEFT_MAP = "left the map"
STALLED = "stalled"
DRIFTED = "drifted to the turn limit"


@dataclass(frozen=True)
class Finding:
    """One thing a bot did that it should not have, where and when."""

    scenario: str
    player: str
    seed: int
    side: str
    kind: str
    turn: int
    detail: str

    def __str__(self) -> str:
        where = f"{self.scenario} seed {self.seed}, {self.side} ({self.player}), turn {self.turn}"
        return f"{where}: {self.kind}: {self.detail}"


def audit(scenarios: Iterable[str], players: Sequence[str], seeds: Iterable[int]) -> list[Finding]:
    """Every finding of every player in every side of every scenario (built-in ids), over ``seeds``."""
    found: list[Finding] = []
    seed_list = list(seeds)
    for scenario_id in scenarios:
        scenario = builtin_scenario(scenario_id)
        for player in players:
            for seed in seed_list:
                found.extend(audit_game(scenario, player, seed))
    return found


def audit_game(
    scenario: Scenario,
    player: str,
    seed: int,
    options: Mapping[str, object] | None = None,
    bot: Callable[[], Bot] | None = None,
) -> list[Finding]:
    """Play ``scenario`` with ``player`` in every side and report what it should not have done.

    ``bot`` makes a player of another kind than the system's (a test's), named ``player`` in the findings."""
    sides = [s.id for s in scenario.sides]
    setup = set_up(scenario, dict.fromkeys(sides, "random" if bot else player), seed=seed, options=options)
    game = setup.game
    bots = {side: bot() for side in sides} if bot else setup.bots
    judged = player not in ANY_LEGAL_ORDER
    watch = _Watch(game, scenario.id, player, seed)
    while not game.is_over:
        before = _pieces(game) if judged else {}
        standing_before = game.system.standing(game.state) if judged else {}
        stay, choosing = _plots(game) if judged else (set(), set())
        watch.chose |= choosing
        logged, step_turn = len(game.events), _turn(game)
        if judged and _shot_offered(game):
            watch.touch(step_turn)
        start, given = game.state, dict[str, Any]()
        for side in game.waiting_for:
            turn = _turn(game)
            try:
                order = bot_order(game, side, bots[side])
            except Exception as err:  # any error a bot raises is the finding
                return [*watch.found, watch.finding(side, CRASH, turn, f"{type(err).__name__}: {err}")]
            given[side] = order
            try:
                game.submit(side, order)
            except VectorwarError as err:
                return [*watch.found, watch.finding(side, REFUSED, turn, f"{order}: {err}")]
            except Exception as err:  # an order the rules choke on is the bot's too
                return [*watch.found, watch.finding(side, CRASH, turn, f"{order}: {type(err).__name__}: {err}")]
        if judged:
            watch.contact(game.events[logged:], step_turn)
            watch.departures(before, stay, standing_before, _Step(start, given))
            watch.stillness()
    if judged:
        watch.drift(scenario)
        watch.pardon_winners()
    return watch.found


class _Watch:
    """What the audit remembers through a game: findings, the last turn's pieces, still turns by side."""

    def __init__(self, game: Game, scenario: str, player: str, seed: int) -> None:
        self.game, self.scenario, self.player, self.seed = game, scenario, player, seed
        self.found: list[Finding] = []
        self.turn = _turn(game)
        self.pieces = _pieces(game)
        self.standing = dict(game.system.standing(game.state))
        self.still = dict.fromkeys(game.sides, 0)
        #: The sides that had more than one plot to choose from for some ship this turn.
        self.chose: set[str] = set()
        self.stalled: set[str] = set()
        #: The turns of the first and the last contact (a shot fired or offered), if any.
        self.first_contact: int | None = None
        self.last_contact: int | None = None

    def finding(self, side: str, kind: str, turn: int, detail: str) -> Finding:
        return Finding(self.scenario, self.player, self.seed, side, kind, turn, detail)

    def departures(
        self, before: Mapping[str, Counter], stay: set[str], standing_before: Mapping[str, float], step: _Step
    ) -> None:
        """Ships that left the map this step though they could have stayed, their side gaining nothing, as the
        dice fell or in expectation (:meth:`_Step.expected`: a bomber's miss as it leaves is still its run)."""
        after = _pieces(self.game)
        standing = self.game.system.standing(self.game.state)
        board = self.game.board
        # Where another sheet is laid down at the edge (AV:T), flying past the frame leaves nothing.
        framed = not self.game.system.geomorphic(self.game.state)
        result = self.game.result
        # Each side's standing after the step on average over other throws, replayed once a side however many of
        # its ships left in the step.
        averages: dict[str, float] = {}
        for ship, was in before.items():
            if ship not in stay or was.status != "active":
                continue
            now = after.get(ship)
            left = now is not None and (now.status in LEFT or (framed and not board.contains(now.position.hex)))
            # A departure that wins the game (a pod taken home) gains all, whatever the standing says.
            won = result is not None and was.side in result.winners
            start = standing_before.get(was.side, 0.0)
            if not left or won or standing.get(was.side, 0.0) > start:
                continue
            if was.side not in averages:
                averages[was.side] = step.expected(self.game.system, was.side)
            if averages[was.side] <= start:
                self.found.append(
                    self.finding(
                        was.side, LEFT_MAP, self.turn, f"{ship} left from {was.position} though a plot kept it on"
                    )
                )

    def touch(self, turn: int) -> None:
        """Note a contact on ``turn``."""
        self.last_contact = turn
        if self.first_contact is None:
            self.first_contact = turn

    def contact(self, events: Sequence[Event], turn: int) -> None:
        """Note a contact on ``turn`` if a shot was fired among the ``events`` of a step in it."""
        if any(_is_shot(e) for e in events):
            self.touch(turn)

    def drift(self, scenario: Scenario) -> None:
        """A finished two-side game that ran to its turn limit undecided, the sides out of touch at the end."""
        result, end = self.game.result, _turn(self.game)
        if len(scenario.sides) != 2 or result is None or result.winners or end < scenario.max_turns:
            return
        if self.first_contact is None or self.last_contact is None or end - self.last_contact < STILL_TURNS:
            return
        # A stalemate is no drift: the rule system says no side has a ship left that can both move and fire.
        state = self.game.state
        if all(self.game.system.can_attack(state, s.id) is False for s in scenario.sides):
            return
        detail = (
            f"undecided at turn {end}: first contact on turn {self.first_contact}, none after turn {self.last_contact}"
        )
        self.found.append(self.finding(scenario.sides[0].id, DRIFTED, end, detail))

    def pardon_winners(self) -> None:
        """Drop the stalls of the sides that won the finished game: they waited out the clock on a winning lead."""
        result = self.game.result
        winners = set() if result is None else set(result.winners)
        self.found = [f for f in self.found if f.kind != STALLED or f.side not in winners]

    def stillness(self) -> None:
        """At each new turn, count for every side the turns in a row in which nothing it has changed."""
        turn = _turn(self.game)
        if turn == self.turn or self.game.is_over:
            return
        pieces = _pieces(self.game)
        standing = dict(self.game.system.standing(self.game.state))
        for side in self.game.sides:
            mine = {k: _motion(c) for k, c in pieces.items() if c.side == side and c.status == "active"}
            was = {k: _motion(c) for k, c in self.pieces.items() if c.side == side and c.status == "active"}
            enemy = any(c.side != side and c.status == "active" for c in pieces.values())
            if mine and mine == was and standing == self.standing and enemy and side in self.chose:
                self.still[side] += 1
            else:
                self.still[side] = 0
            if self.still[side] >= STILL_TURNS and side not in self.stalled:
                self.stalled.add(side)
                self.found.append(
                    self.finding(side, STALLED, turn, f"{STILL_TURNS} turns with no ship moved and nothing changed")
                )
        self.turn, self.pieces, self.standing = turn, pieces, standing
        self.chose = set()


#: Other throws of the dice a departure's step is played again with to judge what it gains in expectation.
REPLAYS = 216


@dataclass(frozen=True)
class _Step:
    """One step of the game: the state it started from and the orders given in it."""

    state: Any
    orders: Mapping[str, Any]

    def expected(self, system: RuleSystem[Any], side: str) -> float:
        """``side``'s standing after the step, averaged over ``REPLAYS`` other throws of the dice: what leaving
        gains in expectation where the dice decide it (cargo that scores by a roll as it leaves)."""
        total = 0.0
        for seed in range(REPLAYS):
            after, _ = system.resolve(self.state, self.orders, Dice(seed))
            total += system.standing(after).get(side, 0.0)
        return total / REPLAYS


def _turn(game: Game) -> int:
    clock = game.clock
    if clock is not None:
        return clock.turn
    return game.history[-1].clock.turn if game.history else 0


def _pieces(game: Game) -> dict[str, Counter]:
    return {c.id: c for c in game.system.counters(game.state)}


def _motion(counter: Counter) -> tuple[Any, ...]:
    return (counter.position, counter.facing, counter.velocity)


def _is_shot(event: Event) -> bool:
    """A shot's event (fired, launched, landed): one naming a shooting ship and its target."""
    return isinstance(getattr(event, "ship", None), str) and isinstance(getattr(event, "target", None), str)


def _shot_offered(game: Game) -> bool:
    """Whether a side due to order now could declare a shot."""
    system, state = game.system, game.state
    return any(any(system.fire_options(state, side).values()) for side in game.waiting_for)


def _plots(game: Game) -> tuple[set[str], set[str]]:
    """The ships due to plot now that have a legal plot the edge does nothing to, and the sides due to plot now
    that have a choice (some ship with more than one legal plot: a ship whose drive is gone has none)."""
    system, state, board = game.system, game.state, game.board
    stay: set[str] = set()
    choosing: set[str] = set()
    for side in game.waiting_for:
        for ship, options in system.move_options(state, side).items():
            if len(options) > 1:
                choosing.add(side)
            if any(system.edge_warning(state, option, board) is None for option in options):
                stay.add(ship)
    return stay, choosing
