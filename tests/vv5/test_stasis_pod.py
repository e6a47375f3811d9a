"""VV5 scenario 4, Stasis Pod: features, traction units, grabbing, carrying, winning."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario
from vectorwar.dice import Dice
from vectorwar.errors import ScenarioError
from vectorwar.events import Event, Note, Rolled
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.vv5.specials.adp import platforms_drift, platforms_fire
from vectorwar.systems.vv5.specials.base import resting_place
from vectorwar.systems.vv5.specials.pod import PRESENCE, StasisPod, presence
from vectorwar.systems.vv5.state import PodState, VV5State
from vectorwar.vectors import Velocity, braking_run

from .conftest import LoadedDice


def pod_game(feature: str = "asteroid", seed: int = 1) -> Game:
    data = builtin_scenario("vv5-stasis-pod").to_data()
    data["special"]["feature"] = feature
    return Game.new(get_system("vv5"), scenario_from_data(data, "test"), seed)


def pod_of(state: VV5State) -> PodState:
    assert isinstance(state.special, PodState)
    return state.special


@pytest.mark.parametrize(
    ("feature", "body_terrain"),
    [("asteroid", "asteroid"), ("dense-2", "dense-2"), ("adp", "asteroid"), ("asteroid-field", "asteroid")],
)
def test_the_feature_near_the_pod(feature: str, body_terrain: str) -> None:
    state = pod_game(feature).state
    pod = pod_of(state)
    assert state.map.terrain_at(pod.body) == body_terrain
    assert pod.body.distance(pod.pod) == 1
    if feature == "adp":
        adp = state.ship("ADP1")
        assert adp.kind == "adp"
        assert state.automated == ("defences",)
        assert adp.hex.distance(pod.pod) == 1
    if feature == "asteroid-field":
        assert len(state.map.hexes_with("asteroid-field")) > 100


def test_the_feature_roll_follows_the_texts_table() -> None:
    seen = {}
    for seed in range(40):
        game = pod_game("roll", seed)
        roll = next(e for e in game.events if isinstance(e, Rolled) and e.purpose == "what is near the stasis pod")
        seen[roll.total] = pod_of(game.state).feature
    expected = {1: "asteroid-field", 2: "adp", 3: "asteroid", 4: "dense-1", 5: "dense-2", 6: "dense-3"}
    assert seen == expected


def test_a_traction_unit_replaces_a_launcher() -> None:
    state = pod_game().state
    assert state.ship("X1").loadout == ("traction",)
    assert len(state.ship("X1").launchers) == 3  # a Harpy has 4


def test_traction_needs_a_launcher_to_replace() -> None:
    data = builtin_scenario("vv5-stasis-pod").to_data()
    data["sides"][0]["ships"][1]["loadout"] = ["traction", "traction"]
    data["sides"][0]["ships"][1]["design"] = "courier"
    with pytest.raises(
        ScenarioError, match=r"sides\.0\.ships\.1\.loadout: a traction unit replaces a missile launcher"
    ):
        Game.new(get_system("vv5"), scenario_from_data(data, "test"), 1)


def test_bad_special_tables_are_refused_with_the_key() -> None:
    data = builtin_scenario("vv5-stasis-pod").to_data()
    data["special"]["pod"] = "H@8,7"
    with pytest.raises(ScenarioError, match=r"special\.pod: the pod must be next to the body"):
        Game.new(get_system("vv5"), scenario_from_data(data, "test"), 1)
    data = builtin_scenario("vv5-stasis-pod").to_data()
    data["special"]["corners"] = {"red": "A@0,0"}
    with pytest.raises(ScenarioError, match=r"special\.corners: no corner for blue"):
        Game.new(get_system("vv5"), scenario_from_data(data, "test"), 1)


def _beside_pod(state: VV5State, ship_id: str, speed: int, side_of_pod: Direction = Direction.C) -> VV5State:
    pod = pod_of(state)
    ship = state.ship(ship_id)
    return state.with_ship(
        replace(ship, hex=pod.pod.neighbour(side_of_pod), velocity=Velocity.toward(Direction.A, speed))
    )


def test_grabbing_needs_more_than_the_velocity() -> None:
    state = _beside_pod(pod_game().state, "X1", 2)
    events: list[Event] = []
    missed = StasisPod().boarding(state, LoadedDice(2), events)
    assert pod_of(missed).holder == ""
    caught = StasisPod().boarding(state, LoadedDice(3), events)
    assert pod_of(caught).holder == "X1"


def test_ships_without_traction_cannot_grab() -> None:
    state = _beside_pod(pod_game().state, "X2", 0)
    assert pod_of(StasisPod().boarding(state, LoadedDice(), [])).holder == ""


def test_a_contested_grab_goes_to_the_faster_ship() -> None:
    state = _beside_pod(pod_game().state, "X1", 1, Direction.C)
    state = _beside_pod(state, "Y1", 2, Direction.D)
    assert pod_of(StasisPod().boarding(state, LoadedDice(6, 6), [])).holder == "Y1"


def test_an_equal_contest_is_rolled_off() -> None:
    state = _beside_pod(pod_game().state, "X1", 1, Direction.C)
    state = _beside_pod(state, "Y1", 1, Direction.D)
    # Both grab (6, 6), then the roll-off: X1 rolls 2, Y1 rolls 5.
    assert pod_of(StasisPod().boarding(state, LoadedDice(6, 6, 2, 5), [])).holder == "Y1"


def test_the_pod_rides_with_its_holder_and_drops_when_it_is_lost() -> None:
    state = _beside_pod(pod_game().state, "X1", 0)
    state = replace(state, special=replace(pod_of(state), holder="X1"))
    moved = state.with_ship(replace(state.ship("X1"), hex=Hex.parse("10,10")))
    assert pod_of(StasisPod().after_movement(moved, Dice(1), [])).pod == Hex.parse("10,10")
    lost = moved.with_ship(replace(moved.ship("X1"), status="destroyed"))
    events: list[Event] = []
    dropped = pod_of(StasisPod().after_movement(lost, Dice(1), events))
    assert (dropped.holder, dropped.pod) == ("", Hex.parse("10,10"))
    assert any(isinstance(e, Note) and "drifts free" in e.text for e in events)


@pytest.mark.parametrize(("exit_at", "winners"), [("0,3", ("red",)), ("30,0", ())])
def test_taking_the_pod_off_the_board(exit_at: str, winners: tuple[str, ...]) -> None:
    state = pod_game().state
    where = Hex.parse(exit_at).neighbour(Direction.A)  # one hex off the top edge
    state = state.with_ship(replace(state.ship("X1"), hex=where, status="exited"))
    state = replace(state, special=replace(pod_of(state), holder="X1"))
    special = StasisPod()
    state = special.after_movement(state, Dice(1), [])
    assert special.game_over(state) is not None
    verdict = special.decide(state, {"red": 0, "blue": 0})
    assert verdict is not None
    assert verdict[0] == winners


def test_the_game_ends_drawn_once_no_ship_in_play_can_take_the_free_pod() -> None:
    # The two tugs (X1 and Y1 carry the traction units); the other fighters cannot grab.
    state = pod_game().state
    special = StasisPod()
    one_left = state.with_ship(replace(state.ship("X1"), status="destroyed"))
    assert special.game_over(one_left) is None
    both_gone = one_left.with_ship(replace(state.ship("Y1"), status="exited"))
    assert both_gone.ship("X2").active
    assert both_gone.ship("Y2").active
    assert special.game_over(both_gone) == "no ship left in play can take the stasis pod"
    assert special.decide(both_gone, {"red": 0, "blue": 0}) == ((), "nobody took the stasis pod off the board: a draw")
    # A held pod is still in play, whoever else is left.
    held = replace(both_gone, special=replace(pod_of(both_gone), holder="X2"))
    assert special.game_over(held) is None


def test_standing_counts_the_pod_held_and_the_way_it_has_come_home() -> None:
    # The search bot's yardstick: a quarter of the stake (every ship's kill points) for the grab, up to half
    # more as the holder nears its corner; nothing while nobody holds it.
    system = get_system("vv5")
    state = pod_game().state
    free = system.standing(state)
    held = replace(state, special=replace(pod_of(state), holder="X1"))
    x1 = held.ship("X1")
    corner = dict(pod_of(held).corners)[x1.side]
    at_body = held.with_ship(replace(x1, hex=pod_of(held).body.neighbour(Direction.A)))
    nearer = held.with_ship(replace(x1, hex=corner.neighbour(Direction.D, 4)))
    stake = 3 * sum(s.mass for s in state.ships if s.side in state.sides)
    whole = stake * PRESENCE  # every ship in the fight (the holder's side counts whole)
    assert free[x1.side] == whole  # too far from the pod for its approach to count
    assert whole + stake / 4 <= system.standing(at_body)[x1.side] < system.standing(nearer)[x1.side]
    assert system.standing(nearer)[x1.side] <= whole + stake * 3 / 4
    others = [side for side in state.sides if side != x1.side]
    assert all(system.standing(nearer)[side] == whole for side in others)
    lost = nearer.with_ship(replace(nearer.ship("X1"), status="destroyed"))
    red = sum(s.mass for s in state.ships_of(x1.side))
    assert system.standing(lost)[x1.side] == pytest.approx(whole * (red - x1.mass) / red)  # only X2 fights on
    assert system.result(nearer) is None  # progress is no score


def test_progress_counts_a_free_pod_by_how_well_each_side_is_set_up_to_grab_it() -> None:
    # Before anyone holds the pod, a side's traction ship is worth its next grab's chance (1D6 over its speed)
    # times the grab's quarter of the game when next to the pod, and a share of that on its way, less for
    # every hex still to go and every point of speed it could not shed before arriving.
    state = pod_game().state
    pod = pod_of(state)
    x1 = state.ship("X1")
    grab = 3 * sum(s.mass for s in state.ships if s.side in state.sides) / 4

    def placed(hexes: int, speed: int) -> dict[str, float]:
        at = pod.pod.neighbour(Direction.D, hexes)
        moved = state.with_ship(replace(x1, hex=at, velocity=Velocity.parse(f"A={speed}")))
        there = presence(moved, "")  # the same whatever the approach, as long as X1 can stop on the board
        return {side: value - there[side] for side, value in StasisPod().progress(moved).items()}

    assert placed(1, 1)[x1.side] == pytest.approx(grab * 5 / 6)
    assert placed(1, 6).get(x1.side, 0.0) == 0.0  # too fast: the die cannot beat 6
    assert placed(1, 1)[x1.side] > placed(3, 1)[x1.side] > placed(9, 1)[x1.side] > 0
    assert placed(9, 4)[x1.side] > placed(9, 7)[x1.side]  # arriving too fast to stop next to it
    assert placed(40, 1).get(x1.side, 0.0) == 0.0
    held = replace(state, special=replace(pod, holder="Y1"))
    assert StasisPod().progress(held)[x1.side] == presence(held, "Y1")[x1.side]  # once held, no approach counts


def test_a_ship_that_cannot_stop_on_the_board_no_longer_counts_in_the_fight_for_the_pod() -> None:
    # Only the pod wins, and no victory point counts a ship flown off the board: the search bot's yardstick
    # counts each side's ships still able to come to rest on the board, braking from now on.
    state = pod_game().state
    x2 = state.ship("X2")  # red's Dynamo, which carries no traction unit
    stake = 3 * sum(s.mass for s in state.ships if s.side in state.sides)
    assert resting_place(state, x2) is not None
    racing = state.with_ship(replace(x2, hex=Hex.parse("46,11"), velocity=Velocity.parse("B=9")))
    assert resting_place(racing, racing.ship("X2")) is None
    red = sum(s.mass for s in state.ships_of(x2.side))
    assert presence(racing, "")[x2.side] == pytest.approx(stake * PRESENCE * (red - x2.mass) / red)
    assert presence(racing, "")["blue"] == stake * PRESENCE
    # Racing away from the side that holds the pod costs nothing: it is on its way home.
    held = replace(racing, special=replace(pod_of(racing), holder="X1"))
    assert presence(held, "X1")[x2.side] == stake * PRESENCE


def test_a_ship_comes_to_rest_where_braking_as_hard_as_it_can_leaves_it() -> None:
    state = pod_game().state
    x1 = state.ship("X1")
    thrust = x1.acceleration.boxes
    start = Hex.parse("20,11")
    moving = replace(x1, hex=start, velocity=Velocity.toward(Direction.B, 2 * thrust))
    # 2G a turn: it coasts G hexes the turn it brakes, then stops.
    assert resting_place(state, moving) == start.neighbour(Direction.B, thrust)
    assert resting_place(state, replace(moving, velocity=Velocity())) == start
    drifting = replace(moving, acceleration=replace(moving.acceleration, boxes=0))
    assert resting_place(state, drifting) is None  # no thrust to brake with


def test_defence_platforms_shoot_the_nearest_and_drift() -> None:
    state = pod_game("adp").state
    adp = state.ship("ADP1")
    near = state.with_ship(replace(state.ship("X1"), hex=adp.hex.neighbour(Direction.A, 3)))
    events: list[Event] = []
    fired = platforms_fire(near, LoadedDice(2, 1, 5), events)  # 2D6 = 3 >= range 3: a hit for 5
    assert fired.gun_damage[-1].target == "X1"
    assert fired.gun_damage[-1].points == 5
    drifted = platforms_drift(state, LoadedDice(4), [])  # 4 = direction D
    assert drifted.ship("ADP1").hex == adp.hex.neighbour(Direction.D)


def test_missiles_at_a_platform_are_harder() -> None:
    state = pod_game("adp").state
    adp = state.ship("ADP1")
    shooter = replace(state.ship("X1"), hex=adp.hex.neighbour(Direction.D, 4), facing=Direction.A)
    state = replace(state.with_ship(shooter), phase="missiles", declare_order=("red", "blue"), declaring=0)
    system = get_system("vv5")
    after, _ = system.resolve(state, {"red": system.parse_order(state, "red", "X1 1>ADP1")}, LoadedDice(*[1] * 20))
    assert after.incoming[-1].to_hit == 7 + 1 + 1  # range 4, guns facing (a 360 turret), phasers


def test_bots_play_the_pod_scenario_to_an_end() -> None:
    from vectorwar.play import play_out

    for seed in range(3):
        game = play_out(builtin_scenario("vv5-stasis-pod"), {"red": "greedy", "blue": "greedy"}, seed)
        assert game.result is not None


def test_a_platform_without_phasers_gives_missiles_no_extra_step() -> None:
    state = pod_game("adp").state
    adp = state.ship("ADP1")
    silent = adp.with_mount(replace(adp.mounts[0], guns=replace(adp.mounts[0].guns, boxes=0)))
    shooter = replace(state.ship("X1"), hex=adp.hex.neighbour(Direction.D, 4), facing=Direction.A)
    state = replace(state.with_ship(shooter).with_ship(silent), phase="missiles", declare_order=("red", "blue"))
    system = get_system("vv5")
    after, _ = system.resolve(state, {"red": system.parse_order(state, "red", "X1 1>ADP1")}, LoadedDice(*[1] * 20))
    assert after.incoming[-1].to_hit == 7  # range 4: no guns facing, no phasers


def test_a_shot_is_never_deflected_onto_its_own_target() -> None:
    from vectorwar.systems.vv5.combat import ships_in_the_way

    state = pod_game().state
    x1, y1 = state.ship("X1"), state.ship("Y1")
    # Give Y1 a second hull hex on the line of fire, as the Ghost Ship has.
    near = replace(x1, hex=Hex.parse("10,10"), facing=Direction.A)
    far = replace(y1, hex=Hex.parse("10,6"), footprint=((0, 1),))  # and 10,7 below it
    state = state.with_ship(near).with_ship(far)
    assert ships_in_the_way(state, near.hex, far.hex) == [state.ship("Y1")]
    assert ships_in_the_way(state, near.hex, far.hex, "X1", "Y1") == []


@given(dq=st.integers(-5, 5), dr=st.integers(-5, 5), thrust=st.integers(1, 4))
def test_a_ship_comes_to_rest_as_far_along_its_drift_as_braking_takes_it(dq: int, dr: int, thrust: int) -> None:
    # The point where braking stops a ship lies ``braking_run`` hexes along its drift, so the hex nearest it is
    # that many hexes away. Rounding each axial coordinate on its own put a ship drifting (-1, -1) with 1G of
    # thrust back where it started, a hex short of where it stops.
    state = pod_game().state
    x1 = state.ship("X1")
    start = Hex.parse("20,11")
    ship = replace(x1, hex=start, velocity=Velocity(dq, dr), acceleration=replace(x1.acceleration, boxes=thrust))
    stop = resting_place(state, ship)
    run = braking_run(ship.velocity.speed, thrust)
    if run <= 8:  # well inside the board from the centre
        assert stop is not None
    if stop is not None:
        assert start.distance(stop) == run
