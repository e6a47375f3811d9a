"""The combat modules VMS plays (option ``combat``), taken from the systems whose combat they are.

VMS has no combat of its own: each module lives in its system (:mod:`vectorwar.systems.msc.api`,
:mod:`vectorwar.systems.vv5.api`) and is written against the contract in :mod:`vectorwar.combat`,
which names no system. This table is the one place VMS names them.

>>> sorted(MODULES)
['msc', 'vv5']
"""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from vectorwar.combat import CombatModule
from vectorwar.systems.msc.api import MSCCard, MSCCombat
from vectorwar.systems.vv5.api import VV5Card, VV5Combat

#: A ship's combat card, whichever module made it (plain data in a state).
CombatCard = Annotated[MSCCard | VV5Card, Field(discriminator="module")]

MODULES: dict[str, CombatModule] = {m.name: m for m in (MSCCombat(), VV5Combat())}


def module(name: str) -> CombatModule:
    """The combat module called ``name``; ``KeyError`` names the known ones."""
    try:
        return MODULES[name]
    except KeyError:
        raise KeyError(f"no combat module {name!r} (known: {', '.join(sorted(MODULES))})") from None
