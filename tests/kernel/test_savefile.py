"""Save files: identity on load, replay identity, tamper detection, atomic writes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import SaveFileError
from vectorwar.game import Game
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.savefile import game_from_data, game_to_data, load_game, save_game

BOTS = st.sampled_from(["random", "greedy"])


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=10**9),
    red=BOTS,
    blue=BOTS,
    scenario=st.sampled_from(["msc-duel", "msc-fleet"]),
    stop=st.integers(min_value=0, max_value=40),
)
def test_save_load_and_replay_reproduce_any_game(seed: int, red: str, blue: str, scenario: str, stop: int) -> None:
    full = play_out(builtin_scenario(scenario), {"red": red, "blue": blue}, seed)
    # Cut the game short at a random point to cover games in progress too.
    history = full.history[: min(stop, len(full.history))]
    game = Game.replay(full.system, full.scenario, seed, full.options, history)
    data = json.loads(json.dumps(game_to_data(game, {"red": red, "blue": blue})))
    loaded, controllers = game_from_data(data)
    assert controllers == {"red": red, "blue": blue}
    assert loaded.state == game.state
    assert loaded.events == game.events
    assert loaded.dice_count == game.dice_count
    assert game_to_data(loaded, controllers) == data


def test_pending_plots_survive_a_save(tmp_path: Path) -> None:
    game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=9)
    game.submit("red", "Hawk 1R1")
    save_game(game, tmp_path / "g.json")
    loaded, _ = load_game(tmp_path / "g.json")
    assert str(loaded.pending["red"]) == "Hawk 1R1"
    assert loaded.waiting_for == ("blue",)


def test_the_file_is_readable_json_with_the_setup(tmp_path: Path) -> None:
    game = play_out(builtin_scenario("msc-duel"), {"red": "greedy", "blue": "random"}, 4)
    path = tmp_path / "g.json"
    save_game(game, path)
    data = json.loads(path.read_text())
    assert data["format"] == "vectorwar-save"
    assert data["scenario"]["id"] == "msc-duel"
    assert data["seed"] == 4
    assert data["history"][0]["orders"][0][0] == "red"
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left


def test_a_tampered_file_is_refused(tmp_path: Path) -> None:
    game = play_out(builtin_scenario("msc-duel"), {"red": "greedy", "blue": "random"}, 4)
    data = game_to_data(game)
    data["state"]["ships"][0]["shields"] = 5
    with pytest.raises(SaveFileError, match="does not give the recorded state"):
        game_from_data(data, "edited.json")
    data = game_to_data(game)
    data["history"][0]["orders"] = [["red", "Hawk LL"], ["blue", "Raven 2"]]
    with pytest.raises(SaveFileError, match="cannot replay"):
        game_from_data(data, "edited.json")


@pytest.mark.parametrize(
    ("content", "message"),
    [("{not json", "not valid JSON"), ('{"format": "other"}', "not a vectorwar save"), ("[]", "not a vectorwar save")],
)
def test_bad_files_get_one_clear_error(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(SaveFileError, match=message):
        load_game(path)
    with pytest.raises(SaveFileError, match="no such save file"):
        load_game(tmp_path / "missing.json")


def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)
    path = tmp_path / "g.json"
    save_game(game, path)
    before = path.read_bytes()

    def boom(*args: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", boom)
    game.submit("red", "Hawk 3")
    with pytest.raises(OSError, match="disk full"):
        save_game(game, path)
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]
