"""A segment's laser fire in expectation: the search bot's judge of an AV:T trial, not a rule.

AV:T's fire is part of each segment's secret orders, so a search trial that
rolls it judges a plot by a few throws of the dice: one pool that reaches the
Core, or an octagon failed, drowns the rest. ``AttackVector.resolve_in_prospect``
plays a segment with the shots at ships taken out of the orders, their power
and cooling spent as if fired (so the lasers are not ready again at once),
and says what each side is expected to lose from them instead:

* each laser's points are read from its weapon table at the range from where
  the ships are now (fire comes before movement, A5.212), a ``Dn`` entry as
  a chance of 1 point, and one ship's lasers at a ship add up into one pool
  (option ``laser_pools``);
* the pool strikes the region the shooter aims at or the thinnest armour, as
  in the game; the skin's armour and soak roll, and then each hit location
  row, soak and hull-depth step inside (:func:`inside`), are worked out
  exactly over their chances, no die thrown;
* a ship is worth ``WORTH`` (the standing's 10) and a box marked ``BOX`` (its
  tenth of a point); a Structural Integrity box is worth its share of the
  ship besides: the ship's worth over the hits its track takes on average to
  destroy it. That is what each hit costs in expectation, its octagon's roll
  and all: the judge counts the hits, never the one roll that ends the ship.

Where a trial ends, the standing also counts at half weight what each side's
lasers ready and bearing there would take off the other (:func:`next_volleys`,
the same pool losses): a trial of a few segments otherwise misses the lasers a
late volley leaves cooling and a nose turned to the enemy as it ends.

Shots at targets (the tutorial's chocolates) are left in the orders and
rolled: they are eaten or not in one segment, which a trial sees. Left out,
as small: a damaged laser's pentagon check, explosions of a full battery or
heat sink, a box whose system's track is already full (it is counted as a
box), and damage building up over the segments of a trial (each pool meets
the ship as it was when the trial began).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from vectorwar.memo import Kept
from vectorwar.odds import convolve
from vectorwar.roster import replace_fields
from vectorwar.systems.avt import hull_tables
from vectorwar.systems.avt.armour import OPPOSITE_FACE, far_side
from vectorwar.systems.avt.damage import HullDepthCount
from vectorwar.systems.avt.design import Design, hit_entry
from vectorwar.systems.avt.fire import (
    aim_choices,
    aimed,
    d_mode,
    full_volley,
    hull_depth_count,
    marker_between,
    pooled_by_ship,
    spend,
)
from vectorwar.systems.avt.lasers import DMode, column_entry, column_of, max_range
from vectorwar.systems.avt.orders import SegmentOrders
from vectorwar.systems.avt.ssd import ssd_of
from vectorwar.systems.avt.state import AVTState, Ship

__all__ = [
    "BOX",
    "NEXT_VOLLEY",
    "WORTH",
    "expected_losses",
    "held",
    "hull_key",
    "hull_tables_for",
    "inside",
    "most_points",
    "next_volleys",
    "pool_loss",
    "shot_points",
    "structure_worth",
]

#: A ship in the fight, in the standing (:meth:`~vectorwar.systems.avt.rules.AttackVector.standing`).
WORTH = 10.0
#: A box marked, in the standing.
BOX = 0.1
#: Weight of the next volleys in prospect (:func:`next_volleys`) in the standing: half, as a VV5 trial weighs the
#: fire its second move promises.
NEXT_VOLLEY = 0.5

#: The chance of each 2d10- soak roll, 0-9 (the larger d10 less the smaller).
SOAK: tuple[float, ...] = tuple((10 if d == 0 else 2 * (10 - d)) / 100 for d in range(10))

Points = Sequence[float]


@lru_cache(maxsize=256)
def shot_points(weapon: str, range_: int, mode: DMode) -> Points:
    """The chance of each score of one shot at ``range_`` (index = points; ``Dn`` a chance of 1 point).

    >>> shot_points("3 MRLS", 5, "chance")
    (0.0, 0.0, 0.0, 0.0, 0.0, 0.1, 0.2, 0.7)
    >>> round(sum(p * n for n, p in enumerate(shot_points("3 MRLS", 25, "chance"))), 3)
    0.76
    """
    column, _ = column_of(weapon, range_)
    out: dict[int, float] = {}
    for roll in range(1, 11):
        text = column_entry(weapon, column, roll)
        if text.startswith("D"):
            chance = int(text[1:]) / 10 if mode == "chance" else 0.0
            out[1] = out.get(1, 0.0) + chance / 10
            out[0] = out.get(0, 0.0) + (1 - chance) / 10
        else:
            out[int(text)] = out.get(int(text), 0.0) + 0.1
    return tuple(out.get(n, 0.0) for n in range(max(out) + 1))


def _hits_to_destroy(structure: Sequence[int]) -> float:
    """Structural Integrity hits the track takes on average to destroy the ship (A5.454).

    Each octagon destroys it on a d10 under its number; a hit with the track full destroys it.

    >>> round(_hits_to_destroy([0, 0, 0, 2, 0, 0, 3, 0, 0, 5, 0, 8]), 3)
    9.854
    """
    alive, total = 1.0, 0.0
    for octagon in structure:
        total += alive
        alive *= 1 - max(0, octagon - 1) / 10 if octagon else 1.0
    return total + alive


def structure_worth(design: Design) -> float:
    """What one Structural Integrity box is worth: the ship's share per hit of its track."""
    return WORTH / max(1.0, _hits_to_destroy(ssd_of(design).structure))


