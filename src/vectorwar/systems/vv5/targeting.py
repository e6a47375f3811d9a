"""Whether a missile launch or a gun shot is allowed: range, arc, line of fire (VV5 Launch Missiles, Gunfire).

The checks return the reason a shot is refused, in words, or ``None``; the
order checks, the bots and the display all ask the same questions here.
"""

from __future__ import annotations

from vectorwar.systems.vv5.arcs import GUN_ARCS, MISSILE_ARC, in_arc
from vectorwar.systems.vv5.combat import gun_to_hit, hull_in_the_way, line_of_fire, missile_to_hit
from vectorwar.systems.vv5.state import Ship, VV5State


def launch_problem(state: VV5State, ship: Ship, target: Ship) -> str | None:
    distance = ship.hex.distance(target.hex)
    if missile_to_hit(distance) is None:
        return f"{target.id} is {distance} hexes away; missiles reach 15"
    if not in_arc(MISSILE_ARC, ship.hex, ship.facing, target.hex):
        return f"{target.id} is not in {ship.id}'s forward arc"
    if not line_of_fire(state.map, ship.hex, target.hex):
        return f"an asteroid or dense body blocks the line from {ship.hex} to {target.hex}"
    hull = hull_in_the_way(state, ship.hex, target)
    if hull is not None:
        return f"{hull.id} is in the way, and nothing can be fired through it"
    return None


def gun_problem(state: VV5State, ship: Ship, arc: str, target: Ship) -> str | None:
    distance = ship.hex.distance(target.hex)
    if gun_to_hit(distance) is None:
        return f"{target.id} is {distance} hexes away; guns reach 6"
    if not in_arc(GUN_ARCS[arc], ship.hex, ship.facing, target.hex):
        return f"{target.id} is not in the {arc} arc"
    if not line_of_fire(state.map, ship.hex, target.hex):
        return f"an asteroid or dense body blocks the line from {ship.hex} to {target.hex}"
    hull = hull_in_the_way(state, ship.hex, target)
    if hull is not None:
        return f"{hull.id} is in the way, and nothing can be fired through it"
    return None


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
