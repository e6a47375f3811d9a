"""The end-of-turn procedure, step by step in the text's order (A2.4 End of Turn Procedure, A5.39-A5.392).

After segment 8 and before segment 1 every ship keeps its Heat Management
Console (A4.21, A5.314):

1. **Record heat** (A5.39): each turn its reactors were on, a ship's
   reactors put heat equal to their power per segment into the heat sinks
   (the Rafik's 3 power a segment makes 3 heat a turn). Fractional heat is
   rounded up before dissipation: that is the heat just made (docs/rulings/avt.md,
   *AV:T heat rounding*). Heat beyond the heat sinks' capacity is recorded as
   excess heat; what it does is part 2.
2. **Dump heat** (A5.391): radiators that are out dump 0.4 a turn each (the
   design's radiator output, 1.2 for the Rafik's); the fractions stay until
   the radiators are retracted.
3. **Reactors** (A5.39, A5.392): the reactors are on or off for the whole of
   the next turn as chosen (the choice is written with any segment's orders).
4. **Radiators** (A5.391, A5.392): extending or retracting takes a full turn;
   retracted radiators round up the heat left. A ship whose radiators start
   to extend cuts its engine (it may thrust only with them in).

Flex points (A5.312) and the effects of heat are part 2 (docs/rules/avt.md).
Each step is a named function and logs one event per ship, so the game log
reads like the record keeping a player would do.
"""

from __future__ import annotations

from collections.abc import Callable

from vectorwar.dice import Dice
from vectorwar.events import Event
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.breaks import resolve_vectors
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.events import HeatDumped, HeatRecorded, RadiatorsSet, ReactorsSet, TurnEnded
from vectorwar.systems.avt.repairs import HEAT_SINK_USE, repair_step
from vectorwar.systems.avt.ssd import radiator_tenths, ship_heat_capacity
from vectorwar.systems.avt.state import HEAT_TENTHS, AVTState, RadiatorStatus, Ship

#: One step of the procedure: a ship, its design and the turn that follows -> the ship after the step.
ShipStep = Callable[[Ship, Design, int, list[Event]], Ship]


def round_up(tenths: int) -> int:
    """Heat rounded up to whole points (A5.39, A5.391), still in tenths.

    >>> round_up(18), round_up(30), round_up(0)
    (20, 30, 0)
    """
    return -(-tenths // HEAT_TENTHS) * HEAT_TENTHS


def record_heat(ship: Ship, design: Design, coming: int, events: list[Event]) -> Ship:
    """Step 1: the reactors' heat for the turn just played goes into the heat sinks."""
    generated = round_up(design.reactor * HEAT_TENTHS) if ship.reactors_on else 0
    stored = ship.heat_tenths + generated
    events.append(HeatRecorded(ship.id, generated, stored, ship_heat_capacity(design, ship)))
    return replace_fields(ship, heat_tenths=stored)


def dump_heat(ship: Ship, design: Design, coming: int, events: list[Event]) -> Ship:
    """Step 2: radiators that are out dump their output, never below zero."""
    if ship.radiators != "out":
        return ship
    dumped = min(ship.heat_tenths, radiator_tenths(design, ship))
    stored = ship.heat_tenths - dumped
    events.append(HeatDumped(ship.id, dumped, stored))
    return replace_fields(ship, heat_tenths=stored)


def set_reactors(ship: Ship, design: Design, coming: int, events: list[Event]) -> Ship:
    """Step 3: the reactors chosen for the coming turn (on unless turned off)."""
    if ship.reactors_next is None:
        events.append(ReactorsSet(ship.id, ship.reactors_on, False, coming))
        return ship
    events.append(ReactorsSet(ship.id, ship.reactors_next, ship.reactors_next != ship.reactors_on, coming))
    return replace_fields(ship, reactors_on=ship.reactors_next, reactors_next=None)


_NEXT: dict[tuple[RadiatorStatus, str | None], RadiatorStatus] = {
    ("in", "out"): "extending",
    ("extending", None): "out",
    ("out", "in"): "retracting",
    ("retracting", None): "in",
}


def move_radiators(ship: Ship, design: Design, coming: int, events: list[Event]) -> Ship:
    """Step 4: radiators finish or start extending or retracting, a full turn each way."""
    after = _NEXT.get((ship.radiators, ship.radiators_next), ship.radiators)
    heat = round_up(ship.heat_tenths) if after == "in" and ship.radiators == "retracting" else ship.heat_tenths
    events.append(RadiatorsSet(ship.id, ship.radiators, after, coming, heat))
    if (after, heat) == (ship.radiators, ship.heat_tenths) and ship.radiators_next is None:
        return ship
    ship = replace_fields(ship, radiators=after, radiators_next=None, heat_tenths=heat)
    if after == "extending" and (ship.chart.setting or ship.chart.burning):
        if ship.chart.burning:
            ship = resolve_vectors(ship, "engine off: radiators extending", events)
        ship = replace_fields(ship, chart=replace_fields(ship.chart, setting=0))
    return ship


#: The procedure in the text's order, each step with its name as the log and docs call it.
STEPS: tuple[tuple[str, ShipStep], ...] = (
    ("record heat", record_heat),
    ("dump heat", dump_heat),
    ("reactors", set_reactors),
    ("radiators", move_radiators),
)


def end_of_turn(state: AVTState, events: list[Event], dice: Dice) -> AVTState:
    """Run the end-of-turn procedure for every ship in play (targets keep no records)."""
    events.append(TurnEnded(state.turn))
    ships = {s.id: s for s in state.ships}
    keeping = [s.id for s in state.ships if s.active and s.kind == "ship"]
    before = {ship_id: ships[ship_id].heat_tenths for ship_id in keeping}
    heat_in: dict[str, bool] = {}
    for name, step in STEPS:
        for ship_id in keeping:
            ship = ships[ship_id]
            ships[ship_id] = step(ship, state.designs[ship.design], state.turn + 1, events)
        if name == "record heat":
            heat_in = {ship_id: ships[ship_id].heat_tenths > before[ship_id] for ship_id in keeping}
    # Damage control (A5.48): after the record keeping, with what each ship used this turn.
    holding_counts = state.options.get(HEAT_SINK_USE) == "holds-heat"
    for ship_id in keeping:
        ship = ships[ship_id]
        design = state.designs[ship.design]
        ships[ship_id] = repair_step(ship, design, state.turn + 1, dice, events, heat_in[ship_id], holding_counts)
    return replace_fields(state, ships=tuple(ships[s.id] for s in state.ships))
