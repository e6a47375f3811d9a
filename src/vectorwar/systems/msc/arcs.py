"""MSC's six ship sides and their 60-degree firing arcs (MSC 2.0, 7.0 chart).

Each arc is centred on one hexside of the ship's counter and bounded by the
lines through its corners, so a hex whose centre lies exactly on such a line
is in both neighbouring arcs, as the chart's note says.

The picture below (ship at the centre, facing A, up the page) marks hexes in
the F arc with ``F`` and hexes on the F/FR boundary with ``*``::

        F * .
      F F F * .
        F . .

>>> from vectorwar.hexes import Hex, Direction
>>> sorted(s.name for s in sides_seeing(Hex.parse("0,0"), Direction.A, Hex.parse("1,-2")))
['F', 'FR']
"""

from __future__ import annotations

from enum import Enum
from functools import cache

from vectorwar.hexes import Arc, Bearing, Direction, Hex


class Side(Enum):
    """A side of the ship: where a weapon sits and the arc it covers."""

    F = "F"
    FL = "FL"
    FR = "FR"
    RL = "RL"
    RR = "RR"
    R = "R"

    def __str__(self) -> str:
        return self.value

    def __format__(self, format_spec: str) -> str:
        # What Enum.__format__ gives (its str, formatted), without its Python call: every shot's words name a side.
        return format(self.value, format_spec)

    # A member is only ever equal to itself, so its identity is hash enough (``Enum`` hashes the name, a Python
    # call that every set of sides and every weapon test paid for).
    __hash__ = object.__hash__

    @property
    def arc(self) -> Arc:
        return ARCS[self]

    @property
    def words(self) -> str:
        """The side in words, as the text's chart names it ("Front Left")."""
        return WORDS[self]


WORDS: dict[Side, str] = {
    Side.F: "Front",
    Side.FL: "Front Left",
    Side.FR: "Front Right",
    Side.RL: "Rear Left",
    Side.RR: "Rear Right",
    Side.R: "Rear",
}


# Rays are 30-degree steps clockwise from the ship's nose (see vectorwar.hexes).
ARCS: dict[Side, Arc] = {
    Side.F: Arc(11, 1),
    Side.FR: Arc(1, 3),
    Side.RR: Arc(3, 5),
    Side.R: Arc(5, 7),
    Side.RL: Arc(7, 9),
    Side.FL: Arc(9, 11),
}

# The order the text lists the sides in; used where a rule needs one side of
# several (see docs/rulings/msc.md, *Weapon hit from a boundary or range 0*).
TEXT_ORDER: tuple[Side, ...] = (Side.F, Side.FL, Side.FR, Side.RL, Side.RR, Side.R)


@cache
def _sides_for_offset(dq: int, dr: int, facing: Direction) -> frozenset[Side]:
    if dq == 0 and dr == 0:
        # Range 0: ruled to be in every arc (docs/rulings/msc.md).
        return frozenset(Side)
    # The bearing is the same for every facing (the bots' tables ask each offset in range from all six), and
    # the sides seeing a bearing measured from the nose are one of 24 sets.
    bearing = _bearing(dq, dr)
    return _SIDES_BY_RAY[bearing.on_ray][(bearing.ray - 2 * facing) % 12]


@cache
def _bearing(dq: int, dr: int) -> Bearing:
    return Bearing.between(Hex(0, 0), Hex(dq, dr))


#: The sides whose arcs hold each bearing from the nose (:meth:`Bearing.relative_to`), by ``on_ray`` and ray.
_SIDES_BY_RAY: dict[bool, tuple[frozenset[Side], ...]] = {
    on_ray: tuple(frozenset(s for s in TEXT_ORDER if ARCS[s].contains(Bearing(ray, on_ray))) for ray in range(12))
    for on_ray in (False, True)
}


def sides_seeing(origin: Hex, facing: Direction, target: Hex) -> frozenset[Side]:
    """The sides of a ship at ``origin`` facing ``facing`` whose arcs hold ``target``."""
    return _sides_for_offset(target.q - origin.q, target.r - origin.r, facing)
