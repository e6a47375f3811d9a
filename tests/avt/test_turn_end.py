"""The end-of-turn procedure (A2.4, A5.39-A5.392): heat, reactors and radiators, in the text's order."""

from __future__ import annotations

import pytest

from vectorwar.errors import IllegalOrderError
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.systems.avt.events import (
    HeatDumped,
    HeatRecorded,
    RadiatorsSet,
    ReactorsSet,
    TurnEnded,
    VectorsResolved,
)
from vectorwar.systems.avt.ssd import radiator_tenths
from vectorwar.systems.avt.state import AVTState, Ship
from vectorwar.systems.avt.turn_end import STEPS, round_up

from .helpers import AVT, rafik_game, with_ship


def play(game: Game, *orders: str) -> list[Event]:
    events: list[Event] = []
    for text in orders:
        events.extend(game.submit("blue", text))
    return events


def finish_turn(game: Game, *first: str) -> list[Event]:
    """Give ``first`` as the next segments' orders, then hold to the end of the turn."""
    state: AVTState = game.state
    holds = ["hold"] * (8 - state.segment + 1 - len(first))
    return play(game, *first, *holds)


def rafik(game: Game) -> Ship:
    state: AVTState = game.state
    return state.ship("Rafik")


def card(game: Game) -> dict[str, str]:
    return dict(AVT.ship_cards(game.state)[0].rows)


def test_avt_a5_39_the_rafik_makes_3_heat_a_turn_into_its_15_heat_sinks() -> None:
    game = rafik_game()
    events = finish_turn(game)
    recorded = [e for e in events if isinstance(e, HeatRecorded)]
    assert [(e.generated_tenths, e.stored_tenths, e.capacity) for e in recorded] == [(30, 30, 15)]
    assert recorded[0].describe() == "Rafik records heat: reactors made 3 heat; 3 stored in 15 heat sinks"
    assert card(game)["heat stored"] == "3/15"
    assert card(game)["reactors"] == "on, +3 a segment"
    assert card(game)["radiators"] == "in, 1.2 a turn when out"
    assert card(game)["flex points"] == "1"
    finish_turn(game)
    assert rafik(game).heat_tenths == 60


def test_avt_a5_39_end_of_turn_steps_run_after_segment_8_in_the_texts_order() -> None:
    assert [name for name, _ in STEPS] == ["record heat", "dump heat", "reactors", "radiators"]
    game = rafik_game()
    with_ship(game, "Rafik", radiators="out")
    events = finish_turn(game)
    kinds = [
        type(e) for e in events if isinstance(e, TurnEnded | HeatRecorded | HeatDumped | ReactorsSet | RadiatorsSet)
    ]
    assert kinds == [TurnEnded, HeatRecorded, HeatDumped, ReactorsSet, RadiatorsSet]
    # The procedure comes between segment 8's movement and turn 2's first segment.
    texts = [e.describe() for e in events]
    assert texts.index("-- turn 1, segment 8 --") < texts.index("-- end of turn 1: record keeping --")
    assert texts.index("-- end of turn 1: record keeping --") < texts.index("-- turn 2, segment 1 --")
    state: AVTState = game.state
    assert (state.turn, state.segment) == (2, 1)


def test_avt_a5_391_each_radiator_dumps_0_4_so_the_rafiks_dump_1_2_and_fractions_stay() -> None:
    game = rafik_game()
    state: AVTState = game.state
    assert radiator_tenths(state.designs["rafik"]) == 12  # three radiators of 0.4 (A5.314: output 1.2)
    with_ship(game, "Rafik", radiators="out")
    events = finish_turn(game)
    dumped = [e for e in events if isinstance(e, HeatDumped)]
    assert [(e.dumped_tenths, e.stored_tenths) for e in dumped] == [(12, 18)]
    assert dumped[0].describe() == "Rafik's radiators dump 1.2 heat: 1.8 stored"
    finish_turn(game)
    assert rafik(game).heat_tenths == 36  # 1.8 + 3 - 1.2: nothing rounded while the radiators are out


def test_ruling_heat_rounding_only_new_heat_is_rounded_before_dumping() -> None:
    assert (round_up(18), round_up(30), round_up(1)) == (20, 30, 10)
    game = rafik_game()
    with_ship(game, "Rafik", radiators="out", reactors_on=False, heat_tenths=100)
    finish_turn(game)
    assert rafik(game).heat_tenths == 88
    finish_turn(game)
    # Rounding the store up before each dump would leave 9 - 1.2 = 7.8; fractions stay until retraction.
    assert rafik(game).heat_tenths == 76


