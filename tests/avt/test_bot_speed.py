"""The AV:T greedy player's kept answers agree with the plain working (issue 51: speed, the same choices)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.avt.helpers import AVT, rafik_game
from vectorwar.systems.avt.arcs import map_to_arc, middle_row
from vectorwar.systems.avt.avid import ALL_WINDOWS
from vectorwar.systems.avt.bots import _bearing
from vectorwar.systems.avt.orientation import Orientation, pivot_paths
from vectorwar.systems.avt.state import AVTState


@pytest.mark.parametrize("three_d", [True, False])
def test_lasers_bearing_as_kept_are_the_lasers_whose_arcs_hold_a_window(three_d: bool) -> None:
    state = rafik_game().state
    assert isinstance(state, AVTState)
    state = replace(state, options={**state.options, "three_d": three_d})
    design = AVT.designs()["rafik"]
    orientations = [Orientation.level(0), *(p[-1].orientation for p in pivot_paths(Orientation.level(0)).values() if p)]
    mounts_alive = [list(design.lasers.values()), list(design.lasers.values())[1:], []]
    bearing_somewhere = 0
    for orientation in orientations[::7]:
        for window in ALL_WINDOWS:
            arc = map_to_arc(orientation, window) if three_d else (middle_row(orientation, window),)
            for mounts in mounts_alive:
                plain = sum(1 for m in mounts if any(w in design.arcs[m] for w in arc))
                assert _bearing(state, design, mounts, orientation, window) == plain
                assert _bearing(state, design, mounts, orientation, window) == plain  # asked again: kept
                bearing_somewhere += plain > 0
    assert bearing_somewhere > 0
