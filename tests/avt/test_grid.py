"""The movement grid (A2.1, A5.284-A5.2851, A5.365) against the text's worked numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import VectorwarError
from vectorwar.systems.avt.arrows import Arrow, arrows_of
from vectorwar.systems.avt.grid import (
    SEGMENTS,
    Column,
    MovementGrid,
    _remainder_rows,
    grid_from_text,
    line_order,
    split_pattern,
    spread,
    vertical_pattern,
)
from vectorwar.vectors import Velocity


def moved_on(counts: tuple[int, ...]) -> list[int]:
    return [s for s, n in enumerate(counts, 1) if n]


def test_avt_a2_1_seven_hexes_a_turn_move_on_segments_2_to_8() -> None:
    assert moved_on(spread(7)) == [2, 3, 4, 5, 6, 7, 8]
    assert spread(7) == (0, 1, 1, 1, 1, 1, 1, 1)


def test_avt_a2_1_twelve_hexes_a_turn_move_1_2_1_2() -> None:
    assert spread(12) == (1, 2, 1, 2, 1, 2, 1, 2)


def test_avt_a5_2851_a_vector_over_8_moves_every_segment_plus_the_remainder_pattern() -> None:
    grid = MovementGrid.of(Velocity.parse("A=12, B=2"))
    four_two = MovementGrid.of(Velocity.parse("A=4, B=2"))
    for s in range(1, 9):
        plain = four_two.counts(s)
        fast = grid.counts(s)
        assert fast[Arrow.A] == plain.get(Arrow.A, 0) + 1
        assert fast.get(Arrow.B, 0) == plain.get(Arrow.B, 0)


def test_avt_a5_285_the_4_2_split_matches_the_second_and_third_sample_games() -> None:
    # A5.29: segment 8 moves one hex in B; A5.32-A5.36: segment 1 none, 2 A, 3 A, 4 B, 5 none.
    grid = MovementGrid.of(Velocity.parse("A=4, B=2"))
    assert [grid.moves(s) for s in range(1, 9)] == ["-", "A", "A", "B", "-", "A", "A", "B"]
    assert (str(grid.yellow), str(grid.tan), grid.pink) == ("A=4", "B=2", None)


def test_avt_a5_364_a_consolidated_grid_keeps_its_pattern_with_the_directions_swapped() -> None:
    # "because the larger vector is always put in the yellow column, we can keep the grid ... and just
    # change the directions at the top of each column": 4A|2B became 4B|2A.
    old = MovementGrid.of(Velocity.parse("A=4, B=2"))
    new = MovementGrid.of(Velocity.parse("A=2, B=4"))
    assert (str(new.yellow), str(new.tan)) == ("B=4", "A=2")
    assert [r[:2] for r in new.rows] == [r[:2] for r in old.rows]


def test_avt_a5_12_to_a5_17_first_sample_game_moves_segment_by_segment() -> None:
    grid = MovementGrid.of(Velocity.parse("A=6, B=3, up=1"))
    # A5.12 A; A5.13 A; A5.14 B; A5.15 A and one level up; A5.16 A; A5.17 B; A5.18 the rest of the grid.
    assert [grid.moves(s) for s in range(1, 7)] == ["A", "A", "B", "A up", "A", "B"]
    total = {a: sum(grid.counts(s).get(a, 0) for s in range(1, 9)) for a in (Arrow.A, Arrow.B, Arrow.UP)}
    assert total == {Arrow.A: 6, Arrow.B: 3, Arrow.UP: 1}


def test_avt_a5_365_the_4_2_1_split_reads_the_6_1_vertical_grid() -> None:
    grid = MovementGrid.of(Velocity.parse("A=2, B=4, up=1"))
    assert grid.pink is not None
    assert str(grid.pink) == "up=1"
    assert tuple(r[2] for r in grid.rows) == vertical_pattern(6, 1)
    # A straight 3-D line: the climb happens mid-turn, not at either end.
    assert vertical_pattern(6, 1).index(1) + 1 == 5


def test_ruling_remainder_grids_split_patterns() -> None:
    assert split_pattern(6, 3) == ((1, 0), (1, 0), (0, 1), (1, 0), (1, 0), (0, 1), (1, 0), (1, 1))
    assert split_pattern(4, 0) == tuple((n, 0) for n in spread(4))
    with pytest.raises(ValueError, match="larger"):
        split_pattern(2, 4)


def test_ruling_remainder_grids_vertical_alone_is_timed_like_any_vector() -> None:
    for v in range(8):
        assert vertical_pattern(0, v) == spread(v)


def test_avt_grid_vertical_is_timed_against_the_horizontal_sum() -> None:
    # The text looks the pink column up by (sum of horizontal remainders | vertical): it changes with h.
    assert vertical_pattern(9, 1) == (0, 0, 0, 1, 0, 0, 0, 0)
    assert vertical_pattern(0, 1) == (0, 0, 0, 0, 0, 0, 0, 1)


def test_avt_grid_descending_uses_the_down_arrow() -> None:
    grid = MovementGrid.of(Velocity.parse("C=3, down=2"))
    assert grid.pink is not None
    assert grid.pink.arrow is Arrow.DOWN
    assert sum(r[2] for r in grid.rows) == 2


def test_avt_grid_equal_vectors_put_the_anticlockwise_one_in_the_yellow_column() -> None:
    assert str(MovementGrid.of(Velocity.parse("A=3, F=3")).yellow) == "F=3"
    assert str(MovementGrid.of(Velocity.parse("B=3, C=3")).yellow) == "B=3"


def test_avt_grid_segment_numbers_are_checked() -> None:
    with pytest.raises(ValueError, match="1-8"):
        MovementGrid.of(Velocity()).counts(9)


def test_line_order_interleaves_evenly() -> None:
    assert [str(a) for a in line_order({Arrow.A: 2, Arrow.B: 2})] == ["A", "B", "A", "B"]
    assert line_order({}) == ()


velocities = st.builds(
    Velocity,
    st.integers(-20, 20),
    st.integers(-20, 20),
    st.integers(-12, 12),
)


@given(velocities)
def test_property_a_whole_turn_of_the_grid_moves_exactly_the_vector(v: Velocity) -> None:
    grid = MovementGrid.of(v)
    totals: dict[Arrow, int] = {}
    for s in range(1, 9):
        for arrow in grid.steps(s):
            totals[arrow] = totals.get(arrow, 0) + 1
    assert totals == arrows_of(v)


@given(st.integers(0, 60))
def test_property_spread_never_runs_ahead_of_steady_motion_nor_a_hex_behind(n: int) -> None:
    done = 0
    for s, moved in enumerate(spread(n), 1):
        done += moved
        assert done * 8 <= n * s < (done + 1) * 8


@given(st.integers(0, 7), st.integers(0, 7), st.integers(0, 7))
def test_property_split_patterns_hold_every_hex_and_stay_on_a_line(a: int, b: int, v: int) -> None:
    major, minor = max(a, b), min(a, b)
    pattern = split_pattern(major, minor)
    assert sum(m for m, _ in pattern) == major
    assert sum(n for _, n in pattern) == minor
    assert tuple(m + n for m, n in pattern) == spread(major + minor)
    climb = vertical_pattern(major + minor, v)
    assert sum(climb) == v


def test_ruling_remainder_grids_one_hex_per_column_per_segment_for_7_4() -> None:
    """docs/rulings/avt.md, *AV:T remainder grids*: each dot copied from the play aid is one hex (A5.285)."""
    pattern = split_pattern(7, 4)
    assert moved_on(tuple(a for a, _ in pattern)) == [1, 2, 3, 4, 6, 7, 8]
    assert moved_on(tuple(b for _, b in pattern)) == [3, 5, 6, 8]
    assert vertical_pattern(2, 7) == (1, 1, 0, 1, 1, 1, 1, 1)


def test_property_every_three_way_split_gives_each_column_at_most_one_remainder_hex_a_segment() -> None:
    """All 8 x 8 x 8 remainders, and every grid with up to two full turns in each column besides."""
    for major in range(8):
        for minor in range(major + 1):
            pattern = split_pattern(major, minor)
            assert all(a <= 1 and b <= 1 for a, b in pattern), (major, minor, pattern)
            for v in range(8):
                climb = vertical_pattern(major + minor, v)
                assert max(climb) <= 1, (major, minor, v, climb)
                assert sum(climb) == v
    for a in range(24):
        for b in range(0, 24, 3):
            for up in (0, 5, 7, 15, 23):
                grid = MovementGrid.of(Velocity.parse(f"A={a}, B={b}, up={up}"))
                for i, column in enumerate((grid.yellow, grid.tan, grid.pink)):
                    if column is not None:
                        full = column.per_turn // 8
                        assert {row[i] - full for row in grid.rows} <= {0, 1}, (a, b, up, str(grid))


_spellings = st.sampled_from(["A", "b", "C", "d", "E", "f", "up", "UP", "Up", "down", "Down", "x", "", "u p"])
_counts = st.one_of(
    st.integers(0, 40).map(str),
    st.sampled_from(["999999", "1000000", "1000001", "0000007", "+3", "-3", "3 4", "", "\u0663"]),
)
_terms = st.tuples(st.sampled_from(["", " ", "\t", "\u00a0"]), _spellings, st.sampled_from(["=", " = ", "=="]), _counts)
_texts = st.one_of(
    st.lists(_terms, min_size=1, max_size=5).map(lambda ts: ",".join(f"{w}{n}{e}{c}{w}" for w, n, e, c in ts)),
    st.sampled_from(["0", " 0 ", "", ","]),
)


@given(_texts)
def test_property_a_grid_from_text_reads_the_text_as_velocity_parse_does(text: str) -> None:
    """The grid's own quick reader of a vector's text agrees with the kernel's parser, errors included."""
    try:
        expected: object = MovementGrid.of(Velocity.parse(text))
    except VectorwarError as error:
        expected = (type(error), str(error))
    try:
        got: object = grid_from_text(text)
    except VectorwarError as error:
        got = (type(error), str(error))
    assert got == expected


