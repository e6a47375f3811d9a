"""VMS initiative and the subphase order rulings."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from vectorwar.dice import Dice
from vectorwar.systems.vms.initiative import (
    CAPITAL,
    FIGHTERS,
    MEDIUM,
    NORMAL_SUBPHASE,
    REMAINING,
    SHUTTLES,
    SUBPHASE_ORDERS,
    choices,
    roll_initiative,
)


def test_ruling_full_subphase_order_default_and_option() -> None:
    """Ruling *Full subphase order*: medium directly before fighters, remaining directly after."""
    assert SUBPHASE_ORDERS["shuttles-first"] == (SHUTTLES, CAPITAL, MEDIUM, FIGHTERS, REMAINING)
    assert SUBPHASE_ORDERS["shuttles-after-capital"] == (CAPITAL, SHUTTLES, MEDIUM, FIGHTERS, REMAINING)
    for order in SUBPHASE_ORDERS.values():
        assert order.index(FIGHTERS) == order.index(MEDIUM) + 1 == order.index(REMAINING) - 1
        assert choices(FIGHTERS, -5, 4, order) == (MEDIUM,)


def test_ruling_civilians_move_with_the_remaining_ships() -> None:
    assert NORMAL_SUBPHASE["civilian"] == REMAINING


def test_ruling_no_shift_off_the_ends_of_the_order() -> None:
    """Ruling *Initiative at the ends of the order*."""
    order = SUBPHASE_ORDERS["shuttles-first"]
    assert choices(SHUTTLES, -5, 1, order) == (SHUTTLES,)
    assert choices(SHUTTLES, 5, 1, order) == (SHUTTLES, CAPITAL)
    assert choices(REMAINING, 5, 1, order) == (REMAINING, FIGHTERS)


def test_roll_equal_to_the_total_counts_and_zero_never_shifts() -> None:
    """ "less than or equal to the absolute value" of the total."""
    assert choices(MEDIUM, 3, 3) == (MEDIUM, CAPITAL, FIGHTERS)
    assert choices(MEDIUM, 3, 4) == (MEDIUM,)
    assert choices(MEDIUM, 0, 1) == (MEDIUM,)


@given(st.integers(0, 10_000), st.integers(-25, 25))
def test_initiative_choices_always_include_where_it_must_or_may_move(seed: int, total: int) -> None:
    modifiers = [total]
    result, event = roll_initiative("X", "medium", modifiers, Dice(seed))
    assert event.total == result.roll
    if result.forced:
        assert result.choices == (CAPITAL,)
    else:
        assert result.choices[0] == MEDIUM
