"""Seeded, counter-based dice with a logged purpose for every roll."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.dice import Dice, DiceKind


@given(st.integers(min_value=0, max_value=2**63), st.integers(min_value=0, max_value=10_000))
def test_same_seed_and_counter_give_the_same_faces(seed: int, count: int) -> None:
    assert Dice(seed, count).roll("2d6", "x").faces == Dice(seed, count).roll("2d6", "y").faces


def test_every_kind_stays_in_range_and_is_logged() -> None:
    dice = Dice(11)
    spans: dict[DiceKind, tuple[int, int]] = {
        "d6": (1, 6),
        "2d6": (2, 12),
        "d10": (1, 10),
        "d20": (1, 20),
        "2d10-diff": (0, 9),
    }
    for kind, (low, high) in spans.items():
        for _ in range(200):
            roll = dice.roll(kind, f"test {kind}")
            assert low <= roll.total <= high
    assert len(dice.log) == 200 * len(spans)
    assert dice.count == 200 * (1 + 2 + 1 + 1 + 2)
    three = dice.roll("xd10", "structure damage", number=3)
    assert len(three.faces) == 3
    assert three.kind == "3d10"


def test_larger_minus_smaller() -> None:
    dice = Dice(5)
    for _ in range(50):
        roll = dice.roll("2d10-diff", "AV:T roll")
        assert roll.total == max(roll.faces) - min(roll.faces)


def test_d6_is_fair_enough() -> None:
    dice = Dice(2026)
    counts = Counter(dice.roll("d6", "fairness").total for _ in range(6000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(850 < n < 1150 for n in counts.values())


def test_take_log_hands_over_and_clears() -> None:
    dice = Dice(1)
    dice.roll("d6", "first")
    rolls = dice.take_log()
    assert [r.purpose for r in rolls] == ["first"]
    assert dice.log == []
    assert "first: d6" in str(rolls[0])


def test_unknown_dice_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown dice"):
        Dice(1).roll("d7", "nothing")  # type: ignore[arg-type]  # the dice no DiceKind names, on purpose
    with pytest.raises(ValueError, match="cannot roll 0"):
        Dice(1).roll("xd10", "nothing", number=0)
