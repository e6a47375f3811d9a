"""The ``quick`` VMS bot: the fast bot a search plays its trials with (``RuleSystem.rollout_bot``).

The ``greedy`` bot (:mod:`.bots`) works out what every plot of a ship's menu does (a hundred or so moves, each
a frozen result) and bounds every course before it scores the few that could win: most of a search trial's
cost. This bot works out none of them. Every candidate plot of the menu ends where the ship's hex plus its
vector after thrust puts it, and the thrust's velocity change, the facing and the rotation left are the same
at every vector (the planner's turnings, :func:`~.planner.legal_turnings`, kept by design, facing and rotation;
here grouped by velocity change, :func:`candidates`). So every end is first scored roughly by whole-number
arithmetic on greedy's terms that need no guns (the range to the enemy nearest the ship's drift against the
ideal, where braking as hard as the best of its candidates' facings can would stop it against that enemy, the
speed left beyond that, leaving the map, the least rotation left and hexsides turned: :func:`_rough`); the
``ENDS`` best ends then give each of their candidates those terms as greedy works them out and greedy's guns
and threat there (:class:`~.bots.Scorer`), and the best candidate is taken.

It plots no flat turn (its ships turn by rotation) and keeps, as the menu does, to the plots turning least
over the class limit. Its other decisions (initiative, fire order, fire) are greedy's, which cost little.
Every plot is one the rules take (the search checks each order of its trials all the same). Players never
meet it: it is not among the system's ``bots``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.memo import Kept, Numbers
from vectorwar.rules import Order
from vectorwar.systems.vms.bots import (
    CIVILIAN_SPEED_WEIGHT,
    FIRE_WEIGHT,
    OFF_MAP_WEIGHT,
    ROTATION_WEIGHT,
    SLACK,
    SPEED_WEIGHT,
    STOP_WEIGHT,
    THREAT_WEIGHT,
    TURNED_WEIGHT,
    Aims,
    Engine,
    GreedyBot,
    Scorer,
    escorted,
    spoiled_share,
)
from vectorwar.systems.vms.bots import (
    EndHex as _Near,
)
from vectorwar.systems.vms.braking import brakes, opposite, rest_axial, stop
from vectorwar.systems.vms.fight import entry_number
from vectorwar.systems.vms.greedy_kept import Enemy, moved, predict
from vectorwar.systems.vms.movement import Plot
from vectorwar.systems.vms.orders import MovePlot
from vectorwar.systems.vms.planner import MenuSetting, Turned, legal_turnings
from vectorwar.systems.vms.plotting import advanced, menu_of, rotate_before_thrust
from vectorwar.systems.vms.ships import Design
from vectorwar.systems.vms.state import VMSShip, VMSState

#: The ends (hex and vector after the move) whose candidates are given greedy's guns and threat: the best by
#: the terms that need none.
ENDS = 3


class QuickBot:
    """Greedy's terms by arithmetic on every candidate's end, its guns at the few best ends; else greedy."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.greedy = GreedyBot(engine)

    def choose(self, state: VMSState, side: str, rng: random.Random) -> Order:
        if state.phase != "plot":
            return self.greedy.choose(state, side, rng)
        engine = self.engine
        enemies = predict(state, side)
        moves: list[tuple[str, Plot]] = []
        aims: Aims | None = None
        token = 0
        for ship in engine.movers(state, side):
            if aims is None and enemies:  # the same for every ship of the side: worked out once
                aims = Aims(engine.combat(state), moved(engine.view(state), enemies), enemies, kept=True)
                token = _enemies_token(state, side, enemies, engine, aims)
            moves.append((ship.id, rng.choice(quick_plots(state, ship, enemies, engine, aims, token))))
        return MovePlot(tuple(moves))


