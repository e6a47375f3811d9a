"""VV5 greedy's pulls that decide whether a ship leaves the board: an empty-handed ship of a run leaves only to
win it, and a ship whose every turn-and-burn ends off the board looks wider for one that keeps it on."""

from __future__ import annotations

import random
from dataclasses import replace

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.registry import get_system
from vectorwar.systems.vv5.bots import GreedyBot, _turns_and_burns, objective_score
from vectorwar.systems.vv5.honour import plotted_end
from vectorwar.systems.vv5.movement import turn_allowance
from vectorwar.systems.vv5.orders import Plot
from vectorwar.systems.vv5.specials.cargo_runs import steer
from vectorwar.systems.vv5.state import BoardingState, CargoRunState, PodState, VV5State
from vectorwar.vectors import Velocity

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


def test_a_ship_whose_every_turn_and_burn_leaves_the_board_takes_a_split_burn_that_stays_on() -> None:
    # A fighter in the top left corner drifting up and left, nose to the left: turning then burning (greedy's
    # usual plots) cannot hold it on the board; burning, turning and burning again can. (Alien Starship: no
    # honour rule, whose plots already look wider, and no board shift bringing leavers back.)
    state: VV5State = Game.new(SYSTEM, builtin_scenario("vv5-alien-starship"), 1).state
    x3 = replace(state.ship("X3"), hex=Hex.parse("1,0"), facing=Direction.E, velocity=Velocity(-2, -1, 0))
    state = state.with_ship(x3)
    assert turn_allowance(x3) == (2, 2)
    usual = _turns_and_burns(x3.facing, 2, 2)
    assert not any(state.map.contains(plotted_end(x3, c[0])) for c in usual)
    plot = GreedyBot().choose(state, "red", random.Random(0))
    assert isinstance(plot, Plot)
    move = dict(plot.moves)["X3"]
    assert state.map.contains(plotted_end(x3, move))


def test_a_carrier_of_the_log_heads_home_by_where_its_drift_takes_it() -> None:
    state: VV5State = Game.new(SYSTEM, builtin_scenario("vv5-ghost-ship"), 1).state
    assert isinstance(state.special, BoardingState)
    state = replace(state, special=replace(state.special, log=("red",), carriers=("T1",)))
    t1 = state.ship("T1")  # red's home corner is 0,23, bottom left
    end = Hex.parse("8,18")
    homeward, outward = Velocity.toward(Direction.E, 3), Velocity.toward(Direction.B, 3)
    # The same end at the same speed: drifting on toward home beats drifting away from it.
    assert objective_score(state, t1, end, Direction.E, homeward) > objective_score(
        state, t1, end, Direction.B, outward
    )
    # Too fast to stay on near home: drifting off there next turn wins, better than any end far from home.
    near, far = Hex.parse("2,21"), Hex.parse("2,8")
    fast_home = Velocity(-3, 2, 0)
    assert not state.map.contains(near.shifted(fast_home.dq, fast_home.dr))
    assert objective_score(state, t1, near, Direction.E, fast_home) > objective_score(
        state, t1, far, Direction.E, fast_home
    )


def test_a_tug_a_few_hexes_off_the_pod_closes_slowly_rather_than_hang_there() -> None:
    # A tug three hexes off the free pod at speed 1 (seed 20 of the Stasis Pod's greedy games hung so for twenty
    # turns): two hexes off at speed 1 scores better than staying three off, and next to it slower is better.
    state: VV5State = Game.new(SYSTEM, builtin_scenario("vv5-stasis-pod"), 1).state
    assert isinstance(state.special, PodState)
    pod, tug = state.special.pod, state.ship("X1")

    def score(distance: int, speed: int) -> float:
        end = pod.neighbour(Direction.D, distance)
        return objective_score(state, tug, end, Direction.A, Velocity(0, -speed, 0))

    assert score(2, 1) > score(3, 1)
    assert score(3, 1) > score(3, 0)  # standing still off the pod is worst of all
    assert score(1, 0) > score(1, 1) > score(2, 1)


def test_a_tug_holding_the_pod_is_drawn_to_face_its_home_corner() -> None:
    # Turning alone brings it no nearer home this plot; facing home, the next burn does.
    state: VV5State = Game.new(SYSTEM, builtin_scenario("vv5-stasis-pod"), 1).state
    assert isinstance(state.special, PodState)
    held = replace(state, special=replace(state.special, holder="X1"))
    x1 = held.ship("X1")
    corner = dict(state.special.corners)["red"]
    at = corner.neighbour(Direction.D, 8)
    facing_home = min(Direction, key=lambda d: at.neighbour(d).distance(corner))
    facing_away = max(Direction, key=lambda d: at.neighbour(d).distance(corner))
    scores = {d: objective_score(held, x1, at, d, Velocity()) for d in (facing_home, facing_away)}
    assert scores[facing_home] > scores[facing_away]


def test_a_tug_is_drawn_by_speed_toward_the_pod_not_speed_alone() -> None:
    # Five hexes off the free pod, two hexes a turn away from it is the wrong speed, not the speed wanted (seed 36
    # of the Stasis Pod's greedy games: a tug down to 1 G kept burning away from the pod at the speed it wanted).
    state: VV5State = Game.new(SYSTEM, builtin_scenario("vv5-stasis-pod"), 1).state
    assert isinstance(state.special, PodState)
    pod, tug = state.special.pod, state.ship("X1")
    end = pod.neighbour(Direction.D, 5)
    toward = objective_score(state, tug, end, Direction.A, Velocity(0, -2, 0))
    away = objective_score(state, tug, end, Direction.A, Velocity(0, 2, 0))
    assert toward > away


def test_a_tug_that_flew_past_the_pod_turns_back() -> None:
    # Seed 33 of the Stasis Pod's greedy games: the tug missed its grab at speed 4 and drifted on past the pod nose
    # first; no turn brings it nearer this plot, so judged by where it ends it flew on some twenty turns. Its next
    # plot is weighed too: it turns so that its next burns bring it back.
    state: VV5State = Game.new(SYSTEM, builtin_scenario("vv5-stasis-pod"), 1).state
    assert isinstance(state.special, PodState)
    pod = state.special.pod
    tug = replace(state.ship("X1"), hex=pod.neighbour(Direction.A), facing=Direction.F, velocity=Velocity(-4, 0, 0))
    state = state.with_ship(tug)
    move = GreedyBot()._plot(state, tug, random.Random(1))
    assert move.turns >= 1
    assert turn_allowance(tug) == (2, 2)  # a turn about takes it two plots (three hexsides, two a plot)
