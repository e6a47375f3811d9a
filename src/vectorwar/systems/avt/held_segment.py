"""A search trial's segment with the fire held (:meth:`.rules.AttackVector.resolve_in_prospect`), ship by ship.

With the shots at ships held (counted in expectation, their power and cooling spent, :func:`.prospects.held`) and
no target (chocolate) on the map, nothing in a segment passes between ships: each takes its orders, burns, moves,
turns and breaks its burn alone, as the move options are flown (:mod:`.ghosts`). So each ship's segment is worked
out by itself and kept by all it reads (the ship, its entry, the absolute segment, the design and whether altitude
is on): a search's trials of one decision meet the same ship with the same orders again and again (the side whose
order is not varied moves the same way in every trial). A ship made is one object for all ships equal to it, and
the next segment's state one object for the same ships and the same rest, so a trial that comes to a position
another trial reached (by other orders) goes on from the very same state, and what the search keeps by identity
(the fast bot's orders there, the segments after it) is found too. The state is copied once, with the next
segment; everything else (elimination, the end of a turn) is :func:`.segment.advance`'s as ever.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter

from vectorwar.dice import Dice
from vectorwar.events import Event
from vectorwar.memo import Kept
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders
from vectorwar.systems.avt.segment import (
    Unrecorded,
    advance,
    broken_ship,
    burn_cell,
    moved_ship,
    take_orders,
)
from vectorwar.systems.avt.state import AVTState, Ship, grid_steps

#: Each ship's held segment by what it reads (:func:`_ship_alone`), the design kept beside it so its identity stays
#: its own; started again past ``_ALONE_KEPT``.
_ALONE: dict[tuple[object, ...], tuple[Design, Ship]] = {}
_ALONE_KEPT = 8192
#: The ships :data:`_ALONE` holds, each by itself: one object for each ship made.
_SHIPS: dict[Ship, Ship] = {}


def resolve_held(state: AVTState, orders: Mapping[str, SegmentOrders], dice: Dice) -> AVTState | None:
    """The segment of ``orders`` with every shot at a ship held, played on to the next decision, or ``None`` where
    the ships' segments are not their own (a target on the map, a ship given two entries): then the caller plays
    it whole."""
    ids = {s.id for s in state.ships if s.kind == "ship"}
    if len(ids) != len(state.ships) or not orders.keys() <= set(state.sides):
        return None
    entries: dict[str, ShipOrders] = {}
    for given in orders.values():
        for o in given.ships:
            if o.ship in entries or o.ship not in ids or any(shot.target not in ids for shot in o.shots):
                return None
            entries[o.ship] = o
    now, three_d, designs = state.now, state.three_d, state.designs
    ships = []
    for ship in state.ships:
        design = designs[ship.design]
        entry = entries.get(ship.id)
        key = (now, three_d, id(design), ship, entry)
        kept = _ALONE.get(key)
        if kept is None or kept[0] is not design:
            if len(_ALONE) >= _ALONE_KEPT:
                _ALONE.clear()
                _SHIPS.clear()
            made = _ship_alone(state, ship, entry)
            # A ship equal to one made before is that one: the segments after it then find the same position.
            kept = _ALONE[key] = (design, _SHIPS.setdefault(made, made))
        ships.append(kept[1])
    # Held fire marks nothing: the sides in play and giving orders are the state's before, and the segment moves on
    # as advance would.
    if state.segment < SEGMENTS and len(state.sides_in_play()) > 1 and state.commanders():
        return _next_state(state, ships)
    return advance(state.with_ships(ships).same_commanders(state), Unrecorded(), dice)


def _next_state(state: AVTState, ships: list[Ship]) -> AVTState:
    """``state`` with ``ships`` at the next segment: the very state made before from the same ships (the same
    objects) and the same rest, so that a trial meeting a position another trial met finds what was kept for it by
    identity (:class:`vectorwar.search.trials.HeldMemo`'s fast orders and segments)."""
    # The objects named by identity are held by the state kept, so none of them can be another object's.
    key = (*_BY_VALUE(state), *map(id, _BY_IDENTITY(state)), *map(id, ships))
    found = _NEXT.get(key)
    if found is None:
        # The same ids in the same places (each ship's own segment): one copy of the state, the next segment's.
        made = replace_fields(state, ships=tuple(ships), segment=state.segment + 1)
        found = _NEXT.keep(key, made.same_commanders(state))
    return found


#: The fields of a state besides its ships that :func:`_next_state` keys by: plain values, and objects by identity
#: (``tests/avt/test_held_segment.py`` checks that they are every field).
NEXT_BY_VALUE = ("turn", "segment", "phase", "winners", "end_reason", "max_turns")
NEXT_BY_IDENTITY = ("sides", "map", "options", "designs")
_BY_VALUE = attrgetter(*NEXT_BY_VALUE)
_BY_IDENTITY = attrgetter(*NEXT_BY_IDENTITY)
_NEXT_KEPT = 4096
#: :func:`_next_state`'s states by what they are made of; started again past ``_NEXT_KEPT``.
_NEXT: Kept[tuple[object, ...], AVTState] = Kept(_NEXT_KEPT)


def _ship_alone(state: AVTState, ship: Ship, entry: ShipOrders | None) -> Ship:
    """``ship``'s segment with ``entry`` (or none), its shots held: what :func:`.segment.play_segment` does to it."""
    events: list[Event] = Unrecorded()
    if entry is not None and entry.shots:
        ship = _spent(state, ship, entry)
        entry = replace_fields(entry, shots=(), aim=None)
    steps = list(grid_steps(ship.velocity, state.segment)) if ship.active else None
    if entry is not None and not entry.empty:
        ship = take_orders(state, ship, entry, events)
    completed: set[str] = set()
    if steps is not None:
        burning: set[str] = set()
        chart = burn_cell(ship, steps, events, burning)
        ship = moved_ship(state, ship, steps, chart, burning, {}, events, completed, True)
    return broken_ship(ship, completed, events)


def _spent(state: AVTState, ship: Ship, entry: ShipOrders) -> Ship:
    """``ship`` once every laser of ``entry`` has fired, in one copy: each shot's power drawn and its cooling started
    in turn, as :func:`.fire.spend` does shot by shot."""
    design = state.designs[ship.design]
    battery, cooling, used = ship.battery, ship.cooling, ship.used
    for shot in entry.shots:
        spec = design.mounts[design.lasers[shot.laser]]
        system = f"laser {shot.laser}"
        battery -= spec.power
        cooling = (*((n, t) for n, t in cooling if n != shot.laser), (shot.laser, state.now + spec.cooling))
        used = used if system in used else (*used, system)
    return replace_fields(ship, battery=battery, cooling=cooling, used=used)
