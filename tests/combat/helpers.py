"""Small combat views for the module tests: two ships on an open map."""

from __future__ import annotations

from typing import Any, TypedDict

from vectorwar.combat.base import Combatant, CombatView
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.systems.vms.modules import module

MSC_TABLE: dict[str, Any] = {"engine": 3, "shields": 3, "to_hit": 3, "weapons": ["F", "FL", "FR"]}
VV5_TABLE: dict[str, Any] = {"mass": 20, "acceleration": 2, "agility": 2, "guns": [{"arc": "forward", "guns": 2}]}


class DuelOptions(TypedDict, total=False):
    """Some of :func:`duel`'s keyword arguments, as helpers that pass them on take them."""

    distance: int
    turned: int
    target_can_thrust: bool
    penalty: int
    target_accelerated: int
    target_facing: Direction


def duel(
    system: str,
    table: dict[str, Any],
    *,
    distance: int = 3,
    turned: int = 0,
    target_can_thrust: bool = True,
    penalty: int = 2,
    target_accelerated: int = 0,
    target_facing: Direction = Direction.D,
) -> CombatView:
    """Hawk (red) at 5,10 facing A, Raven (blue) ``distance`` hexes straight ahead, facing Hawk unless told."""
    m = module(system)
    here = Hex.parse("5,10")
    hawk = Combatant("Hawk", "red", "Hawk", here, Direction.A, hexsides_turned=turned)
    raven = Combatant(
        "Raven",
        "blue",
        "Raven",
        here.neighbour(Direction.A, distance),
        target_facing,
        can_thrust=target_can_thrust,
        accelerated=target_accelerated,
    )
    cards = {"Hawk": m.card("Hawk", table, "test"), "Raven": m.card("Raven", table, "test")}
    return CombatView((hawk, raven), cards, HexMap.single(12, 14), penalty)
