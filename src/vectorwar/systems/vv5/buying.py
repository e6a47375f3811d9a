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

The other scenarios built on the Dogfight's set-up use the same phase: the
points may be 2D6 + 10 (scenario 6), a side may have to carry bombs in place
of missiles (``bombs``, scenario 2: the side's first buy names them, ``buy 2
harpy bombs 1``), and a side may be given a transport per element (pair) of
fighters (``escort``, scenario 3), placed after its fighters.

Orders: ``buy 2 harpy``, ``buy 2 harpy bombs 1`` or ``done``.

>>> Buy.parse("buy 2 Harpy"), str(Buy.parse("done")), str(Buy.parse("buy 2 harpy bombs 1"))
(Buy(design='harpy', count=2, bombs=0), 'done', 'buy 2 harpy bombs 1')
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
from vectorwar.systems.vv5.equipment import build_ship, fit_loadout
from vectorwar.systems.vv5.purchase import MAX_SHIPS, escorts_for, purchase_choices, roll_budget
from vectorwar.systems.vv5.state import PurchaseState, StartSlots, VV5State
from vectorwar.vectors import Velocity

RULE = "VV5 Scenario 1 (purchase)"
HELP = "buy a type, in pairs where you can afford them: e.g. 'buy 2 harpy' (see `vectorwar ships vv5`), or 'done'"
HELP_BOMBS = "; the side's first buy carries its bombs in place of missiles: e.g. 'buy 2 harpy bombs 1' (bombs a ship)"
_BUY = re.compile(
    r"^\s*buy\s+(\d+)\s+([A-Za-z][A-Za-z0-9_-]*)(?:\s+bombs\s+(\d+))?\s*$",
    re.IGNORECASE,
)
MAX_BOMBS = 8  # per ship: no fighter on offer carries more missiles


@dataclass(frozen=True, slots=True)
class Buy:
    """Buy ``count`` starships of ``design``; ``Buy("", 0)`` ends this side's buying."""

    design: str
    count: int
    bombs: int = 0  # bombs aboard each ship bought, in place of missiles (Strike Force)

    @classmethod
    def parse(cls, text: str) -> Buy:
        if text.strip().lower() in ("done", "pass", "stop"):
            return cls("", 0)
        m = _BUY.match(text)
        if not m:
            raise OrderSyntaxError(text, "write 'buy COUNT DESIGN [bombs N]', e.g. 'buy 2 harpy', or 'done'")
        count = read_number(m.group(1), "starships in one buy", MAX_SHIPS, text, RULE)
        bombs = read_number(m.group(3), "bombs a ship", MAX_BOMBS, text, RULE) if m.group(3) else 0
        return cls(m.group(2).lower(), count, bombs)

    def __str__(self) -> str:
        if not self.count:
            return "done"
        return f"buy {self.count} {self.design}" + (f" bombs {self.bombs}" if self.bombs else "")


class StartSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: list[str] = Field(min_length=MAX_SHIPS, description="Start hexes in order, e.g. F@0,2 (three or more)")
    facing: str = Field(description="Heading of every bought ship, A-F")
    velocity: str = Field(default="0", description="Starting velocity of every bought ship, e.g. C=1")
    facings: list[str] = Field(default_factory=list, description="A heading per start hex, in place of facing")
    velocities: list[str] = Field(default_factory=list, description="A velocity per start hex, in place of velocity")
    prefix: str = Field(pattern=r"^[A-Za-z]+$", description="Ship ids are this plus a number, e.g. X for X1, X2")
    bombs: int = Field(default=0, ge=0, le=MAX_BOMBS, description="Bombs the side must carry (Strike Force)")
    escort: str = Field(default="", description="A transport design added per pair of fighters (Assault Force)")
    escort_prefix: str = Field(default="T", pattern=r"^[A-Za-z]+$", description="Ids of the escorted transports")

    @field_validator("velocity")
    @classmethod
    def _velocity(cls, v: str) -> str:
        return check_start_velocity(v)

    @field_validator("velocities")
    @classmethod
    def _velocities(cls, v: list[str]) -> list[str]:
        return [check_start_velocity(x) for x in v]


class PurchaseSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    points: int | Literal["2d6+8", "2d6+10"] = Field(
        default="2d6+8", description="Tons every side may spend (one roll)"
    )
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
    pool = _read_pool(spec, designs, source)
    slots = []
    for side, start in spec.start.items():
        where = f"{source}: setup.purchase.start.{side}"
        if side not in sides:
            raise ScenarioError(f"{where}: {side!r} is not a side of this scenario")
        slots.append(_read_start(side, start, designs, hex_map, where))
    return PurchaseState(
        points=tuple((s.side, 0) for s in slots),
        order=tuple(s.side for s in slots),
        slots=tuple(slots),
        pool=pool,
        budget=spec.points if isinstance(spec.points, int) else 0,
        bonus=10 if spec.points == "2d6+10" else 8,
        double=spec.double,
        draw=spec.draw,
        cup=pool if spec.draw else (),
    )


