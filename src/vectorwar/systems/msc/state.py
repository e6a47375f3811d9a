"""MSC game state: plain, frozen data (serialises to JSON and back).

Each ship carries its Ship Turn Record (MSC 2.0): the design's ratings, the
ovals still open (ENGINE, SHIELD, working weapons) and one line per turn of
SPEED and movement order.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.rules import OptionValue
from vectorwar.systems.msc.arcs import Side

Status = Literal["active", "destroyed", "disengaged"]
Phase = Literal["plot", "fire", "over"]


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


@dataclass(frozen=True, slots=True)
class MSCState:
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

    def ship(self, ship_id: str) -> Ship:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def ships_of(self, side: str, active_only: bool = True) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if s.side == side and (s.active or not active_only))

    def enemies_of(self, side: str) -> tuple[Ship, ...]:
        return tuple(s for s in self.ships if s.side != side and s.active)

    def sides_in_play(self) -> tuple[str, ...]:
        return tuple(side for side in self.sides if self.ships_of(side))

    def with_ship(self, ship: Ship) -> MSCState:
        return replace(self, ships=tuple(ship if s.id == ship.id else s for s in self.ships))