@given(st.integers(-80, 80), st.integers(-80, 80), st.integers(-80, 80))
def test_property_a_grid_built_slot_by_slot_is_the_grid_its_fields_make(dq: int, dr: int, dz: int) -> None:
    """The quick builder (slots set one by one, columns named from a table, shifted rows shared) makes the grid the
    dataclass's own constructor makes of the same columns and of each row's eights plus its remainder dots."""
    grid = MovementGrid.of(Velocity(dq, dr, dz))
    columns = (grid.yellow, grid.tan, grid.pink)
    a, b, up = (c.per_turn if c is not None else 0 for c in columns)
    big, small, climb = a // SEGMENTS, b // SEGMENTS, up // SEGMENTS
    rows = tuple(
        (big + x, small + y, climb + z) for x, y, z in _remainder_rows(a % SEGMENTS, b % SEGMENTS, up % SEGMENTS)
    )
    yellow, tan, pink = (None if c is None else Column(c.arrow, c.per_turn) for c in columns)
    plain = MovementGrid(yellow, tan, pink, rows)
    assert grid == plain
    assert repr(grid) == repr(plain)
    assert hash(grid) == hash(plain)
    assert all(type(c) is Column for c in columns if c is not None)
    assert sum(map(abs, (dq, dr, -dq - dr))) == 2 * (a + b)
    assert up == abs(dz)
