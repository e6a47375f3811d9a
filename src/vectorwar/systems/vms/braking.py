"""How hard a VMS ship can brake, and where it comes to rest: what the greedy bot weighs a plot's end by.

A ship's thrust toward each direction from each facing (:func:`capacity`, all six at once in :func:`brakes`), the
direction that takes most off a vector (:func:`opposite`), and the hex where a ship braking as hard as it can from
next turn on stops (:func:`stop`). Everything is worked out in whole numbers and kept, since the bot asks for it
at every candidate end of every plot.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType

from vectorwar.hexes import Direction, Hex, nearest_axial
from vectorwar.memo import Kept
from vectorwar.systems.vms.ships import SIDES, Design
from vectorwar.systems.vms.state import VMSShip, VMSState
from vectorwar.systems.vms.thrust import pushes
from vectorwar.vectors import braking_run

_SQRT3 = math.sqrt(3.0)


def _xy(dq: float, dr: float) -> tuple[float, float]:
    return 1.5 * dq, _SQRT3 * (dr + dq / 2)


_UNIT = {d: _xy(*d.delta) for d in Direction}


def capacity(design: Design, lost_thrust: int, facing: Direction) -> Mapping[Direction, int]:
    """Hexes/turn of velocity change the ship can buy toward each direction from ``facing`` (no rotation)."""
    total = max(0, design.thrust - lost_thrust) // design.accel_cost
    rated = tuple(sum(t.rating for t in design.thrusters if t.side == side) for side in SIDES)
    return _capacity(total, design.accel_cost, rated, facing)


@lru_cache(maxsize=4096)
def _capacity(total: int, accel_cost: int, rated: tuple[int, ...], facing: Direction) -> Mapping[Direction, int]:
    """:func:`capacity` from the thrust left, each side's rating and the facing (asked for every facing of every
    ship at every plot a trial makes: cached, and read-only since it is shared)."""
    out: dict[Direction, int] = {}
    for d in Direction:
        side = next(i for i, s in enumerate(SIDES) if d in pushes(s, facing))
        out[d] = min(total, rated[side] // accel_cost)
    return MappingProxyType(out)


@dataclass(frozen=True, slots=True)
class Brakes:
    """A ship's :func:`capacity` from each facing, and the most toward any one direction from each; and
    :meth:`best`'s answers, kept."""

    design: Design
    can: Mapping[Direction, Mapping[Direction, int]]
    halt: Mapping[Direction, int]
    kept: dict[tuple[frozenset[Direction], Direction | None], int] = field(default_factory=dict, compare=False)

    def best(self, facings: frozenset[Direction], toward: Direction | None) -> int:
        """The most thrust toward ``toward`` (``None``: toward any one direction) from any of ``facings``: kept by
        both (at most 64 sets of facings by 7 directions), as the greedy bot asks it for every course of every menu
        of every decision."""
        key = (facings, toward)
        found = self.kept.get(key)
        if found is None:
            if toward is None:
                found = max(self.halt[f] for f in facings)
            else:
                can = self.can
                found = max(can[f][toward] for f in facings)
            self.kept[key] = found
        return found


def brakes(design: Design, lost_thrust: int) -> Brakes:
    """:class:`Brakes` of a design with ``lost_thrust`` lost, kept (the greedy bot asks for them at every plot of
    every ship) by the design's identity, as the plot menus are (designs are read once and shared)."""
    key = (id(design), lost_thrust)
    known = _KEPT.get(key)
    if known is not None and known.design is design:
        return known
    can = {f: capacity(design, lost_thrust, f) for f in Direction}
    found = _KEPT[key] = Brakes(
        design, MappingProxyType(can), MappingProxyType({f: max(c.values()) for f, c in can.items()})
    )
    if len(_KEPT) > 1024:
        _KEPT.clear()
        _KEPT[key] = found
    return found


_KEPT: dict[tuple[int, int], Brakes] = {}


def against(dq: int, dr: int, can: Mapping[Direction, int]) -> int:
    """Hexes/turn the ship can take off a vector ``dq, dr``: its thrust toward the direction nearest the
    opposite."""
    if dq == 0 and dr == 0:
        return max(can.values())
    return can[opposite(dq, dr)]


@lru_cache(maxsize=4096)
def opposite(dq: int, dr: int) -> Direction:
    """The direction nearest the opposite of a vector (asked for every candidate plot: cached)."""
    x, y = _xy(dq, dr)
    return min(_DIRECTIONS, key=lambda d: _UNIT[d][0] * x + _UNIT[d][1] * y)


#: The directions in their order, as a tuple: walking the enum itself costs a generator step a member.
_DIRECTIONS = tuple(Direction)


def stop(at: Hex, dq: int, dr: int, brake: int, margin: int = 0) -> Hex:
    """Where a ship at ``at`` with the vector ``dq, dr`` stops if it brakes by ``brake`` hexes/turn from next
    turn on.

    ``margin`` hexes further along, for a braking burn only roughly toward the opposite of the vector.
    """
    if dq == 0 and dr == 0:
        return at
    return _rest(at.q, at.r, dq, dr, brake, margin)


def _rest(q: int, r: int, dq: int, dr: int, brake: int, margin: int) -> Hex:
    """:func:`stop` by numbers (asked twice for every candidate plot of every trial): the ship's hex moved by its
    stopping run's hexes (:func:`run_hexes`), each hex one object kept for every stop there (thousands are asked,
    and each hex of its own would be more objects for the garbage collector to walk); a run too close to call
    rounded from the ship's own position, kept by it."""
    q, r = rest_axial(q, r, dq, dr, brake, margin)
    found = _HEXES.get((q, r))
    if found is None:
        if len(_HEXES) >= 1 << 16:
            _HEXES.clear()
        found = _HEXES[q, r] = Hex(q, r)
    return found


