"""The AV:T greedy player's kept answers agree with the plain working (issue 51: speed, the same choices)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.avt.helpers import AVT, rafik_game
from vectorwar.systems.avt.arcs import map_to_arc, middle_row
from vectorwar.systems.avt.armour import struck
from vectorwar.systems.avt.avid import ALL_WINDOWS
from vectorwar.systems.avt.facing_tables import design_table, lasers_alive, lasers_fresh, reachable_from
from vectorwar.systems.avt.orientation import Orientation, pivot_paths
from vectorwar.systems.avt.ssd import laser_state
from vectorwar.systems.avt.state import AVTState


@pytest.mark.parametrize("three_d", [True, False])
def test_lasers_bearing_and_armour_as_kept_are_the_arcs_and_armour_that_hold_a_window(three_d: bool) -> None:
    state = rafik_game().state
    assert isinstance(state, AVTState)
    state = replace(state, options={**state.options, "three_d": three_d})
    design = AVT.designs()["rafik"]
    orientations = [Orientation.level(0), *(p[-1].orientation for p in pivot_paths(Orientation.level(0)).values() if p)]
    lasers = list(design.lasers.items())
    # Every laser, all but the first, none: as bit masks over the design's lasers, and as the lasers themselves.
    alive = [((1 << len(lasers)) - 1, lasers), ((1 << len(lasers)) - 2, lasers[1:]), (0, [])]
    assert design.ssd is not None
    table = design_table(design)
    bearing_somewhere = 0
    for orientation in orientations[::7]:
        for window in ALL_WINDOWS:
            arc = map_to_arc(orientation, window) if three_d else (middle_row(orientation, window),)
            armour = min(design.ssd.armour[r] for r in struck(orientation, window, three_d))
            for mask, mounts in alive:
                plain = sum(1 for _, m in mounts if any(w in design.arcs[m] for w in arc))
                for _ in range(2):  # asked again: kept
                    bearing, shown = table.facing(orientation, window, three_d)
                    assert (bearing & mask).bit_count() == plain
                    assert shown == armour
                    holds = {laser: any(w in design.arcs[m] for w in arc) for laser, m in lasers}
                    assert all((bearing >> table.index[laser] & 1) == holds[laser] for laser in holds)
                bearing_somewhere += plain > 0
    assert bearing_somewhere > 0


def test_lasers_alive_and_fresh_as_masks_are_the_lasers_whole_and_cool() -> None:
    state = rafik_game().state
    assert isinstance(state, AVTState)
    ship = next(s for s in state.ships if s.kind == "ship")
    design = state.designs[ship.design]
    lasers = list(design.lasers)
    first, second = lasers[0], lasers[1]
    track = design.mounts[design.lasers[first]].hits
    # The first laser destroyed, the second cooling until segment 7 (an older entry for it after is ignored).
    ship = replace(ship, marks=((f"laser {first}", len(track)),), cooling=((second, 7), (second, 99)))
    alive = lasers_alive(design, ship)
    for at in range(5, 10):
        plain = {
            laser for laser in lasers if laser_state(design, ship, laser) != "destroyed" and ship.ready_at(laser) <= at
        }
        fresh = lasers_fresh(design, ship, at, alive)
        assert {laser for laser in lasers if fresh >> design_table(design).index[laser] & 1} == plain
    assert first not in {laser for laser in lasers if alive >> design_table(design).index[laser] & 1}


@pytest.mark.parametrize("three_d", [True, False])
def test_the_pivots_kept_by_orientation_number_are_the_pivots_the_chart_allows(three_d: bool) -> None:
    design = AVT.designs()["rafik"]
    table = design_table(design)
    orientations = [Orientation.level(0), *(p[-1].orientation for p in pivot_paths(Orientation.level(3)).values() if p)]
    for orientation in orientations:
        reach = table.reach(orientation, three_d)
        assert table.reach(orientation, three_d) is reach  # asked again: kept
        assert reach == reachable_from(orientation, three_d, design.pivots)
        assert reach[0][1] == orientation
        assert all(0 <= n <= len(design.pivots) for _, _, n, _, _, _ in reach)
        assert table.takes(orientation, three_d) == tuple(dict.fromkeys(entry[3] for entry in reach))


@pytest.mark.parametrize("three_d", [True, False])
def test_the_regions_struck_as_kept_are_the_regions_worked_out(three_d: bool) -> None:
    from vectorwar.systems.avt import armour

    orientations = [Orientation.level(0), *(p[-1].orientation for p in pivot_paths(Orientation.level(5)).values() if p)]
    for orientation in orientations[::3]:
        for window in ALL_WINDOWS:
            worked = armour._struck(orientation, window, three_d)
            assert struck(orientation, window, three_d) == worked
            assert struck(orientation, window, three_d) is struck(orientation, window, three_d)  # kept
            assert worked  # every window strikes a region
