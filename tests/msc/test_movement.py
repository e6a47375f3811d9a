"""MSC 6.0 Movement: SPEED, acceleration, moving a ship, and the rulings around them."""

from __future__ import annotations

import itertools
from dataclasses import replace
from typing import Any

import pytest

from vectorwar.errors import IllegalOrderError, ScenarioError
from vectorwar.events import Event, Moved
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.systems.msc.movement import allowed_speeds, check_move, sequences, trace
from vectorwar.systems.msc.orders import Move

from .helpers import MSC, make_scenario, new_game


def duel(speed: int = 2, design: str = "ship1", at: str = "5,5", facing: str = "A", **kwargs: Any) -> Game:
    """Red's Hawk (Ship 1, ENGINE 3 unless ``design`` says otherwise) and a distant blue Raven."""
    return new_game(
        [("red", "Hawk", design, at, facing, speed), ("blue", "Raven", "ship1", "18,12", "A", 0)],
        **kwargs,
    )


def moved(events: list[Event], ship_id: str) -> Moved:
    return next(e for e in events if isinstance(e, Moved) and e.ship == ship_id)


# -- the text's example -------------------------------------------------------------


def test_msc_6_0_example_2L1_on_the_map() -> None:
    """ "2L1": two hexes forward, one hexside left, one hex forward.

    From 5,5 facing A (up): 5,4 then 5,3; the left turn faces F (up-left);
    column 5 is odd, so it sits half a hex below column 4 and the hex up-left
    of 5,3 is 4,3.
    """
    game = duel(speed=3, design="ship3")  # ENGINE 4: SPEED 4 is within 1 of 3
    game.submit("red", "Hawk 2L1")
    events = game.submit("blue", "Raven 0")
    m = moved(events, "Hawk")
    assert [str(p) for p in m.path] == ["5,5", "5,4", "5,3", "4,3"]
    assert m.facing is Direction.F
    hawk = game.state.ship("Hawk")
    assert (str(hawk.hex), hawk.facing, hawk.speed) == ("4,3", Direction.F, 4)


def test_msc_6_0_example_2L1_from_an_even_column() -> None:
    """Same move from 4,5: column 4 sits half a hex above column 3, so the last step ends at 3,2."""
    path, facing = trace(Hex.parse("4,5"), Direction.A, Move.parse("2L1"))
    assert [str(h) for h in path] == ["4,5", "4,4", "4,3", "3,2"]
    assert facing is Direction.F


@pytest.mark.parametrize(
    ("start", "move", "end"),
    [
        (Direction.A, "L", Direction.F),
        (Direction.A, "R", Direction.B),
        (Direction.F, "R", Direction.A),
        (Direction.C, "1L1L1", Direction.A),
        (Direction.D, "R1R1R", Direction.A),
    ],
)
def test_msc_6_0_a_turn_is_one_hexside(start: Direction, move: str, end: Direction) -> None:
    path, facing = trace(Hex(0, 0), start, Move.parse(move))
    assert facing is end
    assert len(path) == 1 + Move.parse(move).steps.count("F")


def test_msc_6_0_forward_moves_along_the_facing() -> None:
    """Down-right (C) from odd column 5 enters 6,6 (column 6 sits half a hex higher), then 7,6, then 8,7."""
    path, facing = trace(Hex.parse("5,5"), Direction.C, Move.parse("3"))
    assert [str(h) for h in path] == ["5,5", "6,6", "7,6", "8,7"]
    assert facing is Direction.C


def test_msc_6_0_speed_0_stays_put() -> None:
    game = duel(speed=0)
    game.submit("red", "Hawk 0")
    game.submit("blue", "Raven 0")
    hawk = game.state.ship("Hawk")
    assert (str(hawk.hex), hawk.facing, hawk.speed) == ("5,5", Direction.A, 0)


# -- SPEED ---------------------------------------------------------------------------


