"""Laser weapon tables: damage by range bracket and d10 roll (A2.2, A5.166).

The tutorial prints the 3 MRLS table (the 3-space medium range laser). An
entry ``Dn`` is not explained in the excerpt (its laser rules are left out).
The table's shape says what it must be: ``D`` entries sit where the beam is
weakest (low rolls at long range), always beside a 1 or 2 or worse, and their
number falls as the shot gets worse (D7 next to real damage, D1 at the far
corner). vectorwar reads ``Dn`` as a chance of a single point: a second d10
of ``n`` or less scores 1, otherwise nothing (option ``laser_d_entries``,
``chance``; ``none`` scores nothing; docs/rulings/avt.md, *AV:T laser D entries*).

>>> damage("3 MRLS", 10, 6)   # the text's example: range 10, roll 6
7
>>> damage("3 MRLS", 14, 1, "chance", 5), damage("3 MRLS", 14, 1, "chance", 6), damage("3 MRLS", 14, 1, "none")
(1, 0, 0)
>>> max_range("3 MRLS")
30
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Literal

#: What a ``Dn`` entry scores: ``chance`` (1 point on a second d10 of n or less) or ``none``.
DMode = Literal["chance", "none"]

# Brackets are (first range, last range); rows are d10 rolls 1-10.
TABLES: dict[str, tuple[tuple[tuple[int, int], ...], tuple[tuple[str, ...], ...]]] = {
    "3 MRLS": (
        ((0, 10), (11, 13), (14, 15), (16, 17), (18, 22), (23, 30)),
        (
            ("5", "D7", "D5", "D5", "D3", "D1"),
            ("6", "2", "D7", "D7", "D5", "D3"),
            ("6", "3", "1", "1", "D7", "D5"),
            ("7", "4", "2", "1", "1", "D7"),
            ("7", "4", "3", "2", "1", "1"),
            ("7", "5", "3", "2", "2", "1"),
            ("7", "5", "4", "3", "2", "1"),
            ("7", "6", "4", "3", "2", "1"),
            ("7", "6", "4", "3", "2", "1"),
            ("7", "6", "4", "3", "2", "1"),
        ),
    ),
}


def _table(weapon: str) -> tuple[tuple[tuple[int, int], ...], tuple[tuple[str, ...], ...]]:
    if weapon not in TABLES:
        raise KeyError(f"no weapon table for {weapon!r} (known: {', '.join(TABLES)})")
    return TABLES[weapon]


def max_range(weapon: str) -> int:
    return _table(weapon)[0][-1][1]


def column_of(weapon: str, range_: int) -> tuple[int, str]:
    """The table column (1 for the first) and its range bracket (``"0-10"``) for ``range_``.

    >>> column_of("3 MRLS", 10), column_of("3 MRLS", 11)
    ((1, '0-10'), (2, '11-13'))
    """
    brackets, _ = _table(weapon)
    for column, (low, high) in enumerate(brackets, start=1):
        if low <= range_ <= high:
            return column, f"{low}-{high}"
    raise ValueError(f"range {range_} is beyond the {weapon} table (0-{max_range(weapon)})")


def column_entry(weapon: str, column: int, roll: int) -> str:
    """The entry in ``column`` (1 for the first) for a d10 ``roll``."""
    _, rows = _table(weapon)
    if not 1 <= roll <= 10:
        raise ValueError(f"a d10 roll is 1-10, got {roll}")
    return rows[roll - 1][column - 1]


def entry(weapon: str, range_: int, roll: int) -> str:
    """The table entry for ``range_`` and a d10 ``roll``; raises ``ValueError`` out of range."""
    return column_entry(weapon, column_of(weapon, range_)[0], roll)


@cache
def column_odds(weapon: str, column: int, mode: DMode) -> tuple[Fraction, Fraction, int]:
    """For one column: the chance to score at least 1, the average score, and the most it can score.

    >>> column_odds("3 MRLS", 1, "chance")
    (Fraction(1, 1), Fraction(33, 5), 7)
    """
    scoring = Fraction(0)
    average = Fraction(0)
    most = 0
    for roll in range(1, 11):
        text = column_entry(weapon, column, roll)
        if text.startswith("D"):
            p = Fraction(int(text[1:]), 10) if mode == "chance" else Fraction(0)
            scoring += p / 10
            average += p / 10
            most = max(most, 1 if mode == "chance" else 0)
        else:
            scoring += Fraction(1 if int(text) > 0 else 0, 10)
            average += Fraction(int(text), 10)
            most = max(most, int(text))
    return scoring, average, most


def damage(weapon: str, range_: int, roll: int, mode: DMode = "chance", second: int | None = None) -> int:
    """Damage points scored; a ``Dn`` entry scores 1 if ``second`` (a d10) is ``n`` or less (module notes)."""
    text = entry(weapon, range_, roll)
    if not text.startswith("D"):
        return int(text)
    return 1 if mode == "chance" and second is not None and second <= int(text[1:]) else 0
