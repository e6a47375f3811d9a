"""MSC's answers to the display protocol: counters, Ship Turn Records, arcs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.registry import get_system
from vectorwar.rules import RuleSystem
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.state import MSCState


def fleet() -> Game:
    return Game.new(get_system("msc"), builtin_scenario("msc-fleet"), seed=3)


def test_counters_carry_position_facing_side_and_unique_labels() -> None:
    game = fleet()
    counters = game.system.counters(game.state)
    hawk = next(c for c in counters if c.id == "Hawk")
    assert (str(hawk.position), hawk.facing, hawk.side, hawk.status) == ("3,5", Direction.C, "red", "active")
    labels = [c.label for c in counters]
    assert len(set(labels)) == len(labels) == 6
    assert all(1 <= len(label) <= 2 for label in labels)


def test_card_is_the_ship_turn_record_with_damage_and_moves() -> None:
    game = fleet()
    state: MSCState = game.state
    hawk = state.ship("Hawk")
    hurt = replace(hawk, engine=1, shields=2, weapons=(Side.F, Side.FR), status="active")
    state = state.with_ship(hurt)
    card = next(c for c in game.system.ship_cards(state) if c.title.startswith("Hawk"))
    rows = dict(card.rows)
    assert rows["ENGINE"] == "O ● ● ● ●  1/3"
    assert rows["SHIELD"] == "O O ● ● ●  2/3"
    assert rows["TO-HIT"] == "3"
    # F and FR working, FL shot away, RL and RR never fitted
    assert rows["WEAPONS"] == "F O  FL ✕  FR O  RL ●  RR ●"
    assert card.side == "red"


def test_card_table_has_a_line_per_turn_played() -> None:
    game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)
    game.submit("red", "Hawk 1L1")
    game.submit("blue", "Raven 3")
    card = next(c for c in game.system.ship_cards(game.state) if c.title.startswith("Hawk"))
    assert card.table is not None
    assert card.table.headers == ("Turn", "Speed", "Move")
    assert card.table.rows[0] == ("1", "3", "1L1")


def test_arc_hexes_follow_facing_range_and_working_weapons() -> None:
    game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)
    state: MSCState = game.state
    ship = replace(state.ship("Hawk"), hex=Hex.parse("10,7"), facing=Direction.A, weapons=(Side.F, Side.FL))
    state = state.with_ship(ship)
    arcs = game.system.arc_hexes(state, "Hawk")
    assert set(arcs) == {"F", "FL"}  # FR is fitted but shot away
    assert Hex.parse("10,1") in arcs["F"]  # 6 hexes straight ahead
    assert Hex.parse("10,0") not in arcs["F"]  # 7: out of range
    assert Hex.parse("10,9") not in arcs["F"]  # behind
    assert all(state.map.contains(h) for hexes in arcs.values() for h in hexes)


def test_catalogue_and_design_schema() -> None:
    system = get_system("msc")
    table = system.catalogue_table()
    assert table is not None
    by_id = {row[0]: dict(zip(table.headers, row, strict=True)) for row in table.rows}
    assert by_id["ship1"]["BP"] == "15"
    assert by_id["battleship"]["BP"] == "25"
    schema = system.design_schema()
    assert schema is not None
    assert "engine" in schema["properties"]


def test_kernel_defaults_show_nothing_for_systems_that_do_not_say() -> None:
    system: Any = get_system("msc")
    assert RuleSystem.counters(system, None) == []
    assert RuleSystem.ship_cards(system, None) == []
    assert RuleSystem.arc_hexes(system, None, "x") == {}
    assert RuleSystem.catalogue_table(system) is None
