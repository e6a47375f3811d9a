"""What the ``greedy`` VMS bot keeps beside its scores (vectorwar.systems.vms.bots): where each enemy will be, the
view with the enemies there, and the answers it keeps for a process or a map (the guns' bound by turning, whether a
path stays on the map, each enemy's aims on the side's ships)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

from vectorwar.combat.base import Combatant, CombatModule, CombatView
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.memo import Kept, Numbers
from vectorwar.roster import replace_fields
from vectorwar.systems.vms.fight import entry_number
from vectorwar.systems.vms.state import VMSShip, VMSState
from vectorwar.vectors import Velocity


@dataclass(frozen=True, slots=True)
class Enemy:
    """Where an enemy will be when the ship fires (its drift, if it has not moved) and its vector."""

    id: str
    hex: Hex
    velocity: Velocity
    facing: Direction


def predict(state: VMSState, side: str) -> list[Enemy]:
    """Where each enemy of ``side`` will be (:class:`Enemy`): read off the ship alone, so kept by its identity (the ship
    kept beside it, so that no other takes its identity while kept), as a search's trials share the ships a step did
    not change."""
    out = []
    for e in state.enemies_of(side):
        known = _ENEMIES.get(id(e))
        if known is None or known[0] is not e:
            known = _ENEMIES.keep(id(e), (e, _enemy(e)))
        out.append(known[1])
    return out


def _enemy(e: VMSShip) -> Enemy:
    """:func:`predict`'s entry for the ship ``e``: where it is if it has moved, else where it drifts to."""
    if e.moved:
        return Enemy(e.id, e.hex, e.velocity, e.facing)
    facing = e.facing.turned(e.rotation) if not e.spec.small_craft else e.facing
    return Enemy(e.id, e.hex.shifted(e.velocity.dq, e.velocity.dr), e.velocity, facing)


#: :func:`predict`'s entries by the ship's identity, with the ship.
_ENEMIES: Kept[int, tuple[VMSShip, Enemy]] = Kept(1 << 12)


def bound_guns(penalty: int) -> dict[tuple[frozenset[tuple[int, int]], float], float]:
    """The greedy bot's ``Scorer.turning_guns``' answers under a to-hit ``penalty`` per hexside turned, by their
    turnings and weapons' worth: the same for every ship and decision (a share of a shot lost to turning depends on
    nothing else), so kept for the process, emptied when large."""
    found = _BOUND_GUNS.get(penalty)
    if found is None or len(found) > 1 << 14:
        found = _BOUND_GUNS[penalty] = {}
    return found


_BOUND_GUNS: dict[int, dict[tuple[frozenset[tuple[int, int]], float], float]] = {}


def paths_on(board: HexMap) -> dict[tuple[int, int, int, int], bool]:
    """Whether each path (the line between its ends, by their numbers) stays on ``board``: kept for the last few
    maps by identity (a map is frozen, and kept beside its answers so that its identity is not reused), since a
    game's every decision, and a search's every rollout, moves on the one map."""
    for known, found in _PATHS_ON:
        if known is board:
            return found
    found = {}
    _PATHS_ON.insert(0, (board, found))
    del _PATHS_ON[4:]
    return found


_PATHS_ON: list[tuple[HexMap, dict[tuple[int, int, int, int], bool]]] = []


def stays_on(board: HexMap, kept: dict[tuple[int, int, int, int], bool], path: Sequence[Hex]) -> bool:
    """Whether ``path`` (the line from its first hex to its last) stays on ``board``, kept in ``kept`` (the board's
    :func:`paths_on`) by its ends' numbers. A line's every hex is within its length of its first, so a line no longer
    than the first hex's :meth:`~vectorwar.maps.HexMap.clear_radius` (kept per hex) stays on without a hex looked at;
    another is walked."""
    first, last = path[0], path[-1]
    ends = (first.q, first.r, last.q, last.r)
    found = kept.get(ends)
    if found is None:
        dq, dr = last.q - first.q, last.r - first.r
        length = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        found = kept[ends] = length <= board.clear_radius(first) or all(board.contains(h) for h in path)
    return found


