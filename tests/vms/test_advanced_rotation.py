"""The Advanced Rotation Variant as the plug-in's option ``vms_advanced_rotation``, played through the game."""

from __future__ import annotations

import json
import random

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError
from vectorwar.game import Game
from vectorwar.hexes import Direction
from vectorwar.play import play_out
from vectorwar.savefile import game_from_data, game_to_data
from vectorwar.systems.vms.events import CourseSet
from vectorwar.systems.vms.orders import MovePlot
from vectorwar.systems.vms.state import VMSState

from .game_helpers import DESIGNS, VMS, design, new_game

ADVANCED = {"vms_advanced_rotation": True}
# The text's example: 10 thrust starts one hexside/turn.
SPINNER = design(
    name="Spinner",
    thrust=20,
    pivot_cost="10+10",
    thrusters=[{"side": s, "rating": 10} for s in ("forward", "aft", "port", "starboard")],
)
SPIN_DESIGNS = {**DESIGNS, "spinner": SPINNER}
SHIPS = [("red", "Spin", "spinner", "10,20", "A", "0"), ("blue", "Hulk", "target", "25,3", "D", "0")]


def state_of(game: Game) -> VMSState:
    assert isinstance(game.state, VMSState)
    return game.state


def finish_turn(game: Game, red_plot: str = "Spin drift") -> None:
    """Plot ``red_plot`` for red, let blue drift, hold fire, until the next turn begins."""
    turn = state_of(game).turn
    while not game.is_over and state_of(game).turn == turn:
        side = game.waiting_for[0]
        state = state_of(game)
        if state.phase == "fire":
            game.submit(side, "hold")
        elif side == "red":
            game.submit(side, red_plot)
        else:
            game.submit(side, "; ".join(f"{s.id} drift" for s in VMS.movers(state, side)))


def last_turned(game: Game) -> int:
    """Hexsides Spin turned in its last move (the ship's own count is cleared when the next turn begins)."""
    return next(e for e in reversed(game.events) if isinstance(e, CourseSet) and e.ship == "Spin").hexsides_turned


def card_row(game: Game, ship: str, key: str) -> str:
    card = next(c for c in VMS.ship_cards(state_of(game)) if c.title.startswith(f"{ship}:"))
    return dict(card.rows)[key]


def test_advanced_rotation_example_played_through_the_game() -> None:
    """The text's 10/15/20 example: 15 points at a start cost of 10 turn 1 hexside, then 2 (5 + 15 = 20)."""
    game = new_game(SHIPS, designs=SPIN_DESIGNS, options=ADVANCED, max_turns=5)
    finish_turn(game, "Spin port1:rot=10 starboard1:rot=5 R15")
    ship = state_of(game).ship("Spin")
    assert (ship.facing, last_turned(game)) == (Direction.B, 1)
    assert (
        card_row(game, "Spin", "rotation") == "1.5 hexsides/turn right; 5 of 10 points carried toward the next hexside"
    )
    finish_turn(game)  # no rotational thrust: momentum alone
    ship = state_of(game).ship("Spin")
    assert (ship.facing, last_turned(game)) == (Direction.D, 2)
    assert card_row(game, "Spin", "rotation").endswith("0 of 10 points carried toward the next hexside")
    finish_turn(game)
    assert state_of(game).ship("Spin").facing == Direction.E  # 1 more, 5 carried again


def test_advanced_rotation_stop_points_slow_by_part_of_a_hexside() -> None:
    game = new_game(SHIPS, designs=SPIN_DESIGNS, options=ADVANCED, max_turns=5)
    finish_turn(game, "Spin port1:rot=10 starboard1:rot=5 R15")
    finish_turn(game, "Spin port1:rot=5 L5")  # 1.5 down to 1: 5 carried + 10 turns 1 hexside
    ship = state_of(game).ship("Spin")
    assert (ship.facing, ship.rotation, last_turned(game)) == (Direction.C, 1, 1)
    assert card_row(game, "Spin", "rotation").startswith("1 hexsides/turn right; 5 of 10")


def test_advanced_rotation_points_must_be_paid_and_the_option_is_off_by_default() -> None:
    game = new_game(SHIPS, designs=SPIN_DESIGNS, options=ADVANCED)
    assert game.prompt is not None
    assert "R15/L15 is its rotational points" in game.prompt.help
    before = game.state
    with pytest.raises(IllegalOrderError, match="needs 15 rotational points, the burns give 10"):
        game.submit("red", "Spin port1:rot=10 R15")
    assert game.state == before
    basic = new_game(SHIPS, designs=SPIN_DESIGNS)
    # Without the variant R15 is fifteen hexsides/turn, far beyond 20 thrust.
    with pytest.raises(IllegalOrderError, match="rotational points"):
        basic.submit("red", "Spin port1:rot=10 starboard1:rot=5 R15")


def test_advanced_rotation_state_survives_a_save() -> None:
    game = new_game(SHIPS, designs=SPIN_DESIGNS, options=ADVANCED)
    finish_turn(game, "Spin port1:rot=10 starboard1:rot=5 R15")
    loaded, _ = game_from_data(json.loads(json.dumps(game_to_data(game))), "test")
    assert loaded.state == game.state
    ship = state_of(game).ship("Spin")
    assert (ship.spin_rate, ship.spin_carried) == (150, 50)  # units of 1/100 hexside


def test_move_options_and_random_orders_are_legal_under_the_variant() -> None:
    game = new_game(SHIPS, designs=SPIN_DESIGNS, options=ADVANCED)
    finish_turn(game, "Spin port1:rot=10 starboard1:rot=5 R15")
    state = state_of(game)
    options = VMS.move_options(state, "red")["Spin"]
    texts = {o.text for o in options}
    assert "Spin port1:rot=5 L5" in texts  # a part-hexside change is offered
    for option in options:
        VMS.check_order(state, "red", VMS.parse_order(state, "red", option.text))
    rng = random.Random(3)
    for _ in range(20):
        order = VMS.random_order(state, "red", rng)
        assert isinstance(order, MovePlot)
        VMS.check_order(state, "red", order)


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("scenario", ["vms-capital-duel-msc", "vms-mixed-fleet-vv5"])
def test_bots_play_to_the_end_with_the_variant(scenario: str, seed: int) -> None:
    game = play_out(builtin_scenario(scenario), {"red": "greedy", "blue": "random"}, seed, ADVANCED)
    assert game.is_over
    state = state_of(game)
    assert state.options["vms_advanced_rotation"] is True
    # Whole hexsides on the record always agree with the exact rate kept for the variant.
    for ship in state.ships:
        if ship.spec.pivot_cost is not None:
            unit = ship.spec.pivot_cost.start * ship.spec.pivot_cost.stop
            assert ship.rotation == int(ship.spin_rate / unit)