def _enemies_token(state: VMSState, side: str, enemies: Sequence[Enemy], engine: Engine, aims: Aims) -> int:
    """A number standing for what every ship of ``side`` reads of its enemies (:func:`_reads`): where each will be,
    its vector and facing, its combat entry and card, with the map, the game's options, the combat module and its
    turning penalty. The same for every ship of the side, so worked out once for them: a ship's key holds the number,
    not the whole, to be hashed and compared at every ask (:class:`~vectorwar.memo.Numbers`)."""
    view = aims.view
    theirs = [c for c in view.ships if c.side != side]
    held = (view.map, view.options, engine.combat(state), *[view.cards[c.id] for c in theirs])
    numbers = tuple([(e.id, e.hex.q, e.hex.r, e.velocity.dq, e.velocity.dr, e.facing) for e in enemies])
    return _TOKENS.number((*map(id, held), view.penalty_per_hexside, numbers, *map(entry_number, theirs)), held)


#: :func:`_enemies_token`'s numbers.
_TOKENS = Numbers(1 << 12)


@dataclass(frozen=True, slots=True)
class Change:
    """The candidates of a ship's menu that share one velocity change (so one end at any vector): each with its
    rotation and turning terms, the facings they end with and the least of those terms."""

    dq: int
    dr: int
    plots: tuple[tuple[Turned, float], ...]
    facings: frozenset[Direction]
    least: float
    #: The most thrust toward each direction (``None``: toward any one) from the best of those facings.
    brakes: Mapping[Direction | None, int]


def candidates(state: VMSState, ship: VMSShip) -> tuple[Change, ...]:
    """The ship's menu candidates without a flat turn that its thrust pays for, those turning least over the class
    limit (as the menu keeps them), by velocity change: from the planner's turnings, none of them moved; kept by
    the turnings (the same for a design, facing and rotation at every vector and hex).

    Asked for every ship at every plot of every trial: kept first by what the planner keeps its turnings by, read off
    the ship and the rules without the menu's setting built (the design by identity, kept beside the answer)."""
    spec = ship.spec
    key = (
        id(spec),
        ship.facing,
        ship.rotation,
        ship.spin_rate,
        ship.spin_carried,
        ship.thrust_lost,
        ship.rotation_limit_lost,
        rotate_before_thrust(state),
        advanced(state),
    )
    known = _BY_SHIP.get(key)
    if known is not None and known[0] is spec:
        return known[1]
    return _BY_SHIP.keep(key, (spec, _changes(state, ship)))[1]


#: :func:`candidates`' answers by the ship's design, facing, rotation, spin, thrust and rotation limit lost, and the
#: rotation rules (:func:`~.planner.legal_turnings`' key), with the design.
_BY_SHIP: Kept[tuple[object, ...], tuple[Design, tuple[Change, ...]]] = Kept(4096)


def _changes(state: VMSState, ship: VMSShip) -> tuple[Change, ...]:
    """:func:`candidates` from the planner's turnings."""
    setting = MenuSetting(*menu_of(state, ship))
    turnings = legal_turnings(setting)
    available = max(0, ship.spec.thrust - ship.thrust_lost)
    key = (id(turnings), available)
    known = _CHANGES.get(key)
    if known is not None and known[0] is turnings:
        return known[1]
    found = [t for t in turnings if not t.plot.flat_turn and t.points <= available]
    least = min((t.extra for t in found), default=0)
    by_change: dict[tuple[int, int], list[tuple[Turned, float]]] = {}
    for t in found:
        if t.extra == least:
            term = abs(t.done.new_rate) * ROTATION_WEIGHT + t.hexsides * TURNED_WEIGHT
            by_change.setdefault((t.change[0], t.change[1]), []).append((t, term))
    braking = brakes(ship.spec, ship.thrust_lost)
    changes: list[Change] = []
    for (dq, dr), plots in by_change.items():
        facings = frozenset(t.facing for t, _ in plots)
        most = {toward: braking.best(facings, toward) for toward in (None, *Direction)}
        changes.append(Change(dq, dr, tuple(plots), facings, min(term for _, term in plots), most))
    _CHANGES.keep(key, (turnings, tuple(changes)))
    return _CHANGES[key][1]


