"""Hex geometry on a flat-topped hex map.

Conventions (shared by every rule system):

* Hexes are flat-topped. Internally a hex is an axial coordinate ``(q, r)``;
  ``q`` is the column. Players see *offset* coordinates ``col,row`` in the
  "odd-q" layout (odd columns sit half a hex lower), which is what a printed
  numbered hex map shows.
* The six map directions are lettered A-F clockwise with A toward the top of
  the map, as the VMS and AV:T texts letter them.
* A *bearing* is where one hex lies as seen from another, measured clockwise
  from A in 30-degree *rays*: ray 0 points through the A hexside, ray 1
  through the corner between A and B, and so on to ray 11. Every firing arc
  in the four systems is a range of rays, so a bearing records whether the
  target lies exactly on a ray (the boundary cases the rules argue about) or
  strictly between two rays. This is decided with integer arithmetic only.

>>> Hex.parse("3,4").neighbour(Direction.A)
Hex.parse('3,3')
>>> Hex.parse("0,0").distance(Hex.parse("3,1"))
3
>>> str(Direction.parse("c").turned(-1))
'B'
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from vectorwar.errors import OrderSyntaxError
from vectorwar.roster import slot_stores

_SQRT3 = math.sqrt(3.0)


class Direction(IntEnum):
    """A map direction, A (top of the map) through F, clockwise."""

    A = 0
    B = 1
    C = 2
    D = 3
    E = 4
    F = 5

    @classmethod
    def parse(cls, text: str) -> Direction:
        """Read a direction letter, in either case.

        >>> Direction.parse(" d ")
        <Direction.D: 3>
        """
        key = text.strip().upper()
        if key not in cls.__members__:
            raise OrderSyntaxError(text, "a direction is one of the letters A-F")
        return cls[key]

    def __str__(self) -> str:
        return self.name

    # An IntEnum equals its number, so it hashes as its number (``Enum`` hashes the name, a Python call that
    # every cache keyed by a facing paid for); the same hash as the int it equals, as a dict needs.
    __hash__ = int.__hash__

    def turned(self, steps: int) -> Direction:
        """The direction ``steps`` hexsides clockwise (negative: anticlockwise)."""
        return _DIRECTIONS[(self + steps) % 6]

    @property
    def opposite(self) -> Direction:
        return self.turned(3)

    @property
    def delta(self) -> tuple[int, int]:
        """Axial ``(dq, dr)`` of one step in this direction."""
        return _DELTAS[self]

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return text_schema(cls, cls.parse)


#: The directions by number (``Direction(n)`` looks the member up through the enum machinery, a table does not).
_DIRECTIONS: tuple[Direction, ...] = tuple(Direction)

# A (up), B (up-right), C (down-right), D (down), E (down-left), F (up-left).
_DELTAS: tuple[tuple[int, int], ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))

# The twelve rays, clockwise from A: hexside directions on even rays, the
# hexspine (corner) directions between them on odd rays.
_RAYS: tuple[tuple[int, int], ...] = tuple(
    _DELTAS[i // 2]
    if i % 2 == 0
    else (_DELTAS[i // 2][0] + _DELTAS[(i // 2 + 1) % 6][0], _DELTAS[i // 2][1] + _DELTAS[(i // 2 + 1) % 6][1])
    for i in range(12)
)


def text_schema(cls: type[Any], parse: Any) -> core_schema.CoreSchema:
    """Pydantic schema that stores a value type as its text notation."""

    def validate(value: Any) -> Any:
        if isinstance(value, cls):
            return value
        if isinstance(value, str):
            return parse(value)
        raise ValueError(f"expected {cls.__name__} text, got {value!r}")

    return core_schema.no_info_plain_validator_function(
        validate,
        json_schema_input_schema=core_schema.str_schema(),
        serialization=core_schema.plain_serializer_function_ser_schema(str, when_used="always"),
    )


@dataclass(frozen=True, slots=True, order=True, init=False)
class Hex:
    """One hex of the map, in axial coordinates.

    ``str`` gives the player's offset coordinates ``col,row`` and
    :meth:`parse` reads them back.

    >>> h = Hex.from_offset(5, 2)
    >>> h, str(h)
    (Hex.parse('5,2'), '5,2')
    >>> Hex.parse(str(h)) == h
    True
    """

    q: int
    r: int

    def __init__(self, q: int, r: int) -> None:
        # Each stored by its slot's own setter: the frozen dataclass's __init__ stores each by name through
        # object.__setattr__, at twice the cost, and a game makes hexes by the ten thousand (neighbours, arcs,
        # paths).
        _HEX_Q(self, q)
        _HEX_R(self, r)

    @classmethod
    def from_offset(cls, col: int, row: int) -> Hex:
        return cls(col, row - (col - (col & 1)) // 2)

    @property
    def col(self) -> int:
        return self.q

    @property
    def row(self) -> int:
        return self.r + (self.q - (self.q & 1)) // 2

    @classmethod
    def parse(cls, text: str) -> Hex:
        """Read ``col,row`` offset coordinates (spaces allowed)."""
        parts = text.strip().split(",")
        if len(parts) != 2:
            raise OrderSyntaxError(text, "a hex is written col,row, for example 4,7")
        try:
            col, row = (int(p) for p in parts)
        except ValueError:
            raise OrderSyntaxError(text, "a hex is written col,row with whole numbers") from None
        return cls.from_offset(col, row)

    def __str__(self) -> str:
        return f"{self.col},{self.row}"

    def __repr__(self) -> str:
        return f"Hex.parse('{self}')"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return text_schema(cls, cls.parse)

    @property
    def s(self) -> int:
        """The third cube coordinate."""
        return -self.q - self.r

    def shifted(self, dq: int, dr: int) -> Hex:
        """The hex ``(dq, dr)`` axial steps away."""
        return Hex(self.q + dq, self.r + dr)

    def minus(self, other: Hex) -> tuple[int, int]:
        """Axial offset from ``other`` to ``self``."""
        return (self.q - other.q, self.r - other.r)

    def neighbour(self, direction: Direction, steps: int = 1) -> Hex:
        dq, dr = _DELTAS[direction]
        return Hex(self.q + dq * steps, self.r + dr * steps)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes, in direction order A-F."""
        return tuple(self.neighbour(d) for d in Direction)

    def distance(self, other: Hex) -> int:
        dq, dr = self.q - other.q, self.r - other.r
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def ring(self, radius: int) -> list[Hex]:
        """Hexes at exactly ``radius``, clockwise starting from the A side."""
        if radius < 0:
            raise ValueError(f"ring radius must be >= 0, got {radius}")
        if radius == 0:
            return [self]
        out: list[Hex] = []
        h = self.neighbour(Direction.A, radius)
        for side in range(6):
            walk = _DIRECTIONS[(side + 2) % 6]
            for _ in range(radius):
                out.append(h)
                h = h.neighbour(walk)
        return out

    def within(self, radius: int) -> Iterator[Hex]:
        """Every hex at distance ``radius`` or less, nearest first."""
        for k in range(radius + 1):
            yield from self.ring(k)

    def centre(self) -> tuple[float, float]:
        """Centre in hex-width units, y growing down the map (for drawing)."""
        return (1.5 * self.q, _SQRT3 * (self.r + self.q / 2))

    def bearing_to(self, target: Hex) -> Bearing:
        """Where ``target`` lies as seen from this hex, against the map's A."""
        return Bearing.between(self, target)

    def line_to(self, target: Hex) -> list[Hex]:
        """The hexes a straight line passes through, both ends included.

        Where the line runs exactly along the edge between two hexes, the tie
        is broken by nudging the line a hair toward the clockwise side of its
        travel (a fixed epsilon). :meth:`line_candidates` reports both hexes
        instead, for rules that care.

        >>> [str(h) for h in Hex.parse("0,0").line_to(Hex.parse("3,0"))]
        ['0,0', '1,0', '2,0', '3,0']
        """
        q, r = self.q, self.r
        return [Hex(q + step[0][0], r + step[0][1]) for step in _line_shape(target.q - q, target.r - r)]

    def line_candidates(self, target: Hex) -> list[tuple[Hex, ...]]:
        """Like :meth:`line_to`, but each step lists every hex the exact line
        touches: one hex, or two where it runs along their shared edge."""
        return _line(self, target)


