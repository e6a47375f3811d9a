"""Translational and rotational thrust through a ship's thrusters.

A ship is pushed by firing a thruster on the side away from where it should
go (Basic Principles 2). On the flat-topped hex the six hexsides split into
the four AoG ship sides: forward is the hexside the ship faces, aft the one
behind, and starboard and port are the two hexsides on each flank. A side
thruster may be pointed into either of its side hexes (Thruster Firing Arcs),
so it pushes the ship toward either hexside of the *other* flank:

>>> [str(d) for d in pushes("aft", Direction.B)], [str(d) for d in pushes("starboard", Direction.A)]
(['B'], ['F', 'E'])

Every point through a thruster counts against its rating. Translational
points buy velocity at the accel/decel cost per hex/turn; rotational points
are not charged that cost (Rotational System 1-2):

>>> ship = Design.model_validate({"name": "Hyperion", "ship_class": "medium", "thrust": 12,
...     "accel_cost": 2, "pivot_cost": "1+1", "thrusters": [{"side": s, "rating": 6}
...     for s in ("forward", "aft", "port", "starboard")]})
>>> use = apply_burns(ship, Direction.B, (Burn("aft1", 4, Direction.B), Burn("port1", 1)))
>>> str(use.velocity_change), use.hexes, use.rotational_points, use.points
('B=2', {<Direction.B: 1>: 2}, 1, 5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from vectorwar.errors import IllegalOrderError
from vectorwar.hexes import Direction
from vectorwar.roster import slot_stores
from vectorwar.systems.vms.ships import Design, Side
from vectorwar.vectors import Velocity

RULE_THRUSTERS = "VMS Rotational System 1"
RULE_ARCS = "VMS Thruster Firing Arcs"
RULE_TOTAL = "VMS Procedure (thrust levels)"


def pushes(side: Side, facing: Direction) -> tuple[Direction, ...]:
    """The directions a thruster on ``side`` can push a ship facing ``facing``."""
    if side == "aft":
        return (facing,)
    if side == "forward":
        return (facing.opposite,)
    # Starboard is clockwise of the nose (facing+1, facing+2); its exhaust into
    # either hex pushes toward the hexside opposite, on the port flank.
    if side == "starboard":
        return (facing.turned(-1), facing.turned(-2))
    return (facing.turned(1), facing.turned(2))


@dataclass(frozen=True, slots=True)
class Burn:
    """Thrust points sent through one thruster: translational if ``push`` is set, else rotational."""

    thruster: str
    points: int
    push: Direction | None = None

    def __str__(self) -> str:
        return f"{self.thruster}:{self.push if self.push is not None else 'rot'}={self.points}"


@dataclass(frozen=True, slots=True, init=False)
class ThrustUse:
    """What a turn's burns come to.

    ``hexes`` is the per-direction velocity change players write in the right
    halves of the current graphic; ``velocity_change`` is its sum.
    """

    hexes: dict[Direction, int]
    rotational_points: int
    per_thruster: dict[str, int]

    def __init__(
        self,
        hexes: dict[Direction, int] | None = None,
        rotational_points: int = 0,
        per_thruster: dict[str, int] | None = None,
    ) -> None:
        # Stored through the slots, as a menu's moves are (``roster.slot_stores``): every candidate of a facing's
        # table turned from another's has one.
        _USE_HEXES(self, {} if hexes is None else hexes)
        _USE_ROTATIONAL(self, rotational_points)
        _USE_PER_THRUSTER(self, {} if per_thruster is None else per_thruster)

    @property
    def velocity_change(self) -> Velocity:
        # Summed in whole numbers, one Velocity built: every candidate of every plot menu asks it.
        dq = dr = 0
        for direction, n in self.hexes.items():
            step_q, step_r = direction.delta
            dq += step_q * n
            dr += step_r * n
        return Velocity(dq, dr, 0)

    @property
    def points(self) -> int:
        return sum(self.per_thruster.values())


_USE_HEXES, _USE_ROTATIONAL, _USE_PER_THRUSTER = slot_stores(ThrustUse)


def effective_rating(design: Design, thruster: str, lost: Mapping[str, int]) -> int:
    """A thruster's rating less what critical hits took (never below 0).

    Rotational and translational thrust share the rating, which is how a
    thruster critical hit cuts rotation as well as acceleration (rule 6).
    """
    return max(0, design.thrusters_by_id[thruster].rating - lost.get(thruster, 0))


def apply_burns(
    design: Design, facing: Direction, burns: Sequence[Burn], lost: Mapping[str, int] | None = None
) -> ThrustUse:
    """Check a turn's burns against thruster arcs and ratings and total them.

    ``facing`` is the facing the thrusters fire from. Raises
    :class:`IllegalOrderError` naming the broken rule.
    """
    lost = lost or {}
    table = design.thrusters_by_id
    per_thruster: dict[str, int] = {}
    points_by_direction: dict[Direction, int] = {}
    rotational = 0
    for burn in burns:
        if burn.thruster not in table:
            known = ", ".join(table)
            raise IllegalOrderError(
                str(burn), f"{design.name} has no thruster {burn.thruster} ({known})", RULE_THRUSTERS
            )
        if burn.points < 1:
            raise IllegalOrderError(str(burn), "a burn is at least 1 thrust point", RULE_THRUSTERS)
        if burn.push is None:
            rotational += burn.points
        else:
            arc = pushes(table[burn.thruster].side, facing)
            if burn.push not in arc:
                can = " or ".join(str(d) for d in arc)
                raise IllegalOrderError(
                    str(burn), f"facing {facing}, {burn.thruster} can only push toward {can}", RULE_ARCS
                )
            points_by_direction[burn.push] = points_by_direction.get(burn.push, 0) + burn.points
        per_thruster[burn.thruster] = per_thruster.get(burn.thruster, 0) + burn.points
    for name, used in per_thruster.items():
        rating = max(0, table[name].rating - lost.get(name, 0))  # effective_rating, without re-listing
        if used > rating:
            raise IllegalOrderError(name, f"{used} points through {name}, rated {rating}", RULE_THRUSTERS)
    hexes: dict[Direction, int] = {}
    for direction, points in sorted(points_by_direction.items()):
        # Whole hexes only: the record has no place for part of a hex/turn
        # (ruling *Thrust points and the accel/decel cost*).
        if points % design.accel_cost:
            raise IllegalOrderError(
                f"{direction}={points}",
                f"thrust toward {direction} must be a multiple of the accel/decel cost {design.accel_cost}",
                "VMS Rules Changes (accel/decel cost)",
            )
        hexes[direction] = points // design.accel_cost
    return ThrustUse(hexes, rotational, per_thruster)


def check_total(design: Design, spent: int, lost_thrust: int = 0) -> None:
    """Refuse spending more than the ship's thrust for the turn."""
    available = max(0, design.thrust - lost_thrust)
    if spent > available:
        raise IllegalOrderError(f"{spent} thrust", f"{design.name} has {available} thrust this turn", RULE_TOTAL)
