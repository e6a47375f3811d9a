"""What happens during an AV:T segment, as typed events for the log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from vectorwar.events import Event
from vectorwar.hexes import Position
from vectorwar.systems.avt.orientation import Orientation
from vectorwar.systems.avt.state import HEAT_TENTHS, heat_text
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


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    """The end-of-turn procedure begins (A5.39: after segment 8, before segment 1)."""

    kind: ClassVar[str] = "avt-turn-end"
    turn: int

    def describe(self) -> str:
        return f"-- end of turn {self.turn}: record keeping --"


@dataclass(frozen=True, slots=True)
class HeatRecorded(Event):
    """Step 1: reactors that were on put their heat in the heat sinks (A5.39). Heat in tenths."""

    kind: ClassVar[str] = "avt-heat"
    ship: str
    generated_tenths: int
    stored_tenths: int
    capacity: int

    def describe(self) -> str:
        made = (
            f"reactors made {heat_text(self.generated_tenths)} heat"
            if self.generated_tenths
            else "reactors off, no heat"
        )
        over = self.stored_tenths - self.capacity * HEAT_TENTHS
        excess = f", {heat_text(over)} over: excess heat" if over > 0 else ""
        stored = heat_text(self.stored_tenths)
        return f"{self.ship} records heat: {made}; {stored} stored in {self.capacity} heat sinks{excess}"


@dataclass(frozen=True, slots=True)
class HeatDumped(Event):
    """Step 2: extended radiators dump heat (A5.391). Heat in tenths."""

    kind: ClassVar[str] = "avt-heat-dumped"
    ship: str
    dumped_tenths: int
    stored_tenths: int

    def describe(self) -> str:
        return (
            f"{self.ship}'s radiators dump {heat_text(self.dumped_tenths)} heat: {heat_text(self.stored_tenths)} stored"
        )


@dataclass(frozen=True, slots=True)
class ReactorsSet(Event):
    """Step 3: the reactors chosen for the next turn (A5.39, A5.392)."""

    kind: ClassVar[str] = "avt-reactors"
    ship: str
    on: bool
    changed: bool
    turn: int

    def describe(self) -> str:
        state = "on" if self.on else "off (no power, no heat)"
        verb = "turns its reactors" if self.changed else "keeps its reactors"
        return f"{self.ship} {verb} {state} for turn {self.turn}"


@dataclass(frozen=True, slots=True)
class RadiatorsSet(Event):
    """Step 4: radiators extend or retract, a full turn either way (A5.391, A5.392). Heat in tenths."""

    kind: ClassVar[str] = "avt-radiators"
    ship: str
    before: str
    after: str
    turn: int
    stored_tenths: int

    def describe(self) -> str:
        if self.before == self.after:
            return f"{self.ship}'s radiators stay {self.after} for turn {self.turn}"
        if self.after == "extending":
            return (
                f"{self.ship}'s radiators extend during turn {self.turn}: no thrust while they are not in; "
                "extending radiators is a surrender signal"
            )
        if self.after == "retracting":
            return f"{self.ship}'s radiators retract during turn {self.turn}"
        if self.after == "in":
            return f"{self.ship}'s radiators are in; heat rounded up to {heat_text(self.stored_tenths)}"
        return f"{self.ship}'s radiators are out: they dump heat from the end of turn {self.turn}"


@dataclass(frozen=True, slots=True)
class DamageStruck(Event):
    """A pool of damage reaches a ship: the window marked "I" and the region struck (A5.42-A5.431)."""

    kind: ClassVar[str] = "avt-struck"
    ship: str
    points: int
    source: str
    incoming: str
    region: str
    choices: tuple[str, ...]

    def describe(self) -> str:
        chose = f" (a boundary: the attacker's choice of {' or '.join(self.choices)})" if len(self.choices) > 1 else ""
        return (
            f'{self.ship} marks "I" in {self.incoming}: {self.points} damage from {self.source} '
            f"strikes its {self.region} region{chose}"
        )

    def damage_points(self) -> int:
        return self.points


#: Widths of the allocation table's columns in the log, so that the rows of one pool line up in a terminal.
_WHERE_WIDTH = 13
_SYSTEM_WIDTH = 20


@dataclass(frozen=True, slots=True)
class AllocationRow(Event):
    """One line of the damage allocation table, as the text's example writes it (A5.45-A5.46).

    ``roll`` is the hit location roll (0 for the skin's initial soak), ``soak`` the 2d10- (-1: no roll needed).
    The log writes the text's columns in its order, padded so a pool's rows line up:

    >>> print(AllocationRow("Red", 71, "skin", 0, "skin (nose-bottom)", 4, 4, "Initial Soak").describe())
    Red: 71 left | -             | skin (nose-bottom)   | armour 4 | soak 4 | Initial Soak
    >>> print(AllocationRow("Red", 54, "nose", 10, "Mount A", 2, 2, "A1 (3 MRLS) 1st hit").describe())
    Red: 54 left | nose d10 10   | Mount A              | armour 2 | soak 2 | A1 (3 MRLS) 1st hit
    >>> print(AllocationRow("Red", 3, "skin", 0, "skin (aft)", 3, -1).describe())
    Red:  3 left | -             | skin (aft)           | armour 3 | no soak
    """

    kind: ClassVar[str] = "avt-allocation"
    ship: str
    left: int
    table: str
    roll: int
    system: str
    armour: int
    soak: int
    note: str = ""

    def describe(self) -> str:
        # The text's "NA" location roll for the skin is "-": the system column already says "skin".
        where = "-" if self.roll == 0 else f"{self.table} d10 {self.roll}"
        cells = [
            f"{self.ship}: {self.left:>2} left",
            f"{where:<{_WHERE_WIDTH}}",
            f"{self.system:<{_SYSTEM_WIDTH}}",
            f"armour {self.armour}",
            "no soak" if self.soak < 0 else f"soak {self.soak}",
        ]
        if self.note:
            cells.append(self.note)
        return " | ".join(cells)


@dataclass(frozen=True, slots=True)
class ShipDestroyed(Event):
    kind: ClassVar[str] = "avt-ship-destroyed"
    ship: str
    how: str

    def describe(self) -> str:
        return f"{self.ship} is destroyed: {self.how}"
