"""What other packages may use of Minimal Space Combat's rules (today: the MSC combat module for VMS).

Public, and kept small on purpose: :mod:`vectorwar.combat.msc` plays MSC's
combat inside another movement system by building the MSC ``Ship`` it needs
and calling these pure functions; a fire declaration is checked, and its legal
shots listed, by the same functions MSC's own fire prompt uses (``check_fire``,
``shots_bearing``, ``random_fire``). Everything else in ``systems/msc`` is
private to the system and may change without notice; a name joins this list
only when an outside module needs it (tests/test_architecture.py enforces it).
"""

from __future__ import annotations

from vectorwar.systems.msc.arcs import Side, sides_seeing
from vectorwar.systems.msc.combat import (
    MAX_RANGE,
    RULE_COMBAT,
    damage_side,
    fire_weapon,
    hit_chance,
    in_reach,
    line_of_sight,
    shot_odds,
    sides_in_reach,
    to_hit_number,
    weapon_bears,
)
from vectorwar.systems.msc.design import Design, design_from_data
from vectorwar.systems.msc.fire import check_fire, random_fire, shots_bearing
from vectorwar.systems.msc.orders import FireOrders, Shot, parse_fire
from vectorwar.systems.msc.state import Ship

__all__ = [
    "MAX_RANGE",
    "RULE_COMBAT",
    "Design",
    "FireOrders",
    "Ship",
    "Shot",
    "Side",
    "check_fire",
    "damage_side",
    "design_from_data",
    "fire_weapon",
    "hit_chance",
    "in_reach",
    "line_of_sight",
    "parse_fire",
    "random_fire",
    "shot_odds",
    "shots_bearing",
    "sides_in_reach",
    "sides_seeing",
    "to_hit_number",
    "weapon_bears",
]
