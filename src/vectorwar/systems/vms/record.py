"""The odd/even vector graphics: the record a VMS player keeps each turn.

Each ship has two graphics, Odd and Even, fixed to the map (hex A at the
top). The graphic of the current turn gets this turn's thrust in the right
halves of its hexes and its rotational thrust in the inner ("This") boxes;
the other graphic gets the outcome, the vector in the left halves and the
rotation speed in the outer ("Prev") boxes, plus the facing arrow, and
becomes the current graphic next turn. :func:`record_turn` fills the pair
the way the text's steps 2-5 do; the movement example's turn 3:

>>> rec = record_turn(3, Velocity.parse("A=4, B=2"), 0, Direction.B, {Direction.B: 2},
...                   Velocity.parse("A=4, B=4"), 1, Direction.C)
>>> rec.current.label, rec.current.thrust, rec.current.right_this
('Odd', {<Direction.B: 1>: 2}, 1)
>>> rec.next.label, str(rec.next), rec.next.right_prev, rec.next.facing
('Even', 'A=4, B=4', 1, <Direction.C: 2>)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from vectorwar.hexes import Direction
from vectorwar.vectors import Velocity

Label = Literal["Odd", "Even"]


def label(turn: int) -> Label:
    return "Odd" if turn % 2 else "Even"


@dataclass(frozen=True, slots=True)
class Graphic:
    """One vector graphic as written during a turn.

    ``vector`` is the left halves (the course), ``thrust`` the right halves
    (hexes of velocity change bought this turn). Of the four rotation boxes
    the outer ones, ``left_prev``/``right_prev``, hold the rotation speed the
    ship has at the start of the graphic's turn, and the inner ones,
    ``left_this``/``right_this``, the rotational thrust applied in it, both
    in hexsides/turn, right meaning clockwise. ``facing`` is the centre arrow.
    """

    label: Label
    vector: dict[Direction, int] = field(default_factory=dict)
    thrust: dict[Direction, int] = field(default_factory=dict)
    left_prev: int = 0
    left_this: int = 0
    right_this: int = 0
    right_prev: int = 0
    facing: Direction | None = None

    def __str__(self) -> str:
        return ", ".join(f"{d}={n}" for d, n in sorted(self.vector.items())) or "0"


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """The current graphic as completed this turn and the next graphic as prepared for the next."""

    turn: int
    current: Graphic
    next: Graphic


def _split(rate: int) -> tuple[int, int]:
    """A signed rate as (left, right) box values; one of them is always 0."""
    return (max(0, -rate), max(0, rate))


def record_turn(
    turn: int,
    velocity: Velocity,
    rotation: int,
    facing: Direction,
    thrust: dict[Direction, int],
    next_velocity: Velocity,
    next_rotation: int,
    next_facing: Direction,
) -> TurnRecord:
    """Fill in both graphics for one turn (the text's steps 2-5 and the facing arrow)."""
    left_prev, right_prev = _split(rotation)
    left_this, right_this = _split(next_rotation - rotation)
    current = Graphic(
        label(turn),
        velocity.components(),
        {d: n for d, n in sorted(thrust.items()) if n},
        left_prev=left_prev,
        left_this=left_this,
        right_this=right_this,
        right_prev=right_prev,
        facing=facing,
    )
    next_left, next_right = _split(next_rotation)
    upcoming = Graphic(
        label(turn + 1), next_velocity.components(), left_prev=next_left, right_prev=next_right, facing=next_facing
    )
    return TurnRecord(turn, current, upcoming)
