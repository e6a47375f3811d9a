"""VV5 greedy's pulls that decide whether a ship leaves the board: an empty-handed ship of a run leaves only to
win it, and a ship whose every turn-and-burn ends off the board looks wider for one that keeps it on."""

from __future__ import annotations

from dataclasses import replace

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.hexes import Hex
from vectorwar.registry import get_system
from vectorwar.systems.vv5.bots import objective_score
from vectorwar.systems.vv5.specials.cargo_runs import steer
from vectorwar.systems.vv5.state import CargoRunState, VV5State

SYSTEM = get_system("vv5")
OFF_LEFT = Hex.parse("-1,10")  # past the left edge, one of the refugees' two ways out


def refugees() -> VV5State:
    state: VV5State = Game.new(SYSTEM, builtin_scenario("vv5-refugees"), 1).state
    return state


def leaving(state: VV5State, ship: str) -> float:
    z = state.ship(ship)
    return objective_score(state, z, OFF_LEFT, z.facing, z.velocity)


def test_an_escort_gets_nothing_for_leaving_while_the_transport_is_on_the_board() -> None:
    state = refugees()
    z1 = state.ship("Z1")
    assert steer(state, z1, OFF_LEFT, 3) > 900  # the run's own pull would take it off
    assert leaving(state, "Z1") == 0.0


def test_the_last_ship_of_a_run_leaves_when_that_wins_it_and_stays_when_behind() -> None:
    state = refugees()
    gone = [replace(state.ship(s), status="exited") for s in ("T1", "Z2")]
    alone = state.with_ship(gone[0]).with_ship(gone[1])
    assert isinstance(alone.special, CargoRunState)
    # Nobody has scored: leaving now would end the run level, a draw; it stays and fights.
    assert leaving(alone, "Z1") == 0.0
    ahead = replace(alone, special=replace(alone.special, deliveries=(("T1", "refugees rescued", 5),)))
    assert leaving(ahead, "Z1") > 900
