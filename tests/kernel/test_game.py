"""The turn engine: prompts, order checking, secrecy, resolution, undo."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError, NotYourTurnError, OrderSyntaxError, ScenarioError
from vectorwar.events import Moved, TurnBegan
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.savefile import game_to_data


@pytest.fixture
def game() -> Game:
    return Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)


def test_a_new_game_asks_every_side_for_a_secret_plot(game: Game) -> None:
    prompt = game.prompt
    assert prompt is not None
    assert prompt.kind == "plot"
    assert prompt.simultaneous
    assert prompt.sides == ("red", "blue")
    assert isinstance(game.events[0], TurnBegan)


def test_plots_wait_until_every_side_has_plotted(game: Game) -> None:
    assert game.submit("red", "Hawk 3") == []
    assert game.waiting_for == ("blue",)
    events = game.submit("blue", "Raven 2")
    assert any(isinstance(e, Moved) for e in events)
    assert len(game.history) == 1
    assert dict(game.history[0].orders) == {"red": "Hawk 3", "blue": "Raven 2"}


def test_a_pending_plot_can_be_replaced_and_withdrawn(game: Game) -> None:
    game.submit("red", "Hawk 3")
    game.submit("red", "Hawk 1L1")
    assert str(game.pending["red"]) == "Hawk 1L1"
    game.withdraw("red")
    assert game.waiting_for == ("red", "blue")


def test_a_pending_plot_is_hidden_from_the_other_side(game: Game) -> None:
    game.submit("red", "Hawk 1L1")
    assert game.view("red")["my_pending_order"] == "Hawk 1L1"
    blue_view = game.view("blue")
    assert blue_view["my_pending_order"] is None
    assert "1L1" not in str(blue_view)
    assert "1L1" not in str(game.view(None))


def test_orders_from_a_side_that_is_not_asked_are_refused(game: Game) -> None:
    with pytest.raises(NotYourTurnError, match="green has no orders"):
        game.submit("green", "Hawk 3")


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=30))
def test_any_rejected_text_leaves_the_game_untouched(text: str) -> None:
    game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=2)
    game.submit("blue", "Raven 2")
    before = game_to_data(game)
    try:
        game.submit("red", text)
    except (OrderSyntaxError, IllegalOrderError):
        assert game_to_data(game) == before
    else:
        assert game.history  # accepted: it must have been a legal plot for Hawk


def test_an_illegal_order_names_the_rule(game: Game) -> None:
    with pytest.raises(IllegalOrderError) as err:
        game.submit("red", "Hawk LL1")
    assert "MSC 6.0" in str(err.value)
    assert "Hawk LL1" in str(err.value)


def test_undo_returns_to_the_previous_decision(game: Game) -> None:
    game.submit("red", "Hawk 3")
    game.submit("blue", "Raven 2")
    before = game.undo()
    fresh = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)
    assert before.state == fresh.state
    assert before.events == fresh.events


def test_options_are_checked_against_the_manifest() -> None:
    with pytest.raises(ScenarioError, match="no option 'warp_drive'"):
        Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1, options={"warp_drive": True})
    with pytest.raises(ScenarioError, match="must be one of"):
        Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1, options={"map_edge": "wrap"})
    with pytest.raises(ScenarioError, match="takes a bool"):
        Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1, options={"strict_turn_spacing": 1})


def test_every_option_of_every_registered_system_is_bounded() -> None:
    from vectorwar.registry import systems
    from vectorwar.rules import OptionSpec

    seen = 0
    for name in systems():
        for option in get_system(name).manifest.options:
            seen += 1
            if option.choices or isinstance(option.default, bool):
                continue
            assert isinstance(option.default, int), f"{name} option {option.name}: a text option without choices"
            assert option.least is not None, f"{name} option {option.name}: no least value"
            assert option.most is not None, f"{name} option {option.name}: no most value"
            assert option.least <= option.default <= option.most
    assert seen >= 20
    with pytest.raises(ValueError, match="needs least <= default <= most"):
        OptionSpec("points", 10, "unbounded")
    with pytest.raises(ValueError, match="needs its choices"):
        OptionSpec("edge", "wrap", "any text")


def test_msc_build_points_are_bounded() -> None:
    with pytest.raises(ScenarioError, match="build_points must be from 1 to 999, got 1000000000"):
        Game.new(get_system("msc"), builtin_scenario("msc-build"), seed=1, options={"build_points": 10**9})
    with pytest.raises(ScenarioError, match="must be from 1 to 999, got 0"):
        Game.new(get_system("msc"), builtin_scenario("msc-build"), seed=1, options={"build_points": 0})


def test_after_the_end_no_orders_are_taken() -> None:
    from vectorwar.play import play_out

    game = play_out(builtin_scenario("msc-duel"), {"red": "greedy", "blue": "greedy"}, seed=3)
    assert game.is_over
    assert game.result is not None
    with pytest.raises(IllegalOrderError, match="game is over"):
        game.submit("red", "Hawk 1")


def test_a_scenario_with_more_sides_than_the_system_plays_is_refused_naming_the_limit() -> None:
    from vectorwar.scenario import scenario_from_data

    def sides(n: int) -> list[dict[str, object]]:
        return [
            {"id": f"s{i}", "ships": [{"id": f"S{i}", "design": "ship1", "at": f"{2 + 2 * i},3", "facing": "B"}]}
            for i in range(n)
        ]

    data = {"system": "msc", "title": "crowd", "map": {"width": 20, "height": 14}}
    msc = get_system("msc")
    assert msc.manifest.max_sides == 6
    assert (
        len(Game.new(msc, scenario_from_data({**data, "id": "six", "sides": sides(6)}, "six"), seed=1).state.sides) == 6
    )
    with pytest.raises(ScenarioError, match=r"scenario 'seven': sides: 7 sides, but msc plays at most 6 \(max_sides\)"):
        Game.new(msc, scenario_from_data({**data, "id": "seven", "sides": sides(7)}, "seven"), seed=1)


def test_too_few_sides_for_a_system_name_its_minimum() -> None:
    from dataclasses import replace

    manifest = replace(get_system("msc").manifest, min_sides=3)
    assert manifest.side_limit_problem(2) == "2 sides, but msc needs at least 3 (min_sides)"
    assert manifest.side_limit_problem(3) is None
