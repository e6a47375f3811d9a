"""The movement grid: which hexes a ship's vectors move it on each segment.

A vector of ``n`` hexes per turn is spread over the turn's eight segments so
that after segment ``s`` the ship has covered ``floor(n * s / 8)`` hexes: it
is never ahead of where steady motion would put it, and it catches up on the
segment where it falls a whole hex behind (A2.1: 7 hexes a turn moves on
segments 2-8; 12 moves 1, 2, 1, 2, ...).

A vector of 8 or more moves one hex every segment for each full 8, and only
what is left over (the *remainder*) needs a pattern (A5.2851).

Two horizontal remainders (the *split*, larger first, "4|2") are one straight
line across the hexes: its ``major + minor`` steps are timed like a single
vector, and a step belongs to the minor direction whenever the minor
direction's share, ``floor(minor * k / n)``, ticks over. The player copies
the play aid's dots into the grid "turning each dot into a 1" (A5.285), so a
column moves at most one remainder hex a segment: where the line would give
the major two (7|4 on segment 6), its second hex trades places with the
minor hex of the nearest segment where the major has none.

The vertical remainder is looked up against the *sum* of the horizontal
remainders (A5.365: 4|2|1 reads the 6|1 vertical grid). The climb is laid on
the same straight line: with ``n = horizontal + vertical`` steps in all, the
``j``-th climb sits at the middle of its share of the line, step
``ceil(n * (2j - 1) / (2 * vertical))``, and moves on the segment that step
falls in, or, if another climb is already there, on the nearest segment
without one. Everything here is exact integer arithmetic.

See ``docs/rules/avt.md`` and ``docs/rulings/avt.md``, *AV:T remainder grids*.

>>> spread(7)
(0, 1, 1, 1, 1, 1, 1, 1)
>>> spread(12)
(1, 2, 1, 2, 1, 2, 1, 2)
>>> split_pattern(4, 2)
((0, 0), (1, 0), (1, 0), (0, 1), (0, 0), (1, 0), (1, 0), (0, 1))
>>> vertical_pattern(9, 1)
(0, 0, 0, 1, 0, 0, 0, 0)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import NamedTuple

from vectorwar.limits import MAX_VELOCITY_TERM
from vectorwar.roster import slot_stores
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.vectors import Velocity

SEGMENTS = 8


def _cumulative(n: int, s: int) -> int:
    return (n * s) // SEGMENTS


def spread(hexes: int) -> tuple[int, ...]:
    """Hexes moved on each of the 8 segments by a vector of ``hexes`` per turn."""
    if hexes < 0:
        raise ValueError(f"a vector's size is never negative, got {hexes}")
    return tuple(_cumulative(hexes, s) - _cumulative(hexes, s - 1) for s in range(1, SEGMENTS + 1))


def _segment_of_step(n: int, k: int) -> int:
    """The segment (1-8) on which step ``k`` (1-based) of an ``n``-step line is taken."""
    return -(-SEGMENTS * k // n)


@lru_cache(maxsize=64)  # remainders 0-7 each way: 8 x 8 splits
def split_pattern(major: int, minor: int) -> tuple[tuple[int, int], ...]:
    """Per segment, the (major, minor) hexes of a horizontal remainder split.

    ``major`` and ``minor`` are the two remainders (each 0-7); the larger one
    is the major. The 6|3 split of the first sample game moves A, A, B, A,
    A, B, A, then A and B together:

    >>> split_pattern(6, 3)
    ((1, 0), (1, 0), (0, 1), (1, 0), (1, 0), (0, 1), (1, 0), (1, 1))
    """
    if not 0 <= minor <= major:
        raise ValueError(f"a split is written larger|smaller, got {major}|{minor}")
    n = major + minor
    rows = [[0, 0] for _ in range(SEGMENTS)]
    for k in range(1, n + 1):
        is_minor = (minor * k) // n > (minor * (k - 1)) // n
        rows[_segment_of_step(n, k) - 1][1 if is_minor else 0] += 1
    # A dot of the printed grid is one hex, so the major column never moves twice in a segment
    # (7|4 would put two A on segment 6 and none on 7): its second hex trades places with the
    # minor hex of the nearest segment where the major has none. The line's hexes per segment stay.
    for s in range(SEGMENTS):
        if rows[s][0] > 1:
            t = _nearest(s, lambda i: rows[i] == [0, 1])
            rows[s], rows[t] = [1, 1], [1, 0]
    return tuple([(a, b) for a, b in rows])


def _nearest(segment: int, free: Callable[[int], bool]) -> int:
    """The index nearest ``segment`` (0-7) where ``free`` holds, the later one on a tie."""
    for distance in range(1, SEGMENTS):
        for i in (segment + distance, segment - distance):
            if 0 <= i < SEGMENTS and free(i):
                return i
    raise ValueError(f"no free segment near segment {segment + 1}")


@lru_cache(maxsize=512)  # remainders: horizontal 0-14 against vertical 0-7
def vertical_pattern(horizontal: int, vertical: int) -> tuple[int, ...]:
    """Per segment, the levels climbed (or dived) by a vertical remainder.

    ``horizontal`` is the sum of the horizontal remainders, as the text adds
    them up to enter the vertical remainder grid. With nothing horizontal the
    vertical vector is timed like any single vector:

    >>> vertical_pattern(0, 7) == spread(7)
    True
    >>> vertical_pattern(6, 1)
    (0, 0, 0, 0, 1, 0, 0, 0)
    """
    if horizontal < 0 or vertical < 0:
        raise ValueError(f"remainders are never negative, got {horizontal}|{vertical}")
    n = horizontal + vertical
    rows = [0] * SEGMENTS
    for j in range(1, vertical + 1):
        k = -(-n * (2 * j - 1) // (2 * vertical))
        segment = _segment_of_step(n, k) - 1
        if rows[segment]:
            # One dot, one level: a second climb on a segment moves to the nearest one without.
            segment = _nearest(segment, lambda i: not rows[i])
        rows[segment] += 1
    return tuple(rows)


class Column(NamedTuple):
    """One column of the movement grid: an arrow and its hexes per turn (a named pair: a grid builds three)."""

    arrow: Arrow
    per_turn: int

    def __str__(self) -> str:
        return f"{self.arrow}={self.per_turn}"


@dataclass(frozen=True, slots=True)
class MovementGrid:
    """A ship's movement grid: the yellow (larger horizontal), tan (smaller
    horizontal) and pink (vertical) columns, and the hexes each moves on
    each segment.

    >>> grid = MovementGrid.of(Velocity.parse("A=6, B=3, up=1"))
    >>> [grid.moves(s) for s in range(1, 9)]
    ['A', 'A', 'B', 'A up', 'A', 'B', 'A', 'A B']
    """

    yellow: Column | None
    tan: Column | None
    pink: Column | None
    rows: tuple[tuple[int, int, int], ...]

    @classmethod
    def of(cls, velocity: Velocity) -> MovementGrid:
        """The grid for a consolidated velocity (A5.284-A5.285, A5.365)."""
        return _grid(velocity.dq, velocity.dr, velocity.dz)

    def counts(self, segment: int) -> dict[Arrow, int]:
        """Hexes along each arrow on ``segment`` (1-8)."""
        if not 1 <= segment <= SEGMENTS:
            raise ValueError(f"segments run 1-{SEGMENTS}, got {segment}")
        row = self.rows[segment - 1]
        out: dict[Arrow, int] = {}
        for column, n in zip((self.yellow, self.tan, self.pink), row, strict=True):
            if column is not None and n:
                out[column.arrow] = n
        return out

    def steps(self, segment: int) -> tuple[Arrow, ...]:
        """The segment's hexes as unit steps, interleaved to keep to a straight line."""
        return line_order(self.counts(segment))

    def moves(self, segment: int) -> str:
        """The segment's row as a player reads it: ``'A up'``, ``'-'`` for no move."""
        return " ".join(str(a) for a in self.steps(segment)) or "-"

    def __str__(self) -> str:
        heads = [str(c) if c else "-" for c in (self.yellow, self.tan, self.pink)]
        lines = ["seg  " + "  ".join(f"{h:>6}" for h in heads)]
        for s, row in enumerate(self.rows, 1):
            lines.append(f"{s:>3}  " + "  ".join(f"{n or '':>6}" for n in row))
        return "\n".join(lines)


