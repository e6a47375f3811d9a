"""Every command, through the command line as a player types it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import game_in, run


def test_systems_lists_phases_and_option_defaults() -> None:
    code, out, _ = run("systems")
    assert code == 0
    for expected in (
        "msc",
        "Minimal Space Combat",
        "plot",
        "initiative",
        "map_edge = disengage",
        "strict_turn_spacing = false",
    ):
        assert expected in out


def test_scenarios_lists_ids_systems_and_ships() -> None:
    code, out, _ = run("scenarios")
    assert code == 0
    assert "msc-duel" in out
    assert "msc-fleet" in out
    assert "red: Hawk (ship1)" in out
    assert "blue: Raven (ship1)" in out


def test_ships_shows_build_point_costs() -> None:
    code, out, _ = run("ships", "msc")
    assert code == 0
    battleship = next(line for line in out.splitlines() if "battleship" in line)
    assert "25" in battleship.split("│")[7]  # the BP column
    assert run("ships", "nosuch")[0] == 1


def test_schema_prints_json_schema() -> None:
    code, out, _ = run("schema", "scenario")
    assert code == 0
    assert "sides" in json.loads(out)["properties"]
    code, out, _ = run("schema", "design", "--system", "msc")
    assert code == 0
    assert json.loads(out)["properties"]["engine"]["maximum"] == 5
    code, _, err = run("schema", "design", "--system", "nosuch")
    assert code == 1
    assert err.startswith("error: ")


def test_new_creates_a_save_and_refuses_to_overwrite(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, out, _ = run("new", "msc-duel", str(save), "--seed", "7", "--side", "blue=greedy")
    assert code == 0
    assert "seed 7" in out
    game = game_in(save)
    assert game.seed == 7
    assert game.waiting_for == ("red", "blue")
    assert game.pending == {}  # the computer plots only once the person has
    before = save.read_bytes()
    code, _, err = run("new", "msc-fleet", str(save))
    assert code == 1
    assert "--force" in err
    assert save.read_bytes() == before
    assert run("new", "msc-fleet", str(save), "--force")[0] == 0
    assert game_in(save).scenario.id == "msc-fleet"


def test_new_reads_options_by_their_type(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    code, _, _ = run("new", "msc-duel", str(save), "--option", "strict_turn_spacing=yes", "--option", "map_edge=forbid")
    assert code == 0
    # build_points is in every MSC game; it only counts where a scenario has the players build.
    assert game_in(save).options == {
        "strict_turn_spacing": True,
        "map_edge": "forbid",
        "build_points": 45,
        "ships_block_sight": False,
        "victory": "destroy",
        "victory_turns": 10,
    }
    code, _, err = run("new", "msc-duel", str(tmp_path / "h.json"), "--option", "map_edge=sideways")
    assert code == 1
    assert "disengage" in err
    assert not (tmp_path / "h.json").exists()


def test_bad_order_names_the_rule_and_leaves_the_file_byte_identical(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "msc-duel", str(save), "--seed", "1", "--side", "blue=greedy")
    before = save.read_bytes()
    code, _, err = run("orders", str(save), "red", "Hawk 5")
    assert code == 1
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert "SPEED 5 is above ENGINE 3" in err
    assert "MSC 6.0" in err
    assert "Traceback" not in err
    assert save.read_bytes() == before
    code, _, err = run("orders", str(save), "red", "Hawk 2L2L")
    assert code == 1
    assert "MSC 6.0" in err
    assert save.read_bytes() == before


def test_new_orders_show_round_trip_against_the_computer(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "msc-duel", str(save), "--seed", "1", "--side", "blue=greedy")
    code, out, _ = run("orders", str(save), "red", "hawk 1L1")
    assert code == 0
    assert "Hawk plots 1L1: 3,7 -> 4,6, facing A" in out
    assert "Raven plots" in out  # the computer answered and the turn resolved
    game = game_in(save)
    assert game.history[0].orders[0] == ("red", "Hawk 1L1")
    raven = game.state.ship("Raven")
    code, out, _ = run("show", str(save))
    assert code == 0
    assert "AT      4,6 facing A" in out
    assert f"AT      {raven.hex} facing {raven.facing}" in out
    assert "1     3      1L1" in out  # Hawk's Ship Turn Record line
    assert "waiting for red" in out


def test_show_never_shows_another_sides_plot(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "msc-duel", str(save), "--seed", "1")
    code, out, _ = run("orders", str(save), "red", "Hawk 1L1")
    assert code == 0
    assert "stay secret" in out
    assert game_in(save).pending  # red's plot waits for blue's
    _, as_blue, _ = run("show", str(save), "--side", "blue")
    _, as_nobody, _ = run("show", str(save))
    _, as_red, _ = run("show", str(save), "--side", "red")
    assert "1L1" not in as_blue
    assert "1L1" not in as_nobody
    assert "your orders (red): Hawk 1L1" in as_red
    assert "orders already in from red" in as_blue


def test_show_highlights_arcs_and_rejects_unknown_ships(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "msc-duel", str(save), "--seed", "1")
    code, out, _ = run("show", str(save), "--arcs", "raven")
    assert code == 0
    assert "Raven's weapon arcs" in out
    assert " F " in out
    code, _, err = run("show", str(save), "--arcs", "Nobody")
    assert code == 1
    assert "Hawk, Raven" in err


def test_orders_refuses_computer_sides_and_unknown_sides(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "msc-duel", str(save), "--seed", "1", "--side", "blue=greedy")
    code, _, err = run("orders", str(save), "blue", "Raven 2")
    assert code == 1
    assert "greedy" in err
    code, _, err = run("orders", str(save), "green", "Raven 2")
    assert code == 1
    assert "red, blue" in err


def test_log_tells_the_game_in_words(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "msc-duel", str(save), "--seed", "1", "--side", "blue=greedy")
    run("orders", str(save), "red", "Hawk 2")
    code, out, _ = run("log", str(save))
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "--- turn 1 ---"
    assert "  Hawk plots 2: 3,7 -> 5,6, facing B" in lines
    assert any(line.startswith("  roll d6 for initiative for red: [") for line in lines)
    assert "--- turn 2 ---" in lines


def test_undo_takes_back_the_persons_orders_and_the_computers_answers_in_practice(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "msc-duel", str(save), "--seed", "1", "--side", "blue=greedy")
    run("orders", str(save), "red", "Hawk 2")
    history = game_in(save).history
    assert len(history) >= 1
    code, _, err = run("undo", str(save))
    assert code == 1
    assert "taking them back would show you the computer's secret orders and the dice to come" in err
    assert game_in(save).history == history
    code, out, _ = run("undo", str(save), "--practice")
    assert code == 0
    assert "practice: took back to turn 1, plot; the computer will give the same orders again" in out
    game = game_in(save)
    assert game.history == []
    assert game.pending == {}
    code, _, err = run("undo", str(save), "--practice")
    assert code == 1
    assert "nothing to take back" in err


def test_undo_withdraws_a_waiting_plot_no_one_has_seen(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "msc-duel", str(save), "--seed", "1", "--side", "blue=human")
    run("orders", str(save), "red", "Hawk 2")
    assert list(game_in(save).pending) == ["red"]
    code, out, _ = run("undo", str(save))
    assert code == 0
    assert "withdrew red's waiting orders (no one had seen them)" in out
    assert game_in(save).pending == {}


def test_undo_of_a_resolved_turn_between_people_needs_agreement(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    run("new", "msc-duel", str(save), "--seed", "1", "--side", "blue=human")
    run("orders", str(save), "red", "Hawk 2")
    run("orders", str(save), "blue", "Raven 1")
    assert len(game_in(save).history) == 1
    code, _, err = run("undo", str(save))
    assert code == 1
    assert "only if the whole table agrees" in err
    code, out, _ = run("undo", str(save), "--agreed")
    assert code == 0
    assert "as the table agreed" in out
    assert game_in(save).history == []


def test_simulate_json_is_only_json_and_greedy_beats_random() -> None:
    code, out, _ = run("simulate", "msc-duel", "-n", "20", "--side", "red=greedy", "--side", "blue=random", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 20
    assert data["controllers"] == {"red": "greedy", "blue": "random"}
    assert data["wins"]["red"] >= 15
    assert data["wins"]["red"] + data["wins"]["blue"] + data["draws"] == 20


def test_simulate_table_and_human_sides_refused() -> None:
    code, out, _ = run("simulate", "msc-duel", "-n", "3", "--side", "blue=random")
    assert code == 0
    assert "greedy" in out
    assert "random" in out
    assert "draws" in out
    assert "average length" in out
    code, _, err = run("simulate", "msc-duel", "-n", "3", "--side", "blue=human")
    assert code == 1
    assert "blue" in err


def test_usage_errors_exit_2_and_missing_files_exit_1(tmp_path: Path) -> None:
    code, _, _ = run("new", "msc-duel", str(tmp_path / "g.json"), "--side", "red")
    assert code == 2
    assert run("simulate", "msc-duel", "-n", "0")[0] == 2
    code, out, err = run("show", str(tmp_path / "missing.json"))
    assert code == 1
    assert out == ""
    assert err == f"error: {tmp_path / 'missing.json'}: no such save file\n"


def test_a_broken_save_is_refused_in_one_line(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    save.write_text("{not json")
    code, _, err = run("orders", str(save), "red", "Hawk 2")
    assert code == 1
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert save.read_text() == "{not json"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 1_000_000 + "]" * 1_000_000, "nested too deep"),
        ('{"format": ' + "[" * 900 + "]" * 900 + "}", "not a vectorwar save"),
    ],
    ids=["a-million-deep", "deep-but-parsable"],
)
def test_a_save_nested_a_million_deep_is_refused_in_one_line(tmp_path: Path, text: str, says: str) -> None:
    save = tmp_path / "g.json"
    save.write_text(text)
    for command in (("show", str(save)), ("orders", str(save), "red", "Hawk 2")):
        code, _, err = run(*command)
        assert code == 1, err
        assert err.startswith("error: ")
        assert says in err
        assert err.count("\n") == 1
