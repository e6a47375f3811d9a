"""`vectorwar pbem`: a game played by passing the file between two players' folders, and refusals."""

from __future__ import annotations

import json
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.cli.helpers import run
from vectorwar.pbem import game_from_data


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def send(source: Path, to: Path) -> None:
    """E-mail the game file: copied into the other player's folder (the keyrings stay where they are)."""
    shutil.copyfile(source, to)


@pytest.fixture
def folders(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for side in ("red", "blue"):
        out[side] = tmp_path / side
        out[side].mkdir()
    return out


def act(folder: Path, side: str, *, order: str | None = None) -> tuple[int, str, str]:
    """Whatever ``side`` owes in its copy of the file, as a player would type it (bots choose its orders)."""
    file = folder / "g.vwpbem"
    owed = game_from_data(load(file)).owed().get(side)
    if owed == "commit":
        extra = [order] if order is not None else ["--bot", "random"]
        return run("pbem", "plot", str(file), "--side", side, *extra)
    if owed == "reveal":
        return run("pbem", "reveal", str(file), "--side", side)
    return 0, "", ""


def test_a_game_is_played_to_the_end_by_passing_the_file(folders: dict[str, Path]) -> None:
    red, blue = folders["red"], folders["blue"]
    code, out, err = run(
        "pbem", "new", "msc-duel", "--side", "red", "--file", str(red / "g.vwpbem"), "--max-turns", "2"
    )
    assert code == 0, err
    assert "blue: owes its commitment" in out
    assert (red / "g.red.secret.json").exists()
    holder, other = ("red", red), ("blue", blue)
    for _ in range(200):
        side, folder = holder
        while True:
            code, out, err = act(folder, side)
            assert code == 0, err
            if not out:
                break
        if game_from_data(load(folder / "g.vwpbem")).is_over:
            break
        send(folder / "g.vwpbem", other[1] / "g.vwpbem")
        holder, other = other, holder
    code, out, err = run("pbem", "status", str(folder / "g.vwpbem"))
    assert code == 0, err
    assert "game over" in out
    # The last file goes to the other player too, whose keyring accepts it as following what it saw.
    send(folder / "g.vwpbem", other[1] / "g.vwpbem")
    code, out, err = run("pbem", "show", str(other[1] / "g.vwpbem"), "--side", other[0])
    assert code == 0, err
    assert "game over" in out
    finals = [game_from_data(load(f / "g.vwpbem")) for f in (red, blue)]
    assert finals[0].head == finals[1].head
    assert finals[0].game is not None
    assert finals[0].game.history


def test_show_is_the_side_view_and_its_sealed_plot(folders: dict[str, Path]) -> None:
    file = folders["red"] / "g.vwpbem"
    run("pbem", "new", "msc-duel", "--side", "red", "--file", str(file))
    for side, command in (("blue", "plot"), ("red", "reveal"), ("blue", "reveal")):
        code, _, err = run("pbem", command, str(file), "--side", side)
        assert code == 0, err
    code, _, err = run("pbem", "plot", str(file), "--side", "red", "Hawk 1")
    assert code == 0, err
    code, out, err = run("pbem", "show", str(file), "--side", "red")
    assert code == 0, err
    assert "your sealed plot (red): Hawk 1" in out
    code, out, _ = run("pbem", "show", str(file), "--side", "blue")
    assert "Hawk 1" not in out
    assert "blue: owes its commitment" in out


def test_refusals_name_the_problem_and_change_no_file(folders: dict[str, Path]) -> None:
    file = folders["red"] / "g.vwpbem"
    run("pbem", "new", "msc-duel", "--side", "red", "--file", str(file))
    code, _, err = run("pbem", "reveal", str(file), "--side", "red")
    assert code == 1
    assert "before every side has committed" in err
    code, _, err = run("pbem", "plot", str(file), "--side", "red")
    assert code == 1
    assert "already committed" in err
    old = file.read_text()
    run("pbem", "plot", str(file), "--side", "blue")
    newer = file.read_text()
    # A replayed file: blue has seen state 2, and is handed state 1 again.
    file.write_text(old)
    code, _, err = run("pbem", "show", str(file), "--side", "blue")
    assert code == 1
    assert "old or replayed file" in err
    file.write_text(newer)
    # A plot changed after committing: red edits the plot sealed in its keyring, then reveals.
    run("pbem", "reveal", str(file), "--side", "red")
    run("pbem", "reveal", str(file), "--side", "blue")
    run("pbem", "plot", str(file), "--side", "red", "Hawk 1")
    run("pbem", "plot", str(file), "--side", "blue", "Raven 1")
    keyring = folders["red"] / "g.red.secret.json"
    keys = load(keyring)
    keys["sealed"][0]["plot"] = "Hawk 0"
    keyring.write_text(json.dumps(keys))
    before = file.read_text()
    code, _, err = run("pbem", "reveal", str(file), "--side", "red")
    assert code == 1
    assert "not the plot committed to" in err
    assert file.read_text() == before
    # A wrong secret.
    keys["sealed"][0]["plot"] = "Hawk 1"
    keys["sealed"][0]["secret"] = "0" * 64
    keyring.write_text(json.dumps(keys))
    code, _, err = run("pbem", "reveal", str(file), "--side", "red")
    assert code == 1
    assert "salt or secret" in err
    # A swapped file: another game's file under this game's name.
    other = folders["blue"] / "other.vwpbem"
    run("pbem", "new", "msc-duel", "--side", "blue", "--file", str(other))
    shutil.copyfile(other, file)
    code, _, err = run("pbem", "plot", str(file), "--side", "red")
    assert code == 1
    assert "a file of another game" in err


def test_a_file_arriving_with_my_sides_commitment_already_written_is_refused(folders: dict[str, Path]) -> None:
    mine = folders["red"] / "g.vwpbem"
    run("pbem", "new", "msc-duel", "--side", "red", "--file", str(mine))
    # red also commits for blue in its own folder (keeping blue's keyring there), then e-mails the file.
    run("pbem", "plot", str(mine), "--side", "blue")
    theirs = folders["blue"] / "g.vwpbem"
    send(mine, theirs)
    before = theirs.read_text()
    code, _, err = run("pbem", "show", str(theirs), "--side", "blue")
    assert code == 1
    assert "commitment for blue at step 0" in err
    assert "someone else wrote it" in err
    assert theirs.read_text() == before
    assert not (folders["blue"] / "g.blue.secret.json").exists()


T0 = "2027-01-15T08:00:00Z"


def at(hours: float) -> str:
    """``hours`` after T0, as ``--at`` takes it."""
    return datetime.fromtimestamp(datetime.fromisoformat(T0).timestamp() + hours * 3600, UTC).isoformat()


def test_a_game_is_played_by_turns_with_one_file_from_each_player_per_step(folders: dict[str, Path]) -> None:
    red, blue = folders["red"], folders["blue"]
    code, out, err = run(
        "pbem", "new", "msc-duel", "--side", "red", "--file", str(red / "g.vwpbem"), "--max-turns", "2",
        "--deadline-hours", "24", "--at", at(0),
    )  # fmt: skip
    assert code == 0, err
    assert "from 2027-01-16T08:00:00Z the others may claim the step against blue" in out
    sent = 1  # red's first file
    sides = [("blue", blue), ("red", red)]
    holder = ("red", red)
    while not game_from_data(load(holder[1] / "g.vwpbem")).is_over:
        send(holder[1] / "g.vwpbem", sides[0][1] / "g.vwpbem")
        holder = sides[0]
        sides.reverse()
        side, folder = holder
        # One command a pass: reveal what was sealed, commit the next orders (the bot's), reveal if last.
        code, out, err = run("pbem", "turn", str(folder / "g.vwpbem"), "--side", side, "--bot", "random",
                             "--at", at(sent))  # fmt: skip
        assert code == 0, err
        sent += 1
        assert sent < 100
    final = game_from_data(load(holder[1] / "g.vwpbem"))
    assert final.result is not None
    assert sent == 2 * final.step + 1  # two files a step, and the last reveal that ends the game
    assert all(a.at is not None for a in final.actions)


def test_a_stalled_step_is_claimed_after_the_deadline_and_the_silent_player_checks_the_claim(
    folders: dict[str, Path], tmp_path: Path
) -> None:
    red, blue = folders["red"], folders["blue"]
    mine, theirs = red / "g.vwpbem", blue / "g.vwpbem"
    run("pbem", "new", "msc-duel", "--side", "red", "--file", str(mine), "--deadline-hours", "24", "--at", at(0))
    send(mine, theirs)
    code, _, err = run("pbem", "turn", str(theirs), "--side", "blue", "--at", at(1))
    assert code == 0, err
    send(theirs, mine)
    code, _, err = run("pbem", "turn", str(mine), "--side", "red", "Hawk 1", "--at", at(2))
    assert code == 0, err
    send(mine, theirs)
    # Two copies of blue's machine: one opened the file an hour after red sent it, one ten hours after.
    late = tmp_path / "late"
    shutil.copytree(blue, late)
    assert run("pbem", "show", str(theirs), "--side", "blue", "--at", at(3))[0] == 0
    assert run("pbem", "show", str(late / "g.vwpbem"), "--side", "blue", "--at", at(12))[0] == 0
    # blue says nothing more. A claim one second before red's deadline is refused and changes nothing.
    before = mine.read_text()
    code, _, err = run("pbem", "claim", str(mine), "--side", "red", "--at", at(26 - 1 / 3600))
    assert code == 1
    assert "the deadline of 24 h ends at 2027-01-16T10:00:00Z" in err
    assert mine.read_text() == before
    code, out, err = run("pbem", "claim", str(mine), "--side", "red", "--bot", "random", "--at", at(27))
    assert code == 0, err
    assert "red claimed step 1 at 2027-01-16T11:00:00Z against blue, silent since 2027-01-15T10:00:00Z" in out
    claimed = game_from_data(load(mine))  # anyone can check the claim: the file replays, deadline and all
    assert claimed.step == 2
    assert claimed.owed() == {"blue": "commit"}
    # blue's machine, which opened the file at 11:00, accepts the claim: its deadline ended 24 h later.
    send(mine, theirs)
    code, out, err = run("pbem", "show", str(theirs), "--side", "blue", "--at", at(28))
    assert code == 0, err
    # The copy that opened it at 20:00 refuses it: by its record the deadline ends the next day at 20:00.
    send(mine, late / "g.vwpbem")
    code, _, err = run("pbem", "show", str(late / "g.vwpbem"), "--side", "blue", "--at", at(40))
    assert code == 1
    assert "by blue's own record the file reached it at 2027-01-15T20:00:00Z" in err
    assert "a claim before the deadline" in err


def test_a_game_of_whole_turns_is_one_file_a_turn_and_a_lost_file_is_rebuilt(folders: dict[str, Path]) -> None:
    red, blue = folders["red"], folders["blue"]
    mine, theirs = red / "g.vwpbem", blue / "g.vwpbem"
    code, out, err = run("pbem", "new", "msc-duel", "--side", "red", "--file", str(mine), "--max-turns", "3",
                         "--whole-turns")  # fmt: skip
    assert code == 0, err
    assert "one file a turn" in out
    send(mine, theirs)
    assert run("pbem", "turn", str(theirs), "--side", "blue")[0] == 0
    send(theirs, mine)
    code, _, err = run("pbem", "turn", str(mine), "--side", "red", "Hawk 1 | fire at any 20%")
    assert code == 0, err
    send(mine, theirs)
    code, _, err = run("pbem", "turn", str(theirs), "--side", "blue", "Raven 1 | fire at RAVEN")
    assert code == 1
    assert "no ship of another side" in err
    code, _, err = run("pbem", "turn", str(theirs), "--side", "blue", "Raven 1 | fire at hawk")
    assert code == 0, err
    # blue's reveal rode with its plot, so turn 1 waits only for red's reveal: one file from each a turn.
    assert game_from_data(load(theirs)).owed() == {"red": "reveal"}
    received = blue / "received.vwpbem"
    send(theirs, received)
    send(theirs, mine)
    code, _, err = run("pbem", "turn", str(mine), "--side", "red", "Hawk 1 | fire at any 20%")
    assert code == 0, err
    newest = mine.read_text()
    turn = game_from_data(load(mine))
    assert turn.step == 2  # the whole of turn 1 resolved, combat phases and all
    assert turn.game is not None
    assert turn.game.prompt is not None
    assert turn.game.prompt.clock.turn == 2
    # red overwrites its newest file with blue's older one, then rebuilds it from that and its keyring.
    send(received, mine)
    code, out, err = run("pbem", "rebuild", str(mine), "--side", "red")
    assert code == 0, err
    assert "as red sent it" in out
    assert mine.read_text() == newest
    # Rebuilding again, the file is already the newest.
    code, _, err = run("pbem", "rebuild", str(mine), "--side", "red", "--from", str(mine))
    assert code == 1
    assert "nothing to rebuild" in err


def test_a_player_concedes_with_yes_and_the_other_sees_the_game_over(folders: dict[str, Path]) -> None:
    red, blue = folders["red"], folders["blue"]
    mine, theirs = red / "g.vwpbem", blue / "g.vwpbem"
    assert run("pbem", "new", "msc-duel", "--side", "red", "--file", str(mine))[0] == 0
    code, _, err = run("pbem", "concede", str(mine), "--side", "red", "--yes")
    assert code == 1
    assert "the game has not begun" in err
    send(mine, theirs)
    assert run("pbem", "turn", str(theirs), "--side", "blue")[0] == 0
    send(theirs, mine)
    assert run("pbem", "turn", str(mine), "--side", "red", "Hawk 1")[0] == 0
    send(mine, theirs)
    # Without --yes nothing is written.
    before = theirs.read_text()
    code, _, err = run("pbem", "concede", str(theirs), "--side", "blue")
    assert code == 1
    assert "run it again with --yes" in err
    assert theirs.read_text() == before
    code, out, err = run("pbem", "concede", str(theirs), "--side", "blue", "--yes")
    assert code == 0, err
    assert "blue conceded" in out
    send(theirs, mine)
    code, out, err = run("pbem", "show", str(mine), "--side", "red")
    assert code == 0, err
    assert "game over" in out
    assert "blue conceded" in out
    # blue's own tools take the file they wrote.
    assert run("pbem", "show", str(theirs), "--side", "blue")[0] == 0


def test_a_draw_offered_in_one_folder_and_agreed_in_the_other_ends_the_game(folders: dict[str, Path]) -> None:
    red, blue = folders["red"], folders["blue"]
    mine, theirs = red / "g.vwpbem", blue / "g.vwpbem"
    assert run("pbem", "new", "msc-duel", "--side", "red", "--file", str(mine))[0] == 0
    send(mine, theirs)
    assert run("pbem", "turn", str(theirs), "--side", "blue")[0] == 0
    send(theirs, mine)
    assert run("pbem", "turn", str(mine), "--side", "red", "Hawk 1")[0] == 0
    code, out, err = run("pbem", "draw", str(mine), "--side", "red")
    assert code == 0, err
    assert "a draw is offered: red agreed; it ends the game drawn if blue agrees at this step" in out
    send(mine, theirs)
    code, out, err = run("pbem", "status", str(theirs))
    assert "a draw is offered" in out
    code, out, err = run("pbem", "draw", str(theirs), "--side", "blue")
    assert code == 0, err
    assert "game over" in out
    assert "ended by agreement" in out