def test_msc_6_0_starting_speed_may_not_exceed_engine() -> None:
    ok = make_scenario([("red", "Hawk", "ship1", "5,5", "A", 3), ("blue", "Raven", "ship1", "9,9", "A", 0)])
    assert MSC.new_state(ok, {}).ship("Hawk").speed == 3
    bad = make_scenario([("red", "Hawk", "ship1", "5,5", "A", 4), ("blue", "Raven", "ship1", "9,9", "A", 0)])
    with pytest.raises(ScenarioError, match=r"sides\.0\.ships\.0\.speed: starting SPEED 4 is above ENGINE 3"):
        MSC.new_state(bad, {})


def test_ruling_starting_speed_is_the_speed_before_turn_1() -> None:
    """docs/rulings/msc.md "Starting SPEED": turn 1's plot may differ from the scenario's SPEED by at most 1."""
    game = duel(speed=0, design="battleship")  # ENGINE 5, starting at rest
    assert list(allowed_speeds(game.state.ship("Hawk"))) == [0, 1]
    with pytest.raises(IllegalOrderError, match="last turn 0, so 0-1"):
        game.check("red", "Hawk 2")


def test_ruling_ships_may_share_a_hex() -> None:
    """docs/rulings/msc.md "Stacking": no collisions; two ships may end their moves in one hex."""
    game = new_game([("red", "Hawk", "ship1", "5,5", "A", 1), ("blue", "Raven", "ship1", "5,3", "D", 1)])
    game.submit("red", "Hawk 1")
    game.submit("blue", "Raven 1")
    assert game.state.ship("Hawk").hex == game.state.ship("Raven").hex == Hex.parse("5,4")


def test_msc_6_0_speed_may_never_exceed_engine() -> None:
    game = duel(speed=3)  # Ship 1: ENGINE 3
    with pytest.raises(IllegalOrderError, match="SPEED 4 is above ENGINE 3") as err:
        game.check("red", "Hawk 4")
    assert err.value.rule.startswith("MSC 6.0")
    game.check("red", "Hawk 3")


def test_msc_6_0_speed_changes_by_at_most_1_a_turn() -> None:
    game = duel(speed=2, design="battleship")  # ENGINE 5
    assert list(allowed_speeds(game.state.ship("Hawk"))) == [1, 2, 3]
    for text in ("Hawk 1", "Hawk 2", "Hawk 3"):
        game.check("red", text)
    for text in ("Hawk 0", "Hawk 4", "Hawk 5"):
        with pytest.raises(IllegalOrderError, match="SPEED may change by 1 a turn: last turn 2, so 1-3"):
            game.check("red", text)


def test_msc_6_0_speed_change_is_from_last_turns_plotted_speed() -> None:
    game = duel(speed=2, design="battleship")
    game.submit("red", "Hawk 3")
    game.submit("blue", "Raven 0")
    assert game.state.ship("Hawk").speed == 3
    game.check("red", "Hawk 4")
    with pytest.raises(IllegalOrderError):
        game.check("red", "Hawk 5")


def test_msc_6_0_all_speed_must_be_spent() -> None:
    """A plot is its steps; a SPEED 3 ship cannot plot a 1-step move."""
    game = duel(speed=3)  # SPEED 3 may become 2-3
    with pytest.raises(IllegalOrderError, match="all SPEED must be used"):
        game.check("red", "Hawk 1")
    game.check("red", "Hawk 1L1")  # three steps: forward, turn, forward


def test_ruling_engine_damage_forces_a_bigger_slow_down() -> None:
    """docs/rulings/msc.md "Engine damage below current SPEED": the ENGINE cap wins over the 1-a-turn limit."""
    game = duel(speed=3)
    hawk = game.state.ship("Hawk")
    crippled = replace(hawk, engine=1)
    assert list(allowed_speeds(crippled)) == [1]
    check_move(crippled, Move.parse("1"), strict_turn_spacing=False)
    with pytest.raises(IllegalOrderError, match="SPEED 2 is above ENGINE 1"):
        check_move(crippled, Move.parse("2"), strict_turn_spacing=False)
    assert list(allowed_speeds(replace(hawk, engine=0))) == [0]
    assert list(allowed_speeds(replace(hawk, engine=2))) == [2]  # SPEED - 1 == ENGINE: no extra drop
    assert list(allowed_speeds(replace(hawk, engine=3))) == [2, 3]
    # Through the game: the state's damaged ENGINE governs the next plot.
    game.state = game.state.with_ship(crippled)
    with pytest.raises(IllegalOrderError, match="above ENGINE 1"):
        game.check("red", "Hawk 2")
    game.check("red", "Hawk 1")


