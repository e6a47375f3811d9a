"""Vector V5 (VV5): vector-marker movement, missiles, guns, damage by location.

Text: ``../shared/seeds/001_b2e225cb8a9dead4.txt``. Rule-by-rule map:
``docs/rules/vv5.md``.
"""

from vectorwar.systems.vv5.rules import VectorV5, system

__all__ = ["VectorV5", "system"]
