"""A ship's plot menu grouped by course (end hex and vector) for the greedy bot, kept per menu.

Every plot of one course shares the greedy bot's range, speed and stop terms but for its brakes, so the bot
bounds a course's plots together before it looks at them one by one (:meth:`.bots._Scorer.best`). A search asks
for one ship's menu in many rollouts; the planner hands out the same results, so the grouping is kept by them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vectorwar.hexes import Direction
from vectorwar.systems.vms.movement import Plot, TurnResult


@dataclass(frozen=True, slots=True)
class Grouped:
    """A menu's plots by course (end hex and vector, :class:`Plots`), and every number of hexsides turned in the
    menu."""

    first: TurnResult
    last: TurnResult
    size: int
    courses: tuple[Plots, ...]
    turned: frozenset[int]


@dataclass(frozen=True, slots=True)
class Plots:
    """The plots of one course: their numbers in the menu, in its order; each hexsides turned with the rotation
    left running (hexsides/turn either way) that goes with it; and the facings they end with."""

    numbers: tuple[int, ...]
    turnings: frozenset[tuple[int, int]]
    facings: frozenset[Direction]


def grouped(options: Sequence[tuple[Plot, TurnResult]]) -> Grouped:
    """:class:`Grouped` for ``options``, kept for a menu the planner hands out again (the same results, which a
    search's rollouts ask of a ship for every enemy move they try)."""
    first, last = options[0][1], options[-1][1]
    known = _KEPT.get(id(first))
    if known is not None and known.first is first and known.last is last and known.size == len(options):
        return known
    # One pass over the menu, each course's numbers, turnings and facings gathered as they come.
    numbers: dict[tuple[int, int, int, int], list[int]] = {}
    turnings: dict[tuple[int, int, int, int], set[tuple[int, int]]] = {}
    facings: dict[tuple[int, int, int, int], set[Direction]] = {}
    turned: set[int] = set()
    for i, (_, r) in enumerate(options):
        m = r.motion
        at, v = m.hex, m.velocity
        key = (at.q, at.r, v.dq, v.dr)
        turning = (r.hexsides_turned, abs(m.rotation))
        listed = numbers.get(key)
        if listed is None:
            numbers[key] = [i]
            turnings[key] = {turning}
            facings[key] = {m.facing}
        else:
            listed.append(i)
            turnings[key].add(turning)
            facings[key].add(m.facing)
        turned.add(r.hexsides_turned)
    found = Grouped(
        first,
        last,
        len(options),
        tuple(
            Plots(tuple(listed), frozenset(turnings[key]), frozenset(facings[key])) for key, listed in numbers.items()
        ),
        frozenset(turned),
    )
    if len(_KEPT) >= GROUPS_KEPT:
        _KEPT.clear()
    _KEPT[id(first)] = found  # it holds ``first``, so no other result takes its id while it is kept
    return found


#: :func:`grouped`'s answers, by the identity of the menu's first result.
_KEPT: dict[int, Grouped] = {}
GROUPS_KEPT = 4096
