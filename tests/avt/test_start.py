"""Scenario starts: a ship's orientation, fuel, thrust and bias from ``[special.start.<id>]``."""

from __future__ import annotations

from typing import Any

import pytest

from vectorwar.conformance import check_game, play_random_game
from vectorwar.errors import ScenarioError
from vectorwar.game import Game
from vectorwar.hexes import Direction
from vectorwar.scenario import Scenario
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.systems.avt.events import ThrustBurned
from vectorwar.systems.avt.orientation import Orientation
from vectorwar.systems.avt.start import facing_agrees

from .helpers import AVT, make_scenario


def scenario(start: dict[str, Any], facing: str = "C", **kwargs: Any) -> Scenario:
    base = make_scenario(
        [
            ("blue", "Rafik", "rafik", "20,20", facing, "A=4, B=2", 0),
            ("chocolates", "Far", "chocolate", "0,0", "A", "0", 0),
        ],
        **kwargs,
    )
    return base.model_copy(update={"special": {"start": start}})


def refused(start: dict[str, Any], facing: str = "C", **kwargs: Any) -> str:
    with pytest.raises(ScenarioError) as err:
        Game.new(AVT, scenario(start, facing, **kwargs), 0)
    return str(err.value)


def test_avt_scenario_start_sets_orientation_fuel_thrust_and_bias() -> None:
    game = Game.new(AVT, scenario({"Rafik": {"orientation": "C/D+ roll -1", "fuel": 50, "bias": "d"}}, "D"), 0)
    rafik = game.state.ship("Rafik")
    assert rafik.orientation == Orientation.parse("C/D+ roll -1")
    assert (rafik.fuel, rafik.bias, rafik.chart.setting) == (50, Direction.D, 0)


def test_avt_scenario_start_with_the_engine_on_burns_from_the_top_of_the_column_on_segment_1() -> None:
    game = Game.new(AVT, scenario({"Rafik": {"orientation": "C/D", "thrust": 5, "bias": "D"}}), 0)
    assert game.state.ship("Rafik").chart.setting == 5
    events = game.submit("blue", "hold")
    (burn,) = [e for e in events if isinstance(e, ThrustBurned)]
    # Cell 1 of thrust 5 is one dot (A5.2431); at the C/D corner the odd dot goes to the bias, D.
    assert burn.dots == "D=1"
    assert game.state.ship("Rafik").chart.pending_dots() == {Arrow.D: 1}


def test_avt_scenario_without_a_start_table_places_ships_level_with_a_full_fuel_track() -> None:
    game = Game.new(AVT, scenario({}), 0)
    rafik = game.state.ship("Rafik")
    assert (rafik.orientation, rafik.fuel, rafik.bias, rafik.chart.setting) == (Orientation.level(4), 105, None, 0)


@pytest.mark.parametrize(
    ("start", "facing", "key", "words"),
    [
        ({"Ghost": {"fuel": 1}}, "C", "special.start.Ghost", "no ship 'Ghost'"),
        ({"Far": {"fuel": 1}}, "C", "special.start.Far", "only ships"),
        ({"Rafik": {"orientation": "Q"}}, "C", "special.start.Rafik.orientation", "a window is"),
        ({"Rafik": {"orientation": "B/D"}}, "C", "special.start.Rafik.orientation", "not a hex corner"),
        ({"Rafik": {"orientation": "B/C"}}, "E", "special.start.Rafik.orientation", "facing E"),
        ({"Rafik": {"fuel": 106}}, "C", "special.start.Rafik.fuel", "fuel track (105)"),
        ({"Rafik": {"fuel": -1}}, "C", "special.start.Rafik.fuel", "greater than or equal to 0"),
        ({"Rafik": {"thrust": 6}}, "C", "special.start.Rafik.thrust", "thrust (5 with 105 fuel)"),
        ({"Rafik": {"thrust": 1, "fuel": 0}}, "C", "special.start.Rafik.thrust", "no fuel"),
        ({"Rafik": {"bias": "G"}}, "C", "special.start.Rafik.bias", "A-F"),
        ({"Rafik": {"heading": "C"}}, "C", "special.start.Rafik.heading", "Extra inputs"),
    ],
)
def test_avt_scenario_start_errors_name_the_key(start: dict[str, Any], facing: str, key: str, words: str) -> None:
    message = refused(start, facing)
    assert f"scenario test: {key}" in message
    assert words in message


def test_avt_scenario_start_unknown_special_key_is_refused() -> None:
    base = scenario({})
    bad = base.model_copy(update={"special": {"begin": {}}})
    with pytest.raises(ScenarioError, match=r"special\.begin: Extra inputs"):
        Game.new(AVT, bad, 0)


def test_avt_scenario_start_2d_refuses_a_nose_out_of_the_amber_ring() -> None:
    message = refused({"Rafik": {"orientation": "C+"}}, options={"three_d": False})
    assert "special.start.Rafik.orientation: with three_d = false" in message
    # A corner heading is in the amber ring, so it is fine in 2-D.
    game = Game.new(AVT, scenario({"Rafik": {"orientation": "B/C"}}, options={"three_d": False}), 0)
    assert str(game.state.ship("Rafik").orientation) == "B/C"


def test_avt_scenario_start_facing_must_be_a_hexside_beside_the_nose() -> None:
    corner = Orientation.parse("B/C")
    assert [d.name for d in Direction if facing_agrees(corner, d)] == ["B", "C"]
    assert [d.name for d in Direction if facing_agrees(Orientation.parse("D++"), d)] == ["D"]
    # Straight up, the heading means nothing: any facing will do.
    assert all(facing_agrees(Orientation.parse("up roll 2"), d) for d in Direction)


def test_avt_scenario_start_plays_through_the_conformance_kit() -> None:
    start = {"Rafik": {"orientation": "E/F-", "thrust": 3, "fuel": 4, "bias": "E"}}
    for seed in (0, 1):
        game = play_random_game(AVT, scenario(start, "F", max_turns=2), seed)
        check_game(game)  # save/load and replay from the scenario give the same game
        assert 0 <= game.state.ship("Rafik").fuel <= 4
