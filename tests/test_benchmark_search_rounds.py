"""benchmarks/search_rounds.py: it counts a decision's matrix as the search bot plays it, and plays the same."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from vectorwar.search import LEVELS, SearchBot
from vectorwar.search.budget import scaled
from vectorwar.setup import set_up

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(autouse=True)
def _benchmarks_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # benchmarks/ is a folder of scripts that import each other by name, imported so here as in test_benchmark_sprt.
    monkeypatch.syspath_prepend(str(BENCHMARKS))


def test_the_counting_bot_counts_every_cell_and_trial_and_chooses_as_search_does() -> None:
    from search_rounds import CountingBot

    game = set_up("msc-duel", seed=3).game
    side = game.waiting_for[0]
    view = game.system.side_view(game.state, side)
    counting = CountingBot(game.system, LEVELS[1])
    counting.tally = Counter()
    chosen = counting.choose(view, side, random.Random(0))
    assert str(chosen) == str(SearchBot(game.system, LEVELS[1]).choose(view, side, random.Random(0)))
    tally = counting.tally
    assert tally["rolled"] == 1  # MSC rolls its trials' shots
    # Every cell of the matrix is played in each round of the budget as MSC's trial cost scales it.
    budget = scaled(LEVELS[1], game.system.rollout_cost(view, counting.trials))
    assert 0 < tally["cells"] <= budget.mine * budget.theirs
    assert tally["trials"] == tally["cells"] * budget.rounds
    assert tally["repeated"] == tally["cells"]
    assert 0 <= tally["agreeing"] <= tally["cells"]


def test_the_table_names_each_scenario_and_how_its_trials_were_judged(capsys: pytest.CaptureFixture[str]) -> None:
    from search_rounds import main

    main(["--decisions", "1", "msc-duel"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["scenario", "judged"]
    assert lines[1].split()[:3] == ["msc-duel", "rolled", "1"]
