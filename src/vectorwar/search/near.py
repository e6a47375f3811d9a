"""Moves near each other: which legal moves of a ship end close to the one an order makes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from vectorwar.notation import entries, is_hold


def entry_map(text: str) -> dict[str, str]:
    """An order's entries by ship (lower-cased first word), each as written with its spaces collapsed.

    >>> entry_map("Hawk 3; kite L")
    {'hawk': 'Hawk 3', 'kite': 'kite L'}
    """
    found: dict[str, str] = {}
    for e in [] if is_hold(text) else entries(text):
        found.setdefault(e.split()[0].lower(), " ".join(e.split()))  # a ship named twice: its first entry
    return found


def chosen_move(text: str, ship: str, moves: Sequence[Any]) -> Any:
    """The move of ``moves`` that ``ship``'s entry in the order ``text`` makes, or ``None``."""
    mine = entry_map(text).get(ship.lower())
    if mine is None:
        return None
    return next((m for m in moves if " ".join(m.text.lower().split()) == mine.lower()), None)


def gap(a: Any, b: Any) -> int:
    """Hexes (and levels) between where two moves end."""
    return int(a.end.hex.distance(b.end.hex) + abs(a.end.altitude - b.end.altitude))


def near_moves(text: str, ship: str, moves: Sequence[Any]) -> list[Any]:
    """``ship``'s legal moves ending within a hex (or a level) of where its entry in ``text`` ends, itself left out."""
    chosen = chosen_move(text, ship, moves)
    if chosen is None:
        return []
    return [m for m in moves if m is not chosen and gap(m, chosen) <= 1]


def by_nearness(text: str, options: Mapping[str, Sequence[Any]]) -> list[tuple[str, Any]]:
    """Every ``(ship, move)`` of ``options`` but the one the order ``text`` makes, nearest its end first."""
    found: list[tuple[int, int, str, Any]] = []
    for ship, moves in sorted(options.items()):
        chosen = chosen_move(text, ship, moves)
        found.extend(
            (0 if chosen is None else gap(m, chosen), i, ship, m) for i, m in enumerate(moves) if m is not chosen
        )
    found.sort(key=lambda item: item[:2])
    return [(ship, move) for _, _, ship, move in found]
