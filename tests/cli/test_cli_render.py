"""The terminal map: hexes where players read them, arrows, terrain, arcs."""

from __future__ import annotations

import pytest

from vectorwar.cli.render import ARROWS, render_map, side_styles
from vectorwar.display import Counter
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.maps import HexMap

from .helpers import locate


def counter(ident: str, at: str, facing: Direction | None, side: str = "red", status: str = "active") -> Counter:
    return Counter(ident, side, Position(Hex.parse(at)), facing, status, ident[:2])


@pytest.mark.parametrize(
    ("at", "facing"),
    [("3,2", Direction.B), ("2,2", Direction.E), ("0,0", Direction.A), ("5,4", Direction.D), ("4,3", Direction.F)],
)
def test_arrow_is_at_the_hex_a_player_reads_off_the_labels(at: str, facing: Direction) -> None:
    text = render_map(HexMap.single(6, 5), [counter("Hawk", at, facing)]).plain
    assert locate(text, f"{ARROWS[facing]}Ha") == tuple(int(v) for v in at.split(","))


def test_odd_columns_sit_half_a_hex_lower() -> None:
    text = render_map(HexMap.single(6, 5), [counter("Even", "2,1", Direction.A), counter("Odd", "3,1", Direction.A)])
    lines = text.plain.splitlines()
    even = next(i for i, line in enumerate(lines) if "↑Ev" in line)
    odd = next(i for i, line in enumerate(lines) if "↑Od" in line)
    assert odd == even + 1
    # and the next even-column row is a full hex (two lines) below
    lower = render_map(HexMap.single(6, 5), [counter("Even", "2,2", Direction.A)]).plain.splitlines()
    assert next(i for i, line in enumerate(lower) if "↑Ev" in line) == even + 2


def test_each_facing_has_its_own_arrow() -> None:
    assert [ARROWS[d] for d in Direction] == ["↑", "↗", "↘", "↓", "↙", "↖"]


def test_terrain_arcs_and_wrecks_are_marked_in_their_hexes() -> None:
    hex_map = HexMap.single(8, 6, ((Hex.parse("5,3"), "blocking"),))
    arcs = {"F": frozenset({Hex.parse("1,1")}), "FR": frozenset({Hex.parse("1,1"), Hex.parse("6,5")})}
    text = render_map(hex_map, [counter("Kite", "2,4", Direction.C, status="destroyed")], arcs=arcs).plain
    assert locate(text, "▓▓▓") == (5, 3)
    assert locate(text, "✕Ki") == (2, 4)
    assert locate(text, "FR ") == (6, 5)
    assert locate(text, " * ") == (1, 1)  # in two arcs at once


def test_hexes_off_the_map_are_not_drawn() -> None:
    text = render_map(HexMap.single(4, 3), [counter("Gone", "9,9", Direction.A)]).plain
    assert "Go" not in text


def test_a_30_by_20_map_fits_in_about_130_columns_with_every_row_labelled() -> None:
    text = render_map(HexMap.single(30, 20), [counter("Hawk", "29,19", Direction.F)]).plain
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 130
    assert locate(text, "↖Ha") == (29, 19)
    labels = {line.split()[0] for line in lines[1:-1] if line.split() and line.split()[0].isdigit()}
    assert labels == {str(r) for r in range(20)}


def test_side_colours_use_the_side_name_when_it_is_a_colour() -> None:
    styles = side_styles(["red", "Blue", "imperials"])
    assert styles["red"] == "bold red"
    assert styles["Blue"] == "bold blue"
    assert "red" not in styles["imperials"]
    assert styles["imperials"].startswith("bold ")
