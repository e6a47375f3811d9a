"""Whether a missile launch or a gun shot is allowed: range, arc, line of fire (VV5 Launch Missiles, Gunfire).

The checks return the reason a shot is refused, in words, or ``None``; the
order checks, the bots and the display all ask the same questions here.
"""

from __future__ import annotations

from functools import lru_cache

from vectorwar.hexes import Arc, Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.systems.vv5.arcs import GUN_ARCS, MISSILE_ARC, in_arc
from vectorwar.systems.vv5.combat import (
    GUN_RANGE,
    MISSILE_RANGE,
    gun_to_hit,
    huge_ships,
    hull_in_the_way,
    line_of_fire,
    missile_to_hit,
)
from vectorwar.systems.vv5.state import Ship, VV5State


def _reach(arc: Arc, reach: int) -> dict[Direction, frozenset[tuple[int, int]]]:
    """For each heading, the offsets ``(dq, dr)`` from 1 to ``reach`` hexes away inside ``arc``: range and arc
    are the same wherever the ship is, so a check looks its offset up."""
    origin = Hex(0, 0)
    return {
        facing: frozenset((h.q, h.r) for h in origin.within(reach) if in_arc(arc, origin, facing, h))
        for facing in Direction
    }


#: Where a launch reaches (the missile table's range, the forward arc) and each gun mount's shot (the gun
#: table's range, the mount's arc), by heading, as offsets.
_MISSILE_REACH = _reach(MISSILE_ARC, MISSILE_RANGE)
_GUN_REACH = {name: _reach(arc, GUN_RANGE) for name, arc in GUN_ARCS.items()}


def offsets_in_reach(arc: str | None, facing: Direction) -> frozenset[tuple[int, int]]:
    """The offsets ``(dq, dr)`` a launch (``arc`` ``None``) or a gun of mount ``arc`` reaches by range and arc
    from a ship heading ``facing``."""
    return _MISSILE_REACH[facing] if arc is None else _GUN_REACH[arc][facing]


def missile_in_reach(hex_map: HexMap, at: Hex, facing: Direction, target: Hex) -> bool:
    """:func:`missile_reach` with no words (bots ask it for every candidate move)."""
    return (target.q - at.q, target.r - at.r) in _MISSILE_REACH[facing] and line_of_fire(hex_map, at, target)


def gun_in_reach(hex_map: HexMap, arc: str, at: Hex, facing: Direction, target: Hex) -> bool:
    """:func:`gun_reach` with no words (bots ask it for every candidate move)."""
    return (target.q - at.q, target.r - at.r) in _GUN_REACH[arc][facing] and line_of_fire(hex_map, at, target)


def weapons_in_reach(
    hex_map: HexMap, at: Hex, facing: Direction, target: Hex, arcs: frozenset[str]
) -> tuple[bool, frozenset[str]]:
    """Whether a launch from ``at`` reaches ``target``, and which of the gun ``arcs`` do: the answers of
    :func:`missile_in_reach` and :func:`gun_in_reach` for every weapon at once (a VMS bot asks this for every
    candidate end and every target, so range and arcs are looked up by the offset and the line of fire is
    drawn once, only where a weapon would otherwise bear)."""
    missile, guns = in_reach_by_offset(target.q - at.q, target.r - at.r, facing, arcs)
    if (missile or guns) and not line_of_fire(hex_map, at, target):
        return False, frozenset()
    return missile, guns


@lru_cache(maxsize=1 << 16)
def in_reach_by_offset(dq: int, dr: int, facing: Direction, arcs: frozenset[str]) -> tuple[bool, frozenset[str]]:
    """Range and arcs alone, for a target ``dq, dr`` away: the same wherever the ship is (looked up in the offsets
    each weapon reaches, so a fresh process fills this quickly)."""
    offset = (dq, dr)
    return offset in _MISSILE_REACH[facing], frozenset(a for a in arcs if offset in _GUN_REACH[a][facing])


def missile_reach(hex_map: HexMap, ship_id: str, at: Hex, facing: Direction, target_id: str, target: Hex) -> str | None:
    """Range, forward arc and line of fire for a launch from ``at``: the board's part of the check."""
    if missile_in_reach(hex_map, at, facing, target):
        return None
    distance = at.distance(target)
    if missile_to_hit(distance) is None:
        return f"{target_id} is {distance} hexes away; missiles reach {MISSILE_RANGE}"
    if not in_arc(MISSILE_ARC, at, facing, target):
        return f"{target_id} is not in {ship_id}'s forward arc"
    # Range and arc allow it, so the line of fire is what the check without words refused.
    return f"an asteroid or dense body blocks the line from {at} to {target}"