def moved(base: CombatView, enemies: Sequence[Enemy]) -> CombatView:
    """``base`` with the enemies where they will be: ``base`` itself where every enemy is there already (each has
    moved this turn)."""
    moved: dict[str, Enemy] = {}
    for e in enemies:
        # A hex is its two numbers: compared by them, without the dataclass's own comparison (a Python call).
        at = base.ship(e.id)
        if e.hex.q != at.hex.q or e.hex.r != at.hex.r or e.facing != at.facing:
            moved[e.id] = e
    if not moved:
        return base
    ships = tuple([_moved_entry(c, moved[c.id]) if c.id in moved else c for c in base.ships])
    return replace_fields(base, ships=ships)


def _moved_entry(entry: Combatant, enemy: Enemy) -> Combatant:
    """``entry`` moved to where ``enemy`` will be: kept by the two (by identity, kept beside the answer so that no other
    objects take their identities while it is kept), as both are kept by the ship's identity (:func:`predict`, the
    view's entries). A search's trials share one object for an enemy they did not change, whose number is then found by
    its identity (:func:`~.fight.entry_number`), its value not hashed again."""
    key = (id(entry), id(enemy))
    known = _MOVED.get(key)
    if known is None or known[0] is not entry or known[1] is not enemy:
        known = _MOVED.keep(key, (entry, enemy, replace_fields(entry, hex=enemy.hex, facing=enemy.facing)))
    return known[2]


#: :func:`_moved_entry`'s answers, with the entry and the enemy they were made from.
_MOVED: Kept[tuple[int, int], tuple[Combatant, Enemy, Combatant]] = Kept(1 << 12)


def targets_number(combat: CombatModule, view: CombatView, side: str) -> int:
    """A number standing for what every enemy of ``side``'s ships reads as its targets (:func:`kept_aims`): each ship
    of another side (its combat entry and card), the map, the options, the module and its turning penalty; worked out
    once for all
    of them (:class:`~vectorwar.memo.Numbers`)."""
    targets = [c for c in view.ships if c.side != side]
    held = (combat, view.map, view.options, *[view.cards[c.id] for c in targets])
    return _TARGETS.number((*map(id, held), view.penalty_per_hexside, *map(entry_number, targets)), held)


#: :func:`targets_number`'s numbers.
_TARGETS = Numbers(1 << 12)

A = TypeVar("A")


def kept_aims(
    combat: CombatModule,
    view: CombatView,
    entry: Combatant,
    targets: int,
    work_out: Callable[[CombatModule, CombatView, str], A],
) -> A:
    """The greedy bot's aims of the enemy whose combat entry is ``entry`` on the side's ships (``work_out``'s answer),
    kept.

    They read the enemy's combat entry and card and its weapons' entries on each ship of another side, which depend
    on nothing but the shooter, that target and the map (the combat module's contract): a search's trials, each moving
    some ship, ask them again and again, so they are kept by those (``targets``: :func:`targets_number` of the
    enemy's side; its card by identity, kept beside the answer so that no other takes its identity while it is
    kept). Shared: read, never changed."""
    card = view.cards[entry.id]
    key = (targets, id(card), entry_number(entry), work_out)
    known = _AIMS.get(key)
    if known is None:
        known = _AIMS.keep(key, (card, _by_bearing(combat, view, entry, work_out)))
    return cast(A, known[1])


#: :func:`kept_aims`' answers by what they read, with the card read by identity.
_AIMS: Kept[tuple[object, ...], tuple[object, object]] = Kept(1 << 12)


