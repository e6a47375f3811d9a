"""The ``greedy`` VMS bot: close to gun range, bring the guns to bear, match the enemy's vector, then fire everything.

Movement scores every plot of the plot menu (vectorwar.systems.vms.planner)
by where it leaves the ship against where the enemy will drift to (its hex
plus its vector, if it has not moved yet):

* the guns it brings to bear there, asked of the combat module itself
  (``CombatModule.bearing_from`` the candidate end), so arcs, mounts and
  range are the module's own, closer shots worth more;
* the enemy's guns bearing on it there, counted the same way, worth less;
* the range to the nearest enemy against the ideal, now and after a turn of
  drift, less what one turn of thrust can correct (a plan that brakes in
  time: arrive at range with a vector the ship can still match to the enemy's);
* the speed relative to the enemy beyond what one turn of thrust can cancel;
* rotation left running and hexsides turned (each costs the guns -2);
* leaving the map now or on the next drift;
* for a civilian ship (a transport), any speed at all while its side has a
  warship in play: it keeps out of the fight, at rest. With no warship left
  it plays as one (waiting at rest would only let the enemy come and take it);
* a civilian ship with no weapon makes for ``UNARMED_RANGE`` instead of the
  ideal range: it keeps its distance, on the map.

Everything is measured from the ship and its enemy only, never from a map
direction, so a side plays the same whichever way it faces. Fire is the
combat module's own greedy declaration.

The guns cost most of a score, so a plot whose other terms could not reach
the best score found even with every weapon bearing (the module's
``arsenal``, or as many as the module says can bear from its end:
``most_bearing_from``) is never given its guns: the answer is the one scoring
every plot would give (``Scorer.best``; ``tests/vms/test_greedy.py``).
"""

from __future__ import annotations

import heapq
import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from itertools import accumulate
from typing import NamedTuple, Protocol

from vectorwar.combat.base import CombatModule, CombatView
from vectorwar.hexes import Direction, Hex
from vectorwar.rules import Order
from vectorwar.systems.vms.braking import against, brakes, opposite, rest_axial, stop
from vectorwar.systems.vms.courses import Plots, grouped
from vectorwar.systems.vms.fight import entry_number
from vectorwar.systems.vms.greedy_kept import (
    Aimed,
    Enemy,
    Rest,
    bound_guns,
    keep_threat,
    kept_aims,
    kept_rest,
    kept_threat,
    moved,
    paths_on,
    predict,
    rest_of,
    stays_on,
    targets_number,
)
from vectorwar.systems.vms.movement import Plot, TurnResult
from vectorwar.systems.vms.orders import MovePlot, SubphaseChoice
from vectorwar.systems.vms.state import VMSShip, VMSState
from vectorwar.systems.vv5.api import DeclareOrder


class Engine(Protocol):
    """What the bot asks of the rule system; the system hands itself in, so this module needs no ``rules``."""

    def choosers(self, state: VMSState, side: str) -> tuple[VMSShip, ...]: ...
    def movers(self, state: VMSState, side: str) -> tuple[VMSShip, ...]: ...
    def plots_for(self, state: VMSState, ship: VMSShip) -> list[tuple[Plot, TurnResult]]: ...
    def combat(self, state: VMSState) -> CombatModule: ...
    def view(self, state: VMSState) -> CombatView: ...
    def random_order(self, state: VMSState, side: str, rng: random.Random) -> Order: ...


IDEAL_RANGE = 2
#: The range a civilian ship with no weapon makes for: out of reach of most guns, near enough to keep the enemy in view
#: and on the map.
UNARMED_RANGE = 8
#: Score per weapon brought to bear on an enemy (at the best range; less further out).
FIRE_WEIGHT = 2.0
#: Score lost per enemy weapon bearing on the ship where it ends.
THREAT_WEIGHT = 0.6
#: Score lost per hex/turn of speed relative to the enemy beyond what one turn of thrust can cancel.
SPEED_WEIGHT = 0.7
#: Score lost per hexside/turn of rotation left running: it turns the guns away next turn and costs thrust to stop.
ROTATION_WEIGHT = 0.6
#: Score lost per hexside turned this turn: each costs the guns -2 (Rotational System 4).
TURNED_WEIGHT = 0.5
#: Score lost per hex the point where the ship could stop (braking as hard as it can) misses the ideal range.
STOP_WEIGHT = 0.5
#: Score lost if braking as hard as it can still carries the ship off the map.
OFF_MAP_WEIGHT = 20.0
#: Score lost per hex/turn of a civilian ship's speed: more than any gun it could bring to bear is worth, so it
#: comes to rest and stays there. A transport's few guns add little to a fight, its hull is much of what the
#: enemy must take to win by elimination, and at rest the loss of its thrust (often a single box) strands it
#: where it is instead of drifting it off the map.
CIVILIAN_SPEED_WEIGHT = 50.0
#: How much a shot at each range is worth against one at 1-2 hexes.
RANGE_WORTH = {0: 1.0, 1: 1.0, 2: 1.0, 3: 0.85, 4: 0.85}
FAR_WORTH = 0.7
#: Share of a shot lost per to-hit point of turning penalty.
TURN_SPOIL = 0.2
#: A weapon with several shots (VV5's gun boxes, missiles ready) counts at most this many.
MOST_PIECES = 2
#: The most a shot is worth at any range.
TOP_WORTH = max(*RANGE_WORTH.values(), FAR_WORTH)
#: Rounding room when a plot's ceiling is held against the best score (the two add their terms differently).
SLACK = 1e-9


