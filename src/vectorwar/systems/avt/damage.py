"""Damage allocation, step by step in the text's order (A5.41-A5.48).

A pool of damage strikes one armour region (:mod:`.armour`):

1. **Skin** (A5.44-A5.442): the region's armour blocks its number; if the
   pool is larger and the armour is not 0, the defender's 2d10- soak roll
   blocks more. A soak of 0 is a Structural Integrity hit (A5.441).
2. **Hit locations** (A5.45-A5.451): while damage is left, the attacker
   rolls a d10 on the region's table and the defender a 2d10- soak; the
   system rolled absorbs its component armour plus the soak, and one of its
   boxes is marked (:func:`mark`). A soak of 0 is also a Structural
   Integrity hit (A5.454). When armour and soak exceed what is left,
   allocation stops and the box is spared (A5.455).
3. **Hull depth** (A5.46): once the points used on a table reach the
   region's hull depth the rest goes to the Core, then to the opposite
   face's table, then out of the far side, where a last soak may be rolled
   against that side's skin. Every box marked counts at least one point
   toward the depth, so a hit that absorbs nothing still digs in
   (docs/rulings/avt.md, *AV:T hull depth counts boxes*: it is what makes the
   71-point example move to the Core where it does; option ``hull_depth``).
4. **Explosions** (A5.453): a full battery or heat sink destroyed explodes
   for 2d10 less its component armour, a new pool allocated on the same
   table (no hull depth) before the first goes on.
5. **Octagons** (A5.454): a Structural Integrity hit on an octagon rolls a
   d10; under the octagon's number the ship is destroyed. A hit with the
   track full destroys it too (docs/rulings/avt.md, *AV:T structure track*).

Every step is an :class:`~.events.AllocationRow` in the log, written like
the text's table: damage left, location roll, system, armour, soak, notes.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal

from vectorwar.dice import Dice
from vectorwar.events import Event, Rolled
from vectorwar.systems.avt.armour import OPPOSITE_FACE, far_side
from vectorwar.systems.avt.design import Design, hit_entry
from vectorwar.systems.avt.events import AllocationRow, ShipDestroyed
from vectorwar.systems.avt.fuel import column_units
from vectorwar.systems.avt.ssd import battery_capacity, heat_capacity, reactor_power, ssd_of
from vectorwar.systems.avt.state import HEAT_TENTHS, Ship

HullDepthCount = Literal["boxes", "points"]
_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return _ORDINAL.get(n, f"{n}th")


@dataclass(slots=True)
class _Allocation:
    """The working record of one pool: the ship as it is marked, and the log."""

    ship: Ship
    design: Design
    dice: Dice
    events: list[Event]
    count: HullDepthCount = "boxes"
    notes: list[str] = field(default_factory=list)
    explosions: list[int] = field(default_factory=list)

    @property
    def destroyed(self) -> bool:
        return not self.ship.active

    def roll(self, kind: Literal["d10", "2d10-diff", "xd10"], purpose: str, number: int = 1) -> int:
        result = self.dice.roll(kind, f"{self.ship.id} {purpose}", number)
        self.events.append(Rolled.of(result))
        return result.total

    def row(self, left: int, table: str, roll: int, system: str, armour: int, soak: int) -> None:
        self.events.append(AllocationRow(self.ship.id, left, table, roll, system, armour, soak, "; ".join(self.notes)))
        self.notes = []

    def structure_hit(self) -> None:
        """One Structural Integrity box marked; an octagon may destroy the ship (A5.441, A5.454)."""
        track = ssd_of(self.design).structure
        hit = self.ship.marked("structure") + 1
        if hit > len(track):
            self.notes.append(f"Structural Integrity hit with the track full: {self.ship.id} breaks up")
            self._destroy("Structural Integrity track full")
            return
        self.ship = self.ship.with_marks("structure", hit)
        octagon = track[hit - 1]
        if not octagon:
            self.notes.append(f"{ordinal(hit)} Struct. Int. hit")
            return
        survive = self.roll("d10", f"octagon {octagon}: {ordinal(hit)} Structural Integrity hit")
        if survive < octagon:
            self.notes.append(f"{ordinal(hit)} Struct. Int. hit: octagon {octagon}, rolled {survive}: destroyed")
            self._destroy(f"Structural Integrity octagon {octagon}, rolled {survive}")
        else:
            self.notes.append(f"{ordinal(hit)} SI hit. Roll of {octagon}+ needed to survive: rolled {survive}")

    def _destroy(self, how: str) -> None:
        self.ship = replace(self.ship, status="destroyed")
        self.events.append(ShipDestroyed(self.ship.id, how))


# -- what a hit on each kind of box does (A5.452-A5.457, A5.47) --------------------------------


def _capacity_hit(a: _Allocation, system: str, armour: int) -> None:
    """Batteries and heat sinks: the empty capacity goes first; a full one explodes (A5.452-A5.453)."""
    boxes = ssd_of(a.design).batteries if system == "batteries" else ssd_of(a.design).heat_sinks
    marked = a.ship.marked(system)
    if marked >= len(boxes):
        a.notes.append(f"every {'battery' if system == 'batteries' else 'heat sink'} box already gone")
        return
    a.ship = a.ship.with_marks(system, marked + 1)
    if system == "batteries":
        capacity = battery_capacity(a.design, marked + 1)
        full = a.ship.battery > capacity
        a.ship = replace(a.ship, battery=min(a.ship.battery, capacity))
    else:
        capacity = heat_capacity(a.design, marked + 1)
        full = a.ship.heat_tenths > capacity * HEAT_TENTHS
        # The heat in the lost box goes with it, as a battery's charge does
        # (docs/rulings/avt.md, *AV:T system boxes*).
        a.ship = replace(a.ship, heat_tenths=min(a.ship.heat_tenths, capacity * HEAT_TENTHS))
    kind = "Battery" if system == "batteries" else "Heat Sink"
    if not full:
        a.notes.append(f"Empty {kind}: capacity now {capacity}")
        return
    blast = a.roll("xd10", f"{kind.lower()} explosion (2d10)", 2) - armour
    a.notes.append(f"Full {kind} explodes: 2d10 less armour {armour} = {max(0, blast)} more on this table")
    if blast > 0:
        a.explosions.append(blast)


def _reactor_hit(a: _Allocation) -> None:
    boxes = ssd_of(a.design).reactors
    marked = min(len(boxes), a.ship.marked("reactors") + 1)
    a.ship = a.ship.with_marks("reactors", marked)
    power = reactor_power(a.design, marked)
    a.notes.append(f"reactors now give {power} power a segment" if power else "reactors give no power (X)")


def _fuel_hit(a: _Allocation) -> None:
    """A fuel tank: the left-most column still whole is lost, its unburned units with it (A5.452)."""
    spaces = max(1, a.design.fuel_spaces)
    column = a.ship.marked("fuel")
    if column >= spaces:
        a.notes.append("every fuel tank already gone")
        return
    burned = a.design.fuel - a.ship.fuel - a.ship.fuel_lost
    in_column = column_units(column, a.design.fuel, spaces) if a.design.fuel_spaces else a.design.fuel
    spent = max(0, -(-(burned - column) // spaces)) if burned > column else 0
    lost = min(a.ship.fuel, max(0, in_column - spent))
    a.ship = replace(a.ship, fuel=a.ship.fuel - lost, fuel_lost=a.ship.fuel_lost + lost).with_marks("fuel", column + 1)
    a.notes.append(f"fuel column {column + 1} lost: {lost} units")


def _mount_hit(a: _Allocation, mount: str) -> None:
    """A weapon mount: the attacker's d10 picks the laser by the mount's rows; its next box goes (A5.47)."""
    spec = a.design.mounts[mount]
    pick = a.roll("d10", f"mount {mount}: which laser is hit")
    row = (pick - 1) * spec.lasers // 10 + 1
    laser = f"{mount}{row}"
    track = spec.hits
    marked = a.ship.marked(f"laser {laser}")
    if marked >= len(track):
        a.notes.append(f"{laser} on die roll of {pick}: already destroyed")
        return
    a.ship = a.ship.with_marks(f"laser {laser}", marked + 1)
    what = "destroyed" if marked + 1 >= len(track) else f"{ordinal(marked + 1)} hit"
    a.notes.append(f"{laser} ({spec.weapon}) {what} on die roll of {pick}")


def _quarters_hit(a: _Allocation) -> None:
    quarters = ssd_of(a.design).quarters
    marked = a.ship.marked("quarters")
    if marked >= len(quarters):
        a.notes.append("every quarters box already gone")
        return
    a.ship = a.ship.with_marks("quarters", marked + 1)
    if quarters[marked]:
        teams = sum(1 for i, w in enumerate(quarters) if w and i > marked)
        repairs = a.ship.repairs[:teams]
        if repairs != a.ship.repairs:
            a.notes.append("a repair team at work is lost")
        a.ship = replace(a.ship, repairs=repairs)
        a.notes.append(f"a damage control party is lost ({teams} left)")


def _electronics_hit(a: _Allocation, preference: tuple[str, ...]) -> None:
    """The defender chooses the box (A5.457): the first of their preference still unmarked."""
    boxes = ssd_of(a.design).electronics
    left = [b for b in boxes if b not in a.ship.electronics_lost]
    if not left:
        a.notes.append("every electronics box already gone")
        return
    chosen = next((b for b in preference if b in left), left[0])
    a.ship = replace(a.ship, electronics_lost=(*a.ship.electronics_lost, chosen))
    a.notes.append(f"{chosen} hit (the defender's choice)")


def _plain_hit(a: _Allocation, system: str) -> None:
    if system == "no effect":
        return
    boxes = a.design.thrust if system == "thrust" else ssd_of(a.design).radiators if system == "radiators" else 0
    boxes = boxes or ssd_of(a.design).systems.get(system, 1)
    marked = a.ship.marked(system)
    if marked >= boxes:
        a.notes.append(f"{system} already destroyed")
        return
    a.ship = a.ship.with_marks(system, marked + 1)
    if system == "thrust" and a.ship.chart.setting > a.design.thrust - marked - 1:
        # The engine cannot keep a setting above what is left (A2.4 Thrust: damage marks the matrix off).
        a.ship = replace(a.ship, chart=replace(a.ship.chart, setting=max(0, a.design.thrust - marked - 1)))
        a.notes.append("thrust setting cut to what the engines have left")


def mark(a: _Allocation, system: str, armour: int, preference: tuple[str, ...]) -> None:
    """Mark one box of ``system`` and apply what its loss does."""
    if system in ("structural integrity", "pivot/si"):
        a.structure_hit()
    elif system in ("batteries", "heat sinks"):
        _capacity_hit(a, system, armour)
    elif system == "reactors":
        _reactor_hit(a)
    elif system == "fuel":
        _fuel_hit(a)
    elif system.startswith("mount "):
        _mount_hit(a, system[6:].upper())
    elif system == "quarters":
        _quarters_hit(a)
    elif system == "electronics":
        _electronics_hit(a, preference)
    else:
        _plain_hit(a, system)


# -- the procedure ---------------------------------------------------------------------------------


def _hit(
    a: _Allocation, table: str, left: int, preference: tuple[str, ...], blast: bool = False
) -> tuple[int, int] | None:
    """One hit location row (of an explosion's pool with ``blast``).

    Returns (points absorbed, points counted toward hull depth), or ``None`` when allocation stops.
    """
    location = a.roll("d10", f"{'explosion ' if blast else ''}hit location ({table})")
    entry = a.design.hit_locations[table][location - 1]
    system, armour = hit_entry(entry)
    soak = a.roll("2d10-diff", f"soak ({system})")
    label = entry.rpartition(" ")[0]
    if blast:
        a.notes.append("explosion")
    if armour + soak > left:
        a.notes.append("exceeds the explosion's damage left, END" if blast else "Exceeds damage left, END")
        a.row(left, table, location, label, armour, soak)
        return None
    before = sum(n for _, n in a.ship.marks) + len(a.ship.electronics_lost)
    mark(a, system, armour, preference)
    if soak == 0 and a.ship.active:
        a.structure_hit()
    boxes = sum(n for _, n in a.ship.marks) + len(a.ship.electronics_lost) - before
    a.row(left, table, location, label, armour, soak)
    _explode(a, table, preference)  # a full battery or heat sink this row destroyed (a chain in a blast)
    absorbed = armour + soak
    return absorbed, max(absorbed, boxes) if a.count == "boxes" else absorbed


def _explode(a: _Allocation, table: str, preference: tuple[str, ...]) -> None:
    """Resolve the explosions the last box set off, each taken off the list before it is allocated."""
    blasts, a.explosions = a.explosions, []
    for blast in blasts:
        _explosion(a, table, blast, preference)


def _explosion(a: _Allocation, table: str, points: int, preference: tuple[str, ...]) -> None:
    """An exploding battery or heat sink: its own pool on the same table until spent (A5.453)."""
    left = points
    while left > 0 and a.ship.active:
        hit = _hit(a, table, left, preference, blast=True)
        if hit is None:
            return
        left -= hit[0]


def _skin(a: _Allocation, region: str, points: int, final: bool) -> int:
    """The skin's armour and soak roll (A5.44-A5.442); the points that get past it."""
    armour = ssd_of(a.design).armour[region]
    what = f"{'far side ' if final else ''}skin ({region})"
    if armour >= points:
        a.notes.append("the armour stops it all" if not final else "the far side's armour stops the rest")
        a.row(points, "skin", 0, what, armour, -1)
        return 0
    if armour == 0:
        a.notes.append("skin armour 0: no soak roll")
        a.row(points, "skin", 0, what, armour, -1)
        return points
    soak = a.roll("2d10-diff", f"soak ({what})")
    a.notes.append("Initial Soak" if not final else "exits the far side")
    if soak == 0:
        a.structure_hit()
    a.row(points, "skin", 0, what, armour, soak)
    return max(0, points - armour - soak)


def allocate(
    ship: Ship,
    design: Design,
    points: int,
    region: str,
    dice: Dice,
    events: list[Event],
    count: HullDepthCount = "boxes",
    preference: tuple[str, ...] = (),
) -> Ship:
    """Allocate ``points`` of damage striking ``region`` of ``ship``; the ship afterwards.

    ``preference`` is the defender's order for giving up electronics boxes (A5.457).
    """
    ssd = ssd_of(design)
    a = _Allocation(ship, design, dice, events, count)
    left = _skin(a, region, points, final=False)
    table: str = ssd.table(region)
    depth = design.hull_depth[ssd.depth_kind(region)]
    stages = [table, "core", OPPOSITE_FACE[ssd.table(region)]]
    used = 0
    if left > depth:
        # The text notes where the Core begins only when the pool is deep enough to reach it.
        _note_last(a, f"Core at <= {left - depth} points left")
    while left > 0 and a.ship.active:
        hit = _hit(a, stages[0], left, preference)
        if hit is None:
            break
        left -= hit[0]
        used += hit[1]
        if used >= depth and left > 0 and a.ship.active:
            stages.pop(0)
            used = 0
            if not stages:
                _note_last(a, f"exceeds hull depth a third time: {left} exit the far side")
                _skin(a, far_side(region), left, final=True)
                break
            after = stages[1].capitalize() if len(stages) > 1 else "the far side"
            reach = f"; {after} at <= {left - depth} points left" if left > depth else ""
            _note_last(a, f"Transition to {stages[0].capitalize()}{reach}")
    return a.ship


def _note_last(a: _Allocation, note: str) -> None:
    """Add a note to the last row of the main pool (transitions are written on the row that makes them)."""
    for i in range(len(a.events) - 1, -1, -1):
        event = a.events[i]
        if isinstance(event, AllocationRow) and "explosion" not in event.note:
            a.events[i] = replace(event, note=f"{event.note}; {note}" if event.note else note)
            return
