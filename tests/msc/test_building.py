"""MSC force building by BP as a set-up phase (MSC 3.0 and 5.0; docs/rulings/msc.md, *MSC building by BP*)."""

from __future__ import annotations

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.game import Game
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.systems.msc.building import Built, Fleet
from vectorwar.systems.msc.rules import MinimalSpaceCombat


def new(points: int | None = None, seed: int = 1) -> Game:
    options = {} if points is None else {"build_points": points}
    return Game.new(get_system("msc"), builtin_scenario("msc-build"), seed, options)


def test_fleet_orders_read_and_print() -> None:
    fleet = Fleet.parse("Hawk ship1;  kite 5/2/2 fl f")
    assert fleet.ships == (Built("Hawk", "ship1"), Built("kite", "", 5, 2, 2, ("FL", "F")))
    assert Fleet.parse(str(fleet)) == fleet
    with pytest.raises(OrderSyntaxError, match="NAME DESIGN"):
        Fleet.parse("Hawk")
    with pytest.raises(OrderSyntaxError, match="limit"):
        Fleet.parse("Hawk 9/2/2")


def test_both_sides_build_in_secret_before_turn_1() -> None:
    game = new()
    prompt = game.prompt
    assert prompt is not None
    assert (prompt.kind, prompt.simultaneous, set(prompt.sides)) == ("build", True, {"red", "blue"})
    assert game.state.ships == ()
    game.submit("red", "Hawk ship1; Kite ship2; Owl 5/5/5")  # 15 + 15 + 15 = 45 BP
    assert game.state.ships == ()  # red's fleet waits, unseen, for blue's
    game.submit("blue", "Raven battleship; Wren cruiser")  # 25 + 20
    ships = {s.id: s for s in game.state.ships}
    assert sorted(ships) == ["Hawk", "Kite", "Owl", "Raven", "Wren"]
    assert (ships["Owl"].engine_rating, ships["Owl"].shield_rating, ships["Owl"].to_hit) == (5, 5, 5)
    assert ships["Owl"].weapons == ()
    assert ships["Hawk"].design == "ship1"
    assert str(ships["Hawk"].hex) == "3,8"
    assert ships["Kite"].speed == 2
    assert game.state.phase == "plot"


def test_the_build_points_are_the_limit_and_an_option() -> None:
    game = new()
    with pytest.raises(IllegalOrderError, match="costs 50 BP; each side has 45 BP"):
        game.submit("red", "Hawk battleship; Kite battleship")
    small = new(points=20)
    with pytest.raises(IllegalOrderError, match="each side has 20 BP"):
        small.submit("red", "Hawk ship1; Kite scout")
    small.submit("red", "Hawk ship1")


def test_each_ship_follows_the_design_rules() -> None:
    game = new()
    with pytest.raises(IllegalOrderError, match="Rear"):
        game.submit("red", "Hawk 3/3/3 R")
    with pytest.raises(IllegalOrderError, match="one weapon"):
        game.submit("red", "Hawk 3/3/3 F F")
    with pytest.raises(IllegalOrderError, match="no design 'starfury'"):
        game.submit("red", "Hawk starfury")
    with pytest.raises(IllegalOrderError, match="already a ship's"):
        game.submit("red", "Hawk ship1; hawk ship2")
    with pytest.raises(IllegalOrderError, match="start hexes"):
        game.submit("red", "; ".join(f"S{i} 0/1/0" for i in range(7)))


def test_a_ship_starts_no_faster_than_its_engine() -> None:
    game = new()
    game.submit("red", "Hawk 1/5/5 F")
    game.submit("blue", "Raven ship3")
    assert game.state.ship("Hawk").speed == 1


def test_the_same_name_on_both_sides_is_told_apart() -> None:
    game = new()
    game.submit("red", "Hawk ship1")
    game.submit("blue", "Hawk ship3")
    assert sorted(s.id for s in game.state.ships) == ["Hawk", "Hawk-blue"]


def test_the_fixed_scenarios_still_start_on_turn_1() -> None:
    for name in ("msc-duel", "msc-fleet"):
        game = Game.new(get_system("msc"), builtin_scenario(name), 1)
        assert game.prompt is not None
        assert game.prompt.kind == "plot"


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_bots_build_and_fight(bot: str) -> None:
    for seed in range(3):
        game = play_out(builtin_scenario("msc-build"), {"red": bot, "blue": "random"}, seed)
        assert game.result is not None
        assert game.history[0].clock.phase == "build"
        spent = [e.describe() for e in game.events if " ship(s) for " in e.describe()]
        assert [line.split()[0] for line in spent] == ["red", "blue"]
        assert all(int(line.split(" for ")[1].split()[0]) <= 45 for line in spent)


def test_the_build_menu_offers_the_catalogue_and_the_design_rules() -> None:
    game = new(points=30)
    menu = game.system.setup_menu(game.state, "red")
    assert menu is not None
    assert (menu.kind, menu.unit, menu.budget) == ("fleet", "BP", 30)
    assert menu.custom is not None
    assert menu.custom["weapon_cost"] == 2
    assert menu.custom["max_cost"] == 25
    assert menu.custom["max_ships"] == 6
    msc = game.system
    assert isinstance(msc, MinimalSpaceCombat)
    for option in menu.options:
        design = msc.designs()[option.order]
        assert option.cost == design.build_points
        system, state = game.system, game.state
        order = system.parse_order(state, "red", f"Hawk {option.order}")
        system.check_order(state, "red", order)  # every catalogue design fits 30 BP on its own
    game.submit("red", "Hawk ship1")
    game.submit("blue", "Raven ship3")
    assert game.system.setup_menu(game.state, "red") is None  # built: the battle is on
