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


def test_a_scenario_is_drawish_when_over_a_fifth_of_its_games_are_drawn() -> None:
    from balance import flags

    sides = ["red", "blue"]
    assert flags(sides, Counter(red=39, blue=40), 21, 100) == "drawish"
    assert flags(sides, Counter(red=40, blue=40), 20, 100) == "-"  # at most 20 % is not drawish


def test_a_two_side_scenario_is_uneven_when_a_sides_points_are_outside_35_to_65() -> None:
    from balance import flags

    sides = ["red", "blue"]
    assert flags(sides, Counter(red=34, blue=66), 0, 100) == "uneven"
    assert flags(sides, Counter(red=66, blue=34), 0, 100) == "uneven"
    assert flags(sides, Counter(red=35, blue=65), 0, 100) == "-"  # 35 % and 65 % are even
    assert flags(sides, Counter(red=65, blue=35), 0, 100) == "-"
    # A draw counts half: 30 % wins and 10 % draws is 35 % of the points.
    assert flags(sides, Counter(red=30, blue=60), 10, 100) == "-"
    # Three sides: no even share to hold them to.
    assert flags(["red", "blue", "green"], Counter(red=90, blue=5, green=5), 0, 100) == "-"


def test_every_built_in_scenario_says_whether_its_text_makes_it_uneven() -> None:
    import vectorwar
    from balance import TEXT
    from vectorwar.catalogue import scenario_paths

    # A scenario added without its line would print "?" in the balance table. (Those of the tests' own fifth system,
    # outside the package, are not in it.)
    package = Path(vectorwar.__file__).parent
    shipped = [i for i, path in scenario_paths().items() if package in Path(path).parents]
    assert sorted(shipped) == sorted(TEXT)


def test_the_audit_plays_only_the_players_a_scenarios_system_offers() -> None:
    from audit import jobs

    todo = jobs(["msc-duel"], ["greedy", "no-such-bot"], range(2))
    assert todo == [("msc-duel", "greedy", 0), ("msc-duel", "greedy", 1)]
