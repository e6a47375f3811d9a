"""The lab's figures per cell, checked on games whose outcome is known before they are played."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.lab.games import Job, play_seeds
from vectorwar.lab.luck import game_luck
from vectorwar.lab.metrics import cell_metrics, mean_interval, wilson
from vectorwar.lab.report import make_report, tournament_table
from vectorwar.lab.runner import LabError, cells_file, read_rows, write_rows
from vectorwar.play import play_out

GAMES = 6


@pytest.fixture(autouse=True)
def _quiet_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))


def one_sided() -> dict[str, Any]:
    """The MSC duel with blue's ship unarmed: blue can never hurt red, so red wins every game it closes in."""
    data = builtin_scenario("msc-duel").to_data()
    data["designs"] = {
        "unarmed": {"name": "Unarmed", "engine": 3, "shields": 3, "to_hit": 1, "weapons": []},
        "gunship": {"name": "Gunship", "engine": 3, "shields": 3, "to_hit": 5, "weapons": ["F", "FL", "FR"]},
    }
    data["sides"][0]["ships"][0]["design"] = "gunship"
    data["sides"][1]["ships"][0]["design"] = "unarmed"
    return data


def never_meet() -> dict[str, Any]:
    """The MSC duel over after one turn: the ships start out of range, so every game is a draw at the limit."""
    return {**builtin_scenario("msc-duel").to_data(), "max_turns": 1}


@pytest.fixture(scope="module")
def rows() -> list[dict[str, Any]]:
    controllers = {"red": "greedy", "blue": "greedy"}
    return [
        *play_seeds(Job(0, one_sided(), controllers, games=GAMES, label="one-sided"), range(GAMES)),
        *play_seeds(Job(1, never_meet(), controllers, games=GAMES, label="never meet"), range(GAMES)),
    ]


def by_side(cells: list[dict[str, Any]], job: int) -> dict[str, dict[str, Any]]:
    return {c["side"]: c for c in cells if c["job"] == job}


def test_a_side_that_cannot_lose_wins_every_game_and_every_figure_says_so(rows: list[dict[str, Any]]) -> None:
    frame = pd.DataFrame(rows)
    cell = by_side(cell_metrics(frame), 0)
    red, blue = cell["red"], cell["blue"]
    assert (red["wins"], red["draws"], red["losses"]) == (GAMES, 0, 0)
    assert (blue["wins"], blue["losses"]) == (0, GAMES)
    assert (red["win"], red["win_hi"]) == (1.0, 1.0)
    assert 0.5 < red["win_lo"] < 1.0
    assert (blue["win"], blue["win_lo"]) == (0.0, 0.0)
    assert 0.0 < blue["win_hi"] < 0.5
    assert (red["draw"], red["draw_lo"]) == (0.0, 0.0)
    # Every game was decided by destroying blue's ship, none by the turn limit.
    assert red["completion"] == 1.0
    turns = [r["turns"] for r in rows[:GAMES]]
    assert red["turns_mean"] == pytest.approx(sum(turns) / GAMES)
    assert (red["turns_min"], red["turns_max"]) == (min(turns), max(turns))
    assert red["turns_sd"] == pytest.approx(pd.Series(turns).std())
    # The first mover wins exactly when red holds turn 1's initiative.
    red_first = sum(r["initiative"] == "red" for r in rows[:GAMES])
    assert red["first_mover_games"] == GAMES
    assert red["first_mover_win"] == pytest.approx(red_first / GAMES)
    assert red["first_mover_score"] == pytest.approx(red_first / GAMES)
    # Blue never fires: it deals no damage and has no luck figure; red's damage is its hits (one point each in MSC).
    assert blue["damage_per_turn"] == 0.0
    assert blue["luck"] is None
    assert blue["luck_games"] == 0
    per_turn = [json.loads(r["damage"])["red"] / r["turns"] for r in rows[:GAMES]]
    assert red["damage_per_turn"] == pytest.approx(sum(per_turn) / GAMES)
    assert red["damage_per_turn"] > 0
    for row in rows[:GAMES]:
        luck = json.loads(row["luck"])
        assert luck["blue"] == {"shots": 0, "rated": 0, "hits": 0, "expected": 0.0, "luck": None}
        assert luck["red"]["hits"] == json.loads(row["damage"])["red"]
        assert luck["red"]["luck"] == pytest.approx(luck["red"]["hits"] - luck["red"]["expected"])
        assert row["decided"] is True
        assert row["winner"] == "red"
    assert red["luck_games"] == GAMES
    assert red["luck"] == pytest.approx(sum(json.loads(r["luck"])["red"]["luck"] for r in rows[:GAMES]) / GAMES)


def test_games_stopped_by_the_turn_limit_are_all_draws_and_none_complete(rows: list[dict[str, Any]]) -> None:
    cell = by_side(cell_metrics(pd.DataFrame(rows)), 1)
    for side in ("red", "blue"):
        c = cell[side]
        assert (c["wins"], c["draws"], c["losses"]) == (0, GAMES, 0)
        assert (c["draw"], c["draw_hi"]) == (1.0, 1.0)
        assert c["completion"] == 0.0
        assert c["turns_mean"] == 1.0
        assert c["turns_sd"] == 0.0
        assert c["damage_per_turn"] == 0.0
        assert c["luck"] is None
        # A draw scores the first mover a half every time: no advantage either way.
        assert c["first_mover_win"] == 0.0
        assert c["first_mover_score"] == 0.5
    assert all(not r["decided"] and r["reason"].startswith("turn limit") for r in rows[GAMES:])


