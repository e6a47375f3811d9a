"""Orientation on the AVID, pivots and rolls (A2.4, A5.22-A5.28, A5.32-A5.3331)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import OrderSyntaxError
from vectorwar.systems.avt import sphere
from vectorwar.systems.avt.avid import ALL_WINDOWS, Window
from vectorwar.systems.avt.orientation import (
    MARKERS,
    Orientation,
    pivot_ends,
    pivot_path,
    pivot_paths,
    roll_path,
    schedule,
    wedges,
)

RAFIK_PIVOTS = ((0,), (0, 1), (0, 1, 2), (0, 1, 2, 3), (0, 1, 2, 3, 4), (0, 1, 2, 3, 4, 5))


def markers(o: Orientation) -> dict[str, str]:
    return {name: " or ".join(str(w) for w in o.marker(name)) for name in MARKERS}


def timed(start: Orientation, nose: str) -> list[tuple[int, str]]:
    return [(t, str(o.nose)) for t, o in schedule(pivot_path(start, Window.parse(nose)), RAFIK_PIVOTS)]


def test_avt_a5_1631_a_level_ship_has_its_symbols_on_the_amber_ring_and_poles() -> None:
    assert markers(Orientation.level(0)) == {
        "nose": "A",
        "top": "up",
        "starboard": "B/C",
        "port": "E/F",
        "aft": "D",
        "bottom": "down",
    }


def test_avt_a5_22_game_two_starts_facing_f() -> None:
    assert str(Orientation.level(10).nose) == "F"


def test_avt_a5_222_a5_224_a_60_degree_pivot_from_f_to_a_passes_f_a_and_completes_one_segment_later() -> None:
    assert timed(Orientation.level(10), "A") == [(0, "F/A"), (1, "A")]


def test_avt_a5_23_a_completed_pivot_turns_every_other_symbol_with_the_nose() -> None:
    # Game two: F to A, and every other level pivot: the marks keep their places relative to the nose.
    assert markers(pivot_path(Orientation.level(10), Window.parse("A"))[-1].orientation) == markers(
        Orientation.level(0)
    )
    for start in range(12):
        for ray in range(12):
            if ray == start:
                continue
            done = pivot_path(Orientation.level(start), Window(0, ray))[-1].orientation
            assert markers(done) == {
                "nose": str(Window(0, ray)),
                "top": "up",
                "starboard": str(Window(0, (ray + 3) % 12)),
                "port": str(Window(0, (ray + 9) % 12)),
                "aft": str(Window(0, (ray + 6) % 12)),
                "bottom": "down",
            }


def test_avt_a5_261_the_90_degree_pivot_runs_plus_0_plus_1_plus_2() -> None:
    assert timed(Orientation.level(0), "B/C") == [(0, "A/B"), (1, "B"), (2, "B/C")]


def test_avt_a5_322_a_diagonal_pivot_takes_two_wedges_and_the_nose_waits_for_the_second() -> None:
    # Game three: B/C amber to C blue; the +0 wedge leaves the nose where it was, it arrives on +1.
    path = pivot_path(Orientation.level(3), Window.parse("C+"))
    assert [(str(s.orientation), s.wedges) for s in path] == [("C+", 2)]
    assert timed(Orientation.level(3), "C+") == [(1, "C+")]


def test_avt_a5_333_a5_3331_nose_30_up_in_c_puts_top_in_f_green_and_bottom_in_c_green_under() -> None:
    o = pivot_path(Orientation.level(3), Window.parse("C+"))[-1].orientation
    assert markers(o) == {
        "nose": "C+",
        "top": "F++",
        "starboard": "D/E",
        "port": "A/B",
        "aft": "F-",
        "bottom": "C--",
    }


def test_avt_a2_4_pivots_tilt_the_nose_up_and_down_through_the_poles() -> None:
    up = pivot_path(Orientation.level(0), Window.parse("up"))
    assert [str(s.orientation.nose) for s in up] == ["A+", "A++", "up"]
    over = pivot_path(Orientation.level(0), Window.parse("D+"))
    assert [str(s.orientation.nose) for s in over] == ["A+", "A++", "up", "D++", "D+"]
    # Over the top the ship ends upside down: its top now points below the map.
    assert markers(over[-1].orientation)["top"] == "D--"


def test_avt_pivots_prefer_staying_level_when_as_quick() -> None:
    path = pivot_path(Orientation.level(0), Window.parse("D"))
    assert wedges(path) == 6
    assert all(s.orientation.pitch == 0 for s in path)


def test_avt_the_green_ring_is_one_wedge_between_windows() -> None:
    path = pivot_path(Orientation(0, 2, 0), Window.parse("B++"))
    assert [(str(s.orientation.nose), s.wedges) for s in path] == [("B++", 1)]


def test_avt_a2_4_rolls_turn_the_ship_about_its_nose() -> None:
    path = roll_path(Orientation.level(0), 3)
    assert [str(s.orientation) for s in path] == ["A roll +1", "A roll +2", "A roll +3"]
    rolled = path[-1].orientation
    assert markers(rolled)["top"] == "B/C"
    assert markers(rolled)["starboard"] == "down"
    assert [str(s.orientation) for s in roll_path(Orientation.level(0), -1)] == ["A roll -1"]


def test_ruling_orientation_model_a_symbol_between_windows_is_shown_in_both() -> None:
    o = Orientation.level(0).rolled(1)
    assert markers(o)["top"] == "B++ or C++"
    # On a corner heading the same roll lands the top squarely in a green window.
    assert markers(Orientation.level(1).rolled(1))["top"] == "C++"


def test_ruling_orientation_model_a_90_degree_pitch_from_a_corner_heading_takes_4_wedges() -> None:
    # docs/rulings/avt.md, AV:T orientation model: the green ring has no corner windows, so from B/C the nose
    # climbs to B/C+, crosses diagonally to C++ (two wedges) and then reaches the pole.
    path = pivot_path(Orientation.level(3), Window.parse("up"))
    assert [(str(s.orientation.nose), s.wedges) for s in path] == [("B/C+", 1), ("C++", 2), ("up", 1)]
    assert wedges(path) == 4
    assert timed(Orientation.level(3), "up") == [(0, "B/C+"), (2, "C++"), (3, "up")]
    # From a hexside the same 90 degrees is three wedges, one a window.
    assert wedges(pivot_path(Orientation.level(2), Window.parse("up"))) == 3


def test_avt_orientation_text_reads_back() -> None:
    for o in (Orientation.level(5), Orientation(4, 1, 11), Orientation.make(3, 3, 2), Orientation(6, -2, 6)):
        assert Orientation.parse(str(o)) == o
    with pytest.raises(OrderSyntaxError):
        Orientation.parse("A twist 3")


def test_avt_orientation_refuses_a_nose_between_windows() -> None:
    with pytest.raises(ValueError, match="hexside"):
        Orientation(1, 2, 0)


def test_avt_schedule_refuses_a_change_off_the_chart() -> None:
    path = pivot_path(Orientation.level(0), Window.parse("D"))
    with pytest.raises(ValueError, match="off the chart"):
        schedule(path, RAFIK_PIVOTS[:3])


def test_avt_every_window_is_a_reachable_nose() -> None:
    assert set(pivot_paths(Orientation.level(0))) == set(ALL_WINDOWS)
    flat = pivot_paths(Orientation.level(0), three_d=False)
    assert set(flat) == {w for w in ALL_WINDOWS if w.level == 0}


@st.composite
def valid_orientations(draw: st.DrawFn) -> Orientation:
    pitch = draw(st.integers(-3, 3))
    heading = draw(st.integers(0, 11))
    if abs(pitch) == 2:
        heading -= heading % 2
    return Orientation.make(heading, pitch, draw(st.integers(0, 11)))


@given(valid_orientations())
def test_property_the_ships_axes_are_square_and_the_nose_is_in_its_window(o: Orientation) -> None:
    nose, starboard, top = o.frame
    assert abs(sphere.dot(nose, top)) < 1e-9
    assert abs(sphere.dot(nose, starboard)) < 1e-9
    assert abs(sphere.dot(top, starboard)) < 1e-9
    assert o.marker("nose") == (o.nose,)
    assert o.marker("aft") == (o.nose.opposite,)
    assert {w.opposite for w in o.marker("top")} == set(o.marker("bottom"))


@given(valid_orientations(), st.integers(0, 5))
def test_property_turning_the_map_turns_every_marker(o: Orientation, sixths: int) -> None:
    turned = o.rotated(sixths)
    for name in MARKERS:
        assert set(turned.marker(name)) == {w.rotated(sixths) for w in o.marker(name)}


@given(st.integers(0, 11), st.integers(0, 11))
def test_property_a_pole_heading_folds_into_the_roll_keeping_the_body(heading: int, roll: int) -> None:
    up = Orientation.make(heading, 3, roll)
    down = Orientation.make(heading, -3, roll)
    assert up.heading == down.heading == 0
    # Pitched straight up from heading h the top leans back, toward h + 180, less the roll.
    assert up.marker("top") == (Window(0, (heading + 6 - roll) % 12),)
    # Straight down the top leans forward, toward h, plus the roll.
    assert down.marker("top") == (Window(0, (heading + roll) % 12),)


def _heap_search(start: Orientation, three_d: bool) -> tuple[dict[int, object], tuple[int, ...]]:
    """The pivot search as a plain priority queue: (wedges, windows, pitching, order joined) first."""
    import heapq

    from vectorwar.systems.avt.orientation import _NOSES, _moves, orientation_number

    came: dict[int, object] = {}
    first: dict[int, int] = {}
    counter = 0
    heap: list[tuple[int, int, int, int, int, Orientation, int, int]] = [
        (0, 0, 0, 0, orientation_number(start), start, -1, 0)
    ]
    while heap:
        spent, steps, pitching, _, key, here, parent, cost = heapq.heappop(heap)
        if key in came:
            continue
        came[key] = (parent, here, cost, spent)
        if key // 12 not in first:
            first[key // 12] = key
            if len(first) == _NOSES[three_d]:
                break
        for nxt, nxt_key, step_cost, pitch_cost in _moves(here, three_d):
            if nxt_key not in came:
                counter += 1
                heapq.heappush(
                    heap, (spent + step_cost, steps + 1, pitching + pitch_cost, counter, nxt_key, nxt, key, step_cost)
                )
    return came, tuple(first.values())


@pytest.mark.parametrize("three_d", [True, False])
def test_avt_the_pivot_search_takes_orientations_in_the_order_a_priority_queue_would(three_d: bool) -> None:
    """The search's list per wedge count (issue 51: speed) finds every path, in the order found, as a heap does:
    ties between equally quick pivots are broken the same way, so every game's pivots stay the same."""
    from vectorwar.systems.avt.orientation import _search

    starts = [
        Orientation(h, p, r)
        for h in range(12)
        for p in range(-3, 4)
        for r in range(0, 12, 5)
        if (abs(p) != 2 or h % 2 == 0) and (abs(p) != 3 or h == 0)
    ]
    for start in starts:
        came, first = _search.__wrapped__(start, three_d)
        expected_came, expected_first = _heap_search(start, three_d)
        assert list(came.items()) == list(expected_came.items())
        assert first == expected_first


