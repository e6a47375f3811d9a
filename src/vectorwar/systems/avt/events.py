"""What happens during an AV:T segment, as typed events for the log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from vectorwar.events import Event
from vectorwar.hexes import Position
from vectorwar.systems.avt.orientation import Orientation
from vectorwar.vectors import Velocity


@dataclass(frozen=True, slots=True)
class SegmentBegan(Event):
    kind: ClassVar[str] = "avt-segment"
    turn: int
    segment: int

    def describe(self) -> str:
        return f"-- turn {self.turn}, segment {self.segment} --"


@dataclass(frozen=True, slots=True)
class OrdersGiven(Event):
    kind: ClassVar[str] = "avt-orders"
    ship: str
    orders: str

    def describe(self) -> str:
        return f"{self.ship} orders: {self.orders}"


@dataclass(frozen=True, slots=True)
class LaserFired(Event):
    kind: ClassVar[str] = "avt-laser"
    ship: str
    laser: str
    target: str
    marker: str
    arc_window: str
    range: int
    roll: int
    entry: str
    damage: int

    def describe(self) -> str:
        return (
            f"{self.ship} fires {self.laser} at {self.target} (AVID {self.marker}, arc window {self.arc_window}), "
            f"range {self.range}, d10 {self.roll}: {self.entry} -> {self.damage} damage"
        )


@dataclass(frozen=True, slots=True)
class ThrustBurned(Event):
    kind: ClassVar[str] = "avt-thrust"
    ship: str
    thrust: int
    cell: int
    dots: str
    displacement: str

    def describe(self) -> str:
        shift = f", displaced {self.displacement}" if self.displacement else ""
        return f"{self.ship} thrust {self.thrust}, cell {self.cell}: dots {self.dots or 'none'}{shift}"


@dataclass(frozen=True, slots=True)
class ShipMoved(Event):
    kind: ClassVar[str] = "avt-moved"
    ship: str
    steps: str
    path: tuple[Position, ...]

    def describe(self) -> str:
        return f"{self.ship} moves {self.steps}: {self.path[0]} -> {self.path[-1]}"


@dataclass(frozen=True, slots=True)
class FacingChanged(Event):
    kind: ClassVar[str] = "avt-facing"
    ship: str
    orientation: Orientation
    completed: bool

    def describe(self) -> str:
        done = " (facing change complete)" if self.completed else ""
        return f"{self.ship} nose to {self.orientation}{done}"


@dataclass(frozen=True, slots=True)
class VectorsResolved(Event):
    kind: ClassVar[str] = "avt-vectors"
    ship: str
    reason: str
    fuel: int
    fuel_left: int
    velocity: Velocity
    steps: tuple[str, ...]

    def describe(self) -> str:
        how = f" ({'; '.join(self.steps)})" if self.steps else ""
        return (
            f"{self.ship} thrust break, {self.reason}: {self.fuel} fuel spent ({self.fuel_left} left), "
            f"vectors now {self.velocity}{how}"
        )


@dataclass(frozen=True, slots=True)
class TargetDestroyed(Event):
    kind: ClassVar[str] = "avt-destroyed"
    target: str
    by: str
    how: str

    def describe(self) -> str:
        return f"{self.target} is destroyed by {self.by} ({self.how})"
