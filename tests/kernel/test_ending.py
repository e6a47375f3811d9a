"""Games that end outside the rules: a concession, an end by agreement.

docs/rulings/every-system.md, *Conceding and ending by agreement*.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError, SaveFileError
from vectorwar.events import Conceded, EndedByAgreement, GameOver, event_to_data
from vectorwar.game import AGREE, CONCEDE, Game, OrderBatch
from vectorwar.play import bot_accepts_end, bot_turns, play_out
from vectorwar.registry import get_system
from vectorwar.rules import Clock
from vectorwar.savefile import game_from_data, game_to_data, load_game, save_game
from vectorwar.setup import set_up


def duel() -> Game:
    return Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)


def test_a_concession_is_a_win_for_every_other_side() -> None:
    game = duel()
    game.submit("red", "Hawk 3")  # a plot waiting: red may concede without owing anything
    events = game.concede("blue")
    assert events == [Conceded("blue"), GameOver(("red",), "blue conceded")]
    assert game.is_over
    assert game.prompt is None
    assert game.waiting_for == ()
    assert game.result is not None
    assert game.result.winners == ("red",)
    assert game.result.reason == "blue conceded"
    assert game.pending == {}
    assert game.history[-1] == OrderBatch(Clock(1, "plot"), (("blue", CONCEDE),), CONCEDE)
    assert [e.describe() for e in game.events[-2:]] == ["blue concedes", "game over: red wins (blue conceded)"]


def test_with_three_sides_the_others_share_the_win() -> None:
    game = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight-3"), seed=4)
    game.concede("green")
    assert game.result is not None
    assert game.result.winners == ("red", "blue")
    assert game.events[-1].describe() == "game over: red and blue win (green conceded)"


def test_an_agreed_end_is_a_draw_and_needs_every_side() -> None:
    game = duel()
    with pytest.raises(IllegalOrderError, match="every side must agree to end the game, and blue has not"):
        game.end_by_agreement(["red"])
    assert not game.is_over
    assert game.history == []
    events = game.end_by_agreement(["blue", "red"])
    assert events == [EndedByAgreement(("red", "blue")), GameOver((), "ended by agreement")]
    assert game.result is not None
    assert game.result.winners == ()
    assert game.history[-1].orders == (("red", AGREE), ("blue", AGREE))
    assert game.events[-1].describe() == "game over: a draw (ended by agreement)"


def test_nothing_ends_a_game_that_is_over_and_a_refusal_changes_nothing() -> None:
    game = duel()
    game.concede("red")
    before = game_to_data(game)
    with pytest.raises(IllegalOrderError, match="the game is over"):
        game.concede("blue")
    with pytest.raises(IllegalOrderError, match="the game is over"):
        game.end_by_agreement(["red", "blue"])
    with pytest.raises(IllegalOrderError, match="the game is over"):
        game.submit("red", "Hawk 3")
    assert game_to_data(game) == before
    fresh = duel()
    with pytest.raises(IllegalOrderError, match="there is no side 'green'"):
        fresh.concede("green")
    assert fresh.history == []
    assert not fresh.is_over


def test_a_finished_game_cannot_be_conceded() -> None:
    game = play_out(builtin_scenario("msc-duel"), {"red": "greedy", "blue": "greedy"}, seed=2)
    result = game.result
    with pytest.raises(IllegalOrderError, match="the game is over"):
        game.concede("red")
    assert game.result == result


@pytest.mark.parametrize("end", ["concede", "agree"])
def test_a_saved_end_replays_exactly(end: str) -> None:
    game = duel()
    game.submit("red", "Hawk 3")
    game.submit("blue", "Raven 2")
    if end == "concede":
        game.concede("red")
    else:
        game.end_by_agreement(game.sides)
    data = json.loads(json.dumps(game_to_data(game)))
    again, _ = game_from_data(data)
    assert again.result == game.result
    assert [event_to_data(e) for e in again.events] == [event_to_data(e) for e in game.events]
    assert again.history == game.history
    replayed = Game.replay(game.system, game.scenario, game.seed, game.options, game.history)
    assert replayed.result == game.result
    assert replayed.is_over
    # Ordinary batches are written as before the end existed: old saves and new ones read alike.
    assert "end" not in data["history"][0]
    assert data["history"][-1]["end"] == end


def test_a_save_file_round_trip_keeps_the_end(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    game = duel()
    game.concede("blue")
    save_game(game, path)
    loaded, _ = load_game(path)
    assert loaded.result == game.result


def test_an_edited_end_is_refused() -> None:
    game = duel()
    game.concede("red")
    data = game_to_data(game)
    data["history"][-1]["end"] = "surrender"
    with pytest.raises(SaveFileError, match="cannot end the game by 'surrender'"):
        game_from_data(data)
    data["history"][-1]["end"] = "agree"
    with pytest.raises(SaveFileError, match="cannot end the game by 'agree'"):
        game_from_data(data)


def test_undo_takes_a_concession_back() -> None:
    game = duel()
    game.concede("red")
    back = game.undo()
    assert not back.is_over
    assert back.result is None
    assert back.history == []


def test_a_bot_agrees_unless_it_is_ahead() -> None:
    game = duel()
    # Level at the start: both agree.
    assert bot_accepts_end(game, "red")
    assert bot_accepts_end(game, "blue")
    setup = set_up(builtin_scenario("msc-duel"), {"red": "greedy", "blue": "greedy"}, seed=5)
    play = setup.game
    # Play on until one side's standing is above the other's, the game still open.
    for _ in bot_turns(play, setup.bots):
        standing = play.system.standing(play.state)
        if not play.is_over and standing["red"] != standing["blue"]:
            break
    standing = play.system.standing(play.state)
    assert not play.is_over
    assert standing["red"] != standing["blue"]
    leader, trailer = ("red", "blue") if standing["red"] > standing["blue"] else ("blue", "red")
    assert not bot_accepts_end(play, leader)
    assert bot_accepts_end(play, trailer)
