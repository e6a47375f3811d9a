"""The judge of what VV5 fire is expected to do (vectorwar.systems.vv5.damage_odds): its landing tables."""

from __future__ import annotations

import pytest

from vectorwar.systems.vv5 import damage_odds

PLACINGS = [(0, 5, 1, 1), (0, 20, 4, 1), (2, 8, 2, 0), (1, 15, 3, 2), (0, 3, 0, 1), (3, 1, 2, 4)]


@pytest.mark.parametrize("placing", PLACINGS)
def test_a_landing_table_gone_on_from_a_shorter_one_is_the_table_worked_out_whole(
    placing: tuple[int, int, int, int],
) -> None:
    # _landings goes on from the longest run worked out for the ship so placed: the same steps in the same order, so
    # the very same numbers as a run from the first point.
    whole = damage_odds._landed(*placing, 80, None)
    for first in (1, 16, 33):
        start = damage_odds._landed(*placing, first, None)
        assert damage_odds._landed(*placing, 80, start)[2] == whole[2]
        assert start[2] == whole[2][:first]
    damage_odds._LANDED.clear()
    damage_odds._landings.cache_clear()
    for count in (48, 16, 80, 32):
        assert damage_odds._landings(*placing, count) == whole[2][:count]
