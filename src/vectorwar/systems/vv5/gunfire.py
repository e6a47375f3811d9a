"""Resolving one gun shot (VV5 Gunfire): the to-hit roll, doubles, rapid fire, firing through hexes.

Damage is only noted here; it is rolled for in the Gun Damage phase, after
every side has fired.
"""

from __future__ import annotations

from vectorwar.dice import Dice
from vectorwar.events import Event, Note, Rolled
from vectorwar.odds import Modifier, Odds
from vectorwar.roster import replace_fields
from vectorwar.systems.vv5 import crews
from vectorwar.systems.vv5.arcs import CODE_OF
from vectorwar.systems.vv5.combat import (
    GUN_RANGE,
    MISSILE_RANGE,
    RULE_MISSILES,
    SEVERAL_TARGETS,
    deflect,
    gun_modifier,
    gun_odds,
    gun_to_hit,
    guns_facing,
    missile_odds,
    missile_to_hit,
    on_track,
    ships_in_the_way,
)
from vectorwar.systems.vv5.events import GunsFired
from vectorwar.systems.vv5.movement import turn_allowance
from vectorwar.systems.vv5.orders import Shot
from vectorwar.systems.vv5.specials.adp import has_phasers
from vectorwar.systems.vv5.state import GunDamage, Ship, VV5State


def crew_modifiers(state: VV5State, ship: Ship, sign: int) -> tuple[Modifier, ...]:
    """The crew's bonus as a named modifier: ``sign`` 1 adds it to a roll, -1 takes it off a number."""
    bonus = crews.attack_bonus(state, ship)
    if not bonus:
        return ()
    words = f"{ship.id}'s rookie crew" if bonus < 0 else f"{ship.id}'s veteran or ace crew"
    return (Modifier(words, sign * bonus, crews.RULE_CREWS),)


def shot_odds(state: VV5State, shot: Shot) -> Odds:
    """The odds of a gun ``Shot``: :func:`fire_shot` rolls against the same numbers."""
    ship, target = state.ship(shot.ship), state.ship(shot.target)
    return gun_odds(ship, CODE_OF[shot.mount], shot.guns, target, crew_modifiers(state, ship, 1))


def launch_odds(state: VV5State, ship_id: str, target_id: str, spread: int) -> Odds:
    """The odds of one missile from ``ship_id`` at ``target_id``: the number the launch puts on the track.

    ``spread`` is what launching at several targets adds to each missile
    (:func:`~vectorwar.systems.vv5.combat.spread_adjustment`).
    """
    ship, target = state.ship(ship_id), state.ship(target_id)
    distance = ship.hex.distance(target.hex)
    found: list[Modifier] = []
    if distance > 1 and guns_facing(target, ship.hex):
        found.append(Modifier(f"{target.id}'s guns face the launch", 1, RULE_MISSILES))
    if target.kind == "adp" and has_phasers(target):
        found.append(Modifier(f"{target.id}'s phasers shoot at the missile", 1, RULE_MISSILES))
    if spread:
        found.append(Modifier("launching at several targets this turn", spread, SEVERAL_TARGETS.name))
    # The target's burn this turn comes before the roll: the odds run from no burn to its most.
    most_burn = turn_allowance(target)[1]
    return missile_odds(ship, target, (*found, *crew_modifiers(state, ship, -1)), most_burn)


def launch_number(state: VV5State, ship_id: str, target_id: str, spread: int) -> tuple[int, int]:
    """The range of a launch and the space its missile takes on the incoming track: :func:`launch_odds`'
    ``range`` and ``need``, its modifiers summed without the odds worked out (every launch resolved asks)."""
    ship, target = state.ship(ship_id), state.ship(target_id)
    distance = ship.hex.distance(target.hex)
    base = missile_to_hit(distance)
    if base is None:
        raise ValueError(f"{target.id} is {distance} hexes away; missiles reach {MISSILE_RANGE}")
    facing = distance > 1 and guns_facing(target, ship.hex)
    phasers = target.kind == "adp" and has_phasers(target)
    raw = base + int(facing) + int(phasers) + spread - crews.attack_bonus(state, ship)
    return distance, on_track(raw)


def fire_shot(state: VV5State, shot: Shot, dice: Dice, events: list[Event]) -> VV5State:
    ship = state.ship(shot.ship)
    target = state.ship(shot.target)
    if not target.active:
        events.append(Note(f"{ship.id}'s shot at {target.id} is lost: it is {target.status}"))
        return state
    # :func:`shot_odds`' range, number and modifier, summed without the odds worked out.
    distance = ship.hex.distance(target.hex)
    need = gun_to_hit(distance)
    if need is None:
        raise ValueError(f"{target.id} is {distance} hexes away; guns reach {GUN_RANGE}")
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
    in_way = [(s.id, s.hex) for s in ships_in_the_way(state, ship.hex, target.hex, ship.id, target.id)]
    victim = deflect(target.id, in_way, dice, events)
    return replace_fields(state, gun_damage=(*state.gun_damage, GunDamage(victim, damage, ship.id)))
