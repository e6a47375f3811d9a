"""The AVID: windows fixed to the map, and shooting a bearing through them.

A :class:`Window` is one of the AVID's 50 windows (see :mod:`.sphere`),
written the way the tutorial talks about them, compactly: ``A`` or ``F/A``
(amber, in the map's plane), ``C+`` or ``C/D-`` (blue, 30 degrees above or
below), ``F++`` or ``C--`` (green, 60 degrees), ``up`` and ``down`` (purple,
straight up or down). Colour words read too: ``F/A blue-``, ``C green+``,
``purple-``.

Shooting a bearing (A5.132) gives a :class:`TargetMarker`: the range to the
target written in the window it is seen through.

* Horizontally (A5.152, the rule of thumb above the AVID): split the offset
  to the target into two adjacent map directions; if the larger is at least
  three times the smaller the target is seen through that hexside,
  otherwise through the corner between them.
* Vertically (A5.153, the RALT): from the hexes out ``h`` and the altitude
  difference ``v``, the range is ``floor(sqrt(h^2 + v^2))`` and the ring is
  the one whose 30-degree band holds the angle ``atan(v / h)``: amber below
  15 degrees, blue to 45, green to 75, purple above. The text's three RALT
  readings (6 out 1 down: 6 amber; 5 out 2 down: 5 blue; 6 out 5 up: 7
  blue) all come out of this; the printed table itself is not in the
  excerpt (docs/rulings/avt.md, *AV:T RALT*).
* The green rings have windows only on hexsides; a corner bearing seen
  through green uses the hexside of the larger offset, and of two equal ones
  the clockwise (docs/rulings/avt.md, *AV:T green corners*).

Every test is integer arithmetic, so bearings are exactly reciprocal: the
target sees the shooter through the opposite window at the same range.

>>> w = Window.parse("f/a blue-")
>>> str(w), w.colour, w.below, str(w.opposite)
('F/A-', 'blue', True, 'C/D+')
>>> from vectorwar.hexes import Position
>>> print(shoot_bearing(Position.parse("0,0@1"), Position.parse("-2,-4@-1")))  # 3 out in A, 2 in F, 2 down
F/A- (5)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from math import isqrt
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from vectorwar.errors import OrderSyntaxError
from vectorwar.hexes import Direction, Position, text_schema
from vectorwar.systems.avt import sphere

COLOURS = ("amber", "blue", "green", "purple")
_LETTERS = "ABCDEF"
_COMPACT = re.compile(r"^([A-Fa-f])(?:/([A-Fa-f]))?(\+{1,2}|-{1,2})?$")
_WORDS = re.compile(r"^([A-Fa-f])(?:/([A-Fa-f]))?\s*\(?\s*(amber|blue|green)\s*([+-]?)\s*\)?$", re.IGNORECASE)
_POLES = {"up": 3, "+++": 3, "purple+": 3, "purple": 3, "down": -3, "---": -3, "purple-": -3}


def ray_name(ray: int) -> str:
    """``A`` for ray 0, ``A/B`` for ray 1 ... ``F/A`` for ray 11."""
    ray %= 12
    side = _LETTERS[ray // 2]
    return side if ray % 2 == 0 else f"{side}/{_LETTERS[(ray // 2 + 1) % 6]}"


def parse_ray(first: str, second: str | None, text: str) -> int:
    a = _LETTERS.index(first.upper())
    if second is None:
        return 2 * a
    b = _LETTERS.index(second.upper())
    if (a + 1) % 6 == b:
        return 2 * a + 1
    if (b + 1) % 6 == a:
        return 2 * b + 1
    raise OrderSyntaxError(text, f"{first}/{second} is not a hex corner: its letters must be neighbours, like F/A")


@dataclass(frozen=True, slots=True, order=True)
class Window:
    """One window of the AVID, fixed to the map: elevation ``level`` (-3..3) and ``ray`` (0-11)."""

    level: int
    ray: int

    def __post_init__(self) -> None:
        if not sphere.valid(self.level, self.ray):
            raise ValueError(f"no AVID window at level {self.level}, ray {self.ray}")

    @classmethod
    def parse(cls, text: str) -> Window:
        t = text.strip()
        if t.lower() in _POLES:
            return cls(_POLES[t.lower()], 0)
        m = _COMPACT.match(t)
        if m:
            ray = parse_ray(m.group(1), m.group(2), text)
            marks = m.group(3) or ""
            level = len(marks) * (1 if marks[:1] == "+" else -1)
        else:
            w = _WORDS.match(t)
            if not w:
                raise OrderSyntaxError(
                    text,
                    "a window is a direction or corner with + or - per 30 degrees: A, F/A, C+, C/D-, F++, up, down",
                )
            ray = parse_ray(w.group(1), w.group(2), text)
            colour, sign = w.group(3).lower(), w.group(4)
            level = COLOURS.index(colour)
            if level and not sign:
                raise OrderSyntaxError(text, f"say whether the {colour} window is above (+) or below (-) the map")
            level *= -1 if sign == "-" else 1
        if abs(level) == 2 and ray % 2:
            raise OrderSyntaxError(text, "the green rings have windows only on hexsides (A++, B--...), not on corners")
        return cls(level, ray)

    def __str__(self) -> str:
        if abs(self.level) == 3:
            return "up" if self.level > 0 else "down"
        return ray_name(self.ray) + ("+" if self.level > 0 else "-") * abs(self.level)

    def __repr__(self) -> str:
        return f"Window.parse({str(self)!r})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return text_schema(cls, cls.parse)

    @property
    def colour(self) -> str:
        return COLOURS[abs(self.level)]

    @property
    def below(self) -> bool:
        """Below the map's plane: the tutorial circles these markers."""
        return self.level < 0

    @property
    def opposite(self) -> Window:
        if abs(self.level) == 3:
            return Window(-self.level, 0)
        return Window(-self.level, (self.ray + 6) % 12)

    @property
    def centre(self) -> sphere.Vec:
        return sphere.centre(self.level, self.ray)

    def rotated(self, sixths: int) -> Window:
        """The window turned ``sixths`` x 60 degrees clockwise about the map's vertical."""
        if abs(self.level) == 3:
            return self
        ray = (self.ray + 2 * sixths) % 12
        # Every window is made once (tables turn thousands of them); a window is one of them whichever way it is turned.
        return _WINDOW_AT.get((self.level, ray)) or Window(self.level, ray)


