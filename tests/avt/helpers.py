"""Shared helpers for the AV:T tests: the system, small scenarios, games placed by hand."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.play import bot_rng, make_bots
from vectorwar.registry import register, systems
from vectorwar.scenario import Scenario, scenario_from_data
from vectorwar.systems.avt import system as AVT
from vectorwar.systems.avt.state import AVTState, Ship

# Until the entry point is installed the tests still find the system by name.
if "avt" not in systems():
    register(AVT)

__all__ = ["AVT", "Placement", "make_scenario", "offset", "position_after", "rafik_game", "rotate_offset", "with_ship"]

# A placement: (side, id, design, at, facing, velocity, altitude).
Placement = tuple[str, str, str, str, str, str, int]


def make_scenario(
    ships: Iterable[Placement],
    *,
    options: Mapping[str, object] | None = None,
    max_turns: int = 5,
    width: int = 40,
    height: int = 40,
) -> Scenario:
    sides: dict[str, list[dict[str, Any]]] = {}
    for side, ship_id, design, at, facing, velocity, altitude in ships:
        sides.setdefault(side, []).append(
            {"id": ship_id, "design": design, "at": at, "facing": facing, "velocity": velocity, "altitude": altitude}
        )
    data = {
        "id": "test",
        "system": "avt",
        "title": "test",
        "max_turns": max_turns,
        "map": {"width": width, "height": height},
        "sides": [{"id": side, "ships": placed} for side, placed in sides.items()],
        "options": dict(options or {}),
    }
    return scenario_from_data(data, "test scenario")


def rafik_game(
    velocity: str = "0",
    facing: str = "A",
    at: str = "20,20",
    targets: Iterable[tuple[str, str, int]] = (("Far", "0,0", 0),),
    seed: int = 0,
    **kwargs: Any,
) -> Game:
    """A Rafik (side blue) and chocolates (side chocolates) at ``(id, hex, altitude)``."""
    ships: list[Placement] = [("blue", "Rafik", "rafik", at, facing, velocity, 0)]
    ships += [("chocolates", name, "chocolate", where, "A", "0", alt) for name, where, alt in targets]
    return Game.new(AVT, make_scenario(ships, **kwargs), seed)


def with_ship(game: Game, ship_id: str, **changes: Any) -> Ship:
    """Change a ship in the game's state in place (for setting up a situation)."""
    state: AVTState = game.state
    ship = replace(state.ship(ship_id), **changes)
    game.state = state.with_ship(ship)
    return ship


def offset(start: Hex, *steps: tuple[str, int]) -> Hex:
    """``start`` moved along map directions: ``offset(h, ("A", 2), ("B", 1))``."""
    for letter, n in steps:
        start = start.neighbour(Direction[letter], n)
    return start


def position_after(start: Position, velocity_steps: Iterable[str]) -> Position:
    pos = start
    for s in velocity_steps:
        if s == "up":
            pos = Position(pos.hex, pos.altitude + 1)
        elif s == "down":
            pos = Position(pos.hex, pos.altitude - 1)
        else:
            pos = Position(pos.hex.neighbour(Direction[s]), pos.altitude)
    return pos


def rotate_offset(dq: int, dr: int, sixths: int) -> tuple[int, int]:
    """An axial offset turned ``sixths`` x 60 degrees clockwise (A -> B -> C ...)."""
    for _ in range(sixths % 6):
        dq, dr = -dr, dq + dr
    return dq, dr


def play_checking_offers(
    scenario: str,
    three_d: bool,
    seeds: int,
    offers: Callable[[AVTState, str], Mapping[str, object]],
    check: Callable[[Game, str], int],
) -> int:
    """Random-bot playthroughs of ``scenario``; returns the total ``check`` counted.

    At every prompt a side with nothing to order is offered nothing, and each
    side that orders has its offers checked before it orders; once the game
    is over nothing is offered.
    """
    counted = 0
    everyone = [s.id for s in builtin_scenario(scenario).sides]
    for seed in range(seeds):
        game = Game.new(AVT, builtin_scenario(scenario), seed, {"three_d": three_d})
        bots = make_bots(AVT, dict.fromkeys(everyone, "random"))
        while not game.is_over:
            for idle in everyone:
                if idle not in game.waiting_for:
                    assert offers(game.state, idle) == {}, f"{idle} gives no orders now"
            for side in game.waiting_for:
                counted += check(game, side)
                game.submit(side, bots[side].choose(game.state, side, bot_rng(seed, side, len(game.history))))
                if game.is_over:
                    break
        assert offers(game.state, everyone[-1]) == {}, "nothing is offered once the game is over"
    return counted
