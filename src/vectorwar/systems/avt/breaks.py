"""Resolving a burn's vectors at a thrust break (A5.245, A5.28-A5.286, A5.36-A5.364).

The pending dots join the ship's vectors, the whole is consolidated, the
burn's fuel is marked off the track and the thrust chart goes back to the
top. Both the segment's thrust break check and the end-of-turn procedure
(radiators extending cut the engine) break burns this way.
"""

from __future__ import annotations

from functools import lru_cache

from vectorwar.events import Event
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.arrows import arrows_of
from vectorwar.systems.avt.consolidate import consolidate
from vectorwar.systems.avt.events import VectorsResolved
from vectorwar.systems.avt.state import Ship
from vectorwar.systems.avt.thrust import ThrustChart
from vectorwar.vectors import Velocity


def resolve_vectors(ship: Ship, reason: str, events: list[Event]) -> Ship:
    """The ship after its burn breaks for ``reason``: new vectors, fuel spent, chart back at the top."""
    velocity, steps, broken = _resolved(ship.velocity, ship.chart)
    fuel_left = ship.fuel - ship.chart.fuel
    events.append(VectorsResolved(ship.id, reason, ship.chart.fuel, fuel_left, velocity, steps))
    return replace_fields(ship, velocity=velocity, fuel=fuel_left, chart=broken)


@lru_cache(maxsize=4096)
def _resolved(velocity: Velocity, chart: ThrustChart) -> tuple[Velocity, tuple[str, ...], ThrustChart]:
    """The vectors once ``chart``'s pending dots join ``velocity`` and are consolidated, the steps in words, and the
    chart back at the top: worked out once for each (a search's trials break the same burns again and again)."""
    counts = arrows_of(velocity)
    for arrow, n in chart.pending_dots().items():
        counts[arrow] = counts.get(arrow, 0) + n
    result = consolidate(counts)
    return result.velocity, result.steps, chart.broken()
