"""Hex geometry: coordinates, distance, rings, lines, bearings and arcs."""

from __future__ import annotations

from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import OrderSyntaxError
from vectorwar.hexes import Arc, Bearing, Direction, Hex, Position
from vectorwar.maps import HexMap

coord = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coord, coord)
directions = st.sampled_from(list(Direction))


def rotate(h: Hex, steps: int) -> Hex:
    """Rotate about the origin by 60 degrees clockwise, ``steps`` times (cube rotation)."""
    x, y, z = h.q, h.s, h.r
    for _ in range(steps % 6):
        x, y, z = -z, -x, -y
    return Hex(x, z)


def test_directions_are_lettered_clockwise_from_the_top() -> None:
    centre = Hex.parse("5,5")
    # Odd-q layout: column 5 is an odd (lower) column.
    expected = {"A": "5,4", "B": "6,5", "C": "6,6", "D": "5,6", "E": "4,6", "F": "4,5"}
    assert {str(d): str(centre.neighbour(d)) for d in Direction} == expected
    centre_even = Hex.parse("4,5")
    expected_even = {"A": "4,4", "B": "5,4", "C": "5,5", "D": "4,6", "E": "3,5", "F": "3,4"}
    assert {str(d): str(centre_even.neighbour(d)) for d in Direction} == expected_even


def test_direction_letters_turn_and_reverse() -> None:
    assert Direction.A.turned(-1) is Direction.F
    assert Direction.E.turned(3) is Direction.B
    assert Direction.C.opposite is Direction.F
    with pytest.raises(OrderSyntaxError, match="A-F"):
        Direction.parse("G")


@given(hexes)
def test_offset_text_parses_back(h: Hex) -> None:
    assert Hex.parse(str(h)) == h
    assert Hex.from_offset(h.col, h.row) == h


@pytest.mark.parametrize("text", ["", "3", "a,b", "1,2,3", "1.5,2"])
def test_bad_hex_text_is_refused_with_the_input(text: str) -> None:
    with pytest.raises(OrderSyntaxError) as err:
        Hex.parse(text)
    assert repr(text) in str(err.value)


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, directions)
def test_neighbours_are_one_step_away(h: Hex, d: Direction) -> None:
    assert h.distance(h.neighbour(d)) == 1
    assert h.neighbour(d).neighbour(d.opposite) == h


@given(hexes, st.integers(min_value=0, max_value=8))
def test_rings_have_six_k_hexes_all_at_distance_k(h: Hex, k: int) -> None:
    ring = h.ring(k)
    assert len(ring) == max(1, 6 * k)
    assert len(set(ring)) == len(ring)
    assert all(h.distance(x) == k for x in ring)


def test_within_counts_a_filled_hexagon() -> None:
    assert len(set(Hex(0, 0).within(3))) == 1 + 6 + 12 + 18


@given(hexes, hexes)
def test_lines_are_connected_and_as_long_as_the_distance(a: Hex, b: Hex) -> None:
    line = a.line_to(b)
    assert line[0] == a
    assert line[-1] == b
    assert len(line) == a.distance(b) + 1
    assert all(p.distance(q) == 1 for p, q in pairwise(line))


def test_line_along_a_hexside_edge_reports_both_hexes_and_breaks_the_tie_one_way() -> None:
    start, end = Hex(0, 0), Hex(1, 1)  # along the C/D corner: between (1,0) and (0,1)
    steps = start.line_candidates(end)
    assert steps[0] == (start,)
    assert set(steps[1]) == {Hex(1, 0), Hex(0, 1)}
    assert steps[2] == (end,)
    # The documented tie rule: the nudge picks the same hex every time.
    assert start.line_to(end)[1] == steps[1][0]


def test_bearings_on_every_ray() -> None:
    origin = Hex(0, 0)
    spine_a_b = Hex(1, -2)  # the corner line between A and B, 30 degrees
    assert Bearing.between(origin, origin.neighbour(Direction.A, 4)) == Bearing(0, True)
    assert Bearing.between(origin, spine_a_b) == Bearing(1, True)
    assert Bearing.between(origin, origin.neighbour(Direction.C, 2)) == Bearing(4, True)
    assert Bearing.between(origin, Hex(1, -3)) == Bearing(0, False)  # between A and the A/B corner
    assert Bearing.between(origin, Hex(2, -3)) == Bearing(1, False)
    with pytest.raises(ValueError, match="itself"):
        Bearing.between(origin, origin)


@given(hexes, hexes)
def test_bearings_are_reciprocal(a: Hex, b: Hex) -> None:
    if a == b:
        return
    there, back = Bearing.between(a, b), Bearing.between(b, a)
    assert there.on_ray == back.on_ray
    assert back.ray == (there.ray + 6) % 12


@given(hexes, st.integers(min_value=0, max_value=5))
def test_bearings_turn_with_the_map(h: Hex, steps: int) -> None:
    if h == Hex(0, 0):
        return
    before = Bearing.between(Hex(0, 0), h)
    after = Bearing.between(Hex(0, 0), rotate(h, steps))
    assert after == Bearing((before.ray + 2 * steps) % 12, before.on_ray)


