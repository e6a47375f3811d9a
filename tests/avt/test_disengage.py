"""Option ``disengagement``: sides that can no longer reach each other end the game, a draw, and the log says why;
a ship that drifts away from ``greedy`` is caught or the game ends that way."""

from __future__ import annotations

import random

import pytest

from tests.avt.helpers import AVT, make_scenario, with_ship
from vectorwar.catalogue import builtin_scenario
from vectorwar.events import GameOver, Note
from vectorwar.game import Game
from vectorwar.hexes import Direction, Position
from vectorwar.systems.avt.bots import GreedyBot
from vectorwar.systems.avt.disengage import Reach, closest_approach, disengaged
from vectorwar.systems.avt.state import AVTState
from vectorwar.vectors import Velocity

DUELS = ("avt-duel-wasp", "avt-duel-rafik")


def _hold_until_turn_break(game: Game) -> None:
    """Both sides hold for the rest of the turn: the check is made at the turn break."""
    turn = game.state.turn
    while not game.is_over and game.state.turn == turn:
        for side in game.waiting_for:
            game.submit(side, "hold")
            if game.is_over:
                break


def _apart(turns: int, fuel: int, speed: int, max_turns: int = 10) -> Game:
    """Two Rafiks 40 hexes apart, Sultan drifting away at ``speed`` hexes a turn, both with ``fuel`` units."""
    ships = [
        ("blue", "Rafik", "rafik", "20,60", "A", "0", 0),
        ("red", "Sultan", "rafik", "20,20", "D", f"A={speed}" if speed else "0", 0),
    ]
    scenario = make_scenario(ships, options={"disengagement": turns}, max_turns=max_turns, width=40, height=80)
    game = Game.new(AVT, scenario, 0)
    for ship in ("Rafik", "Sultan"):
        with_ship(game, ship, fuel=fuel)
    return game


def test_the_option_is_off_by_default_and_the_duels_set_it() -> None:
    assert AVT.manifest.option("disengagement").default == 0
    for duel in DUELS:
        assert Game.new(AVT, builtin_scenario(duel), 0).state.options["disengagement"] == 3
    assert Game.new(AVT, builtin_scenario("avt-damage"), 0).state.options["disengagement"] == 0


def test_a_burn_credits_full_thrust_until_the_fuel_is_gone() -> None:
    reach = Reach(accel=10.0, delta_v=20.0)
    assert reach.displacement(1.0) == pytest.approx(5.0)  # half a t squared while fuel lasts
    assert reach.displacement(2.0) == pytest.approx(20.0)
    assert reach.displacement(3.0) == pytest.approx(40.0)  # then coasting at the 20 hexes a turn gained
    assert Reach(10.0, 0.0).displacement(3.0) == 0.0


def test_ships_without_fuel_drifting_apart_out_of_range_are_disengaged() -> None:
    game = _apart(3, fuel=0, speed=10)
    state: AVTState = game.state
    # Drifting apart the gap only grows: the bound is the gap now, less a segment's drift for the sampling.
    assert closest_approach(state, state.ship("Rafik"), state.ship("Sultan"), 3) == pytest.approx(40.0 - 10 / 8)
    pairs = disengaged(state)
    assert pairs is not None
    assert [(p.first, p.second) for p in pairs] == [("Rafik", "Sultan")]
    _hold_until_turn_break(game)
    assert game.is_over
    result = game.result
    assert result is not None
    assert result.winners == ()
    assert result.reason.startswith("disengaged: out of laser range and unable to close within 3 turns")
    over = [e for e in game.events if isinstance(e, GameOver)]
    assert len(over) == 1
    assert over[0].reason == result.reason
    notes = [e.text for e in game.events if isinstance(e, Note)]
    assert any(n.startswith("Rafik and Sultan are") and "lasers reach 30" in n for n in notes)


def test_fuel_to_close_with_keeps_the_game_going() -> None:
    # Full tanks: both could burn toward each other and be in range well within 3 turns.
    game = _apart(3, fuel=105, speed=10)
    assert disengaged(game.state) is None
    _hold_until_turn_break(game)
    assert not game.is_over


