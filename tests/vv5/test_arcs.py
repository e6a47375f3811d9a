"""VV5 arcs as pictures (ship S at the centre heading A, up the page; # = in the arc).

The text's arc diagrams are missing; these pictures are the rulings in
docs/rulings/vv5.md ("VV5 arcs"), drawn with tests/support/hexpic.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.hexpic import draw_picture, parse_picture
from vectorwar.hexes import Arc, Direction, Hex
from vectorwar.systems.vv5.arcs import GUN_ARCS, MISSILE_ARC, REAR_ARC, covered_hexes, in_arc

SHIP = Hex.from_offset(4, 4)


def picture(arc: Arc, facing: Direction = Direction.A) -> str:
    return draw_picture(9, 9, lambda h: "S" if h == SHIP else ("#" if in_arc(arc, SHIP, facing, h) else "."))


PICTURES = {
    "missile": (
        MISSILE_ARC,
        """
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
.   #   #   #   .
  .   #   #   .
.   .   S   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
""",
    ),
    "forward": (
        GUN_ARCS["forward"],
        """
.   #   #   #   .
  .   #   #   .
.   #   #   #   .
  .   #   #   .
.   .   #   .   .
  .   #   #   .
.   .   #   .   .
  .   .   .   .
.   .   S   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
""",
    ),
    "fwd180": (
        GUN_ARCS["fwd180"],
        """
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   S   #   #
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
""",
    ),
    "aft180": (
        GUN_ARCS["aft180"],
        """
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
#   #   S   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
""",
    ),
    "left180": (
        GUN_ARCS["left180"],
        """
#   #   #   .   .
  #   #   .   .
#   #   #   .   .
  #   #   .   .
#   #   #   .   .
  #   #   .   .
#   #   #   .   .
  #   #   .   .
#   #   S   .   .
  #   #   .   .
#   #   .   .   .
  #   #   .   .
#   #   .   .   .
  #   #   .   .
#   #   .   .   .
  #   #   .   .
#   #   .   .   .
  #   #   .   .
""",
    ),
    "right180": (
        GUN_ARCS["right180"],
        """
.   .   #   #   #
  .   .   #   #
.   .   #   #   #
  .   .   #   #
.   .   #   #   #
  .   .   #   #
.   .   #   #   #
  .   .   #   #
.   .   S   #   #
  .   .   #   #
.   .   .   #   #
  .   .   #   #
.   .   .   #   #
  .   .   #   #
.   .   .   #   #
  .   .   #   #
.   .   .   #   #
  .   .   #   #
""",
    ),
    "turret360": (
        GUN_ARCS["turret360"],
        """
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   S   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
#   #   #   #   #
  #   #   #   #
""",
    ),
    "rear": (
        REAR_ARC,
        """
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   .   .   .
  .   .   .   .
.   .   S   .   .
  .   .   .   .
.   .   #   .   .
  .   #   #   .
.   .   #   .   .
  .   #   #   .
.   #   #   #   .
  .   #   #   .
.   #   #   #   .
  #   #   #   #
""",
    ),
}


@pytest.mark.parametrize("name", list(PICTURES))
def test_arc_pictures(name: str) -> None:
    arc, expected = PICTURES[name]
    assert picture(arc) == expected.strip("\n")


def test_the_side_arcs_share_the_line_ahead_and_not_the_line_behind() -> None:
    ahead = SHIP.neighbour(Direction.A, 3)
    behind = SHIP.neighbour(Direction.D, 3)
    assert in_arc(GUN_ARCS["left180"], SHIP, Direction.A, ahead)
    assert in_arc(GUN_ARCS["right180"], SHIP, Direction.A, ahead)
    assert not in_arc(GUN_ARCS["left180"], SHIP, Direction.A, behind)
    assert not in_arc(GUN_ARCS["right180"], SHIP, Direction.A, behind)


def test_forward_guns_see_less_than_missiles() -> None:
    forward = parse_picture(picture(GUN_ARCS["forward"]))
    missile = parse_picture(picture(MISSILE_ARC))
    assert set(forward) < set(missile)


@given(st.sampled_from(list(Direction)), st.integers(-6, 6), st.integers(-6, 6))
def test_arcs_turn_with_the_ship(facing: Direction, dq: int, dr: int) -> None:
    """A target keeps its place in every arc when ship heading and target turn together."""
    target = Hex(dq, dr)
    x, y, z = target.q, target.s, target.r
    for _ in range(facing.value):
        x, y, z = -z, -x, -y
    turned = Hex(x, z)
    for arc in (MISSILE_ARC, REAR_ARC, *GUN_ARCS.values()):
        assert in_arc(arc, Hex(0, 0), Direction.A, target) == in_arc(arc, Hex(0, 0), facing, turned)


@given(
    st.sampled_from([*GUN_ARCS.values(), MISSILE_ARC, REAR_ARC]),
    st.sampled_from(list(Direction)),
    st.integers(min_value=0, max_value=16),
    st.integers(min_value=-20, max_value=20),
    st.integers(min_value=-20, max_value=20),
)
def test_covered_hexes_are_the_hexes_in_arc_and_reach_on_the_map(
    arc: Arc, facing: Direction, radius: int, q: int, r: int
) -> None:
    origin = Hex(q, r)

    def on_map(h: Hex) -> bool:  # a map that stops at column 0
        return h.col >= 0

    expected = {h for h in origin.within(radius) if on_map(h) and in_arc(arc, origin, facing, h)}
    assert covered_hexes(arc, origin, facing, radius, on_map) == expected
