"""What the VV5 combat module's weapons bring to bear, counted without odds: the VMS bot's hot path.

:meth:`VV5Combat.bearing_from` and :meth:`VV5Combat.bearing_on` answer from the board, no view built for a
ship moved; each must say what the contract's default says (tests/combat/test_bearing.py).
:meth:`VV5Combat.most_bearing_from` is exact: the most :func:`bearing_from` finds at any one facing.
"""

from __future__ import annotations

from functools import cache, lru_cache
from operator import or_
from typing import NamedTuple

from vectorwar.combat.base import CombatView
from vectorwar.hexes import Direction, Hex
from vectorwar.memo import Kept, last_answer
from vectorwar.systems.vv5.arcs import GUN_ARCS
from vectorwar.systems.vv5.combat import GUN_RANGE, MISSILE_RANGE, line_of_fire
from vectorwar.systems.vv5.module_card import VV5Card, vv5_card
from vectorwar.systems.vv5.module_volley import mount_name
from vectorwar.systems.vv5.movement import is_solid
from vectorwar.systems.vv5.targeting import offsets_in_reach

MISSILES = "missiles"  # the launchers' name in arcs and shot options

#: The longest reach of any weapon (missiles), in doubled hex steps as ``bearing_on`` tests it.
_FARTHEST = 2 * max(GUN_RANGE, MISSILE_RANGE)


class _Shooter(NamedTuple):
    """What the bearing look-ups read of a shooter besides where it is asked about: the same for every candidate
    end of a VMS bot's decision, all asked of one view."""

    arcs: frozenset[str]  # the arcs of its mounts with working guns
    ready: int  # missiles ready to launch
    guns: tuple[tuple[str, str, int, int], ...]  # each mount with working guns: its arc, name, guns and arc's bit
    enemies: tuple[tuple[str, int, int, Hex], ...]  # each enemy in play: its id, axial numbers and hex
    clear: bool  # nothing on the board blocks a line of fire
    reach: dict[tuple[int, int], tuple[int, int]]  # _reach_table's for its arcs, and launchers if any are ready


@last_answer
def _shooters(view: CombatView) -> dict[str, _Shooter]:
    """The shooters of ``view`` by id, filled as asked (the last view's kept)."""
    return {}


def _shooter(view: CombatView, ship_id: str) -> _Shooter:
    known = _shooters(view)
    found = known.get(ship_id)
    if found is None:
        found = known[ship_id] = _read_shooter(view, ship_id)
    return found


def _read_shooter(view: CombatView, ship_id: str) -> _Shooter:
    ship = view.ship(ship_id)
    clear = not view.map.hexes_where(is_solid)
    if not ship.active:
        return _Shooter(frozenset(), 0, (), (), clear, {})  # out of the fight: nothing bears
    arcs, ready, guns, reach = _armed(vv5_card(view, ship_id))
    enemies = tuple([(t.id, t.hex.q, t.hex.r, t.hex) for t in view.enemies_of(ship.side)])
    return _Shooter(arcs, ready, guns, enemies, clear, reach)


def _armed(card: VV5Card) -> tuple[frozenset[str], int, tuple[tuple[str, str, int, int], ...], _Reach]:
    """What a shooter's card arms it with (:class:`_Shooter`'s arcs, missiles ready, guns and reach table): kept by
    the card's identity (the card kept beside it), as a ship's card stays the same object from one view to the next
    until it is damaged."""
    known = _ARMED.get(id(card))
    if known is not None and known[0] is card:
        return known[1]
    guns = tuple((m.arc, mount_name(m.arc), m.guns.boxes, _WEAPON_BIT[m.arc]) for m in card.mounts if m.guns.boxes > 0)
    arcs = frozenset(arc for arc, _, _, _ in guns)
    ready = card.missiles_ready
    return _ARMED.keep(id(card), (card, (arcs, ready, guns, _reach_table(arcs, ready > 0))))[1]


#: A :func:`_reach_table`.
_Reach = dict[tuple[int, int], tuple[int, int]]
#: :func:`_armed`'s answers by the card's identity, with the card.
_ARMED: Kept[int, tuple[VV5Card, tuple[frozenset[str], int, tuple[tuple[str, str, int, int], ...], _Reach]]] = Kept(
    1 << 10
)


def bearing_from(view: CombatView, ship_id: str, at: Hex, facing: Direction) -> dict[tuple[str, str], int]:
    """``shot_options``' pieces without their odds, with ``ship_id`` at ``at`` facing ``facing``; each
    target's range and arcs looked up by offset in the shooter's table (:func:`_reach_table`) and its line of fire
    drawn once, only where a weapon reaches."""
    _, ready, guns, enemies, clear, table = _shooter(view, ship_id)
    q, r = at.q, at.r
    shift = _FIELD * facing
    reach: list[tuple[str, int]] = []
    for t, tq, tr, where in enemies:
        found = table.get((tq - q, tr - r))
        if found is None:
            continue
        bits = found[0] >> shift & _FIELD_MASK  # the weapons reaching it at this facing: none, if 0
        if bits and (clear or line_of_fire(view.map, at, where)):
            reach.append((t, bits))
    out = {(MISSILES, t): ready for t, bits in reach if bits & _LAUNCHERS}
    for _, name, boxes, bit in guns:
        for t, bits in reach:
            if bits & bit:
                key = (name, t)
                out[key] = out.get(key, 0) + boxes
    return out


