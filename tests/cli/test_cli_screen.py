"""The terminal's game screen: the turn's events stay next to the prompt, and a fire prompt lists its shots."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from rich.console import Console

from vectorwar.catalogue import builtin_scenario
from vectorwar.cli.screen import game_screen
from vectorwar.game import Game
from vectorwar.registry import get_system

from .helpers import run


def _text(game: Game, side: str | None) -> str:
    console = Console(record=True, width=200, color_system=None)
    console.print(game_screen(game, side), soft_wrap=True)
    return console.export_text()


def _to_fire(system: str, scenario: str, seed: int) -> tuple[Game, str]:
    """The greedy bot's orders (it closes in) until a side owing an order has shots to give; the game and side."""
    game = Game.new(get_system(system), builtin_scenario(scenario), seed=seed)
    bot = game.system.bots()["greedy"]()
    rng = random.Random(seed)
    for _ in range(300):
        for side in game.waiting_for:
            if any(game.system.fire_options(game.state, side).values()):
                return game, side
        side = game.waiting_for[0]
        game.submit(side, bot.choose(game.system.side_view(game.state, side), side, rng))
    raise AssertionError(f"no shot came up in {scenario}")


@pytest.mark.parametrize(("system", "scenario"), [("msc", "msc-duel"), ("vv5", "vv5-dogfight")])
def test_a_fire_prompt_lists_every_legal_shot_as_typed_with_its_odds(system: str, scenario: str) -> None:
    game, side = _to_fire(system, scenario, 3)
    screen = _text(game, side)
    menu = screen.split("legal shots now, as typed, with their odds:")[1]
    offered = [(ship, o) for ship, shots in game.system.fire_options(game.state, side).items() for o in shots]
    assert offered
    for ship, option in offered:
        assert option.odds is not None
        assert f"{ship} {option.piece}" in menu
        assert option.odds.summary() in menu
        # What the menu writes is an order the rules take.
        game.system.check_order(game.state, side, game.system.parse_order(game.state, side, f"{ship} {option.piece}"))
    others = [s.id for s in game.scenario.sides if s.id != side and s.id not in game.waiting_for]
    for other in others:
        assert "legal shots now" not in _text(game, other)


def test_a_vv5_missile_in_the_menu_shows_the_range_the_targets_burn_leaves() -> None:
    game, side = _to_fire("vv5", "vv5-dogfight", 3)
    missiles = [o for shots in game.system.fire_options(game.state, side).values() for o in shots if o.weapon == "msl"]
    assert missiles
    screen = _text(game, side)
    ranged = 0
    for option in missiles:
        assert option.odds is not None
        assert option.odds.summary() in screen
        if option.odds.worst is not None:  # None: the marker is at the track's bottom already
            ranged += 1
            assert f"if {option.target} does not accelerate" in option.odds.summary()
            assert "if it burns its most" in option.odds.summary()
    assert ranged


def test_the_turns_events_are_shown_below_the_reprinted_map_just_above_the_prompt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("play", "--seed", "11", input="Hawk 2\nquit\n")
    assert code == 0
    # The last screen before the prompt: its map, then what happened, then the prompt.
    last = out.rsplit("Duel (Minimal Space Combat) - ", 1)[1]
    happened = last.index("what happened:")
    assert last.index("Hawk (") < happened  # the map's legend comes first
    assert happened < last.index("Hawk plots 2: ") < last.index("red> ")
    # Each event once: it is not also printed before the reprinted map.
    assert out.count("Hawk plots 2: ") == 1
