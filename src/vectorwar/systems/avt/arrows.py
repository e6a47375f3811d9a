"""The AVID's eight vector arrows: the six map directions A-F, up and down.

Velocity change (acceleration dots), displacement and every hex a ship moves
happen along one of these arrows, so they are the unit steps of AV:T movement.
Up is written ``up`` (the text also writes ``+``), down ``down`` (``-``).

>>> Arrow.parse("+"), str(Arrow.C.opposite), Arrow.D.velocity
(<Arrow.UP: 6>, 'F', Velocity(dq=0, dr=1, dz=0))
"""

from __future__ import annotations

from enum import IntEnum

from vectorwar.errors import OrderSyntaxError
from vectorwar.hexes import Direction
from vectorwar.vectors import Velocity


class Arrow(IntEnum):
    """One vector arrow of the AVID; A-F share their values with :class:`Direction`."""

    A = 0
    B = 1
    C = 2
    D = 3
    E = 4
    F = 5
    UP = 6
    DOWN = 7

    @classmethod
    def parse(cls, text: str) -> Arrow:
        key = text.strip().upper()
        if key in ("+", "UP"):
            return cls.UP
        if key in ("-", "DOWN"):
            return cls.DOWN
        if key in cls.__members__:
            return cls[key]
        raise OrderSyntaxError(text, "a vector arrow is one of A-F, up (+) or down (-)")

    @classmethod
    def of(cls, direction: Direction) -> Arrow:
        return HORIZONTAL[direction.value]  # read by place: an enum's call by value costs a Python call or two

    def __str__(self) -> str:
        return self.name.lower() if self.vertical else self.name

    @property
    def vertical(self) -> bool:
        return self >= Arrow.UP

    @property
    def direction(self) -> Direction:
        """The map direction of a horizontal arrow."""
        if self.vertical:
            raise ValueError(f"arrow {self} is not a map direction")
        return Direction(self.value)

    @property
    def opposite(self) -> Arrow:
        if self.vertical:
            return Arrow.DOWN if self is Arrow.UP else Arrow.UP
        return Arrow((self.value + 3) % 6)

    @property
    def velocity(self) -> Velocity:
        """One hex (or one altitude level) per turn along this arrow: kept, a move asks it of every arrow flown."""
        return _VELOCITIES[self.value]


def _unit_velocity(arrow: Arrow) -> Velocity:
    if arrow is Arrow.UP:
        return Velocity(0, 0, 1)
    if arrow is Arrow.DOWN:
        return Velocity(0, 0, -1)
    return Velocity.toward(Direction(arrow.value))


HORIZONTAL: tuple[Arrow, ...] = tuple(Arrow(i) for i in range(6))
#: :attr:`Arrow.velocity` by the arrow's value.
_VELOCITIES: tuple[Velocity, ...] = tuple(_unit_velocity(Arrow(i)) for i in range(len(Arrow)))


def arrows_of(velocity: Velocity) -> dict[Arrow, int]:
    """A consolidated velocity as counts on at most two adjacent arrows plus one vertical.

    >>> {str(a): n for a, n in arrows_of(Velocity.parse("A=4, B=2, up=1")).items()}
    {'A': 4, 'B': 2, 'up': 1}
    """
    out = {Arrow.of(d): n for d, n in sorted(velocity.components().items())}
    if velocity.dz:
        out[Arrow.UP if velocity.dz > 0 else Arrow.DOWN] = abs(velocity.dz)
    return out


def velocity_of(counts: dict[Arrow, int]) -> Velocity:
    """The sum of counts on any arrows, as a kernel velocity."""
    total = Velocity()
    for arrow, n in counts.items():
        unit = arrow.velocity
        total += Velocity(unit.dq * n, unit.dr * n, unit.dz * n)
    return total
