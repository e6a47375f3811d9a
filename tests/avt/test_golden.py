"""Golden playthrough of AV:T (see tests/support/golden.py; ``VECTORWAR_UPDATE_GOLDEN=1`` rewrites it)."""

from __future__ import annotations

from tests.support.golden import check_golden, golden_lines

GOLDEN = "avt-duel-wasp-seed2.txt"


def test_avt_golden_duel_seed_2_greedy_vs_random() -> None:
    """The beams-only duel end to end: the Rafik (greedy) against the Wasp (random), seed 2."""
    check_golden(GOLDEN, "avt-duel-wasp", {"blue": "greedy", "red": "random"}, 2)


def test_avt_golden_log_is_a_fight_to_a_kill() -> None:
    lines = golden_lines(GOLDEN)
    assert lines[0] == "--- turn 1 ---"
    assert lines[-1] == "game over: blue wins (elimination)"
    assert any(" fires A1 at Wasp" in line for line in lines)
    assert any("Initial Soak" in line for line in lines)
    assert any(line.startswith("Wasp is destroyed") for line in lines)
