"""Rulings for VV5 scenarios 2-9 (docs/rulings/vv5.md) that no scenario test pinned down alone."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from vectorwar.catalogue import builtin_scenario
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.vv5 import crews, shock
from vectorwar.systems.vv5.combat import missile_to_hit
from vectorwar.systems.vv5.rules import system as vv5
from vectorwar.systems.vv5.specials import SPECIALS
from vectorwar.systems.vv5.specials.alien_starship import AlienStarship
from vectorwar.systems.vv5.specials.boarding import board
from vectorwar.systems.vv5.state import CargoRunState, VV5State
from vectorwar.systems.vv5.victory import elimination, victory_points
from vectorwar.vectors import Velocity

from .conftest import LoadedDice, make_ship, make_state

SYSTEM = get_system("vv5")


def new_state(name: str, change: Any = None, **special: object) -> VV5State:
    data = builtin_scenario(name).to_data()
    data["special"].update(special)
    if change is not None:
        change(data)
    state = Game.new(SYSTEM, scenario_from_data(data, "test"), 1).state
    assert isinstance(state, VV5State)
    return state


def run_of(state: VV5State) -> CargoRunState:
    assert isinstance(state.special, CargoRunState)
    return state.special


def gone(state: VV5State, side: str) -> VV5State:
    for ship in state.ships_of(side):
        state = state.with_ship(replace(ship, status="destroyed"))
    return state


# -- scenarios 2, 3 and 8 ------------------------------------------------------------


def test_ruling_cargo_is_delivered_as_its_carrier_leaves_and_not_before() -> None:
    """*VV5 delivery as the carrier leaves*: the bomb dice are rolled in the movement phase the bomber exits."""
    state = new_state("vv5-strike-force")
    on_board = SPECIALS["strike-force"].after_movement(state, LoadedDice(), [])
    assert run_of(on_board).deliveries == ()
    x1 = state.ship("X1")
    left = state.with_ship(replace(x1, hex=Hex.parse("-1,5"), status="exited"))
    after = SPECIALS["strike-force"].after_movement(left, LoadedDice(6, 2), [])
    assert [vp for _, _, vp in run_of(after).deliveries] == [5, 0]
    assert SPECIALS["strike-force"].game_over(after) is None  # X2 is still crossing: rolled before the end


def test_ruling_assault_force_fighters_carry_no_bombs_but_loaded_bombs_still_score() -> None:
    """*VV5 elements and bombs in Assault Force*."""
    state = new_state("vv5-assault-force")
    assert all(x != "bomb" for s in state.ships for x in s.launchers)

    def bombs(data: dict[str, Any]) -> None:
        data["sides"][0]["ships"][0]["loadout"] = ["bombs:2"]

    loaded = new_state("vv5-assault-force", bombs)
    x1 = loaded.ship("X1")
    assert x1.launchers.count("bomb") == 2
    left = loaded.with_ship(replace(x1, hex=Hex.parse("-1,5"), status="exited"))
    after = SPECIALS["assault-force"].after_movement(left, LoadedDice(6, 5), [])
    assert victory_points(after)["assault"] == 5 + 1


def test_ruling_refugee_ships_lift_off_each_its_own_way_and_interceptors_close_at_one_hex() -> None:
    """*VV5 refugees start on their asteroid*: stacked on the rock, each moving 1 hex a different way."""
    state = new_state("vv5-refugees")
    rock = state.map.locate("H@4,3")
    refugees = state.ships_of("refugees")
    assert len(refugees) >= 2
    assert {s.hex for s in refugees} == {rock}
    assert all(s.velocity.speed == 1 for s in refugees)
    assert len({s.velocity for s in refugees}) == len(refugees)
    for ship in state.ships_of("intercept"):
        assert ship.hex.distance(rock) >= 10
        assert ship.velocity.speed == 1
        assert ship.hex.neighbour(ship.facing).distance(rock) < ship.hex.distance(rock)
    # They start in the refugees' way, one between the rock and each narrow edge, on the rock's row.
    interceptors = state.ships_of("intercept")
    assert sorted((s.hex.col < rock.col, s.hex.row) for s in interceptors) == [(False, rock.row), (True, rock.row)]


def test_ruling_cargo_boxes_score_only_in_assault_force_and_refugees() -> None:
    """*VV5 cargo boxes destroyed*: the strike force's crossing scores no cargo line."""
    strike = new_state("vv5-strike-force")
    assert SPECIALS["strike-force"].score(strike, {"strike": 0, "intercept": 0}) == {"strike": 0, "intercept": 0}
    assault = new_state("vv5-assault-force")
    t1 = assault.ship("T1")
    hit = assault.with_ship(
        replace(t1, cargo=replace(t1.cargo, boxes=t1.cargo.boxes - 1), cargo_lost_by=(("intercept", 1),))
    )
    assert SPECIALS["assault-force"].score(hit, {"assault": 0, "intercept": 0})["intercept"] == 5


# -- purchase points (scenarios 5 and 6) ----------------------------------------------


def test_ruling_purchase_points_are_fixed_at_the_average_roll() -> None:
    """*VV5 purchase points in scenarios 5 and 6*: 2D6+8 averages 15, 2D6+10 averages 17 (a ton a point)."""
    pirates = new_state("vv5-pirates")
    pirate_side = next(s for s in pirates.sides if any(x.design == "pirate" for x in pirates.ships_of(s)))
    hunters = [s for s in pirates.ships if s.side != pirate_side and s.side not in pirates.automated]
    spent = sum(s.mass for s in hunters)
    cheapest = min(d.mass for k, d in vv5.designs().items() if d.kind == "fighter")
    assert spent <= 15 < spent + cheapest
    alien = new_state("vv5-alien-starship", transport="fixed")
    for side in ("red", "blue"):
        fighters = [s for s in alien.ships_of(side) if s.kind != "transport"]
        assert sum(s.mass for s in fighters) == 17