def test_avt_a_pole_heading_written_another_way_is_a_roll_that_keeps_every_axis() -> None:
    """``_pole_roll``'s rule (nose up: the same way round, nose down: the other way) against the ship's axes, for
    every heading, roll and new heading at both poles."""
    from vectorwar.systems.avt.orientation import _frame, _pole_roll

    for pitch in (3, -3):
        for heading in range(12):
            for roll in range(12):
                for new_heading in range(12):
                    new_roll = _pole_roll(pitch, heading, roll, new_heading)
                    now, then = _frame(heading, pitch, roll), _frame(new_heading, pitch, new_roll)
                    assert all(
                        abs(x - y) < 1e-9 for u, v in zip(now, then, strict=True) for x, y in zip(u, v, strict=True)
                    )


@pytest.mark.parametrize("three_d", [True, False])
def test_avt_pivots_from_a_turned_start_are_the_searched_pivots_exactly(three_d: bool) -> None:
    """``pivot_ends`` and ``pivot_path`` search one sixth of the headings and turn the rest (issue 51: speed): for
    every orientation they give exactly what searching from it gives, in the same order, and refuse the same
    noses with the same words."""
    from vectorwar.systems.avt.orientation import _search

    for pitch in range(-3, 4) if three_d else (0,):
        for heading in range(0, 12, 1 if abs(pitch) != 2 else 2):
            for roll in range(12):
                start = Orientation.make(heading, pitch, roll)
                came, first = _search.__wrapped__(start, three_d)
                assert pivot_ends(start, three_d) == tuple(
                    (here.nose, here, total) for _, here, _, total in (came[key] for key in first)
                )
                searched = pivot_paths.__wrapped__(start, three_d)
                for window in ALL_WINDOWS:
                    if window in searched:
                        assert pivot_path(start, window, three_d) == searched[window]
                    else:
                        with pytest.raises(ValueError, match=re.escape(f"cannot reach {window} with altitude")):
                            pivot_path(start, window, three_d)
