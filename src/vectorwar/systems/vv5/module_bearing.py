"""What the VV5 combat module's weapons bring to bear, counted without odds: the VMS bot's hot path.

:meth:`VV5Combat.bearing_from` and :meth:`VV5Combat.bearing_on` answer from the board, no view built for a
ship moved; each must say what the contract's default says (tests/combat/test_bearing.py).
"""

from __future__ import annotations

from functools import lru_cache

from vectorwar.combat.base import CombatView
from vectorwar.hexes import Direction, Hex
from vectorwar.systems.vv5.combat import GUN_RANGE, MISSILE_RANGE, line_of_fire
from vectorwar.systems.vv5.module_card import _card
from vectorwar.systems.vv5.module_volley import mount_name
from vectorwar.systems.vv5.targeting import in_reach_by_offset, weapons_in_reach

MISSILES = "missiles"  # the launchers' name in arcs and shot options

#: The longest reach of any weapon (missiles), in doubled hex steps as ``bearing_on`` tests it.
_FARTHEST = 2 * max(GUN_RANGE, MISSILE_RANGE)


def bearing_from(view: CombatView, ship_id: str, at: Hex, facing: Direction) -> dict[tuple[str, str], int]:
    """``shot_options``' pieces without their odds, with ``ship_id`` at ``at`` facing ``facing``; each
    target's range and line of fire worked out once."""
    ship = view.ship(ship_id)
    if not ship.active:
        return {}
    card = _card(view, ship_id)
    arcs = frozenset(m.arc for m in card.mounts if m.guns.boxes > 0)
    reach = [(t.id, *weapons_in_reach(view.map, at, facing, t.hex, arcs)) for t in view.enemies_of(ship.side)]
    ready = card.missiles_ready
    out = {(MISSILES, t): ready for t, missile, _ in (reach if ready else ()) if missile}
    for m in card.mounts:
        if m.guns.boxes <= 0:
            continue
        for t, _, guns in reach:
            if m.arc in guns:
                key = (mount_name(m.arc), t)
                out[key] = out.get(key, 0) + m.guns.boxes
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
    card = _card(view, ship_id)
    arcs = frozenset(m.arc for m in card.mounts if m.guns.boxes > 0)
    missile, guns = weapons_in_reach(view.map, ship.hex, ship.facing, at, arcs)
    ready = card.missiles_ready
    out = {MISSILES: ready} if missile and ready else {}
    for m in card.mounts:
        if m.guns.boxes > 0 and m.arc in guns:
            name = mount_name(m.arc)
            out[name] = out.get(name, 0) + m.guns.boxes
    return out


def most_bearing_from(view: CombatView, ship_id: str, at: Hex) -> int:
    """The most weapons (the launchers and each gun mount's arc) that :func:`bearing_from` finds bearing from ``at``
    at any one facing: exactly that, each enemy's range and arcs by offset for every facing read from a table and
    its line of fire drawn once, only where some facing would reach it (a VMS bot asks this of every end hex)."""
    ship = view.ship(ship_id)
    if not ship.active:
        return 0
    card = _card(view, ship_id)
    arcs = frozenset(m.arc for m in card.mounts if m.guns.boxes > 0)
    ready = card.missiles_ready > 0
    q, r = at.q, at.r
    masks: tuple[int, ...] | None = None
    for t in view.enemies_of(ship.side):
        dq, dr = t.hex.q - q, t.hex.r - r
        if abs(dq) + abs(dr) + abs(dq + dr) > _FARTHEST:
            continue
        reach = _reach_by_facing(dq, dr, arcs, ready)
        if reach is None or not line_of_fire(view.map, at, t.hex):
            continue
        masks = reach if masks is None else tuple(a | b for a, b in zip(masks, reach, strict=True))
    return 0 if masks is None else max(m.bit_count() for m in masks)


@lru_cache(maxsize=1 << 14)
def _reach_by_facing(dq: int, dr: int, arcs: frozenset[str], ready: bool) -> tuple[int, ...] | None:
    """For each facing, the weapons that reach a target ``dq, dr`` away by range and arc, as bits (one for each
    of the gun ``arcs`` in their sorted order, one more for the launchers if ``ready``); ``None`` where none
    does at any facing."""
    bits = {arc: 1 << n for n, arc in enumerate(sorted(arcs))}
    launchers = 1 << len(bits) if ready else 0
    out = []
    for facing in Direction:
        missile, guns = in_reach_by_offset(dq, dr, facing, arcs)
        out.append(sum(bits[arc] for arc in guns) | (launchers if missile else 0))
    return tuple(out) if any(out) else None