ALL_WINDOWS: tuple[Window, ...] = tuple(Window(lv, r) for lv, r in sphere.SPOTS)
#: :data:`ALL_WINDOWS` by level and ray.
_WINDOW_AT: dict[tuple[int, int], Window] = {(w.level, w.ray): w for w in ALL_WINDOWS}


@dataclass(frozen=True, slots=True)
class TargetMarker:
    """A range written in an AVID window (A5.132). ``window`` is ``None`` in the shooter's own space."""

    window: Window | None
    range: int

    def __str__(self) -> str:
        # The tutorial circles a marker below the ship; brackets stand in for the circle.
        if self.window is None:
            return f"here {self.range}"
        shown = f"({self.range})" if self.window.below else str(self.range)
        return f"{self.window} {shown}"


# Per sector (d, d+1): the axial steps of d and of the next direction clockwise, and their determinant.
_SECTORS: tuple[tuple[Direction, int, int, int, int, int], ...] = tuple(
    (d, *d.delta, *d.turned(1).delta, d.delta[0] * d.turned(1).delta[1] - d.delta[1] * d.turned(1).delta[0])
    for d in Direction
)


def horizontal_split(dq: int, dr: int) -> tuple[Direction, int, int]:
    """The offset as ``x`` hexes in ``d`` and ``y`` in the next direction clockwise, ``x > 0``.

    >>> horizontal_split(-2, -3)   # 3 in A and 2 in F: F first, clockwise
    (<Direction.F: 5>, 2, 3)
    """
    if dq == 0 and dr == 0:
        raise ValueError("no horizontal offset")
    for d, aq, ar, bq, br, det in _SECTORS:
        x = (dq * br - dr * bq) // det
        y = (aq * dr - ar * dq) // det
        if x > 0 and y >= 0 and x * aq + y * bq == dq and x * ar + y * br == dr:
            return d, x, y
    raise AssertionError("unreachable: every offset lies in one sector")  # pragma: no cover


