"""The Dogfight purchase as a set-up phase before turn 1 (VV5 scenario 1).

A scenario asks for it with a ``[setup.purchase]`` table: which sides buy,
their points (``"2d6+8"``, rolled once for all sides and logged, or a
fixed number; ``double`` for a larger dogfight), the designs on offer, and each buying side's start
hexes. Sides then take turns to buy, one type at a time, in pairs where the
points allow and never more than three starships (the rules in
:mod:`vectorwar.systems.vv5.purchase`), until each side says ``done`` or can
buy nothing more. Bought ships are placed on their side's start hexes in the
order they were bought.

With ``draw = true`` the text's variant is played: one counter per fighter
type goes in a cup; a side picking draws until it has two types before it
(counting the type the previous pick left on the table) and must buy one of
them if it can. Points left over wait for the side's next pick.

Orders: ``buy 2 harpy`` or ``done``.

>>> Buy.parse("buy 2 Harpy"), str(Buy.parse("done"))
(Buy(design='harpy', count=2), 'done')
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.events import Event, Note, Rolled
from vectorwar.hexes import Direction
from vectorwar.limits import read_number
from vectorwar.maps import HexMap
from vectorwar.rules import Clock, Prompt
from vectorwar.scenario import Scenario, check_start_velocity, validate_model
from vectorwar.systems.vv5 import catalogue
from vectorwar.systems.vv5.design import Design
from vectorwar.systems.vv5.equipment import build_ship
from vectorwar.systems.vv5.purchase import MAX_SHIPS, purchase_choices, roll_budget
from vectorwar.systems.vv5.state import PurchaseState, StartSlots, VV5State
from vectorwar.vectors import Velocity

RULE = "VV5 Scenario 1 (purchase)"
HELP = "buy a type, in pairs where you can afford them: e.g. 'buy 2 harpy' (see `vectorwar ships vv5`), or 'done'"
_BUY = re.compile(r"^\s*buy\s+(\d+)\s+([A-Za-z][A-Za-z0-9_-]*)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy ``count`` starships of ``design``; ``Buy("", 0)`` ends this side's buying."""

    design: str
    count: int

    @classmethod
    def parse(cls, text: str) -> Buy:
        if text.strip().lower() in ("done", "pass", "stop"):
            return cls("", 0)
        m = _BUY.match(text)
        if not m:
            raise OrderSyntaxError(text, "write 'buy COUNT DESIGN', e.g. 'buy 2 harpy', or 'done'")
        return cls(m.group(2).lower(), read_number(m.group(1), "starships in one buy", MAX_SHIPS, text, RULE))

    def __str__(self) -> str:
        return "done" if not self.count else f"buy {self.count} {self.design}"


class StartSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: list[str] = Field(min_length=MAX_SHIPS, description="Start hexes in order, e.g. F@0,2 (three or more)")
    facing: str = Field(description="Heading of every bought ship, A-F")
    velocity: str = Field(default="0", description="Starting velocity of every bought ship, e.g. C=1")
    prefix: str = Field(pattern=r"^[A-Za-z]+$", description="Ship ids are this plus a number, e.g. X for X1, X2")

    @field_validator("velocity")
    @classmethod
    def _velocity(cls, v: str) -> str:
        return check_start_velocity(v)


class PurchaseSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    points: int | Literal["2d6+8"] = Field(default="2d6+8", description="Tons every side may spend (one roll)")
    double: bool = Field(default=False, description="A larger dogfight: double the points")
    draw: bool = Field(default=False, description="The draw-from-a-container variant")
    pool: list[str] = Field(
        default_factory=list, description="Designs on offer (default: every fighter of 10 t or less)"
    )
    start: dict[str, StartSpec] = Field(description="Each buying side's start hexes, heading and velocity")


