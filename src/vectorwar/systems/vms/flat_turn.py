"""The Minbari flat turn: the vector and the facing rotate together.

A ship with a flat turn cost on its sheet may turn its vector in 60-degree
steps, paying the cost per hexside at the speed of the vector *after* this
turn's thrust (two recorded directions are added together). It moves along
the unturned vector first; the turned vector and facing are what it has next
turn. The text's war cruiser at A=5, accelerating to 6 and turning once:

>>> sharlin = Design.model_validate({"name": "Sharlin", "ship_class": "capital", "thrust": 24,
...     "accel_cost": 5, "pivot_cost": "3+3", "flat_turn_cost": "1", "thrusters": [{"side": s, "rating": 12}
...     for s in ("forward", "aft", "port", "starboard")]})
>>> turn = flat_turn(sharlin, Velocity.parse("A=6"), Direction.A, 1)
>>> turn.cost, str(turn.moves_on), str(turn.next_velocity), turn.next_facing
(6, 'A=6', 'B=6', <Direction.B: 1>)
"""

from __future__ import annotations

from dataclasses import dataclass

from vectorwar.errors import IllegalOrderError
from vectorwar.hexes import Direction
from vectorwar.memo import Kept
from vectorwar.systems.vms.ships import Design
from vectorwar.vectors import Velocity

RULE = "VMS Minbari Movement"


def rotated(velocity: Velocity, hexsides: int) -> Velocity:
    """``velocity`` turned ``hexsides`` x 60 degrees clockwise (the vertical part is kept)."""
    out = Velocity(0, 0, velocity.dz)
    for direction, n in velocity.components().items():
        out += Velocity.toward(direction.turned(hexsides), n)
    return out


def recorded_speed(velocity: Velocity) -> int:
    """The speed the text prices a flat turn at: the recorded numbers added together."""
    return sum(velocity.components().values())


@dataclass(frozen=True, slots=True)
class FlatTurn:
    """A flat turn worked out in the text's order (steps 1-5)."""

    hexsides: int
    cost: int
    moves_on: Velocity
    next_velocity: Velocity
    next_facing: Direction


def flat_turn(design: Design, new_velocity: Velocity, facing: Direction, hexsides: int) -> FlatTurn:
    """Price and apply a flat turn of ``hexsides`` (signed, + clockwise).

    ``new_velocity`` is the vector after this turn's thrust (step 1) and
    ``facing`` the facing the ship ends its ordinary rotation on.
    """
    if hexsides == 0:
        return FlatTurn(0, 0, new_velocity, new_velocity, facing)
    if design.flat_turn_cost is None:
        raise IllegalOrderError(f"flat turn {hexsides:+d}", f"{design.name} has no flat turn ability", RULE)
    speed, turned = _turned_vector(new_velocity, hexsides)
    if speed == 0:
        # A zero vector has no direction to turn; allowing it would make the
        # flat turn a free pivot (ruling *Flat turn at speed 0*).
        raise IllegalOrderError(f"flat turn {hexsides:+d}", "a flat turn needs a vector to turn (speed 0)", RULE)
    cost = design.flat_turn_cost.cost(speed) * abs(hexsides)
    return FlatTurn(hexsides, cost, new_velocity, turned, facing.turned(hexsides))


def _turned_vector(velocity: Velocity, hexsides: int) -> tuple[int, Velocity]:
    """:func:`recorded_speed` and :func:`rotated` of a vector (asked for every flat-turn plot of every menu), in whole
    numbers: the recorded numbers of two neighbouring directions add up to the hex distance the vector covers, and a
    sixth of a turn clockwise takes axial ``(q, r)`` to ``(-r, q + r)`` (``tests/vms/test_flat_turn_and_ships.py``
    holds both to the recorded form). Kept by the numbers in a plain dictionary."""
    key = (velocity.dq, velocity.dr, velocity.dz, hexsides)
    found = _TURNED.get(key)
    if found is None:
        q, r = velocity.dq, velocity.dr
        for _ in range(hexsides % 6):
            q, r = -r, q + r
        found = _TURNED.keep(key, (velocity.speed, Velocity(q, r, velocity.dz)))
    return found


_TURNED: Kept[tuple[int, int, int, int], tuple[int, Velocity]] = Kept(1 << 12)