def _read_pool(spec: PurchaseSpec, designs: Mapping[str, Design], source: str) -> tuple[str, ...]:
    """The designs on offer: the scenario's list, checked, or by default every fighter of 10 t or less."""
    # The text's fighters run from 1 to 10 tons; heavier "fighters" are not in the cup.
    pool = tuple(spec.pool) or tuple(k for k, d in designs.items() if d.kind == "fighter" and d.mass <= 10)
    for key in pool:
        if key not in designs:
            raise ScenarioError(f"{source}: setup.purchase.pool: no design {key!r}")
    return pool


def _read_start(side: str, start: StartSpec, designs: Mapping[str, Design], hex_map: HexMap, where: str) -> StartSlots:
    """One buying side's start hexes, headings and velocities, checked against the map (``where`` names the side)."""
    try:
        hexes = tuple(hex_map.locate(at) for at in start.at)
        facing, velocity = Direction.parse(start.facing), Velocity.parse(start.velocity)
        facings = tuple(Direction.parse(f) for f in start.facings)
        velocities = tuple(Velocity.parse(v) for v in start.velocities)
    except (KeyError, ValueError) as err:
        raise ScenarioError(f"{where}: {err}") from None
    if len(set(hexes)) != len(hexes) or not all(hex_map.contains(h) for h in hexes):
        raise ScenarioError(f"{where}.at: start hexes must be different hexes on the map")
    for key, values in (("facings", facings), ("velocities", velocities)):
        if values and len(values) != len(hexes):
            raise ScenarioError(f"{where}.{key}: give one for each of the {len(hexes)} start hexes, or none")
    if start.escort:
        _check_escort(start.escort, designs, len(hexes), where)
    return StartSlots(
        side,
        hexes,
        facing,
        velocity,
        start.prefix,
        start.bombs,
        start.escort,
        start.escort_prefix,
        facings,
        velocities,
    )


