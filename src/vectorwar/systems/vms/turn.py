"""The VMS turn run on from one decision to the next (docs/rules/vms.md, Procedure).

Initiative rolls open the turn; the subphases with ships in them follow in the order of option
``vms_subphase_order``, each a plot; once every ship has moved the combat module takes its
after-movement step and the sides fire in its order; the module's after-fire step and the damage for
rotating over the class limit end the turn. Each function stops at the next decision a side owes
(the state's phase names its order kind, :mod:`.kinds`) or at the game's end.
"""

from __future__ import annotations

from collections.abc import Mapping

from vectorwar.dice import Dice
from vectorwar.events import Event, GameOver, InitiativeSet, LeftMap, Moved, Note, TurnBegan
from vectorwar.hexes import Position
from vectorwar.memo import Kept
from vectorwar.roster import replace_fields
from vectorwar.rules import Order
from vectorwar.systems.vms.events import CourseSet, SubphaseSet
from vectorwar.systems.vms.fight import apply_outcome, combat, view
from vectorwar.systems.vms.initiative import SUBPHASE_ORDERS, roll_initiative
from vectorwar.systems.vms.movement import Plot
from vectorwar.systems.vms.orders import MovePlot
from vectorwar.systems.vms.plotting import work_out
from vectorwar.systems.vms.rotation import overspeed_damage
from vectorwar.systems.vms.state import VMSShip, VMSState
from vectorwar.vectors import Velocity


def subphase_order(state: VMSState) -> tuple[str, ...]:
    return SUBPHASE_ORDERS[str(state.options["vms_subphase_order"])]


def begin_turn(state: VMSState, dice: Dice, events: list[Event]) -> VMSState:
    """Every ship in play rolls its initiative; then the choices, if any ship has one, or the first subphase."""
    events.append(TurnBegan(state.turn))
    order = subphase_order(state)
    rolled_ships: list[VMSShip] = []
    for ship in state.ships:
        if not ship.active:
            continue
        initiative, rolled = roll_initiative(
            ship.id, ship.spec.ship_class, ship.initiative_terms(state.turn), dice, order
        )
        events.append(rolled)
        events.append(
            SubphaseSet(ship.id, initiative.total, initiative.roll, initiative.choices[0], initiative.choices)
        )
        rolled_ships.append(_rolled(ship, initiative.choices, initiative.roll))
    # Every ship's roll and the turn's fresh subphase and fire order in one copy of the state.
    state = state.with_ships(rolled_ships, subphase="", fire_order=(), firing=0)
    if any(state.choosers(side) for side in state.sides):
        return replace_fields(state, phase="initiative")
    return next_subphase(state, dice, events)


def _rolled(ship: VMSShip, choices: tuple[str, ...], roll: int) -> VMSShip:
    """``ship`` at a new turn's start, its initiative rolled: kept by the ship's identity (kept beside it) and the roll,
    so that the states of a search's trials, which throw the same dice, share the ship where its last turn was the
    same (and what is kept by a ship's identity is found for it too)."""
    key = (id(ship), choices, roll)
    known = _ROLLED.get(key)
    if known is not None:
        return known[1]
    found = replace_fields(
        ship,
        choices=choices,
        initiative_roll=roll,
        subphase=choices[0],
        moved=False,
        start_hex=ship.hex,
        start_velocity=ship.velocity,
        start_rotation=ship.rotation,
        start_facing=ship.facing,
        thrust=(),
        thrust_used=0,
        hexsides_turned=0,
        overspeed=0,
        plot="",
    )
    return _ROLLED.keep(key, (ship, found))[1]


#: :func:`_rolled`'s answers, with the ship they were worked out for.
_ROLLED: Kept[tuple[int, tuple[str, ...], int], tuple[VMSShip, VMSShip]] = Kept(1 << 12)


