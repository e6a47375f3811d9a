"""MSC 2.0 ship sides and the Facing/Firing Arc Chart (MSC 7.0): six 60-degree arcs."""

from __future__ import annotations

import math

import pytest

from vectorwar.hexes import Direction, Hex
from vectorwar.systems.msc.arcs import TEXT_ORDER, Side, sides_seeing

from .helpers import hexes_around, parse_picture, rotate_clockwise

# The ship at '@' faces up the page. Legend in helpers.py: F front, B back (the R
# arc), L/R front-left/front-right, l/r rear-left/rear-right; '/', '\' and '-'
# are the boundary lines through the ship's corners, whose hexes are in both arcs.
ARC_PICTURE = r"""
            F
         F     F
      \     F     /
   L     F     F     R
L     L     F     R     R
   L     \     /     R
L     L     F     R     R
   L     L     R     R
-     -     @     -     -
   l     l     r     r
l     l     B     r     r
   l     /     \     r
l     l     B     r     r
   l     B     B     r
      /     B     \
         B     B
            B
"""

ORIGINS = [Hex.parse("10,10"), Hex.parse("11,10"), Hex.parse("0,0"), Hex.parse("7,-3")]


def test_msc_7_0_arc_chart_picture_parses_to_every_hex_within_4() -> None:
    expected = parse_picture(ARC_PICTURE)
    assert len(expected) == 61  # 1 + 6 + 12 + 18 + 24
    assert {Hex(0, 0).distance(Hex(dq, dr)) for dq, dr in expected} == {0, 1, 2, 3, 4}
    assert expected[(0, -1)] == {Side.F}  # one hex straight ahead
    assert expected[(1, -2)] == {Side.F, Side.FR}  # the corner line up and to the right


@pytest.mark.parametrize("facing", list(Direction))
@pytest.mark.parametrize("origin", ORIGINS, ids=str)
def test_msc_7_0_arc_chart_picture_for_every_facing(facing: Direction, origin: Hex) -> None:
    """The drawn arcs, turned to each of the six facings, match ``sides_seeing`` hex for hex.

    Origins in even and odd columns check that nothing depends on the offset layout.
    """
    for offset, sides in parse_picture(ARC_PICTURE).items():
        dq, dr = rotate_clockwise(offset, facing.value)
        target = origin.shifted(dq, dr)
        assert sides_seeing(origin, facing, target) == sides, f"facing {facing}, hex {target}"


@pytest.mark.parametrize(
    ("step", "side"),
    [(0, Side.F), (1, Side.FR), (2, Side.RR), (3, Side.R), (4, Side.RL), (5, Side.FL)],
)
@pytest.mark.parametrize("facing", list(Direction))
def test_msc_2_0_each_side_faces_one_hexside(facing: Direction, step: int, side: Side) -> None:
    """The neighbour across each hexside of the counter is in that side's arc only."""
    origin = Hex.parse("6,6")
    neighbour = origin.neighbour(facing.turned(step))
    assert sides_seeing(origin, facing, neighbour) == {side}


def _geometric_sides(offset: tuple[int, int], facing: Direction) -> frozenset[Side]:
    """An independent oracle: classify the hex centre's angle in floating point."""
    dq, dr = offset
    x, y = 1.5 * dq, math.sqrt(3) * (dr + dq / 2)  # y grows down the map
    angle = (math.degrees(math.atan2(x, -y)) - 60 * facing.value) % 360
    centres = {Side.F: 0, Side.FR: 60, Side.RR: 120, Side.R: 180, Side.RL: 240, Side.FL: 300}
    out = set()
    for side, centre in centres.items():
        off = (angle - centre + 180) % 360 - 180
        if abs(off) <= 30 + 1e-9:
            out.add(side)
    return frozenset(out)


@pytest.mark.parametrize("facing", list(Direction))
def test_msc_7_0_arcs_are_60_degrees_either_side_of_each_hexside(facing: Direction) -> None:
    """Out to range 9, every hex's arcs agree with plain trigonometry (30 degrees each side of the side's centre)."""
    origin = Hex.parse("3,4")
    for target in hexes_around(origin, 9):
        if target == origin:
            continue
        assert sides_seeing(origin, facing, target) == _geometric_sides(target.minus(origin), facing), str(target)


def test_msc_7_0_note_boundary_hexes_are_in_two_adjacent_arcs() -> None:
    """As the chart's note says, extending the arcs puts some hexes in two arcs, never three."""
    origin = Hex(0, 0)
    ring_order = [Side.F, Side.FR, Side.RR, Side.R, Side.RL, Side.FL]
    doubles = 0
    for target in hexes_around(origin, 8):
        if target == origin:
            continue
        sides = sides_seeing(origin, Direction.A, target)
        assert 1 <= len(sides) <= 2
        if len(sides) == 2:
            doubles += 1
            a, b = sorted(ring_order.index(s) for s in sides)
            assert b - a in (1, 5), f"{target}: {sides} are not neighbours"
    assert doubles == 6 * 4  # six corner lines, hexes at even ranges 2, 4, 6, 8 on each


def test_ruling_range_0_is_in_every_arc() -> None:
    """docs/rulings/msc.md "Stacking": a ship in the same hex is in all six arcs."""
    for facing in Direction:
        assert sides_seeing(Hex.parse("4,4"), facing, Hex.parse("4,4")) == frozenset(Side)


def test_msc_2_0_six_sides_in_the_texts_order() -> None:
    assert [s.value for s in TEXT_ORDER] == ["F", "FL", "FR", "RL", "RR", "R"]
    assert {s.arc.width for s in Side} == {2}  # two 30-degree rays: 60 degrees
