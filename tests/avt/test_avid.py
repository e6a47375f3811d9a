"""The AVID and shooting bearings (A5.131-A5.171, A5.42)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import OrderSyntaxError
from vectorwar.hexes import Hex, Position
from vectorwar.systems.avt.avid import (
    ALL_WINDOWS,
    TargetMarker,
    Window,
    horizontal_ray,
    ralt_level,
    ralt_range,
    ray_name,
    shoot_bearing,
)

from .helpers import offset, rotate_offset

HERE = Hex.from_offset(10, 10)


def bearing(*steps: tuple[str, int], up: int = 0) -> str:
    return str(shoot_bearing(Position(HERE), Position(offset(HERE, *steps), up)))


def test_avt_a5_131_the_avid_has_50_windows_in_four_colours() -> None:
    colours = [w.colour for w in ALL_WINDOWS]
    assert len(ALL_WINDOWS) == 50
    assert (colours.count("amber"), colours.count("blue"), colours.count("green"), colours.count("purple")) == (
        12,
        24,
        12,
        2,
    )


def test_avt_window_notation_reads_back_for_every_window() -> None:
    for w in ALL_WINDOWS:
        assert Window.parse(str(w)) == w
    assert Window.parse("F/A blue-") == Window.parse("F/A-") == Window(-1, 11)
    assert Window.parse("C(blue+)") == Window.parse("c+")
    assert Window.parse("A/F") == Window.parse("F/A")
    assert Window.parse("purple-") == Window.parse("down") == Window(-3, 0)


@pytest.mark.parametrize(
    ("text", "problem"),
    [("A/C", "not a hex corner"), ("A/B++", "green rings"), ("C blue", r"above \(\+\) or below"), ("Q", "a window")],
)
def test_avt_window_notation_errors_hold_the_input(text: str, problem: str) -> None:
    with pytest.raises(OrderSyntaxError, match=problem) as err:
        Window.parse(text)
    assert text in str(err.value)


def test_avt_a5_133_a_target_one_out_in_a_and_one_in_b_is_seen_through_the_a_b_corner_at_range_2() -> None:
    assert bearing(("A", 1), ("B", 1)) == "A/B 2"


def test_avt_a5_134_after_the_move_the_square_is_one_hex_out_in_b() -> None:
    assert bearing(("B", 1)) == "B 1"


def test_avt_a5_152_three_times_rule_4_out_in_a_and_2_in_f_is_seen_through_f_a() -> None:
    assert ray_name(horizontal_ray(*offset(Hex(0, 0), ("A", 4), ("F", 2)).minus(Hex(0, 0)))) == "F/A"


@pytest.mark.parametrize(
    ("steps", "seen"),
    [
        ((("A", 3), ("B", 1)), "A"),  # exactly three times: the hexside
        ((("A", 5), ("B", 2)), "A/B"),  # 5 is not three times 2
        ((("A", 1), ("B", 3)), "B"),  # the larger component may be either side
        ((("A", 6), ("B", 2)), "A"),
        ((("C", 2),), "C"),
    ],
)
def test_avt_a5_152_three_times_rule_cases(steps: tuple[tuple[str, int], ...], seen: str) -> None:
    assert bearing(*steps).split()[0] == seen


def test_avt_a5_153_6_out_and_1_level_down_is_range_6_amber() -> None:
    assert (ralt_range(6, -1), ralt_level(6, -1)) == (6, 0)
    assert bearing(("A", 4), ("F", 2), up=-1) == "F/A 6"


def test_avt_a5_162_5_out_and_2_down_is_range_5_lower_blue_circled() -> None:
    marker = shoot_bearing(Position(HERE, 1), Position(offset(HERE, ("A", 3), ("F", 2)), -1))
    assert marker == TargetMarker(Window.parse("F/A-"), 5)
    assert marker.window is not None
    assert marker.window.below
    assert str(marker) == "F/A- (5)"  # brackets stand in for the tutorial's circle


def test_avt_a5_171_6_out_and_5_up_is_range_7_blue_in_a() -> None:
    assert (ralt_range(6, 5), ralt_level(6, 5)) == (7, 1)
    assert bearing(("A", 6), up=5) == "A+ 7"


def test_ruling_ralt_bands_are_30_degrees_wide_around_each_ring() -> None:
    # Edges at 15, 45 and 75 degrees: tan 15 = 0.268, tan 75 = 3.732.
    assert [ralt_level(h, 1) for h in (3, 4)] == [1, 0]  # 1/3 = 18.4 deg blue, 1/4 = 14.0 deg amber
    assert ralt_level(4, 4) == 1  # exactly 45 degrees: blue
    assert ralt_level(4, 5) == 2
    assert [ralt_level(1, v) for v in (3, 4)] == [2, 3]  # 71.6 deg green, 76.0 deg purple
    assert ralt_level(0, -2) == -3


def test_ruling_green_corners_use_the_hexside_of_the_larger_offset() -> None:
    assert bearing(("A", 2), ("B", 1), up=5) == "A++ 5"
    assert bearing(("A", 1), ("B", 2), up=5) == "B++ 5"
    assert bearing(("A", 1), ("B", 1), up=4) == "B++ 4"  # a tie goes clockwise


def test_avt_a5_42_the_target_sees_the_firer_through_the_opposite_window() -> None:
    assert str(Window.parse("D-").opposite) == "A+"
    assert Window.parse("up").opposite == Window.parse("down")


def test_avt_same_space_has_no_window_and_same_hex_above_is_purple() -> None:
    assert shoot_bearing(Position(HERE, 2), Position(HERE, 2)) == TargetMarker(None, 0)
    assert bearing(up=3) == "up 3"


def test_avt_design_note_2d_ignores_altitude_and_uses_only_amber() -> None:
    marker = shoot_bearing(Position(HERE), Position(offset(HERE, ("A", 6)), 5), three_d=False)
    assert marker == TargetMarker(Window.parse("A"), 6)


positions = st.builds(
    lambda q, r, z: Position(Hex(q, r), z), st.integers(-30, 30), st.integers(-30, 30), st.integers(-20, 20)
)


@given(positions, positions)
def test_property_bearings_are_reciprocal(a: Position, b: Position) -> None:
    there, back = shoot_bearing(a, b), shoot_bearing(b, a)
    assert there.range == back.range
    if there.window is None:
        assert back.window is None
    else:
        assert back.window == there.window.opposite


@given(positions, positions, st.integers(0, 5))
def test_property_bearings_turn_with_the_map(a: Position, b: Position, sixths: int) -> None:
    dq, dr = b.hex.minus(a.hex)
    rq, rr = rotate_offset(dq, dr, sixths)
    turned = shoot_bearing(Position(Hex(0, 0), a.altitude), Position(Hex(rq, rr), b.altitude))
    plain = shoot_bearing(a, b)
    assert turned.range == plain.range
    assert turned.window == (None if plain.window is None else plain.window.rotated(sixths))