def next_subphase(state: VMSState, dice: Dice, events: list[Event], lost: dict[str, float] | None = None) -> VMSState:
    """The next subphase with ships to move, or, every ship moved, the module's step for that and combat."""
    order = subphase_order(state)
    start = order.index(state.subphase) + 1 if state.subphase else 0
    waiting = {s.subphase for s in state.ships if s.active and not s.moved}  # the subphases with ships still to move
    for name in order[start:]:
        if name in waiting:
            return replace_fields(state, phase="plot", subphase=name)
    # Every ship has moved: the module's step for that moment (VV5's incoming missiles), then combat.
    # With ``lost`` (``resolve_in_prospect``) the step's dice are not thrown: what each side is expected
    # to lose to it is added there instead.
    module = combat(state)
    if lost is None:
        outcome = module.after_movement(view(state), dice, events)
    else:
        outcome, losses = module.after_movement_in_prospect(view(state))
        for ship_id, loss in losses.items():
            lost[state.ship(ship_id).side] += loss
    state = apply_outcome(state, outcome, events)
    if len(state.sides_in_play()) <= 1:
        return end(state, "elimination", events)
    return start_combat(state, dice, events)


def plotted(
    state: VMSState,
    orders: Mapping[str, Order],
    dice: Dice,
    events: list[Event],
    lost: dict[str, float] | None = None,
) -> VMSState:
    """A subphase's plots moved, then the next subphase, or the step after the moves and the fire
    (``lost``: as in :func:`next_subphase`; a search's trial, which reads no event of the moves, so none is
    written for them)."""
    state = carry_out(state, orders, events, told=lost is None)
    if len(state.sides_in_play()) <= 1:
        return end(state, "elimination", events)
    return next_subphase(state, dice, events, lost)


def carry_out(state: VMSState, orders: Mapping[str, Order], events: list[Event], told: bool = True) -> VMSState:
    """The subphase's plots moved together; a ship whose path leaves the map disengages where it leaves (its
    events written unless ``told`` is false)."""
    if not told:
        # Every ship moved from the state before (a plot moves each ship once, and no move reads another ship), all
        # put in one copy of the state: a search's trial, which reads no event.
        moved: list[VMSShip] = []
        for order in orders.values():
            if not isinstance(order, MovePlot):  # pragma: no cover - check_order refused it
                raise TypeError("movement plots expected")
            moved.extend([_moved_untold(state, state.ship(ship_id), plot) for ship_id, plot in order.moves])
        return state.with_ships(moved)
    for order in orders.values():
        if not isinstance(order, MovePlot):  # pragma: no cover - check_order refused it
            raise TypeError("movement plots expected")
        for ship_id, plot in order.moves:
            ship = state.ship(ship_id)
            state = state.with_ship(_moved(state, ship, plot, events))
    return state


def _moved_untold(state: VMSState, ship: VMSShip, plot: Plot) -> VMSShip:
    """:func:`_moved` with no event written (a search's trial): kept by what it reads, the ship, plot, map and options
    by identity (kept beside the answer, so that no other object takes their identities while it is kept) and the
    turn, as the trials move the same ship by the same plot again and again. The same moved ship is handed out again,
    so what is kept by a ship's identity (its combatant: :func:`~.fight.view`) is found for it too."""
    key = (id(ship), id(plot), id(state.map), id(state.options), state.turn)
    known = _UNTOLD.get(key)
    if known is not None:
        return known[1]
    found = _moved(state, ship, plot, [], told=False)
    return _UNTOLD.keep(key, ((ship, plot, state.map, state.options), found))[1]


#: :func:`_moved_untold`'s answers, with the objects read by identity.
_UNTOLD: Kept[tuple[object, ...], tuple[tuple[object, ...], VMSShip]] = Kept(1 << 12)


def _moved(state: VMSState, ship: VMSShip, plot: Plot, events: list[Event], told: bool = True) -> VMSShip:
    turn = work_out(state, ship, plot)
    path = turn.path
    exit_at = next((i for i, h in enumerate(path) if not state.map.contains(h)), None)
    shown = path if exit_at is None else path[: exit_at + 1]
    after, text = turn.motion, str(plot)
    moved = replace_fields(
        ship,
        hex=shown[-1],
        velocity=after.velocity,
        facing=after.facing,
        rotation=after.rotation,
        spin_rate=after.spin.rate,
        spin_carried=after.spin.carried,
        moved=True,
        thrust=tuple(sorted(turn.thrust.hexes.items())),
        thrust_used=turn.thrust_spent,
        hexsides_turned=turn.hexsides_turned,
        overspeed=turn.overspeed,
        plot=text,
    )
    if told:
        events.append(Moved(ship.id, text, tuple(Position(h) for h in shown), after.facing))
        velocity = _text_of(after.velocity)
        events.append(CourseSet(ship.id, velocity, after.rotation, turn.thrust_spent, turn.hexsides_turned))
    if exit_at is not None:
        moved = replace_fields(moved, status="disengaged")
        if told:
            events.append(LeftMap(ship.id, Position(shown[-1])))
    return moved


