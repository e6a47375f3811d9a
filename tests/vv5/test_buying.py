"""VV5 Dogfight purchase as a set-up phase: points, pairs, the draw-from-a-cup variant."""

from __future__ import annotations

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.events import Rolled
from vectorwar.game import Game
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.vv5.buying import Buy


def game_with(points: int | str = 15, draw: bool = False, seed: int = 1) -> Game:
    data = builtin_scenario("vv5-dogfight-purchase").to_data()
    data["setup"]["purchase"].update(points=points, draw=draw)
    return Game.new(get_system("vv5"), scenario_from_data(data, "test"), seed)


def test_buy_orders_read_and_print() -> None:
    assert Buy.parse("BUY 3 Ghost") == Buy("ghost", 3)
    assert str(Buy("ghost", 3)) == "buy 3 ghost"
    assert Buy.parse(str(Buy("", 0))) == Buy("", 0)
    with pytest.raises(OrderSyntaxError, match="buy COUNT DESIGN"):
        Buy.parse("3 ghosts please")


def test_points_are_rolled_2d6_plus_8_and_logged() -> None:
    game = game_with(points="2d6+8", seed=7)
    rolls = [e for e in game.events if isinstance(e, Rolled) and e.purpose.startswith("purchase points for")]
    assert [r.purpose for r in rolls] == ["purchase points for every side"]
    points = dict(game.state.purchase.points)
    assert points == {"red": rolls[0].total + 8, "blue": rolls[0].total + 8}
    prompt = game.prompt
    assert prompt is not None
    assert (prompt.kind, prompt.sides) == ("purchase", ("red",))


@pytest.mark.parametrize("seed", range(1, 13))
def test_ruling_one_purchase_roll_gives_every_side_the_same_tons(seed: int) -> None:
    """docs/rulings/vv5.md, *VV5 the purchase phase*: 2D6 + 8 is "the tons available to both sides"."""
    game = game_with(points="2d6+8", seed=seed)
    rolls = [e for e in game.events if isinstance(e, Rolled) and e.purpose.startswith("purchase points")]
    assert len(rolls) == 1
    assert set(dict(game.state.purchase.points).values()) == {rolls[0].total + 8}
    data = builtin_scenario("vv5-dogfight-purchase").to_data()
    data["setup"]["purchase"].update(double=True)
    large = Game.new(get_system("vv5"), scenario_from_data(data, "test"), seed)
    assert set(dict(large.state.purchase.points).values()) == {2 * (rolls[0].total + 8)}


def test_pairs_where_affordable_and_at_most_three_ships() -> None:
    game = game_with(points=15)
    with pytest.raises(IllegalOrderError, match="pairs where affordable") as err:
        game.submit("red", "buy 1 harpy")
    assert "buy 2 harpy" in str(err.value)
    with pytest.raises(IllegalOrderError, match="you can"):
        game.submit("red", "buy 3 harpy")  # 21 t
    game.submit("red", "buy 3 ghost")
    assert dict(game.state.purchase.points)["red"] == 0
    game.submit("blue", "buy 2 dynamo")
    # Blue has 3 t left: nothing fits, so both sides are done and the battle begins.
    assert game.state.purchase is None
    assert game.state.phase in ("choose-order", "plot")
    red = [s for s in game.state.ships if s.side == "red"]
    assert [(s.id, s.design) for s in red] == [("X1", "ghost"), ("X2", "ghost"), ("X3", "ghost")]
    assert str(red[0].hex) == str(game.scenario.hex_map().locate("F@0,2"))


def test_a_side_may_stop_early_in_the_plain_purchase() -> None:
    game = game_with(points=20)
    game.submit("red", "buy 2 ghost")
    game.submit("blue", "done")
    game.submit("red", "done")
    assert game.state.purchase is None
    assert len(game.state.ships_of("blue")) == 0
    assert game.is_over  # blue bought nothing: red holds the field


def test_the_texts_purchase_example_with_the_cup() -> None:
    """15 points each. Red draws Dynamo and Harpy, buys two Harpies (1 t left, too little
    for anything). Blue draws the Ghost beside the Dynamo red left: two Dynamos or three Ghosts."""
    game = game_with(points=15, draw=True, seed=0)
    buying = game.state.purchase
    assert buying is not None
    assert buying.draw
    assert len(buying.offered) == 2
    # Re-run the opening with known draws: the cup holds ghost, dynamo, harpy in that order.
    from vectorwar.systems.vv5 import buying as procedure

    from .conftest import LoadedDice

    state = game.system.new_state(game.scenario, game.options)
    state = procedure.begin(state, LoadedDice(2, 2), [])  # dynamo (2nd of 3), then harpy (2nd of 2)
    assert state.purchase is not None
    assert state.purchase.offered == ("dynamo", "harpy")
    with pytest.raises(IllegalOrderError, match="must buy one of the drawn types"):
        procedure.check(state, "red", Buy("", 0))
    state = procedure.resolve(state, "red", Buy("harpy", 2), LoadedDice(), [])
    after = state.purchase
    assert after is not None
    assert dict(after.points)["red"] == 1  # below the 5 t Ghost: red's last point is wasted
    assert after.offered == ("dynamo", "ghost")  # the Dynamo red left, and blue's draw
    choices = procedure.choices_for(state, "blue")
    assert Buy("dynamo", 2) in choices
    assert Buy("ghost", 3) in choices


@pytest.mark.parametrize("scenario", ["vv5-dogfight-purchase", "vv5-dogfight-draw"])
def test_bots_buy_and_fight_to_the_end(scenario: str) -> None:
    for seed in range(3):
        game = play_out(builtin_scenario(scenario), {"red": "greedy", "blue": "random"}, seed)
        assert game.result is not None
        assert game.history[0].clock.phase == "purchase"
        assert all(s.side in ("red", "blue") for s in game.state.ships)


def test_a_bad_purchase_table_names_the_key() -> None:
    data = builtin_scenario("vv5-dogfight-purchase").to_data()
    data["setup"]["purchase"]["pool"] = ["starfury"]
    with pytest.raises(ScenarioError, match=r"setup\.purchase\.pool: no design 'starfury'"):
        Game.new(get_system("vv5"), scenario_from_data(data, "test"), 1)
    data = builtin_scenario("vv5-dogfight-purchase").to_data()
    data["setup"]["purchase"]["start"]["red"]["at"] = ["F@0,2", "F@0,2", "F@0,3"]
    with pytest.raises(ScenarioError, match="different hexes"):
        Game.new(get_system("vv5"), scenario_from_data(data, "test"), 1)


def test_other_systems_refuse_a_setup_they_do_not_have() -> None:
    data = builtin_scenario("msc-duel").to_data()
    data["setup"] = {"purchase": {}}
    with pytest.raises(ScenarioError, match=r"setup\.purchase: msc has no such set-up step"):
        Game.new(get_system("msc"), scenario_from_data(data, "test"), 1)


def test_an_empty_side_needs_a_setup() -> None:
    data = builtin_scenario("vv5-dogfight-purchase").to_data()
    data["setup"] = {}
    with pytest.raises(ScenarioError, match="has no ships, and there is no setup"):
        scenario_from_data(data, "test")
