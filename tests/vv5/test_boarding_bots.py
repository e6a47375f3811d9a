"""The greedy bot in VV5 scenarios 6 and 7: transports plan their rendezvous, escorts respect the platforms."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.hexes import Direction
from vectorwar.play import simulate
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.vv5.bots import GreedyBot, planned_plot
from vectorwar.systems.vv5.movement import plan as apply_plot
from vectorwar.systems.vv5.orders import Plot
from vectorwar.systems.vv5.specials.boarding import HOLD_OFF, board, boarding_objective, can_board
from vectorwar.systems.vv5.state import VV5State
from vectorwar.systems.vv5.victory import victory_points
from vectorwar.vectors import Velocity


def start(name: str) -> VV5State:
    data = builtin_scenario(name).to_data()
    data["special"]["transport"] = "fixed"
    state = Game.new(get_system("vv5"), scenario_from_data(data, "test"), 1).state
    assert isinstance(state, VV5State)
    return state


def test_a_lone_transport_following_its_plan_boards_the_ghost_ship() -> None:
    state = start("vv5-ghost-ship")
    ghost, ship = state.ship("GS"), state.ship("T1")
    for _ in range(12):
        move = planned_plot(state, ship)
        assert move is not None
        facing, velocity = apply_plot(ship.facing, ship.velocity, move)
        ship = replace(ship, hex=ship.hex.shifted(velocity.dq, velocity.dr), facing=facing, velocity=velocity)
        ghost = replace(ghost, hex=ghost.hex.shifted(ghost.velocity.dq, ghost.velocity.dr))
        state = state.with_ship(ship).with_ship(ghost)
        assert state.map.contains(ship.hex)
        if can_board(state, ship, ghost):
            break
    assert can_board(state, ship, ghost)
    assert state.map.contains(ghost.hex)  # aboard before the Ghost Ship reaches the black hole


def test_the_bot_plots_the_plan_for_a_transport() -> None:
    state = start("vv5-ghost-ship")
    state = replace(state, phase="plot")
    order = GreedyBot().choose(state, "red", random.Random(0))
    assert isinstance(order, Plot)
    assert dict(order.moves)["T1"] == planned_plot(state, state.ship("T1"))
    assert planned_plot(state, state.ship("X1")) is None  # escorts are not planned for


def test_transports_wait_out_of_phaser_reach_while_platforms_can_fire() -> None:
    state = start("vv5-alien-starship")
    ship = state.ship("T1")
    platforms = [s for s in state.ships if s.kind == "adp"]
    for _ in range(15):
        move = planned_plot(state, ship)
        assert move is not None
        facing, velocity = apply_plot(ship.facing, ship.velocity, move)
        ship = replace(ship, hex=ship.hex.shifted(velocity.dq, velocity.dr), facing=facing, velocity=velocity)
        state = state.with_ship(ship)
        assert min(ship.hex.distance(p.hex) for p in platforms) > 12  # the phasers cannot reach
    assert ship.velocity.speed == 0  # stopped at the waiting spot, not drifting in
    assert ship.hex.distance(state.ship("AS").hex) <= HOLD_OFF + 1


def _boards_within_20_turns(state: VV5State, ship_id: str) -> bool:
    """Whether ``ship_id``, flying its planned plots (nobody else moving), comes to board the starship."""
    ship, starship = state.ship(ship_id), state.ship("AS")
    for _ in range(20):
        move = planned_plot(state, ship)
        if move is None:
            return False
        facing, velocity = apply_plot(ship.facing, ship.velocity, move)
        ship = replace(ship, hex=ship.hex.shifted(velocity.dq, velocity.dr), facing=facing, velocity=velocity)
        state = state.with_ship(ship)
        if can_board(state, ship, starship):
            return True
    return False


def test_with_the_platforms_silenced_the_transport_goes_in() -> None:
    state = start("vv5-alien-starship")
    for p in [s for s in state.ships if s.kind == "adp"]:
        state = state.with_ship(replace(p, status="destroyed"))
    assert _boards_within_20_turns(state, "T1")


def test_escorts_keep_away_from_the_platforms() -> None:
    state = start("vv5-alien-starship")
    escort = state.ship("X1")
    adp = next(s for s in state.ships if s.kind == "adp")
    near = adp.hex.neighbour(Direction.A, 3)
    far = adp.hex.neighbour(Direction.F, 11)
    still = replace(escort, hex=near, velocity=Velocity())
    assert boarding_objective(state, still, near, 0) < boarding_objective(state, replace(still, hex=far), far, 0)


def test_no_plan_once_the_troopers_are_aboard() -> None:
    state = start("vv5-ghost-ship")
    state = replace(state, special=replace(board(state), boarded=(("T1", 6),), aboard=(("red", 6),)))
    assert planned_plot(state, state.ship("T1")) is None


SEEDS = range(200, 210)


@pytest.mark.parametrize("name", ["vv5-ghost-ship", "vv5-alien-starship"])
@pytest.mark.parametrize("side", ["red", "blue"])
def test_greedy_beats_random(name: str, side: str) -> None:
    other = "blue" if side == "red" else "red"
    summary = simulate(builtin_scenario(name), {side: "greedy", other: "random"}, len(SEEDS), SEEDS[0])
    assert summary.wins[side] > summary.wins[other]


def _last_of_red(state: VV5State, also_lost: tuple[str, ...] = ()) -> VV5State:
    """``state`` with red's escorts destroyed by blue (and ``also_lost`` by red), its transport T1 the last of its
    side."""
    for s in state.ships:
        if s.side == "red" and s.id != "T1":
            state = state.with_ship(replace(s, status="destroyed", destroyed_by="blue"))
        elif s.id in also_lost:
            state = state.with_ship(replace(s, status="destroyed", destroyed_by="red"))
    return state


def test_the_last_of_its_side_behind_on_points_goes_in_under_the_platforms_fire() -> None:
    state = _last_of_red(start("vv5-alien-starship"))
    assert victory_points(state)["red"] < victory_points(state)["blue"]
    assert _boards_within_20_turns(state, "T1")  # waiting out of reach would only have lost


def test_the_last_of_its_side_ahead_on_points_waits_out_of_reach() -> None:
    fresh = start("vv5-alien-starship")
    blue = tuple(s.id for s in fresh.ships if s.side == "blue")
    state = _last_of_red(fresh, also_lost=blue)
    assert victory_points(state)["red"] > victory_points(state)["blue"]
    assert planned_plot(state, state.ship("T1")) == planned_plot(fresh, fresh.ship("T1"))
