"""The fifth system's rules (see the package's docstring)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import ClassVar

from vectorwar.dice import Dice
from vectorwar.display import Counter
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.events import Event, GameOver, Moved, Rolled, TurnBegan
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.maps import HexMap
from vectorwar.rules import Clock, Manifest, OptionValue, Order, PhaseSpec, Prompt, Result, RuleSystem
from vectorwar.scenario import Scenario

#: How far a boat shoots, in hexes.
REACH = 3
STAY = "stay"
RULE_MOVE = "fifth: a boat steps one hex and stays on the map"


@dataclass(frozen=True, slots=True)
class Boat:
    id: str
    side: str
    at: Hex
    facing: Direction
    sunk: bool = False


@dataclass(frozen=True, slots=True)
class FifthState:
    turn: int
    sides: tuple[str, ...]
    boats: tuple[Boat, ...]
    map: HexMap
    max_turns: int
    over: bool = False


@dataclass(frozen=True, slots=True)
class Step:
    """A plot: the direction a boat steps in, or ``None`` to stay."""

    towards: Direction | None

    def __str__(self) -> str:
        return STAY if self.towards is None else str(self.towards)


@dataclass(frozen=True, slots=True)
class Shot(Event):
    """A roll-over shot: hits on ``need`` or more."""

    kind: ClassVar[str] = "fifth-shot"
    boat: str
    target: str
    range: int
    need: int
    roll: int
    hit: bool

    def describe(self) -> str:
        verdict = "hit, sunk" if self.hit else "miss"
        return (
            f"{self.boat} shoots at {self.target}, range {self.range}, "
            f"needs {self.need} or more, rolls {self.roll}: {verdict}"
        )


MANIFEST = Manifest(
    name="fifth",
    title="Fifth (test fixture)",
    source="vectorwar's tests: one boat a side, roll over to hit",
    phases=(PhaseSpec("plot", "every boat steps one hex or stays, then shoots", orders="plot", simultaneous=True),),
    dice=("d6",),
)


class FifthSystem(RuleSystem[FifthState]):
    manifest = MANIFEST
    state_type = FifthState

    def new_state(self, scenario: Scenario, options: Mapping[str, OptionValue]) -> FifthState:
        hex_map = scenario.hex_map()
        boats = tuple(
            Boat(placed.id, side, placed.start_hex(hex_map, where), placed.direction)
            for where, side, placed in scenario.placements()
        )
        return FifthState(1, tuple(s.id for s in scenario.sides), boats, hex_map, scenario.max_turns)

    def start(self, state: FifthState, dice: Dice) -> tuple[FifthState, list[Event]]:
        return state, [TurnBegan(state.turn)]

    def _afloat(self, state: FifthState, side: str) -> Boat | None:
        return next((b for b in state.boats if b.side == side and not b.sunk), None)

    def prompt(self, state: FifthState) -> Prompt | None:
        if state.over:
            return None
        sides = tuple(s for s in state.sides if self._afloat(state, s))
        return Prompt(
            Clock(state.turn, "plot"), sides, "plot", True, "a direction letter A-F to step that way, or stay"
        )

    def parse_order(self, state: FifthState, side: str, text: str) -> Order:
        word = text.strip()
        if word.lower() == STAY:
            return Step(None)
        if word.upper() not in Direction.__members__:
            raise OrderSyntaxError(text, "give a direction letter A-F, or 'stay'")
        return Step(Direction.parse(word))

    def check_order(self, state: FifthState, side: str, order: Order) -> None:
        boat = self._afloat(state, side)
        if boat is None:
            raise IllegalOrderError(str(order), f"{side} has no boat afloat", RULE_MOVE)
        if not isinstance(order, Step):
            raise IllegalOrderError(str(order), "a plot is a direction letter or 'stay'", RULE_MOVE)
        if order.towards is not None and not state.map.contains(boat.at.neighbour(order.towards)):
            raise IllegalOrderError(str(order), f"{boat.id} would leave the map", RULE_MOVE)

    def _legal(self, state: FifthState, side: str) -> list[Step]:
        boat = self._afloat(state, side)
        if boat is None:
            return []
        steps = [Step(d) for d in Direction if state.map.contains(boat.at.neighbour(d))]
        return [Step(None), *steps]

    def resolve(self, state: FifthState, orders: Mapping[str, Order], dice: Dice) -> tuple[FifthState, list[Event]]:
        events: list[Event] = []
        moved: list[Boat] = []
        for boat in state.boats:
            order = orders.get(boat.side)
            if boat.sunk or not isinstance(order, Step) or order.towards is None:
                moved.append(boat)
                continue
            to = boat.at.neighbour(order.towards)
            events.append(Moved(boat.id, str(order), (Position(boat.at), Position(to)), order.towards))
            moved.append(replace(boat, at=to, facing=order.towards))
        # Both boats shoot before either sinks: the shots are simultaneous.
        hit: set[str] = set()
        for boat in moved:
            if boat.sunk:
                continue
            for target in moved:
                reach = boat.at.distance(target.at)
                if target.side == boat.side or target.sunk or reach > REACH:
                    continue
                need = 3 + reach
                thrown = dice.roll("d6", f"{boat.id} shoots at {target.id}")
                events.append(Rolled.of(thrown))
                roll = thrown.total
                events.append(Shot(boat.id, target.id, reach, need, roll, roll >= need))
                if roll >= need:
                    hit.add(target.id)
        boats = tuple(replace(b, sunk=True) if b.id in hit else b for b in moved)
        after = replace(state, boats=boats)
        afloat = [s for s in state.sides if self._afloat(after, s)]
        if len(afloat) <= 1 or state.turn >= state.max_turns:
            after = replace(after, over=True)
            result = self._outcome(after)
            events.append(GameOver(result.winners, result.reason))
            return after, events
        after = replace(after, turn=state.turn + 1)
        events.append(TurnBegan(after.turn))
        return after, events

    def _outcome(self, state: FifthState) -> Result:
        afloat = tuple(s for s in state.sides if self._afloat(state, s))
        if len(afloat) == 1:
            return Result(afloat, f"{afloat[0]} has the last boat afloat")
        if not afloat:
            return Result((), "every boat sunk")
        return Result((), f"turn {state.max_turns} ended with boats afloat")

    def result(self, state: FifthState) -> Result | None:
        return self._outcome(state) if state.over else None

    def random_order(self, state: FifthState, side: str, rng: random.Random) -> Order:
        return rng.choice(self._legal(state, side))

    def board(self, state: FifthState) -> HexMap | None:
        return state.map

    def counters(self, state: FifthState) -> list[Counter]:
        return [
            Counter(b.id, b.side, Position(b.at), b.facing, "destroyed" if b.sunk else "active", b.id)
            for b in state.boats
        ]
