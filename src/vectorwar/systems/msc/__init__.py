"""Minimal Space Combat (MSC): the smallest complete system on the kernel.

Text: ``../shared/seeds/004_bc5643c5592641a2.txt``. Rule-by-rule map:
``docs/rules/msc.md``.
"""

from vectorwar.systems.msc.rules import MinimalSpaceCombat, system

__all__ = ["MinimalSpaceCombat", "system"]
