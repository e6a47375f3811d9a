"""Terrain that hurts: flying through an asteroid field (VV5 scenario 5, Pirates; Stasis Pod feature 1)."""

from __future__ import annotations

from dataclasses import replace

from vectorwar.dice import Dice
from vectorwar.events import Event, Moved, Note, Rolled
from vectorwar.systems.vv5 import specials
from vectorwar.systems.vv5.combat import apply_damage
from vectorwar.systems.vv5.events import Crashed
from vectorwar.systems.vv5.movement import ASTEROID_FIELD
from vectorwar.systems.vv5.state import VV5State


def asteroid_fields(state: VV5State, moves: list[Moved], dice: Dice, events: list[Event]) -> VV5State:
    """A ship flying through an asteroid field rolls 2D6 against its velocity (VV5 scenario 5).

    Under the velocity it hits a rock and is destroyed; equal, a small one
    does 1D6 damage. One roll per turn however many field hexes it crosses.
    A scenario may add to the roll (Pirates: the pirate knows its home field).
    """
    field = state.map.hexes_with(ASTEROID_FIELD)
    if not field:
        return state
    special = specials.special_for(state)
    for move in moves:
        ship = state.ship(move.ship)
        if not ship.active or not any(p.hex in field for p in move.path[1:]):
            continue
        speed = ship.velocity.speed
        bonus = special.asteroid_field_bonus(state, ship) if special is not None else 0
        roll = dice.roll("2d6", f"{ship.id} flies through the asteroid field at velocity {speed}")
        events.append(Rolled.of(roll))
        if roll.total + bonus < speed:
            events.append(Note(f"{ship.id} strikes an asteroid"))
            ship = replace(ship, status="crashed")
            events.append(Crashed(ship.id, move.path[-1], ASTEROID_FIELD))
        elif roll.total + bonus == speed:
            damage = dice.roll("d6", f"a small rock hits {ship.id}")
            events.append(Rolled.of(damage))
            ship = apply_damage(ship, damage.total, dice, events, "a small rock")
        state = state.with_ship(ship)
    return state
