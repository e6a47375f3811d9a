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
from vectorwar.events import Event, GameOver, Note, Rolled, TurnBegan
from vectorwar.systems.avt.arcs import map_to_arc, middle_row
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.systems.avt.avid import TargetMarker, shoot_bearing
from vectorwar.systems.avt.breaks import resolve_vectors
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.events import (
    FacingChanged,
    LaserFired,
    OrdersGiven,
    SegmentBegan,
    ShipMoved,
    TargetDestroyed,
    ThrustBurned,
)
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.lasers import damage, entry, max_range
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders
from vectorwar.systems.avt.orientation import pivot_path, roll_path, schedule
from vectorwar.systems.avt.state import AVTState, Ship, Turning, grid_steps, when
from vectorwar.systems.avt.thrust import ThrustChart
from vectorwar.systems.avt.turn_end import end_of_turn


def marker_between(state: AVTState, shooter: Ship, target: Ship) -> TargetMarker:
    return shoot_bearing(shooter.position, target.position, state.three_d)


def arc_windows(state: AVTState, shooter: Ship, marker: TargetMarker) -> tuple[str, ...]:
    """The firing arc window(s) a target marker maps to, as text."""
    if marker.window is None:
        return ()
    if not state.three_d:
        return (str(middle_row(shooter.orientation, marker.window)),)
    return tuple(str(w) for w in map_to_arc(shooter.orientation, marker.window))


def laser_bears(state: AVTState, design: Design, shooter: Ship, laser: str, target: Ship) -> str | None:
    """Why ``laser`` cannot fire at ``target`` now, or ``None`` if it can."""
    mount = design.lasers.get(laser)
    if mount is None:
        return f"{shooter.id} has no laser {laser} (it has {', '.join(design.lasers) or 'none'})"
    spec = design.mounts[mount]
    if shooter.ready_at(laser) > state.now:
        return f"{laser} is cooling until {when(shooter.ready_at(laser))} (A5.371)"
    marker = marker_between(state, shooter, target)
    if marker.window is None:
        return f"{target.id} is in {shooter.id}'s own space"
    if marker.range > max_range(spec.weapon):
        return f"{target.id} is at range {marker.range}, beyond {spec.weapon}'s {max_range(spec.weapon)}"
    arc = design.arcs[mount]
    if state.three_d:
        windows = map_to_arc(shooter.orientation, marker.window)
    else:
        windows = (middle_row(shooter.orientation, marker.window),)
    if not any(w in arc for w in windows):
        shown = "/".join(str(w) for w in windows)
        return f"{target.id} is seen through AVID {marker} = arc window {shown}, outside mount {mount}'s arc"
    return None


def shot_problem(state: AVTState, design: Design, shooter: Ship, laser: str, target: Ship) -> str | None:
    """Why ``laser`` may not fire at ``target`` now, power aside (a ship's shots share its batteries), or ``None``."""
    if target.side == shooter.side or not target.active:
        return f"{target.id} is not an enemy in play"
    if target.kind != "target":
        return "damage to ships (armour, soak, hit locations) is not implemented yet; fire at targets"
    return laser_bears(state, design, shooter, laser, target)


def laser_targets(state: AVTState, design: Design, shooter: Ship, laser: str) -> list[Ship]:
    """Every ship ``laser`` may fire at now (power aside), in roster order: bots and front ends read this."""
    return [t for t in state.enemies_of(shooter.side) if shot_problem(state, design, shooter, laser, t) is None]


