"""Building each side's ships by build points before play (MSC 3.0 and 5.0).

The text leaves the forces to the players: they agree a number of build
points and each designs its ships with them (ENGINE, SHIELDS and TO-HIT at
1 BP a point, a weapon 2 BP a side, no ship above 25 BP). A scenario asks
for that with a ``[setup.build]`` table giving each side's start hexes; the
points are the ``build_points`` option (the scenario's ``[options]`` or the
players' choice). Every side then writes its whole fleet at once, in secret,
as one order: a ship per entry, named and either a catalogue design or
ratings and weapon sides written out::

    Hawk ship1; Kite 5/2/2 F; Raven 3/4/3 F FL FR

(``ENGINE/SHIELDS/TO-HIT`` then the weapon sides). Ships start on the side's
hexes in the order written, at the side's facing and SPEED (no more than
the ship's ENGINE).

>>> str(Fleet.parse("hawk ship1; Kite 5/2/2 f"))
'hawk ship1; Kite 5/2/2 F'
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vectorwar.display import SetupMenu, SetupOption
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.events import Event, Note
from vectorwar.hexes import Direction, Hex
from vectorwar.limits import read_number
from vectorwar.maps import HexMap
from vectorwar.rules import Clock, Prompt
from vectorwar.scenario import Scenario, validate_model
from vectorwar.systems.msc.arcs import TEXT_ORDER
from vectorwar.systems.msc.design import MAX_BUILD_POINTS, MAX_RATING, WEAPON_COST, Design

RULE = "MSC 3.0 (building ships by BP) and 5.0 (the players choose the ships)"
OPTION = "build_points"
DEFAULT_POINTS = 45  # three of the text's 15 BP sample ships
#: The most build points a side may have: far more than a fleet on the start hexes can spend.
MAX_POINTS = 999
MAX_FLEET = 12  # ships a side; far above any fleet the map holds comfortably
HELP = (
    "build your fleet in secret, one entry per ship: NAME DESIGN (a catalogue design, see `vectorwar ships msc`) "
    "or NAME ENGINE/SHIELDS/TO-HIT SIDES, e.g. 'Hawk ship1; Kite 5/2/2 F'"
)
_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,15}$")
_RATINGS = re.compile(r"^(\d+)/(\d+)/(\d+)$")
WEAPON_SIDES = tuple(s.value for s in TEXT_ORDER if s.value != "R")


@dataclass(frozen=True, slots=True)
class Built:
    """One ship of a fleet order: its name and a catalogue key, or ratings and weapon sides."""

    name: str
    design: str = ""  # catalogue key; "" when the ratings are written out
    engine: int = 0
    shields: int = 0
    to_hit: int = 0
    weapons: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.design:
            return f"{self.name} {self.design}"
        sides = "".join(f" {w}" for w in self.weapons)
        return f"{self.name} {self.engine}/{self.shields}/{self.to_hit}{sides}"


@dataclass(frozen=True, slots=True)
class Fleet:
    """A side's whole fleet, built in one order."""

    ships: tuple[Built, ...]

    @classmethod
    def parse(cls, text: str) -> Fleet:
        entries = [e.strip() for e in text.split(";") if e.strip()]
        if not entries:
            raise OrderSyntaxError(text, "build at least one ship: e.g. 'Hawk ship1'")
        if len(entries) > MAX_FLEET:
            raise OrderSyntaxError(text, f"at most {MAX_FLEET} ships a side (vectorwar limit MAX_FLEET)")
        ships: list[Built] = []
        for entry in entries:
            words = entry.split()
            if len(words) < 2 or not _NAME.match(words[0]):
                raise OrderSyntaxError(
                    entry, "write NAME DESIGN or NAME ENGINE/SHIELDS/TO-HIT SIDES, e.g. 'Hawk ship1'"
                )
            m = _RATINGS.match(words[1])
            if m is None:
                if len(words) > 2:
                    raise OrderSyntaxError(entry, "a catalogue design takes no weapon sides: they are its own")
                ships.append(Built(words[0], words[1].lower()))
                continue
            engine, shields, to_hit = (
                read_number(g, field, MAX_RATING, entry, "MSC 3.0")
                for g, field in zip(m.groups(), ("ENGINE", "SHIELDS", "TO-HIT"), strict=True)
            )
            weapons = tuple(w.upper() for w in words[2:])
            ships.append(Built(words[0], "", engine, shields, to_hit, weapons))
        return cls(tuple(ships))

    def __str__(self) -> str:
        return "; ".join(str(s) for s in self.ships)