#: :func:`candidates`' answers by the identity of the planner's turnings (kept beside them, so that no other
#: tuple takes their identity while kept) and the thrust available.
_CHANGES: Kept[tuple[int, int], tuple[tuple[Turned, ...], tuple[Change, ...]]] = Kept(4096)


def quick_plots(
    state: VMSState,
    ship: VMSShip,
    enemies: Sequence[Enemy],
    engine: Engine,
    aims: Aims | None,
    token: int = 0,
) -> list[Plot]:
    """The candidates (:func:`candidates`) that score highest. Each end is first given greedy's terms but the guns
    against the enemy nearest the ship's drift, braking as the best of its candidates' facings can
    (:func:`_rough`); the ``ENDS`` best ends then give each of their candidates greedy's terms exactly and its guns
    and threat. With the side's ``aims`` and ``token`` (:func:`_enemies_token`), the answer is kept by what it reads
    (:func:`_reads`)."""
    changes = candidates(state, ship)
    if not changes:
        return [Plot()]
    vq, vr = ship.velocity.dq, ship.velocity.dr
    if not enemies:
        # Nothing to fight: come to rest, as greedy's terms without an enemy ask.
        slowest = min(changes, key=lambda c: _speed(vq + c.dq, vr + c.dr))
        return [t.plot for t, _ in slowest.plots]
    if aims is None or not token:  # not the side's own choice (the tests): worked out for this ship alone, not kept
        return _scored(Scorer(state, ship, enemies, engine, aims), ship, changes)
    key, held = _reads(state, ship, enemies, aims, changes, token)
    known = _PLOTS.get(key)
    if known is not None:
        return list(known[1])
    found = _scored(Scorer(state, ship, enemies, engine, aims), ship, changes)
    _PLOTS.keep(key, (held, tuple(found)))
    return found


def _reads(
    state: VMSState, ship: VMSShip, enemies: Sequence[Enemy], aims: Aims, changes: tuple[Change, ...], token: int
) -> tuple[tuple[object, ...], tuple[object, ...]]:
    """What :func:`_scored` reads, as a key, and the objects the key holds by identity (to be kept beside the answer,
    so that no other object takes their identities while it is kept).

    A search's trials ask the quick bot's plots of one ship again and again, each trial moving some other ship. Its
    score (:class:`~.bots.Scorer`) reads the ship (its menu's changes, hex, vector, design, thrust lost, card and
    combat entry, and for a civilian whether a warship escorts it), every enemy, the map, the combat module and its
    turning penalty (the side's ``token``: :func:`_enemies_token`); the side's other ships only through the enemies'
    weapons' best on them (:meth:`~.bots.Aims.rest`), since a target's bearing entries depend on nothing but the
    shooter, that target and the map (the combat module's contract); or every ship of the side, where the module does
    not list an enemy's arsenal (the threat is then worked out on the whole view).
    """
    view = aims.view
    rests = tuple([_rest(aims, e.id, ship.id) for e in enemies])
    every = None in rests
    mine = [c for c in view.ships if c.side == ship.side and (every or c.id == ship.id)]
    held = (changes, ship.spec, *[view.cards[c.id] for c in mine])
    civilian = ship.spec.ship_class == "civilian" and escorted(state, ship)
    numbers = (ship.hex.q, ship.hex.r, ship.velocity.dq, ship.velocity.dr, ship.thrust_lost, civilian, ENDS)
    # The combat entries by their numbers (entry_number): hashed as whole numbers, not field by field.
    return (token, *map(id, held), *numbers, rests, *map(entry_number, mine)), held


