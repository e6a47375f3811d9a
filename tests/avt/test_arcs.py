"""Mapping target markers to the ship's firing arc diagrams (A5.163-A5.171, A5.43-A5.44)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import OrderSyntaxError
from vectorwar.hexes import Hex, Position
from vectorwar.maps import HexMap, HexSet
from vectorwar.systems.avt import display
from vectorwar.systems.avt.arcs import ALL_ARC_WINDOWS, ArcWindow, map_to_arc, middle_row, parse_arc
from vectorwar.systems.avt.avid import ALL_WINDOWS, Window, shoot_bearing
from vectorwar.systems.avt.orientation import Orientation
from vectorwar.systems.avt.rules import system

from .helpers import rotate_offset

RAFIK = system.designs()["rafik"]


def arc(o: Orientation, window: str) -> list[str]:
    return [str(w) for w in map_to_arc(o, Window.parse(window))]


def mounts_covering(o: Orientation, window: str) -> list[str]:
    found = map_to_arc(o, Window.parse(window))
    return sorted(m for m, a in RAFIK.arcs.items() if any(w in a for w in found))


def test_avt_a5_1651_a5_1652_f_a_lower_blue_is_one_down_and_to_port_of_the_nose() -> None:
    level_a = Orientation.level(0)
    assert arc(level_a, "F/A-") == ["11-"]
    # The row is four windows from the Top: the lower blue row.
    (window,) = map_to_arc(level_a, Window.parse("F/A-"))
    assert 3 - window.level == 4


def test_avt_a5_166_only_mounts_a_and_b_of_the_three_forward_mounts_can_fire() -> None:
    covering = mounts_covering(Orientation.level(0), "F/A-")
    assert "A" in covering
    assert "B" in covering
    assert "C" not in covering


def test_avt_a5_171_the_circle_in_a_upper_blue_is_above_the_nose() -> None:
    assert arc(Orientation.level(0), "A+") == ["12+"]
    assert {"A", "B", "C"} <= set(mounts_covering(Orientation.level(0), "A+"))


def test_avt_a5_44_facing_a_b_damage_from_a_upper_blue_comes_one_up_and_to_port_of_the_nose() -> None:
    assert arc(Orientation.level(1), "A+") == ["11+"]


def test_avt_a5_163_the_top_of_the_ship_is_always_the_top_of_the_diagram() -> None:
    pitched = Orientation(4, 1, 0)  # nose C+, top F++ (game three)
    assert arc(pitched, "F++") == ["top"]
    assert arc(pitched, "C--") == ["bottom"]
    assert arc(pitched, "D/E") == ["3"]  # starboard
    assert arc(pitched, "C+") == ["12"]  # the nose


def test_ruling_between_two_arc_windows_maps_to_both() -> None:
    # Rolled 30 degrees to starboard, the map's "up" leans to port at 60 degrees: 9 o'clock has no green window.
    rolled = Orientation.level(0).rolled(1)
    assert sorted(arc(rolled, "up")) == ["10++", "8++"]


def test_avt_design_note_2d_uses_only_the_middle_row() -> None:
    assert str(middle_row(Orientation.level(2), Window.parse("A"))) == "10"


def test_avt_arc_window_notation_reads_back_and_checks() -> None:
    for w in ALL_ARC_WINDOWS:
        assert ArcWindow.parse(str(w)) == w
    assert len(ALL_ARC_WINDOWS) == 50
    with pytest.raises(OrderSyntaxError, match="even hours"):
        ArcWindow.parse("1++")
    with pytest.raises(OrderSyntaxError, match="clock hour"):
        ArcWindow.parse("13")


def test_avt_arc_data_ranges_run_clockwise_along_one_row() -> None:
    assert sorted(str(w) for w in parse_arc(["10..2"])) == ["1", "10", "11", "12", "2"]
    assert sorted(str(w) for w in parse_arc(["10++..2++"])) == ["10++", "12++", "2++"]
    assert parse_arc(["all"]) == ALL_ARC_WINDOWS
    with pytest.raises(OrderSyntaxError, match="one row"):
        parse_arc(["10..2+"])


@st.composite
def orientations(draw: st.DrawFn) -> Orientation:
    pitch = draw(st.integers(-3, 3))
    heading = draw(st.integers(0, 11))
    if abs(pitch) == 2:
        heading -= heading % 2
    return Orientation.make(heading, pitch, draw(st.integers(0, 11)))


@given(orientations(), st.sampled_from(ALL_WINDOWS), st.integers(1, 5))
def test_property_arc_mapping_is_invariant_under_turning_the_whole_situation(
    o: Orientation, window: Window, sixths: int
) -> None:
    assert map_to_arc(o.rotated(sixths), window.rotated(sixths)) == map_to_arc(o, window)


@given(
    orientations(),
    st.integers(-12, 12),
    st.integers(-12, 12),
    st.integers(-8, 8),
    st.integers(1, 5),
)
def test_property_firing_solutions_do_not_depend_on_which_way_the_map_is_turned(
    o: Orientation, dq: int, dr: int, dz: int, sixths: int
) -> None:
    marker = shoot_bearing(Position(Hex(0, 0)), Position(Hex(dq, dr), dz))
    rq, rr = rotate_offset(dq, dr, sixths)
    turned = shoot_bearing(Position(Hex(0, 0)), Position(Hex(rq, rr), dz))
    if marker.window is None:
        assert turned.window is None
        return
    assert turned.window is not None
    assert map_to_arc(o.rotated(sixths), turned.window) == map_to_arc(o, marker.window)


@given(orientations(), st.sampled_from(ALL_WINDOWS))
def test_property_every_target_maps_to_a_diagram_window_near_an_orientation_symbol(
    o: Orientation, window: Window
) -> None:
    found = map_to_arc(o, window)
    assert 1 <= len(found) <= 2
    assert all(w in ALL_ARC_WINDOWS for w in found)


def _every_orientation() -> list[Orientation]:
    out = []
    for pitch in range(-3, 4):
        for heading in range(12):
            for roll in range(12):
                try:
                    out.append(Orientation(heading, pitch, roll))
                except ValueError:
                    continue
    return out


def test_avt_arc_windows_and_the_bots_facing_table_are_the_same_worked_out_afresh_for_every_orientation() -> None:
    """``map_to_arc`` and the greedy player's design table work one sixth of the headings out and turn the rest
    (the AVID's symmetry, issue 51: speed): for every orientation and window each answer is exactly what working
    it out from the ship's frame gives (the nearest arc windows; the mounts whose arcs hold them and the thinnest
    armour struck)."""
    from vectorwar.systems import avt
    from vectorwar.systems.avt import sphere
    from vectorwar.systems.avt.armour import regions_of
    from vectorwar.systems.avt.facing_tables import DesignTable

    wasp = avt.catalogue.designs()["wasp"]
    assert wasp.ssd is not None
    table = DesignTable(wasp)
    flat = DesignTable(wasp)
    mounts = tuple(wasp.lasers.values())
    orientations = _every_orientation()
    assert len(orientations) == 600
    for o in orientations:
        for w in ALL_WINDOWS:
            worked_out = tuple(ArcWindow(lv, r) for lv, r in sphere.nearest(o.body(w.centre)))
            assert map_to_arc(o, w) == worked_out, (o, w)
            mask = sum(1 << i for i, m in enumerate(mounts) if not wasp.arcs[m].isdisjoint(worked_out))
            armour = min(wasp.ssd.armour[r] for a in worked_out for r in regions_of(a))
            assert table.facing(o, w, True) == (mask, armour), (o, w)
            # Without altitude (any window asked, as the display may).
            row = middle_row(o, w)
            mask = sum(1 << i for i, m in enumerate(mounts) if row in wasp.arcs[m])
            assert flat.facing(o, w, False) == (mask, min(wasp.ssd.armour[r] for r in regions_of(row))), (o, w)


def test_arcs_kept_for_one_map_are_never_read_for_another_built_meanwhile(monkeypatch: pytest.MonkeyPatch) -> None:
    """The server builds scenes of several games on several threads: here another map's arcs are worked out
    in the middle of this map's (as a thread switch would), and each map still gets its own."""
    small, large = HexMap.single(12, 12), HexMap.single(40, 40)
    centre, facing = Hex(6, 6), Orientation.level(0)
    alone = {m: display._arcs(m, centre, RAFIK, facing, False) for m in (small, large)}
    assert alone[small] != alone[large]  # the small map cuts the long rays short
    work_out = display._arcs
    interleaved: list[dict[str, HexSet]] = []

    def arcs(hex_map: HexMap, *args: Any) -> dict[str, HexSet]:
        if hex_map is small and not interleaved:
            interleaved.append(display._kept_arcs(large, *args))
        return work_out(hex_map, *args)

    monkeypatch.setattr(display, "_arcs", arcs)
    display._ARCS.clear()
    assert display._kept_arcs(small, centre, RAFIK, facing, False) == alone[small]
    assert interleaved == [alone[large]]
    assert display._kept_arcs(large, centre, RAFIK, facing, False) == alone[large]
    assert display._kept_arcs(small, centre, RAFIK, facing, False) == alone[small]
