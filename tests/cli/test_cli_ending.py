"""Ending a game from the command line: ``concede`` and ``end`` at the keyboard and on a save file."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import game_in, run


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_play_concede_asks_first_then_ends_the_game_for_the_other_side(in_tmp: Path) -> None:
    code, out, _ = run("play", "duel.json", "--seed", "11", input="concede\nn\nconcede\ny\n")
    assert code == 0
    assert "red: concede the game? blue wins. [y/N]" in out
    assert "play goes on" in out
    assert "red concedes" in out
    assert "game over: blue wins (red conceded)" in out
    game = game_in(in_tmp / "duel.json")
    assert game.is_over
    assert game.result is not None
    assert game.result.winners == ("blue",)


def test_hot_seat_end_asks_every_other_person(in_tmp: Path) -> None:
    sides = ("--side", "blue=human", "--seed", "2")
    code, out, _ = run("play", "duel.json", *sides, input="end\ny\nn\nquit\n")
    assert code == 0
    assert "blue: red offers to end the game as a draw; agree? [y/N]" in out
    assert "blue says no: play goes on" in out
    assert not game_in(in_tmp / "duel.json").is_over
    code, out, _ = run("play", "duel.json", input="end\ny\ny\n")
    assert code == 0
    assert "red, blue agree to end the game" in out
    assert "game over: a draw (ended by agreement)" in out
    game = game_in(in_tmp / "duel.json")
    assert game.result is not None
    assert game.result.winners == ()


def test_play_end_against_a_bot_that_is_not_ahead(in_tmp: Path) -> None:
    code, out, _ = run("play", "duel.json", "--seed", "11", input="end\ny\n")
    assert code == 0
    assert "game over: a draw (ended by agreement)" in out


def test_concede_and_end_commands_on_a_save_file(in_tmp: Path) -> None:
    assert run("new", "msc-duel", "g.json", "--side", "blue=human", "--seed", "3")[0] == 0
    code, _, err = run("end", "g.json")
    assert code != 0
    assert "add --agreed once every person at the table does" in err
    assert not game_in(in_tmp / "g.json").is_over
    code, out, _ = run("concede", "g.json", "BLUE")
    assert code == 0, out
    assert "game over: red wins (blue conceded)" in out
    code, _, err = run("concede", "g.json", "red")
    assert code != 0
    assert "the game is over" in err
    code, out, _ = run("log", "g.json")
    assert "blue concedes" in out


def test_a_computer_side_does_not_concede_and_end_needs_the_table(in_tmp: Path) -> None:
    assert run("new", "msc-duel", "g.json", "--side", "blue=greedy", "--seed", "3")[0] == 0
    code, _, err = run("concede", "g.json", "blue")
    assert code != 0
    assert "side blue is played by the computer (greedy); only a person concedes" in err
    code, out, _ = run("end", "g.json", "--agreed")
    assert code == 0, out
    assert "game over: a draw (ended by agreement)" in out