def read_setup(scenario: Scenario, designs: Mapping[str, Design], hex_map: HexMap) -> PurchaseState | None:
    """Validate ``[setup.purchase]`` (``None`` when the scenario has none)."""
    table = scenario.setup.get("purchase")
    if table is None:
        return None
    source = f"scenario {scenario.id}"
    spec = validate_model(PurchaseSpec, table, source, ("setup", "purchase"))
    sides = [s.id for s in scenario.sides]
    # The text's fighters run from 1 to 10 tons; heavier "fighters" are not in the cup.
    pool = tuple(spec.pool) or tuple(k for k, d in designs.items() if d.kind == "fighter" and d.mass <= 10)
    for key in pool:
        if key not in designs:
            raise ScenarioError(f"{source}: setup.purchase.pool: no design {key!r}")
    slots = []
    for side, start in spec.start.items():
        where = f"{source}: setup.purchase.start.{side}"
        if side not in sides:
            raise ScenarioError(f"{where}: {side!r} is not a side of this scenario")
        try:
            hexes = tuple(hex_map.locate(at) for at in start.at)
            facing, velocity = Direction.parse(start.facing), Velocity.parse(start.velocity)
        except (KeyError, ValueError) as err:
            raise ScenarioError(f"{where}: {err}") from None
        if len(set(hexes)) != len(hexes) or not all(hex_map.contains(h) for h in hexes):
            raise ScenarioError(f"{where}.at: start hexes must be different hexes on the map")
        slots.append(StartSlots(side, hexes, facing, velocity, start.prefix))
    return PurchaseState(
        points=tuple((s.side, 0) for s in slots),
        order=tuple(s.side for s in slots),
        slots=tuple(slots),
        pool=pool,
        budget=spec.points if isinstance(spec.points, int) else 0,
        double=spec.double,
        draw=spec.draw,
        cup=pool if spec.draw else (),
    )