def test_avt_a5_391_retracting_takes_a_turn_and_rounds_the_heat_left_up() -> None:
    game = rafik_game()
    with_ship(game, "Rafik", radiators="out", reactors_on=False, heat_tenths=18)
    events = finish_turn(game, "Rafik radiators in")
    assert rafik(game).radiators == "retracting"
    assert rafik(game).heat_tenths == 6  # dumped while still out this turn
    assert [e.describe() for e in events if isinstance(e, RadiatorsSet)] == ["Rafik's radiators retract during turn 2"]
    events = finish_turn(game)
    assert rafik(game).radiators == "in"
    assert not [e for e in events if isinstance(e, HeatDumped)]  # no dumping while retracting
    assert rafik(game).heat_tenths == 10  # 0.6 rounded up when the radiators are in
    assert card(game)["heat stored"] == "1/15"


def test_avt_a5_391_extending_takes_a_full_turn_cuts_the_engine_and_signals_surrender() -> None:
    game = rafik_game()
    events = finish_turn(game, "hold", "Rafik thrust 5", "Rafik radiators out")
    assert rafik(game).radiators == "extending"
    cut = [e for e in events if isinstance(e, VectorsResolved) and "radiators" in e.reason]
    assert len(cut) == 1
    assert rafik(game).chart.setting == 0
    assert not rafik(game).velocity.is_zero
    (extending,) = [e for e in events if isinstance(e, RadiatorsSet)]
    assert "surrender signal" in extending.describe()
    with pytest.raises(IllegalOrderError, match="thrusts only with them in"):
        game.submit("blue", "Rafik thrust 2")
    with pytest.raises(IllegalOrderError, match="a full turn either way"):
        game.submit("blue", "Rafik radiators in")
    events = finish_turn(game)
    assert rafik(game).radiators == "out"
    assert not [e for e in events if isinstance(e, HeatDumped)]  # out only from now on
    events = finish_turn(game)
    assert [e.dumped_tenths for e in events if isinstance(e, HeatDumped)] == [12]


def test_avt_a5_392_reactors_change_only_between_segment_8_and_segment_1() -> None:
    game = rafik_game()
    play(game, "hold", "Rafik reactors off")
    assert rafik(game).reactors_on
    assert card(game)["reactors"] == "on, +3 a segment (off next turn)"
    with_ship(game, "Rafik", battery=10)
    play(game, "hold")
    assert rafik(game).battery == 13  # still on for the rest of this turn
    events = finish_turn(game)
    assert [e.describe() for e in events if isinstance(e, ReactorsSet)] == [
        "Rafik turns its reactors off (no power, no heat) for turn 2"
    ]
    assert rafik(game).heat_tenths == 30  # they were on during turn 1
    battery = rafik(game).battery
    events = finish_turn(game, "Rafik reactors on")
    assert rafik(game).battery == battery  # off: no power all turn 2
    assert [e.generated_tenths for e in events if isinstance(e, HeatRecorded)] == [0]  # and no heat
    assert rafik(game).reactors_on
    assert rafik(game).heat_tenths == 30


def test_ruling_end_of_turn_choices_are_written_with_segment_orders_and_the_last_one_stands() -> None:
    game = rafik_game()
    order = game.parse("blue", "rafik REACTOR off, radiator OUT")
    assert str(order) == "Rafik reactors off, radiators out"
    assert game.parse("blue", str(order)) == order
    play(game, str(order))
    assert (rafik(game).reactors_next, rafik(game).radiators_next) == (False, "out")
    assert card(game)["radiators"] == "in, 1.2 a turn when out (out ordered)"
    play(game, "Rafik reactors on, radiators in")  # changing one's mind before the turn ends
    assert (rafik(game).reactors_next, rafik(game).radiators_next) == (None, None)
    finish_turn(game)
    assert (rafik(game).reactors_on, rafik(game).radiators) == (True, "in")


def test_avt_radiator_orders_are_checked() -> None:
    game = rafik_game()
    with pytest.raises(IllegalOrderError, match="already in"):
        game.submit("blue", "Rafik radiators in")
    with_ship(game, "Rafik", radiators="out")
    with pytest.raises(IllegalOrderError, match="thrusts only with them in"):
        game.submit("blue", "Rafik thrust 1")
    game.submit("blue", "Rafik thrust 0")


def test_avt_heat_beyond_the_heat_sinks_is_recorded_as_excess() -> None:
    game = rafik_game()
    with_ship(game, "Rafik", heat_tenths=140)
    events = finish_turn(game)
    (recorded,) = [e for e in events if isinstance(e, HeatRecorded)]
    assert recorded.describe().endswith("17 stored in 15 heat sinks, 2 over: excess heat")
    assert card(game)["heat stored"] == "17/15 (2 excess)"


def test_avt_targets_keep_no_end_of_turn_records() -> None:
    game = rafik_game()
    events = finish_turn(game)
    assert {e.ship for e in events if isinstance(e, HeatRecorded | ReactorsSet | RadiatorsSet)} == {"Rafik"}
