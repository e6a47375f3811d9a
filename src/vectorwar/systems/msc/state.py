"""MSC game state: plain, frozen data (serialises to JSON and back).

Each ship carries its Ship Turn Record (MSC 2.0): the design's ratings, the
ovals still open (ENGINE, SHIELD, working weapons) and one line per turn of
SPEED and movement order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.roster import Roster
from vectorwar.rules import OptionValue
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.building import BuildState
from vectorwar.systems.msc.deploy import DeployState

Status = Literal["active", "destroyed", "disengaged"]
Phase = Literal["build", "deploy", "plot", "fire", "over"]


@dataclass(frozen=True, slots=True)
class TurnEntry:
    """One line of the Ship Turn Record."""

    turn: int
    speed: int
    move: str


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    side: str
    design: str
    name: str
    engine_rating: int
    shield_rating: int
    to_hit: int
    weapons_fitted: tuple[Side, ...]
    hex: Hex
    facing: Direction
    speed: int
    engine: int
    shields: int
    weapons: tuple[Side, ...]
    status: Status = "active"
    record: tuple[TurnEntry, ...] = ()

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def ended_last_move_turning(self) -> bool:
        return bool(self.record) and self.record[-1].move[-1:] in ("L", "R")

    def moved(self, at: Hex, facing: Direction, speed: int, record: tuple[TurnEntry, ...], status: Status) -> Ship:
        """This ship after its move: ``roster.replace_fields`` with these five fields, built by the dataclass's own
        ``__init__`` (every ship moves every turn; a test holds it to ``dataclasses.replace`` field for field)."""
        return Ship(
            self.id,
            self.side,
            self.design,
            self.name,
            self.engine_rating,
            self.shield_rating,
            self.to_hit,
            self.weapons_fitted,
            at,
            facing,
            speed,
            self.engine,
            self.shields,
            self.weapons,
            status,
            record,
        )


@dataclass(frozen=True, slots=True)
class MSCState(Roster[Ship]):
    turn: int
    phase: Phase
    sides: tuple[str, ...]
    ships: tuple[Ship, ...]
    map: HexMap
    max_turns: int
    options: dict[str, OptionValue]
    fire_order: tuple[str, ...] = ()
    firing: int = 0
    winners: tuple[str, ...] = ()
    end_reason: str = ""
    build: BuildState | None = None  # the fleets still to build before turn 1 (phase "build")
    deploy: DeployState | None = None  # the zones ships are still to be placed in before turn 1 (phase "deploy")
