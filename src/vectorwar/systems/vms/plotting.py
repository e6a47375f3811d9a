"""A ship's plot in the game: its move worked out under the game's options, and the menu of legal plots.

:mod:`.movement` and :mod:`.planner` know a design and its motion; here a ship of the game is handed
to them with what the game adds (the turn, the thrust and rotation limit lost to damage, the options).
"""

from __future__ import annotations

from vectorwar.errors import IllegalOrderError
from vectorwar.memo import Kept
from vectorwar.systems.vms.movement import STILL, Motion, Plot, TurnResult, move
from vectorwar.systems.vms.planner import legal_plots, offered
from vectorwar.systems.vms.rotation import AdvancedRotation
from vectorwar.systems.vms.ships import Design
from vectorwar.systems.vms.state import VMSShip, VMSState


def motion_of(ship: VMSShip) -> Motion:
    rate, carried = ship.spin_rate, ship.spin_carried
    # A ship that does not spin (every ship but under the advanced variant) shares the one still spin.
    spin = STILL if rate == 0 and carried == 0 else AdvancedRotation(rate, carried)
    return Motion(ship.hex, ship.velocity, ship.facing, ship.rotation, spin)


def advanced(state: VMSState) -> bool:
    """Whether the Advanced Rotation Variant is played (option ``vms_advanced_rotation``)."""
    return bool(state.options.get("vms_advanced_rotation"))


def rotate_before_thrust(state: VMSState) -> bool:
    return bool(state.options.get("vms_rotate_before_thrust"))


def work_out(state: VMSState, ship: VMSShip, plot: Plot) -> TurnResult:
    """The ship's move for ``plot``; raises :class:`IllegalOrderError` naming the rule broken.

    The last answer is kept with the ship, plot, turn and options it was worked out for (by identity: frozen
    values, kept with it so that no other takes their identities), as a plot's check and its move ask the same."""
    last = _LAST[0] if _LAST else None
    if last is not None and last[0] is ship and last[1] is plot and last[2] == state.turn and last[3] is state.options:
        return last[4]
    found = _worked_out(state, ship, plot)
    _LAST[:] = [(ship, plot, state.turn, state.options, found)]  # swapped in one step, so threads never mix two
    return found


#: :func:`work_out`'s last answer, with what it was worked out for.
_LAST: list[tuple[VMSShip, Plot, int, object, TurnResult]] = []


def _worked_out(state: VMSState, ship: VMSShip, plot: Plot) -> TurnResult:
    before, variant = rotate_before_thrust(state), advanced(state)
    # A search's trials move one ship by one plot again and again (the fast bot's plots are shared objects): kept by
    # what the move reads, the design and plot by identity (kept beside the answer, so that no other object takes
    # their identities while it is kept).
    at, velocity = ship.hex, ship.velocity
    key = (
        id(ship.spec),
        id(plot),
        at.q,
        at.r,
        velocity.dq,
        velocity.dr,
        velocity.dz,
        ship.facing,
        ship.rotation,
        ship.spin_rate,
        ship.spin_carried,
        state.turn,
        ship.thrust_lost,
        before,
        variant,
        ship.rotation_limit_lost,
    )
    found = _MOVES.get(key)
    if found is not None:
        return found[2]
    result = _moved(state, ship, plot, before, variant)
    _MOVES.keep(key, (ship.spec, plot, result))
    return result


#: :func:`_worked_out`'s answers, with the design and plot they were worked out for.
_MOVES: Kept[tuple[object, ...], tuple[Design, Plot, TurnResult]] = Kept(1 << 12)


def _moved(state: VMSState, ship: VMSShip, plot: Plot, before: bool, variant: bool) -> TurnResult:
    """The move, from the menu the planner worked out lately if the plot is one of its plots, else worked out."""
    motion = motion_of(ship)
    known = offered(ship.spec, motion, plot, state.turn, ship.thrust_lost, before, variant, ship.rotation_limit_lost)
    if known is not None:
        return known
    try:
        return move(
            ship.spec,
            motion,
            plot,
            state.turn,
            lost_thrust=ship.thrust_lost,
            rotate_before_thrust=before,
            advanced_rotation=variant,
            limit_lost=ship.rotation_limit_lost,
        )
    except IllegalOrderError as err:
        # Name the ship and its whole plot; keep the movement rule that was broken.
        raise IllegalOrderError(f"{ship.id} {plot}", f"{err.order}: {err.problem}", err.rule) from None


def menu_of(state: VMSState, ship: VMSShip) -> tuple[Design, Motion, int, int, bool, bool, int]:
    """What the ship's plot menu depends on, in the order :func:`~.planner.legal_plots` (and the planner's setting
    of a menu) take it: its design, motion, the turn, thrust lost, the rotation rules and rotation limit lost."""
    return (
        ship.spec,
        motion_of(ship),
        state.turn,
        ship.thrust_lost,
        rotate_before_thrust(state),
        advanced(state),
        ship.rotation_limit_lost,
    )


def plots_for(state: VMSState, ship: VMSShip) -> list[tuple[Plot, TurnResult]]:
    """The bounded menu of legal plots (vectorwar.systems.vms.planner)."""
    return legal_plots(*menu_of(state, ship))
