"""What a ship can still do, read off its SSD's marked boxes (A5.452-A5.48).

The design lists each system's boxes left to right; the ship's state counts
how many are marked (:attr:`.state.Ship.marks`). Every figure the rest of
the rules need is read here, so that damage changes play in one place:

* batteries and heat sinks hold what their highest unchecked box says
  (A5.452);
* reactors give the power of their highest unmarked box, the ``X`` box (0)
  none; their heat does not change with damage (A5.452);
* radiators dump an equal share each, so a lost box takes its share away;
* thrust boxes are the engines: each marked one lowers the Thrust Matrix's
  figure by one (A2.4 *Thrust*);
* a laser with its first box marked is damaged (a pentagon roll every time
  it fires), and destroyed once its last pentagon is marked (A5.47);
* each unmarked wrench in the Quarters is a repair team (A5.456, A5.48).

>>> from vectorwar.systems.avt.rules import AttackVector
>>> rafik = AttackVector().designs()["rafik"]
>>> battery_capacity(rafik, 0), battery_capacity(rafik, 1), reactor_power(rafik, 3), reactor_power(rafik, 4)
(22, 18, 0, 0)
"""

from __future__ import annotations

from typing import Literal

from vectorwar.systems.avt.design import SSD, Design
from vectorwar.systems.avt.state import HEAT_TENTHS, Ship

LaserState = Literal["ready", "damaged", "destroyed"]


def ssd_of(design: Design) -> SSD:
    if design.ssd is None:
        raise ValueError(f"{design.name} has no SSD to damage")
    return design.ssd


def _left(boxes: list[int], marked: int, whole: int) -> int:
    if not boxes:
        return whole
    return boxes[marked] if marked < len(boxes) else 0


def battery_capacity(design: Design, marked: int) -> int:
    """Battery capacity with ``marked`` boxes gone: the highest unchecked box (A5.452)."""
    return _left(design.ssd.batteries if design.ssd else [], marked, design.battery)


def heat_capacity(design: Design, marked: int) -> int:
    """Heat sink capacity with ``marked`` boxes gone (A5.452)."""
    return _left(design.ssd.heat_sinks if design.ssd else [], marked, design.heat_sinks)


def reactor_power(design: Design, marked: int) -> int:
    """Power a segment from the reactors: the highest unmarked box; the X box (0) gives none (A5.452)."""
    return _left(design.ssd.reactors if design.ssd else [], marked, design.reactor)


def ship_battery_capacity(design: Design, ship: Ship) -> int:
    return battery_capacity(design, ship.marked("batteries"))


def ship_heat_capacity(design: Design, ship: Ship) -> int:
    return heat_capacity(design, ship.marked("heat sinks"))


def ship_reactor_power(design: Design, ship: Ship) -> int:
    return reactor_power(design, ship.marked("reactors"))


def radiator_tenths(design: Design, ship: Ship | None = None) -> int:
    """Heat a turn the radiators dump when out, in tenths: each unmarked radiator box its share."""
    whole = round(design.radiators * HEAT_TENTHS)
    boxes = design.ssd.radiators if design.ssd else 0
    if ship is None or not boxes:
        return whole
    left = max(0, boxes - ship.marked("radiators"))
    return whole * left // boxes


def thrust_limit(design: Design, ship: Ship) -> int:
    """The ship's maximum thrust now: the Thrust Matrix row its fuel gives, less its marked thrust boxes."""
    return max(0, design.max_thrust(ship.fuel) - ship.marked("thrust"))


def laser_state(design: Design, ship: Ship, laser: str) -> LaserState:
    """A laser's damage track (A5.47): untouched, damaged (pentagons to roll), or destroyed."""
    marked = ship.marked(f"laser {laser}")
    if marked == 0:
        return "ready"
    track = design.mounts[design.lasers[laser]].hits
    return "destroyed" if marked >= len(track) else "damaged"


def next_pentagon(design: Design, ship: Ship, laser: str) -> int:
    """The number in the laser's next unmarked pentagon (0 if none is left)."""
    track = design.mounts[design.lasers[laser]].hits
    marked = ship.marked(f"laser {laser}")
    return track[marked] if 0 < marked < len(track) else 0


def repair_teams(design: Design, ship: Ship) -> int:
    """Repair teams left: wrenches in the Quarters not yet marked (A5.456), less those at work."""
    quarters = design.ssd.quarters if design.ssd else []
    left = sum(1 for i, wrench in enumerate(quarters) if wrench and i >= ship.marked("quarters"))
    return max(0, left - len(ship.repairs))


def structure_left(design: Design, ship: Ship) -> int:
    return len(ssd_of(design).structure) - ship.marked("structure")