def test_luck_pairs_each_shot_with_the_odds_play_showed() -> None:
    # Every MSC shot resolves at once with odds settled at firing, so every resolved shot is rated,
    # and the hits counted are the hits the log shows.
    scenario = builtin_scenario("msc-fleet")
    game = play_out(scenario, {"red": "greedy", "blue": "greedy"}, 1, {})
    luck = game_luck(game)
    fired = [e for e in game.events if getattr(e, "kind", "") == "fired"]
    owner = {placed.id: side for _, side, placed in scenario.placements()}
    for side, tally in luck.items():
        mine = [e for e in fired if owner[e.ship] == side]  # type: ignore[attr-defined]
        assert tally.shots == tally.rated == len(mine)
        assert tally.hits == sum(e.hit for e in mine)  # type: ignore[attr-defined]
        assert 0 < tally.expected < tally.shots


def test_luck_is_empty_where_the_odds_are_not_settled() -> None:
    # A VV5 missile's odds still turn on the target's burn when it is launched: its shot is counted, not rated.
    scenario = builtin_scenario("vv5-dogfight")
    game = play_out(scenario, {"red": "greedy", "blue": "greedy"}, 0, {})
    luck = game_luck(game)
    assert any(t.shots > t.rated for t in luck.values())
    for tally in luck.values():
        assert tally.luck is None or tally.luck == pytest.approx(tally.hits - tally.expected)


def test_interval_helpers() -> None:
    assert wilson(0, 0) == (0.0, 0.0, 0.0)
    assert mean_interval([]) == (0.0, 0.0, 0.0)
    assert mean_interval([0.5]) == (0.5, 0.5, 0.5)
    mean, lo, hi = mean_interval([0.0, 1.0, 1.0, 1.0])
    assert mean == 0.75
    assert lo < mean < hi <= 1.0


def test_the_figures_reach_parquet_and_the_report(rows: list[dict[str, Any]], tmp_path: Path) -> None:
    results = tmp_path / "r.parquet"
    command = "vectorwar lab run msc-duel -n 6"
    cells_path = write_rows(rows, results, command=command)
    assert cells_path == cells_file(results)
    cells = pd.read_parquet(cells_path)
    assert cells.attrs["command"] == command
    red = cells[(cells["job"] == 0) & (cells["side"] == "red")].iloc[0]
    assert (red["wins"], red["completion"]) == (GAMES, 1.0)
    frame = read_rows(results)
    report = make_report(frame, tmp_path / "report")
    page = report.html.read_text()
    # The page names what was played and how it was made.
    assert "vectorwar lab run msc-duel -n 6" in page
    assert "red greedy, blue greedy" in page
    assert "Seeds: 0-5" in page
    assert "Games: 12 in 2 set-ups" in page
    # Figures in decimals with intervals: red's sure wins in the one-sided cell.
    assert "1.000 (0.610–1.000)" in page
    # Captions are words, not file names.
    assert all(not caption.startswith(("winrate-", "sides", "length")) for caption in report.captions.values())
    assert "<figcaption>Side advantage" in page
    assert report.labels["winrate-setups"] == ["one-sided", "never meet"]
    # One sample game a cell, saved as a game file that loads and replays.
    assert sorted(report.samples) == [0, 1]
    assert 'href="samples/cell-0-seed-0.json"' in page
    from vectorwar.savefile import load_game

    game, controllers = load_game(report.samples[0])
    assert controllers == {"red": "greedy", "blue": "greedy"}
    assert game.result is not None
    assert game.result.winners == ("red",)


def test_an_older_results_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    path = tmp_path / "old.parquet"
    pd.DataFrame({"job": [0], "winner": ["red"]}).to_parquet(path)
    with pytest.raises(LabError, match=r"no column 'label'.*older vectorwar"):
        read_rows(path)


def test_a_design_in_one_side_against_a_bot_is_no_tournament() -> None:
    frame = pd.DataFrame(
        {
            "bots": [json.dumps({"red": "greedy", "blue": "greedy"})] * 2,
            "sides": [json.dumps(["red", "blue"])] * 2,
            "params": [json.dumps({"fleet.red": "ship2"}), json.dumps({"fleet.red": "ship2", "fleet.blue": "ship1"})],
            "winner": ["red", "blue"],
        }
    )
    assert tournament_table(frame.iloc[:1]) == {}
    assert tournament_table(frame) == {"ship2": {"ship1": (0.0, 1)}, "ship1": {"ship2": (1.0, 1)}}


def test_rows_without_details_carry_no_luck_and_no_sample() -> None:
    job = Job(0, builtin_scenario("msc-duel").to_data(), {"red": "greedy", "blue": "greedy"}, details=False)
    (row,) = play_seeds(job, [0])
    assert (row["luck"], row["sample"]) == ("{}", "")
    assert row["winner"] in ("red", "blue", "")
    (full,) = play_seeds(Job(0, job.scenario, job.controllers), [0])
    # The same game either way: details only add to the row.
    assert {k: full[k] for k in row if k not in ("luck", "sample")} == {
        k: v for k, v in row.items() if k not in ("luck", "sample")
    }
    assert full["sample"]
    assert json.loads(full["luck"])