# The arrows as plain names: an enum member read through its class costs a descriptor call each time.
_A, _B, _C, _D, _E, _F, _UP, _DOWN = Arrow


def _grid(dq: int, dr: int, dz: int) -> MovementGrid:
    """The movement grid of the velocity ``(dq, dr, dz)``, worked out from the rule in whole numbers.

    The columns are the velocity's two adjacent map directions (the larger
    first; of two equal vectors the anticlockwise one, A of A|B, F of F|A,
    leads) and its vertical part (A5.284); the rows are each column's full
    eights plus the remainder grid's dots (A5.285, A5.365).
    """
    # The pair of adjacent map directions that holds (dq, dr), each with its hexes, worked out in cube terms
    # (s = -q - r): the first pair clockwise from A|B that holds it, so a pure direction is named by the pair
    # it leads. Written out here rather than called: this is the whole of a new grid's arithmetic.
    s = -dq - dr
    if dq >= 0 and s >= 0:
        first, a, second, b = _A, s, _B, dq
    elif dr <= 0 and s <= 0:
        first, a, second, b = _B, -dr, _C, -s
    elif dq >= 0 and dr >= 0:
        first, a, second, b = _C, dq, _D, dr
    elif dq <= 0 and s <= 0:
        first, a, second, b = _D, -s, _E, -dq
    elif dr >= 0 and s >= 0:
        first, a, second, b = _E, dr, _F, s
    else:
        first, a, second, b = _F, -dq, _A, -dr
    if b > a:
        first, a, second, b = second, b, first, a
    up = dz if dz >= 0 else -dz
    if (a | b | up) >= SEGMENTS:  # some column has a full eight: one or-ed test for the three
        big, small, climb = a >> 3, b >> 3, up >> 3  # >> 3 is // SEGMENTS for a count, never negative
        kinds, order = _remainder_kinds(a & 7, b & 7, up & 7)  # & 7 is % SEGMENTS, as >> 3 is // above
        # Each distinct remainder row is shifted once and shared by the segments that hold it: a grid builds
        # two to four rows, not eight.
        shifted = [(big + x, small + y, climb + z) for x, y, z in kinds]
        rows = tuple(map(shifted.__getitem__, order))
    else:
        rows = _remainder_rows(a, b, up)
    # Built slot by slot: a frozen dataclass's __init__ stores each field through object.__setattr__ by name.
    grid: MovementGrid = _new_object(MovementGrid)
    _set_yellow(grid, _new_tuple(Column, (first, a)) if a else None)
    _set_tan(grid, _new_tuple(Column, (second, b)) if b else None)
    _set_pink(grid, (_new_tuple(Column, (_UP, up)) if dz > 0 else _new_tuple(Column, (_DOWN, up))) if dz else None)
    _set_rows(grid, rows)
    return grid


