"""Each side places its ships in its start zone, each at a starting SPEED of its choice (MSC 5.0, 6.0).

The text leaves where ships start to the players (5.0) and lets each start at any SPEED from 0 to its
ENGINE (6.0). A scenario asks for that with a ``[setup.deploy]`` table drawing each side's zone as a
block of columns (and rows) with the heading its ships start at::

    [setup.deploy.zone.red]
    cols = [1, 4]
    facing = "C"

Every side then writes, in secret and at once, one entry per ship: its name, its hex in the zone and
its starting SPEED (after a build, the ships just built)::

    Hawk 3,5 2; Kite 2,9 0

A scenario without the table keeps the hexes and SPEEDs its file gives.

>>> str(Deployment.parse("hawk 3,5 2;Kite 2,9 0", {"hawk": "Hawk", "kite": "Kite"}))
'Hawk 3,5 2; Kite 2,9 0'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from vectorwar.display import SetupMenu
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.hexes import Direction, Hex
from vectorwar.limits import read_number
from vectorwar.maps import HexMap
from vectorwar.rules import Clock, Prompt
from vectorwar.scenario import Scenario, validate_model
from vectorwar.systems.msc.design import MAX_RATING

RULE_ZONE = "MSC 5.0 Setup: start positions are the side's zone in this scenario"
RULE_SPEED = "MSC 6.0 Movement: a ship starts at any SPEED up to its ENGINE"
HELP = (
    "place every ship in your zone at a starting SPEED from 0 to its ENGINE, one entry per ship: "
    "NAME HEX SPEED, e.g. 'Hawk 3,5 2; Kite 2,9 0'"
)


class ZoneSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    cols: list[int] = Field(min_length=2, max_length=2, description="First and last column of the zone")
    rows: list[int] | None = Field(
        default=None, min_length=2, max_length=2, description="First and last row (default: every row)"
    )
    facing: str = Field(description="Heading every ship of the side starts at, A-F")


class DeploySpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    zone: dict[str, ZoneSpec] = Field(description="Each side's start zone and heading")


@dataclass(frozen=True, slots=True)
class Zone:
    """A side's start zone: its hexes in column then row order, and the heading its ships start at."""

    side: str
    hexes: tuple[Hex, ...]
    facing: Direction

    def holds(self, h: Hex) -> bool:
        return h in self.hexes

    def __str__(self) -> str:
        first, last = self.hexes[0], self.hexes[-1]
        return f"columns {first.col}-{last.col}, rows {first.row}-{last.row}"


@dataclass(frozen=True, slots=True)
class DeployState:
    """The placements still to make before turn 1: every side's zone."""

    zones: tuple[Zone, ...]

    def zone_of(self, side: str) -> Zone:
        found = next((z for z in self.zones if z.side == side), None)
        if found is None:
            raise IllegalOrderError("", f"{side} has no start zone in this scenario", RULE_ZONE)
        return found


@dataclass(frozen=True, slots=True)
class Placing:
    """One ship's start: its hex and its SPEED."""

    ship: str
    at: Hex
    speed: int

    def __str__(self) -> str:
        return f"{self.ship} {self.at} {self.speed}"


@dataclass(frozen=True, slots=True)
class Deployment:
    """A side's whole deployment, one entry per ship."""

    ships: tuple[Placing, ...]

    @classmethod
    def parse(cls, text: str, own: Mapping[str, str]) -> Deployment:
        """``own`` maps the lower-case names of the side's ships to their ids."""
        entries = [e.strip() for e in text.split(";") if e.strip()]
        if not entries:
            raise OrderSyntaxError(text, "place every ship: NAME HEX SPEED, e.g. 'Hawk 3,5 2'")
        if len(entries) > len(own):
            raise OrderSyntaxError(text, f"you have {len(own)} ship(s) to place: one entry each")
        placed: list[Placing] = []
        for entry in entries:
            words = entry.split()
            if len(words) != 3:
                raise OrderSyntaxError(entry, "write NAME HEX SPEED, e.g. 'Hawk 3,5 2'")
            ship = own.get(words[0].lower())
            if ship is None:
                raise OrderSyntaxError(entry, f"{words[0]!r} is not one of your ships ({', '.join(own.values())})")
            speed = read_number(words[2], "SPEED", MAX_RATING, entry, RULE_SPEED)
            placed.append(Placing(ship, Hex.parse(words[1]), speed))
        return cls(tuple(placed))

    def __str__(self) -> str:
        return "; ".join(str(p) for p in self.ships)


