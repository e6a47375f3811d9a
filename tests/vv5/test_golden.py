"""Golden playthrough: the whole event log of one VV5 bot game, kept in tests/golden/.

A change to any VV5 rule, the dice, or the bots shows up here as a diff of the
log. If the change is intended, rewrite the file with
``VECTORWAR_UPDATE_GOLDEN=1 python -m pytest tests/vv5/test_golden.py`` and
review the diff before keeping it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

from vectorwar.catalogue import builtin_scenario
from vectorwar.play import play_out

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "vv5-dogfight-seed3.txt"


def dogfight_log() -> str:
    game = play_out(builtin_scenario("vv5-dogfight"), {"red": "greedy", "blue": "random"}, seed=3)
    assert game.is_over
    return "".join(f"{e.describe()}\n" for e in game.events)


def test_vv5_golden_dogfight_seed_3_greedy_vs_random() -> None:
    """VV5 sequence of play end to end: vv5-dogfight, red greedy against blue random, seed 3."""
    actual = dogfight_log()
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


def test_vv5_golden_log_is_a_complete_game() -> None:
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "--- turn 1 ---"
    assert lines[-1].startswith("game over: ")
    assert "VP" in lines[-1]
    assert sum(line.startswith("roll d6 for initiative") for line in lines) >= 2
    assert any(" has the initiative" in line for line in lines)
    assert any("plots" in line or "->" in line for line in lines)