def _begin_facing_change(state: AVTState, design: Design, ship: Ship, orders: ShipOrders) -> Ship:
    if orders.pivot is not None:
        path = pivot_path(ship.orientation, orders.pivot, state.three_d)
        stops = schedule(path, design.pivots)
        turning = Turning("pivot", f"pivot {orders.pivot}", tuple((state.now + t, o) for t, o in stops))
    else:
        path = roll_path(ship.orientation, orders.roll)
        stops = schedule(path, design.rolls)
        side = "stbd" if orders.roll > 0 else "port"
        turning = Turning("roll", f"roll {side} {abs(orders.roll)}", tuple((state.now + t, o) for t, o in stops))
    return replace(ship, turning=turning) if turning.stops else ship


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
            ship = ships[o.ship]
            design = state.designs[ship.design]
            events.append(OrdersGiven(ship.id, ", ".join(o.actions())))
            # One replace per ship: the segment is resolved for many ships many times (the benchmark).
            changes: dict[str, Any] = {}
            if o.thrust is not None and o.thrust != ship.chart.setting:
                if ship.chart.burning and o.thrust > 0:
                    # A new setting starts its own column from the top (docs/rulings.md, *AV:T changing thrust*).
                    ship = resolve_vectors(ship, f"thrust changed to {o.thrust}", events)
                changes["chart"] = replace(ship.chart, setting=o.thrust)
            if o.bias is not None:
                changes["bias"] = o.bias
            # Written now, carried out between segment 8 and segment 1 (A5.392, turn_end).
            if o.reactors is not None:
                changes["reactors_next"] = None if o.reactors == ship.reactors_on else o.reactors
            if o.radiators is not None:
                changes["radiators_next"] = None if o.radiators == ship.radiators else o.radiators
            if changes:
                ship = replace(ship, **changes)
            if o.pivot is not None or o.roll:
                ship = _begin_facing_change(state, design, ship, o)
            ships[ship.id] = ship
    return replace(state, ships=tuple(ships[s.id] for s in state.ships)) if given_any else state


def _fire_step(state: AVTState, orders: Mapping[str, SegmentOrders], dice: Dice, events: list[Event]) -> AVTState:
    scored: dict[str, list[tuple[str, int]]] = {}
    for side in state.sides:
        given = orders.get(side)
        if given is None:
            continue
        for o in given.ships:
            if not o.shots:
                continue
            shooter = state.ship(o.ship)
            design = state.designs[shooter.design]
            for shot in o.shots:
                target = state.ship(shot.target)
                spec = design.mounts[design.lasers[shot.laser]]
                marker = marker_between(state, shooter, target)
                roll = dice.roll("d10", f"{shooter.id} {shot.laser} at {target.id}, range {marker.range}")
                events.append(Rolled.of(roll))
                text = entry(spec.weapon, marker.range, roll.total)
                points = damage(spec.weapon, marker.range, roll.total)
                window = "/".join(arc_windows(state, shooter, marker))
                events.append(
                    LaserFired(
                        shooter.id, shot.laser, target.id, str(marker), window, marker.range, roll.total, text, points
                    )
                )
                scored.setdefault(target.id, []).append((shooter.id, points))
                shooter = replace(
                    shooter,
                    battery=shooter.battery - spec.power,
                    cooling=(
                        *((n, t) for n, t in shooter.cooling if n != shot.laser),
                        (shot.laser, state.now + spec.cooling),
                    ),
                )
            state = state.with_ship(shooter)
    for target_id, hits in scored.items():
        target = state.ship(target_id)
        total = sum(points for _, points in hits)
        toughness = state.designs[target.design].toughness
        if target.active and total >= toughness:
            by = " and ".join(sorted({who for who, _ in hits}))
            events.append(TargetDestroyed(target.id, by, f"{total} damage this segment, {toughness} needed"))
            state = state.with_ship(replace(target, status="destroyed"))
        elif target.active:
            events.append(
                Note(f"{target.id} takes {total} damage this segment; {toughness} in one segment destroys it")
            )
    return state


def _burn(ship: Ship, steps: list[Arrow], events: list[Event]) -> ThrustChart:
    """Resolve thrust for one ship: its chart after this segment's cell; displacement joins ``steps``."""
    chart = ship.chart
    if chart.setting == 0:
        return chart
    if ship.fuel - chart.fuel < chart.fuel_for_next_cell():
        events.append(Note(f"{ship.id} has no fuel for another cell of thrust {chart.setting}: engine off"))
        return replace(chart, setting=0)
    pivoting = ship.turning is not None and ship.turning.kind == "pivot"
    chart, burn = chart.burn(ship.orientation.nose, ship.bias, pivoting)
    dots = ", ".join(f"{a}={n}" for a, n in burn.dots)
    shifted = " ".join(str(a) for a in burn.displacement)
    events.append(ThrustBurned(ship.id, chart.setting, burn.cell, dots, shifted))
    steps.extend(burn.displacement)
    return chart