def horizontal_ray(dq: int, dr: int) -> int:
    """The amber-ring ray a horizontal offset is seen through, by the three-times rule (A5.152).

    >>> ray_name(horizontal_ray(*Direction.A.delta)), ray_name(horizontal_ray(-2, -3))
    ('A', 'F/A')
    """
    d, x, y = horizontal_split(dq, dr)
    if y == 0 or x >= 3 * y:
        return 2 * d.value
    if y >= 3 * x:
        return (2 * d.value + 2) % 12
    return 2 * d.value + 1


def ralt_range(out: int, up: int) -> int:
    """The range the RALT gives for ``out`` hexes and ``up`` levels (sign ignored)."""
    return isqrt(out * out + up * up)


def ralt_level(out: int, up: int) -> int:
    """Signed ring (0 amber, 1 blue, 2 green, 3 purple) the RALT colours ``out`` / ``up`` with.

    The band edges are the 15, 45 and 75 degree lines: ``v < h tan 15``,
    ``v <= h`` and ``v <= h tan 75``, with ``tan 15 = 2 - sqrt 3`` and
    ``tan 75 = 2 + sqrt 3`` compared exactly in integers. A target exactly
    on the 45 degree line is seen through blue (docs/rulings/avt.md, *AV:T RALT*).

    >>> ralt_level(6, -1), ralt_level(5, -2), ralt_level(6, 5), ralt_level(1, 1), ralt_level(0, 2)
    (0, -1, 1, 1, 3)
    """
    if out < 0:
        raise ValueError(f"hexes out is a distance, got {out}")
    v, h = abs(up), out
    if v == 0:
        return 0
    sign = 1 if up > 0 else -1
    if 2 * h - v > 0 and 3 * h * h < (2 * h - v) ** 2:  # v < (2 - sqrt 3) h
        return 0
    if v <= h:
        return sign
    if v - 2 * h < 0 or (v - 2 * h) ** 2 <= 3 * h * h:  # v <= (2 + sqrt 3) h
        return 2 * sign
    return 3 * sign


def shoot_bearing(origin: Position, target: Position, three_d: bool = True) -> TargetMarker:
    """The target marker for ``target`` seen from ``origin`` (A5.13-A5.171).

    With ``three_d`` off (the 2-D option) altitude is ignored and only the
    amber ring is used.

    >>> print(shoot_bearing(Position.parse("0,0"), Position.parse("1,-2")))
    A/B 2
    """
    dz = target.altitude - origin.altitude if three_d else 0
    return marker_for_offset(target.hex.q - origin.hex.q, target.hex.r - origin.hex.r, dz)


@lru_cache(maxsize=65536)
def marker_for_offset(dq: int, dr: int, dz: int) -> TargetMarker:
    """The target marker for a target ``(dq, dr)`` axial hexes and ``dz`` levels away."""
    out = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    if out == 0 and dz == 0:
        return TargetMarker(None, 0)
    level = ralt_level(out, dz)
    if abs(level) == 3:
        return TargetMarker(Window(level, 0), ralt_range(out, dz))
    ray = horizontal_ray(dq, dr)
    if abs(level) == 2 and ray % 2:
        d, x, y = horizontal_split(dq, dr)
        ray = 2 * d.value if x > y else (2 * d.value + 2) % 12
    return TargetMarker(Window(level, ray), ralt_range(out, dz))
