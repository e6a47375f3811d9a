"""The 50-window sphere that both the AVID and the firing arc diagrams divide.

A window is a *spot* ``(level, ray)``: ``level`` is the elevation in
30-degree steps (0 the amber ring on the equator, +-1 the blue rings, +-2 the
green rings, +-3 the purple poles) and ``ray`` the azimuth in 30-degree steps
clockwise, as :class:`vectorwar.hexes.Bearing` numbers rays (0 through the A
hexside, 1 through the A/B corner). The amber and blue rings have twelve
windows; the green rings have six, on the even (hexside) rays; a pole is one
window, written with ray 0. 12 + 2 x 12 + 2 x 6 + 2 = 50.

Geometry is in a right-handed frame: x toward the map's B/C corner (ray 3),
y toward A (ray 0), z up. Sines and cosines of multiples of 30 degrees come
from an exact table, so values that are equal in exact arithmetic compare
equal here within ``EPS``; that is how a direction lying exactly between two
windows is recognised (:func:`nearest` returns both).

>>> len(SPOTS), sum(1 for level, _ in SPOTS if abs(level) == 2)
(50, 12)
>>> nearest(centre(1, 5))
((1, 5),)
"""

from __future__ import annotations

import math

Spot = tuple[int, int]
Vec = tuple[float, float, float]

EPS = 1e-9
_H = math.sqrt(3.0) / 2.0
# sin and cos of k * 30 degrees, k = 0..11, exact zeros and halves.
SIN: tuple[float, ...] = (0.0, 0.5, _H, 1.0, _H, 0.5, 0.0, -0.5, -_H, -1.0, -_H, -0.5)
COS: tuple[float, ...] = tuple(SIN[(k + 3) % 12] for k in range(12))


def valid(level: int, ray: int) -> bool:
    """Whether ``(level, ray)`` names one of the 50 windows."""
    if not -3 <= level <= 3 or not 0 <= ray < 12:
        return False
    if abs(level) == 3:
        return ray == 0
    if abs(level) == 2:
        return ray % 2 == 0
    return True


SPOTS: tuple[Spot, ...] = tuple((lv, r) for lv in (0, 1, -1, 2, -2, 3, -3) for r in range(12) if valid(lv, r))


def direction(level: int, ray: int) -> Vec:
    """Unit vector at elevation ``level`` x 30 and azimuth ``ray`` x 30 degrees (any ray)."""
    c = COS[level % 12]
    return (c * SIN[ray % 12], c * COS[ray % 12], SIN[level % 12])


def centre(level: int, ray: int) -> Vec:
    """The centre of a window."""
    if not valid(level, ray):
        raise ValueError(f"no window at level {level}, ray {ray}")
    return direction(level, ray)


def dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a: Vec, b: Vec) -> Vec:
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def scale(a: Vec, k: float) -> Vec:
    return (a[0] * k, a[1] * k, a[2] * k)


def add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def neg(a: Vec) -> Vec:
    return (-a[0], -a[1], -a[2])


_CENTRES: tuple[tuple[Spot, Vec], ...] = tuple((s, centre(*s)) for s in SPOTS)


#: The centres alone, in ``SPOTS`` order, for :func:`nearest`'s one pass.
_VECS: tuple[Vec, ...] = tuple(c for _, c in _CENTRES)


def nearest(v: Vec) -> tuple[Spot, ...]:
    """The window(s) whose centre is nearest ``v``: one, or every window tied for nearest."""
    x, y, z = v
    # :func:`dot` written out, the same sum in the same order: a fresh process asks this of every orientation and
    # window it meets (arc and armour tables), so a call per centre shows.
    scores = [x * a + y * b + z * c for a, b, c in _VECS]
    floor = max(scores) - EPS
    return tuple(s for score, s in zip(scores, SPOTS, strict=True) if score >= floor)
