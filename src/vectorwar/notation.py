"""Pieces of order notation the rule systems share.

Orders for a side are written as entries separated by ``;`` or new lines,
each starting with a ship's name: ``Hawk F>Raven FL>Raven; Kite FR>Raven``.
``hold`` (or ``pass``, ``-``) declares nothing.

>>> entries("Hawk 2L1;\\n Kite 3")
['Hawk 2L1', 'Kite 3']
>>> grouped([("Hawk", "F>Raven"), ("Hawk", "FL>Raven"), ("Kite", "F>Raven")])
'Hawk F>Raven FL>Raven; Kite F>Raven'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from vectorwar.errors import OrderSyntaxError

HOLD_WORDS = ("hold", "pass", "-")


def entries(text: str) -> list[str]:
    """The non-empty entries of an order, split at ``;`` and new lines."""
    return [e.strip() for e in re.split(r"[;\n]", text) if e.strip()]


def is_hold(text: str) -> bool:
    return text.strip().lower() in HOLD_WORDS


def ship_pieces(text: str, ship_of: Callable[[str, str], str], usage: str) -> Iterator[tuple[str, str]]:
    """``(ship, piece)`` for each piece after a ship's name in ``SHIP PIECE PIECE; SHIP PIECE``.

    ``ship_of(name, entry)`` gives the ship's real id or raises the system's
    own error; an entry with no piece is refused with ``usage``.
    """
    for entry in entries(text):
        parts = entry.split()
        ship = ship_of(parts[0], entry)
        if len(parts) < 2:
            raise OrderSyntaxError(text, f"{entry!r}: {usage}")
        for piece in parts[1:]:
            yield ship, piece


def grouped(pieces: Iterable[tuple[str, str]]) -> str:
    """The inverse of :func:`ship_pieces`: consecutive pieces of one ship share its entry."""
    groups: list[str] = []
    last = ""
    for ship, piece in pieces:
        if groups and ship == last:
            groups[-1] += f" {piece}"
        else:
            groups.append(f"{ship} {piece}")
        last = ship
    return "; ".join(groups)