def gun_reach(hex_map: HexMap, arc: str, at: Hex, facing: Direction, target_id: str, target: Hex) -> str | None:
    """Range, the mount's arc and line of fire for a shot from ``at``: the board's part of the check."""
    if gun_in_reach(hex_map, arc, at, facing, target):
        return None
    distance = at.distance(target)
    if gun_to_hit(distance) is None:
        return f"{target_id} is {distance} hexes away; guns reach {GUN_RANGE}"
    if not in_arc(GUN_ARCS[arc], at, facing, target):
        return f"{target_id} is not in the {arc} arc"
    # Range and arc allow it, so the line of fire is what the check without words refused.
    return f"an asteroid or dense body blocks the line from {at} to {target}"


def _hull_problem(state: VV5State, ship: Ship, target: Ship) -> str | None:
    hull = hull_in_the_way(state, ship.hex, target)
    if hull is not None:
        return f"{hull.id} is in the way, and nothing can be fired through it"
    return None


def launch_problem(state: VV5State, ship: Ship, target: Ship) -> str | None:
    return missile_reach(state.map, ship.id, ship.hex, ship.facing, target.id, target.hex) or _hull_problem(
        state, ship, target
    )


def gun_problem(state: VV5State, ship: Ship, arc: str, target: Ship) -> str | None:
    return gun_reach(state.map, arc, ship.hex, ship.facing, target.id, target.hex) or _hull_problem(state, ship, target)


def legal_launch_targets(state: VV5State, side: str) -> list[tuple[Ship, Ship]]:
    return [
        (ship, target)
        for ship in state.ships_of(side)
        if ship.missiles_ready
        for target in state.enemies_of(side)
        if launch_problem(state, ship, target) is None
    ]


def legal_gun_targets(state: VV5State, side: str) -> list[tuple[Ship, str, Ship]]:
    return [
        (ship, mount.arc, target)
        for ship in state.ships_of(side)
        for mount in ship.mounts
        if mount.guns.boxes > 0
        for target in state.enemies_of(side)
        if gun_problem(state, ship, mount.arc, target) is None
    ]


def launch_allowed(state: VV5State, ship: Ship, target: Ship) -> bool:
    """:func:`launch_problem` is ``None``: the same checks without the words (bots ask for every pair)."""
    return (
        missile_in_reach(state.map, ship.hex, ship.facing, target.hex)
        and hull_in_the_way(state, ship.hex, target) is None
    )


def shot_allowed(state: VV5State, ship: Ship, arc: str, target: Ship) -> bool:
    """:func:`gun_problem` is ``None``: the same checks without the words (bots ask for every mount and target)."""
    return (
        gun_in_reach(state.map, arc, ship.hex, ship.facing, target.hex)
        and hull_in_the_way(state, ship.hex, target) is None
    )


def can_launch(state: VV5State, side: str) -> bool:
    """Has ``side`` any legal launch (:func:`legal_launch_targets` not empty)?

    Kept with the state's roster answers: the answer depends on the ships and the board alone, and a turn
    asks it of each phase's copy of the state.
    """
    asked = state.kept_answers()
    key = ("can launch", side, True)
    found: bool | None = asked.get(key)
    if found is None:
        found = asked[key] = _any_launch(state, side)
    return found


def _any_launch(state: VV5State, side: str) -> bool:
    """:func:`launch_allowed` for some ship of ``side`` and target (the huge ships in the way looked for only
    where the board has any)."""
    hex_map, hulls = state.map, bool(huge_ships(state))
    for ship in state.ships_of(side):
        if not ship.missiles_ready:
            continue
        for target in state.enemies_of(side):
            if missile_in_reach(hex_map, ship.hex, ship.facing, target.hex) and (
                not hulls or hull_in_the_way(state, ship.hex, target) is None
            ):
                return True
    return False


def can_fire_guns(state: VV5State, side: str) -> bool:
    """Has ``side`` any legal gun shot (:func:`legal_gun_targets` not empty)? Kept as :func:`can_launch` is."""
    asked = state.kept_answers()
    key = ("can fire", side, True)
    found: bool | None = asked.get(key)
    if found is None:
        found = asked[key] = _any_shot(state, side)
    return found


def _any_shot(state: VV5State, side: str) -> bool:
    """:func:`shot_allowed` for some working mount of ``side`` and target, as :func:`_any_launch`."""
    hex_map, hulls = state.map, bool(huge_ships(state))
    enemies = state.enemies_of(side)
    for ship in state.ships_of(side):
        for mount in ship.mounts:
            if mount.guns.boxes <= 0:
                continue
            for target in enemies:
                if gun_in_reach(hex_map, mount.arc, ship.hex, ship.facing, target.hex) and (
                    not hulls or hull_in_the_way(state, ship.hex, target) is None
                ):
                    return True
    return False
