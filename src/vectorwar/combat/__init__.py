"""The combat contract: how a rule system's weapons and damage play under another system's movement.

A movement system that has no combat of its own (VMS) takes the module a scenario names. This
package holds only the contract (:mod:`.base`: the neutral :class:`~.base.Combatant` view,
:class:`~.base.Effect` results and the :class:`~.base.CombatModule` protocol); each module lives in
the system whose combat it plays (MSC's and VV5's ``module.py``, exported from their ``api``), and
the movement system builds its own table of the modules it plays, so that no arrow runs from this
layer up into the systems.
"""

from __future__ import annotations

from vectorwar.combat.base import Combatant, CombatModule, CombatView, Effect, Outcome

__all__ = ["CombatModule", "CombatView", "Combatant", "Effect", "Outcome"]
