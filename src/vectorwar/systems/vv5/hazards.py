"""Terrain that hurts: flying into an asteroid field (VV5 scenario 5, Pirates; Stasis Pod feature 1)."""

from __future__ import annotations

import itertools
from dataclasses import replace

from vectorwar.dice import Dice
from vectorwar.events import Event, Moved, Note, Rolled
from vectorwar.hexes import Hex
from vectorwar.rules import OptionSpec
from vectorwar.systems.vv5 import specials
from vectorwar.systems.vv5.combat import apply_damage
from vectorwar.systems.vv5.events import Crashed
from vectorwar.systems.vv5.movement import ASTEROID_FIELD
from vectorwar.systems.vv5.state import VV5State

#: When a ship rolls for an asteroid field (docs/rulings/vv5.md, *VV5 asteroid fields*).
ASTEROID_ROLL = OptionSpec(
    "asteroid_roll",
    "entering",
    "Scenario 5's asteroid field (and the Stasis Pod's): a ship rolls 2D6 against its velocity in a turn its "
    "move enters the field from outside ('entering', the text's 'any starship entering this area'), or in "
    "every turn its move passes through a field hex, inside as well ('every_turn')",
    ("entering", "every_turn"),
)


def rolls_for_field(move: Moved, field: frozenset[Hex] | set[Hex], mode: str) -> bool:
    """Whether ``move`` owes an asteroid-field roll: it steps into the field from outside (``entering``), or
    it passes through any field hex after its start (``every_turn``)."""
    hexes = [p.hex for p in move.path]
    if mode == "every_turn":
        return any(h in field for h in hexes[1:])
    return any(a not in field and b in field for a, b in itertools.pairwise(hexes))


def asteroid_fields(state: VV5State, moves: list[Moved], dice: Dice, events: list[Event]) -> VV5State:
    """A ship flying into an asteroid field rolls 2D6 against its velocity (VV5 scenario 5).

    Under the velocity it hits a rock and is destroyed; equal, a small one
    does 1D6 damage. One roll per turn however many field hexes it crosses;
    which moves roll is the ``asteroid_roll`` option's (:func:`rolls_for_field`).
    A scenario may add to the roll (Pirates: the pirate knows its home field).
    """
    field = state.map.hexes_with(ASTEROID_FIELD)
    if not field:
        return state
    mode = str(state.options.get(ASTEROID_ROLL.name, ASTEROID_ROLL.default))
    special = specials.special_for(state)
    for move in moves:
        ship = state.ship(move.ship)
        if not ship.active or not rolls_for_field(move, field, mode):
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