def rest_axial(q: int, r: int, dq: int, dr: int, brake: int, margin: int) -> tuple[int, int]:
    """:func:`stop`'s hex for a ship at axial ``(q, r)`` with the vector ``dq, dr`` (not at rest: a ship at rest stops
    where it is), as its axial numbers: for callers that weigh the stop in whole numbers, building no hex."""
    run = _RUN_HEXES.get((dq, dr, brake, margin))
    if run is None:
        run = run_hexes(dq, dr, brake, margin)
    if run is not _TOO_CLOSE:
        return q + run[0], r + run[1]
    key = (q, r, dq, dr, brake, margin)
    found = _RESTS.get(key)
    if found is None:
        if len(_RESTS) >= 1 << 12:
            _RESTS.clear()
        run_q, run_r = _stopping_run(dq, dr, brake, margin)
        found = _RESTS[key] = nearest_axial(q + run_q, r + run_r)
    return found


def run_hexes(dq: int, dr: int, brake: int, margin: int) -> tuple[int, int]:
    """The hexes a ship with the vector ``dq, dr`` drifts braking ``brake`` hexes/turn (:func:`stop`), as an axial
    step from where it is, kept; or :data:`_TOO_CLOSE` where that step depends on where the ship is.

    :func:`stop` rounds the ship's position plus its run (:func:`~vectorwar.hexes.nearest_axial`: each cube
    coordinate rounded, and the one rounded furthest put right when the three do not sum to zero). The run is a
    whole number of hexes over the speed (``dq``, ``dr`` times ``(travel + margin) / speed``), so each of its cube
    coordinates, and each one's distance from its rounding, is a multiple of ``1 / speed``: a coordinate is a half
    exactly or some ``1 / (2 * speed)`` clear of one, and two distances are equal or as far apart. A whole-numbered
    start (its own rounding error some 1e-14, far inside those) moves each rounding with it, and moves no
    comparison of two distances that differ: so the stop is the start plus the run rounded from zero, unless a
    coordinate is a half (Python rounds a half to even, which turns on the start) or the roundings need putting
    right by distances of which two are equal (which the start's rounding error may part either way). Those runs
    are rounded from the ship's own position, as :func:`stop` always did."""
    x, y = _stopping_run(dq, dr, brake, margin)
    z = -x - y
    rx, ry, rz = round(x), round(y), round(z)
    gx, gy, gz = abs(rx - x), abs(ry - y), abs(rz - z)  # each coordinate's distance from its rounding
    close = (
        abs(gx - 0.5) < _CLOSE
        or abs(gy - 0.5) < _CLOSE
        or abs(gz - 0.5) < _CLOSE
        or (rx + ry + rz != 0 and (abs(gx - gy) < _CLOSE or abs(gx - gz) < _CLOSE or abs(gy - gz) < _CLOSE))
    )
    return _RUN_HEXES.keep((dq, dr, brake, margin), _TOO_CLOSE if close else nearest_axial(x, y))


#: How near two of a run's numbers (multiples of ``1 / speed``) are counted as one (:func:`run_hexes`).
_CLOSE = 1e-6
#: :func:`run_hexes`' answer for a run rounded from the ship's own position: told by its identity, and no run's
#: hexes (a run is some hexes of one turn's speed).
_TOO_CLOSE = (1 << 62, 1 << 62)
#: :func:`run_hexes`' answers, by the vector, brake and margin.
_RUN_HEXES: Kept[tuple[int, int, int, int], tuple[int, int]] = Kept(1 << 12)
#: :func:`rest_axial`'s answers for the runs :func:`run_hexes` calls too close, by the whole position and run.
_RESTS: dict[tuple[int, int, int, int, int, int], tuple[int, int]] = {}
#: :func:`_rest`'s hexes, by axial numbers.
_HEXES: dict[tuple[int, int], Hex] = {}


def _stopping_run(dq: int, dr: int, brake: int, margin: int) -> tuple[float, float]:
    """The run of :func:`stop` from wherever the ship is (asked for every stop not kept: kept in a plain dictionary
    by whole numbers, as :data:`_RESTS` is, each entry one object fewer than an ``lru_cache``'s)."""
    key = (dq, dr, brake, margin)
    found = _RUNS.get(key)
    if found is None:
        speed = (abs(dq) + abs(dr) + abs(dq + dr)) // 2  # ``Velocity.speed``, building no vector
        travel = speed * 4 if brake <= 0 else braking_run(speed, brake)
        f = (travel + margin) / speed
        found = _RUNS.keep(key, (dq * f, dr * f))
    return found


_RUNS: Kept[tuple[int, int, int, int], tuple[float, float]] = Kept(1 << 12)


def stops_on_map(state: VMSState, ship: VMSShip) -> bool:
    """Whether ``ship``, braking as hard as it can from next turn on, comes to rest on the map (greedy's test
    for a plot, asked of where the ship is now)."""
    can = brakes(ship.spec, ship.thrust_lost).can[ship.facing]
    dq, dr = ship.velocity.dq, ship.velocity.dr
    return state.map.contains(stop(ship.hex, dq, dr, against(dq, dr, can), margin=1))
