"""Golden playthrough of MSC (see tests/support/golden.py; ``VECTORWAR_UPDATE_GOLDEN=1`` rewrites it)."""

from __future__ import annotations

from tests.support.golden import check_golden, golden_lines

GOLDEN = "msc-duel-seed7.txt"


def test_msc_golden_duel_seed_7_greedy_vs_random() -> None:
    """MSC 4.0-7.0 end to end: msc-duel, red greedy against blue random, seed 7."""
    check_golden(GOLDEN, "msc-duel", {"red": "greedy", "blue": "random"}, 7)


def test_msc_golden_log_is_a_complete_game() -> None:
    lines = golden_lines(GOLDEN)
    assert lines[0] == "--- turn 1 ---"
    assert lines[-1].startswith("game over: ")
    assert sum(line.startswith("roll d6 for initiative") for line in lines) >= 2
