"""VV5 scenarios 2 (Strike Force), 3 (Assault Force) and 8 (Refugees): bombs, troopers, refugees, exits."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError, ScenarioError
from vectorwar.events import Event, Note
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.play import simulate
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.vv5.combat import damage_point
from vectorwar.systems.vv5.movement import move_ships
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.specials import SPECIALS
from vectorwar.systems.vv5.specials.cargo_runs import edge_of, steer
from vectorwar.systems.vv5.state import Box, CargoRunState, VV5State
from vectorwar.systems.vv5.victory import credit, victory_points
from vectorwar.vectors import Velocity

from .conftest import LoadedDice

SYSTEM = get_system("vv5")
BOARD = HexMap.grid([["A", "B", "C", "D", "E"], ["F", "G", "H", "I", "J"], ["K", "L", "M", "N", "O"]], 10, 8)


def new_game(name: str, seed: int = 1, change: Any = None) -> Game:
    data = builtin_scenario(name).to_data()
    if change is not None:
        change(data)
    return Game.new(SYSTEM, scenario_from_data(data, "test"), seed)


def run_of(state: VV5State) -> CargoRunState:
    assert isinstance(state.special, CargoRunState)
    return state.special


def off_board(state: VV5State, ship_id: str, at: str, **changes: Any) -> VV5State:
    """The ship as the movement phase leaves it after flying off the board to ``at``."""
    return state.with_ship(replace(state.ship(ship_id), hex=Hex.parse(at), status="exited", **changes))


# -- the board edge a ship leaves by ------------------------------------------------


@pytest.mark.parametrize(
    ("at", "edge"),
    [("-1,10", "left"), ("50,3", "right"), ("20,-1", "top"), ("20,24", "bottom"), ("-1,-1", "left"), ("7,7", "")],
)
def test_the_edge_is_read_from_the_off_board_hex(at: str, edge: str) -> None:
    assert edge_of(BOARD, Hex.parse(at)) == edge


def test_exits_are_recorded_with_their_edge() -> None:
    state = new_game("vv5-strike-force").state
    state = off_board(state, "Y1", "20,-1")
    state = SPECIALS["strike-force"].after_movement(state, Dice(1), [])
    assert run_of(state).exits == (("Y1", "top"),)


# -- bombs (scenario 2) -----------------------------------------------------------------


def test_bombs_replace_the_last_missiles_and_cannot_be_launched() -> None:
    game = new_game("vv5-strike-force")
    x1 = game.state.ship("X1")
    assert x1.launchers == ("ready", "ready", "bomb", "bomb")
    assert x1.missiles_ready == 2
    state = replace(
        game.state.with_ship(replace(x1, hex=Hex.parse("30,10"), facing=Direction.A)),
        phase="missiles",
        declare_order=("strike", "intercept"),
        declaring=0,
    )
    state = state.with_ship(replace(state.ship("Y1"), hex=Hex.parse("30,5")))
    order = SYSTEM.parse_order(state, "strike", "X1 3>Y1")
    with pytest.raises(IllegalOrderError, match="2 missile"):
        SYSTEM.check_order(state, "strike", order)


@pytest.mark.parametrize(("tag", "problem"), [("bombs:x", "whole number"), ("bombs:5", "only 4 missile")])
def test_bad_bomb_loadouts_are_refused(tag: str, problem: str) -> None:
    def change(data: dict[str, Any]) -> None:
        data["sides"][0]["ships"][0]["loadout"] = [tag]

    with pytest.raises(ScenarioError, match=rf"sides\.0\.ships\.0\.loadout: .*{problem}"):
        new_game("vv5-strike-force", change=change)


def test_the_strike_force_needs_two_bombs() -> None:
    def change(data: dict[str, Any]) -> None:
        data["sides"][0]["ships"][0]["loadout"] = []
        data["sides"][0]["ships"][1]["loadout"] = ["bombs:1"]

    with pytest.raises(ScenarioError, match="at least two bombs"):
        new_game("vv5-strike-force", change=change)


@pytest.mark.parametrize(("pair_roll", "after"), [(5, ("ready", "ready", "destroyed", "destroyed")), (1, None)])
def test_a_missile_hit_rolls_which_pair_goes_bombs_and_all(pair_roll: int, after: Any) -> None:
    x1 = new_game("vv5-strike-force").state.ship("X1")
    # 5: weapons; 2: the missiles (not the turret); then the pair: 1-3 launchers 1-2, 4-6 launchers 3-4.
    hit = damage_point(x1, LoadedDice(5, 2, pair_roll), [], "test")
    assert hit.launchers == (after or ("destroyed", "destroyed", "bomb", "bomb"))


def test_bombs_carried_off_the_left_edge_roll_for_the_target() -> None:
    state = off_board(new_game("vv5-strike-force").state, "X1", "-1,10")
    events: list[Event] = []
    special = SPECIALS["strike-force"]
    state = special.after_movement(state, LoadedDice(6, 5), events)
    assert [vp for _, _, vp in run_of(state).deliveries] == [5, 1]
    assert special.score(state, {"strike": 0, "intercept": 0}) == {"strike": 6, "intercept": 0}
    assert victory_points(state)["strike"] == 6
    state = off_board(state, "X2", "-1,12")
    assert [vp for _, _, vp in run_of(special.after_movement(state, LoadedDice(4, 1), [])).deliveries] == [5, 1, 0, 0]


def test_bombs_off_another_edge_or_lost_with_the_ship_score_nothing() -> None:
    state = off_board(new_game("vv5-strike-force").state, "X1", "30,-1")
    events: list[Event] = []
    state = SPECIALS["strike-force"].after_movement(state, LoadedDice(), events)
    assert run_of(state).deliveries == ()
    assert any(isinstance(e, Note) and "top edge" in e.text for e in events)
    gone = state.with_ship(replace(state.ship("X2"), status="destroyed"))
    assert SPECIALS["strike-force"].after_movement(gone, LoadedDice(), []) == gone


def test_the_run_ends_when_the_crossing_side_has_left_and_not_before() -> None:
    state = new_game("vv5-strike-force").state
    special = SPECIALS["strike-force"]
    interceptors_gone = state
    for ship_id in ("Y1", "Y2"):
        interceptors_gone = interceptors_gone.with_ship(replace(state.ship(ship_id), status="destroyed"))
    assert special.game_over(interceptors_gone) is None
    assert not special.ends_on_elimination
    state = off_board(off_board(state, "X1", "-1,10"), "X2", "-1,12")
    assert special.game_over(state) == "strike has no starships left on the board"


def test_level_points_are_a_draw_and_the_verdict_names_the_tally() -> None:
    state = new_game("vv5-strike-force").state
    verdict = SPECIALS["strike-force"].decide(state, {"strike": 4, "intercept": 4})
    assert verdict is not None
    assert verdict[0] == ()
    verdict = SPECIALS["strike-force"].decide(state, {"strike": 5, "intercept": 4})
    assert verdict is not None
    assert verdict[0] == ("strike",)
    assert "strike 5 VP" in verdict[1]


# -- troopers and transports (scenario 3) -------------------------------------------


def test_transports_score_two_per_si_and_one_per_two_non_cargo_damage() -> None:
    state = new_game("vv5-assault-force").state
    t1 = state.ship("T1")
    hit = replace(
        t1,
        cargo=replace(t1.cargo, boxes=4),
        damage_taken=5,
        damage_by=(("intercept", 5),),
        cargo_lost_by=(("intercept", 2),),
    )
    state = state.with_ship(hit)
    # (5 - 2) // 2 = 1 for damage, 2 cargo boxes * 5.
    assert victory_points(state)["intercept"] == 1 + 10
    wrecked = state.with_ship(replace(hit, status="destroyed", destroyed_by="intercept"))
    # By default 2 x 12 SI and the 2 boxes hit (docs/rulings/vv5.md, *VV5 cargo lost with the ship*).
    assert victory_points(wrecked)["intercept"] == 24 + 10
    on = replace(wrecked, options={**wrecked.options, "cargo_lost_with_ship": True})
    # With the option, the 4 still aboard when it went as well.
    assert victory_points(on)["intercept"] == 24 + 10 + 20


def test_starships_still_score_as_in_the_dogfight() -> None:
    state = new_game("vv5-assault-force").state
    y1 = state.ship("Y1")
    state = state.with_ship(replace(y1, damage_taken=3, damage_by=(("assault", 3),)))
    assert victory_points(state)["assault"] == 3
    state = state.with_ship(replace(state.ship("Y1"), status="destroyed", destroyed_by="assault"))
    assert victory_points(state)["assault"] == 3 * 7


def test_credit_keeps_cargo_hits_apart() -> None:
    t1 = new_game("vv5-assault-force").state.ship("T1")
    t1 = replace(t1, cargo=Box(t1.cargo.fitted, 0, t1.cargo.fitted, t1.cargo.armour_fitted))  # armour gone
    after = damage_point(t1, LoadedDice(2), [], "test")  # 2: cargo
    credited = credit(t1, after, "intercept")
    assert credited.cargo_lost_by == (("intercept", 1),)
    assert credited.damage_by == (("intercept", 1),)


def test_intact_troopers_off_the_left_edge_roll_to_land() -> None:
    state = new_game("vv5-assault-force").state
    t1 = state.ship("T1")
    state = off_board(state, "T1", "-1,10", cargo=replace(t1.cargo, boxes=4))
    state = SPECIALS["assault-force"].after_movement(state, LoadedDice(3, 2, 6, 1), [])
    assert [vp for _, _, vp in run_of(state).deliveries] == [3, 0, 3, 0]
    assert victory_points(state)["assault"] == 6


def test_one_transport_per_pair_of_fighters() -> None:
    def change(data: dict[str, Any]) -> None:
        del data["sides"][0]["ships"][1]

    with pytest.raises(ScenarioError, match="one cargo-carrying transport per element"):
        new_game("vv5-assault-force", change=change)


# -- refugees (scenario 8) ----------------------------------------------------------


def test_refugee_ships_start_together_on_the_asteroid_and_launch_safely() -> None:
    state = new_game("vv5-refugees").state
    rock = BOARD.locate("H@4,3")
    assert state.map.terrain_at(rock) == "asteroid"
    assert {s.hex for s in state.ships_of("refugees")} == {rock}
    moved = move_ships(state, {}, LoadedDice(), [])
    assert all(s.active and s.hex != rock for s in moved.ships_of("refugees"))


def test_a_ship_that_ends_a_move_on_the_asteroid_crashes() -> None:
    state = new_game("vv5-refugees").state
    state = state.with_ship(replace(state.ship("Z1"), velocity=Velocity()))
    moved = move_ships(state, {"Z1": Manoeuvre(())}, LoadedDice(), [])
    assert moved.ship("Z1").status == "crashed"


def test_two_ships_still_cannot_start_in_an_open_hex() -> None:
    def change(data: dict[str, Any]) -> None:
        data["sides"][0]["ships"][1]["at"] = data["sides"][0]["ships"][0]["at"]

    with pytest.raises(ScenarioError, match="already holds a ship"):
        new_game("vv5-refugees", change=change)


@pytest.mark.parametrize(
    ("side", "ship", "at", "problem"),
    [(0, 0, "H@4,0", "interceptors start at least 10 away"), (1, 1, "H@0,0", "must start on the asteroid")],
)
def test_refugee_set_up_is_checked(side: int, ship: int, at: str, problem: str) -> None:
    def change(data: dict[str, Any]) -> None:
        data["sides"][side]["ships"][ship]["at"] = at

    with pytest.raises(ScenarioError, match=problem):
        new_game("vv5-refugees", change=change)


@pytest.mark.parametrize(("at", "counted"), [("-1,10", True), ("50,10", True), ("20,24", False)])
def test_refugees_count_across_either_narrow_edge(at: str, counted: bool) -> None:
    state = new_game("vv5-refugees").state
    boxes = state.ship("T1").cargo.boxes  # 6 in a Courier, 10 in a Hauler: the hull is rolled for
    state = off_board(state, "T1", at)
    state = SPECIALS["refugees"].after_movement(state, LoadedDice(), [])  # no dice: they are counted
    assert victory_points(state)["refugees"] == (5 * boxes if counted else 0)


def test_killed_refugees_score_for_the_interceptor() -> None:
    state = new_game("vv5-refugees").state
    t1 = state.ship("T1")
    state = state.with_ship(replace(t1, status="knocked-out", destroyed_by="intercept"))
    assert victory_points(state)["intercept"] == 2 * t1.mass
    on = replace(state, options={**state.options, "cargo_lost_with_ship": True})
    assert victory_points(on)["intercept"] == 2 * t1.mass + 5 * t1.cargo.fitted


# -- the bots -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["vv5-strike-force", "vv5-assault-force", "vv5-refugees"])
def test_greedy_beats_random_from_either_side(name: str) -> None:
    scenario = builtin_scenario(name)
    for side in (s.id for s in scenario.sides):
        other = next(s.id for s in scenario.sides if s.id != side)
        summary = simulate(scenario, {side: "greedy", other: "random"}, 30)
        assert summary.wins[side] > 2 * summary.wins[other], (side, dict(summary.wins))


def test_the_greedy_pull_runs_carriers_for_their_edge_and_interceptors_at_them() -> None:
    state = new_game("vv5-strike-force").state
    x1 = replace(state.ship("X1"), hex=Hex.parse("30,12"))
    state = state.with_ship(x1)
    west, east = x1.hex.neighbour(Direction.F, 2), x1.hex.neighbour(Direction.B, 2)
    assert steer(state, x1, west, 2) > steer(state, x1, east, 2)
    assert steer(state, x1, Hex.parse("-1,10"), 3) > 1000 > steer(state, x1, Hex.parse("30,-1"), 3)
    y1 = state.ship("Y1")
    toward, away = y1.hex.neighbour(Direction.D, 2), y1.hex.neighbour(Direction.A, 2)
    assert steer(state, y1, toward, 2) > steer(state, y1, away, 2)


# -- the search bot's yardstick: cargo on its way counts before it is delivered --------------------


@pytest.mark.parametrize("name", ["vv5-strike-force", "vv5-assault-force", "vv5-refugees"])
def test_standing_grows_as_a_carrier_nears_its_exit_edge_and_is_none_once_it_is_lost(name: str) -> None:
    state = new_game(name).state
    crossing = run_of(state).crossing
    carrier = next(s for s in state.ships_of(crossing) if s.kind == "transport" or "bomb" in s.launchers)
    far, near = (
        SYSTEM.standing(state.with_ship(replace(carrier, hex=Hex.from_offset(col, carrier.hex.row))))[crossing]
        for col in (40, 2)
    )
    assert near > far  # the left edge is an exit in all three scenarios
    lost = SYSTEM.standing(
        state.with_ship(replace(carrier, hex=Hex.from_offset(2, carrier.hex.row), status="destroyed"))
    )
    assert lost[crossing] < near
    assert victory_points(state)[crossing] == 0  # progress is no score: the result still counts VPs only
