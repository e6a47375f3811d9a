"""The design search: legal designs within the budget, the same search on one worker or two, and its report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from distributed import LocalCluster

from tests.cli.helpers import runner
from vectorwar.cli import app
from vectorwar.lab.optimise import Search, default_scenario, design_cost, design_space, optimise, trials_frame
from vectorwar.lab.report import optimise_report
from vectorwar.lab.runner import LabError, open_runner

SMALL: dict[str, Any] = {
    "against": "ship1",
    "budget": 45,
    "trials": 4,
    "games": 3,
    "confirm": 3,
    "top": 1,
    "batch": 2,
    "seed": 7,
    "scenario_id": "msc-fleet",
}


@pytest.fixture(autouse=True)
def _quiet_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))


def outcome(search: Search) -> tuple[list[dict[str, Any]], list[tuple[str, int, int]]]:
    return [t.to_row() for t in search.trials], [(e.name, e.games, e.wins) for e in search.confirmed]


def test_the_space_and_cost_come_from_the_design_rules() -> None:
    space = design_space("msc")
    assert space.integers == {"engine": (0, 5), "shields": (1, 5), "to_hit": (0, 5)}
    assert space.names == {"weapons": ("F", "FL", "FR", "RL", "RR")}
    assert design_cost("msc", {"name": "x", "engine": 3, "shields": 3, "to_hit": 3, "weapons": ["F", "FL", "FR"]}) == 15
    assert default_scenario("msc") == "msc-fleet"


def test_two_workers_search_as_one_does_and_every_design_played_is_legal_within_the_budget(tmp_path: Path) -> None:
    with open_runner(workers=1, local_directory=tmp_path / "one") as run:
        one = optimise("msc", run, **SMALL)
    # Two workers reached as a running cluster, the way --scheduler does.
    with LocalCluster(  # type: ignore[no-untyped-call]  # distributed's constructor carries no annotations
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        host="127.0.0.1",
        scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        local_directory=str(tmp_path / "two"),
    ) as cluster:
        assert len(cluster.workers) == 2
        with open_runner(scheduler=cluster.scheduler_address) as run:
            two = optimise("msc", run, **SMALL)
    assert outcome(one) == outcome(two)
    # And the same again in this process, without Dask.
    with open_runner(workers=0) as run:
        assert outcome(optimise("msc", run, **SMALL)) == outcome(one)
    played = one.played
    assert len(played) == 4
    assert [t.batch for t in played] == [1, 1, 2, 2]  # full batches of two: a new trial is counted once
    for trial in played:
        # The fleet of three ships keeps to 45 points, and every trial played its games.
        assert trial.cost is not None
        assert trial.cost * 3 <= 45
        assert trial.games == 3
    for trial in one.trials:
        if trial.refused:
            assert trial.games == 0
    # The best design and every catalogue design within the budget are confirmed on fresh seeds.
    assert [e.name for e in one.confirmed] == [
        f"trial {max(played, key=lambda t: (t.win_rate, -t.number)).number}",
        "ship1",
        "ship2",
        "ship3",
        "scout",
    ]
    assert (one.seeds, one.confirm_seeds) == ((7, 9), (10, 12))


def test_the_report_shows_the_best_designs_and_the_progress(tmp_path: Path) -> None:
    with open_runner(workers=0) as run:
        search = optimise("msc", run, **{**SMALL, "scenario_id": "msc-duel"})
    report = optimise_report(search, tmp_path, "vectorwar lab optimise msc --against ship1")
    assert report.plots["progress"].read_bytes().startswith(b"\x89PNG")
    page = report.html.read_text()
    assert "<code>vectorwar lab optimise msc --against ship1</code>" in page
    assert "Search progress" in page
    assert "best catalogue design" in page
    for entry in search.confirmed:
        p, lo, hi = entry.interval
        assert f"{p:.3f} ({lo:.3f}–{hi:.3f})" in page
    frame = trials_frame(search)
    assert frame["trial"].tolist() == list(range(len(search.trials)))
    assert all(json.loads(d)["name"] == "Searched design" for d in frame["design"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"against": "ship9"}, "no design 'ship9'"),
        ({"scenario_id": "vv5-dogfight"}, "is for vv5"),
        ({"side": "green"}, "no side 'green'"),
        ({"bot": "cunning"}, "no computer player 'cunning'"),
        ({"trials": 0}, "trials must be at least 1"),
    ],
)
def test_bad_requests_are_refused_with_the_reason(change: dict[str, Any], message: str) -> None:
    with open_runner(workers=0) as run, pytest.raises(LabError, match=message):
        optimise("msc", run, **{**SMALL, **change})


def test_the_command_writes_trials_and_a_report(tmp_path: Path) -> None:
    out = tmp_path / "search"
    args = ["lab", "optimise", "msc", "--against", "ship1", "--budget", "45", "--trials", "2", "--games", "2"]
    args += ["--confirm", "2", "--scenario", "msc-duel", "--workers", "0", "--out", str(out)]
    result = runner().invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "2 designs played" in result.output
    assert len(pd.read_parquet(out / "trials.parquet").query("refused == ''")) == 2
    assert "vectorwar lab optimise msc --against ship1 --budget 45 --trials 2" in (out / "report.html").read_text()


def test_a_design_the_scenario_cannot_start_is_refused_and_left_out(tmp_path: Path) -> None:
    # Red starts at SPEED 3, so a design with ENGINE 2 (the catalogue's ship2) cannot be set up in its side.
    duel = (Path(__file__).resolve().parents[2] / "src/vectorwar/systems/msc/data/scenarios/msc-duel.toml").read_text()
    scenario = tmp_path / "fast-duel.toml"
    scenario.write_text(duel.replace("speed = 2", "speed = 3", 1))
    with open_runner(workers=0) as run:
        search = optimise("msc", run, **{**SMALL, "trials": 2, "scenario_id": str(scenario)})
    assert "ship2" not in [e.name for e in search.confirmed]
    assert "ship1" in [e.name for e in search.confirmed]
    assert all(t.design["engine"] >= 3 for t in search.played)
    assert all("SPEED 3 is above ENGINE" in t.refused for t in search.trials if t.refused and t.design["engine"] < 3)
