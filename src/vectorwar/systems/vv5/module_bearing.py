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
from vectorwar.systems.vv5.movement import is_solid
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


#: What :func:`most_bearing_from` reads of a shooter besides the end hex, for the last view and shooter asked
#: about (the view kept here, so its identity is not reused): its gun arcs, whether a launcher is ready, each
#: enemy in play (its axial numbers and hex) and whether the board has anything to block a line of fire. A VMS
#: bot asks it of every end hex of a decision, on one view.
_Shooter = tuple[frozenset[str], bool, tuple[tuple[int, int, Hex], ...], bool]
_last_shooter: list[tuple[CombatView, str, _Shooter]] = []


def most_bearing_from(view: CombatView, ship_id: str, at: Hex) -> int:
    """The most weapons (the launchers and each gun mount's arc) that :func:`bearing_from` finds bearing from ``at``
    at any one facing: exactly that, each enemy's range and arcs by offset for every facing read from a table and
    its line of fire drawn only where some facing would reach it."""
    last = _last_shooter[0] if _last_shooter else None
    if last is not None and last[0] is view and last[1] == ship_id:
        shooter = last[2]
    else:
        shooter = _shooter(view, ship_id)
        _last_shooter[:] = [(view, ship_id, shooter)]  # swapped in one step, so threads never mix two views
    arcs, ready, enemies, clear = shooter
    q, r = at.q, at.r
    masks: tuple[int, ...] | None = None
    most = 0
    for tq, tr, where in enemies:
        dq, dr = tq - q, tr - r
        if abs(dq) + abs(dr) + abs(dq + dr) > _FARTHEST:
            continue
        reach = _reach_by_facing(dq, dr, arcs, ready)
        if reach is None or not (clear or line_of_fire(view.map, at, where)):
            continue
        if masks is None:
            masks, most = reach
        else:
            masks = tuple(a | b for a, b in zip(masks, reach[0], strict=True))
            most = max(m.bit_count() for m in masks)
    return most


def _shooter(view: CombatView, ship_id: str) -> _Shooter:
    ship = view.ship(ship_id)
    if not ship.active:
        return frozenset(), False, (), True
    card = _card(view, ship_id)
    arcs = frozenset(m.arc for m in card.mounts if m.guns.boxes > 0)
    enemies = tuple((t.hex.q, t.hex.r, t.hex) for t in view.enemies_of(ship.side))
    return arcs, card.missiles_ready > 0, enemies, not view.map.hexes_where(is_solid)


@lru_cache(maxsize=1 << 14)
def _reach_by_facing(dq: int, dr: int, arcs: frozenset[str], ready: bool) -> tuple[tuple[int, ...], int] | None:
    """For each facing, the weapons that reach a target ``dq, dr`` away by range and arc, as bits (one for each
    of the gun ``arcs`` in their sorted order, one more for the launchers if ``ready``), and the most at any
    facing; ``None`` where none does at any facing."""
    bits = {arc: 1 << n for n, arc in enumerate(sorted(arcs))}
    launchers = 1 << len(bits) if ready else 0
    out = []
    for facing in Direction:
        missile, guns = in_reach_by_offset(dq, dr, facing, arcs)
        out.append(sum(bits[arc] for arc in guns) | (launchers if missile else 0))
    return (tuple(out), max(m.bit_count() for m in out)) if any(out) else None
