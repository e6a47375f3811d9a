"""Golden playthrough: the whole event log of one bot game, kept in tests/golden/.

A change to any MSC rule, the dice, or the bots shows up here as a diff of the
log. If the change is intended, rewrite the file with
``VECTORWAR_UPDATE_GOLDEN=1 python -m pytest tests/msc/test_golden.py`` and
review the diff before keeping it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from vectorwar.catalogue import builtin_scenario
from vectorwar.play import play_out

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "msc-duel-seed7.txt"


def duel_log() -> str:
    game = play_out(builtin_scenario("msc-duel"), {"red": "greedy", "blue": "random"}, seed=7)
    assert game.is_over
    return "".join(f"{e.describe()}\n" for e in game.events)


def test_msc_golden_duel_seed_7_greedy_vs_random() -> None:
    """MSC 4.0-7.0 end to end: msc-duel, red greedy against blue random, seed 7."""
    actual = duel_log()
    if os.environ.get("VECTORWAR_UPDATE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(actual, encoding="utf-8")
    expected = GOLDEN.read_text(encoding="utf-8")
    if actual != expected:
        diff = "".join(
            difflib.unified_diff(
                expected.splitlines(keepends=True), actual.splitlines(keepends=True), str(GOLDEN), "this run"
            )
        )
        raise AssertionError(f"the event log changed (VECTORWAR_UPDATE_GOLDEN=1 rewrites it):\n{diff}")


def test_msc_golden_log_is_a_complete_game() -> None:
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "--- turn 1 ---"
    assert lines[-1].startswith("game over: ")
    assert sum(line.startswith("roll d6 for initiative") for line in lines) >= 2