#: :class:`Hex`'s slots' setters, in field order (``roster.slot_stores``).
_HEX_Q, _HEX_R = slot_stores(Hex)


def nearest_hex(q: float, r: float) -> Hex:
    """The hex nearest a fractional axial position (cube rounding).

    >>> nearest_hex(1.4, -0.4) == Hex(1, 0)
    True
    """
    return Hex(*_cube_round(q, r, -q - r))


def nearest_axial(q: float, r: float) -> tuple[int, int]:
    """:func:`nearest_hex`'s axial numbers, building no hex: for callers that keep hexes by their numbers.

    >>> nearest_axial(1.4, -0.4)
    (1, 0)
    """
    return _cube_round(q, r, -q - r)


def _cube_round(x: float, y: float, z: float) -> tuple[int, int]:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return int(rx), int(ry)


_EPS = (1e-6, 2e-6, -3e-6)


def _line(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    # A line's shape depends only on the offset between its ends (the nudge is
    # far larger than any rounding error), so shapes are drawn once from the origin.
    return [tuple(Hex(a.q + dq, a.r + dr) for dq, dr in step) for step in _line_shape(b.q - a.q, b.r - a.r)]


def line_offsets(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """:meth:`Hex.line_candidates` from a hex to the hex ``(dq, dr)`` axial steps away, each hex as its axial
    offset from the first: for callers that test the hexes against sets of whole numbers, building no hex.

    >>> line_offsets(2, 0)  # straight down a row of hexes
    (((0, 0),), ((1, 0),), ((2, 0),))
    >>> line_offsets(1, 1)  # along the edge between two hexes: either may be the one passed
    (((0, 0),), ((0, 1), (1, 0)), ((1, 1),))
    """
    return _line_shape(dq, dr)


@functools.lru_cache(maxsize=4096)
def _line_shape(dq: int, dr: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    n = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    if n == 0:
        return (((0, 0),),)
    steps: list[tuple[tuple[int, int], ...]] = []
    for i in range(n + 1):
        t = i / n
        x, y = dq * t, dr * t
        z = -x - y
        plus = _cube_round(x + _EPS[0], y + _EPS[1], z + _EPS[2])
        minus = _cube_round(x - _EPS[0], y - _EPS[1], z - _EPS[2])
        steps.append((plus,) if plus == minus else (plus, minus))
    return tuple(steps)


@dataclass(frozen=True, slots=True)
class Bearing:
    """Where a target lies as seen from a hex, exact to the 30-degree ray.

    ``ray`` is 0-11, clockwise from A. If ``on_ray`` the target lies exactly
    on that ray; otherwise it lies strictly between ``ray`` and ``ray + 1``.
    A bearing of a hex from itself is undefined and :meth:`between` refuses it.

    >>> Bearing.between(Hex.parse("0,0"), Hex.parse("0,-3"))
    Bearing(ray=0, on_ray=True)
    >>> Bearing.between(Hex.parse("0,0"), Hex.parse("1,-3"))
    Bearing(ray=0, on_ray=False)
    """

    ray: int
    on_ray: bool

    @classmethod
    def between(cls, origin: Hex, target: Hex) -> Bearing:
        dq, dr = target.q - origin.q, target.r - origin.r
        if dq == 0 and dr == 0:
            raise ValueError(f"no bearing from hex {origin} to itself")
        for i, (vq, vr) in enumerate(_RAYS):
            if dq * vr == dr * vq and dq * vq + dr * vr + (dq + dr) * (vq + vr) > 0:
                return cls(i, True)
        x = 1.5 * dq
        y = _SQRT3 * (dr + dq / 2)
        angle = math.degrees(math.atan2(x, -y)) % 360.0
        return cls(int(angle // 30) % 12, False)

    def relative_to(self, facing: Direction) -> Bearing:
        """This bearing measured from ``facing`` instead of the map's A."""
        return Bearing((self.ray - 2 * facing) % 12, self.on_ray)


@dataclass(frozen=True, slots=True)
class Arc:
    """A firing arc: the rays from ``start`` clockwise to ``end``.

    Whether each boundary ray belongs to the arc is explicit, because the
    systems rule differently on it (MSC: boundary hexes are in both arcs;
    VV5: the forward line is in both side arcs, the aft line in neither).
    A full circle is ``Arc(0, 12)``.

    >>> front = Arc(11, 1)   # MSC's F arc: 30 degrees either side of the nose
    >>> front.contains(Bearing(0, False)), front.contains(Bearing(1, True)), front.contains(Bearing(1, False))
    (True, True, False)
    """

    start: int
    end: int
    include_start: bool = True
    include_end: bool = True

    @property
    def width(self) -> int:
        """Width in rays (1 ray = 30 degrees)."""
        span = (self.end - self.start) % 12
        return 12 if span == 0 and self.end != self.start else span

    def contains(self, bearing: Bearing) -> bool:
        offset = (bearing.ray - self.start) % 12
        width = self.width
        if width == 12:
            return True
        if bearing.on_ray:
            if offset == 0:
                return self.include_start
            if offset == width:
                return self.include_end
            return offset < width
        return offset < width


@dataclass(frozen=True, slots=True)
class Position:
    """A hex plus an altitude in hex-sized levels (0 in the 2-D systems)."""

    hex: Hex
    altitude: int = 0

    def __str__(self) -> str:
        return str(self.hex) if self.altitude == 0 else f"{self.hex}@{self.altitude:+d}"

    @classmethod
    def parse(cls, text: str) -> Position:
        """``col,row`` or ``col,row@+alt``.

        >>> Position.parse("3,4@-2")
        Position(hex=Hex.parse('3,4'), altitude=-2)
        """
        hex_text, _, alt_text = text.partition("@")
        try:
            altitude = int(alt_text) if alt_text else 0
        except ValueError:
            raise OrderSyntaxError(text, "altitude after @ must be a whole number") from None
        return cls(Hex.parse(hex_text), altitude)

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return text_schema(cls, cls.parse)