@given(hexes, directions)
def test_relative_bearing_is_invariant_when_ship_and_target_turn_together(h: Hex, facing: Direction) -> None:
    if h == Hex(0, 0):
        return
    seen = Bearing.between(Hex(0, 0), h).relative_to(Direction.A)
    turned = Bearing.between(Hex(0, 0), rotate(h, facing.value)).relative_to(facing)
    assert seen == turned


def test_arcs_include_or_exclude_their_boundaries_as_told() -> None:
    right = Arc(0, 6, include_start=True, include_end=False)  # VV5-style: fore line in, aft line out
    assert right.contains(Bearing(0, True))
    assert not right.contains(Bearing(6, True))
    assert right.contains(Bearing(5, False))
    assert not right.contains(Bearing(6, False))
    assert Arc(0, 12).contains(Bearing(7, True))
    assert Arc(11, 1).width == 2


def test_positions_carry_altitude() -> None:
    p = Position.parse("3,4@+2")
    assert p.altitude == 2
    assert str(p) == "3,4@+2"
    assert str(Position.parse("3,4")) == "3,4"
    with pytest.raises(OrderSyntaxError, match="altitude"):
        Position.parse("3,4@up")


def _reference_line(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """The textbook cube-coordinate line, nudged both ways, computed afresh from the two ends."""
    n = a.distance(b)
    if n == 0:
        return [(a,)]
    eps = (1e-6, 2e-6, -3e-6)

    def cube_round(x: float, y: float, z: float) -> Hex:
        rx, ry, rz = round(x), round(y), round(z)
        dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
        if dx > dy and dx > dz:
            rx = -ry - rz
        elif dy > dz:
            ry = -rx - rz
        return Hex(int(rx), int(ry))

    steps: list[tuple[Hex, ...]] = []
    for i in range(n + 1):
        t = i / n
        x, y, z = (a.q + (b.q - a.q) * t, a.r + (b.r - a.r) * t, a.s + (b.s - a.s) * t)
        plus = cube_round(x + eps[0], y + eps[1], z + eps[2])
        minus = cube_round(x - eps[0], y - eps[1], z - eps[2])
        steps.append((plus,) if plus == minus else (plus, minus))
    return steps


@given(hexes, hexes)
def test_lines_drawn_from_a_cached_shape_match_the_line_drawn_afresh(a: Hex, b: Hex) -> None:
    # Lines are drawn once per offset and moved to their start; that must change nothing.
    expected = _reference_line(a, b)
    assert a.line_candidates(b) == expected
    assert a.line_to(b) == [step[0] for step in expected]


FIELD = tuple((Hex.from_offset(c, r), "asteroid-field") for c in range(30, 50) for r in range(0, 24))


@given(st.integers(-3, 52), st.integers(-3, 26))
def test_steps_to_a_terrain_are_the_nearest_of_its_hexes_on_any_map_asked_about(col: int, row: int) -> None:
    field = HexMap.single(50, 24, FIELD)
    rocks = HexMap.single(6, 6, ((Hex.parse("4,2"), "asteroid"),))
    h = Hex.from_offset(col, row)
    # Asked of two maps in turn, each keeps its own answers.
    for _ in range(2):
        assert field.steps_to("asteroid-field", h) == min(h.distance(f) for f, _ in FIELD)
        assert rocks.steps_to("asteroid", h) == h.distance(Hex.parse("4,2"))
        assert rocks.steps_to("asteroid-field", h) is None


def test_a_maps_extent_is_kept_outside_its_fields() -> None:
    # Worked out once and kept in a slot of its own: no part of the map's equality, repr or copies.
    grid = HexMap.grid([["A", "B", "C"], ["D", "E", "F"]], 10, 8)
    fresh = HexMap.grid([["A", "B", "C"], ["D", "E", "F"]], 10, 8)
    assert grid.extent == (0, 0, 29, 15)
    assert grid.extent is grid.extent
    assert grid == fresh
    assert hash(grid) == hash(fresh)
    assert repr(grid) == repr(fresh)
    assert replace(grid, sections=grid.sections[:1]).extent == (0, 0, 9, 7)
    assert grid.distance_to_edge(Hex.from_offset(3, 14)) == 2


@given(st.integers(-3, 33), st.integers(-3, 20))
def test_a_map_holds_a_hex_given_as_axial_numbers_as_it_holds_the_hex(col: int, row: int) -> None:
    grid = HexMap.grid([["A", "B", "C"], ["D", "E", "F"]], 10, 8)
    h = Hex.from_offset(col, row)
    assert grid.contains_axial(h.q, h.r) == grid.contains(h) == (0 <= col < 30 and 0 <= row < 16)


@given(
    col=st.integers(-2, 12),
    row=st.integers(-2, 10),
    grid=st.booleans(),
)
def test_every_hex_within_the_clear_radius_is_on_the_map(col: int, row: int, grid: bool) -> None:
    """``HexMap.clear_radius`` (the MSC bot skips walking moves no longer than it): every hex that near is on
    the map, the next ring reaches off it on a rectangle, and a hex off the map has -1."""
    hex_map = HexMap.grid([["A", "B"], ["C", "D"]], 5, 4) if grid else HexMap.single(10, 8)
    h = Hex.from_offset(col, row)
    radius = hex_map.clear_radius(h)
    if not hex_map.contains(h):
        assert radius == -1
        return
    assert all(hex_map.contains(n) for n in h.within(radius))
    assert not all(hex_map.contains(n) for n in h.within(radius + 1))
