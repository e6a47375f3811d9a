"""One segment of AV:T, in the text's order (A5.212, A5.245).

1. Plotting: each ship's future position comes from its movement grid.
2. Orders: thrust settings, bias, pivots and rolls begin.
3. Reveal fire and long orders: lasers fire from where the ships are now.
4. Resolve thrust: a cell of each burning ship's thrust chart is checked off;
   its displacement (if not pivoting) moves the future position marker on.
5. Movement: ships move to their future positions; pivots and rolls reach
   their next window.
6. Thrust break check: off the bottom of the chart, a facing change
   completed, or the engine turned off, and the burn's dots become vectors
   (fuel spent, vectors consolidated, movement grid rewritten).

Then the reactors (if on) refill the batteries and the next segment
begins; after segment 8 the end-of-turn procedure runs first
(:mod:`.turn_end`). Everything is a pure function of state, orders and dice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from vectorwar.dice import Dice
from vectorwar.events import Event, GameOver, Note, TurnBegan
from vectorwar.hexes import Position
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.systems.avt.breaks import resolve_vectors
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.disengage import OPTION as DISENGAGEMENT
from vectorwar.systems.avt.disengage import disengaged
from vectorwar.systems.avt.events import (
    FacingChanged,
    OrdersGiven,
    SegmentBegan,
    ShipMoved,
    TargetDestroyed,
    ThrustBurned,
)
from vectorwar.systems.avt.fire import fire_step
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders
from vectorwar.systems.avt.orientation import Orientation, pivot_path, roll_path, schedule
from vectorwar.systems.avt.repairs import start_repair, system_key
from vectorwar.systems.avt.ssd import ship_battery_capacity, ship_reactor_power
from vectorwar.systems.avt.state import AVTState, Ship, Turning, grid_steps
from vectorwar.systems.avt.thrust import ThrustChart
from vectorwar.systems.avt.turn_end import end_of_turn


class Unrecorded(list[Event]):
    """The events of a segment its caller throws away (a search trial in prospect, a move option's flight): the
    steps leave out the events that are only words (the orders given, the burn's dots, the move's arrows), which
    change nothing that happens; the rest are appended as ever."""


def _facing_change(state: AVTState, design: Design, ship: Ship, orders: ShipOrders) -> Turning:
    """The pivot or roll ``orders`` begin, its stops by absolute segment (none: it is over before it starts)."""
    if orders.pivot is not None:
        path = pivot_path(ship.orientation, orders.pivot, state.three_d)
        stops = schedule(path, design.pivots)
        turning = Turning("pivot", f"pivot {orders.pivot}", tuple((state.now + t, o) for t, o in stops))
    else:
        path = roll_path(ship.orientation, orders.roll)
        stops = schedule(path, design.rolls)
        side = "stbd" if orders.roll > 0 else "port"
        turning = Turning("roll", f"roll {side} {abs(orders.roll)}", tuple((state.now + t, o) for t, o in stops))
    return turning


def _orders_step(state: AVTState, orders: Mapping[str, SegmentOrders], events: list[Event]) -> AVTState:
    ships = {s.id: s for s in state.ships}
    given_any = False
    for side in state.sides:
        given = orders.get(side)
        if given is None:
            continue
        for o in given.ships:
            if o.empty:
                continue
            given_any = True
            ship = take_orders(state, ships[o.ship], o, events)
            ships[ship.id] = ship
    return replace_fields(state, ships=tuple(ships[s.id] for s in state.ships)) if given_any else state


def take_orders(state: AVTState, ship: Ship, o: ShipOrders, events: list[Event]) -> Ship:
    """One ship's entry carried out in the orders step: settings written, a repair or facing change begun."""
    design = state.designs[ship.design]
    if not isinstance(events, Unrecorded):
        events.append(OrdersGiven(ship.id, ", ".join(o.actions())))
    # One copy per ship: the segment is resolved for many ships many times (the benchmark).
    changes: dict[str, Any] = {}
    if o.thrust is not None and o.thrust != ship.chart.setting:
        if ship.chart.burning and o.thrust > 0:
            # A new setting starts its own column from the top (docs/rulings/avt.md, *AV:T changing thrust*).
            ship = resolve_vectors(ship, f"thrust changed to {o.thrust}", events)
        changes["chart"] = replace_fields(ship.chart, setting=o.thrust)
    if o.bias is not None:
        changes["bias"] = o.bias
    if o.repair is not None:
        ship = start_repair(ship, system_key(o.repair), state.turn)
    if o.electronics is not None:
        rest = tuple(b for b in ship.electronics_order if b != o.electronics)
        changes["electronics_order"] = (o.electronics, *rest)
    _end_of_turn_choices(ship, o, changes)
    if o.pivot is not None or o.roll:
        turning = _facing_change(state, design, ship, o)
        if turning.stops:
            changes["turning"] = turning
    return replace_fields(ship, **changes) if changes else ship


def _end_of_turn_choices(ship: Ship, o: ShipOrders, changes: dict[str, Any]) -> None:
    """Reactors and radiators: written now, carried out between segment 8 and segment 1 (A5.392, turn_end)."""
    if o.reactors is not None:
        changes["reactors_next"] = None if o.reactors == ship.reactors_on else o.reactors
    if o.radiators is not None:
        changes["radiators_next"] = None if o.radiators == ship.radiators else o.radiators


def burn_cell(ship: Ship, steps: list[Arrow], events: list[Event], used: set[str]) -> ThrustChart:
    """Resolve thrust for one ship: its chart after this segment's cell; displacement joins ``steps``."""
    chart = ship.chart
    if chart.setting == 0:
        return chart
    if ship.fuel - chart.fuel < chart.fuel_for_next_cell():
        events.append(Note(f"{ship.id} has no fuel for another cell of thrust {chart.setting}: engine off"))
        return replace_fields(chart, setting=0)
    pivoting = ship.turning is not None and ship.turning.kind == "pivot"
    chart, burn = chart.burn(ship.orientation.nose, ship.bias, pivoting)
    used.update(("thrust", "fuel"))
    if not isinstance(events, Unrecorded):
        dots = ", ".join(f"{a}={n}" for a, n in burn.dots)
        shifted = " ".join(str(a) for a in burn.displacement)
        events.append(ThrustBurned(ship.id, chart.setting, burn.cell, dots, shifted))
    steps.extend(burn.displacement)
    return chart


def _thrust_and_movement(
    state: AVTState, paths: dict[str, list[Arrow]], events: list[Event], recharge: bool = False
) -> tuple[AVTState, set[str]]:
    """Resolve thrust for every ship, then move them all and advance their facing changes; with ``recharge``, the
    batteries refilled after the segment (:func:`recharged`) in the same copy of each ship: nothing after the fire
    changes a battery."""
    ships = {s.id: s for s in state.ships}
    burning: dict[str, set[str]] = {ship_id: set() for ship_id in paths}
    charts = {
        # A ship destroyed by this segment's fire drifts on as a wreck; its engine no longer burns.
        ship_id: burn_cell(ships[ship_id], steps, events, burning[ship_id])
        if ships[ship_id].active
        else ships[ship_id].chart
        for ship_id, steps in paths.items()
    }
    completed: set[str] = set()
    for ship_id, steps in paths.items():
        ships[ship_id] = moved_ship(
            state, ships[ship_id], steps, charts[ship_id], burning[ship_id], ships, events, completed, recharge
        )
    return replace_fields(state, ships=tuple(ships[s.id] for s in state.ships)), completed


def moved_ship(
    state: AVTState,
    ship: Ship,
    steps: list[Arrow],
    chart: ThrustChart,
    burning: set[str],
    ships: dict[str, Ship],
    events: list[Event],
    completed: set[str],
    recharge: bool,
) -> Ship:
    """``ship`` once it has burned (its ``chart`` after the cell, the systems that ``burning`` used), moved along
    ``steps`` (eating a target among ``ships`` flown through) and turned, in one copy; a facing change done joins
    ``completed``."""
    used = ship.used
    for system in sorted(burning):  # a set iterates in a per-process order; a replay must not
        if system not in used:  # as Ship.using, in one copy with the move below
            used = (*used, system)
    # Only a ship that moves or turns this segment costs a call: most segments most ships do neither.
    position = _fly(ship, steps, ships, events) if steps else ship.position
    orientation, turning = ship.orientation, ship.turning
    if turning is not None:
        orientation, turning = _turn(state, ship, turning, completed, events)
    battery = recharged(state, ship) if recharge else ship.battery
    if burning or (position, orientation, turning, chart, battery) != (
        ship.position,
        ship.orientation,
        ship.turning,
        ship.chart,
        ship.battery,
    ):
        return replace_fields(
            ship,
            position=position,
            orientation=orientation,
            turning=turning,
            chart=chart,
            used=used,
            battery=battery,
        )
    return ship


def _fly(ship: Ship, steps: list[Arrow], ships: dict[str, Ship], events: list[Event]) -> Position:
    """Where ``ship`` ends its move along ``steps``; a target flown through on the way is eaten (A5.113)."""
    path = [ship.position]
    for arrow in steps:
        path.append(arrow.velocity.moved(path[-1]))
    if not isinstance(events, Unrecorded):
        events.append(ShipMoved(ship.id, " ".join(str(a) for a in steps), tuple(path)))
    for target in ships.values():
        if target.active and target.kind == "target" and target.position in path[1:]:
            events.append(TargetDestroyed(target.id, ship.id, "flown through: eaten"))
            ships[target.id] = replace_fields(target, status="destroyed")
    return path[-1]


def _turn(
    state: AVTState, ship: Ship, turning: Turning, completed: set[str], events: list[Event]
) -> tuple[Orientation, Turning | None]:
    """The window a facing change under way reaches this segment, if any; a change done joins ``completed``."""
    reached = [o for at, o in turning.stops if at == state.now]
    if not reached:
        return ship.orientation, turning
    orientation = reached[-1]
    done = turning.ends == state.now
    events.append(FacingChanged(ship.id, orientation, done))
    if not done:
        return orientation, turning
    completed.add(ship.id)
    return orientation, None


def _break_step(state: AVTState, completed: set[str], events: list[Event]) -> AVTState:
    ships = [broken_ship(ship, completed, events) for ship in state.ships]
    return replace_fields(state, ships=tuple(ships)) if ships != list(state.ships) else state


def broken_ship(ship: Ship, completed: set[str], events: list[Event]) -> Ship:
    """``ship`` after the thrust break check: its burn's vectors resolved if the burn breaks now."""
    if not ship.chart.burning:
        return ship
    reasons = []
    if ship.chart.off_the_bottom:
        reasons.append("off the bottom of the thrust chart")
    if ship.id in completed:
        reasons.append("facing change completed")
    if ship.chart.setting == 0:
        reasons.append("thrust set to zero")
    return resolve_vectors(ship, ", ".join(reasons), events) if reasons else ship


def play_segment(
    state: AVTState, orders: Mapping[str, SegmentOrders], dice: Dice, events: list[Event], recharge: bool = False
) -> AVTState:
    """The segment's steps in the text's order (A5.212, A5.244), stopping before the next segment; with
    ``recharge``, the reactors' refill of the batteries that follows it too."""
    paths = {s.id: list(grid_steps(s.velocity, state.segment)) for s in state.ships if s.active and s.kind == "ship"}
    state = _orders_step(state, orders, events)
    state = fire_step(state, orders, dice, events)
    state, completed = _thrust_and_movement(state, paths, events, recharge)
    return _break_step(state, completed, events)


def resolve_segment(
    state: AVTState, orders: Mapping[str, SegmentOrders], dice: Dice, record: bool = True
) -> tuple[AVTState, list[Event]]:
    """Play the current segment with every side's orders, then move on to the next decision; without ``record``,
    the events that are only words are left out (:class:`Unrecorded`)."""
    events: list[Event] = [] if record else Unrecorded()
    state = play_segment(state, orders, dice, events, recharge=True)
    return advance(state, events, dice), events


def recharged(state: AVTState, ship: Ship) -> int:
    """``ship``'s battery once reactors that are on refill it after the segment, up to its capacity (A5.39, power per
    segment); a ship the segment's fire destroyed refills nothing."""
    if ship.active and ship.kind == "ship" and ship.reactors_on:
        design = state.designs[ship.design]
        return min(ship_battery_capacity(design, ship), ship.battery + ship_reactor_power(design, ship))
    return ship.battery


def advance(state: AVTState, events: list[Event], dice: Dice) -> AVTState:
    """On to the next segment, ending the turn or the game as due."""
    if len(state.sides_in_play()) <= 1 or not state.commanders():
        return end(state, "elimination", events)
    if state.segment < SEGMENTS:
        state = replace_fields(state, segment=state.segment + 1)
    else:
        state = end_of_turn(state, events, dice)
        state = surrender_check(state, events)
        if state.phase == "over":
            return state
        state = disengagement_check(state, events)
        if state.phase == "over":
            return state
        if state.turn >= state.max_turns:
            return end(state, f"turn limit {state.max_turns} reached", events, draw=True)
        state = replace_fields(state, turn=state.turn + 1, segment=1)
        events.append(TurnBegan(state.turn))
    events.append(SegmentBegan(state.turn, state.segment))
    return state


def surrender_check(state: AVTState, events: list[Event]) -> AVTState:
    """Extending radiators is the surrender signal (A5.391); the option says whether the game ends there."""
    fighting = state.commanders()
    given = [
        side
        for side in fighting
        if all(s.radiators in ("extending", "out") for s in state.ships_of(side) if s.kind == "ship")
    ]
    if not given or len(fighting) < 2:
        return state
    for side in given:
        events.append(Note(f"{side} extends radiators: the surrender signal (A5.391)"))
    rest = tuple(side for side in fighting if side not in given)
    if state.options.get("surrender", "ends") != "ends" or len(rest) > 1:
        return state
    reason = f"{' and '.join(given)} surrendered"
    events.append(GameOver(rest, reason))
    return replace(state, phase="over", winners=rest, end_reason=reason)


def disengagement_check(state: AVTState, events: list[Event]) -> AVTState:
    """Option ``disengagement``: at the turn break, sides that can no longer reach each other end the game, a draw."""
    pairs = disengaged(state)
    if pairs is None:
        return state
    for gap in pairs:
        events.append(Note(gap.describe()))
    turns = int(state.options.get(DISENGAGEMENT, 0))
    reason = f"disengaged: out of laser range and unable to close within {turns} turns (option {DISENGAGEMENT})"
    return end(state, reason, events, draw=True)


def end(state: AVTState, reason: str, events: list[Event], draw: bool = False) -> AVTState:
    winners = () if draw else state.sides_in_play()
    if not draw and len(winners) != 1:
        winners, reason = (), f"{reason}: nobody left to win"
    events.append(GameOver(winners, reason))
    return replace(state, phase="over", winners=winners, end_reason=reason)
