"""What other packages may use of Minimal Space Combat's rules.

Public, and kept small on purpose: MSC's combat as a combat module for another system's movement
(:class:`MSCCombat` and its card :class:`MSCCard`, :mod:`vectorwar.systems.msc.module`; VMS builds
its table of modules from it), and MSC's own check of a fire declaration and its bearing rules, which
that module calls so that legality is written once. Everything else in ``systems/msc`` is private to
the system and may change without notice; a name joins this list only when an outside module needs it
(tests/test_architecture.py enforces it).
"""

from __future__ import annotations

from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.combat import in_reach, sides_in_reach, weapon_bears
from vectorwar.systems.msc.fire import check_fire
from vectorwar.systems.msc.module import MSCCard, MSCCombat
from vectorwar.systems.msc.state import Ship

__all__ = [
    "MSCCard",
    "MSCCombat",
    "Ship",
    "Side",
    "check_fire",
    "in_reach",
    "sides_in_reach",
    "weapon_bears",
]
