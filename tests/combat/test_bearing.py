"""``CombatModule.bearing``: the cheap count bots read must say what ``shot_options`` says, for every module."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.combat import module
from vectorwar.combat.base import CombatView
from vectorwar.hexes import Direction

from .helpers import MSC_TABLE, VV5_TABLE, duel

TABLES: dict[str, list[dict[str, Any]]] = {
    "msc": [MSC_TABLE, {**MSC_TABLE, "weapons": ["F", "RL", "RR", "FL"]}],
    "vv5": [
        VV5_TABLE,
        {**VV5_TABLE, "missiles": 3, "armour": {"missiles": 1}},
        {
            **VV5_TABLE,
            "guns": [{"arc": "forward", "guns": 2}, {"arc": "aft180", "guns": 1}, {"arc": "turret360", "guns": 1}],
            "missiles": 2,
        },
    ],
}


def _counted(view: CombatView, system: str, ship: str) -> dict[tuple[str, str], int]:
    return dict(Counter((o.weapon, o.target) for o in module(system).shot_options(view, ship)))


@pytest.mark.parametrize("system", sorted(TABLES))
@settings(max_examples=60, deadline=None)
@given(
    table=st.integers(0, 2),
    distance=st.integers(0, 9),
    turned=st.integers(0, 2),
    facing=st.sampled_from(list(Direction)),
    shift=st.sampled_from(list(Direction)),
    aside=st.integers(0, 3),
)
def test_bearing_counts_the_shot_options_pieces(
    system: str, table: int, distance: int, turned: int, facing: Direction, shift: Direction, aside: int
) -> None:
    tables = TABLES[system]
    view = duel(system, tables[table % len(tables)], distance=max(1, distance), turned=turned, target_facing=facing)
    # Move the target off the line of the bow, so side and rear arcs are asked as well.
    raven = view.ship("Raven")
    view = replace(view, ships=(view.ships[0], replace(raven, hex=raven.hex.neighbour(shift, aside))))
    for ship in ("Hawk", "Raven"):
        assert module(system).bearing(view, ship) == _counted(view, system, ship)


@pytest.mark.parametrize("system", sorted(TABLES))
def test_a_ship_out_of_the_fight_has_nothing_bearing(system: str) -> None:
    view = duel(system, TABLES[system][0], distance=2)
    out = replace(view, ships=(replace(view.ships[0], status="destroyed"), view.ships[1]))
    assert module(system).bearing(view, "Hawk") != {}
    assert module(system).bearing(out, "Hawk") == {}
    # Next to the target, every forward weapon bears: the count is each piece a declaration may name.
    assert sum(module(system).bearing(view, "Hawk").values()) == len(module(system).shot_options(view, "Hawk"))


def test_gun_boxes_are_the_pieces_of_a_vv5_mount() -> None:
    view = duel("vv5", TABLES["vv5"][1], distance=2)
    assert module("vv5").bearing(view, "Hawk") == {("missiles", "Raven"): 3, ("forward guns", "Raven"): 2}