def _rest(aims: Aims, enemy: str, moved: str) -> tuple[object, ...] | None:
    """``enemy``'s best on the side's ships but ``moved`` (:meth:`~.bots.Aims.rest`) as a key part (``None`` where
    the module does not list its arsenal): kept by the enemy's aims, which the quick bot's aims share from one choice
    to the next (:func:`~.greedy_kept.kept_aims`; by identity, kept beside the answer), and ``moved``."""
    aimed = aims.by_enemy.get(enemy)
    if aimed is None:
        return None
    key = (id(aimed), moved)
    known = _RESTS.get(key)
    if known is None:
        rest = aims.rest(enemy, moved)
        if rest is None:  # pragma: no cover - the enemy's aims are there
            return None
        known = _RESTS.keep(key, (aimed, (enemy, rest[0], rest[1], tuple(rest[2].items()), rest[3])))
    return known[1]


#: :func:`_rest`'s answers, with the aims they read.
_RESTS: Kept[tuple[int, str], tuple[object, tuple[object, ...]]] = Kept(1 << 12)


#: :func:`quick_plots`' answers by what they read (:func:`_reads`), with the objects read by identity.
_PLOTS: Kept[tuple[object, ...], tuple[tuple[object, ...], tuple[Plot, ...]]] = Kept(1 << 12)


def _scored(scorer: Scorer, ship: VMSShip, changes: tuple[Change, ...]) -> list[Plot]:
    """:func:`quick_plots`' answer, worked out: the ``ENDS`` best ends by :func:`_ranked`, then each of their
    candidates' score, the guns worked out only where its ceiling could reach the best."""
    enemies = scorer.enemies
    vq, vr = ship.velocity.dq, ship.velocity.dr
    ranked = _ranked(scorer, ship, enemies, changes)[:ENDS]
    # Every candidate of those ends with its score but the guns, and a ceiling: every weapon bearing at its best.
    most = None if scorer.most is None else FIRE_WEIGHT * scorer.most
    penalty = scorer.base.penalty_per_hexside
    looked: list[tuple[float, float, Hex, Turned]] = []
    ceilings: list[float] = []
    # The share of a shot each number of hexsides turned leaves, worked out once a call (a few numbers, many asks).
    spoils: dict[int, float] = {}
    for n in sorted(ranked):
        change = changes[n]
        end = _end(scorer, ship, vq + change.dq, vr + change.dr)
        threat = THREAT_WEIGHT * scorer._threat(end.hex)
        at, by_facing = end.hex, end.by_facing
        for t, term in change.plots:
            # EndHex.cost's kept answer read here, without the call (every candidate asks it).
            cost = by_facing.get(t.facing)
            rest = -threat - (end.cost(t.facing) if cost is None else cost) - term
            if most is None:
                ceiling = math.inf
            else:
                spoiled = spoils.get(t.hexsides)
                if spoiled is None:
                    spoiled = spoils[t.hexsides] = spoiled_share(t.hexsides, penalty)
                ceiling = rest + most * spoiled
            looked.append((ceiling, rest, at, t))
            ceilings.append(ceiling)
    # Highest ceiling first (stable: equal ceilings in the order looked at), the guns worked out until no ceiling left
    # can reach the best score (the answer of scoring them all).
    order = sorted(range(len(looked)), key=ceilings.__getitem__, reverse=True)
    best = -math.inf
    scores: dict[int, float] = {}
    for i in order:
        ceiling, rest, at, t = looked[i]
        if ceiling < best - SLACK:
            break
        scores[i] = value = rest + FIRE_WEIGHT * scorer._mine(at, t.facing, t.hexsides)
        best = max(best, value)
    return [looked[i][3].plot for i in sorted(scores) if scores[i] == best]


