"""MSC order notation: movement plots (MSC 6.0) and fire declarations (MSC 7.0).

A ship's move is written as the text writes it: ``2L1`` is two hexes
forward, one hexside left, one hex forward. A plain ``0`` is no movement.
A side's plot lists every ship: ``Hawk 2L1; Kite 3``.

A fire declaration lists shots, ``SHIP SIDE>TARGET``, several per ship
allowed: ``Hawk F>Raven FL>Raven; Kite F>Raven``. ``hold`` fires nothing.

>>> m = Move.parse("2L1")
>>> m.steps, m.speed, str(m)
(('F', 'F', 'L', 'F'), 4, '2L1')
>>> str(Move.parse("R02"))
'R2'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from vectorwar.errors import OrderLimitError, OrderSyntaxError
from vectorwar.limits import MAX_MOVE_STEPS, cite, read_number
from vectorwar.notation import entries, grouped, is_hold, ship_pieces
from vectorwar.systems.msc.arcs import Side

_MOVE = re.compile(r"^[0-9LRlr]+$")
_TOKEN = re.compile(r"\d+|[LRlr]")
_SHOT = re.compile(r"^([A-Za-z][A-Za-z0-9]*)\s*>\s*([A-Za-z][A-Za-z0-9_-]*)$")


@dataclass(frozen=True, slots=True)
class Move:
    """One ship's movement for a turn: a sequence of F (forward), L and R."""

    steps: tuple[str, ...]

    @property
    def speed(self) -> int:
        """Every step costs 1 SPEED, so the plot's length is the SPEED it uses."""
        return len(self.steps)

    @classmethod
    def parse(cls, text: str) -> Move:
        t = text.strip()
        if not _MOVE.match(t):
            raise OrderSyntaxError(text, "a move is digits (hexes forward) and L/R (turns), like 2L1, or 0")
        tokens = _TOKEN.findall(t)
        # Count before expanding: a move is a list of steps, so a large number must never reach extend().
        length = 0
        for token in tokens:
            length += read_number(token, "the move's steps", MAX_MOVE_STEPS, text) if token.isdigit() else 1
            if length > MAX_MOVE_STEPS:
                raise OrderLimitError(text, "the move's steps", str(length), MAX_MOVE_STEPS, cite(MAX_MOVE_STEPS))
        steps: list[str] = []
        for token in tokens:
            if token.isdigit():
                steps.extend("F" * int(token))
            else:
                steps.append(token.upper())
        return cls(tuple(steps))

    def __str__(self) -> str:
        return _move_text(self.steps)


@lru_cache(maxsize=4096)  # written for every move plotted (the record, the log, the history): few distinct moves
def _move_text(steps: tuple[str, ...]) -> str:
    out: list[str] = []
    run = 0
    for step in steps:
        if step == "F":
            run += 1
            continue
        if run:
            out.append(str(run))
            run = 0
        out.append(step)
    if run:
        out.append(str(run))
    return "".join(out) or "0"


@dataclass(frozen=True, slots=True)
class Plot:
    """A side's movement orders: one move per ship, in the side's ship order."""

    moves: tuple[tuple[str, Move], ...]

    def __str__(self) -> str:
        return "; ".join(f"{ship} {move}" for ship, move in self.moves)

    def move_for(self, ship: str) -> Move | None:
        return next((m for s, m in self.moves if s == ship), None)


@dataclass(frozen=True, slots=True)
class Shot:
    ship: str
    weapon: Side
    target: str


@dataclass(frozen=True, slots=True)
class FireOrders:
    """A side's fire declaration for its combat phase, resolved in this order."""

    shots: tuple[Shot, ...]

    def __str__(self) -> str:
        return grouped((shot.ship, f"{shot.weapon.value}>{shot.target}") for shot in self.shots) or "hold"


def parse_plot(text: str, ships: dict[str, str]) -> Plot:
    """Read a side's plot. ``ships`` maps lower-cased ids to the real ids."""
    moves: list[tuple[str, Move]] = []
    for entry in entries(text):
        parts = entry.split()
        if len(parts) != 2:
            raise OrderSyntaxError(text, f"{entry!r}: each entry is SHIP MOVE, like 'Hawk 2L1'")
        name, move = parts
        ship = ships.get(name.lower())
        if ship is None:
            raise OrderSyntaxError(
                text, f"{entry!r}: no ship of yours called {name!r} (yours: {', '.join(ships.values())})"
            )
        moves.append((ship, Move.parse(move)))
    if not moves:
        raise OrderSyntaxError(text, "a plot lists each ship's move, like 'Hawk 2L1; Kite 3'")
    return Plot(tuple(moves))


def parse_fire(text: str, own: dict[str, str], targets: dict[str, str]) -> FireOrders:
    """Read a fire declaration; ``own``/``targets`` map lower-cased ids to ids."""
    if is_hold(text):
        return FireOrders(())

    def ship_of(name: str, entry: str) -> str:
        ship = own.get(name.lower())
        if ship is None:
            raise OrderSyntaxError(text, f"{entry!r}: no ship of yours called {name!r}")
        return ship

    shots: list[Shot] = []
    for ship, piece in ship_pieces(text, ship_of, "give SIDE>TARGET after the ship, like 'Hawk F>Raven'"):
        m = _SHOT.match(piece)
        if not m:
            raise OrderSyntaxError(text, f"{piece!r}: a shot is SIDE>TARGET, like F>Raven")
        side_name, target_name = m.group(1).upper(), m.group(2)
        if side_name not in Side.__members__:
            raise OrderSyntaxError(text, f"{piece!r}: {side_name!r} is not a side (F, FL, FR, RL, RR, R)")
        target = targets.get(target_name.lower(), target_name)
        shots.append(Shot(ship, Side(side_name), target))
    if not shots:  # blank text: an accidental Enter must not throw away the combat phase
        raise OrderSyntaxError(text, "give shots like 'Hawk F>Raven', or 'hold' to fire nothing")
    return FireOrders(tuple(shots))
