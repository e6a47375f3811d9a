"""The fuel track and the Thrust Matrix: which row of the matrix a ship's fuel puts it on.

What the excerpt gives (A2.4 Thrust and Fuel Unit, A5.24, A5.282, A5.362,
the Rafik's fuel track caption):

* The fuel track is laid out in columns, one per hull space of fuel; the
  Rafik's reads "Generation 3.5 Fusion / 30 Spaces / 105 Units", with a
  visual gap every 10 units.
* Fuel is burned in rows, left to right, the whole top row before the
  second (A5.282, A5.362); a destroyed tank marks off whole columns, the
  left-most first.
* The Thrust Matrix gives the ship's current maximum thrust (the Rafik's
  first row is 5, A5.24; it has a second row the tutorial does not use).
  Each time the fuel units change shape (circles to squares, and sometimes
  back and forth) the ship is lighter and its maximum thrust higher: move
  down one row of the matrix.

What it does not give (docs/rulings/avt.md, *AV:T fuel track and thrust
matrix*): the Rafik's second row and where its shapes change, and how 105
units sit in 30 columns. Rows are as wide as the columns (30, 30, 30 and a
last row of 15 on the left, so columns hold 4 or 3 units, 3.5 a space on
average as the engine's generation says); a shape change is reached when
the last unit of the old shape is burned.

>>> track_rows(105, 30)
(30, 30, 30, 15)
>>> matrix_row(0, (40,)), matrix_row(40, (40,))
(0, 1)
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Literal

Shape = Literal["circle", "square"]


def track_rows(units: int, spaces: int) -> tuple[int, ...]:
    """The units in each row of the fuel track, top row first (rows as wide as the columns)."""
    if units < 0 or spaces < 1:
        raise ValueError(f"a fuel track needs units >= 0 and at least one column, got {units} in {spaces}")
    full, rest = divmod(units, spaces)
    return (spaces,) * full + ((rest,) if rest else ())


def unit_place(index: int, spaces: int) -> tuple[int, int]:
    """Row and column (from 0) of the ``index``-th unit burned (from 0): rows left to right, top first."""
    if index < 0 or spaces < 1:
        raise ValueError(f"no fuel unit {index} on a track of {spaces} columns")
    return divmod(index, spaces)


def column_units(column: int, units: int, spaces: int) -> int:
    """Units in one column (one hull space of fuel): what a destroyed tank takes off the track."""
    if not 0 <= column < spaces:
        raise ValueError(f"the track has columns 0-{spaces - 1}, got {column}")
    full, rest = divmod(units, spaces)
    return full + (1 if column < rest else 0)


def matrix_row(burned: int, shapes: Sequence[int]) -> int:
    """The Thrust Matrix row (from 0) once ``burned`` units are spent.

    ``shapes`` lists, in order, how many units have been burned when each
    change of shape is reached (the last unit of the old shape is gone).
    """
    if burned < 0:
        raise ValueError(f"fuel burned is never negative, got {burned}")
    return bisect_right(shapes, burned)


def shape(index: int, shapes: Sequence[int]) -> Shape:
    """The shape of the ``index``-th unit burned: circles first, changing at each entry of ``shapes``."""
    return "circle" if matrix_row(index, shapes) % 2 == 0 else "square"


def max_thrust(matrix: Sequence[int], shapes: Sequence[int], burned: int) -> int:
    """The ship's maximum thrust with ``burned`` units of its track spent."""
    return matrix[min(matrix_row(burned, shapes), len(matrix) - 1)]
