"""VV5 scenarios 4, 6 and 7 for more than two players (the text allows it for all three).

Set-ups: the stasis pod and the alien starship put red and blue in opposite
corners (top left, bottom right), a third side in the top right corner and a
fourth in the bottom left; the Ghost Ship puts red and blue in the two bottom
corners and a third side in the top left corner.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.dice import Dice
from vectorwar.events import Rolled
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.vv5.specials.alien_starship import AlienStarship
from vectorwar.systems.vv5.specials.boarding import board, troopers_lost
from vectorwar.systems.vv5.specials.ghost_ship import GhostShip
from vectorwar.systems.vv5.specials.pod import StasisPod
from vectorwar.systems.vv5.state import PodState, VV5State
from vectorwar.vectors import Velocity

from .conftest import LoadedDice

BOARD_CORNERS = {"A": Hex.from_offset(0, 0), "E": Hex.from_offset(49, 0), "K": Hex.from_offset(0, 23)}
BOARD_CORNERS["O"] = Hex.from_offset(49, 23)
SETUPS = {
    "vv5-stasis-pod-3": {"red": "A", "blue": "O", "green": "E"},
    "vv5-stasis-pod-4": {"red": "A", "blue": "O", "green": "E", "yellow": "K"},
    "vv5-alien-starship-3": {"red": "A", "blue": "O", "green": "E"},
    "vv5-ghost-ship-3": {"red": "K", "blue": "O", "green": "A"},
}


def new_state(name: str, seed: int = 1, **special: object) -> VV5State:
    data = builtin_scenario(name).to_data()
    data["special"].update(special)
    state = Game.new(get_system("vv5"), scenario_from_data(data, "test"), seed).state
    assert isinstance(state, VV5State)
    return state


def pod_of(state: VV5State) -> PodState:
    assert isinstance(state.special, PodState)
    return state.special


def corners_of(state: VV5State) -> dict[str, Hex]:
    special = state.special
    assert special is not None
    assert hasattr(special, "corners")
    return dict(special.corners)


# -- set-up -----------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SETUPS))
def test_every_side_starts_within_three_hexes_of_its_own_corner(name: str) -> None:
    state = new_state(name)
    assert state.sides[: len(SETUPS[name])] == tuple(SETUPS[name])
    corners = corners_of(state)
    for side, corner in SETUPS[name].items():
        assert corners[side] == BOARD_CORNERS[corner]  # the pod / log goes home to this corner
        ships = state.ships_of(side)
        assert ships
        for ship in ships:
            assert ship.hex.distance(corners[side]) <= 3
            assert ship.velocity.speed == 1
            middle = Hex.from_offset(25, 12)
            assert ship.vector_marker.distance(middle) < ship.hex.distance(middle)  # heading inward
    assert len(set(corners.values())) == len(corners)


@pytest.mark.parametrize("name", ["vv5-stasis-pod-3", "vv5-stasis-pod-4"])
def test_every_sides_harpy_carries_a_traction_unit(name: str) -> None:
    state = new_state(name, feature="asteroid")
    grabbers = {s.side for s in state.ships if "traction" in s.loadout}
    assert grabbers == set(SETUPS[name])


@pytest.mark.parametrize("name", ["vv5-ghost-ship-3", "vv5-alien-starship-3"])
def test_the_third_sides_transport_is_rolled_for_too(name: str) -> None:
    seen = set()
    for seed in range(10):
        g = Game.new(get_system("vv5"), builtin_scenario(name), seed)
        roll = next(e for e in g.events if isinstance(e, Rolled) and e.purpose == "which transport green gets")
        design = g.state.ship("T3").design
        assert design == ("courier" if roll.total <= 3 else "hauler")
        seen.add(design)
    assert seen == {"courier", "hauler"}


# -- the stasis pod with three and four sides ---------------------------------------


def _beside_pod(state: VV5State, ship_id: str, speed: int, side_of_pod: Direction) -> VV5State:
    ship = state.ship(ship_id)
    where = pod_of(state).pod.neighbour(side_of_pod)
    return state.with_ship(replace(ship, hex=where, velocity=Velocity.toward(Direction.A, speed)))


def test_a_three_way_grab_is_rolled_off_until_one_side_is_left() -> None:
    state = new_state("vv5-stasis-pod-3", feature="asteroid")
    state = _beside_pod(state, "X1", 1, Direction.C)
    state = _beside_pod(state, "Y1", 1, Direction.D)
    state = _beside_pod(state, "Z1", 1, Direction.A)
    # All three grab (6s); roll-off X1 3, Y1 5, Z1 5; again Y1 2, Z1 6.
    after = StasisPod().boarding(state, LoadedDice(6, 6, 6, 3, 5, 5, 2, 6), [])
    assert pod_of(after).holder == "Z1"


def test_the_fastest_of_three_grabbers_gets_the_pod() -> None:
    state = new_state("vv5-stasis-pod-3", feature="asteroid")
    state = _beside_pod(state, "X1", 1, Direction.C)
    state = _beside_pod(state, "Y1", 3, Direction.D)
    state = _beside_pod(state, "Z1", 2, Direction.A)
    assert pod_of(StasisPod().boarding(state, LoadedDice(6, 6, 6), [])).holder == "Y1"


@pytest.mark.parametrize(
    ("name", "holder", "exit_at", "winners"),
    [
        ("vv5-stasis-pod-3", "Z1", "E@7,0", ("green",)),  # green home in the top right
        ("vv5-stasis-pod-3", "Z1", "A@2,0", ()),  # green off near red's corner: a draw
        ("vv5-stasis-pod-4", "W1", "K@2,7", ("yellow",)),  # yellow home in the bottom left
        ("vv5-stasis-pod-4", "Z1", "K@2,7", ()),
    ],
)
def test_third_and_fourth_sides_take_the_pod_home_to_their_own_corner(
    name: str, holder: str, exit_at: str, winners: tuple[str, ...]
) -> None:
    state = new_state(name, feature="asteroid")
    edge = state.map.locate(exit_at)
    off = edge.neighbour(Direction.A if edge.row == 0 else Direction.D)
    state = state.with_ship(replace(state.ship(holder), hex=off, status="exited"))
    state = replace(state, special=replace(pod_of(state), holder=holder))
    special = StasisPod()
    state = special.after_movement(state, Dice(1), [])
    assert special.game_over(state) is not None
    verdict = special.decide(state, dict.fromkeys(state.sides, 0))
    assert verdict is not None
    assert verdict[0] == winners


# -- the ghost ship with three sides ------------------------------------------------


def test_the_third_side_takes_the_log_home_to_the_top_corner() -> None:
    state = new_state("vv5-ghost-ship-3", transport="fixed")
    state = replace(state, special=replace(board(state), log=("green",), carriers=("Z1", "T3")))
    near_red = state.with_ship(replace(state.ship("Z1"), hex=Hex.from_offset(2, 24), status="exited"))
    assert GhostShip().game_over(GhostShip().after_movement(near_red, Dice(1), [])) is None  # T3 still holds it
    home = state.with_ship(replace(state.ship("Z1"), hex=Hex.from_offset(2, -1), status="exited"))
    after = GhostShip().after_movement(home, Dice(1), [])
    assert GhostShip().game_over(after) is not None
    verdict = GhostShip().decide(after, {})
    assert verdict is not None
    assert verdict[0] == ("green",)


def test_a_green_transport_boards_the_ghost_ship_alongside_the_others() -> None:
    state = new_state("vv5-ghost-ship-3", transport="fixed")
    ghost = state.ship("GS")
    state = state.with_ship(replace(state.ship("T3"), hex=ghost.hex.neighbour(Direction.F), velocity=ghost.velocity))
    state = state.with_ship(
        replace(state.ship("T1"), hex=ghost.hexes[1].neighbour(Direction.C), velocity=ghost.velocity)
    )
    # Both parties of six fight (12 dice, no 6s), then each needs a 2 on 2D6: green 1+1 does, red 4+4 does not.
    after = GhostShip().boarding(state, LoadedDice(*[1] * 12, 1, 1, 4, 4), [])
    assert board(after).aboard == (("green", 6), ("red", 6))
    assert board(after).log == ("green",)
    assert {"T3", "Z1", "Z2"} <= set(board(after).carriers)


# -- the alien starship with three sides --------------------------------------------


def test_three_parties_fight_aboard_the_ancient_starship() -> None:
    state = new_state("vv5-alien-starship-3", transport="fixed")
    state = replace(state, special=replace(board(state), aboard=(("blue", 2), ("green", 3), ("red", 1))))
    # Blue 1, 1; green 6, 6, 1 (both kills fall on the largest enemy party: blue, then blue
    # again on the tie with red); red 1. Then green (1+1) and red (3+3) search.
    after = AlienStarship().boarding(state, LoadedDice(1, 1, 6, 6, 1, 1, 1, 1, 3, 3), [])
    b = board(after)
    assert dict(b.aboard) == {"blue": 0, "green": 3, "red": 1}
    assert b.lost == (("blue", 2),)
    assert b.log == ("green",)
    assert AlienStarship().game_over(after) is not None
    verdict = AlienStarship().decide(after, dict.fromkeys(after.sides, 0))
    assert verdict is not None
    assert verdict[0] == ("green",)


def test_every_other_side_scores_a_third_sides_lost_troopers() -> None:
    state = new_state("vv5-alien-starship-3", transport="fixed")
    state = replace(state, special=replace(board(state), lost=(("green", 2),)))
    assert troopers_lost(state) == {"red": 0, "blue": 0, "green": 2}
    points = AlienStarship().score(state, dict.fromkeys(state.sides, 0))
    assert points == {"red": 10, "blue": 10, "green": 0}


# -- bots -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(SETUPS))
@pytest.mark.parametrize("bots", ["greedy", "random", "mixed"])
def test_multiplayer_scenarios_play_to_the_end_with_bots(name: str, bots: str) -> None:
    sides = list(SETUPS[name])
    controllers = {s: (bots if bots != "mixed" else ("greedy", "random")[i % 2]) for i, s in enumerate(sides)}
    game = play_out(builtin_scenario(name), controllers, seed=2)
    assert game.result is not None
    assert set(game.result.winners) <= set(sides)
    assert set(game.result.scores) == set(sides)