def test_ruling_the_dogfight_sides_start_as_a_half_turn_of_each_other() -> None:
    """*VV5 where the Dogfight's sides start*: each blue ship is a red one turned half a turn about the
    board's centre: the same design, the opposite hex, the opposite heading and velocity."""
    state = new_state("vv5-dogfight")
    width = max(x.col + x.width for x in state.map.sections)
    height = max(x.row + x.height for x in state.map.sections)

    def half_turn(h: Hex) -> Hex:
        return Hex.from_offset(width - 1 - h.col, height - 1 - h.row)

    turned = {(half_turn(x.hex), x.facing.opposite, x.design) for x in state.ships_of("red")}
    assert {(x.hex, x.facing, x.design) for x in state.ships_of("blue")} == turned
    for x in state.ships:
        assert x.velocity == Velocity.toward(x.facing)
    # The files that buy: the n-th ship each side buys starts where the other's n-th turned would.
    for name in ("vv5-dogfight-purchase", "vv5-dogfight-draw"):
        start = builtin_scenario(name).to_data()["setup"]["purchase"]["start"]
        red, blue = ([state.map.locate(at) for at in start[side]["at"]] for side in ("red", "blue"))
        assert blue == [half_turn(h) for h in red], name
        assert Direction.parse(start["blue"]["facing"]) == Direction.parse(start["red"]["facing"]).opposite


def test_ruling_the_strike_force_quick_start_is_a_pair_of_harpies_a_side() -> None:
    """*VV5 the scenarios' purchases*: the average roll, 15, buys a pair where it can, as the dogfight asks."""
    state = new_state("vv5-strike-force")
    for side in state.sides:
        assert [s.design for s in state.ships_of(side)] == ["harpy", "harpy"], side
        assert sum(s.mass for s in state.ships_of(side)) <= 15


# -- defence platforms (scenarios 4, 6 and 9) ------------------------------------------


def test_ruling_a_missile_at_a_platform_is_one_step_harder_even_at_range_one() -> None:
    """*VV5 missiles at defence platforms*: at range 1 guns facing do not count, the platform's step does."""
    data = builtin_scenario("vv5-stasis-pod").to_data()
    data["special"]["feature"] = "adp"
    state = Game.new(SYSTEM, scenario_from_data(data, "test"), 1).state
    assert isinstance(state, VV5State)
    adp = state.ship("ADP1")
    shooter = replace(state.ship("X1"), hex=adp.hex.neighbour(Direction.D), facing=Direction.A)
    state = replace(state.with_ship(shooter), phase="missiles", declare_order=("red", "blue"), declaring=0)
    order = SYSTEM.parse_order(state, "red", "X1 1>ADP1")
    after, _ = SYSTEM.resolve(state, {"red": order}, LoadedDice(*[1] * 20))
    assert isinstance(after, VV5State)
    assert after.incoming[-1].to_hit == (missile_to_hit(1) or 0) + 1


# -- scenarios 6 and 7 ---------------------------------------------------------------


def test_ruling_a_lone_side_plays_on_in_the_ghost_ship_but_not_at_the_alien_starship() -> None:
    """*VV5 the Ghost Ship's log*: one side left may still board and run home; scenario 6 ends as a dogfight."""
    events: list[Event] = []
    ghost = gone(new_state("vv5-ghost-ship", transport="fixed"), "blue")
    assert elimination(ghost, events) is None
    alien = gone(new_state("vv5-alien-starship", transport="fixed"), "blue")
    finished = elimination(alien, events)
    assert finished is not None
    assert finished.phase == "over"


def test_ruling_sides_downloading_the_ancient_data_together_share_the_win() -> None:
    """*VV5 trooper fights and the search*: rival 2s in one phase give every finder a copy and the win."""
    state = new_state("vv5-alien-starship", transport="fixed")
    state = replace(state, special=replace(board(state), log=("red", "blue")))
    verdict = AlienStarship().decide(state, {"red": 0, "blue": 40})
    assert verdict is not None
    assert set(verdict[0]) == {"red", "blue"}


# -- optional rules: Experienced Crews and Shock -----------------------------------------


def test_ruling_shock_without_experienced_crews_has_no_ratings_and_engine_ships_no_crew() -> None:
    """*VV5 optional rules and crews*: no Rookie +1 nor Ace reduction without crews; platforms are never crewed."""
    shocked = ("s1", "s2")
    rookie = replace(make_ship("X1", "red"), crew="rookie", experience=0, shock=shocked)
    ace = replace(make_ship("X2", "red", at="5,5"), crew="ace", experience=20, shock=shocked)
    base = {"several_targets": "harder", "shock": True}
    alone = make_state(rookie, ace, options={**base, "experienced_crews": False})
    assert [shock.panic_need(alone, s) for s in (rookie, ace)] == [2, 2]
    both = make_state(rookie, ace, options={**base, "experienced_crews": True})
    assert [shock.panic_need(both, s) for s in (rookie, ace)] == [3, 0]
    platform = replace(make_ship("P1", "defences", at="9,9"), crew="nobody", experience=0)
    engine = replace(make_state(platform, options={**base, "experienced_crews": True}), automated=("defences",))
    assert crews.attack_bonus(engine, platform) == 0