def bearing_on(view: CombatView, ship_id: str, target_id: str, at: Hex) -> dict[str, int]:
    """:func:`bearing_from`'s entries for the one target ``target_id`` moved to ``at``, the view left as it is
    (a VMS bot asks this of every enemy for every candidate end): a target beyond the missiles' reach, the
    longest, has nothing on it."""
    ship = view.ship(ship_id)
    dq, dr = at.q - ship.hex.q, at.r - ship.hex.r
    if abs(dq) + abs(dr) + abs(dq + dr) > _FARTHEST or not ship.active:
        return {}
    target = view.ship(target_id)
    if target.side == ship.side or not target.active:
        return {}
    _, ready, guns, _, clear, table = _shooter(view, ship_id)
    found = table.get((dq, dr))
    bits = 0 if found is None else found[0] >> _FIELD * ship.facing & _FIELD_MASK
    if not bits or not (clear or line_of_fire(view.map, ship.hex, at)):
        return {}
    out = {MISSILES: ready} if bits & _LAUNCHERS else {}
    for _, name, boxes, bit in guns:
        if bits & bit:
            out[name] = out.get(name, 0) + boxes
    return out


def most_bearing_from(view: CombatView, ship_id: str, at: Hex) -> int:
    """The most weapons (the launchers and each gun mount's arc) that :func:`bearing_from` finds bearing from ``at``
    at any one facing: exactly that, each enemy's range and arcs by offset for every facing read from a table and
    its line of fire drawn only where some facing would reach it."""
    _, _, _, enemies, clear, table = _shooter(view, ship_id)
    q, r = at.q, at.r
    masks = -1
    most = 0
    for _, tq, tr, where in enemies:
        reach = table.get((tq - q, tr - r))
        if reach is None or not (clear or line_of_fire(view.map, at, where)):
            continue
        if masks < 0:
            masks, most = reach
        else:
            masks |= reach[0]
            most = _most(masks)
    return most


#: Bits a facing's field takes in a packed mask (:func:`_weapon_reach`): one for each gun arc and the launchers.
_FIELD = 8
#: Each weapon's bit in a facing's field: the gun arcs in their order, then the launchers (``None``).
_WEAPON_BIT: dict[str | None, int] = {arc: 1 << n for n, arc in enumerate([*GUN_ARCS, None])}
if len(_WEAPON_BIT) > _FIELD:
    raise ValueError(f"{len(_WEAPON_BIT)} weapons do not fit a facing's field of {_FIELD} bits")
#: One facing's field, shifted down to the lowest bits; and the launchers' bit in it.
_FIELD_MASK = (1 << _FIELD) - 1
_LAUNCHERS = _WEAPON_BIT[None]


@cache
def _weapon_reach(arc: str | None) -> dict[tuple[int, int], int]:
    """Offset ``(dq, dr)`` -> the weapon's bit (:data:`_WEAPON_BIT`; ``arc`` ``None``: the launchers) in the field of
    each facing from which it reaches a target that far away by range and arc, the facings' fields packed in one
    whole number (:data:`_FIELD` bits each, in ``Direction``'s order); only the offsets it reaches at some facing."""
    bit = _WEAPON_BIT[arc]
    found: dict[tuple[int, int], int] = {}
    for i, facing in enumerate(Direction):
        for offset in offsets_in_reach(arc, facing):
            found[offset] = found.get(offset, 0) | bit << (_FIELD * i)
    return found


@lru_cache(maxsize=1 << 12)
def _most(masks: int) -> int:
    """The most weapons one facing's field of the packed ``masks`` holds (:func:`_weapon_reach`)."""
    return max(((masks >> (_FIELD * i)) & ((1 << _FIELD) - 1)).bit_count() for i in range(len(Direction)))


@lru_cache(maxsize=64)
def _reach_table(arcs: frozenset[str], ready: bool) -> dict[tuple[int, int], tuple[int, int]]:
    """Offset ``(dq, dr)`` -> the weapons that reach a target that far away by range and arc at each facing, packed
    as :func:`_weapon_reach` packs them (the gun ``arcs``, and the launchers if ``ready``), and the most at any one
    facing; only the offsets some weapon reaches at some facing. Built once for each set of weapons (a design's, or
    what its damage leaves: a few a game) from each weapon's bits at every offset any weapon reaches, in one order
    (:func:`_aligned`), joined a weapon at a time by ``map`` (a loop over the offsets of each weapon costs thrice
    the time, and a damaged ship asks for a new table)."""
    weapons = [*arcs, *([None] if ready else [])]
    if not weapons:
        return {}
    packed = _aligned(weapons[0])
    for weapon in weapons[1:]:
        packed = tuple(map(or_, packed, _aligned(weapon)))
    return {offset: _entry(bits) for offset, bits in zip(_offsets(), packed, strict=True) if bits}


@cache
def _aligned(weapon: str | None) -> tuple[int, ...]:
    """:func:`_weapon_reach` of ``weapon`` at each offset of :func:`_offsets`, in their order (0 where it reaches no
    target)."""
    reach = _weapon_reach(weapon)
    return tuple(reach.get(offset, 0) for offset in _offsets())


@lru_cache(maxsize=1 << 12)
def _entry(bits: int) -> tuple[int, int]:
    """A :func:`_reach_table` entry: the packed ``bits`` and the most of them at any one facing (one tuple for each,
    shared by every table)."""
    return bits, _most(bits)


@cache
def _offsets() -> tuple[tuple[int, int], ...]:
    """Every offset any weapon reaches at some facing, in one order (the guns' arcs, then the launchers'; each first
    met)."""
    return tuple(dict.fromkeys(offset for weapon in [*GUN_ARCS, None] for offset in _weapon_reach(weapon)))
