"""Disengagement: the game ends when the sides can no longer reach each other (option ``disengagement``).

The text sets no such end (A5.5 plays the duel to a kill); vectorwar's duels
turn it on in their scenario files (docs/rulings/avt.md, *AV:T disengagement*).
At each turn break, with the option set to N turns, every pair of an armed
ship and an enemy unit is checked: the pair is out of reach when it is out
of range of every laser either side carries now and no way of burning could
bring it within that range in the next N turns. When every pair is out of
reach the game ends, a draw.

The bound is conservative (it may let a hopeless game run on, never end one
that could still be fought): each ship is credited with

* its highest Thrust Matrix row, whatever damage it has taken (repairs may
  bring thrust back), burning from now on straight toward the enemy;
* every unit of fuel left, each worth at most ``DOT_SPEED`` hexes a turn of
  velocity (a dot burns a unit; an angled burn lays half as many dots again
  on its minor component, square to the major: sqrt(1 + 1/4) = 1.12);
* a margin for the movement grid's rounding.

Distances are straight lines in hex widths: a path of hex steps is never
shorter, and the range a laser reads (hexes and levels, the RALT) is at
least the straight-line distance less one, so a pair kept further apart
than ``range + 1 + MARGIN`` is out of range.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from vectorwar.hexes import Position
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.lasers import max_range
from vectorwar.systems.avt.state import AVTState, Ship
from vectorwar.systems.avt.thrust import dots
from vectorwar.vectors import Velocity

Vec = tuple[float, float, float]

#: The option: turns the sides are given to close before the game ends (0: the rule is off).
OPTION = "disengagement"
#: Velocity (hexes a turn) one unit of fuel can give at most, rounded up from sqrt(1.25).
DOT_SPEED = 1.25
#: Hexes allowed for the movement grid's rounding of each ship's path.
MARGIN = 2.0
_ROOT3_2 = math.sqrt(3.0) / 2.0


def _flat(dq: float, dr: float, dz: float) -> Vec:
    return (dq * _ROOT3_2, -dr - dq / 2.0, dz)


def _where(position: Position) -> Vec:
    return _flat(position.hex.q, position.hex.r, position.altitude)


def _velocity(v: Velocity) -> Vec:
    return _flat(v.dq, v.dr, v.dz)


def _norm(a: Vec) -> float:
    return math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2])


def drift(ship: Ship) -> Vec:
    """Vectors plus the dots of the burn under way, which join them when it breaks (A5.245)."""
    dq, dr, dz = float(ship.velocity.dq), float(ship.velocity.dr), float(ship.velocity.dz)
    for arrow, n in ship.chart.pending_dots().items():
        v = Arrow(arrow).velocity
        dq, dr, dz = dq + n * v.dq, dr + n * v.dr, dz + n * v.dz
    return _flat(dq, dr, dz)


@dataclass(frozen=True, slots=True)
class Reach:
    """What one ship could add to closing a gap: acceleration (hexes a turn, per turn) and velocity in all."""

    accel: float
    delta_v: float

    def displacement(self, turns: float) -> float:
        """The most its burns could move it (hexes) in ``turns``: full thrust until the fuel is gone."""
        if self.accel <= 0 or self.delta_v <= 0:
            return 0.0
        full = self.delta_v / self.accel
        if turns <= full:
            return 0.5 * self.accel * turns * turns
        return self.delta_v * turns - 0.5 * self.delta_v * full


def reach(state: AVTState, ship: Ship) -> Reach:
    if ship.kind != "ship" or not ship.active:
        return Reach(0.0, 0.0)
    design = state.designs[ship.design]
    thrust = max(design.matrix)
    per_turn = sum(dots(thrust, cell) for cell in range(1, SEGMENTS + 1)) if thrust else 0
    return Reach(DOT_SPEED * per_turn, DOT_SPEED * max(0, ship.fuel - ship.chart.fuel))


def weapon_range(state: AVTState, ship: Ship) -> int:
    """The longest range of the lasers ``ship``'s design carries (0 for a target)."""
    design = state.designs[ship.design]
    return max((max_range(m.weapon) for m in design.mounts.values() if m.lasers), default=0)


@dataclass(frozen=True, slots=True)
class Gap:
    """One pair's closest approach at best within the option's turns (a lower bound), and its reach."""

    first: str
    second: str
    now: float
    closest: float
    reach: int

    @property
    def out_of_reach(self) -> bool:
        return self.closest > self.reach + 1 + MARGIN

    def describe(self) -> str:
        return (
            f"{self.first} and {self.second} are {self.now:.0f} hexes apart and could come no closer than "
            f"{max(0.0, self.closest):.0f} (lasers reach {self.reach})"
        )


def closest_approach(state: AVTState, a: Ship, b: Ship, turns: int) -> float:
    """A lower bound on the straight-line distance between ``a`` and ``b`` over the next ``turns`` turns.

    Sampled every segment; over each segment the drifting gap shrinks by at most the relative speed times a
    segment, and the burns are credited with what they could do by the segment's end.
    """
    pa, pb = _where(a.position), _where(b.position)
    va, vb = drift(a), drift(b)
    gap = (pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2])
    rel = (vb[0] - va[0], vb[1] - va[1], vb[2] - va[2])
    speed = _norm(rel)
    ra, rb = reach(state, a), reach(state, b)
    step = 1.0 / SEGMENTS
    best = _norm(gap)
    for k in range(turns * SEGMENTS):
        t = k * step
        drifting = _norm((gap[0] + rel[0] * t, gap[1] + rel[1] * t, gap[2] + rel[2] * t))
        burns = ra.displacement(t + step) + rb.displacement(t + step)
        best = min(best, drifting - speed * step - burns)
    return best


def gaps(state: AVTState, turns: int) -> list[Gap]:
    """Every pair of units on opposing sides of which at least one carries lasers."""
    return [Gap(a.id, b.id, now, closest_approach(state, a, b, turns), reach_) for a, b, now, reach_ in _pairs(state)]


def _pairs(state: AVTState) -> Iterator[tuple[Ship, Ship, float, int]]:
    """Each pair :func:`gaps` weighs, with how far apart they are now and the longer reach of their lasers."""
    units = [s for s in state.ships if s.active]
    for i, a in enumerate(units):
        for b in units[i + 1 :]:
            if a.side == b.side:
                continue
            reach_ = max(weapon_range(state, a), weapon_range(state, b))
            if reach_ == 0:
                continue
            pa, pb = _where(a.position), _where(b.position)
            yield a, b, _norm((pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2])), reach_


def disengaged(state: AVTState) -> list[Gap] | None:
    """The pairs, when the option is on and every one of them is out of reach; otherwise ``None``."""
    turns = int(state.options.get(OPTION, 0))
    if turns <= 0 or len(state.commanders()) < 2:
        return None
    # A pair in reach now is in reach at its closest (which is never farther than now): no approach to work out.
    if any(now <= reach_ + 1 + MARGIN for _, _, now, reach_ in _pairs(state)):
        return None
    pairs = gaps(state, turns)
    if not pairs or not all(p.out_of_reach for p in pairs):
        return None
    return pairs
