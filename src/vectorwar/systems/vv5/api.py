"""What other packages may use of Vector V5's rules.

Public, and kept small on purpose: VV5's missiles, guns and damage as a combat module for another
system's movement (:class:`VV5Combat` and its card :class:`VV5Card`, :mod:`vectorwar.systems.vv5.module`;
VMS builds its table of modules from it), VV5's own checks of launches and gunfire on any board
(:class:`Board`, ``check_launches_on``, ``check_gunfire_on``), which that module calls so that legality
is written once, the order a side declaring first names (:class:`DeclareOrder`, VV5's initiative under
VMS), and the reach of its weapons. Everything else in ``systems/vv5`` is private to the
system (besides the other public modules listed in docs/architecture.md) and may change without notice;
a name joins this list only when an outside module needs it (tests/test_architecture.py enforces it).
"""

from __future__ import annotations

from vectorwar.systems.vv5.arcs import GUN_ARCS
from vectorwar.systems.vv5.legality import Board, check_gunfire_on, check_launches_on
from vectorwar.systems.vv5.module import VV5Card, VV5Combat
from vectorwar.systems.vv5.orders import DeclareOrder
from vectorwar.systems.vv5.state import VV5State
from vectorwar.systems.vv5.targeting import (
    gun_in_reach,
    gun_reach,
    missile_in_reach,
    missile_reach,
    weapons_in_reach,
)

__all__ = [
    "GUN_ARCS",
    "Board",
    "DeclareOrder",
    "VV5Card",
    "VV5Combat",
    "VV5State",
    "check_gunfire_on",
    "check_launches_on",
    "gun_in_reach",
    "gun_reach",
    "missile_in_reach",
    "missile_reach",
    "weapons_in_reach",
]
