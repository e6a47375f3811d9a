"""One ship's VMS turn: thrust, rotation, flat turn and the move, as one pure function.

The text's Procedure runs plot, thrust, rotation; the record then shows the
vector and rotation the ship starts the next turn with. The ship moves this
turn on its vector *after* this turn's thrust, which is what the flat-turn
example does (A=5 accelerated to 6, then 6 hexes moved along A).

The movement example, turn 3: course A=4, B=2, facing B; 2 hexes of thrust
toward B and a clockwise rotation started:

>>> ship = Design.model_validate({"name": "Hyperion", "ship_class": "medium", "thrust": 12,
...     "accel_cost": 2, "pivot_cost": "1+1", "thrusters": [{"side": s, "rating": 6}
...     for s in ("forward", "aft", "port", "starboard")]})
>>> start = Motion(Hex.parse("10,10"), Velocity.parse("A=4, B=2"), Direction.B)
>>> turn3 = move(ship, start, Plot((Burn("aft1", 4, Direction.B), Burn("port1", 1)), rotation=1), turn=3)
>>> str(turn3.motion.velocity), turn3.motion.facing, turn3.motion.rotation
('A=4, B=4', <Direction.C: 2>, 1)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from vectorwar.errors import IllegalOrderError
from vectorwar.hexes import Direction, Hex
from vectorwar.memo import Kept
from vectorwar.roster import slot_stores
from vectorwar.systems.vms.flat_turn import flat_turn
from vectorwar.systems.vms.record import TurnRecord, record_turn
from vectorwar.systems.vms.rotation import AdvancedRotation, overspeed, rotation_cost, small_craft_turn
from vectorwar.systems.vms.ships import Design
from vectorwar.systems.vms.thrust import Burn, ThrustUse, apply_burns, check_total
from vectorwar.vectors import Velocity

#: The rotation variant's state of a ship that does not spin: every ``Motion``'s default (frozen, so safe to share).
STILL = AdvancedRotation()


@dataclass(frozen=True, slots=True, init=False)
class Motion:
    """Where a ship is and how it moves: hex, vector, facing, rotation speed (hexsides/turn, + clockwise).

    Under the advanced rotation variant ``spin`` is the exact rate and the
    part-hexside carried; ``rotation`` is then its whole hexsides (toward
    zero), which is what the record's boxes hold.
    """

    hex: Hex
    velocity: Velocity
    facing: Direction
    rotation: int
    spin: AdvancedRotation

    def __init__(
        self, hex: Hex, velocity: Velocity, facing: Direction, rotation: int = 0, spin: AdvancedRotation = STILL
    ) -> None:
        # Each field stored through its slot (``roster.slot_stores``): a plot menu builds one for each of its some
        # hundred plots, and the frozen dataclass's own ``__init__`` stores each by name, at twice the cost.
        _MOTION_HEX(self, hex)
        _MOTION_VELOCITY(self, velocity)
        _MOTION_FACING(self, facing)
        _MOTION_ROTATION(self, rotation)
        _MOTION_SPIN(self, spin)


@dataclass(frozen=True, slots=True, init=False)
class Plot:
    """One ship's plot for a turn.

    ``rotation`` is, for large ships, the change of rotation speed bought
    with the rotational burns (the "This" boxes), or under the advanced
    variant the rotational points themselves (+ clockwise); for fighters and
    shuttles, the hexsides turned at the end of the move. ``flat_turn`` is hexsides of
    flat turn, + clockwise.
    """

    burns: tuple[Burn, ...]
    rotation: int
    flat_turn: int

    def __init__(self, burns: tuple[Burn, ...] = (), rotation: int = 0, flat_turn: int = 0) -> None:
        # Stored through the slots, as :class:`Motion`'s fields are (every candidate of a menu is one).
        _PLOT_BURNS(self, burns)
        _PLOT_ROTATION(self, rotation)
        _PLOT_FLAT_TURN(self, flat_turn)

    def __str__(self) -> str:
        """The plot notation (vectorwar.systems.vms.orders): ``aft1:B=4 port1:rot=1 R1``, ``drift``; kept by the plot's
        identity (the plot kept beside it), as a bot's plot is one of the menus' shared ones, written in its order's
        text and in its ship's record."""
        known = _PLOT_TEXT.get(id(self))
        if known is not None and known[0] is self:
            return known[1]
        return _PLOT_TEXT.keep(id(self), (self, self._text()))[1]

    def _text(self) -> str:
        parts = [str(b) for b in self.burns]
        if self.rotation:
            parts.append(f"{'R' if self.rotation > 0 else 'L'}{abs(self.rotation)}")
        if self.flat_turn:
            parts.append(f"flat:{'R' if self.flat_turn > 0 else 'L'}{abs(self.flat_turn)}")
        return " ".join(parts) or "drift"