# Losses inside the hull, worked out once: (design, region, hull-depth count) -> the losses by points left.
# Keyed by the design's ``id``, the design itself kept beside it so the ``id`` is never reused while it lives.
_DESIGNS: dict[int, Design] = {}
_INSIDE: dict[tuple[int, str, str], _HullLosses] = {}
#: The same losses by what they read (:func:`hull_key`): regions alike in it share one.
_SHARED: dict[str, _HullLosses] = {}
#: Designs' tables kept before they are cleared (a long series of games in one process).
_KEEP = 64


def inside(design: Design, region: str, count: HullDepthCount, left: int) -> float:
    """The mean loss of ``left`` points that got past ``region``'s skin (A5.45-A5.46), worked out exactly.

    Every hit location row of the table is a tenth, every soak its chance; a row whose armour and soak
    exceed what is left ends the pool, else a box is marked (none for "no effect"), a soak of 0 marks
    Structural Integrity too, and the points used count toward the hull depth, past which the pool goes on
    through the Core, the opposite face's table and out of the far side's skin. The ship is taken as it is
    before the pool: a box is a box even where its system's track is already full.

    The built-in designs' answers come worked out ahead (:mod:`.hull_tables`, the same recursion's numbers);
    any other design's, and any pool beyond those tables, are worked out here when first asked.
    """
    return _hull_losses(design, region, count).at(left)


def _hull_losses(design: Design, region: str, count: HullDepthCount) -> _HullLosses:
    """:func:`inside`'s losses for ``region``, kept (:data:`_INSIDE`, shared by what they read, :data:`_SHARED`)."""
    key = (id(design), region, count)
    loss = _INSIDE.get(key)
    if loss is None:
        if len(_INSIDE) >= _KEEP:
            _INSIDE.clear()
            _SHARED.clear()
            _DESIGNS.clear()
        _DESIGNS[id(design)] = design
        shared = hull_key(design, region, count)
        loss = _SHARED.get(shared)
        if loss is None:
            loss = _SHARED[shared] = _HullLosses(design, region, count, hull_tables.table(shared))
        _INSIDE[key] = loss
    return loss


class _HullLosses:
    """One region's losses inside the hull by points left: those worked out ahead (``known``, by points), the rest
    by :func:`_losses_inside`'s recursion, built when first needed."""

    __slots__ = ("_past_skin", "_recursion", "count", "design", "known", "region")

    def __init__(self, design: Design, region: str, count: HullDepthCount, known: tuple[float, ...] | None) -> None:
        self.design, self.region, self.count = design, region, count
        self.known: tuple[float, ...] = known or ()
        self._recursion: Callable[[int, int, int], float] | None = None
        self._past_skin: dict[tuple[int, int], float] = {}

    def at(self, left: int) -> float:
        """The mean loss of ``left`` points inside the hull (:func:`inside`)."""
        if left <= 0:
            return 0.0
        known = self.known
        return known[left] if left < len(known) else self.worked_out(left)

    def past_skin(self, armour: int, pool: int) -> float:
        """The mean loss inside of a ``pool`` of points past a skin of ``armour`` and its soak roll (A5.44), every
        roll at its chance (:func:`pool_loss`), kept by armour and pool: the standing asks it of every volley."""
        found = self._past_skin.get((armour, pool))
        if found is None:
            at = self.at
            found = self._past_skin[armour, pool] = sum(soak * at(pool - armour - d) for d, soak in enumerate(SOAK))
        return found

    def worked_out(self, left: int) -> float:
        if self._recursion is None:
            self._recursion = _losses_inside(self.design, self.region, self.count)
        return self._recursion(left, 0, 0)


