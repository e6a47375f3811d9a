"""What other packages may use of Vector V5's rules (today: the VV5 combat module for VMS).

Public, and kept small on purpose: :mod:`vectorwar.combat.vv5` plays VV5's
guns and missiles inside another movement system by building the VV5 ``Ship``
it needs and calling these pure functions. Everything else in ``systems/vv5``
is private to the system (besides the other public modules listed in
docs/architecture.md) and may change without notice; a name joins this list
only when an outside module needs it (tests/test_architecture.py enforces it).
"""

from __future__ import annotations

from vectorwar.systems.vv5 import damage_odds
from vectorwar.systems.vv5.arcs import CODE_OF, GUN_ARCS, MISSILE_ARC, WEAPON_WORDS, covered_hexes
from vectorwar.systems.vv5.combat import (
    GUN_RANGE,
    MISSILE_RANGE,
    RULE_GUNS,
    RULE_MISSILES,
    SEVERAL_TARGETS,
    apply_damage,
    damage_structure,
    gun_modifier,
    gun_odds,
    gun_to_hit,
    guns_facing,
    missile_hit_chance,
    missile_odds,
    missile_to_hit,
    missile_verdict,
    on_track,
    spread_adjustment,
)
from vectorwar.systems.vv5.design import Design, design_from_data
from vectorwar.systems.vv5.equipment import build_ship
from vectorwar.systems.vv5.events import GunsFired, MissileLaunched, MissileResolved
from vectorwar.systems.vv5.orders import Gunfire, Launch, Launches, Shot
from vectorwar.systems.vv5.state import Box, Launcher, Mount, Ship, VV5State
from vectorwar.systems.vv5.targeting import (
    gun_in_reach,
    gun_reach,
    missile_in_reach,
    missile_reach,
    weapons_in_reach,
)

__all__ = [
    "CODE_OF",
    "GUN_ARCS",
    "GUN_RANGE",
    "MISSILE_ARC",
    "MISSILE_RANGE",
    "RULE_GUNS",
    "RULE_MISSILES",
    "SEVERAL_TARGETS",
    "WEAPON_WORDS",
    "Box",
    "Design",
    "Gunfire",
    "GunsFired",
    "Launch",
    "Launcher",
    "Launches",
    "MissileLaunched",
    "MissileResolved",
    "Mount",
    "Ship",
    "Shot",
    "VV5State",
    "apply_damage",
    "build_ship",
    "covered_hexes",
    "damage_odds",
    "damage_structure",
    "design_from_data",
    "gun_in_reach",
    "gun_modifier",
    "gun_odds",
    "gun_reach",
    "gun_to_hit",
    "guns_facing",
    "missile_hit_chance",
    "missile_in_reach",
    "missile_odds",
    "missile_reach",
    "missile_to_hit",
    "missile_verdict",
    "on_track",
    "spread_adjustment",
    "weapons_in_reach",
]
