"""benchmarks/compare.py's pure parts: its arguments, medians, speed-ups and table (no benchmark is run)."""

from __future__ import annotations

from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(autouse=True)
def _benchmarks_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # benchmarks/ is a folder of scripts that import each other by name, imported so here as in tests/avt/test_rules.py.
    monkeypatch.syspath_prepend(str(BENCHMARKS))


def test_arguments_name_a_base_and_pick_figures() -> None:
    from compare import FIGURES, parse_args

    args = parse_args(["d432991"])
    assert (args.base, args.rounds, args.scale) == ("d432991", 3, 1.0)
    assert args.figures == [f.name for f in FIGURES]
    args = parse_args(["main", "--figures", "msc-fleet, avt-duel", "--rounds", "5", "--scale", "0.5"])
    assert (args.figures, args.rounds, args.scale) == (["msc-fleet", "avt-duel"], 5, 0.5)


@pytest.mark.parametrize(
    "argv", [[], ["main", "--figures", "msc-fleet,chess"], ["main", "--rounds", "0"], ["main", "--scale", "0"]]
)
def test_bad_arguments_are_refused(argv: list[str]) -> None:
    from compare import parse_args

    with pytest.raises(SystemExit):
        parse_args(argv)


def test_speed_up_reads_rates_and_times_the_right_way_round() -> None:
    from compare import BY_NAME, median, speedup

    assert median([3.0, 1.0, 2.0]) == 2.0
    assert median([]) is None
    assert speedup(BY_NAME["msc-fleet"], 3000.0, 1500.0) == 2.0  # twice the games a minute
    assert speedup(BY_NAME["vv5-turn-24"], 5.0, 20.0) == 4.0  # a quarter of the milliseconds
    assert speedup(BY_NAME["msc-fleet"], None, 1500.0) is None
    assert speedup(BY_NAME["msc-fleet"], 0.0, 1500.0) is None


def test_table_shows_both_medians_and_the_speed_up() -> None:
    from compare import format_table

    table = format_table(
        {"msc-fleet": ([3000.0, 3200.0, 2900.0], [1500.0, 1400.0, 1600.0]), "avt-turn-8": ([], [])}, "d432991"
    )
    lines = table.splitlines()
    assert "d432991" in lines[0]
    assert lines[2].split() == ["msc-fleet", "games/min", "3000", "1500", "2.00x", "3/3"]
    assert lines[3].split() == ["avt-turn-8", "ms", "-", "-", "-", "0/0"]
