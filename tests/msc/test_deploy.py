"""Start zones and starting SPEEDs chosen in the game (MSC 5.0, 6.0), and victory chosen at the table (MSC 5.0).

docs/rulings/msc.md, *Starting SPEED* and *Start positions and victory*.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError, OrderLimitError, OrderSyntaxError, ScenarioError
from vectorwar.game import Game
from vectorwar.play import play_out
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.msc.bots import GreedyBot, deployment
from vectorwar.systems.msc.deploy import RULE_SPEED, RULE_ZONE, Deployment
from vectorwar.systems.msc.kinds import plottable
from vectorwar.systems.msc.state import MSCState
from vectorwar.systems.msc.turn import end_turn

from .helpers import MSC, make_scenario, state_of

FIXED = "Hawk 3,5 2; Kite 2,9 2; Falcon 3,13 2"


def new(seed: int = 1, options: dict[str, Any] | None = None) -> Game:
    return Game.new(MSC, builtin_scenario("msc-deploy"), seed, options or {})


def blue_done(game: Game) -> None:
    game.submit("blue", "Raven 22,4 2; Crow 23,8 2; Rook 22,13 2")


def test_msc_6_0_starting_speed_0_and_engine_are_legal_and_the_ship_keeps_it() -> None:
    game = new()
    prompt = game.prompt
    assert prompt is not None
    assert (prompt.kind, prompt.simultaneous, set(prompt.sides)) == ("deploy", True, {"red", "blue"})
    # Hawk is Ship 1 (ENGINE 3), Falcon Ship 3 (ENGINE 4).
    game.submit("red", "Hawk 0,0 0; Kite 1,7 2; Falcon 3,17 4")
    assert state_of(game).phase == "deploy"  # red's choice waits, unseen, for blue's
    blue_done(game)
    state = state_of(game)
    ships = {s.id: s for s in state.ships}
    assert (str(ships["Hawk"].hex), ships["Hawk"].speed) == ("0,0", 0)
    assert (str(ships["Falcon"].hex), ships["Falcon"].speed) == ("3,17", 4)
    assert str(ships["Falcon"].facing) == "C"  # the zone's heading
    assert state.phase == "plot"
    assert state.turn == 1
    # The starting SPEED is the one before turn 1 (docs/rulings/msc.md, Starting SPEED): Hawk plots 0 or 1.
    assert {m.speed for m in plottable(state, ships["Hawk"])} == {0, 1}
    assert {m.speed for m in plottable(state, ships["Falcon"])} == {3, 4}


def test_msc_6_0_starting_speed_above_engine_is_refused_naming_the_rule() -> None:
    game = new()
    with pytest.raises(IllegalOrderError, match="Hawk's starting SPEED 4 is above its ENGINE 3") as err:
        game.submit("red", "Hawk 3,5 4; Kite 2,9 2; Falcon 3,13 2")
    assert err.value.rule == RULE_SPEED
    assert "MSC 6.0" in str(err.value)
    with pytest.raises(OrderLimitError, match=r"MSC 6\.0"):  # past any ENGINE there is
        game.submit("red", "Hawk 3,5 6; Kite 2,9 2; Falcon 3,13 2")
    assert state_of(game).phase == "deploy"
    assert str(state_of(game).ship("Hawk").hex) == "3,5"


def test_msc_5_0_a_start_outside_the_zone_is_refused_and_changes_nothing() -> None:
    game = new()
    before = state_of(game)
    with pytest.raises(IllegalOrderError, match="4,5 is outside red's start zone") as err:
        game.submit("red", "Hawk 4,5 2; Kite 2,9 2; Falcon 3,13 2")
    assert err.value.rule == RULE_ZONE
    with pytest.raises(IllegalOrderError, match="outside red's start zone"):
        game.submit("red", "Hawk 22,4 2; Kite 2,9 2; Falcon 3,13 2")  # blue's zone
    assert state_of(game) == before


def test_every_ship_is_placed_once() -> None:
    game = new()
    with pytest.raises(IllegalOrderError, match="no place for Falcon"):
        game.submit("red", "Hawk 3,5 2; Kite 2,9 2")
    with pytest.raises(IllegalOrderError, match="Hawk is placed twice"):
        game.submit("red", "Hawk 3,5 2; hawk 2,9 2; Falcon 3,13 2")
    with pytest.raises(OrderSyntaxError, match="not one of your ships"):
        game.submit("red", "Raven 3,5 2; Kite 2,9 2; Falcon 3,13 2")
    with pytest.raises(OrderSyntaxError, match="NAME HEX SPEED"):
        game.submit("red", "Hawk 3,5")
    assert str(Deployment.parse(FIXED.lower(), {"hawk": "Hawk", "kite": "Kite", "falcon": "Falcon"})) == FIXED


def test_the_menu_offers_the_zone_and_each_ships_speeds() -> None:
    state = state_of(new())
    menu = MSC.setup_menu(state, "red")
    assert menu is not None
    assert menu.kind == "deploy"
    assert menu.custom is not None
    assert len(menu.custom["hexes"]) == 4 * 18
    assert "3,17" in menu.custom["hexes"]
    assert "4,0" not in menu.custom["hexes"]
    assert [(s["id"], s["max_speed"], s["speed"]) for s in menu.custom["ships"]] == [
        ("Hawk", 3, 2),
        ("Kite", 2, 2),
        ("Falcon", 4, 2),
    ]


def test_a_scenario_without_zones_keeps_its_hexes_and_speeds() -> None:
    game = Game.new(MSC, builtin_scenario("msc-fleet"), 1)
    state = state_of(game)
    assert state.phase == "plot"
    assert state.deploy is None
    assert MSC.setup_menu(state, "red") is None


def test_zones_are_checked_when_the_scenario_is_read() -> None:
    base = make_scenario([("red", "Hawk", "ship1", "1,1", "A", 0), ("blue", "Raven", "ship1", "9,9", "D", 0)])

    def with_zones(zones: dict[str, Any]) -> None:
        data = base.model_dump()
        data["setup"] = {"deploy": {"zone": zones}}
        MSC.new_state(scenario_from_data(data, "test"), {})

    with pytest.raises(ScenarioError, match="no zone for blue"):
        with_zones({"red": {"cols": [0, 2], "facing": "B"}})
    with pytest.raises(ScenarioError, match="overlaps"):
        with_zones({"red": {"cols": [0, 2], "facing": "B"}, "blue": {"cols": [2, 4], "facing": "E"}})
    with pytest.raises(ScenarioError, match="no hex of the map"):
        with_zones({"red": {"cols": [40, 42], "facing": "B"}, "blue": {"cols": [2, 4], "facing": "E"}})
    with_zones({"red": {"cols": [0, 2], "rows": [0, 3], "facing": "B"}, "blue": {"cols": [5, 9], "facing": "E"}})


def test_a_build_then_places_the_ships_it_built() -> None:
    data = builtin_scenario("msc-build").model_dump()
    data["setup"]["deploy"] = {
        "zone": {"red": {"cols": [0, 5], "facing": "C"}, "blue": {"cols": [20, 25], "facing": "F"}}
    }
    game = Game.new(MSC, scenario_from_data(data, "test"), 1)
    game.submit("red", "Hawk ship1")
    game.submit("blue", "Raven ship3")
    assert state_of(game).phase == "deploy"
    game.submit("red", "Hawk 0,0 3")
    game.submit("blue", "Raven 25,17 0")
    state = state_of(game)
    assert state.phase == "plot"
    assert [(s.id, str(s.hex), s.speed) for s in state.ships] == [("Hawk", "0,0", 3), ("Raven", "25,17", 0)]


# -- the computer's choices ----------------------------------------------------------------------


def placements(seed: int) -> str:
    state = state_of(new(seed))
    return str(deployment(state, "red", random.Random(seed)))


def test_bots_place_differently_across_seeds_and_always_legally() -> None:
    assert placements(1) != placements(2)  # two seeds, two placements
    # In a whole game the bots' dice are the game's: two seeds, two openings.
    openings = [play_out(builtin_scenario("msc-deploy"), {"red": "greedy", "blue": "greedy"}, seed) for seed in (1, 2)]
    first = [dict(game.history[0].orders) for game in openings]
    assert all(game.history[0].clock.phase == "deploy" for game in openings)
    assert first[0]["red"] != first[1]["red"]
    assert first[0]["blue"] != first[1]["blue"]
    for seed in range(1, 6):
        state = state_of(new(seed))
        for side in ("red", "blue"):
            order = GreedyBot().choose(state, side, random.Random(seed))
            MSC.check_order(state, side, order)
            assert isinstance(order, Deployment)
            assert all((s.engine + 1) // 2 <= p.speed <= s.engine for p in order.ships for s in [state.ship(p.ship)])
        random_order = MSC.random_order(state, "red", random.Random(seed))
        MSC.check_order(state, "red", random_order)


def test_a_game_of_bots_deploys_and_fights_to_the_end() -> None:
    for bot in ("greedy", "random"):
        game = play_out(builtin_scenario("msc-deploy"), {"red": bot, "blue": "random"}, 4)
        assert game.result is not None
        assert game.history[0].clock.phase == "deploy"


# -- victory chosen at the table (MSC 5.0) --------------------------------------------------------


def over_at(turn: int, options: dict[str, Any], shields: dict[str, int]) -> MSCState:
    """The state at the end of ``turn``, every ship down to 1 SHIELD but each side's first, which has ``shields``."""
    state = state_of(new(options=options))
    for ship in state.ships:
        state = state.with_ship(replace(ship, shields=1))
    for side, n in shields.items():
        state = state.with_ship(replace(state.ships_of(side)[0], shields=n))
    return end_turn(replace(state, turn=turn, phase="fire"), [])


def test_victory_by_destruction_is_the_default() -> None:
    assert MSC.manifest.option("victory").default == "destroy"
    assert over_at(10, {}, {"red": 3}).phase == "plot"


def test_victory_by_shields_left_after_n_turns() -> None:
    options = {"victory": "shields", "victory_turns": 5}
    assert over_at(4, options, {"red": 3}).phase == "plot"
    won = over_at(5, options, {"red": 3})
    assert (won.phase, won.winners) == ("over", ("red",))
    assert won.end_reason == "most SHIELDS left after turn 5 (red 5, blue 3)"
    tied = over_at(5, options, {})
    assert (tied.phase, tied.winners) == ("over", ())
    assert "tied" in tied.end_reason


def test_victory_turns_is_bounded() -> None:
    with pytest.raises(ValueError, match="victory_turns"):
        new(options={"victory": "shields", "victory_turns": 0})
    with pytest.raises(ValueError, match="victory"):
        new(options={"victory": "points"})
