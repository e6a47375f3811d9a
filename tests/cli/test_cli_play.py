"""``vectorwar play`` with scripted keyboard input: quitting, resuming, hot-seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import game_in, run

DEFAULT = "vectorwar-game.json"

# Flying straight at SPEED 1 and never firing is always legal for Hawk
# until the game ends; a "hold" given at a plot prompt is refused and the
# next line answers it, so the script fits whatever prompts come.
CRUISE = "Hawk 1\nhold\n" * 60


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_play_quits_resumes_exactly_and_finishes(in_tmp: Path) -> None:
    code, out, _ = run("play", "--seed", "11", input="Hawk 2\nquit\n")
    assert code == 0
    chosen = "seed 11, chosen: it foretells every roll"
    assert f"new msc-duel game in vectorwar-game.json ({chosen}): red human, blue greedy" in out
    assert "Hawk plots 2: 3,7 -> 5,6, facing B" in out
    assert "game saved in vectorwar-game.json" in out
    saved = game_in(in_tmp / DEFAULT)
    assert not saved.is_over
    assert saved.history[0].orders[0] == ("red", "Hawk 2")
    clock = saved.clock

    code, out, _ = run("play", input=CRUISE)
    assert code == 0
    assert out.startswith("resuming vectorwar-game.json")
    assert f"Duel (Minimal Space Combat) - {clock}" in out.split("red>")[0]
    finished = game_in(in_tmp / DEFAULT)
    assert finished.is_over
    assert finished.history[: len(saved.history)] == saved.history
    assert "game over: " in out


def test_end_of_input_saves_like_quit(in_tmp: Path) -> None:
    code, out, _ = run("play", "--seed", "11", input="Hawk 2\n")
    assert code == 0
    assert "game saved" in out
    assert len(game_in(in_tmp / DEFAULT).history) >= 1


def test_bad_orders_are_explained_and_asked_again(in_tmp: Path) -> None:
    code, out, _ = run("play", "--seed", "11", input="Hawk 9\nfly away\nHawk 2\nquit\n")
    assert code == 0
    assert "error: illegal order 'Hawk 9': SPEED 9 is above ENGINE 3" in out
    assert "MSC 6.0" in out
    assert "error: cannot read order 'fly away'" in out
    assert out.count("red> ") >= 3
    assert game_in(in_tmp / DEFAULT).history[0].orders[0] == ("red", "Hawk 2")


def test_table_commands_do_not_count_as_orders(in_tmp: Path) -> None:
    code, out, _ = run("play", "--seed", "11", "--practice", input="help\nmap\narcs hawk\nHawk 2\nundo\nquit\n")
    assert code == 0
    assert "Hawk's weapon arcs" in out
    assert "practice: took back to turn 1, plot" in out
    assert "the computer will give the same orders again and the dice will roll the same" in out
    assert game_in(in_tmp / DEFAULT).history == []


def test_undo_against_the_computer_never_shows_its_orders_or_the_dice(in_tmp: Path) -> None:
    """Undoing a resolved turn would replay the bot's secret plot and the same dice: refused."""
    code, out, _ = run("play", "--seed", "11", input="Hawk 2\nundo\nquit\n")
    assert code == 0
    assert "error: the orders of turn 1, plot are resolved" in out
    assert "took back" not in out
    assert game_in(in_tmp / DEFAULT).history[0].orders[0] == ("red", "Hawk 2")


def test_hot_seat_undo_of_a_resolved_turn_needs_the_whole_table(in_tmp: Path) -> None:
    # red plots, blue plots: turn 1 resolves; red asks to undo it at the next prompt.
    sides = ("--side", "blue=human", "--seed", "2")
    script = "Hawk 1\n\nRaven 1\n"
    code, out, _ = run("play", "duel.json", *sides, input=script)
    assert code == 0
    done = game_in(in_tmp / "duel.json").history
    assert len(done) >= 1
    # Blue says no: nothing changes.
    code, out, _ = run("play", "duel.json", input="\nundo\nn\nquit\n")
    assert "blue: red asks to take back the last resolved orders" in out
    assert "blue says no: nothing is taken back" in out
    assert game_in(in_tmp / "duel.json").history == done
    # Blue agrees: the turn goes, and the note says the dice will roll the same.
    code, out, _ = run("play", "duel.json", input="\nundo\ny\nquit\n")
    assert "as the table agreed; the dice will roll the same again" in out
    assert len(game_in(in_tmp / "duel.json").history) < len(done)


def test_hot_seat_plots_stay_secret_and_resume_at_the_next_player(in_tmp: Path) -> None:
    code, out, _ = run("play", "duel.json", "--side", "blue=human", "--seed", "2", input="Hawk 1L\nquit\n")
    assert code == 0
    assert "red human, blue human" in out
    assert "hand over to red" in out
    assert "red's orders are in." in out
    assert "hand over to blue" in out
    assert "1L" not in out  # red's plot is never on blue's screen
    pending = game_in(in_tmp / "duel.json").pending
    assert list(pending) == ["red"]
    assert str(pending["red"]) == "Hawk 1L"

    code, out, _ = run("play", "duel.json", input="Raven 2\nquit\n")
    assert code == 0
    assert "red>" not in out.split("blue>")[0]  # blue, who still owes a plot, is asked first
    assert "Hawk plots 1L: 3,7 -> 4,7, facing A" in out
    assert game_in(in_tmp / "duel.json").turn == 1


def test_play_starts_over_only_when_asked(in_tmp: Path) -> None:
    run("play", "g.json", "--seed", "3", input="quit\n")
    code, _, err = run("play", "g.json", "--new", "msc-fleet", input="quit\n")
    assert code == 1
    assert "--force" in err
    assert game_in(in_tmp / "g.json").scenario.id == "msc-duel"
    code, _, err = run("play", "g.json", "--seed", "4", input="quit\n")
    assert code == 1
    assert "new games" in err
    code, _, _ = run("play", "g.json", "--new", "msc-fleet", "--force", input="quit\n")
    assert code == 0
    assert game_in(in_tmp / "g.json").scenario.id == "msc-fleet"


def test_a_finished_game_shows_its_result(in_tmp: Path) -> None:
    run("new", "msc-duel", "done.json", "--side", "red=greedy", "--side", "blue=random", "--seed", "2")
    assert game_in(in_tmp / "done.json").is_over
    code, out, _ = run("play", "done.json", input="")
    assert code == 0
    assert "game over: red wins" in out


def test_standing_orders_at_the_keyboard_skip_the_quiet_segments(in_tmp: Path) -> None:
    # AV:T: 'skip turn' holds through turn 1; then standing fire at any enemy, and 'skip' goes on until news.
    script = "skip turn\nfire at any 10\nfire at nobody\nskip\nquit\n"
    code, out, _ = run(
        "play", "--new", "avt-duel-wasp", "--side", "blue=human", "--side", "red=greedy", "--seed", "2", input=script
    )
    assert code == 0
    saved = game_in(in_tmp / DEFAULT)
    # Turn 1's eight segments were held for blue, and more went by after 'skip'.
    assert [dict(b.orders)["blue"] for b in saved.history[:8]] == ["hold"] * 8
    assert len(saved.history) > 9
    assert "fire at any enemy in reach with 10% or better" in out
    assert "error: fire at nobody: no such ship" in out
    assert "new: turn 2 begins" in out