def read_setup(scenario: Scenario, hex_map: HexMap) -> DeployState | None:
    table = scenario.setup.get("deploy")
    if table is None:
        return None
    source = f"scenario {scenario.id}"
    spec = validate_model(DeploySpec, table, source, ("setup", "deploy"))
    sides = [s.id for s in scenario.sides]
    zones: list[Zone] = []
    taken: set[Hex] = set()
    for side, zone in spec.zone.items():
        where = f"{source}: setup.deploy.zone.{side}"
        if side not in sides:
            raise ScenarioError(f"{where}: {side!r} is not a side of this scenario")
        try:
            facing = Direction.parse(zone.facing)
        except ValueError as err:
            raise ScenarioError(f"{where}.facing: {err}") from None
        min_col, min_row, max_col, max_row = hex_map.extent
        low_row, high_row = zone.rows or (min_row, max_row)
        hexes = tuple(
            h
            for col in range(max(zone.cols[0], min_col), min(zone.cols[1], max_col) + 1)
            for row in range(max(low_row, min_row), min(high_row, max_row) + 1)
            if hex_map.contains(h := Hex.from_offset(col, row))
        )
        if not hexes:
            raise ScenarioError(f"{where}: the zone holds no hex of the map")
        if taken & set(hexes):
            raise ScenarioError(f"{where}: the zone overlaps another side's")
        taken |= set(hexes)
        zones.append(Zone(side, hexes, facing))
    missing = [s for s in sides if s not in spec.zone]
    if missing:
        raise ScenarioError(f"{source}: setup.deploy.zone: no zone for {', '.join(missing)}")
    return DeployState(tuple(zones))


def prompt(deploy: DeployState, sides: Sequence[str]) -> Prompt:
    return Prompt(Clock(0, "deploy"), tuple(sides), "deploy", True, HELP)


def check(zone: Zone, engines: Mapping[str, int], order: Deployment) -> None:
    """Every ship of the side once (``engines``: each ship's ENGINE), in its zone, no faster than its ENGINE."""
    named = [p.ship for p in order.ships]
    for ship in named:
        if named.count(ship) > 1:
            raise IllegalOrderError(str(order), f"{ship} is placed twice; give one entry per ship", RULE_ZONE)
    missing = [s for s in engines if s not in named]
    if missing:
        raise IllegalOrderError(str(order), f"no place for {', '.join(missing)}: place every ship", RULE_ZONE)
    for p in order.ships:
        if not zone.holds(p.at):
            raise IllegalOrderError(
                str(p), f"{p.at} is outside {zone.side}'s start zone ({zone}); start there", RULE_ZONE
            )
        if p.speed > engines[p.ship]:
            raise IllegalOrderError(
                str(p), f"{p.ship}'s starting SPEED {p.speed} is above its ENGINE {engines[p.ship]}", RULE_SPEED
            )


def menu(zone: Zone, ships: Sequence[tuple[str, str, int, Hex, int]]) -> SetupMenu:
    """The deployment as a menu: per ship (id, name, ENGINE, hex now, SPEED now) a hex of the zone and a SPEED."""
    custom = {
        "hexes": [str(h) for h in zone.hexes],
        "facing": str(zone.facing),
        "ships": [
            {
                "id": i,
                "label": name,
                "max_speed": engine,
                "at": str(at) if zone.holds(at) else str(zone.hexes[0]),
                "speed": min(speed, engine),
            }
            for i, name, engine, at, speed in ships
        ],
    }
    return SetupMenu("deploy", f"Place your ships ({zone}) and choose their starting SPEED", (), custom=custom)


def random_deployment(zone: Zone, engines: Mapping[str, int], rng: random.Random) -> Deployment:
    """Each ship on a different hex of the zone where there is room, at a SPEED from 0 to its ENGINE."""
    spots = rng.sample(zone.hexes, min(len(zone.hexes), len(engines)))
    return Deployment(
        tuple(
            Placing(ship, spots[k] if k < len(spots) else rng.choice(zone.hexes), rng.randint(0, engine))
            for k, (ship, engine) in enumerate(engines.items())
        )
    )