def _ranked(scorer: Scorer, ship: VMSShip, enemies: Sequence[Enemy], changes: tuple[Change, ...]) -> tuple[int, ...]:
    """The changes' numbers, best first by :func:`_rough` (stable: ties in the menu's order).

    The rough score reads nothing of the enemies but the one nearest the ship's drift, and a search's trials ask it
    of one ship again and again, each trial moving some other ship: kept by what it reads (the changes and the map
    by identity, kept beside the answer so that no other object takes their identities while it is kept)."""
    vq, vr = ship.velocity.dq, ship.velocity.dr
    hq, hr = ship.hex.q, ship.hex.r
    dq, dr = hq + vq, hr + vr  # where the ship drifts to
    target = min(enemies, key=lambda e: _speed(e.hex.q - dq, e.hex.r - dr))  # the first nearest, as min() finds it
    tq, tr, tvq, tvr = target.hex.q, target.hex.r, target.velocity.dq, target.velocity.dr
    board = scorer.state.map
    key = (id(changes), id(board), hq, hr, vq, vr, tq, tr, tvq, tvr, scorer.ideal, scorer.civilian)
    known = _RANKED.get(key)
    if known is not None and known[0] is changes and known[1] is board:
        return known[2]
    rough = _rough(scorer, ship, (tq, tr, tvq, tvr), changes)
    return _RANKED.keep(key, (changes, board, tuple(sorted(range(len(changes)), key=rough.__getitem__))))[2]


#: :func:`_ranked`'s answers, with the changes and the map they were worked out for.
_RANKED: Kept[tuple[object, ...], tuple[tuple[Change, ...], HexMap, tuple[int, ...]]] = Kept(1 << 12)


