"""Velocities: a hex offset plus a vertical part.

Players write a velocity as counts in at most two adjacent map directions,
"A=4, B=2" (the VMS vector record); AV:T adds "up"/"down". A :class:`Velocity`
prints in that canonical form and parses any sum of directions back.

>>> v = Velocity.parse("A=4, B=2")
>>> str(v + Velocity.parse("C=2"))
'A=2, B=4'
>>> str(v.mirrored())
'D=4, E=2'
>>> str(Velocity.parse("C=2, A=4"))   # 120 degrees apart fold into the middle
'A=2, B=2'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from vectorwar.errors import OrderSyntaxError
from vectorwar.hexes import Direction, Position, text_schema
from vectorwar.limits import MAX_VELOCITY_TERM, read_number

_TERM = re.compile(r"^\s*([A-Fa-f]|up|down)\s*=\s*(\d+)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Velocity:
    """Hexes moved per turn: axial ``(dq, dr)`` and vertical ``dz`` (up positive)."""

    dq: int = 0
    dr: int = 0
    dz: int = 0

    @classmethod
    def toward(cls, direction: Direction, amount: int = 1) -> Velocity:
        dq, dr = direction.delta
        return cls(dq * amount, dr * amount, 0)

    @classmethod
    def between(cls, start: Position, end: Position) -> Velocity:
        dq, dr = end.hex.minus(start.hex)
        return cls(dq, dr, end.altitude - start.altitude)

    def __add__(self, other: Velocity) -> Velocity:
        return Velocity(self.dq + other.dq, self.dr + other.dr, self.dz + other.dz)

    def __sub__(self, other: Velocity) -> Velocity:
        return self + other.mirrored()

    def mirrored(self) -> Velocity:
        """The reverse velocity (VV5 mirrors the vector marker through the ship)."""
        return Velocity(-self.dq, -self.dr, -self.dz)

    @property
    def is_zero(self) -> bool:
        return self.dq == 0 and self.dr == 0 and self.dz == 0

    @property
    def speed(self) -> int:
        """Horizontal hexes moved per turn (the hex distance of ``dq, dr``, without building the hexes).

        >>> Velocity(2, -3).speed, Velocity(2, 1).speed
        (3, 3)
        """
        return (abs(self.dq) + abs(self.dr) + abs(self.dq + self.dr)) // 2

    def components(self) -> dict[Direction, int]:
        """The two-adjacent-direction form players write, zero terms left out."""
        if self.dq == 0 and self.dr == 0:
            return {}
        for d in Direction:
            nxt = d.turned(1)
            (aq, ar), (bq, br) = d.delta, nxt.delta
            det = aq * br - ar * bq
            a = (self.dq * br - self.dr * bq) // det
            b = (aq * self.dr - ar * self.dq) // det
            if a >= 0 and b >= 0 and a * aq + b * bq == self.dq and a * ar + b * br == self.dr:
                if b == 0:
                    return {d: a}
                if a == 0:
                    return {nxt: b}
                return {d: a, nxt: b}
        raise AssertionError("unreachable: every offset lies in one sector")  # pragma: no cover

    def moved(self, position: Position) -> Position:
        return Position(position.hex.shifted(self.dq, self.dr), position.altitude + self.dz)

    def __str__(self) -> str:
        terms = [f"{d}={n}" for d, n in sorted(self.components().items())]
        if self.dz:
            terms.append(f"{'up' if self.dz > 0 else 'down'}={abs(self.dz)}")
        return ", ".join(terms) if terms else "0"

    @classmethod
    def parse(cls, text: str) -> Velocity:
        """Read ``"A=4, B=2"`` (any directions, summed), ``up=N``/``down=N``, or ``0``."""
        if text.strip() == "0":
            return cls()
        total = cls()
        for term in text.split(","):
            m = _TERM.match(term)
            if not m:
                raise OrderSyntaxError(text, f"{term.strip()!r} is not DIRECTION=COUNT (A-F, up or down)")
            key, count = m.group(1).lower(), read_number(m.group(2), "a velocity's count", MAX_VELOCITY_TERM, text)
            if key == "up":
                total += cls(0, 0, count)
            elif key == "down":
                total += cls(0, 0, -count)
            else:
                total += cls.toward(Direction.parse(key), count)
        return total

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return text_schema(cls, cls.parse)


def braking_run(speed: int, brake: int) -> int:
    """Hexes a ship moving ``speed`` hexes a turn still drifts before it stops, shedding ``brake`` hexes a turn
    of speed from its next move on (``brake`` at least 1).

    >>> braking_run(6, 2)  # 4, then 2, then at rest
    6
    >>> braking_run(5, 2), braking_run(3, 3), braking_run(0, 1)
    (4, 0, 0)
    """
    return sum(speed - k * brake for k in range(1, speed // brake + 1))
