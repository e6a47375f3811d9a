"""benchmarks/balance.py's flags and benchmarks/audit.py's jobs: the boundaries that mark a scenario."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(autouse=True)
def _benchmarks_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # benchmarks/ is a folder of scripts that import each other by name, imported so here as in test_benchmark_sprt.
    monkeypatch.syspath_prepend(str(BENCHMARKS))


def test_a_scenario_is_drawish_only_when_its_draws_are_clearly_over_a_fifth() -> None:
    from balance import flags

    seats = ["red", "blue"]
    # 1,000 games: 25 % drawn is clear of 20 %, 21 % is not (its interval reaches under 20 %).
    assert flags(seats, Counter(red=375, blue=375), 250, 1000) == "drawish"
    assert flags(seats, Counter(red=395, blue=395), 210, 1000) == "-"


def test_a_two_side_scenario_is_uneven_only_when_a_seats_points_are_clearly_outside_35_to_65() -> None:
    from balance import flags

    seats = ["red", "blue"]
    assert flags(seats, Counter(red=300, blue=700), 0, 1000) == "uneven"  # 30 %: clear of 35 %
    assert flags(seats, Counter(red=700, blue=300), 0, 1000) == "uneven"
    assert flags(seats, Counter(red=340, blue=660), 0, 1000) == "-"  # 34 %, but its interval reaches 35 %
    # A draw counts half: 30 % wins and 20 % draws is 40 % of the points.
    assert flags(seats, Counter(red=300, blue=500), 200, 1000) == "-"
    # Three sides: no even share to hold them to.
    assert flags(["red", "blue", "green"], Counter(red=900, blue=50, green=50), 0, 1000) == "-"


def test_the_audit_plays_only_the_players_a_scenarios_system_offers() -> None:
    from audit import jobs

    todo = jobs(["msc-duel"], ["greedy", "no-such-bot"], range(2))
    assert todo == [("msc-duel", "greedy", 0), ("msc-duel", "greedy", 1)]