def begin(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    """Roll the 2D6 + 8 budget if there is one, then open the buying (or skip it when there is none)."""
    buying = state.purchase
    if buying is None:
        return state
    # One budget for every side: the text rolls "the number of tons available to both sides".
    if buying.budget:
        value = buying.budget * (2 if buying.double else 1)
    else:
        value = roll_budget(dice, events, large=buying.double)
    for side in buying.order:
        events.append(Note(f"{side} has {value} tons of purchase points"))
    buying = replace(buying, points=tuple((side, value) for side in buying.order))
    return _next_pick(replace(state, phase="purchase", purchase=buying), dice, events, advance=False)


def prompt(state: VV5State) -> Prompt:
    buying = _buying(state)
    side = buying.order[buying.picking]
    offer = _offered(state, buying)
    text = f"{HELP}; {side} has {buying.points_of(side)} t; on offer: " + ", ".join(
        f"{k} ({d.mass} t)" for k, d in offer.items()
    )
    return Prompt(Clock(0, "purchase"), (side,), "purchase", False, text)


def check(state: VV5State, seat: str, order: Buy) -> None:
    buying = _buying(state)
    choices = choices_for(state, seat)
    if not order.count:
        if buying.draw and choices:
            raise IllegalOrderError(
                str(order), "in the draw variant you must buy one of the drawn types if you can", RULE
            )
        return
    if (order.design, order.count) not in choices:
        offered = ", ".join(f"buy {n} {d}" for d, n in choices) or "nothing: say 'done'"
        raise IllegalOrderError(
            str(order),
            f"not a purchase you can make with {buying.points_of(seat)} t (pairs where affordable, at most "
            f"{MAX_SHIPS} ships); you can: {offered}",
            RULE,
        )


def resolve(state: VV5State, seat: str, order: Buy, dice: Dice, events: list[Event]) -> VV5State:
    buying = _buying(state)
    if not order.count:
        events.append(Note(f"{seat} has finished buying"))
        return _next_pick(replace(state, purchase=replace(buying, finished=(*buying.finished, seat))), dice, events)
    design = _designs(state)[order.design]
    points = tuple((s, p - design.mass * order.count if s == seat else p) for s, p in buying.points)
    bought = (*buying.bought, *((seat, order.design) for _ in range(order.count)))
    events.append(Note(f"{seat} buys {order.count} {design.name} for {design.mass * order.count} t"))
    left = tuple(t for t in buying.offered if t != order.design)
    buying = replace(buying, points=points, bought=bought, left=left, offered=())
    return _next_pick(replace(state, purchase=buying), dice, events)


def choices_for(state: VV5State, side: str) -> list[tuple[str, int]]:
    buying = _buying(state)
    owned = sum(1 for s, _ in buying.bought if s == side) + len(state.ships_of(side))
    return purchase_choices(buying.points_of(side), owned, _offered(state, buying))


def random_buy(state: VV5State, seat: str, rng: random.Random) -> Buy:
    choices = choices_for(state, seat)
    # Stopping early is allowed (except in the draw variant), so the random player sometimes does.
    if choices and (_buying(state).draw or rng.random() < 0.85):
        design, count = rng.choice(choices)
        return Buy(design, count)
    return Buy("", 0)


def greedy_buy(state: VV5State, seat: str) -> Buy:
    """Spend as many tons as possible, fewest ships for it first (bigger ships are tougher)."""
    designs = _designs(state)
    choices = choices_for(state, seat)
    if not choices:
        return Buy("", 0)
    design, count = max(choices, key=lambda c: (designs[c[0]].mass * c[1], -c[1], c[0]))
    return Buy(design, count)


# -- the buying loop ---------------------------------------------------------------


def _buying(state: VV5State) -> PurchaseState:
    if state.purchase is None:  # pragma: no cover - only called in the purchase phase
        raise TypeError("no purchase under way")
    return state.purchase


def _designs(state: VV5State) -> dict[str, Design]:
    return catalogue.designs()


def _offered(state: VV5State, buying: PurchaseState) -> dict[str, Design]:
    designs = _designs(state)
    keys = buying.offered if buying.draw else buying.pool
    return {k: designs[k] for k in keys}


def _next_pick(state: VV5State, dice: Dice, events: list[Event], advance: bool = True) -> VV5State:
    """Move to the next side able to buy; place the fleets when nobody can."""
    buying = _buying(state)
    n = len(buying.order)
    for step in range(1 if advance else 0, 2 * n + 1):
        index = (buying.picking + step) % n
        side = buying.order[index]
        if side in buying.finished:
            continue
        candidate = replace(buying, picking=index)
        if candidate.draw:
            candidate = _draw(state, candidate, side, dice, events)
        probe = replace(state, purchase=candidate)
        if choices_for(probe, side):
            return probe
        buying = replace(candidate, finished=(*candidate.finished, side), left=candidate.offered, offered=())
        events.append(Note(f"{side} can buy no more starships"))
    return _place_fleets(replace(state, purchase=buying), events)


def _draw(state: VV5State, buying: PurchaseState, side: str, dice: Dice, events: list[Event]) -> PurchaseState:
    """Draw until two types are on offer; types the side cannot afford are set aside and it draws again."""
    offered = list(buying.left)
    cup = list(buying.cup)
    while True:
        while len(offered) < 2 and cup:
            index = _pick_index(dice, len(cup), f"{side} draws a counter from the cup", events)
            offered.append(cup.pop(index))
        drawn = replace(buying, offered=tuple(offered), cup=tuple(cup), left=())
        if not offered:
            return drawn
        events.append(Note(f"{side} may choose from: {', '.join(offered)}"))
        if choices_for(replace(state, purchase=drawn), side) or not cup:
            return drawn
        events.append(Note(f"{side} can afford none of them: they are set aside and {side} draws again"))
        offered = []


def _pick_index(dice: Dice, n: int, purpose: str, events: list[Event]) -> int:
    """A fair pick among ``n`` with the game's dice (d6 or d20, re-rolling past ``n``)."""
    if n == 1:
        return 0
    kind: Literal["d6", "d20"] = "d6" if n <= 6 else "d20"
    while True:
        roll = dice.roll(kind, purpose)
        events.append(Rolled.of(roll))
        if roll.total <= n:
            return roll.total - 1


def _place_fleets(state: VV5State, events: list[Event]) -> VV5State:
    buying = _buying(state)
    designs = _designs(state)
    ships = list(state.ships)
    taken = {h for s in ships for h in s.hexes}
    used_ids = {s.id for s in ships}
    for slots in buying.slots:
        mine = [d for side, d in buying.bought if side == slots.side]
        free = [h for h in slots.hexes if h not in taken]
        for number, (key, at) in enumerate(zip(mine, free, strict=False), 1):
            ship_id = f"{slots.prefix}{number}"
            while ship_id in used_ids:
                number += 10
                ship_id = f"{slots.prefix}{number}"
            used_ids.add(ship_id)
            taken.add(at)
            ships.append(
                build_ship(ship_id, slots.side, key, designs[key], hex=at, facing=slots.facing, velocity=slots.velocity)
            )
            events.append(Note(f"{ship_id}, a {designs[key].name}, starts at {at}"))
    return replace(state, ships=tuple(ships), purchase=None, phase="plot")
