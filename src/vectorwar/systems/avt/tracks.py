"""The computer players' picture of motion: ships' places and velocities as plain float vectors, in hexes.

The game moves ships by the movement grid in whole hexes (:mod:`.grid`); the greedy player (:mod:`.bots`)
steers and looks ahead on these instead: x points toward B/C, y toward A, z up. A ship's track is where the
board shows it going, the burn under way and the thrust set included, never its orders.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from vectorwar.hexes import Position
from vectorwar.memo import Kept
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.systems.avt.avid import ALL_WINDOWS, TargetMarker, Window, marker_for_offset
from vectorwar.systems.avt.state import AVTState, Ship
from vectorwar.systems.avt.thrust import thrust_heading
from vectorwar.vectors import Velocity

Vec = tuple[float, float, float]

_ROOT3_2 = math.sqrt(3.0) / 2.0
#: Segments in a turn, as a float for the kinematics.
SEG = 8.0


def add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def scale(a: Vec, k: float) -> Vec:
    return (a[0] * k, a[1] * k, a[2] * k)


def dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def norm(a: Vec) -> float:
    return math.sqrt(dot(a, a))


def unit(a: Vec) -> Vec:
    n = norm(a)
    return scale(a, 1.0 / n) if n > 1e-12 else (0.0, 0.0, 0.0)


def flat(dq: float, dr: float, dz: float) -> Vec:
    """Axial hex offsets (and levels) as a vector in hexes: x toward B/C, y toward A, z up."""
    return (dq * _ROOT3_2, -dr - dq / 2.0, dz)


def where(position: Position) -> Vec:
    return flat(position.hex.q, position.hex.r, position.altitude)


def arrow_vector(arrow: Arrow) -> Vec:
    return ARROWS[arrow]


ARROWS: dict[Arrow, Vec] = {a: flat(a.velocity.dq, a.velocity.dr, a.velocity.dz) for a in Arrow}
#: :data:`ARROWS` by each arrow's place in a thrust chart's ``pending`` (``Arrow(i)``).
_BY_PLACE: tuple[Vec, ...] = tuple(ARROWS[Arrow(i)] for i in range(len(Arrow)))


def velocity_vector(v: Velocity) -> Vec:
    return flat(v.dq, v.dr, v.dz)


def effective_velocity(ship: Ship) -> Vec:
    """Vectors plus the pending dots of the burn under way (they join the vectors when it breaks), in the arrows'
    order (``ThrustChart.pending_dots``' own), each arrow's vector read by its place."""
    out = velocity_vector(ship.velocity)
    for vector, n in zip(_BY_PLACE, ship.chart.pending, strict=True):
        if n:
            out = add(out, scale(vector, n))
    return out


def thrust_direction(nose: Window) -> Vec:
    """Velocity gained per dot of the orthogonal column with the nose in ``nose`` (angled burns included)."""
    heading = thrust_heading(nose)
    major = scale(add(arrow_vector(heading.major[0]), arrow_vector(heading.major[1])), 0.5)
    if heading.minor is None:
        return major
    minor = scale(add(arrow_vector(heading.minor[0]), arrow_vector(heading.minor[1])), 0.5)
    return add(major, scale(minor, 0.5))


THRUST: dict[Window, Vec] = {w: thrust_direction(w) for w in ALL_WINDOWS}
THRUST_UNIT: dict[Window, Vec] = {w: unit(v) for w, v in THRUST.items()}


@dataclass(frozen=True, slots=True)
class Track:
    """Where a ship is and is going, as the board shows it."""

    at: Vec
    velocity: Vec
    #: Velocity gained per segment from the thrust set now (public, A5.243), along the nose.
    push: Vec

    def after(self, segments: float) -> Vec:
        turns = segments / SEG
        # Each segment's thrust adds its dots, and the ship covers an eighth of its velocity a segment: at +
        # velocity x turns + push x segments^2 / 16, written out (a bot decision asks it dozens of times).
        k = segments * segments / (2 * SEG)
        (x, y, z), (u, v, w), (a, b, c) = self.at, self.velocity, self.push
        return (x + u * turns + a * k, y + v * turns + b * k, z + w * turns + c * k)


def track(ship: Ship) -> Track:
    """``ship``'s track, kept for the ship (a frozen value) while it lasts: a bot decision asks it of each ship
    several times (steering, facings, fire), and a ship nothing happened to is the same object next segment."""
    kept = _TRACKS.get(id(ship))
    if kept is not None and kept[0] is ship:
        return kept[1]
    push = scale(THRUST[ship.orientation.nose], ship.chart.setting / 4.0) if ship.chart.setting else (0, 0, 0)
    found = Track(where(ship.position), effective_velocity(ship), (float(push[0]), float(push[1]), float(push[2])))
    _TRACKS.keep(id(ship), (ship, found))
    return found


_TRACKS_KEPT = 256
#: Tracks by the ship's identity, the ship kept beside it so the identity is never reused while it is kept; the
#: table starts again past ``_TRACKS_KEPT`` ships.
_TRACKS: Kept[int, tuple[Ship, Track]] = Kept(_TRACKS_KEPT)


def marker_between_points(state: AVTState, start: Vec, end: Vec) -> tuple[Window | None, int]:
    """The AVID window and range from one predicted point to another (rounded to hexes and levels)."""
    return marker_between_vectors(state.three_d, start, end)


def marker_between_vectors(three_d: bool, start: Vec, end: Vec) -> tuple[Window | None, int]:
    """:func:`marker_between_points` in a game with altitude (``three_d``) or without: for loops that ask it often."""
    dq = round((end[0] - start[0]) / _ROOT3_2)
    dr = round(-(end[1] - start[1]) - dq / 2.0)
    dz = round(end[2] - start[2]) if three_d else 0
    marker = marker_for_offset(dq, dr, dz)
    return marker.window, marker.range


def markers_at(three_d: bool, mine: Track, theirs: Track, times: Iterable[int]) -> list[TargetMarker]:
    """The target marker from ``mine`` to ``theirs`` after each of ``times`` segments: :func:`marker_between_vectors`
    of the two tracks' :meth:`Track.after`, the same arithmetic written out in one loop (a bot decision asks it of
    a dozen times, each two points and a marker)."""
    (x, y, z), (u, v, w), (a, b, c) = mine.at, mine.velocity, mine.push
    (x2, y2, z2), (u2, v2, w2), (a2, b2, c2) = theirs.at, theirs.velocity, theirs.push
    out = []
    for t in times:
        turns = t / SEG
        k = t * t / (2 * SEG)
        dq = round(((x2 + u2 * turns + a2 * k) - (x + u * turns + a * k)) / _ROOT3_2)
        dr = round(-((y2 + v2 * turns + b2 * k) - (y + v * turns + b * k)) - dq / 2.0)
        dz = round((z2 + w2 * turns + c2 * k) - (z + w * turns + c * k)) if three_d else 0
        out.append(marker_for_offset(dq, dr, dz))
    return out


def nearest_first(ships: list[Ship], here: Vec) -> list[Ship]:
    """``ships`` by distance from ``here``, nearest first; ties by id, so every run picks the same one."""
    if len(ships) == 1:  # a duel: nothing to sort
        return list(ships)
    return sorted(ships, key=lambda s: (norm(sub(where(s.position), here)), s.id))
