"""Golden playthrough of VV5 (see tests/support/golden.py; ``VECTORWAR_UPDATE_GOLDEN=1`` rewrites it)."""

from __future__ import annotations

from tests.support.golden import check_golden, golden_lines

GOLDEN = "vv5-dogfight-seed3.txt"


def test_vv5_golden_dogfight_seed_3_greedy_vs_random() -> None:
    """VV5 sequence of play end to end: vv5-dogfight, red greedy against blue random, seed 3."""
    check_golden(GOLDEN, "vv5-dogfight", {"red": "greedy", "blue": "random"}, 3)


def test_vv5_golden_log_is_a_complete_game() -> None:
    lines = golden_lines(GOLDEN)
    assert lines[0] == "--- turn 1 ---"
    assert lines[-1].startswith("game over: ")
    assert "VP" in lines[-1]
    assert sum(line.startswith("roll d6 for initiative") for line in lines) >= 2
    assert any(" has the initiative" in line for line in lines)
    assert any("plots" in line or "->" in line for line in lines)
