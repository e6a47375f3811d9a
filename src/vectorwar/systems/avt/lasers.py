"""Laser weapon tables: damage by range bracket and d10 roll (A2.2, A5.166).

The tutorial prints the 3 MRLS table (the 3-space medium range laser). An
entry ``Dn`` is a damage type the excerpt does not explain (its laser rules,
E2.x, are not included); it scores no damage here until they are (docs/rulings.md,
*AV:T laser D entries*).

>>> damage("3 MRLS", 10, 6)   # the text's example: range 10, roll 6
7
>>> damage("3 MRLS", 14, 1), max_range("3 MRLS")
(0, 30)
"""

from __future__ import annotations

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


def entry(weapon: str, range_: int, roll: int) -> str:
    """The table entry for ``range_`` and a d10 ``roll``; raises ``ValueError`` out of range."""
    brackets, rows = _table(weapon)
    if not 1 <= roll <= 10:
        raise ValueError(f"a d10 roll is 1-10, got {roll}")
    for column, (low, high) in enumerate(brackets):
        if low <= range_ <= high:
            return rows[roll - 1][column]
    raise ValueError(f"range {range_} is beyond the {weapon} table (0-{max_range(weapon)})")


def damage(weapon: str, range_: int, roll: int) -> int:
    """Damage points scored; ``Dn`` entries score none (see the module notes)."""
    text = entry(weapon, range_, roll)
    return 0 if text.startswith("D") else int(text)