#: :class:`MovementGrid`'s slots' setters (``roster.slot_stores``), and the constructors the grid above calls without
#: a Python frame (a :class:`Column` is its pair, as its generated ``__new__`` makes it).
_set_yellow, _set_tan, _set_pink, _set_rows = slot_stores(MovementGrid)
_new_object: Callable[[type[MovementGrid]], MovementGrid] = object.__new__
_new_tuple: Callable[[type[Column], tuple[Arrow, int]], Column] = tuple.__new__


@lru_cache(maxsize=SEGMENTS**3)  # the printed remainder grids: 0-7 in each of the three columns
def _remainder_rows(big: int, small: int, up: int) -> tuple[tuple[int, int, int], ...]:
    """Per segment, the remainder dots of the yellow, tan and pink columns."""
    # A split is written larger|smaller; the columns keep their own places.
    swapped = small > big
    pattern = split_pattern(small, big) if swapped else split_pattern(big, small)
    if swapped:
        pattern = tuple([(x, y) for y, x in pattern])
    climb = vertical_pattern(big + small, up)
    return tuple([(x, y, z) for (x, y), z in zip(pattern, climb, strict=True)])


@lru_cache(maxsize=SEGMENTS**3)
def _remainder_kinds(big: int, small: int, up: int) -> tuple[tuple[tuple[int, int, int], ...], tuple[int, ...]]:
    """The remainder grid's distinct rows, and which of them each segment holds."""
    rows = _remainder_rows(big, small, up)
    kinds = tuple(dict.fromkeys(rows))
    return kinds, tuple([kinds.index(row) for row in rows])