def _thrust_and_movement(
    state: AVTState, paths: dict[str, list[Arrow]], events: list[Event]
) -> tuple[AVTState, set[str]]:
    """Resolve thrust for every ship, then move them all and advance their facing changes."""
    ships = {s.id: s for s in state.ships}
    charts = {ship_id: _burn(ships[ship_id], steps, events) for ship_id, steps in paths.items()}
    completed: set[str] = set()
    for ship_id, steps in paths.items():
        ship = ships[ship_id]
        position, orientation, turning = ship.position, ship.orientation, ship.turning
        if steps:
            path = [position]
            for arrow in steps:
                path.append(arrow.velocity.moved(path[-1]))
            position = path[-1]
            events.append(ShipMoved(ship.id, " ".join(str(a) for a in steps), tuple(path)))
            for target in ships.values():
                if target.active and target.kind == "target" and target.position in path[1:]:
                    events.append(TargetDestroyed(target.id, ship.id, "flown through: eaten"))
                    ships[target.id] = replace(target, status="destroyed")
        if turning is not None:
            reached = [o for at, o in turning.stops if at == state.now]
            if reached:
                orientation = reached[-1]
                done = turning.ends == state.now
                events.append(FacingChanged(ship.id, orientation, done))
                if done:
                    completed.add(ship.id)
                    turning = None
        chart = charts[ship_id]
        if (position, orientation, turning, chart) != (ship.position, ship.orientation, ship.turning, ship.chart):
            ships[ship_id] = replace(ship, position=position, orientation=orientation, turning=turning, chart=chart)
    return replace(state, ships=tuple(ships[s.id] for s in state.ships)), completed


def _break_step(state: AVTState, completed: set[str], events: list[Event]) -> AVTState:
    ships = list(state.ships)
    for i, ship in enumerate(ships):
        if not ship.chart.burning:
            continue
        reasons = []
        if ship.chart.off_the_bottom:
            reasons.append("off the bottom of the thrust chart")
        if ship.id in completed:
            reasons.append("facing change completed")
        if ship.chart.setting == 0:
            reasons.append("thrust set to zero")
        if reasons:
            ships[i] = resolve_vectors(ship, ", ".join(reasons), events)
    return replace(state, ships=tuple(ships)) if ships != list(state.ships) else state


def play_segment(state: AVTState, orders: Mapping[str, SegmentOrders], dice: Dice, events: list[Event]) -> AVTState:
    """The segment's steps in the text's order (A5.212, A5.244), stopping before the next segment."""
    paths = {s.id: list(grid_steps(s.velocity, state.segment)) for s in state.ships if s.active and s.kind == "ship"}
    state = _orders_step(state, orders, events)
    state = _fire_step(state, orders, dice, events)
    state, completed = _thrust_and_movement(state, paths, events)
    return _break_step(state, completed, events)


def resolve_segment(state: AVTState, orders: Mapping[str, SegmentOrders], dice: Dice) -> tuple[AVTState, list[Event]]:
    """Play the current segment with every side's orders, then move on to the next decision."""
    events: list[Event] = []
    state = play_segment(state, orders, dice, events)
    return advance(_recharge(state), events), events


def _recharge(state: AVTState) -> AVTState:
    """Reactors that are on refill the batteries, up to their capacity (A5.39, power per segment)."""
    ships = list(state.ships)
    for i, ship in enumerate(ships):
        if ship.active and ship.kind == "ship" and ship.reactors_on:
            design = state.designs[ship.design]
            battery = min(design.battery, ship.battery + design.reactor)
            if battery != ship.battery:
                ships[i] = replace(ship, battery=battery)
    return replace(state, ships=tuple(ships)) if ships != list(state.ships) else state


def advance(state: AVTState, events: list[Event]) -> AVTState:
    """On to the next segment, ending the turn or the game as due."""
    if len(state.sides_in_play()) <= 1 or not state.commanders():
        return end(state, "elimination", events)
    if state.segment < SEGMENTS:
        state = replace(state, segment=state.segment + 1)
    else:
        state = end_of_turn(state, events)
        if state.turn >= state.max_turns:
            return end(state, f"turn limit {state.max_turns} reached", events, draw=True)
        state = replace(state, turn=state.turn + 1, segment=1)
        events.append(TurnBegan(state.turn))
    events.append(SegmentBegan(state.turn, state.segment))
    return state


def end(state: AVTState, reason: str, events: list[Event], draw: bool = False) -> AVTState:
    winners = () if draw else state.sides_in_play()
    if not draw and len(winners) != 1:
        winners, reason = (), f"{reason}: nobody left to win"
    events.append(GameOver(winners, reason))
    return replace(state, phase="over", winners=winners, end_reason=reason)
