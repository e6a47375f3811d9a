"""Resolving one gun shot (VV5 Gunfire): the to-hit roll, doubles, rapid fire, firing through hexes.

Damage is only noted here; it is rolled for in the Gun Damage phase, after
every side has fired.
"""

from __future__ import annotations

from dataclasses import replace

from vectorwar.dice import Dice
from vectorwar.events import Event, Note, Rolled
from vectorwar.hexes import Position
from vectorwar.systems.vv5 import crews
from vectorwar.systems.vv5.combat import gun_modifier, gun_to_hit, ships_in_the_way
from vectorwar.systems.vv5.events import Deflected, GunsFired
from vectorwar.systems.vv5.orders import Shot
from vectorwar.systems.vv5.state import GunDamage, VV5State


def fire_shot(state: VV5State, shot: Shot, dice: Dice, events: list[Event]) -> VV5State:
    ship = state.ship(shot.ship)
    target = state.ship(shot.target)
    if not target.active:
        events.append(Note(f"{ship.id}'s shot at {target.id} is lost: it is {target.status}"))
        return state
    distance = ship.hex.distance(target.hex)
    need = gun_to_hit(distance)
    if need is None:  # pragma: no cover - checked
        raise ValueError("out of gun range")
    modifier = gun_modifier(shot.guns, target) + crews.attack_bonus(state, ship)
    roll = dice.roll("2d6", f"{ship.id} {shot.mount} guns at {target.id}")
    events.append(Rolled.of(roll))
    hit = roll.total + modifier >= need
    damage = (shot.guns if roll.faces[0] == roll.faces[1] else 1) if hit else 0
    events.append(
        GunsFired(ship.id, shot.mount, shot.guns, target.id, distance, need, modifier, roll.total, hit, damage)
    )
    if not hit:
        return state
    victim = target
    for blocker in ships_in_the_way(state, ship.hex, target.hex, ship.id, target.id):
        check = dice.roll("d6", f"does the shot at {target.id} hit {blocker.id} in the way")
        events.append(Rolled.of(check))
        if check.total == 6:
            victim = blocker
            events.append(Deflected(blocker.id, target.id, Position(blocker.hex)))
            break
    return replace(state, gun_damage=(*state.gun_damage, GunDamage(victim.id, damage, ship.id)))
