"""MSC 5.0 Setup: the built-in scenarios load, and bots play them to the end under every option."""

from __future__ import annotations

import itertools
import re

import pytest

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.errors import ScenarioError
from vectorwar.events import GameOver, Moved
from vectorwar.game import Game
from vectorwar.hexes import Hex
from vectorwar.play import play_out
from vectorwar.savefile import game_from_data, game_to_data

from .helpers import MSC, make_scenario

SCENARIOS = ["msc-duel", "msc-fleet"]
OPTIONS = [{}, {"strict_turn_spacing": True}, {"map_edge": "forbid"}]
PAIRS = [("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"), ("random", "random")]


def test_msc_5_0_builtin_scenarios_are_registered() -> None:
    assert set(SCENARIOS) <= set(scenario_paths())


def test_msc_5_0_duel_is_a_mirror_of_the_15_bp_sample_ship_1() -> None:
    """The text leaves forces and placement to the players (MSC 5.0); vectorwar's duel is Ship 1
    against Ship 1, placed facing each other, each seeing the other on the same bearing, so that
    neither side starts ahead (Ship 1 against Ship 3 went 73/27 between greedy bots: the history of docs/bots.md)."""
    scenario = builtin_scenario("msc-duel")
    state = MSC.new_state(scenario, MSC.manifest.resolve_options(scenario.options))
    designs = MSC.designs(scenario)
    assert [(s.side, s.id, s.design) for s in state.ships] == [("red", "Hawk", "ship1"), ("blue", "Raven", "ship1")]
    hawk, raven = state.ships
    # Each sees the other on the same bearing from its bow, at the same starting speed.
    assert hawk.speed == raven.speed
    assert hawk.hex.bearing_to(raven.hex).relative_to(hawk.facing) == raven.hex.bearing_to(hawk.hex).relative_to(
        raven.facing
    )
    assert raven.facing == hawk.facing.opposite
    assert all(designs[s.design].build_points == 15 for s in state.ships)
    assert state.max_turns == 30
    assert state.map.hexes_with("blocking") == frozenset()  # the text's blank map


def test_msc_5_0_fleet_is_the_three_sample_designs_a_side_with_two_blocking_hexes() -> None:
    scenario = builtin_scenario("msc-fleet")
    state = MSC.new_state(scenario, {})
    for side in ("red", "blue"):
        assert sorted(s.design for s in state.ships_of(side)) == ["ship1", "ship2", "ship3"]
    assert state.map.hexes_with("blocking") == {Hex.parse("12,8"), Hex.parse("13,9")}


def test_msc_5_0_placements_must_be_on_the_map() -> None:
    scenario = make_scenario(
        [("red", "Hawk", "ship1", "25,3", "A", 0), ("blue", "Raven", "ship1", "5,5", "A", 0)], width=20
    )
    with pytest.raises(ScenarioError, match=r"sides\.0\.ships\.0\.at: hex 25,3 is not on the map"):
        MSC.new_state(scenario, {})


def test_msc_4_0_manifest_lists_the_texts_phases_in_order() -> None:
    manifest = MSC.manifest
    # The build and the deployment before turn 1 (MSC 5.0, when a scenario has the players set up) precede the turn.
    assert [p.name for p in manifest.phases] == ["build", "deploy", "plot", "movement", "initiative", "fire"]
    assert manifest.dice == ("d6",)
    options = {o.name for o in manifest.options}
    assert options == {
        "strict_turn_spacing",
        "map_edge",
        "build_points",
        "ships_block_sight",
        "victory",
        "victory_turns",
    }
    assert manifest.option("map_edge").choices == ("disengage", "forbid")


def _check_record_of_play(game: Game) -> None:
    """Rules every finished game must show, whoever played it."""
    state = game.state
    assert game.is_over
    assert game.result is not None
    assert isinstance(game.events[-1], GameOver)
    last_turn = game.history[-1].clock.turn
    assert last_turn <= state.max_turns
    for ship in state.ships:
        speeds = [entry.speed for entry in ship.record]
        assert all(0 <= s <= ship.engine_rating for s in speeds), ship.id
        for entry in ship.record:
            assert not re.search(r"[LR][LR]", entry.move), (ship.id, entry)
    for e in game.events:
        if isinstance(e, Moved):
            assert all(a.hex.distance(b.hex) == 1 for a, b in itertools.pairwise(e.path))
    if game.result.winners:
        assert set(game.result.winners) == set(state.sides_in_play())


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("pair", PAIRS, ids="-vs-".join)
@pytest.mark.parametrize("scenario_id", SCENARIOS)
def test_msc_scenarios_play_to_the_end_with_bots(
    scenario_id: str, pair: tuple[str, str], options: dict[str, object]
) -> None:
    scenario = builtin_scenario(scenario_id)
    for seed in range(4):
        game = play_out(scenario, {"red": pair[0], "blue": pair[1]}, seed=seed, options=options)
        _check_record_of_play(game)


def test_msc_games_replay_exactly_from_seed_and_orders() -> None:
    """Resolution is a pure function of state, orders and dice: a save replays to the same log."""
    game = play_out(builtin_scenario("msc-fleet"), {"red": "greedy", "blue": "random"}, seed=11)
    again, _ = game_from_data(game_to_data(game))
    assert [e.describe() for e in again.events] == [e.describe() for e in game.events]
    assert MSC.state_to_data(again.state) == MSC.state_to_data(game.state)
    undone = game.undo()
    assert len(undone.history) == len(game.history) - 1
    assert not undone.is_over
