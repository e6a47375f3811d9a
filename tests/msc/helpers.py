"""Shared helpers for the MSC tests: small scenarios, loaded dice, hex pictures."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import cache
from typing import Any

from vectorwar.dice import Dice
from vectorwar.game import Game
from vectorwar.hexes import Hex
from vectorwar.registry import get_system
from vectorwar.scenario import Scenario, scenario_from_data
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.rules import MinimalSpaceCombat
from vectorwar.systems.msc.state import MSCState

_system = get_system("msc")
assert isinstance(_system, MinimalSpaceCombat)
MSC: MinimalSpaceCombat = _system

# A ship placement: (side, id, design, at, facing, speed).
Placement = tuple[str, str, str, str, str, int]


def make_scenario(
    ships: Iterable[Placement],
    *,
    width: int = 20,
    height: int = 14,
    terrain: Iterable[str] = (),
    options: Mapping[str, object] | None = None,
    max_turns: int = 30,
    designs: Mapping[str, Mapping[str, Any]] | None = None,
) -> Scenario:
    """A scenario with the given ships; sides appear in the order their first ship does."""
    sides: dict[str, list[dict[str, Any]]] = {}
    for side, ship_id, design, at, facing, speed in ships:
        sides.setdefault(side, []).append({"id": ship_id, "design": design, "at": at, "facing": facing, "speed": speed})
    data = {
        "id": "test",
        "system": "msc",
        "title": "test",
        "max_turns": max_turns,
        "map": {"width": width, "height": height, "terrain": [{"at": h, "kind": "blocking"} for h in terrain]},
        "sides": [{"id": side, "ships": placed} for side, placed in sides.items()],
        "options": dict(options or {}),
        "designs": {k: dict(v) for k, v in (designs or {}).items()},
    }
    return scenario_from_data(data, "test scenario")


def new_game(ships: Iterable[Placement], seed: int = 0, **kwargs: Any) -> Game:
    return Game.new(MSC, make_scenario(ships, **kwargs), seed)


def state_of(game: Game) -> MSCState:
    assert isinstance(game.state, MSCState)
    return game.state


def in_fire_phase(state: MSCState, order: tuple[str, ...] = ("red", "blue"), firing: int = 0) -> MSCState:
    """``state`` moved on to a combat phase with the given initiative order."""
    return replace(state, phase="fire", fire_order=order, firing=firing)


# -- loaded dice ----------------------------------------------------------------


@cache
def seed_for_faces(faces: tuple[int, ...]) -> int:
    """The first seed whose dice, from count 0, throw the d6 ``faces`` in order."""
    for seed in range(2_000_000):
        dice = Dice(seed)
        if all(dice.roll("d6", "probe").total == f for f in faces):
            return seed
    raise LookupError(f"no seed throws {faces}")  # pragma: no cover


def dice_rolling(*faces: int) -> Dice:
    """Real, counter-based dice whose next d6 rolls come up ``faces`` in order."""
    return Dice(seed_for_faces(tuple(faces)))


def find_seed(trial: Callable[[int], bool], limit: int = 3000) -> int:
    """The first seed for which ``trial`` holds."""
    for seed in range(limit):
        if trial(seed):
            return seed
    raise LookupError("no seed found")  # pragma: no cover


# -- hex pictures -----------------------------------------------------------------

# Hex pictures draw one hex per character. Columns are three characters apart and
# every other column sits one text line lower, so a hex's six neighbours are: two
# lines straight up (A) or down (D), and one line up or down three characters to
# either side (B, C, E, F). The ship is '@' and faces up the page (direction A).
# Letters: F front, B back (the text's R arc), L front-left, R front-right,
# l rear-left, r rear-right. The lines running out of the ship mark hexes exactly
# on an arc boundary, which belong to both arcs either side: '/' up-right of the
# ship is F+FR and down-left is R+RL; '\\' up-left is F+FL and down-right RR+R;
# '-' to the right is FR+RR and to the left FL+RL.

_LETTERS: dict[str, frozenset[Side]] = {
    "F": frozenset({Side.F}),
    "B": frozenset({Side.R}),
    "L": frozenset({Side.FL}),
    "R": frozenset({Side.FR}),
    "l": frozenset({Side.RL}),
    "r": frozenset({Side.RR}),
    "@": frozenset(Side),
}
_LINES: dict[str, tuple[frozenset[Side], frozenset[Side]]] = {
    # character: (sides when right of the ship, sides when left of it)
    "/": (frozenset({Side.F, Side.FR}), frozenset({Side.R, Side.RL})),
    "\\": (frozenset({Side.RR, Side.R}), frozenset({Side.F, Side.FL})),
    "-": (frozenset({Side.FR, Side.RR}), frozenset({Side.FL, Side.RL})),
}


def parse_picture(picture: str) -> dict[tuple[int, int], frozenset[Side]]:
    """Expected arc membership by axial offset ``(dq, dr)`` from the ship."""
    lines = textwrap.dedent(picture).strip("\n").splitlines()
    cells = [(y, x, ch) for y, line in enumerate(lines) for x, ch in enumerate(line) if not ch.isspace()]
    centre = [(y, x) for y, x, ch in cells if ch == "@"]
    assert len(centre) == 1, "a picture has exactly one ship '@'"
    y0, x0 = centre[0]
    out: dict[tuple[int, int], frozenset[Side]] = {}
    for y, x, ch in cells:
        assert (x - x0) % 3 == 0, f"hex {ch!r} at line {y} is off the three-character column grid"
        dq = (x - x0) // 3
        half_rows = y - y0  # each text line is half a hex row
        assert (half_rows - dq) % 2 == 0, f"hex {ch!r} at line {y}, column {x} is between rows"
        dr = (half_rows - dq) // 2
        if ch in _LETTERS:
            out[(dq, dr)] = _LETTERS[ch]
        elif ch in _LINES:
            assert dq != 0, f"boundary mark {ch!r} straight above or below the ship"
            out[(dq, dr)] = _LINES[ch][0 if dq > 0 else 1]
        else:
            raise AssertionError(f"unknown picture character {ch!r}")
    return out


def rotate_clockwise(offset: tuple[int, int], sixths: int) -> tuple[int, int]:
    """An axial offset turned ``sixths`` x 60 degrees clockwise (A -> B -> C ...)."""
    dq, dr = offset
    for _ in range(sixths % 6):
        dq, dr = -dr, dq + dr
    return dq, dr


def hexes_around(centre: Hex, radius: int) -> list[Hex]:
    return [
        centre.shifted(dq, dr)
        for dq in range(-radius, radius + 1)
        for dr in range(-radius, radius + 1)
        if abs(dq + dr) <= radius
    ]
