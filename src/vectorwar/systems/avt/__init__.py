"""Attack Vector: Tactical (AV:T), part 1: segmented 3-D vector movement, orientation, bearings.

Text: ``../shared/seeds/002_6f6bbe4033d6a8ea.txt`` (introduction, glossary and
the walk-through tutorial). Rule-by-rule map: ``docs/rules/avt.md``.

The movement math lives in small modules a player would recognise: the
movement grid (:mod:`.grid`), vector consolidation (:mod:`.consolidate`),
the thrust chart (:mod:`.thrust`), the AVID and bearings (:mod:`.avid`),
orientation, pivots and rolls (:mod:`.orientation`) and firing arcs
(:mod:`.arcs`).
"""

from vectorwar.systems.avt.rules import AttackVector, system

__all__ = ["AttackVector", "system"]