def _reads(design: Design, region: str) -> tuple[str, int, int]:
    """All :func:`_losses_inside` reads of ``region`` besides the design's tables and structure: its hit location
    table, its hull depth and the far side's armour. Regions alike in these lose alike (a face's edge regions
    mostly are)."""
    ssd = ssd_of(design)
    return ssd.table(region), design.hull_depth[ssd.depth_kind(region)], ssd.armour[far_side(region)]


def hull_key(design: Design, region: str, count: HullDepthCount) -> str:
    """A digest of everything :func:`_losses_inside` reads for ``region``: the three hit location tables a pool
    crosses, the hull depth, the far side's armour, a Structural Integrity box's worth and the count. Two regions
    (of any designs) with one key lose alike; :mod:`.hull_tables` keeps the built-in designs' losses by it."""
    face, depth, far = _reads(design, region)
    tables = tuple(tuple(design.hit_locations[t]) for t in (face, "core", OPPOSITE_FACE[face]))
    what = repr((tables, depth, far, structure_worth(design), count))
    return hashlib.blake2b(what.encode(), digest_size=8).hexdigest()


def most_points(design: Design) -> int:
    """The most points one pool of ``design``'s lasers can score: every laser's best roll at its best range."""
    best = 0
    for mount in design.mounts.values():
        weapon = mount.weapon
        top = max(len(shot_points(weapon, r, "chance")) - 1 for r in range(max_range(weapon) + 1))
        best += top * mount.lasers
    return best


def hull_tables_for(designs: Mapping[str, Design]) -> dict[str, tuple[float, ...]]:
    """Every region's losses inside the hull of each of ``designs`` that can be damaged, by :func:`hull_key`, for
    0 points up to the largest pool the design's own lasers score (:func:`most_points`), in both hull-depth
    counts: what :mod:`.hull_tables` holds for the built-in designs (``tools/avt_hull_tables.py`` writes it)."""
    out: dict[str, tuple[float, ...]] = {}
    counts: tuple[HullDepthCount, ...] = ("boxes", "points")
    for design in designs.values():
        if design.ssd is None or design.kind != "ship":
            continue
        most = most_points(design)
        for region in design.ssd.armour:
            for count in counts:
                key = hull_key(design, region, count)
                if key not in out:
                    loss = _losses_inside(design, region, count)
                    out[key] = tuple(loss(left, 0, 0) for left in range(most + 1))
    return out