# -- turning ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["1LR", "LR1", "1RL1", "LL1"])
def test_msc_6_0_no_two_turns_in_a_row(text: str) -> None:
    game = duel(speed=3, design="battleship")
    with pytest.raises(IllegalOrderError, match="may not turn twice in a row") as err:
        game.check("red", f"Hawk {text}")
    assert err.value.rule == "MSC 6.0 Moving a Ship"


@pytest.mark.parametrize("text", ["L1R", "1L1", "L2", "2R", "R1L"])
def test_ruling_turns_may_start_or_end_a_move(text: str) -> None:
    """docs/rulings/msc.md "Turns at the start and end of a move": one hex forward between turns suffices."""
    duel(speed=3).check("red", f"Hawk {text}")


def test_ruling_a_move_of_only_a_turn() -> None:
    """docs/rulings/msc.md "A move that is only a turn": SPEED 1 may be spent on one turn, "L"."""
    game = duel(speed=1)
    game.submit("red", "Hawk L")
    game.submit("blue", "Raven 0")
    hawk = game.state.ship("Hawk")
    assert (str(hawk.hex), hawk.facing, hawk.speed) == ("5,5", Direction.F, 1)


def test_ruling_turns_either_side_of_the_turn_boundary_are_allowed_by_default() -> None:
    """docs/rulings/msc.md, *Turns at the start and end of a move*: "1L" then "L1" next turn is legal unless
    strict_turn_spacing is on."""
    game = duel(speed=2)
    game.submit("red", "Hawk 1L")
    game.submit("blue", "Raven 0")
    game.check("red", "Hawk L1")


def test_house_rule_strict_turn_spacing_forbids_a_turn_on_each_side_of_the_boundary() -> None:
    """Option strict_turn_spacing (docs/rulings/msc.md): a move ending with a turn is followed by a forward step."""
    game = duel(speed=2, options={"strict_turn_spacing": True})
    game.check("red", "Hawk L1")  # nothing before turn 1's move
    game.submit("red", "Hawk 1L")
    game.submit("blue", "Raven 0")
    with pytest.raises(IllegalOrderError, match="strict_turn_spacing"):
        game.check("red", "Hawk L1")
    with pytest.raises(IllegalOrderError, match="strict_turn_spacing"):
        game.check("red", "Hawk R")
    game.check("red", "Hawk 1L")
    game.submit("red", "Hawk 2")
    game.submit("blue", "Raven 0")
    game.check("red", "Hawk L1")  # last move ended going forward


def test_house_rule_strict_turn_spacing_is_off_by_default() -> None:
    assert MSC.manifest.option("strict_turn_spacing").default is False


def test_msc_6_0_sequences_are_exactly_the_legal_step_lists() -> None:
    """Every step list of the right length without two turns in a row, each once (checked by brute force)."""
    for speed in range(6):
        brute = {
            steps
            for steps in itertools.product("FLR", repeat=speed)
            if not any(a != "F" and b != "F" for a, b in itertools.pairwise(steps))
        }
        got = sequences(speed)
        assert len(got) == len(set(got)) == len(brute)
        assert set(got) == brute


def test_msc_6_0_random_orders_are_always_legal() -> None:
    """The random player draws only from moves the checks accept (all speeds, every shape)."""
    import random

    game = duel(speed=2, design="battleship", at="10,7")
    rng = random.Random(3)
    seen = set()
    for _ in range(200):
        order = MSC.random_order(game.state, "red", rng)
        MSC.check_order(game.state, "red", order)
        seen.add(str(order))
    assert {"Hawk 1", "Hawk L", "Hawk R"} <= seen
    assert any(len(Move.parse(s.split()[1]).steps) == 3 for s in seen)