def _rough(scorer: Scorer, ship: VMSShip, target: tuple[int, int, int, int], changes: Sequence[Change]) -> list[float]:
    """Each change's end scored roughly, lower better: greedy's range, stop and speed terms against the enemy
    nearest where the ship drifts to (``target``: its hex and vector, by their numbers), braking as hard as the best
    of its candidates' facings can, and its candidates' least rotation and turning terms, and whether braking so
    still leaves the map; an end off the map last."""
    vq, vr = ship.velocity.dq, ship.velocity.dr
    hq, hr = ship.hex.q, ship.hex.r
    tq, tr, tvq, tvr = target
    board, ideal, civilian = scorer.state.map, scorer.ideal, scorer.civilian
    out: list[float] = []
    # Where a ship stops (braking.stop) by its axial numbers, no hex built: the ship's own hex at rest.
    for c in changes:
        dq, dr = vq + c.dq, vr + c.dr
        q, r = hq + dq, hr + dr
        if not board.contains_axial(q, r):
            out.append(1000.0)
            continue
        rq, rr = dq - tvq, dr - tvr
        still = rq == 0 and rr == 0
        brake = c.brakes[None if still else opposite(rq, rr)]
        sq, sr = (q, r) if still else rest_axial(q, r, rq, rr, brake, 0)
        # _speed written out (asked four times for every change of every ranking).
        aq, ar = tq - q, tr - r
        cost = abs((abs(aq) + abs(ar) + abs(aq + ar)) // 2 - ideal) + c.least
        aq, ar = tq - sq, tr - sr
        cost += STOP_WEIGHT * abs((abs(aq) + abs(ar) + abs(aq + ar)) // 2 - ideal)
        cost += SPEED_WEIGHT * max(0, (abs(rq) + abs(rr) + abs(rq + rr)) // 2 - brake)
        if civilian:
            cost += CIVILIAN_SPEED_WEIGHT * ((abs(dq) + abs(dr) + abs(dq + dr)) // 2)
        if dq or dr:
            sq, sr = rest_axial(q, r, dq, dr, c.brakes[opposite(dq, dr)], 1)
        else:
            sq, sr = q, r
        if not board.contains_axial(sq, sr):
            cost += OFF_MAP_WEIGHT
        out.append(cost)
    return out


def _speed(dq: int, dr: int) -> int:
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def _end(scorer: Scorer, ship: VMSShip, vq: int, vr: int) -> EndHex:
    """The :class:`EndHex` of a candidate of ``ship`` with the vector ``vq, vr`` after thrust. Its terms read nothing of
    the enemies but the one nearest the end, and a search's trials ask them of one ship's ends again and again (each
    trial moving some other ship): kept by what they read (the map and the ship's brakes by identity, kept in the
    end so that no other object takes their identities while it is kept)."""
    hq, hr = ship.hex.q, ship.hex.r
    q, r = hq + vq, hr + vr
    near = scorer.ends.get((q, r))
    if near is None:
        near = scorer._end(Hex(q, r))
    target = near.target
    th, tv = target.hex, target.velocity
    board, braking = scorer.state.map, scorer.braking
    key = (id(board), id(braking), hq, hr, vq, vr, th.q, th.r, tv.dq, tv.dr, scorer.ideal, scorer.civilian)
    known = _ENDS.get(key)
    if known is not None and known.board is board and known.braking is braking:
        return known
    return _ENDS.keep(key, EndHex(scorer, ship, vq, vr, near))


class EndHex:
    """One end of a ship's candidates (its hex moved by the vector after thrust) and greedy's terms
    there but the guns, the rotation and the turning: the same numbers as greedy's ``_Course`` (:mod:`.bots`), by
    whole-number arithmetic on the vector, none of the moves worked out. It keeps only what those terms read
    (shared by every scorer that reads the same: :func:`_end`)."""

    __slots__ = (
        "board",
        "braking",
        "by_facing",
        "heading",
        "hex",
        "ideal",
        "off",
        "range_term",
        "relative",
        "rq",
        "rr",
        "target",
        "toward",
        "vq",
        "vr",
    )

    def __init__(self, scorer: Scorer, ship: VMSShip, vq: int, vr: int, near: _Near) -> None:
        self.board, self.braking, self.ideal = scorer.state.map, scorer.braking, scorer.ideal
        self.vq, self.vr = vq, vr
        self.hex = ship.hex.shifted(vq, vr)
        start, at = ship.hex, self.hex
        ends = (start.q, start.r, at.q, at.r)
        on_map = scorer.on_map.get(ends)
        if on_map is None:
            on_map = scorer.on_map[ends] = all(scorer.state.map.contains(h) for h in start.line_to(at))
        #: A path off the map: greedy's -1000 whatever the rest.
        self.off = not on_map
        self.target = near.target.hex
        self.range_term = float(abs(near.range - scorer.ideal))
        if scorer.civilian:
            self.range_term += CIVILIAN_SPEED_WEIGHT * _speed(vq, vr)
        self.rq, self.rr = rq, rr = vq - near.target.velocity.dq, vr - near.target.velocity.dr
        self.relative = _speed(rq, rr)
        self.toward = None if rq == 0 and rr == 0 else opposite(rq, rr)
        self.heading = None if vq == 0 and vr == 0 else opposite(vq, vr)
        self.by_facing: dict[Direction, float] = {}

    def cost(self, facing: Direction) -> float:
        """The range, stop, speed and off-map terms (and a civilian's speed) of a candidate ending facing
        ``facing``."""
        if self.off:
            return 1000.0
        found = self.by_facing.get(facing)
        if found is None:
            can, halt = self.braking.can[facing], self.braking.halt[facing]
            brake = halt if self.toward is None else can[self.toward]
            found = self.by_facing[facing] = self._terms(brake, halt if self.heading is None else can[self.heading])
        return found

    def _terms(self, brake: int, halting: int) -> float:
        """The terms braking ``brake`` against the enemy, and ``halting`` on the map, give."""
        rest = stop(self.hex, self.rq, self.rr, brake)
        terms = self.range_term + STOP_WEIGHT * abs(rest.distance(self.target) - self.ideal)
        terms += SPEED_WEIGHT * max(0, self.relative - brake)
        if not self.board.contains(stop(self.hex, self.vq, self.vr, halting, margin=1)):
            terms += OFF_MAP_WEIGHT
        return terms


#: :func:`_end`'s answers.
_ENDS: Kept[tuple[object, ...], EndHex] = Kept(1 << 12)
