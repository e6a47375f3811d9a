"""A ship's plot menu grouped by course (end hex and vector) for the greedy bot, kept per menu.

Every plot of one course shares the greedy bot's range, speed and stop terms but for its brakes, so the bot
bounds a course's plots together before it looks at them one by one (:meth:`.bots.Scorer.best`). A search asks
for one ship's menu in many rollouts; the planner hands out the same results, so the grouping is kept by them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

from vectorwar.hexes import Direction
from vectorwar.memo import Kept
from vectorwar.roster import slot_stores
from vectorwar.systems.vms.movement import Plot, TurnResult
from vectorwar.systems.vms.planner import handed_out


@dataclass(frozen=True, slots=True)
class Grouped:
    """A menu's plots by course (end hex and vector, :class:`Plots`), and every number of hexsides turned in the
    menu."""

    first: TurnResult
    last: TurnResult
    size: int
    courses: tuple[Plots, ...]
    turned: frozenset[int]


@dataclass(frozen=True, slots=True, init=False)
class Plots:
    """The plots of one course: their numbers in the menu, in its order; each hexsides turned with the rotation
    left running (hexsides/turn either way) that goes with it; and the facings they end with."""

    numbers: tuple[int, ...]
    turnings: frozenset[tuple[int, int]]
    facings: frozenset[Direction]

    def __init__(
        self, numbers: tuple[int, ...], turnings: frozenset[tuple[int, int]], facings: frozenset[Direction]
    ) -> None:
        # Each stored by its slot's own setter (``roster.slot_stores``): a menu grouped makes one for each course.
        _PLOTS_NUMBERS(self, numbers)
        _PLOTS_TURNINGS(self, turnings)
        _PLOTS_FACINGS(self, facings)


_PLOTS_NUMBERS, _PLOTS_TURNINGS, _PLOTS_FACINGS = slot_stores(Plots)


def grouped(options: Sequence[tuple[Plot, TurnResult]]) -> Grouped:
    """:class:`Grouped` for ``options``, kept for a menu the planner hands out again (the same results, which a
    search's rollouts ask of a ship for every enemy move they try)."""
    first, last = options[0][1], options[-1][1]
    known = _KEPT.get(id(first))
    if known is not None and known.first is first and known.last is last and known.size == len(options):
        return known
    if handed_out(first):
        # A planner's menu is grouped by its plots alone (:func:`_by_plots`).
        courses, turned = _by_plots(options)
    else:
        courses, turned = _grouping(options)
    found = Grouped(first, last, len(options), courses, turned)
    _KEPT.keep(id(first), found)  # it holds ``first``, so no other result takes its id while it is kept
    return found


def _by_plots(options: Sequence[tuple[Plot, TurnResult]]) -> tuple[tuple[Plots, ...], frozenset[int]]:
    """:func:`_grouping` of a menu the planner worked out (:func:`~.planner.handed_out`), kept by its plots.

    Each plot of such a menu is one candidate of one design at one facing and rotation, whose turning, facing,
    velocity change and flat turn are the same at every vector and hex; two plots of one menu end on one course
    exactly when they share their velocity change and flat turn (the end hex is the start moved by the vector after
    thrust, and a flat turn turns that vector, never zero, one way or the other). So the menus of a ship at other
    vectors (a search's every trial) with the same plots are grouped alike, and the grouping is kept by the plots'
    identities, the plots kept with it so that no other plot takes their ids while it is.
    """
    plots = tuple(p for p, _ in options)
    key = tuple(map(id, plots))
    known = _BY_PLOTS.get(key)
    if known is not None:
        return known[1], known[2]
    courses, turned = _grouping(options)
    _BY_PLOTS.keep(key, (plots, courses, turned))
    return courses, turned


def _grouping(options: Sequence[tuple[Plot, TurnResult]]) -> tuple[tuple[Plots, ...], frozenset[int]]:
    """The courses of ``options`` and every number of hexsides turned in them, worked out in one pass, each course's
    numbers, turnings and facings gathered as they come."""
    # Each course's numbers, turnings and facings in one entry (one look-up a plot), in the order first met.
    groups: dict[tuple[int, int, int, int], tuple[list[int], set[tuple[int, int]], set[Direction]]] = {}
    for i, (_, r) in enumerate(options):
        m = r.motion
        at, v = m.hex, m.velocity
        key = (at.q, at.r, v.dq, v.dr)
        group = groups.get(key)
        if group is None:
            group = groups[key] = ([], set(), set())
        group[0].append(i)
        group[1].add((r.hexsides_turned, abs(m.rotation)))
        group[2].add(m.facing)
    courses = tuple(
        Plots(tuple(listed), _one(frozenset(turnings)), _one(frozenset(facings)))
        for listed, turnings, facings in groups.values()
    )
    return courses, frozenset(t for plots in courses for t, _ in plots.turnings)


S = TypeVar("S")


def _one(found: frozenset[S]) -> frozenset[S]:
    """The one set kept equal to ``found``: the courses of every menu kept share the few sets of turnings and facings
    there are, so they are fewer objects for the garbage collector to walk (and kept hashes to look up)."""
    kept = _SETS.get(found)
    if kept is None:
        kept = _SETS.keep(found, found)
    return kept  # type: ignore[return-value]


GROUPS_KEPT = 4096
#: :func:`_one`'s sets, by themselves.
_SETS: Kept[frozenset[object], frozenset[object]] = Kept(GROUPS_KEPT)


#: :func:`_by_plots`' answers, by the plots' identities, with the plots.
_BY_PLOTS: Kept[tuple[int, ...], tuple[tuple[Plot, ...], tuple[Plots, ...], frozenset[int]]] = Kept(GROUPS_KEPT)
#: :func:`grouped`'s answers, by the identity of the menu's first result.
_KEPT: Kept[int, Grouped] = Kept(GROUPS_KEPT)