@dataclass(frozen=True, slots=True, init=False)
class TurnResult:
    """A ship's turn worked out.

    ``hexsides_turned`` feeds the -2 per hexside weapon penalty;
    ``overspeed`` is X of the Xd10 structure damage to roll at turn end.
    """

    motion: Motion
    path: tuple[Hex, ...]
    thrust: ThrustUse
    thrust_spent: int
    flat_turn_cost: int
    hexsides_turned: int
    overspeed: int
    turn: int
    start: Motion

    def __init__(
        self,
        motion: Motion,
        path: tuple[Hex, ...],
        thrust: ThrustUse,
        thrust_spent: int,
        flat_turn_cost: int,
        hexsides_turned: int,
        overspeed: int,
        turn: int,
        start: Motion,
    ) -> None:
        # Stored through the slots, as :class:`Motion`'s fields are (a menu builds one for each plot).
        _RESULT_MOTION(self, motion)
        _RESULT_PATH(self, path)
        _RESULT_THRUST(self, thrust)
        _RESULT_SPENT(self, thrust_spent)
        _RESULT_FLAT(self, flat_turn_cost)
        _RESULT_TURNED(self, hexsides_turned)
        _RESULT_OVERSPEED(self, overspeed)
        _RESULT_TURN(self, turn)
        _RESULT_START(self, start)

    @property
    def record(self) -> TurnRecord:
        """The current/next graphic pair for this turn (worked out on demand: menus never need it)."""
        after = self.motion
        return record_turn(
            self.turn,
            self.start.velocity,
            self.start.rotation,
            self.start.facing,
            self.thrust.hexes,
            after.velocity,
            after.rotation,
            after.facing,
        )


#: :meth:`Plot.__str__`'s texts by the plot's identity, with the plot.
_PLOT_TEXT: Kept[int, tuple[Plot, str]] = Kept(1 << 12)


_MOTION_HEX, _MOTION_VELOCITY, _MOTION_FACING, _MOTION_ROTATION, _MOTION_SPIN = slot_stores(Motion)
_PLOT_BURNS, _PLOT_ROTATION, _PLOT_FLAT_TURN = slot_stores(Plot)
(
    _RESULT_MOTION,
    _RESULT_PATH,
    _RESULT_THRUST,
    _RESULT_SPENT,
    _RESULT_FLAT,
    _RESULT_TURNED,
    _RESULT_OVERSPEED,
    _RESULT_TURN,
    _RESULT_START,
) = slot_stores(TurnResult)


@dataclass(frozen=True, slots=True, init=False)
class Turning:
    """What a plot does that its ship's vector and hex play no part in: the thrust's use and the velocity change it
    buys, the rotation rate after it, the hexsides turned and the advanced variant's rate (:func:`turning`)."""

    use: ThrustUse
    change: Velocity
    new_rate: int
    turned: int
    spin: AdvancedRotation

    def __init__(self, use: ThrustUse, change: Velocity, new_rate: int, turned: int, spin: AdvancedRotation) -> None:
        # Stored through the slots, as :class:`Motion`'s fields are (every candidate of a menu's table has one).
        _TURNING_USE(self, use)
        _TURNING_CHANGE(self, change)
        _TURNING_NEW_RATE(self, new_rate)
        _TURNING_TURNED(self, turned)
        _TURNING_SPIN(self, spin)


_TURNING_USE, _TURNING_CHANGE, _TURNING_NEW_RATE, _TURNING_TURNED, _TURNING_SPIN = slot_stores(Turning)