def _check_escort(escort: str, designs: Mapping[str, Design], hexes: int, where: str) -> None:
    """An escorted side (Assault Force) names a transport and has start hexes for its fighters and transports."""
    design = designs.get(escort)
    if design is None or design.kind != "transport":
        raise ScenarioError(f"{where}.escort: {escort!r} is not a transport design")
    # The most a side can field: a full purchase of fighters plus a transport per pair of them.
    if hexes < MAX_SHIPS + escorts_for(MAX_SHIPS):
        raise ScenarioError(
            f"{where}.at: {MAX_SHIPS + escorts_for(MAX_SHIPS)} start hexes needed: fighters and transports"
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
        value = roll_budget(dice, events, large=buying.double, plus=buying.bonus)
    for side in buying.order:
        events.append(Note(f"{side} has {value} tons of purchase points"))
    buying = replace(buying, points=tuple((side, value) for side in buying.order))
    return _next_pick(replace(state, phase="purchase", purchase=buying), dice, events, advance=False)


def prompt(state: VV5State) -> Prompt:
    buying = _buying(state)
    side = buying.order[buying.picking]
    offer = _offered(state, buying)
    help = HELP + (HELP_BOMBS if bombs_owed(state, side) else "")
    text = f"{help}; {side} has {buying.points_of(side)} t; on offer: " + ", ".join(
        f"{k} ({d.mass} t)" for k, d in offer.items()
    )
    return Prompt(Clock(0, "purchase"), (side,), "purchase", False, text)


def check(state: VV5State, side: str, order: Buy) -> None:
    buying = _buying(state)
    choices = choices_for(state, side)
    if not order.count:
        if bombs_owed(state, side) and choices:
            raise IllegalOrderError(
                str(order), f"{side} must first buy ships carrying {bombs_owed(state, side)} bomb(s)", "VV5 Scenario 2"
            )
        if buying.draw and choices:
            raise IllegalOrderError(
                str(order), "in the draw variant you must buy one of the drawn types if you can", RULE
            )
        return
    if order not in choices:
        owed = bombs_owed(state, side)
        rules = f"pairs where affordable, at most {MAX_SHIPS} ships" + (
            f"; this buy must carry the side's {owed} bomb(s) or more, no more bombs a ship than its missiles"
            if owed
            else ""
        )
        offered = ", ".join(str(c) for c in choices[:12]) or "nothing: say 'done'"
        raise IllegalOrderError(
            str(order),
            f"not a purchase you can make with {buying.points_of(side)} t ({rules}); you can: {offered}",
            "VV5 Scenario 2 (bombs)" if owed else RULE,
        )


def resolve(state: VV5State, side: str, order: Buy, dice: Dice, events: list[Event]) -> VV5State:
    buying = _buying(state)
    if not order.count:
        events.append(Note(f"{side} has finished buying"))
        return _next_pick(replace(state, purchase=replace(buying, finished=(*buying.finished, side))), dice, events)
    design = _designs(state)[order.design]
    points = tuple((s, p - design.mass * order.count if s == side else p) for s, p in buying.points)
    bought = (*buying.bought, *((side, order.design) for _ in range(order.count)))
    bombs = (*buying.bombs, *(order.bombs for _ in range(order.count)))
    carried = f", each with {order.bombs} bomb(s) in place of missiles" if order.bombs else ""
    events.append(Note(f"{side} buys {order.count} {design.name} for {design.mass * order.count} t{carried}"))
    left = tuple(t for t in buying.offered if t != order.design)
    buying = replace(buying, points=points, bought=bought, bombs=bombs, left=left, offered=())
    return _next_pick(replace(state, purchase=buying), dice, events)


def bombs_owed(state: VV5State, side: str) -> int:
    """Bombs the side must still take aboard: all of them with its first buy
    (docs/rulings/vv5.md, *VV5 bombs bought*)."""
    buying = _buying(state)
    slots = next((s for s in buying.slots if s.side == side), None)
    if slots is None or not slots.bombs:
        return 0
    carried = sum(b for (s, _), b in zip(buying.bought, buying.bombs, strict=False) if s == side)
    return max(0, slots.bombs - carried)


def choices_for(state: VV5State, side: str) -> list[Buy]:
    """Every purchase the side may make now (``done`` aside)."""
    buying = _buying(state)
    owned = sum(1 for s, _ in buying.bought if s == side) + len(state.ships_of(side))
    offered = _offered(state, buying)
    plain = purchase_choices(buying.points_of(side), owned, offered)
    slots = next((s for s in buying.slots if s.side == side), None)
    if slots is None or not slots.bombs:
        return [Buy(d, n) for d, n in plain]
    owed = bombs_owed(state, side)
    choices: list[Buy] = []
    for design, count in plain:
        for bombs in range(offered[design].missiles + 1):
            # The bombs the side owes come aboard with this buy, or the side could end without them.
            if count * bombs >= owed:
                choices.append(Buy(design, count, bombs))
    return choices


def designs_on_offer(state: VV5State) -> dict[str, Design]:
    """The designs the side to pick may buy from now (the cup's draw in the draw variant)."""
    return _offered(state, _buying(state))


def done_refused(state: VV5State, side: str) -> bool:
    """Whether ``done`` is refused now: bombs still owed, or a drawn type to buy in the draw variant."""
    choices = choices_for(state, side)
    return bool(choices) and (bool(bombs_owed(state, side)) or _buying(state).draw)


def random_buy(state: VV5State, side: str, rng: random.Random) -> Buy:
    choices = choices_for(state, side)
    # Stopping early is allowed (except in the draw variant, or owing bombs), so the random player sometimes does.
    if choices and (_buying(state).draw or bombs_owed(state, side) or rng.random() < 0.85):
        return rng.choice(choices)
    return Buy("", 0)


def greedy_buy(state: VV5State, side: str) -> Buy:
    """Spend as many tons as possible, fewest ships for it first (bigger ships are tougher).

    Bombs: just the side's due, spread so every ship keeps what missiles it can.
    """
    designs = _designs(state)
    choices = choices_for(state, side)
    if not choices:
        return Buy("", 0)
    return max(choices, key=lambda c: (designs[c.design].mass * c.count, -c.count, -c.count * c.bombs, c.design))


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
        mine = [(d, b) for (side, d), b in zip(buying.bought, _padded(buying), strict=True) if side == slots.side]
        fighters = [(slots.prefix, key, bombs) for key, bombs in mine]
        if slots.escort and mine:
            # One transport per element (pair) of fighters:
            # docs/rulings/vv5.md, *VV5 elements and bombs in Assault Force*.
            fighters += [(slots.escort_prefix, slots.escort, 0)] * escorts_for(len(mine))
        free = [i for i, h in enumerate(slots.hexes) if h not in taken]
        numbers: dict[str, int] = {}
        for (prefix, key, bombs), i in zip(fighters, free, strict=False):
            at = slots.hexes[i]
            facing = slots.facings[i] if slots.facings else slots.facing
            velocity = slots.velocities[i] if slots.velocities else slots.velocity
            number = numbers.get(prefix, 0) + 1
            ship_id = f"{prefix}{number}"
            while ship_id in used_ids:
                number += 10
                ship_id = f"{prefix}{number}"
            numbers[prefix] = number
            used_ids.add(ship_id)
            taken.add(at)
            ship = build_ship(ship_id, slots.side, key, designs[key], hex=at, facing=facing, velocity=velocity)
            if bombs:
                ship = fit_loadout(ship, (f"bombs:{bombs}",), f"purchase of {ship_id}")
            ships.append(ship)
            events.append(Note(f"{ship_id}, a {designs[key].name}, starts at {at}"))
    return replace(state, ships=tuple(ships), purchase=None, phase="plot")


def _padded(buying: PurchaseState) -> tuple[int, ...]:
    """Bombs beside every bought ship (games saved before bombs were bought have none)."""
    return buying.bombs + (0,) * (len(buying.bought) - len(buying.bombs))