def _by_bearing(
    combat: CombatModule, view: CombatView, entry: Combatant, work_out: Callable[[CombatModule, CombatView, str], A]
) -> A:
    """:func:`kept_aims`' answer where its targets have changed: the aims read the targets only through the enemy's
    bearing on them (what bears on which, :meth:`~vectorwar.combat.base.CombatModule.bearing`), so they are kept by
    that instead of where every target is. A search's trials move a target far from the enemy, whose bearing stays
    the same (every weapon on every target, or none): the one answer is found again, and what is kept by its identity
    (:func:`kept_rest`, :func:`kept_threat`) with it.

    Kept by the bearing, the enemy's combat entry, the targets' cards, the enemy's card, the map, the options and the
    module (by identity, kept beside the answer so that no other objects take their identities while it is kept) and
    the turning penalty: all that :func:`kept_threat` reads of the answer's key but the ship it scores (in its own
    key)."""
    enemy, cards = entry.id, view.cards
    held = (combat, view.map, view.options, cards[enemy], *[cards[c.id] for c in view.ships if c.side != entry.side])
    bearing = tuple(combat.bearing(view, enemy).items())
    key = (*map(id, held), view.penalty_per_hexside, entry_number(entry), bearing, work_out)
    known = _BY_BEARING.get(key)
    if known is None:
        known = _BY_BEARING.keep(key, (held, work_out(combat, view, enemy)))
    return cast(A, known[1])


#: :func:`_by_bearing`'s answers by what they read, with the objects read by identity.
_BY_BEARING: Kept[tuple[object, ...], tuple[tuple[object, ...], object]] = Kept(1 << 12)


#: What the greedy bot keeps of one enemy's aims (``bots.Aims``): the share its turning leaves, the most each weapon
#: can be worth, and per weapon its best worth on a target, the targets worth that and the next best below.
Aimed = tuple[float, dict[str, float], dict[str, tuple[float, set[str], float | None]]]
#: What an enemy's aims leave on the side's ships but the one moved (``bots.Aims.rest``): the share left by turning,
#: the weapons in order, each one's best worth on those ships, and whether every weapon is worth its most there already.
Rest = tuple[float, tuple[str, ...], dict[str, float], bool]


def rest_of(found: Aimed, moved: str) -> Rest:
    """The enemy's aims ``found`` on the side's ships but ``moved`` (:data:`Rest`)."""
    spoiled, most, tops = found
    rest: dict[str, float] = {}
    for weapon, (best, holders, lower) in tops.items():
        if moved not in holders or len(holders) > 1:
            rest[weapon] = best
        elif lower is not None:
            rest[weapon] = lower
    saturated = all(rest.get(weapon, -1.0) >= top for weapon, top in most.items())
    return spoiled, tuple(most), rest, saturated


def kept_rest(found: Aimed, moved: str) -> Rest:
    """:func:`rest_of` for kept aims (:func:`kept_aims`), kept by the enemy's entry (by identity, kept beside the
    answer) and ``moved``: a search's trials ask it of one enemy again and again, each moving some other ship. Shared:
    read, never changed."""
    key = (id(found), moved)
    known = _RESTS.get(key)
    if known is None or known[0] is not found:
        known = _RESTS.keep(key, (found, rest_of(found, moved)))
    return known[1]


#: :func:`kept_rest`'s answers, with the entry they were worked out for.
_RESTS: Kept[tuple[int, str], tuple[Aimed, Rest]] = Kept(1 << 12)


def kept_threat(found: Aimed, ship: int, end: Hex) -> float | None:
    """The greedy scorer's threat of an enemy on a ship at ``end`` (``bots.Scorer._their_guns``) for kept aims, if it
    is kept (:func:`keep_threat`), else ``None``: kept by the enemy's entry (by identity, kept beside the answer), the
    ship's combat entry (``ship``: its :func:`~.fight.entry_number`) and the end's numbers. The entry is kept by what
    it reads (:func:`kept_aims`: the enemy's combat entry and card, its bearing on the ships it may aim at and their
    cards, the map, the module), which with the ship's own entry is all that threat reads besides the end; a search's
    trials ask it of one enemy again and again, each moving some other ship."""
    known = _THREATS.get((id(found), ship, end.q, end.r))
    return None if known is None or known[0] is not found else known[1]


def keep_threat(found: Aimed, ship: int, end: Hex, threat: float) -> float:
    """``threat`` kept for :func:`kept_threat`'s arguments; returns it."""
    return _THREATS.keep((id(found), ship, end.q, end.r), (found, threat))[1]


#: :func:`kept_threat`'s answers, with the entry they were worked out for.
_THREATS: Kept[tuple[int, int, int, int], tuple[Aimed, float]] = Kept(1 << 14)
