"""The designers' lab: same rows whatever the cluster, sweeps, tournaments, reports and the command."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from distributed import LocalCluster

from tests.cli.helpers import runner
from vectorwar.catalogue import builtin_scenario
from vectorwar.cli import app
from vectorwar.events import Damaged, Event, InitiativeSet
from vectorwar.lab.games import COLUMNS, Job, first_initiative, play_seeds, ship_tallies
from vectorwar.lab.metrics import wilson
from vectorwar.lab.plan import load_plan, plan_jobs
from vectorwar.lab.report import make_report
from vectorwar.lab.runner import LabError, chunks, read_rows, require_extra, run_jobs, write_rows
from vectorwar.play import play_out
from vectorwar.systems.avt.events import DamageStruck
from vectorwar.systems.vv5.events import InitiativeWon


@pytest.fixture(autouse=True)
def _quiet_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))


def two_jobs() -> list[Job]:
    duel = builtin_scenario("msc-duel").to_data()
    dogfight = builtin_scenario("vv5-dogfight").to_data()
    return [
        Job(0, duel, {"red": "greedy", "blue": "random"}, games=14, first_seed=3),
        Job(1, dogfight, {"red": "greedy", "blue": "greedy"}, games=10, first_seed=0),
    ]


def test_two_workers_give_the_same_rows_as_one(tmp_path: Path) -> None:
    jobs = two_jobs()
    seen: list[tuple[int, int]] = []
    one = run_jobs(jobs, workers=1, chunk=5, local_directory=tmp_path / "one")
    # Two workers reached as a running cluster, the way --scheduler does.
    # distributed's LocalCluster constructor carries no annotations.
    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        host="127.0.0.1",
        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        local_directory=str(tmp_path / "two"),
    ) as cluster:
        assert len(cluster.workers) == 2
        two = run_jobs(jobs, scheduler=cluster.scheduler_address, chunk=3, progress=lambda d, t: seen.append((d, t)))
    assert len(one) == 24
    assert one == two
    assert [(r["job"], r["seed"]) for r in one] == [(0, s) for s in range(3, 17)] + [(1, s) for s in range(10)]
    # The progress bar hears of every game, ending at the total.
    assert seen[-1] == (24, 24)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    # And the same as playing them here without Dask.
    assert run_jobs(jobs, workers=0) == one


def test_a_missing_extra_is_named() -> None:
    require_extra("pandas")
    with pytest.raises(LabError, match=r"vectorwar\[lab\].*no_such_module_here"):
        require_extra("pandas", "no_such_module_here")


def test_workers_and_a_scheduler_are_not_given_together() -> None:
    with pytest.raises(LabError, match="not both"):
        run_jobs(two_jobs(), workers=2, scheduler="tcp://127.0.0.1:8786")


def test_chunks_cover_every_seed_once() -> None:
    pieces = chunks(two_jobs(), 4)
    assert [len(seeds) for _, seeds in pieces] == [4, 4, 4, 2, 4, 4, 2]
    with pytest.raises(LabError, match="at least 1"):
        chunks(two_jobs(), 0)


def test_a_row_records_the_game_and_its_damage() -> None:
    job = two_jobs()[0]
    (row,) = play_seeds(job, [5])
    assert tuple(row) == COLUMNS
    assert row["scenario"] == "msc-duel"
    assert json.loads(row["bots"]) == {"red": "greedy", "blue": "random"}
    assert row["draw"] == (row["winner"] == "")
    assert row["initiative"] in ("red", "blue")
    ships = json.loads(row["ships"])
    assert {s["side"] for s in ships.values()} == {"red", "blue"}
    # Every point of damage taken was dealt by the ship that shot at it.
    assert sum(s["dealt"] for s in ships.values()) == sum(s["taken"] for s in ships.values())
    assert all(s["hits"] <= s["shots"] for s in ships.values())
    if row["winner"]:
        loser = next(s for s in ships.values() if s["side"] != row["winner"])
        assert loser["taken"] > 0 or "turn limit" in row["reason"]


@pytest.mark.parametrize(
    ("scenario_id", "initiative", "damage"),
    [
        ("vv5-dogfight", InitiativeWon, Damaged),
        ("avt-duel-wasp", None, DamageStruck),
        ("msc-duel", InitiativeSet, Damaged),
    ],
)
def test_each_systems_first_mover_and_damage_are_read_from_its_own_events(
    scenario_id: str, initiative: type[Event] | None, damage: type[Event]
) -> None:
    scenario = builtin_scenario(scenario_id)
    game = play_out(scenario, dict.fromkeys((s.id for s in scenario.sides), "greedy"), seed=2)
    first = next((e for e in game.events if isinstance(e, initiative)), None) if initiative else None
    expected = ""
    if isinstance(first, InitiativeWon):
        expected = first.side
    elif isinstance(first, InitiativeSet):
        expected = first.order[0]
    assert first_initiative(game) == expected
    assert expected or initiative is None
    taken: dict[str, int] = {}
    for event in game.events:
        if isinstance(event, DamageStruck) and damage is DamageStruck:
            taken[event.ship] = taken.get(event.ship, 0) + event.points
        elif isinstance(event, Damaged) and damage is Damaged:
            taken[event.ship] = taken.get(event.ship, 0) + event.amount
    tallies = ship_tallies(game, scenario)
    assert {ship: t["taken"] for ship, t in tallies.items() if t["taken"]} == taken
    assert taken  # the game did some damage to read


def test_parquet_and_csv_round_trip(tmp_path: Path) -> None:
    rows = run_jobs(two_jobs()[:1], workers=0)
    write_rows(rows, tmp_path / "r.parquet", tmp_path / "r.csv")
    frame = read_rows(tmp_path / "r.parquet")
    assert list(frame.columns) == list(COLUMNS)
    assert frame["seed"].tolist() == [r["seed"] for r in rows]
    assert pd.read_csv(tmp_path / "r.csv")["winner"].fillna("").tolist() == [r["winner"] for r in rows]
    with pytest.raises(LabError, match="no such results file"):
        read_rows(tmp_path / "missing.parquet")


SWEEP = """
scenario = "msc-duel"
games = 6
sides = { red = "greedy", blue = "greedy" }
[grid]
"design.ship1.engine" = [2, 3, 4]
"""


def test_a_sweep_changes_the_design_and_the_report_plots_the_swept_values(tmp_path: Path) -> None:
    plan = tmp_path / "sweep.toml"
    plan.write_text(SWEEP)
    jobs = load_plan(plan)
    assert [j.params for j in jobs] == [{"design.ship1.engine": v} for v in (2, 3, 4)]
    assert [j.scenario["designs"]["ship1"]["engine"] for j in jobs] == [2, 3, 4]
    write_rows(run_jobs(jobs, workers=0), tmp_path / "r.parquet")
    report = make_report(read_rows(tmp_path / "r.parquet"), tmp_path / "report")
    assert report.labels["winrate-design-ship1-engine"] == ["2", "3", "4"]
    for name in ("winrate-design-ship1-engine", "sides", "length", "first-mover", "summary"):
        assert report.plots[name].read_bytes().startswith(b"\x89PNG")
    page = report.html.read_text()
    assert 'src="winrate-design-ship1-engine.png"' in page
    assert "design.ship1.engine=4" in page


def test_a_tournament_plays_every_ordering_and_tables_the_bots(tmp_path: Path) -> None:
    jobs = plan_jobs({"scenario": "msc-duel", "games": 4, "tournament": {"bots": ["greedy", "random"]}}, "test plan")
    assert sorted(tuple(j.controllers.values()) for j in jobs) == [("greedy", "random"), ("random", "greedy")]
    report = make_report(pd.DataFrame(run_jobs(jobs, workers=0)), tmp_path)
    assert report.labels["tournament"] == ["greedy", "random"]
    assert "<h2>Tournament</h2>" in report.html.read_text()


def test_a_design_tournament_fields_each_design_in_each_side(tmp_path: Path) -> None:
    jobs = plan_jobs({"scenario": "msc-fleet", "games": 3, "tournament": {"designs": ["ship1", "ship3"]}}, "test plan")
    fielded = [{side["id"]: {s["design"] for s in side["ships"]} for side in j.scenario["sides"]} for j in jobs]
    assert fielded == [{"red": {"ship1"}, "blue": {"ship3"}}, {"red": {"ship3"}, "blue": {"ship1"}}]
    report = make_report(pd.DataFrame(run_jobs(jobs, workers=0)), tmp_path)
    assert report.labels["tournament"] == ["ship1", "ship3"]


@pytest.mark.parametrize(
    ("plan", "message"),
    [
        ({"scenario": "msc-duel", "grid": {"speed": [1, 2]}}, "not a thing a plan can vary"),
        ({"scenario": "msc-duel", "grid": {"side.red": ["cunning"]}}, "no computer player 'cunning'"),
        ({"scenario": "msc-duel", "grid": {"design.nope.engine": [1]}}, "no design 'nope'"),
        ({"scenario": "msc-duel", "grid": {"option.map_edge": ["sideways"]}}, "map_edge"),
        ({"scenario": "msc-duel", "games": 0}, "at least 1"),
        ({"scenario": "msc-duel", "grid": {"fleet.green": ["ship1"]}}, "fleet.green: no such side"),
        ({"scenario": "msc-duel", "grid": {"fleet.red": ["ship9"]}}, "ship9"),
        ({"scenario": "msc-duel", "tournament": {"bots": ["greedy"], "designs": ["ship1"]}}, "not both"),
        ({"scenario": "msc-duel", "sweep": {}}, "unknown key 'sweep'"),
    ],
)
def test_bad_plans_are_refused_with_the_reason(plan: dict[str, object], message: str) -> None:
    with pytest.raises(LabError, match=message):
        plan_jobs(plan, "test plan")


def test_wilson_interval_brackets_the_rate() -> None:
    p, lo, hi = wilson(3, 10)
    assert lo < p < hi
    assert wilson(0, 10)[1] == 0.0
    assert wilson(10, 10)[2] == 1.0


def test_lab_command_writes_rows_and_a_report(tmp_path: Path) -> None:
    out = tmp_path / "r.parquet"
    result = runner().invoke(
        app,
        [
            "lab",
            "run",
            "msc-duel",
            "-n",
            "5",
            "--seed",
            "2",
            "--workers",
            "0",
            "--out",
            str(out),
            "--csv",
            str(tmp_path / "r.csv"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "5 games" in result.output
    assert read_rows(out)["seed"].tolist() == [2, 3, 4, 5, 6]
    assert read_rows(tmp_path / "r-cells.parquet")["games"].tolist() == [5, 5]
    result = runner().invoke(app, ["lab", "report", str(out)])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "r-report" / "report.html").read_text()
    # The report names the command that made the results, to run it again.
    assert f"vectorwar lab run msc-duel -n 5 --seed 2 --side red=greedy --side blue=greedy --out {out}" in page
    assert (tmp_path / "r-report" / "samples" / "cell-0-seed-2.json").is_file()
    result = runner().invoke(app, ["lab", "run", "msc-duel", "--side", "red=human", "--workers", "0"])
    assert result.exit_code == 1
    assert "computer player in every side" in result.output


def test_the_documented_example_plan_is_valid() -> None:
    plan = Path(__file__).resolve().parents[2] / "docs" / "lab-sweep.toml"
    jobs = load_plan(plan)
    assert [j.label for j in jobs] == [
        "red engine 2, shields 4",
        "red engine 3, shields 3 (blue's design)",
        "red engine 4, shields 2",
    ]
    for job in jobs:
        fleets = {side["id"]: {s["design"] for s in side["ships"]} for side in job.scenario["sides"]}
        # One side varies, the other stays: red flies the swept design, blue the catalogue's Ship 1.
        assert fleets == {"red": {"ship2"}, "blue": {"ship1"}}
        assert "ship1" not in job.scenario["designs"]
    # Each point keeps red's engine and shields at the same total, so the same build points.
    assert {j.scenario["designs"]["ship2"]["engine"] + j.scenario["designs"]["ship2"]["shields"] for j in jobs} == {6}
