"""Combat modules: the weapons and damage of a rule system, played under another system's movement.

A movement system that has no combat of its own (VMS) takes the module a
scenario names. :mod:`.base` holds the contract (the neutral
:class:`~.base.Combatant` view, :class:`~.base.Effect` results and the
:class:`~.base.CombatModule` protocol); :mod:`.msc` and :mod:`.vv5` adapt the
MSC and VV5 systems' own combat functions to it.

>>> sorted(MODULES)
['msc', 'vv5']
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from vectorwar.combat.base import Combatant, CombatModule, CombatView, Effect, Outcome
from vectorwar.combat.msc import MSCCard, MSCCombat
from vectorwar.combat.vv5 import VV5Card, VV5Combat

#: A ship's combat card, whichever module made it (plain data in a state).
CombatCard = Annotated[MSCCard | VV5Card, Field(discriminator="module")]

MODULES: dict[str, CombatModule] = {m.name: m for m in (MSCCombat(), VV5Combat())}


def module(name: str) -> CombatModule:
    """The combat module called ``name``; ``KeyError`` names the known ones."""
    try:
        return MODULES[name]
    except KeyError:
        raise KeyError(f"no combat module {name!r} (known: {', '.join(sorted(MODULES))})") from None


__all__ = ["MODULES", "CombatCard", "CombatModule", "CombatView", "Combatant", "Effect", "Outcome", "module"]