def spoiled_share(hexsides_turned: int, penalty: int) -> float:
    """The share of a shot left to a ship that turned ``hexsides_turned`` (VMS: -2 to hit a hexside, most of a
    d6 shot's chance)."""
    return max(0.0, 1.0 - TURN_SPOIL * (hexsides_turned * penalty))


def _worth(bearing: dict[tuple[str, str], int], distance_to: dict[str, int]) -> float:
    """The weapons of a :meth:`~vectorwar.combat.base.CombatModule.bearing` count, each at its best target,
    worth more closer."""
    best: dict[str, float] = {}
    for (weapon, target), n in bearing.items():
        worth = RANGE_WORTH.get(distance_to.get(target, 0), FAR_WORTH) * min(n, MOST_PIECES)
        best[weapon] = max(best.get(weapon, 0.0), worth)
    return sum(best.values())


def _guns(combat: CombatModule, view: CombatView, shooter: str, distance_to: dict[str, int]) -> float:
    """The weapons of ``shooter`` that bear in ``view``, each at its best target, worth more closer; each
    hexside the shooter turned costs a share of every shot."""
    spoiled = spoiled_share(view.ship(shooter).hexsides_turned, view.penalty_per_hexside)
    if spoiled == 0.0:
        return 0.0
    return spoiled * _worth(combat.bearing(view, shooter), distance_to)


class Aims:
    """Every enemy's weapons on the side's ships where they are now, for the threat each candidate end meets.

    A target's entries in :meth:`~vectorwar.combat.base.CombatModule.bearing` depend on nothing but the shooter,
    that target and the map. So where one ship of the side moves, an enemy's threat (:func:`_guns`) is its
    weapons' best worth on the other ships, worked out here once for the whole side, against its worth on the
    ship moved (:meth:`~vectorwar.combat.base.CombatModule.bearing_on`): the same numbers as the enemy's whole
    bearing with the ship moved, summed in the same order, without the enemy's every target for every end.
    """

    def __init__(self, combat: CombatModule, view: CombatView, enemies: Sequence[Enemy], kept: bool = False) -> None:
        """``kept``: each enemy's aims kept by what they read (:func:`~.greedy_kept.kept_aims`), for a bot whose
        choices repeat them (a search's fast bot); else worked out."""
        self.combat, self.view = combat, view
        #: Whether each enemy's entry is the one kept for what it reads (:func:`~.greedy_kept.kept_aims`), the same
        #: object wherever it is read again: what is worked out from it alone may be kept by its identity too.
        self.kept = kept
        #: Enemy id -> the share of its shots its turning leaves, its weapons in :meth:`bearing`'s order (the
        #: arsenal's) with the most each can be worth, and per weapon: the best worth on a target, the targets
        #: worth that, the next best below.
        self.by_enemy: dict[str, Aimed] = {}
        #: Each end hex's ranges to the enemies and the nearest (:meth:`Scorer._end`), by its numbers: the same for
        #: every ship of the side, whose candidate ends meet.
        self.ends: dict[tuple[int, int], EndHex] = {}
        numbers: dict[str, int] = {}  # each enemy side's targets' number (greedy_kept.targets_number)
        for e in enemies:
            if kept:
                entry = view.ship(e.id)
                number = numbers.get(entry.side)
                if number is None:
                    number = numbers[entry.side] = targets_number(combat, view, entry.side)
                found = kept_aims(combat, view, entry, number, _aimed)
            else:
                found = _aimed(combat, view, e.id)
            if found is not None:  # else the weapons' order is not known: the enemy's whole bearing is asked (_threat)
                self.by_enemy[e.id] = found

    def kept_entries(self) -> dict[str, Aimed] | None:
        """Each enemy's entry where they are kept (:attr:`kept`), else ``None``."""
        return self.by_enemy if self.kept else None

    def rest(self, enemy: str, moved: str) -> Rest | None:
        """The enemy's share left by turning, its weapons in order, each weapon's best worth on the side's ships
        but ``moved``, and whether every weapon is worth its most there already; ``None`` where the module does
        not list its arsenal. Kept aims' answers are kept (:func:`~.greedy_kept.kept_rest`): shared, never
        changed."""
        found = self.by_enemy.get(enemy)
        if found is None:
            return None
        return kept_rest(found, moved) if self.kept else rest_of(found, moved)