def _text_of(velocity: Velocity) -> str:
    """``str(velocity)``, kept by its whole numbers (every move's record writes the vector, and the few a game meets
    are written again and again)."""
    key = (velocity.dq, velocity.dr, velocity.dz)
    text = _VELOCITY_TEXT.get(key)
    if text is None:
        text = _VELOCITY_TEXT.keep(key, str(velocity))
    return text


_VELOCITY_TEXT: Kept[tuple[int, int, int], str] = Kept(1 << 12)


def start_combat(state: VMSState, dice: Dice, events: list[Event]) -> VMSState:
    """The fire order: the module's own, or the side holding its initiative picks it (``fire-order``)."""
    module, in_play = combat(state), state.sides_in_play()
    holder = module.fire_initiative(view(state), in_play, state.initiative, dice, events)
    if holder is None:
        return set_fire_order(state, module.fire_order(in_play, dice, events), dice, events)
    state = replace_fields(state, subphase="", initiative=holder)
    seen = view(state)
    if sum(1 for side in in_play if module.can_fire(seen, side)) > 1:
        return replace_fields(state, phase="fire-order")
    # At most one side has anything to fire: the order changes nothing, so there is no choice to ask for.
    return set_fire_order(state, (holder, *(s for s in in_play if s != holder)), dice, events)


def set_fire_order(state: VMSState, order: tuple[str, ...], dice: Dice, events: list[Event]) -> VMSState:
    """Fire in ``order``, each side declaring and resolving in turn."""
    events.append(InitiativeSet(order))
    return next_firer(replace_fields(state, phase="fire", subphase="", fire_order=order, firing=0), dice, events)


def next_firer(state: VMSState, dice: Dice, events: list[Event]) -> VMSState:
    """The next side in the fire order with a shot to declare, or the end of the turn."""
    module = combat(state)
    while state.firing < len(state.fire_order):
        side = state.fire_order[state.firing]
        if not state.ships_of(side):
            pass  # lost its last ship earlier in the phase
        elif module.can_fire(view(state), side):
            return state
        else:
            events.append(Note(f"{side} has no target in range and arc"))
        state = replace_fields(state, firing=state.firing + 1)
    return end_turn(state, dice, events)


def end_turn(state: VMSState, dice: Dice, events: list[Event]) -> VMSState:
    """The module's after-fire step, damage for rotating over the class limit, then the next turn or the end."""
    module = combat(state)
    state = apply_outcome(state, module.after_fire(view(state), dice, events), events)
    for ship in state.ships:
        if not ship.active or not ship.overspeed:
            continue
        rolled = overspeed_damage(ship.id, ship.overspeed, dice)
        if rolled is not None:
            events.append(rolled)
            outcome = module.structure_damage(view(state), ship.id, ship.overspeed, rolled.total, events)
            state = apply_outcome(state, outcome, events)
    if len(state.sides_in_play()) <= 1:
        return end(state, "elimination", events)
    if state.turn >= state.max_turns:
        return end(state, f"turn limit {state.max_turns} reached", events, draw=True)
    return begin_turn(replace_fields(state, turn=state.turn + 1), dice, events)


def end(state: VMSState, reason: str, events: list[Event], draw: bool = False) -> VMSState:
    winners = () if draw else state.sides_in_play()
    if not winners and not draw:
        reason = "no side has a ship left in the battle"
    events.append(GameOver(winners, reason))
    return replace_fields(state, phase="over", winners=winners, end_reason=reason)
