"""Vector consolidation: the AVID's arrows reduced to the form the movement grid takes.

After a burn a ship may hold vectors on several arrows at once. The text
reduces them by hand in two moves, repeated until nothing changes (A5.364):

1. vectors on opposite arrows cancel (A against D, up against down);
2. two vectors 120 degrees apart (four AVID windows, such as A and C) fold:
   the smaller is copied onto the direction between them and then taken
   off both, because one hex in A plus one in C lands on the same hex as one
   in B.

What remains is at most two adjacent map directions and one vertical arrow,
exactly the ship's velocity. The third sample game folds 4 in A, 2 in B
(its earlier vectors) and 2 in C (its new dots) into 2 in A and 4 in B:

>>> from vectorwar.systems.avt.arrows import Arrow
>>> result = consolidate({Arrow.A: 4, Arrow.B: 2, Arrow.C: 2, Arrow.UP: 1})
>>> str(result.velocity)
'A=2, B=4, up=1'
>>> result.steps
('C folds into A: 2 copied onto B, 2 taken off both',)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from vectorwar.systems.avt.arrows import HORIZONTAL, Arrow, velocity_of
from vectorwar.vectors import Velocity

_OPPOSITE_PAIRS: tuple[tuple[Arrow, Arrow], ...] = (
    (Arrow.A, Arrow.D),
    (Arrow.B, Arrow.E),
    (Arrow.C, Arrow.F),
    (Arrow.UP, Arrow.DOWN),
)


@dataclass(frozen=True, slots=True)
class Consolidation:
    """The arrows before and after, and each step taken, in words."""

    before: tuple[tuple[Arrow, int], ...]
    after: tuple[tuple[Arrow, int], ...]
    steps: tuple[str, ...]

    @property
    def velocity(self) -> Velocity:
        return velocity_of(dict(self.after))


def consolidate(counts: Mapping[Arrow, int]) -> Consolidation:
    """Reduce vectors on any arrows by cancelling opposites and folding 120-degree pairs.

    The result depends on the counts alone (and their order, for ``before``),
    so each distinct set is worked out once and then looked up.
    """
    return _consolidate(tuple(counts.items()))


@lru_cache(maxsize=65536)
def _consolidate(items: tuple[tuple[Arrow, int], ...]) -> Consolidation:
    counts = dict(items)
    if any(n < 0 for n in counts.values()):
        raise ValueError(f"vectors on the AVID are counts, never negative: {counts}")
    arrows = {a: counts.get(a, 0) for a in Arrow}
    steps: list[str] = []
    changed = True
    while changed:
        changed = False
        for a, b in _OPPOSITE_PAIRS:
            gone = min(arrows[a], arrows[b])
            if gone:
                arrows[a] -= gone
                arrows[b] -= gone
                steps.append(f"{a} and {b} cancel: {gone} off both")
                changed = True
        for a in HORIZONTAL:
            c = Arrow((a.value + 2) % 6)
            small = min(arrows[a], arrows[c])
            if small:
                middle = Arrow((a.value + 1) % 6)
                larger, smaller = (a, c) if arrows[a] >= arrows[c] else (c, a)
                arrows[middle] += small
                arrows[a] -= small
                arrows[c] -= small
                steps.append(f"{smaller} folds into {larger}: {small} copied onto {middle}, {small} taken off both")
                changed = True
                break  # cancel again before the next fold: a fold can create an opposite pair
    return Consolidation(
        tuple((a, n) for a, n in counts.items() if n),
        tuple((a, n) for a, n in arrows.items() if n),
        tuple(steps),
    )