def _aimed(combat: CombatModule, view: CombatView, enemy: str) -> Aimed | None:
    """:class:`Aims`' entry for ``enemy`` (``None`` where the module does not list its arsenal); kept by what it
    reads (:func:`~.greedy_kept.kept_aims`)."""
    arsenal = combat.arsenal(view, enemy)
    if arsenal is None:
        return None
    near = RANGE_WORTH.get(0, FAR_WORTH)  # a target other than the ship moved counts as at range 0 (_guns)
    spoiled = spoiled_share(view.ship(enemy).hexsides_turned, view.penalty_per_hexside)
    worths: dict[str, list[tuple[float, str]]] = {}
    if spoiled != 0.0:
        for (weapon, target), n in combat.bearing(view, enemy).items():
            worths.setdefault(weapon, []).append((near * min(n, MOST_PIECES), target))
    tops: dict[str, tuple[float, set[str], float | None]] = {}
    for weapon, found in worths.items():
        best = max(w for w, _ in found)
        lower = [w for w, _ in found if w < best]
        tops[weapon] = (best, {t for w, t in found if w == best}, max(lower) if lower else None)
    most = {weapon: TOP_WORTH * min(n, MOST_PIECES) for weapon, n in arsenal.items()}
    return spoiled, most, tops


class EndHex(NamedTuple):
    """What one end hex gives every candidate ending there: the range to each enemy, the nearest enemy and its
    range (a tuple: one is made for every end hex of every menu)."""

    distance_to: dict[str, int]
    target: Enemy
    range: int


_new_end = partial(tuple.__new__, EndHex)