def test_drifting_toward_each_other_is_not_disengaged_when_the_gap_closes_in_time() -> None:
    # No fuel, but Sultan drifts toward the Rafik at 5 hexes a turn: 25 hexes apart, in range, by turn 3.
    game = _apart(3, fuel=0, speed=0)
    with_ship(game, "Sultan", velocity=Velocity.toward(Direction.D, 5))
    assert disengaged(game.state) is None
    # Given one turn only, the same drift cannot close the 40 hexes to 30 (plus the margin): disengaged.
    one = _apart(1, fuel=0, speed=0)
    with_ship(one, "Sultan", velocity=Velocity.toward(Direction.D, 5))
    assert disengaged(one.state) is not None


def test_within_laser_range_is_never_disengaged() -> None:
    game = _apart(3, fuel=0, speed=10)
    rafik = game.state.ship("Rafik").position
    with_ship(game, "Sultan", position=Position(rafik.hex.neighbour(Direction.A, 20), 0))
    assert disengaged(game.state) is None


def test_with_the_option_off_the_drift_plays_on_to_the_turn_limit() -> None:
    game = _apart(0, fuel=0, speed=10, max_turns=2)
    _hold_until_turn_break(game)
    assert not game.is_over
    _hold_until_turn_break(game)
    result = game.result
    assert result is not None
    assert result.reason == "turn limit 2 reached"


@pytest.mark.parametrize("duel", DUELS)
@pytest.mark.parametrize("drifter", ["blue", "red"])
@pytest.mark.parametrize("speed", [6, 12])
def test_greedy_catches_a_ship_drifting_away_or_the_game_ends_disengaged(duel: str, drifter: str, speed: int) -> None:
    # The drifter starts moving straight away from the enemy and then only ever holds (thrust 0).
    game = Game.new(AVT, builtin_scenario(duel), 1)
    state: AVTState = game.state
    ship = state.ships_of(drifter)[0]
    away = Direction.D if drifter == "blue" else Direction.A
    with_ship(game, ship.id, velocity=Velocity.toward(away, speed))
    hunter = "red" if drifter == "blue" else "blue"
    bot = GreedyBot()
    while not game.is_over:
        for side in game.waiting_for:
            order = "hold" if side == drifter else bot.choose(AVT.side_view(game.state, side), side, random.Random(0))
            game.submit(side, order)
            if game.is_over:
                break
    result = game.result
    assert result is not None
    assert "turn limit" not in result.reason
    if result.reason.startswith("disengaged"):
        assert any(isinstance(e, Note) and "could come no closer" in e.text for e in game.events)
    else:
        assert result.winners == (hunter,), result.reason


@pytest.mark.parametrize(("speed", "fuel"), [(0, 0), (2, 0), (6, 0), (6, 40), (12, 10)])
def test_disengaged_answers_as_every_pairs_closest_approach_does(speed: int, fuel: int) -> None:
    """``disengaged`` skips working out the approaches when a pair is in reach now (issue 51: speed): at every turn
    of drifting ships it answers exactly as weighing every pair's closest approach does."""
    from vectorwar.systems.avt.disengage import gaps

    def weighed(state: AVTState) -> list[object] | None:
        pairs = gaps(state, 2)
        return list(pairs) if pairs and all(p.out_of_reach for p in pairs) else None

    near = _apart(2, fuel, speed, max_turns=12)
    rafik = near.state.ship("Rafik").position
    with_ship(near, "Sultan", position=Position(rafik.hex.shifted(0, -10), 0))
    far = _apart(2, fuel, speed, max_turns=12)
    assert weighed(near.state) is None  # in reach now
    for game in (far, near):
        while not game.is_over:
            assert disengaged(game.state) == weighed(game.state)
            _hold_until_turn_break(game)
    if not fuel:  # no fuel to close 40 hexes: the game ends disengaged, the check's other answer
        assert far.state.end_reason.startswith("disengaged")