def _losses_inside(design: Design, region: str, count: HullDepthCount) -> Callable[[int, int, int], float]:
    """:func:`inside`'s recursion for one design and region: (points left, stage, depth used) -> loss, kept."""
    memo: dict[int, float] = {}
    face, depth, far = _reads(design, region)
    stages = (face, "core", OPPOSITE_FACE[face])
    rows = tuple(tuple(hit_entry(entry) for entry in design.hit_locations[t]) for t in stages)
    worth = structure_worth(design)
    structure = BOX + worth
    boxes = count == "boxes"

    # Each row's outcomes by soak roll, worked out once, not per call: (points absorbed, chance, standing lost,
    # hull depth used, whether it leaves everything as it was). A row's soaks run up from 0, so the first that
    # absorbs more than is left ends the row (a larger soak ends allocation, the box spared, A5.455).
    prepared = tuple(
        tuple(
            tuple(
                _outcome(armour, soak, system, worth, structure, boxes)
                for soak in range(10)  # as SOAK's rolls
            )
            for system, armour in stage_rows
        )
        for stage_rows in rows
    )

    # The memo is keyed by one whole number per (points left, stage, depth used): a tuple key costs a tuple.
    span = depth + 1 + max((o[3] for stage_rows in prepared for row in stage_rows for o in row), default=0)
    get = memo.get

    def loss(left: int, stage: int, used: int) -> float:
        if left <= 0:
            return 0.0
        key = (left * 3 + stage) * span + used
        found = get(key)
        if found is not None:
            return found
        total = 0.0
        again = 0.0  # the chance of a row that leaves everything as it was (0 armour, 0 soak, points counted)
        for outcomes in prepared[stage]:
            for absorbed, p, gain, step, same in outcomes:
                if absorbed > left:
                    break
                rest = left - absorbed
                dug = used + step
                if same:
                    again += p
                    total += p * gain
                elif dug >= depth and rest > 0:
                    if stage == 2:
                        total += p * (gain + _far(far, rest, structure))
                    else:
                        # The memo read here before calling (and nothing left is nothing lost, as ``loss`` says):
                        # most of a table's look-ups are answered without a call.
                        after = get((rest * 3 + stage + 1) * span)
                        total += p * (gain + (after if after is not None else loss(rest, stage + 1, 0)))
                else:
                    after = 0.0 if rest <= 0 else get((rest * 3 + stage) * span + dug)
                    total += p * (gain + (after if after is not None else loss(rest, stage, dug)))
        memo[key] = found = total / (1 - again) if again < 1 else total
        return found

    return loss


def _outcome(
    armour: int, soak: int, system: str, worth: float, structure: float, boxes: bool
) -> tuple[int, float, float, int, bool]:
    """One hit location row and soak roll: (points absorbed, chance, standing lost, hull depth used, whether it
    leaves everything as it was), as :func:`_losses_inside`'s recursion reads them."""
    marks = int(system != "no effect")
    value = marks * BOX + (worth if system in _STRUCTURE else 0.0)
    absorbed = armour + soak
    gain = value + structure if soak == 0 else value
    marked = marks + 1 if soak == 0 else marks
    step = absorbed if not boxes or absorbed >= marked else marked
    return absorbed, SOAK[soak] / 10, gain, step, absorbed == 0 and step == 0


#: The hit location entries that mark Structural Integrity.
_STRUCTURE = ("structural integrity", "pivot/si")


def _far(armour: int, left: int, structure: float) -> float:
    """Points leaving by the far side: its skin's soak roll of 0 marks Structural Integrity (A5.46, A5.441)."""
    return SOAK[0] * structure if 0 < armour < left else 0.0


def pool_loss(state: AVTState, ship: Ship, region: str, points: Points) -> float:
    """The standing ``ship`` is expected to lose to a pool of ``points`` (a distribution) striking ``region``."""
    design = state.designs[ship.design]
    armour = ssd_of(design).armour[region]
    count = hull_depth_count(state)
    worth = structure_worth(design)
    losses = _hull_losses(design, region, count)
    total = 0.0
    for pool, chance in enumerate(points):
        if not chance or pool <= armour:
            continue
        if armour == 0:
            total += chance * losses.at(pool)
            continue
        # The skin's soak roll (A5.44-A5.441): a 0 also marks Structural Integrity.
        total += chance * (losses.past_skin(armour, pool) + SOAK[0] * (BOX + worth))
    return total


def expected_losses(state: AVTState, orders: Mapping[str, SegmentOrders]) -> dict[str, float]:
    """Each side's expected loss of standing to the shots at ships in ``orders``, fired from where ships are now."""
    lost = dict.fromkeys(state.sides, 0.0)
    mode = d_mode(state)
    by_ship = pooled_by_ship(state)
    for side in state.sides:
        given = orders.get(side)
        for o in given.ships if given is not None else ():
            if not o.shots:
                continue
            shooter = state.ship(o.ship)
            design = state.designs[shooter.design]
            # Each target's shots as (weapon, range): one range a target, read once.
            pools: dict[str, tuple[Ship, int, list[tuple[str, int]]]] = {}
            for shot in o.shots:
                found = pools.get(shot.target)
                if found is None:
                    target = state.ship(shot.target)
                    if target.kind != "ship" or not target.active:
                        continue
                    found = pools[shot.target] = (target, marker_between(state, shooter, target).range, [])
                found[2].append((design.mounts[design.lasers[shot.laser]].weapon, found[1]))
            for target, _, shots in pools.values():
                choices = aim_choices(state, shooter, target)
                ssd = state.designs[target.design].ssd
                if not choices or ssd is None:
                    continue
                region = aimed(choices, o.aim, ssd.armour)
                lost[target.side] += _volley_loss(state, target, region, tuple(shots), mode, by_ship)
    return lost


