"""MSC movement (MSC 6.0): SPEED, acceleration, and executing a move.

>>> from vectorwar.hexes import Hex, Direction
>>> path, facing = trace(Hex.parse("5,5"), Direction.A, Move.parse("2L1"))
>>> [str(h) for h in path], str(facing)
(['5,5', '5,4', '5,3', '4,3'], 'F')
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import pairwise

from vectorwar.errors import IllegalOrderError
from vectorwar.hexes import Direction, Hex
from vectorwar.systems.msc.orders import Move
from vectorwar.systems.msc.state import Ship

RULE_SPEED = "MSC 6.0 SPEED / Acceleration and Deceleration"
RULE_MOVE = "MSC 6.0 Moving a Ship"


def allowed_speeds(ship: Ship) -> range:
    """SPEEDs the ship may plot: within 1 of last turn's and never above ENGINE.

    When damage has cut ENGINE below SPEED - 1 the ENGINE cap wins and the
    ship drops straight to its ENGINE (docs/rulings/msc.md, *Engine damage below current SPEED*).
    """
    top = min(ship.engine, ship.speed + 1)
    bottom = max(0, min(ship.speed - 1, ship.engine))
    return range(bottom, top + 1)


@cache
def sequences(speed: int) -> tuple[tuple[str, ...], ...]:
    """Every step sequence of ``speed`` steps with no two turns in a row."""
    if speed == 0:
        return ((),)
    out: list[tuple[str, ...]] = []

    def extend(prefix: tuple[str, ...]) -> None:
        if len(prefix) == speed:
            out.append(prefix)
            return
        extend((*prefix, "F"))
        if not prefix or prefix[-1] == "F":
            extend((*prefix, "L"))
            extend((*prefix, "R"))

    extend(())
    return tuple(out)


def trace(start: Hex, facing: Direction, move: Move) -> tuple[list[Hex], Direction]:
    """Hexes entered (starting hex first) and the final facing."""
    path = [start]
    here = start
    for step in move.steps:
        if step == "F":
            here = here.neighbour(facing)
            path.append(here)
        elif step == "L":
            facing = facing.turned(-1)
        else:
            facing = facing.turned(1)
    return path, facing


@cache
def outcomes(speed: int, facing: Direction) -> tuple[tuple[Move, tuple[int, int], Direction], ...]:
    """For bots: each distinct (end offset, end facing) a move of ``speed`` reaches.

    The first move (in :func:`sequences` order) reaching each end is kept.
    """
    seen: dict[tuple[tuple[int, int], Direction], Move] = {}
    origin = Hex(0, 0)
    for steps in sequences(speed):
        move = Move(steps)
        path, end_facing = trace(origin, facing, move)
        key = (path[-1].minus(origin), end_facing)
        seen.setdefault(key, move)
    return tuple((m, off, f) for (off, f), m in seen.items())


def check_move(ship: Ship, move: Move, strict_turn_spacing: bool) -> None:
    """Raise :class:`IllegalOrderError` if ``move`` breaks a movement rule."""
    # The order's words are written out only for a refusal: every ship's plot is checked each turn. A move
    # whose SPEED, turns and start raise nothing is passed by three tests (allowed_speeds, without its range).
    steps = move.steps
    speed = len(steps)
    engine, last = ship.engine, ship.speed
    if (
        max(0, min(last - 1, engine)) <= speed <= min(engine, last + 1)
        and not _turns_twice(steps)
        and not (strict_turn_spacing and steps[:1] in (("L",), ("R",)) and ship.ended_last_move_turning)
    ):
        return
    speeds = allowed_speeds(ship)
    if move.speed not in speeds:
        if move.speed > ship.engine:
            why = f"SPEED {move.speed} is above ENGINE {ship.engine}"
        else:
            why = f"SPEED may change by 1 a turn: last turn {ship.speed}, so {speeds.start}-{speeds.stop - 1}"
        raise IllegalOrderError(
            f"{ship.id} {move}",
            f"{why} (every step, forward or turn, costs 1 SPEED and all SPEED must be used)",
            RULE_SPEED,
        )
    if _turns_twice(move.steps):
        raise IllegalOrderError(
            f"{ship.id} {move}", "ships may not turn twice in a row; move a hex forward between turns", RULE_MOVE
        )
    if strict_turn_spacing and move.steps[:1] in (("L",), ("R",)) and ship.ended_last_move_turning:
        raise IllegalOrderError(
            f"{ship.id} {move}",
            "last turn's move ended with a turn, so this one must start by moving forward "
            "(house rule strict_turn_spacing)",
            RULE_MOVE,
        )


@lru_cache(maxsize=4096)  # every ship's plot is checked each turn, and a game plots few distinct moves
def _turns_twice(steps: tuple[str, ...]) -> bool:
    """Whether two turns follow each other in ``steps``."""
    return any(a != "F" and b != "F" for a, b in pairwise(steps))
