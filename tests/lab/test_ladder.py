"""`vectorwar ladder`: every computer player of a system against every other, both sides, rated."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from tests.cli.helpers import plain, runner
from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.cli import app
from vectorwar.lab.adapter import sides_giving_orders
from vectorwar.lab.ladder import ladder_scenarios, markdown_table, plan_ladder, rating_rows
from vectorwar.lab.ratings import Outcome, fit_ratings
from vectorwar.lab.runner import LabError, read_rows, run_jobs
from vectorwar.players import computer_players
from vectorwar.registry import get_system


@pytest.fixture(autouse=True)
def _quiet_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))


def test_the_ladder_takes_the_systems_menu_and_its_contested_two_side_scenarios() -> None:
    ladder = plan_ladder("avt", games=2)
    assert list(ladder.players) == list(computer_players(get_system("avt")))
    two_side = [i for i in sorted(scenario_paths()) if i.startswith("avt-") and len(builtin_scenario(i).sides) == 2]
    contested = [i for i in two_side if len(sides_giving_orders(builtin_scenario(i))) == 2]
    assert list(ladder.scenarios) == contested == ladder_scenarios("avt")
    # The tutorial's targets never act, so a game there measures only one player.
    assert "avt-duel-wasp" in contested
    assert "avt-drift" in two_side
    assert "avt-drift" not in contested


def test_every_pairing_plays_both_sides_on_the_same_seeds_spread_over_the_scenarios() -> None:
    ladder = plan_ladder("msc", games=7, games_with={"search:3": 3}, seed=5)
    players = list(ladder.players)
    pairings = {(a, b) for i, a in enumerate(players) for b in players[i + 1 :]}
    assert set(ladder.games) == pairings
    # Odd counts round up to a game from each side; a slow player's pairings play its smaller count.
    assert dict(ladder.games) == {p: 4 if "search:3" in p else 8 for p in pairings}
    for lower, upper in pairings:
        jobs = [j for j in ladder.jobs if set(j.controllers.values()) == {lower, upper}]
        assert sum(j.games for j in jobs) == ladder.games[(lower, upper)]
        pairs = ladder.games[(lower, upper)] // 2
        played = sorted({j.scenario["id"] for j in jobs})
        assert len(played) == min(pairs, len(ladder.scenarios))
        for scenario in played:
            paired = [j for j in jobs if j.scenario["id"] == scenario]
            # A pair of games a scenario: sides swapped, seeds alike.
            assert len(paired) == 2
            first, second = paired
            assert list(first.controllers.values()) == list(second.controllers.values())[::-1]
            assert first.seeds == second.seeds
            assert first.first_seed == 5
    assert [j.index for j in ladder.jobs] == list(range(len(ladder.jobs)))
    # The pairings take the scenarios in turn, each where the last left off: every scenario is played
    # about as often, though the pairings of search:3 play two each.
    plays = [sum(j.games for j in ladder.jobs if j.scenario["id"] == s) for s in ladder.scenarios]
    assert max(plays) - min(plays) <= 2
    # Eight games over four scenarios: four pairs, one a scenario.
    assert all(j.games == 1 for j in ladder.jobs)


def test_pairs_beyond_the_scenario_count_take_the_next_seeds() -> None:
    ladder = plan_ladder("msc", players=["random", "greedy"], scenarios=["msc-duel", "msc-fleet"], games=6)
    seeds = {(j.scenario["id"], tuple(j.seeds)) for j in ladder.jobs}
    assert seeds == {("msc-duel", (0, 1)), ("msc-fleet", (0,))}
    # The next pairing starts where this one left off.
    three = plan_ladder("msc", players=["random", "greedy", "search"], scenarios=["msc-duel", "msc-fleet"], games=2)
    assert [(j.scenario["id"], set(j.controllers.values())) for j in three.jobs[::2]] == [
        ("msc-duel", {"random", "greedy"}),
        ("msc-fleet", {"random", "search"}),
        ("msc-duel", {"greedy", "search"}),
    ]
    assert ladder.total == 6


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": ["greedy", "cunning"]}, "no computer player of that name"),
        ({"players": ["greedy"]}, "two players or more"),
        ({"scenarios": ["vv5-dogfight"]}, "not a two-side msc scenario"),
        ({"games": 0}, "at least 1"),
        ({"games_with": {"cunning": 2}}, "--games-with cunning"),
    ],
)
def test_a_bad_ladder_is_refused_with_the_reason(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(LabError, match=message):
        plan_ladder("msc", **kwargs)  # type: ignore[arg-type]


def test_the_markdown_table_shows_each_level_its_interval_and_its_step() -> None:
    fit = fit_ratings([Outcome("greedy", "random", 1.0)] * 30, players=["random", "greedy"])
    table = markdown_table(rating_rows(fit, "msc"))
    lines = table.splitlines()
    assert lines[0].startswith("| player | Elo | 95 % interval | games |")
    assert lines[2].startswith("| `random` | -")
    assert lines[3].startswith("| `greedy` | +")
    assert "| 30 | 30 / 0 / 0 |" in lines[3]
    assert "not clear" not in lines[3]


def test_the_command_plays_rates_and_writes_the_tables_and_report(tmp_path: Path) -> None:
    out = tmp_path / "ladder"
    args = ["ladder", "msc", "--player", "random", "--player", "greedy", "--scenario", "msc-duel", "-n", "6"]
    result = runner().invoke(app, [*args, "--workers", "0", "--out", str(out)])
    assert result.exit_code == 0, result.output
    games = read_rows(out / "games.parquet")
    assert len(games) == 6
    assert sorted(games["seed"].tolist()) == [0, 0, 1, 1, 2, 2]
    assert sorted(set(games["bots"])) == [
        '{"blue": "greedy", "red": "random"}',
        '{"blue": "random", "red": "greedy"}',
    ]
    with (out / "ratings.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["player"], r["games"]) for r in rows] == [("random", "6"), ("greedy", "6")]
    wins = sum(int(r["wins"]) for r in rows)
    assert wins + sum(int(r["draws"]) for r in rows) // 2 == 6
    assert float(rows[1]["elo"]) > float(rows[0]["elo"])  # greedy beats random in the duel
    page = (out / "ratings.md").read_text(encoding="utf-8")
    assert "`vectorwar ladder msc -n 6 --player random --player greedy --scenario msc-duel`: 6 games" in page
    assert "| `greedy` |" in page
    assert read_rows(out / "ratings.parquet")["player"].tolist() == ["random", "greedy"]
    assert (out / "report" / "ratings.png").read_bytes().startswith(b"\x89PNG")
    assert 'src="ratings.png"' in (out / "report" / "report.html").read_text(encoding="utf-8")
    assert "| `greedy` |" in plain(result.output)


def test_the_same_ladder_plays_the_same_games() -> None:
    ladder = plan_ladder("msc", players=["random", "greedy"], scenarios=["msc-duel"], games=4, seed=3)
    first = run_jobs(ladder.jobs, workers=0)
    again = run_jobs(plan_ladder("msc", players=["random", "greedy"], scenarios=["msc-duel"], games=4, seed=3).jobs)
    assert [(r["bots"], r["seed"], r["winner"], r["steps"]) for r in first] == [
        (r["bots"], r["seed"], r["winner"], r["steps"]) for r in again
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ladder", "nosuch"], "no rule system called 'nosuch'"),
        (["ladder", "msc", "--games-with", "search:3=few"], "whole number"),
        (["ladder", "msc", "--player", "cunning"], "no computer player of that name"),
    ],
)
def test_the_command_names_what_is_wrong(args: list[str], message: str) -> None:
    result = runner().invoke(app, [*args, "--workers", "0"])
    assert result.exit_code != 0
    assert message in plain(result.output)


def test_a_ladder_is_rated_with_the_games_of_an_earlier_one(tmp_path: Path) -> None:
    args = ["ladder", "msc", "--player", "random", "--player", "greedy", "--scenario", "msc-duel", "-n", "4"]
    first, second = tmp_path / "first", tmp_path / "second"
    assert runner().invoke(app, [*args, "--workers", "0", "--out", str(first)]).exit_code == 0
    result = runner().invoke(
        app, [*args, "--seed", "100", "--with", str(first), "--workers", "0", "--out", str(second)]
    )
    assert result.exit_code == 0, result.output
    games = read_rows(second / "games.parquet")
    assert sorted(games["seed"].tolist()) == [0, 0, 1, 1, 100, 100, 101, 101]
    # Each ladder's set-ups stay cells of their own: four jobs, not two counted twice.
    assert sorted(set(games["job"].tolist())) == [0, 1, 2, 3]
    with (second / "ratings.csv").open(encoding="utf-8") as f:
        assert [(r["player"], r["games"]) for r in csv.DictReader(f)] == [("random", "8"), ("greedy", "8")]
    page = (second / "ratings.md").read_text(encoding="utf-8")
    assert f"--seed 100 --with {first}`: 4 games" in page
    assert "rated with 4 games of earlier ladders" in page
    # The folder written holds every game rated, so a third ladder can take it alone.
    third = runner().invoke(
        app, [*args, "--seed", "200", "--with", str(second), "--workers", "0", "--out", str(tmp_path / "third")]
    )
    assert third.exit_code == 0, third.output
    assert len(read_rows(tmp_path / "third" / "games.parquet")) == 12


def test_a_game_already_rated_or_another_systems_is_refused_before_any_is_played(tmp_path: Path) -> None:
    args = ["ladder", "msc", "--player", "random", "--player", "greedy", "--scenario", "msc-duel", "-n", "2"]
    first = tmp_path / "first"
    assert runner().invoke(app, [*args, "--workers", "0", "--out", str(first)]).exit_code == 0
    again = runner().invoke(app, [*args, "--with", str(first), "--workers", "0", "--out", str(tmp_path / "again")])
    assert again.exit_code != 0
    assert "on seed 0 is also in this ladder" in plain(again.output)
    assert "a game counts once" in plain(again.output)
    assert not (tmp_path / "again").exists()
    avt = ["ladder", "avt", "-n", "2", "--player", "random", "--player", "greedy", "--scenario", "avt-duel-wasp"]
    other = runner().invoke(app, [*avt, "--with", str(first), "--workers", "0", "--out", str(tmp_path / "other")])
    assert other.exit_code != 0
    assert "its games are msc's, not avt's" in plain(other.output)
    missing = runner().invoke(app, [*args, "--seed", "9", "--with", str(tmp_path / "nowhere"), "--workers", "0"])
    assert missing.exit_code != 0
    assert "no such results file" in plain(missing.output)