#: Each arrow's place among the eight counts :func:`_grid_of_text` sums (its value: A-F 0-5, up 6, down 7), by
#: the arrow's name as a vector's text may spell it (any case: ``a``, ``A``; ``up``, ``UP``, ``Up``, ...), alone
#: or after the one space a term's name most often has before it (``"A=6, B=3"``): the usual term needs no strip.
_TERM_PLACE: dict[str, int] = {
    lead + "".join(spelling): arrow.value
    for arrow in Arrow
    for spelling in product(*((c.lower(), c.upper()) for c in str(arrow)))
    for lead in ("", " ")
}
#: Digits of a count the quick reader takes itself; longer ones go to ``Velocity.parse`` and its limit.
_TERM_DIGITS = len(str(MAX_VELOCITY_TERM)) - 1


def _grid_of_text(text: str) -> MovementGrid:
    """The grid of a vector's text summed to ``(dq, dr, dz)``, exactly as :meth:`Velocity.parse` reads it.

    Plain terms (``ARROW=COUNT`` with spaces anywhere around the two, a count
    of ASCII digits shorter than the limit's) are read here; anything else
    (``0``, a bad term, a long count) is handed to ``Velocity.parse``, which
    reads it or raises the error it names.
    """
    counts = [0] * 8
    ascii_only = text.isascii()  # asked once of the whole text, not of each count
    for term in text.split(","):
        name, _, digits = term.partition("=")
        place = _TERM_PLACE.get(name)
        if place is None:
            place = _TERM_PLACE.get(name.strip())
            if place is None:
                break
        # A plain count (ASCII digits only, shorter than the limit's) needs no strip; else strip and look again.
        if not (ascii_only and digits.isdecimal() and len(digits) <= _TERM_DIGITS):
            digits = digits.strip()
            if not (digits.isdecimal() and digits.isascii() and len(digits) <= _TERM_DIGITS):
                break
        counts[place] += int(digits)
    else:
        # Each arrow's own (dq, dr, dz) once for the whole sum: A (0, -1), B (1, -1), C (1, 0), D (0, 1),
        # E (-1, 1), F (-1, 0), up and down (0, 0, +-1).
        a, b, c, d, e, f, up, down = counts
        return _grid(b + c - e - f, d + e - a - b, up - down)
    velocity = Velocity.parse(text)
    return _grid(velocity.dq, velocity.dr, velocity.dz)


#: Far more distinct velocities than any game meets; each entry is a few hundred bytes.
_TABLE_SIZE = 65536


@lru_cache(maxsize=_TABLE_SIZE)
def grid_of(velocity: Velocity) -> MovementGrid:
    """The movement grid of ``velocity``, remembered: a game meets the same few velocities again and again.

    Grids are frozen, so every caller may share one.

    >>> grid_of(Velocity.parse("A=6, B=3, up=1")) is grid_of(Velocity.parse("up=1, B=3, A=6"))
    True
    """
    return MovementGrid.of(velocity)


@lru_cache(maxsize=_TABLE_SIZE)
def grid_from_text(text: str) -> MovementGrid:
    """The movement grid of a vector written as text (``"A=6, B=3, up=1"``; any arrows, summed).

    Vectors on several arrows consolidate in the sum, as
    :meth:`~vectorwar.vectors.Velocity.parse` adds them; a bad text raises
    as ``Velocity.parse`` does and is not remembered. The grid is worked out
    from the text directly, and remembered by its text.

    >>> str(grid_from_text("A=4, C=2").yellow), [grid_from_text("A=4, C=2").moves(s) for s in (2, 4)]
    ('A=2', ['A', 'B'])
    """
    return _grid_of_text(text)


def line_order(counts: dict[Arrow, int]) -> tuple[Arrow, ...]:
    """Unit steps along several arrows, interleaved as evenly as a straight line.

    Each step goes to the arrow furthest behind its share; ties go to the
    arrow with more steps, then to the order given.

    >>> [str(a) for a in line_order({Arrow.A: 2, Arrow.B: 1, Arrow.UP: 1})]
    ['A', 'B', 'up', 'A']
    """
    total = sum(counts.values())
    done = dict.fromkeys(counts, 0)
    out: list[Arrow] = []
    order = list(counts)
    for step in range(1, total + 1):
        # Behind-ness compared exactly: want_a/total - done_a, scaled by total.
        best = max(
            (a for a in order if done[a] < counts[a]),
            key=lambda a: (counts[a] * step - done[a] * total, counts[a], -order.index(a)),
        )
        done[best] += 1
        out.append(best)
    return tuple(out)
