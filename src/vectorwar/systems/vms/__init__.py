"""The Vector Movement System (VMS, text 003) as a movement library.

VMS is a movement system written to sit under another game's combat, so this
package holds only movement, as pure functions with no knowledge of weapons:

* :mod:`.ships`: the ship data a design needs (thrust, accel/decel cost,
  thrusters per side, pivot cost ``X+X``, class, initiative, flat turns).
* :mod:`.thrust`: burns through thrusters, thruster arcs and ratings, and how
  thrust points become hexes of velocity change.
* :mod:`.rotation`: rotation with momentum, class limits and overspeed
  damage, small-craft turning, and the advanced (fractional) variant.
* :mod:`.flat_turn`: the Minbari flat turn.
* :mod:`.movement`: one ship's whole turn (thrust, rotation, flat turn, move).
* :mod:`.record`: the odd/even current/next record the text has players keep.
* :mod:`.initiative`: the d20 roll and the class subphases.

The rule-system plug-in (:mod:`.rules`, ``system``) adds the turn: initiative,
subphase plots (:mod:`.orders`, the menu in :mod:`.planner`), the combat
module the scenario names (:mod:`vectorwar.combat`), bots (:mod:`.bots`) and
display (:mod:`.display`).
"""

from vectorwar.systems.vms.rules import system

__all__ = ["system"]
