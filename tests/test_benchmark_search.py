"""benchmarks/search.py: a scenario's figures made of each decision's own (``--each``) add up as timed together."""

from __future__ import annotations

from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(autouse=True)
def _benchmarks_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # benchmarks/ is a folder of scripts that import each other by name, imported so here as in test_benchmark_sprt.
    monkeypatch.syspath_prepend(str(BENCHMARKS))


def test_each_decisions_figures_combine_into_the_scenarios() -> None:
    from search import combined

    each = [
        {"mean": 0.1, "worst": 0.1, "wall": 0.2, "rollouts": 60.0, "per_second": 600.0},
        {"mean": 0.0, "worst": 0.0, "wall": 0.0, "rollouts": 0.0, "per_second": 0.0},  # a fire declaration: no trials
        {"mean": 0.3, "worst": 0.3, "wall": 0.4, "rollouts": 300.0, "per_second": 1000.0},
    ]
    figures = combined(each)
    # The rate is every rollout over every second, not the mean of the rates (which would read 533).
    assert figures["per_second"] == pytest.approx(360 / 0.4)
    assert figures["rollouts"] == pytest.approx(120.0)
    assert figures["mean"] == pytest.approx(0.4 / 3)
    assert figures["worst"] == 0.3
    assert figures["wall"] == pytest.approx(0.2)


def test_no_decision_timed_reads_no_rate() -> None:
    from search import combined

    assert combined([{"mean": 0.0, "worst": 0.0, "wall": 0.0, "rollouts": 0.0, "per_second": 0.0}])["per_second"] == 0


def test_a_level_is_timed_with_the_budgets_a_game_gives_it() -> None:
    from search import level_bot
    from vectorwar.registry import get_system
    from vectorwar.search.budget import LEVELS, ROLLED_LEVELS

    bot = level_bot(get_system("msc"), 3)
    # MSC's trials roll their dice: its level 3 plays ROLLED_LEVELS[3], four times level 2's rounds.
    assert (bot.budget, bot.rolled) == (LEVELS[3], ROLLED_LEVELS[3])
    assert level_bot(get_system("msc"), 1).rolled == LEVELS[1]
