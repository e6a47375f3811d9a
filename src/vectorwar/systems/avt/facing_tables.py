"""What the greedy player (:mod:`.bots`) asks again and again of a ship, worked out once and kept.

For every facing it weighs, the lasers whose arcs hold the window an enemy is seen through and the skin
armour that window's fire would meet (:class:`DesignTable`, kept per design); the pivots a ship's chart
allows from an orientation (:func:`reachable_from`); and which lasers are whole and cool, as bit masks, so
that counting the lasers of a facing is a few integer operations. These sit in the bot's innermost loops
(``benchmarks/compare.py``'s avt figures), so they trade plain numbers for dataclasses where it pays.
"""

from __future__ import annotations

from functools import lru_cache

from vectorwar.memo import Kept
from vectorwar.systems.avt.arcs import map_to_arc, middle_row
from vectorwar.systems.avt.armour import struck
from vectorwar.systems.avt.avid import Window
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.lasers import max_range
from vectorwar.systems.avt.orientation import Chart, Orientation, orientation_number, pivot_ends
from vectorwar.systems.avt.ssd import laser_state
from vectorwar.systems.avt.state import Ship
from vectorwar.systems.avt.tracks import THRUST_UNIT, Vec

#: A facing the greedy player weighs (:func:`reachable_from`): (nose window, orientation at the end, wedges,
#: segments to finish, the orientation's number, the unit thrust of a burn with the nose in that window).
Reach = tuple[Window, Orientation, int, int, int, Vec]


@lru_cache(maxsize=4096)
def reachable_from(orientation: Orientation, three_d: bool, chart: Chart) -> tuple[Reach, ...]:
    """:func:`.steering.reachable` for a ship at ``orientation`` with the pivot chart ``chart``, worked out once."""
    out = [(orientation.nose, orientation, 0, 0, orientation_number(orientation), THRUST_UNIT[orientation.nose])]
    # By window (level, then ray), as windows sort; a facing change's last window is reached with its last wedge,
    # on the chart's row for its wedges (:func:`.orientation.schedule`).
    for window, end, n in sorted(pivot_ends(orientation, three_d), key=lambda e: (e[0].level, e[0].ray)):
        if 0 < n <= len(chart):
            out.append((window, end, n, chart[n - 1][n - 1] + 1, orientation_number(end), THRUST_UNIT[window]))
    return tuple(out)


@lru_cache(maxsize=4096)
def takes_from(orientation: Orientation, three_d: bool, chart: Chart) -> tuple[int, ...]:
    """The segments the facings of :func:`reachable_from` take to finish, each once: where the enemy will be
    seen, and which lasers will be cool, are worked out once for each."""
    return tuple(dict.fromkeys(entry[3] for entry in reachable_from(orientation, three_d, chart)))


def lasers_alive(design: Design, ship: Ship) -> int:
    """``ship``'s lasers not destroyed, as a bit mask over ``design.lasers`` (bit i: the i-th laser)."""
    if not ship.marks:  # nothing marked off: every laser is whole
        return (1 << len(design.lasers)) - 1
    # The damage record decides it alone: kept by it in the design's table.
    kept = design_table(design).alive
    mask = kept.get(ship.marks)
    if mask is None:
        mask = 0
        for i, laser in enumerate(design.lasers):
            if laser_state(design, ship, laser) != "destroyed":
                mask |= 1 << i
        kept.keep(ship.marks, mask)
    return mask


def lasers_fresh(design: Design, ship: Ship, at: int, alive: int) -> int:
    """Of the lasers in ``alive`` (a mask like :func:`lasers_alive`), those cool by absolute segment ``at``."""
    return fresh_at(alive, cooling_bits(design, ship), at)


def cooling_bits(design: Design, ship: Ship) -> tuple[tuple[int, int], ...]:
    """(absolute segment it is cool from, its bit) of each of ``ship``'s lasers on the timing track: worked out once
    for a ship asked about several times (:func:`fresh_at`)."""
    if not ship.cooling:
        return ()
    # The timing track decides it alone: kept by it in the design's table (a decision asks it several times).
    table = design_table(design)
    found = table.cooling.get(ship.cooling)
    if found is not None:
        return found
    index = table.index
    out: list[tuple[int, int]] = []
    named: set[str] = set()
    for laser, ready in ship.cooling:
        # A laser's first entry is its cooling (Ship.ready_at); a laser of no design cools nothing here.
        if laser not in named:
            named.add(laser)
            if laser in index:
                out.append((ready, 1 << index[laser]))
    found = table.cooling.keep(ship.cooling, tuple(out))
    return found


def fresh_at(alive: int, cooling: tuple[tuple[int, int], ...], at: int) -> int:
    """:func:`lasers_fresh` from the ship's :func:`cooling_bits`."""
    mask = alive
    for ready, bit in cooling:
        if ready > at:
            mask &= ~bit
    return mask