_VOLLEYS_KEPT = 4096
#: :func:`_volley_loss`'s answers by what they read, the design struck kept beside each so its identity stays its
#: own; started again past ``_VOLLEYS_KEPT``.
_VOLLEYS: Kept[tuple[object, ...], tuple[Design, float]] = Kept(_VOLLEYS_KEPT)


def _volley_loss(
    state: AVTState, target: Ship, region: str, shots: tuple[tuple[str, int], ...], mode: DMode, by_ship: bool
) -> float:
    """What ``shots`` ((weapon, range) each) striking ``region`` of ``target`` are expected to cost it: one pool, or
    a pool a shot (option ``laser_pools``). It reads the target's design alone, so it is kept by that: a trial's
    volleys are the same few again and again."""
    design = state.designs[target.design]
    count = hull_depth_count(state)
    key = (shots, mode, by_ship, id(design), region, count)
    found = _VOLLEYS.get(key)
    if found is not None and found[0] is design:
        return found[1]
    points = [shot_points(weapon, range_, mode) for weapon, range_ in shots]
    pooled = [_sum(points)] if by_ship else points
    loss = sum(pool_loss(state, target, region, p) for p in pooled)
    _VOLLEYS.keep(key, (design, loss))
    return loss


def _sum(shots: Sequence[Points]) -> Points:
    total: Points = (1.0,)
    for points in shots:
        total = convolve(total, points)
    return total


def held(state: AVTState, orders: Mapping[str, SegmentOrders]) -> tuple[AVTState, dict[str, SegmentOrders]]:
    """The shots at ships taken out of ``orders``, their power and cooling spent on the ships as if fired."""
    kept: dict[str, SegmentOrders] = {}
    for side, given in orders.items():
        entries = []
        for o in given.ships:
            at_ships = [s for s in o.shots if state.ship(s.target).kind == "ship"]
            if not at_ships:
                entries.append(o)
                continue
            shooter = state.ship(o.ship)
            design = state.designs[shooter.design]
            for shot in at_ships:
                shooter = spend(state, design, shooter, shot.laser)
            state = state.with_ship(shooter)
            rest = tuple(s for s in o.shots if s not in at_ships)
            entries.append(replace_fields(o, shots=rest, aim=o.aim if rest else None))
        kept[side] = SegmentOrders(tuple(entries))
    return state, kept


def next_volleys(state: AVTState) -> dict[str, float]:
    """Each side's expected loss of standing if every enemy ship fired now, at the nearest of this side's ships
    (by range), every laser that is ready, bears on it and has battery power (the cheapest first), the pool
    aimed at the thinnest region; nothing fired at targets (chocolates).

    Where a search trial ends, the standing counts these at ``NEXT_VOLLEY``: a trial of a few segments sees the
    fire inside it, but not the lasers a late volley leaves cooling, nor a nose turned to the enemy just as it ends.
    """
    # expected_losses of these volleys as orders, without building them: the same pools in the same order.
    lost = dict.fromkeys(state.sides, 0.0)
    mode = d_mode(state)
    by_ship = pooled_by_ship(state)
    for side in state.sides:
        enemies = [e for e in state.enemies_of(side) if e.kind == "ship" and e.active]
        for ship in state.ships_of(side):
            if ship.kind != "ship" or not ship.active or not enemies:
                continue
            design = state.designs[ship.design]
            enemy = min(enemies, key=lambda e: (marker_between(state, ship, e).range, e.id))
            volley = full_volley(state, design, ship, enemy)
            choices = aim_choices(state, ship, enemy) if volley else ()
            ssd = state.designs[enemy.design].ssd
            if not choices or ssd is None:
                continue
            range_ = marker_between(state, ship, enemy).range
            shots = tuple((design.mounts[design.lasers[laser]].weapon, range_) for laser in volley)
            lost[enemy.side] += _volley_loss(state, enemy, aimed(choices, None, ssd.armour), shots, mode, by_ship)
    return lost
