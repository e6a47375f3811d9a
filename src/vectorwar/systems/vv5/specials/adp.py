"""Automated defence platforms (VV5 scenarios 4, 6 and 9), played by the engine.

In the gunfire phase each platform's phasers shoot the nearest starship (the
largest of those equally near, then competitive dice): 2D6 at or over the
range hits, +4 against a target unable to accelerate, and a hit does 1D6
damage, noted with the other gun damage. In the movement phase a platform
with a working engine is shifted one hex in a random direction after it has
moved along its vector. Missiles launched at a platform are one step harder
to hit, its phasers shooting at them (docs/rulings/vv5.md).
"""

from __future__ import annotations

from dataclasses import replace

from vectorwar.dice import Dice
from vectorwar.events import Event, Moved, Note, Rolled
from vectorwar.hexes import Direction, Position
from vectorwar.systems.vv5.combat import line_of_fire, p_at_least
from vectorwar.systems.vv5.events import GunsFired
from vectorwar.systems.vv5.movement import is_solid, roll_off
from vectorwar.systems.vv5.state import GunDamage, Ship, VV5State

PHASER_RANGE = 12  # 2D6 cannot reach a higher number


def platforms(state: VV5State) -> list[Ship]:
    return [s for s in state.ships if s.active and s.kind == "adp"]


def armed_platforms(state: VV5State) -> list[Ship]:
    """The platforms in play with a phaser left to shoot."""
    return [s for s in platforms(state) if has_phasers(s)]


def in_sights(state: VV5State, adp: Ship) -> list[Ship]:
    """The starships ``adp`` would shoot at now: the nearest in phaser reach with a line of fire, the largest of
    those equally near; several only when equal in both (competitive dice then choose)."""
    targets = [
        s
        for s in state.ships
        if s.active
        and s.side not in state.automated
        and adp.hex.distance(s.hex) <= PHASER_RANGE
        and line_of_fire(state.map, adp.hex, s.hex)
    ]
    if not targets:
        return []
    nearest = min(adp.hex.distance(s.hex) for s in targets)
    close = [s for s in targets if adp.hex.distance(s.hex) == nearest]
    biggest = max(s.mass for s in close)
    return [s for s in close if s.mass == biggest]


def has_phasers(adp: Ship) -> bool:
    return any(m.guns.boxes for m in adp.mounts)


def phaser_bonus(target: Ship) -> int:
    """What a platform adds to its 2D6 against ``target``: +4 if it cannot accelerate."""
    return 0 if target.can_accelerate else 4


def phaser_hit(distance: int, target: Ship) -> float:
    """The chance a platform's phaser shot from ``distance`` hexes hits ``target``: 2D6 plus its bonus at or
    over the range."""
    return p_at_least(distance - phaser_bonus(target))


def _pick_target(state: VV5State, adp: Ship, dice: Dice, events: list[Event]) -> Ship | None:
    close = in_sights(state, adp)
    if len(close) <= 1:
        return close[0] if close else None
    return state.ship(roll_off([s.id for s in close], dice, events, f"{adp.id} chooses between equal targets"))


def platforms_fire(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    for adp in armed_platforms(state):
        target = _pick_target(state, adp, dice, events)
        if target is None:
            continue
        distance = adp.hex.distance(target.hex)
        bonus = phaser_bonus(target)
        roll = dice.roll("2d6", f"{adp.id} phasers at {target.id}")
        events.append(Rolled.of(roll))
        hit = roll.total + bonus >= distance
        damage = 0
        if hit:
            amount = dice.roll("d6", f"{adp.id} phaser damage to {target.id}")
            events.append(Rolled.of(amount))
            damage = amount.total
            state = replace(state, gun_damage=(*state.gun_damage, GunDamage(target.id, damage, adp.id)))
        events.append(GunsFired(adp.id, "phaser", 1, target.id, distance, distance, bonus, roll.total, hit, damage))
    return state


def platforms_drift(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    """Each platform with a working engine is shifted one hex at random."""
    for adp in platforms(state):
        if not adp.can_accelerate:
            continue
        roll = dice.roll("d6", f"{adp.id} random shift")
        events.append(Rolled.of(roll))
        to = adp.hex.neighbour(Direction(roll.total - 1))
        if not state.map.contains(to) or is_solid(state.map.terrain_at(to)) or state.occupant(to) is not None:
            events.append(Note(f"{adp.id} cannot shift to {to} and stays at {adp.hex}"))
            continue
        events.append(Moved(adp.id, "shift", (Position(adp.hex), Position(to)), adp.facing))
        state = state.with_ship(replace(adp, hex=to))
    return state
