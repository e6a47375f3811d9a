"""Hex maps drawn as text, for tests that show geometry as pictures.

A picture is staggered like the flat-topped map: text line ``2*row`` holds the
even columns of that row, line ``2*row + 1`` the odd columns (half a hex
lower), each hex one character at text column ``2*col``. ``.`` is an empty hex;
any other character marks the hex.

    line 0:  a   .   c        (row 0: columns 0, 2, 4 at text columns 0, 4, 8)
    line 1:    b   .   d      (row 0: columns 1, 3, 5 at text columns 2, 6, 10)
"""

from __future__ import annotations

from collections.abc import Callable

from vectorwar.hexes import Hex


def parse_picture(picture: str) -> dict[Hex, str]:
    """Marked hexes of a picture (blank lines at the ends are ignored)."""
    lines = picture.strip("\n").splitlines()
    marks: dict[Hex, str] = {}
    for number, line in enumerate(lines):
        row, odd = divmod(number, 2)
        for x, char in enumerate(line):
            if char in " .":
                continue
            col, rest = divmod(x, 2)
            if rest or col % 2 != odd:
                raise ValueError(f"line {number}: {char!r} at text column {x} is between hexes")
            marks[Hex.from_offset(col, row)] = char
    return marks


def draw_picture(cols: int, rows: int, mark: Callable[[Hex], str]) -> str:
    """The picture of a ``cols x rows`` map; ``mark`` gives each hex's character."""
    lines = []
    for row in range(rows):
        for odd in (0, 1):
            chars = [" "] * (2 * cols)
            for col in range(odd, cols, 2):
                chars[2 * col] = mark(Hex.from_offset(col, row))
            lines.append("".join(chars).rstrip())
    return "\n".join(lines)