class Scorer:
    """Scores one ship's candidate end positions, each distinct end hex and each facing there worked out once."""

    #: The least the enemies' weapons can threaten the ship with wherever it ends: each enemy's best on the side's
    #: other ships (a weapon bearing on the ship too is worth at least that; :meth:`_summed`). Only where the aims are
    #: not kept (greedy's own).
    least_threat: float
    #: The number standing for the ship's combat entry (:func:`~.fight.entry_number`), where the aims are kept:
    #: its threats are kept by it (:meth:`_kept_guns`).
    entry: int

    def __init__(
        self, state: VMSState, ship: VMSShip, enemies: Sequence[Enemy], engine: Engine, aims: Aims | None = None
    ) -> None:
        self.state, self.ship, self.enemies = state, ship, enemies
        self.combat = engine.combat(state)
        base = engine.view(state)
        # The enemies where they will be; the ship's own entry is moved per end hex (the threat) or handed to
        # the module as a candidate end (its own guns).
        self.view = aims.view if aims is not None else moved(base, enemies)
        self.others = self.view.ships
        self.base = base
        aims = aims if aims is not None else Aims(self.combat, self.view, enemies)
        self.rests = {e.id: aims.rest(e.id, ship.id) for e in enemies}
        #: Each enemy's entry where the aims are kept (:attr:`Aims.kept`): its threat at an end is kept by it and the
        #: ship's combat entry.
        self.kept_aims = aims.kept_entries()
        if self.kept_aims is not None:
            self.entry = entry_number(self.view.ship(ship.id))
        self.spots = [(e, e.id, e.hex.q, e.hex.r) for e in enemies]
        #: The enemies whose threat is the same wherever the ship ends: turned too far to hit, or every weapon
        #: worth its most on another ship already.
        self.fixed: dict[str, float] = {}
        for enemy, rest in self.rests.items():
            if rest is not None and (rest[0] == 0.0 or rest[3]):
                spoiled, order, best, _ = rest
                self.fixed[enemy] = 0.0 if spoiled == 0.0 else self._summed(spoiled, order, best, {}, 0.0)
        # Kept by the end's whole numbers (a hex's own hash is a Python call), the facing and the hexsides turned.
        self.cache: dict[tuple[int, int, Direction, int], float] = {}
        self.mine: dict[tuple[int, int, Direction, int], float] = {}
        self.ends = aims.ends
        self.threats: dict[tuple[int, int], float] = {}
        #: :meth:`turning_guns` and :meth:`best_brake` by their arguments.
        self.bound_guns = bound_guns(base.penalty_per_hexside)
        #: Whether the line between a path's first and last hexes stays on the map, by their numbers.
        self.on_map = paths_on(state.map)
        braking = self.braking = brakes(ship.spec, ship.thrust_lost)
        #: :func:`~.braking.capacity` from each facing.
        self.can = braking.can
        #: The most thrust toward any one direction from each facing: what brakes a ship at rest against its enemy.
        self.halt = braking.halt
        # A civilian keeps out of the fight only while its side has a warship to fight it (:func:`escorted`).
        self.civilian = ship.spec.ship_class == "civilian" and escorted(state, ship)
        arsenal = self.combat.arsenal(self.view, ship.id)
        #: The range the ship makes for: its guns' best, or out of the enemy's for a civilian with none to fight with (a
        #: warship left without weapons still closes: it draws fire, and running would drag a lost game out).
        self.ideal = UNARMED_RANGE if ship.spec.ship_class == "civilian" and arsenal == {} else IDEAL_RANGE
        #: The most the ship's own weapons can be worth from any end (every one bearing at its best range), or
        #: ``None`` if the combat module does not say: a ceiling on the guns' part of every candidate's score.
        self.most = None if arsenal is None else sum(TOP_WORTH * min(n, MOST_PIECES) for n in arsenal.values())
        #: The most any ``k`` of those weapons can be worth (the ``k`` worth most), for ``k`` from none to all but one:
        #: the ceiling where the module says that at most ``k`` can bear from an end (:meth:`most_at`).
        tops = sorted((TOP_WORTH * min(n, MOST_PIECES) for n in (arsenal or {}).values()), reverse=True)
        self.most_of = list(accumulate(tops[:-1], initial=0.0))
        self.most_here: dict[tuple[int, int], float | None] = {}
        if self.kept_aims is None:
            self._bound_threat()

    def _bound_threat(self) -> None:
        """:attr:`least_threat` worked out: greedy's courses bound their plots with it (:meth:`best`); the quick bot,
        whose aims are kept, never asks."""
        self.least_threat = sum(self._least_threat(e.id) for e in self.enemies)

    def _least_threat(self, enemy: str) -> float:
        if enemy in self.fixed:
            return self.fixed[enemy]
        rest = self.rests[enemy]
        if rest is None:
            return 0.0
        spoiled, order, best, _ = rest
        return self._summed(spoiled, order, best, {}, 0.0)

    def most_at(self, end: Hex) -> float | None:
        """The most the ship's own weapons can be worth from ``end`` whatever its facing (every one that can bear
        there at its best range): :attr:`most`, or less where the module says how many can bear there at most
        (:meth:`~vectorwar.combat.base.CombatModule.most_bearing_from`)."""
        key = (end.q, end.r)
        if key in self.most_here:
            return self.most_here[key]
        most = self.most
        bearing = self.combat.most_bearing_from(self.view, self.ship.id, end)
        if bearing is not None and bearing < len(self.most_of):
            most = self.most_of[bearing]
        self.most_here[key] = most
        return most

    def turning_guns(self, turnings: frozenset[tuple[int, int]], most: float, spoils: Mapping[int, float]) -> float:
        """The guns' part of a course's bound (:meth:`_Course.bound`): weapons worth ``most`` at the course's range
        bearing, less the turning and rotation terms, at the best of ``turnings`` (hexsides turned, rotation left);
        kept by both for every ship of the penalty (:func:`~.greedy_kept.bound_guns`), as many courses share them."""
        key = (turnings, most)
        found = self.bound_guns.get(key)
        if found is None:
            found = self.bound_guns[key] = max(
                FIRE_WEIGHT * (spoils[t] * most) - (rotation * ROTATION_WEIGHT + t * TURNED_WEIGHT)
                for t, rotation in turnings
            )
        return found

    def best_brake(self, facings: frozenset[Direction], toward: Direction | None) -> int:
        """The most thrust toward ``toward`` (``None``: toward any one direction) the ship has from any of
        ``facings``; kept by both with the design's brakes (:meth:`~.braking.Brakes.best`)."""
        return self.braking.best(facings, toward)

    def _end(self, end: Hex) -> EndHex:
        q, r = end.q, end.r  # kept by whole numbers, hashed without a call
        found = self.ends.get((q, r))
        if found is None:
            # Hex.distance in whole numbers: asked of every enemy for every end hex
            distance_to = {}
            target, nearest = self.enemies[0], -1
            for e, enemy, eq, er in self.spots:
                dq, dr = eq - q, er - r
                distance = distance_to[enemy] = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if nearest < 0 or distance < nearest:  # the first nearest, as min() finds it
                    target, nearest = e, distance
            # Made as the tuple it is (``EndHex``'s own constructor is a Python call): one for every end hex of a menu.
            found = self.ends[q, r] = _new_end((distance_to, target, nearest))
        return found

    def _threat(self, end: Hex) -> float:
        """The enemy's weapons bearing on the ship at ``end``: they depend on where it ends, not on how it faces or
        turned."""
        key = (end.q, end.r)
        threat = self.threats.get(key)
        if threat is None:
            distance_to = self._end(end).distance_to
            fixed = self.fixed
            guns = self._their_guns if self.kept_aims is None else self._kept_guns
            threat = sum([fixed[e.id] if e.id in fixed else guns(e.id, end, distance_to[e.id]) for e in self.enemies])
            self.threats[key] = threat
        return threat

    def _their_guns(self, enemy: str, end: Hex, distance: int) -> float:
        """:func:`_guns` of ``enemy`` with the ship at ``end``, from its best on the other ships (:class:`Aims`)."""
        rest = self.rests[enemy]
        if rest is None:
            me = replace(self.base.ship(self.ship.id), hex=end)
            view = replace(self.base, ships=tuple(me if c.id == me.id else c for c in self.others))
            return _guns(self.combat, view, enemy, {self.ship.id: distance})
        spoiled, order, best, _ = rest
        on_me = self.combat.bearing_on(self.view, enemy, self.ship.id, end)
        return self._summed(spoiled, order, best, on_me, RANGE_WORTH.get(distance, FAR_WORTH))

    def _kept_guns(self, enemy: str, end: Hex, distance: int) -> float:
        """:meth:`_their_guns` where the aims are kept, kept by the enemy's entry (:func:`~.greedy_kept.kept_threat`): a
        search's trials ask it of one enemy again and again, each moving some other ship."""
        aimed = self.kept_aims.get(enemy) if self.kept_aims is not None else None
        if aimed is None:
            return self._their_guns(enemy, end, distance)
        threat = kept_threat(aimed, self.entry, end)
        if threat is None:
            threat = keep_threat(aimed, self.entry, end, self._their_guns(enemy, end, distance))
        return threat

    @staticmethod
    def _summed(
        spoiled: float, order: tuple[str, ...], best: dict[str, float], on_me: dict[str, int], near: float
    ) -> float:
        """:func:`_guns`' number: each weapon's best worth (on the other ships, or ``on_me`` at ``near``'s worth),
        summed in the weapons' order by ``sum`` as :func:`_worth` sums them (the same rounding)."""
        worths: list[float] = []
        for weapon in order:
            worth = best.get(weapon)
            n = on_me.get(weapon)
            if n is not None:
                here = near * min(n, MOST_PIECES)
                worth = here if worth is None else max(worth, here)
            if worth is not None:
                worths.append(worth)
        return spoiled * sum(worths)

    def _mine(self, end: Hex, facing: Direction, turned: int) -> float:
        """The guns' part of the score that the ship's own weapons give from ``end``, facing ``facing``."""
        key = (end.q, end.r, facing, turned)
        mine = self.mine.get(key)
        if mine is None:
            spoiled = spoiled_share(turned, self.base.penalty_per_hexside)
            mine = 0.0
            if spoiled != 0.0:
                bearing = self.combat.bearing_from(self.view, self.ship.id, end, facing)
                mine = spoiled * _worth(bearing, self._end(end).distance_to)
            self.mine[key] = mine
        return mine

    def _guns_at(self, end: Hex, facing: Direction, turned: int) -> float:
        key = (end.q, end.r, facing, turned)
        if key in self.cache:
            return self.cache[key]
        value = FIRE_WEIGHT * self._mine(end, facing, turned)
        value -= THREAT_WEIGHT * self._threat(end)
        self.cache[key] = value
        return value

    def _terms(self, result: TurnResult) -> tuple[float, ...] | None:
        """Every part of the score but the guns, each as it is taken off, in order; ``None`` for a path that leaves
        the map."""
        state = self.state
        path = result.path
        # A path is the line from its first hex to its last, and many plots share their ends: each line is checked
        # against the map once (keyed by whole numbers, hashed and compared without a call).
        if not stays_on(state.map, self.on_map, path):
            return None
        motion = result.motion
        end, velocity = motion.hex, motion.velocity
        # Next turn's thrust fires from the facing the ship ends with (the turn's rotation comes after it).
        can = self.can[motion.facing]
        terms: list[float] = []
        if self.enemies:
            near = self._end(end)
            target = near.target
            terms.append(abs(near.range - self.ideal))
            rq, rr = velocity.dq - target.velocity.dq, velocity.dr - target.velocity.dr
            brake = against(rq, rr, can)
            # Where the ship would come to rest against the enemy, braking from next turn on: past it is an overshoot.
            rest = stop(end, rq, rr, brake)
            terms.append(STOP_WEIGHT * abs(rest.distance(target.hex) - self.ideal))
            terms.append(SPEED_WEIGHT * max(0, (abs(rq) + abs(rr) + abs(rq + rr)) // 2 - brake))
        else:
            terms.append(SPEED_WEIGHT * velocity.speed)
        terms.append(abs(motion.rotation) * ROTATION_WEIGHT)
        if self.civilian:
            terms.append(CIVILIAN_SPEED_WEIGHT * velocity.speed)
        terms.append(result.hexsides_turned * TURNED_WEIGHT)
        if not state.map.contains(
            stop(end, velocity.dq, velocity.dr, against(velocity.dq, velocity.dr, can), margin=1)
        ):
            terms.append(OFF_MAP_WEIGHT)
        return tuple(terms)

    def _total(self, guns: float, terms: tuple[float, ...]) -> float:
        score = 0.0
        if self.enemies:
            score += guns
        for term in terms:
            score -= term
        return score

    def score(self, result: TurnResult) -> float:
        terms = self._terms(result)
        if terms is None:
            return -1000.0
        motion = result.motion
        guns = self._guns_at(motion.hex, motion.facing, result.hexsides_turned) if self.enemies else 0.0
        return self._total(guns, terms)

    def best(self, options: Sequence[tuple[Plot, TurnResult]]) -> list[Plot]:
        """The plots of ``options`` that score highest, in the menu's order.

        The guns are most of a score's cost, and most plots cannot win whatever their guns. The plots are grouped
        by course (end hex and vector: :class:`_Course`), and each course given a bound on its plots' scores
        (every weapon that can bear from its end bearing at the nearest enemy's range, the best turning terms and
        brakes of its plots). Courses and plots are taken highest bound first: a course taken is opened into its
        plots, each with its ceiling (its other terms worked out exactly, the guns as in the course's bound); a plot
        taken whose own guns, against the least threat, cannot reach the best score found is not given its threat;
        and the search stops at the first bound below the best. The answer is the same as scoring every plot.
        """
        if not self.enemies or self.most is None:
            scored = [(self.score(r), p) for p, r in options]
            best = max(score for score, _ in scored)
            return [p for score, p in scored if score == best]
        least = THREAT_WEIGHT * self.least_threat
        menu = grouped(options)
        courses = [_Course(self, options[plots.numbers[0]][1]) for plots in menu.courses]
        spoils = {t: spoiled_share(t, self.base.penalty_per_hexside) for t in menu.turned}
        # A heap of (-bound, -1 - course number) and (-ceiling, plot number).
        heap = [(-courses[n].bound(plots, spoils), -1 - n) for n, plots in enumerate(menu.courses)]
        heapq.heapify(heap)
        course_of: dict[int, _Course] = {}
        scores: dict[int, float] = {}
        best = -math.inf
        while heap and -heap[0][0] >= best - SLACK:
            _, item = heapq.heappop(heap)
            if item < 0:
                course = courses[-1 - item]
                course.open()
                for i in menu.courses[-1 - item].numbers:
                    ceiling = course.ceiling(options[i][1], spoils)
                    # One below the best found already would never be taken (the best only grows): left out.
                    if ceiling >= best - SLACK:
                        course_of[i] = course
                        heapq.heappush(heap, (-ceiling, i))
                continue
            result = options[item][1]
            terms = course_of[item].terms(result)
            if terms is None:
                score = -1000.0  # off the map: :meth:`score`'s answer whatever the guns
            else:
                end, facing, turned = result.motion.hex, result.motion.facing, result.hexsides_turned
                # The threat costs most of the rest: the ship's own guns, against the least threat, may rule it out.
                if FIRE_WEIGHT * self._mine(end, facing, turned) - least - sum(terms) < best - SLACK:
                    continue
                score = self._total(self._guns_at(end, facing, turned), terms)
            scores[item] = score
            best = max(best, score)
        return [options[i][0] for i in sorted(scores) if scores[i] == best]


class _Course:
    """What every plot of one ship that ends on one hex with one vector shares in its score: whether its path stays
    on the map, its range to the nearest enemy, the vector relative to that enemy's and the direction that brakes
    it, and, by how hard the ship can brake there, where it would stop (:meth:`Scorer._terms`' terms, each the
    same number)."""

    __slots__ = (
        "by_brake",
        "civilian_term",
        "end",
        "fixed",
        "heading",
        "most",
        "off_by_brake",
        "on_map",
        "range_term",
        "reach",
        "relative",
        "rq",
        "rr",
        "scorer",
        "target",
        "top",
        "toward",
        "velocity",
        "vq",
        "vr",
    )

    def __init__(self, scorer: Scorer, result: TurnResult) -> None:
        # What the course's bound reads; the rest waits for the course to be opened (:meth:`open`), as many never are.
        self.scorer = scorer
        motion = result.motion
        self.end, self.velocity = end, velocity = motion.hex, motion.velocity
        #: Whether the course's path (the line from the hex the ship starts on to its end) stays on the map: if not,
        #: its every plot scores -1000 whatever the rest, which no one reads (:meth:`bound`, :meth:`open`,
        #: :meth:`ceiling` and :meth:`terms` stop at it).
        path = result.path
        first, last = path[0], path[-1]
        # stays_on's answer, kept by the path's ends for the map: read here without a call (every course asks).
        on_map = scorer.on_map.get((first.q, first.r, last.q, last.r))
        self.on_map = on_map = stays_on(scorer.state.map, scorer.on_map, path) if on_map is None else on_map
        if not on_map:
            return
        key = (end.q, end.r)
        near = scorer.ends.get(key) or scorer._end(end)
        self.target = near.target
        self.range_term = abs(near.range - scorer.ideal)
        self.reach = RANGE_WORTH.get(near.range, FAR_WORTH)
        #: The most the ship's weapons can be worth from the end, at its range (best() asks only where the module
        #: lists the ship's arsenal).
        most = scorer.most_here.get(key, -1.0)
        if most == -1.0:
            most = scorer.most_at(end)
        self.most = (most or 0.0) * self.reach
        target = near.target.velocity
        self.rq, self.rr = rq, rr = velocity.dq - target.dq, velocity.dr - target.dr
        self.relative = (abs(rq) + abs(rr) + abs(rq + rr)) // 2
        #: The direction whose thrust brakes the ship against its enemy (``None``: at rest against it, any).
        self.toward = None if rq == 0 and rr == 0 else opposite(rq, rr)
        self.civilian_term = CIVILIAN_SPEED_WEIGHT * velocity.speed if scorer.civilian else 0.0

    def open(self) -> None:
        """What the course's plots' ceilings and terms read besides the bound's (:meth:`ceiling`, :meth:`terms`)."""
        if not self.on_map:
            return
        scorer = self.scorer
        #: The guns' part of a ceiling before turning spoils it (:attr:`most`), and the least threat and range
        #: terms every plot of the course pays (:meth:`ceiling`), each added as :meth:`ceiling` adds it.
        self.top = FIRE_WEIGHT * self.most
        self.fixed = THREAT_WEIGHT * scorer.least_threat + self.range_term
        self.vq, self.vr = vq, vr = self.velocity.dq, self.velocity.dr
        #: The direction whose thrust brakes the ship on the map (``None``: at rest).
        self.heading = None if vq == 0 and vr == 0 else opposite(vq, vr)
        self.by_brake: dict[int, tuple[float, float]] = {}
        self.off_by_brake: dict[int, bool] = {}

    def bound(self, plots: Plots, spoils: Mapping[int, float]) -> float:
        """A bound on the score of every plot of the course (``plots``, :class:`Plots`; ``spoils``:
        :func:`spoiled_share` by hexsides turned): every weapon that can bear from its end bearing (:attr:`most`) and
        the least threat, the range and civilian terms, the best of the plots' turning and rotation terms with the
        share of a shot that turning leaves, and the speed beyond what the best brakes of their facings cancel (a
        plot's other terms only take off more); or -1000 (a plot off the map) if that is more, and -1000 itself for
        a course off the map."""
        if not self.on_map:
            return -1000.0
        scorer = self.scorer
        guns = scorer.bound_guns.get((plots.turnings, self.most))
        if guns is None:
            guns = scorer.turning_guns(plots.turnings, self.most, spoils)
        brake = scorer.braking.kept.get((plots.facings, self.toward))
        if brake is None:
            brake = scorer.best_brake(plots.facings, self.toward)
        bound = (
            guns - THREAT_WEIGHT * scorer.least_threat - self.range_term - SPEED_WEIGHT * max(0, self.relative - brake)
        )
        if scorer.civilian:
            bound -= self.civilian_term
        return max(bound, -1000.0)  # a plot that leaves the map scores -1000 whatever its terms

    def ceiling(self, result: TurnResult, spoils: Mapping[int, float]) -> float:
        """The ceiling of a plot of the course: its score with every weapon that can bear from its end bearing at the
        nearest enemy's range and no enemy weapon on it but those on the side's other ships (``spoils``:
        :func:`spoiled_share` by hexsides turned), its other terms :meth:`terms`' (each brake's worked out once: a
        course's plots mostly end on facings of their own, so its facings' are not kept)."""
        if not self.on_map:
            return -1000.0
        motion = result.motion
        fixed = self.fixed + self._braking(motion.facing)
        if self.scorer.civilian:
            fixed += self.civilian_term
        turned = result.hexsides_turned
        return self.top * spoils[turned] - fixed - abs(motion.rotation) * ROTATION_WEIGHT - turned * TURNED_WEIGHT

    def _braking(self, facing: Direction) -> float:
        """The stop, speed and off-map terms of a plot of the course that ends facing ``facing``, added."""
        scorer = self.scorer
        can = scorer.can[facing]
        brake = scorer.halt[facing] if self.toward is None else can[self.toward]
        closing = self.by_brake.get(brake)
        if closing is None:
            closing = self.closing(brake)
        brake = scorer.halt[facing] if self.heading is None else can[self.heading]
        leaves = self.off_by_brake.get(brake)
        if leaves is None:
            leaves = self.leaves(brake)
        return closing[0] + closing[1] + (OFF_MAP_WEIGHT if leaves else 0.0)

    def terms(self, result: TurnResult) -> tuple[float, ...] | None:
        """:meth:`Scorer._terms`' answer for a plot of the course: the same numbers in the same order, from what
        the course keeps."""
        if not self.on_map:
            return None
        scorer = self.scorer
        motion = result.motion
        can, halt = scorer.can[motion.facing], scorer.halt[motion.facing]
        stop, speed = self.closing(halt if self.toward is None else can[self.toward])
        terms: tuple[float, ...] = (self.range_term, stop, speed, abs(motion.rotation) * ROTATION_WEIGHT)
        if scorer.civilian:
            terms += (self.civilian_term,)
        terms += (result.hexsides_turned * TURNED_WEIGHT,)
        if self.leaves(halt if self.heading is None else can[self.heading]):
            terms += (OFF_MAP_WEIGHT,)
        return terms

    def closing(self, brake: int) -> tuple[float, float]:
        """The stop and speed terms for a ship that brakes ``brake`` hexes/turn against its enemy (where it stops
        and its range from there in whole numbers: :func:`~.braking.stop` and ``Hex.distance``, building no hex)."""
        found = self.by_brake.get(brake)
        if found is None:
            end, target = self.end, self.target.hex
            q, r = (end.q, end.r) if self.toward is None else rest_axial(end.q, end.r, self.rq, self.rr, brake, 0)
            dq, dr = q - target.q, r - target.r
            found = self.by_brake[brake] = (
                STOP_WEIGHT * abs((abs(dq) + abs(dr) + abs(dq + dr)) // 2 - self.scorer.ideal),
                SPEED_WEIGHT * max(0, self.relative - brake),
            )
        return found

    def leaves(self, brake: int) -> bool:
        """Whether braking ``brake`` hexes/turn on the map from next turn on still carries the ship off it."""
        found = self.off_by_brake.get(brake)
        if found is None:
            end = self.end
            q, r = (end.q, end.r) if self.heading is None else rest_axial(end.q, end.r, self.vq, self.vr, brake, 1)
            found = self.off_by_brake[brake] = not self.scorer.state.map.contains_axial(q, r)
        return found


def escorted(state: VMSState, ship: VMSShip) -> bool:
    """Whether ``ship``'s side has a warship (a ship not civilian) still in play to fight for it."""
    return any(s.spec.ship_class != "civilian" for s in state.ships_of(ship.side))


class GreedyBot:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def choose(self, state: VMSState, side: str, rng: random.Random) -> Order:
        engine = self.engine
        if state.phase == "initiative":
            # Moving later sees more of the enemy's moves.
            return SubphaseChoice(tuple((s.id, s.choices[-1]) for s in engine.choosers(state, side)))
        if state.phase == "plot":
            enemies = predict(state, side)
            moves: list[tuple[str, Plot]] = []
            aims: Aims | None = None
            for ship in engine.movers(state, side):
                options = engine.plots_for(state, ship)
                if not options:
                    moves.append((ship.id, Plot()))
                    continue
                if aims is None:  # the same for every ship of the side: worked out once
                    aims = Aims(engine.combat(state), moved(engine.view(state), enemies), enemies)
                moves.append((ship.id, rng.choice(Scorer(state, ship, enemies, engine, aims).best(options))))
            return MovePlot(tuple(moves))
        if state.phase == "fire-order":
            # Declaring last sees the others' fire first (as VV5's own bot picks).
            return DeclareOrder((*(s for s in state.sides_in_play() if s != side), side))
        if state.phase == "fire":
            return engine.combat(state).greedy_fire(engine.view(state), side)
        return engine.random_order(state, side, rng)
