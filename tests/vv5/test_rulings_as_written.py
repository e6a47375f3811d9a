"""VV5 rulings whose default is the text's plain reading, each with the other reading as an option
(docs/rulings/vv5.md): the asteroid field's roll, the destroyer's damage points, cargo lost with
its ship, and the placements the scenarios leave to the players."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Event, Moved, Note
from vectorwar.game import Game
from vectorwar.hexes import Direction, Position
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.rules import OptionValue
from vectorwar.systems.vv5.hazards import ASTEROID_ROLL, asteroid_fields
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import VV5State
from vectorwar.systems.vv5.victory import KILL_SCORES_DAMAGE, victory_points
from vectorwar.vectors import Velocity

from .conftest import LoadedDice, make_ship, make_state

DEFAULTS: dict[str, Any] = {o.name: o.default for o in system.manifest.options}


def pirate_state(**options: OptionValue) -> VV5State:
    return system.new_state(builtin_scenario("vv5-pirates"), {**DEFAULTS, **options})


# -- VV5 asteroid field rolls ----------------------------------------------------------------


def _flown(state: VV5State, ship_id: str, *names: str) -> tuple[VV5State, Moved]:
    """``ship_id`` at velocity 3 having flown through the named hexes (the last is where it ends)."""
    hexes = [state.map.locate(n) for n in names]
    ship = replace(state.ship(ship_id), hex=hexes[-1], velocity=Velocity.parse("B=3"))
    return state.with_ship(ship), Moved(ship_id, "0", tuple(Position(h) for h in hexes), ship.facing)


def test_ruling_asteroid_roll_defaults_to_entering() -> None:
    spec = next(o for o in system.manifest.options if o.name == "asteroid_roll")
    assert spec == ASTEROID_ROLL
    assert (spec.default, spec.choices) == ("entering", ("entering", "every_turn"))


def test_ruling_a_ship_entering_the_field_rolls() -> None:
    # C@9,4 is the last column outside the field (sections D, E, I, J, N, O); D@0,4 the first inside.
    state, move = _flown(pirate_state(), "X1", "C@8,4", "C@9,4", "D@0,4")
    out = asteroid_fields(state, [move], LoadedDice(1, 1), [])  # 2 under velocity 3: destroyed
    assert out.ship("X1").status == "crashed"


@pytest.mark.parametrize(("mode", "rolls"), [("entering", False), ("every_turn", True)])
def test_ruling_a_ship_moving_inside_the_field_rolls_only_under_every_turn(mode: str, rolls: bool) -> None:
    state, move = _flown(pirate_state(asteroid_roll=mode), "X1", "D@0,4", "D@1,4", "D@2,4")
    events: list[Event] = []
    dice = LoadedDice(1, 1)
    out = asteroid_fields(state, [move], dice, events)
    assert (out.ship("X1").status == "crashed") is rolls
    assert (dice.count == 2) is rolls


def test_ruling_leaving_the_field_is_no_entry() -> None:
    state, move = _flown(pirate_state(), "X1", "D@1,4", "D@0,4", "C@9,4")
    dice = LoadedDice()
    out = asteroid_fields(state, [move], dice, [])
    assert out.ship("X1").active
    assert dice.count == 0


def test_ruling_one_roll_a_turn_however_often_a_move_enters() -> None:
    state, move = _flown(pirate_state(), "X1", "C@9,4", "D@0,4", "C@9,3", "D@0,3")
    dice = LoadedDice(6, 6)
    asteroid_fields(state, [move], dice, [])
    assert dice.count == 2


# -- VV5 victory points ------------------------------------------------------------------------


@pytest.mark.parametrize(("both", "red"), [(False, 18), (True, 22)])
def test_ruling_the_destroyer_scores_its_damage_too_only_with_the_option(both: bool, red: int) -> None:
    """A Dynamo (6 t) destroyed by red after red did 4 points and green 2: the kill is 18 VPs to red."""
    y = replace(make_ship("Y1", "blue"), status="destroyed", destroyed_by="red", damage_by=(("green", 2), ("red", 4)))
    others = (make_ship("X1", "red", at="1,1"), make_ship("Z1", "green", at="3,3"))
    state = make_state(y, *others, options={"kill_scores_damage": both})
    assert victory_points(state) == {"blue": 0, "red": red, "green": 2}


def test_ruling_kill_scores_damage_defaults_to_the_kill_alone() -> None:
    assert (KILL_SCORES_DAMAGE.default, KILL_SCORES_DAMAGE in system.manifest.options) == (False, True)


# -- set-up choices the texts give the players -------------------------------------------------


def placing_game(name: str, seed: int = 1) -> Game:
    return Game.new(get_system("vv5"), builtin_scenario(name), seed)


def test_the_fixed_files_place_nothing() -> None:
    for name in ("vv5-refugees", "vv5-strike-force", "vv5-assault-force"):
        state = placing_game(name).state
        assert isinstance(state, VV5State)
        assert state.placing == ()
        assert state.phase != "place"


def test_refugees_place_interceptors_first_then_the_refugees_facings() -> None:
    game = placing_game("vv5-refugees-place")
    assert game.state.placing == (
        "intercept:ship:Y1",
        "intercept:ship:Y2",
        "refugees:face:Z1",
        "refugees:face:T1",
        "refugees:face:Z2",
    )
    assert game.prompt is not None
    assert game.prompt.sides == ("intercept",)
    assert "no less than 10 hexes" in game.prompt.help


@pytest.mark.parametrize(("at", "distance"), [("G@4,3", 10), ("G@5,3", 9)])
def test_an_interceptor_starts_no_less_than_ten_hexes_from_the_asteroid(at: str, distance: int) -> None:
    game = placing_game("vv5-refugees-place")
    state = game.state
    assert isinstance(state, VV5State)
    rock = state.map.locate("H@4,3")
    assert state.map.locate(at).distance(rock) == distance
    order = system.parse_order(state, "intercept", f"place Y1 {at} B")
    if distance < 10:
        with pytest.raises(IllegalOrderError, match=r"9 hexes from the asteroid.*no less than 10") as refused:
            system.check_order(state, "intercept", order)
        assert "Scenario 8 (Refugees" in str(refused.value)
        return
    system.check_order(state, "intercept", order)
    after, _ = system.resolve(state, {"intercept": order}, LoadedDice())
    y1 = after.ship("Y1")
    assert (y1.hex, str(y1.facing), y1.velocity) == (state.map.locate(at), "B", Velocity.toward(Direction.B))
    assert after.placing[0] == "intercept:ship:Y2"


def test_two_interceptors_may_not_share_a_hex() -> None:
    state = placing_game("vv5-refugees-place").state
    assert isinstance(state, VV5State)
    state, _ = system.resolve(
        state, {"intercept": system.parse_order(state, "intercept", "place Y1 G@4,3 B")}, LoadedDice()
    )
    with pytest.raises(IllegalOrderError, match="taken"):
        system.check_order(state, "intercept", system.parse_order(state, "intercept", "place Y2 G@4,3 C"))


def _interceptors_placed(seed: int = 1) -> VV5State:
    state = placing_game("vv5-refugees-place", seed).state
    assert isinstance(state, VV5State)
    for text in ("place Y1 G@4,3 B", "place Y2 I@4,3 F"):
        state, _ = system.resolve(state, {"intercept": system.parse_order(state, "intercept", text)}, LoadedDice())
    return state


def test_refugee_ships_lift_off_their_chosen_ways_and_no_two_alike() -> None:
    state = _interceptors_placed()
    state, _ = system.resolve(state, {"refugees": system.parse_order(state, "refugees", "face Z1 A")}, LoadedDice())
    assert (state.ship("Z1").facing, state.ship("Z1").velocity) == (Direction.A, Velocity.toward(Direction.A))
    with pytest.raises(IllegalOrderError, match="already lifts off facing A") as refused:
        system.check_order(state, "refugees", system.parse_order(state, "refugees", "face T1 A"))
    assert "Scenario 8 (Refugees" in str(refused.value)
    menu = system.setup_menu(state, "refugees")
    assert menu is not None
    assert [o.order for o in menu.options] == [f"face T1 {d}" for d in "BCDEF"]
    state, _ = system.resolve(state, {"refugees": system.parse_order(state, "refugees", "face T1 B")}, LoadedDice())
    # The last facing given, the transport is rolled for (1D6 = 1: a Courier) and turn 1 begins.
    state, _ = system.resolve(
        state, {"refugees": system.parse_order(state, "refugees", "face Z2 C")}, LoadedDice(1, then_seed=1)
    )
    assert state.placing == ()
    assert state.turn == 1
    assert state.phase != "place"
    assert [str(state.ship(s).facing) for s in ("Z1", "T1", "Z2")] == ["A", "B", "C"]


def test_the_menu_offers_interceptors_at_exactly_ten_hexes_each_facing_the_asteroid() -> None:
    state = placing_game("vv5-refugees-place").state
    assert isinstance(state, VV5State)
    menu = system.setup_menu(state, "intercept")
    assert menu is not None
    rock = state.map.locate("H@4,3")
    assert menu.options
    for option in menu.options:
        order = system.parse_order(state, "intercept", option.order)
        system.check_order(state, "intercept", order)
        at = state.map.locate(option.order.split()[2])
        assert at.distance(rock) == 10
        facing = Direction.parse(option.order.split()[3])
        assert at.neighbour(facing).distance(rock) == 9


@pytest.mark.parametrize("edge", ["top", "bottom"])
def test_strike_force_interceptors_choose_their_edge(edge: str) -> None:
    state = placing_game("vv5-strike-force-place").state
    assert isinstance(state, VV5State)
    assert state.placing == ("intercept:edge",)
    state, _ = system.resolve(
        state, {"intercept": system.parse_order(state, "intercept", f"edge {edge}")}, LoadedDice(then_seed=1)
    )
    section = state.map.section("D" if edge == "top" else "N")
    row = section.row if edge == "top" else section.row + section.height - 1
    heading = Direction.D if edge == "top" else Direction.A
    for ship in state.ships_of("intercept"):
        assert state.map.section_of(ship.hex) == section
        assert ship.hex.row == row
        assert (ship.facing, ship.velocity) == (heading, Velocity.toward(heading, 2))
    assert state.turn == 1


def test_a_placement_of_the_wrong_kind_is_refused() -> None:
    state = placing_game("vv5-strike-force-place").state
    assert isinstance(state, VV5State)
    with pytest.raises(IllegalOrderError, match="edge top"):
        system.check_order(state, "intercept", system.parse_order(state, "intercept", "place Y1 G@4,3 B"))


def _placements(name: str, seed: int) -> tuple[str, ...]:
    game = play_out(builtin_scenario(name), {s.id: "greedy" for s in builtin_scenario(name).sides}, seed)
    notes = (e.describe() for e in game.events if isinstance(e, Note))
    return tuple(n for n in notes if " places " in n or " lifts off facing " in n or " comes in from " in n)


@pytest.mark.parametrize("name", ["vv5-refugees-place", "vv5-stasis-pod-place", "vv5-strike-force-place"])
def test_bots_place_differently_across_seeds(name: str) -> None:
    seen = {_placements(name, seed) for seed in (1, 2, 3, 4)}
    assert all(seen), name  # every game placed
    assert len(seen) > 1, name