class DesignTable:
    """What greedy asks of one design again and again, for every facing it weighs: which lasers' arcs hold the
    window an enemy is seen through from an orientation, and the skin armour that window's fire would meet."""

    __slots__ = (
        "_facings",
        "_mounts",
        "_reach",
        "_takes",
        "alive",
        "by_name",
        "by_power",
        "cooling",
        "design",
        "index",
        "scored",
    )

    def __init__(self, design: Design) -> None:
        self.design = design
        #: Each laser's bit in the masks, in ``design.lasers`` order.
        self.index = {laser: i for i, laser in enumerate(design.lasers)}
        self._mounts = tuple(design.lasers.values())
        #: (bit, power a shot) of each laser, in the order of the lasers' names.
        self.by_name = tuple(
            (self.index[laser], design.mounts[mount].power) for laser, mount in sorted(design.lasers.items())
        )
        #: (bit, laser, its weapon's range) of each laser, cheapest shot first and then by name: a volley's order.
        self.by_power = tuple(
            (1 << self.index[laser], laser, max_range(design.mounts[mount].weapon))
            for laser, mount in sorted(design.lasers.items(), key=lambda item: (design.mounts[item[1]].power, item[0]))
        )
        self._facings: dict[tuple[int, int, bool], dict[int, tuple[int, int]]] = {}
        #: :func:`.steering.facings`' scores and choice by what they depend on (:data:`SCORED_KEPT` at most, then
        #: afresh).
        self.scored: Kept[tuple[object, ...], Scored] = Kept(SCORED_KEPT)
        #: :func:`lasers_alive`'s answers by the ship's damage record.
        self.alive: Kept[tuple[tuple[str, int], ...], int] = Kept(SCORED_KEPT)
        #: :func:`cooling_bits`' answers by the ship's timing track.
        self.cooling: Kept[tuple[tuple[str, int], ...], tuple[tuple[int, int], ...]] = Kept(SCORED_KEPT)
        #: :meth:`reach` and :meth:`takes` by the orientation's number and whether altitude is on.
        self._reach: dict[tuple[int, bool], tuple[Reach, ...]] = {}
        self._takes: dict[tuple[int, bool], tuple[int, ...]] = {}

    def reach(self, orientation: Orientation, three_d: bool) -> tuple[Reach, ...]:
        """:func:`reachable_from` on this design's pivot chart, kept by plain numbers: the cache of
        :func:`reachable_from` hashes an orientation and the whole chart on every look-up."""
        key = (orientation_number(orientation), three_d)
        found = self._reach.get(key)
        if found is None:
            found = self._reach[key] = reachable_from(orientation, three_d, self.design.pivots)
        return found

    def takes(self, orientation: Orientation, three_d: bool) -> tuple[int, ...]:
        """:func:`takes_from` on this design's pivot chart, kept as :meth:`reach` is."""
        key = (orientation_number(orientation), three_d)
        found = self._takes.get(key)
        if found is None:
            found = self._takes[key] = takes_from(orientation, three_d, self.design.pivots)
        return found

    def seen_through(self, seen: Window, three_d: bool) -> dict[int, tuple[int, int]]:
        """The answers of :meth:`facing` kept so far for ``seen``, by the orientation's number."""
        key = (seen.level, seen.ray, three_d)
        kept = self._facings.get(key)
        if kept is None:
            kept = self._facings[key] = {}
        return kept

    def facing(self, orientation: Orientation, seen: Window, three_d: bool) -> tuple[int, int]:
        """(lasers whose arcs hold ``seen`` from ``orientation`` as a bit mask, the skin armour it would meet).

        Kept by plain numbers: a dataclass's hash is worked out in Python on every look-up.
        """
        kept = self.seen_through(seen, three_d)
        number = orientation_number(orientation)
        found = kept.get(number)
        if found is None and orientation.heading > 1 and (three_d or abs(seen.level) != 3):
            # Ship and window turned together by whole sixths of a circle (the AVID's symmetry) bring the same lasers
            # to bear on the same armour: each answer is worked out once, for the first sixth of headings. (Without
            # altitude a pole, which no turn moves, is read by its ray against the heading: no symmetry there.)
            sixths = orientation.heading // 2
            found = kept[number] = self.facing(orientation.rotated(-sixths), seen.rotated(-sixths), three_d)
        if found is None:
            design = self.design
            windows = map_to_arc(orientation, seen) if three_d else (middle_row(orientation, seen),)
            arcs = design.arcs
            mask = 0
            for i, mount in enumerate(self._mounts):
                if not arcs[mount].isdisjoint(windows):
                    mask |= 1 << i
            ssd = design.ssd
            armour = 0 if ssd is None else min(ssd.armour[r] for r in struck(orientation, seen, three_d))
            found = kept[number] = (mask, armour)
        return found


#: Facing scores a design table keeps before it starts again (each a tuple of some 60 numbers).
SCORED_KEPT = 20_000
#: The scores of the facings :func:`reachable_from` lists (``None``: the enemy in the same space then), and the
#: greedy player's pivot from them (``None``: stay put), as :func:`.steering.facings` works them out.
Scored = tuple[tuple[float | None, ...], Window | None]

#: A window an enemy is seen through, and the design table's answers kept for it (:meth:`DesignTable.seen_through`).
Seen = tuple[Window, dict[int, tuple[int, int]]]


_TABLES_KEPT = 16
#: The designs' tables by identity (each holds its design, so the identity stays theirs): a game's designs are
#: shared by every state of it. A bound on memory over many games: the table starts again past it (a design's
#: table holds at most about 60,000 answers, 50 windows either way by 600 orientations, some 6 MB).
_TABLES: Kept[int, DesignTable] = Kept(_TABLES_KEPT)


def design_table(design: Design) -> DesignTable:
    table = _TABLES.get(id(design))
    if table is None or table.design is not design:
        table = _TABLES.keep(id(design), DesignTable(design))
    return table
