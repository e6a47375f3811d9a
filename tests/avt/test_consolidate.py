"""Vector consolidation (A5.363-A5.366)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.systems.avt.arrows import Arrow, arrows_of, velocity_of
from vectorwar.systems.avt.consolidate import consolidate
from vectorwar.vectors import Velocity


def test_avt_a5_364_third_sample_game_folds_to_2_in_a_and_4_in_b() -> None:
    # The ship held 4 in A and 2 in B from game two; its burn added 2 in C and 1 up.
    result = consolidate({Arrow.A: 4, Arrow.B: 2, Arrow.C: 2, Arrow.UP: 1})
    assert dict(result.after) == {Arrow.A: 2, Arrow.B: 4, Arrow.UP: 1}
    assert str(result.velocity) == "A=2, B=4, up=1"


def test_ruling_fold_120_degrees_4_in_a_and_2_in_c_alone_is_2_in_a_and_2_in_b() -> None:
    # Checked against hex geometry: one hex in A plus one in C is one hex in B. The text's
    # "2 in A and 4 in B" includes the 2 in B the ship already had (ruling "The fold example").
    result = consolidate({Arrow.A: 4, Arrow.C: 2})
    assert dict(result.after) == {Arrow.A: 2, Arrow.B: 2}
    assert velocity_of({Arrow.A: 4, Arrow.C: 2}) == result.velocity


def test_avt_a5_364_opposite_vectors_cancel_first() -> None:
    result = consolidate({Arrow.A: 3, Arrow.D: 1, Arrow.UP: 2, Arrow.DOWN: 2})
    assert dict(result.after) == {Arrow.A: 2}
    assert result.steps == ("A and D cancel: 1 off both", "up and down cancel: 2 off both")


def test_avt_a5_366_the_c_d_up_burn_works_out_to_a_3_2_1_split() -> None:
    # Thrust 4 at C/D+ for two cells: one dot in C, one in D, one up, on top of 4 in A and 2 in B.
    result = consolidate({Arrow.A: 4, Arrow.B: 2, Arrow.C: 1, Arrow.D: 1, Arrow.UP: 1})
    assert str(result.velocity) == "A=2, B=3, up=1"


def test_avt_consolidate_three_alternate_directions_fold_then_cancel() -> None:
    result = consolidate({Arrow.A: 2, Arrow.C: 2, Arrow.E: 2})
    assert result.after == ()
    assert len(result.steps) == 2


def test_avt_consolidate_refuses_negative_counts() -> None:
    with pytest.raises(ValueError, match="never negative"):
        consolidate({Arrow.A: -1})


arrow_counts = st.dictionaries(st.sampled_from(list(Arrow)), st.integers(0, 15), max_size=8)


@given(arrow_counts)
def test_property_consolidation_is_the_vector_sum_in_the_grids_form(counts: dict[Arrow, int]) -> None:
    result = consolidate(counts)
    assert result.velocity == velocity_of(counts)
    after = dict(result.after)
    assert after == arrows_of(result.velocity)
    horizontal = sorted(a.value for a in after if not a.vertical)
    assert len(horizontal) <= 2
    if len(horizontal) == 2:
        assert (horizontal[1] - horizontal[0]) in (1, 5)  # adjacent
    assert sum(1 for a in after if a.vertical) <= 1


@given(st.builds(Velocity, st.integers(-20, 20), st.integers(-20, 20), st.integers(-9, 9)))
def test_property_a_consolidated_velocity_is_left_alone(v: Velocity) -> None:
    result = consolidate(arrows_of(v))
    assert result.velocity == v
    assert result.steps == ()
