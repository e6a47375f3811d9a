"""Rotation with momentum (Rotational System) and the advanced variant.

A large ship's rotation speed is a signed rate in hexsides per turn,
positive clockwise. Rotational thrust changes the rate, each hexside/turn
costing the pivot cost's start half when it speeds the rotation up and its
stop half when it slows it down; the rate is then carried from turn to turn
and the facing moves by it every turn until stop thrust is spent.

>>> pivot = PivotCost(2, 3)
>>> rotation_cost(0, 1, pivot), rotation_cost(1, 0, pivot), rotation_cost(1, -1, pivot)
(2, 3, 5)
>>> facing_after(Direction.B, 1), weapon_penalty(1)
(<Direction.C: 2>, -2)

Over the class limit a ship takes 1d10 structure damage per extra hexside,
every turn it is over (rule 5):

>>> overspeed(2, 3), overspeed(None, 9)
(1, 0)

The advanced variant keeps the rate in rotation points instead, so a rate
can hold part of a hexside; the facing turns a hexside for each whole
start-cost's worth accumulated (the text's 10/15 example):

>>> ten = PivotCost(10, 10)
>>> spin = AdvancedRotation().thrust(15, ten)
>>> turned1, spin = spin.advance(ten); turned2, spin = spin.advance(ten)
>>> turned1, turned2
(1, 2)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Rolled
from vectorwar.hexes import Direction
from vectorwar.systems.vms.ships import Design, PivotCost

WEAPON_PENALTY_PER_HEXSIDE = -2
RULE_LIMITS = "VMS Rotational System 5"


def rotation_cost(speed: int, new_speed: int, pivot: PivotCost) -> int:
    """Rotation points to take a rate from ``speed`` to ``new_speed`` (hexsides/turn, + clockwise).

    Crossing zero is a stop followed by a start (the example's turn 4: one
    anticlockwise point's worth stops a clockwise rotation of 1).
    """
    cost = 0
    step = 1 if new_speed > speed else -1
    for rate in range(speed, new_speed, step):
        after = rate + step
        cost += pivot.start if abs(after) > abs(rate) else pivot.stop
    return cost


def facing_after(facing: Direction, hexsides: int) -> Direction:
    return facing.turned(hexsides)


def weapon_penalty(hexsides_turned: int) -> int:
    """The to-hit modifier for weapons fired after turning this many hexsides this turn (rule 4)."""
    return WEAPON_PENALTY_PER_HEXSIDE * abs(hexsides_turned)


def overspeed(limit: int | None, hexsides_turned: int) -> int:
    """Hexsides turned this turn beyond the class limit (``None``: no limit)."""
    return 0 if limit is None else max(0, abs(hexsides_turned) - limit)


def overspeed_damage(ship: str, extra: int, dice: Dice) -> Rolled | None:
    """Roll Xd10 primary-structure damage for ``extra`` hexsides over the limit."""
    if extra <= 0:
        return None
    return Rolled.of(dice.roll("xd10", f"structure damage to {ship}: rotating {extra} over its limit", extra))


def limit_lost(limit: int | None, hull_left: float, hull_full: float) -> int:
    """Hexsides of a rotation limit lost to damage: the limit falls with the hull left, rounded up.

    The text's limits hold "unless degraded by damage" and come from the
    stress a rotation puts on the hull, so a hull at half strength takes half
    the rotation (docs/rulings/vms.md, *VMS rotation limits degraded by damage*):

    >>> limit_lost(2, 3, 6), limit_lost(2, 4, 6), limit_lost(3, 1, 6), limit_lost(None, 0, 6)
    (1, 0, 2, 0)
    """
    if limit is None or hull_full <= 0 or hull_left <= 0:
        return 0
    left = Fraction(hull_left) / Fraction(hull_full)
    return limit - min(limit, math.ceil(limit * left))


def small_craft_turn(design: Design, hexsides: int, limit_lost: int = 0) -> int:
    """Thrust a fighter or shuttle pays to turn ``hexsides`` (signed) at the end of its move.

    One point per hexside covers both starting and stopping; the craft ends
    the turn not rotating. The class limit is absolute for small craft: their
    thrusters cannot turn them faster, so a plot over it is refused.
    """
    if not design.small_craft:
        raise IllegalOrderError(
            f"turn {hexsides}", f"{design.name} is a {design.ship_class} ship and plots rotational thrust", RULE_LIMITS
        )
    limit = design.limit_after(limit_lost)
    if limit is not None and abs(hexsides) > limit:
        raise IllegalOrderError(
            f"turn {hexsides}", f"a {design.ship_class} turns at most {limit} hexsides a turn", RULE_LIMITS
        )
    return abs(hexsides)


@dataclass(frozen=True, slots=True)
class AdvancedRotation:
    """Advanced Rotation Variant: rate and leftover in exact integer units.

    One hexside/turn is ``start * stop`` units, so a start point adds ``stop``
    units and a stop point removes ``start`` units without fractions; the
    text's example (pivot 10 to start) has ``start`` as the size of a hexside.
    ``carried`` is the rotation accumulated toward the next whole hexside.
    """

    rate: int = 0
    carried: int = 0

    def thrust(self, points: int, pivot: PivotCost) -> AdvancedRotation:
        """Apply ``points`` rotational thrust (signed, + clockwise), slowing first then speeding up."""
        rate = self.rate
        direction = 1 if points > 0 else -1
        for _ in range(abs(points)):
            if rate == 0 or (rate > 0) == (direction > 0):
                rate += direction * pivot.stop
            else:
                # A stop point removes `start` units but never overshoots zero:
                # the rest of a point cannot start the other way.
                rate = max(0, rate - pivot.start) if rate > 0 else min(0, rate + pivot.start)
        # A stopped ship sits on a whole facing; its part-hexside is dropped
        # (ruling *Advanced rotation when the ship stops*).
        return AdvancedRotation(rate, self.carried if rate else 0)

    def advance(self, pivot: PivotCost) -> tuple[int, AdvancedRotation]:
        """One turn of rotation: hexsides turned and the state carried into next turn."""
        unit = pivot.start * pivot.stop
        total = self.carried + self.rate
        turned = abs(total) // unit * (1 if total >= 0 else -1)
        return turned, AdvancedRotation(self.rate, total - turned * unit)

    def whole_hexsides(self, pivot: PivotCost) -> int:
        """The rate's whole hexsides/turn, toward zero (what the basic record's boxes can hold)."""
        unit = pivot.start * pivot.stop
        return abs(self.rate) // unit * (1 if self.rate >= 0 else -1)

    def carried_points(self, pivot: PivotCost) -> float:
        """The part-hexside carried, in start points (the text's "5 left over")."""
        return abs(self.carried) / pivot.stop

    def hexsides_per_turn(self, pivot: PivotCost) -> float:
        """The rate as hexsides/turn, for display (1.5 in the text's example)."""
        return self.rate / (pivot.start * pivot.stop)