class SideStart(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: list[str] = Field(min_length=1, description="Start hexes in order, e.g. 3,5")
    facing: str = Field(description="Heading of every ship built, A-F")
    speed: int = Field(default=0, ge=0, le=MAX_RATING, description="Starting SPEED (at most each ship's ENGINE)")


class BuildSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    start: dict[str, SideStart] = Field(description="Each building side's start hexes, heading and SPEED")


@dataclass(frozen=True, slots=True)
class BuildSlots:
    side: str
    hexes: tuple[Hex, ...]
    facing: Direction
    speed: int


@dataclass(frozen=True, slots=True)
class BuildState:
    """The build before turn 1: each side's points, start hexes, and who has built."""

    points: int
    slots: tuple[BuildSlots, ...]
    done: tuple[str, ...] = ()


def read_setup(scenario: Scenario, hex_map: HexMap, points: int) -> BuildState | None:
    table = scenario.setup.get("build")
    if table is None:
        return None
    source = f"scenario {scenario.id}"
    spec = validate_model(BuildSpec, table, source, ("setup", "build"))
    sides = [s.id for s in scenario.sides]
    slots: list[BuildSlots] = []
    for side, start in spec.start.items():
        where = f"{source}: setup.build.start.{side}"
        if side not in sides:
            raise ScenarioError(f"{where}: {side!r} is not a side of this scenario")
        try:
            hexes = tuple(hex_map.locate(at) for at in start.at)
            facing = Direction.parse(start.facing)
        except (KeyError, ValueError) as err:
            raise ScenarioError(f"{where}: {err}") from None
        if len(set(hexes)) != len(hexes) or not all(hex_map.contains(h) for h in hexes):
            raise ScenarioError(f"{where}.at: start hexes must be different hexes on the map")
        slots.append(BuildSlots(side, hexes, facing, start.speed))
    if points < 1:
        raise ScenarioError(f"{source}: options.{OPTION}: build points must be 1 or more")
    return BuildState(points, tuple(slots))


def prompt(build: BuildState) -> Prompt:
    sides = tuple(s.side for s in build.slots if s.side not in build.done)
    return Prompt(Clock(0, "build"), sides, "build", True, f"{HELP}; {build.points} BP a side")


def design_of(built: Built, catalogue: Mapping[str, Design]) -> Design:
    """The design a fleet entry names, checked against the design rules."""
    if built.design:
        design = catalogue.get(built.design)
        if design is None:
            raise IllegalOrderError(
                str(built), f"no design {built.design!r} (catalogue: {', '.join(sorted(catalogue))})", RULE
            )
        return design
    try:
        return Design(
            name=f"{built.name} ({built.engine}/{built.shields}/{built.to_hit})",
            engine=built.engine,
            shields=built.shields,
            to_hit=built.to_hit,
            weapons=built.weapons,
        )
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        problem = str(first["msg"]).removeprefix("Value error, ")
        raise IllegalOrderError(str(built), f"{where}: {problem}" if where else problem, "MSC 3.0") from None


def check(build: BuildState, side: str, fleet: Fleet, catalogue: Mapping[str, Design], taken: set[str]) -> None:
    slots = _slots(build, side)
    if len(fleet.ships) > len(slots.hexes):
        raise IllegalOrderError(
            str(fleet), f"{side} has {len(slots.hexes)} start hexes: build at most that many ships", RULE
        )
    names = [s.name.lower() for s in fleet.ships]
    for name in names:
        if names.count(name) > 1 or name in taken:
            raise IllegalOrderError(str(fleet), f"the name {name!r} is already a ship's: give each its own", RULE)
    cost = sum(design_of(s, catalogue).build_points for s in fleet.ships)
    if cost > build.points:
        raise IllegalOrderError(
            str(fleet), f"the fleet costs {cost} BP; each side has {build.points} BP to build with", RULE
        )


def fleet_cost(fleet: Fleet, catalogue: Mapping[str, Design]) -> int:
    return sum(design_of(s, catalogue).build_points for s in fleet.ships)


def place(
    build: BuildState, orders: Mapping[str, Fleet], catalogue: Mapping[str, Design], events: list[Event]
) -> list[tuple[str, str, str, Design, Hex, Direction, int]]:
    """(id, side, design key, design, hex, facing, SPEED) of every ship built, in side then written order.

    Fleets are written in secret, so two sides may pick the same name: the
    later side's ship then takes its side's name as a suffix (``Hawk-blue``).
    """
    out: list[tuple[str, str, str, Design, Hex, Direction, int]] = []
    used: set[str] = set()
    for slots in build.slots:
        fleet = orders[slots.side]
        cost = fleet_cost(fleet, catalogue)
        events.append(Note(f"{slots.side} builds {len(fleet.ships)} ship(s) for {cost} of {build.points} BP"))
        for built, at in zip(fleet.ships, slots.hexes, strict=False):
            design = design_of(built, catalogue)
            speed = min(slots.speed, design.engine)
            ship_id = built.name if built.name.lower() not in used else f"{built.name}-{slots.side}"
            used.add(ship_id.lower())
            out.append((ship_id, slots.side, built.design or "custom", design, at, slots.facing, speed))
            events.append(
                Note(f"{ship_id}: {design.name}, {design.build_points} BP ({design.cost_line()}), starts at {at}")
            )
    return out


def menu(build: BuildState, side: str, catalogue: Mapping[str, Design]) -> SetupMenu | None:
    """The build as a menu: the catalogue's designs with their BP, and the ratings a written-out design may take."""
    if side in build.done or side not in {s.side for s in build.slots}:
        return None
    options = tuple(
        SetupOption(
            key,
            d.name,
            d.build_points,
            f"ENGINE {d.engine}, SHIELDS {d.shields}, TO-HIT {d.to_hit}, weapons {' '.join(d.weapons) or 'none'}",
            "catalogue",
        )
        for key, d in sorted(catalogue.items(), key=lambda kv: (kv[1].build_points, kv[0]))
    )
    custom = {
        "ratings": [
            {"name": "engine", "label": "ENGINE", "min": 0, "max": MAX_RATING},
            {"name": "shields", "label": "SHIELDS", "min": 1, "max": MAX_RATING},
            {"name": "to_hit", "label": "TO-HIT", "min": 0, "max": MAX_RATING},
        ],
        "rating_cost": 1,
        "weapon_cost": WEAPON_COST,
        "sides": list(WEAPON_SIDES),
        "max_cost": MAX_BUILD_POINTS,
        "max_ships": len(_slots(build, side).hexes),
        "prefix": side[:1].upper(),
    }
    return SetupMenu("fleet", "Build your fleet", options, "BP", build.points, build.points, custom=custom)


def random_fleet(build: BuildState, side: str, catalogue: Mapping[str, Design], rng: random.Random) -> Fleet:
    """Ships of random ratings and sides, bought until the points or the start hexes run out."""
    left, ships = build.points, list[Built]()
    room = len(_slots(build, side).hexes)
    while len(ships) < room and left >= 1:
        if rng.random() < 0.5:
            fits = [k for k, d in catalogue.items() if d.build_points <= left]
            if fits:
                key = rng.choice(sorted(fits))
                ships.append(Built(f"{side[:1].upper()}{len(ships) + 1}", key))
                left -= catalogue[key].build_points
                continue
        shields = rng.randint(1, min(MAX_RATING, left))
        engine = rng.randint(0, min(MAX_RATING, left - shields))
        to_hit = rng.randint(0, min(MAX_RATING, left - shields - engine))
        spare = (left - shields - engine - to_hit) // WEAPON_COST
        sides = tuple(rng.sample(WEAPON_SIDES, rng.randint(0, min(len(WEAPON_SIDES), spare))))
        built = Built(f"{side[:1].upper()}{len(ships) + 1}", "", engine, shields, to_hit, sides)
        ships.append(built)
        left -= design_of(built, catalogue).build_points
        if rng.random() < 0.3:
            break
    return Fleet(tuple(ships))


def greedy_fleet(build: BuildState, side: str, catalogue: Mapping[str, Design]) -> Fleet:
    """As many balanced ships as the points buy: the text's Ship 1 at 15 BP, a smaller one with what is left."""
    left, ships = build.points, list[Built]()
    room = len(_slots(build, side).hexes)
    while len(ships) < room and left >= 3:
        each = min(MAX_BUILD_POINTS, left)
        ships.append(_balanced(f"{side[:1].upper()}{len(ships) + 1}", min(each, 15) if left >= 15 else each))
        left -= design_of(ships[-1], catalogue).build_points
    return Fleet(tuple(ships))


def _balanced(name: str, points: int) -> Built:
    """A ship of about ``points`` BP: even ratings, forward weapons first."""
    weapons = min(3, max(0, (points - 3) // 6))
    rest = points - WEAPON_COST * weapons
    engine = min(MAX_RATING, max(0, rest // 3))
    shields = min(MAX_RATING, max(1, (rest - engine) // 2))
    to_hit = min(MAX_RATING, max(0, rest - engine - shields))
    return Built(name, "", engine, shields, to_hit, ("F", "FL", "FR")[:weapons])


def _slots(build: BuildState, side: str) -> BuildSlots:
    found = next((s for s in build.slots if s.side == side), None)
    if found is None:
        raise IllegalOrderError("", f"{side} builds no ships in this scenario", RULE)
    return found