def move(
    design: Design,
    motion: Motion,
    plot: Plot,
    turn: int,
    lost: Mapping[str, int] | None = None,
    lost_thrust: int = 0,
    rotate_before_thrust: bool = False,
    advanced_rotation: bool = False,
    limit_lost: int = 0,
) -> TurnResult:
    """Work out one turn of ``plot`` for a ship, refusing an illegal plot with :class:`IllegalOrderError`.

    ``lost`` is thruster rating lost to critical hits, ``lost_thrust`` total
    thrust lost. ``rotate_before_thrust`` fires thrusters from the facing
    after this turn's rotation (ruling *Thrust before rotation*).
    ``advanced_rotation`` plays the Advanced Rotation Variant: the plot's
    rotation is rotational points, and the facing turns by the whole
    hexsides accumulated (small craft turn at will either way).
    ``limit_lost`` is hexsides of the class rotation limit lost to damage.
    """
    done = turning(design, motion, plot, lost, rotate_before_thrust, advanced_rotation, limit_lost)
    return moved(design, motion, plot, done, turn, lost_thrust, limit_lost)


def turning(
    design: Design,
    motion: Motion,
    plot: Plot,
    lost: Mapping[str, int] | None = None,
    rotate_before_thrust: bool = False,
    advanced_rotation: bool = False,
    limit_lost: int = 0,
) -> Turning:
    """The first part of :func:`move`: the rotation and the burns checked, from the facing, rotation and spin of
    ``motion`` alone (a menu works it out once for every vector and hex; :mod:`.planner`)."""
    spin = motion.spin
    if design.small_craft:
        rotation_points = small_craft_turn(design, plot.rotation, limit_lost)
        new_rate, turned = 0, plot.rotation
    elif advanced_rotation:
        rotation_points = abs(plot.rotation)
        # The rate changes first, so a rotation started this turn already turns the ship (the text's "first turn").
        turned, spin = spin.thrust(plot.rotation, design.pivot).advance(design.pivot)
        new_rate = spin.whole_hexsides(design.pivot)
    else:
        new_rate = motion.rotation + plot.rotation
        rotation_points = rotation_cost(motion.rotation, new_rate, design.pivot)
        turned = new_rate
    # Small craft turn at the end of their move, so they always thrust from the start facing.
    firing_facing = motion.facing.turned(turned) if rotate_before_thrust and not design.small_craft else motion.facing
    use = apply_burns(design, firing_facing, plot.burns, lost)
    if use.rotational_points != rotation_points:
        raise IllegalOrderError(
            " ".join(str(b) for b in plot.burns) or "no burns",
            f"the rotation plotted needs {rotation_points} rotational points, the burns give {use.rotational_points}",
            "VMS Rotational System 2-3",
        )
    return Turning(use, use.velocity_change, new_rate, turned, spin)


def moved(
    design: Design,
    motion: Motion,
    plot: Plot,
    done: Turning,
    turn: int,
    lost_thrust: int = 0,
    limit_lost: int = 0,
    lines: dict[tuple[int, int], tuple[Hex, ...]] | None = None,
) -> TurnResult:
    """The rest of :func:`move` from its :func:`turning`: the vector, the flat turn, the thrust total and the
    class limit checked, and the move.

    ``lines`` keeps the paths already drawn from ``motion``'s hex, by the move's offset (a menu's plots that differ
    only in rotation share one path)."""
    use, turned = done.use, done.turned
    new_velocity = motion.velocity + done.change
    flat = flat_turn(design, new_velocity, motion.facing.turned(turned), plot.flat_turn)
    spent = use.points + flat.cost
    check_total(design, spent, lost_thrust)
    hexsides = abs(turned) + abs(flat.hexsides)
    limit = design.limit_after(limit_lost)
    extra = overspeed(limit, hexsides)
    if extra and design.small_craft:
        raise IllegalOrderError(
            f"turn {turned:+d}, flat turn {flat.hexsides:+d}",
            f"a {design.ship_class} turns at most {limit} hexsides a turn" + (" now (damage)" if limit_lost else ""),
            "VMS Rotational System 5",
        )
    offset = (flat.moves_on.dq, flat.moves_on.dr)
    path = None if lines is None else lines.get(offset)
    if path is None:
        path = tuple(motion.hex.line_to(motion.hex.shifted(*offset)))
        if lines is not None:
            lines[offset] = path
    after = Motion(path[-1], flat.next_velocity, flat.next_facing, done.new_rate, done.spin)
    return TurnResult(after, path, use, spent, flat.cost, hexsides, extra, turn, motion)
