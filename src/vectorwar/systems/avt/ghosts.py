"""Move options for front ends: a few useful order entries per ship, each with the path it flies.

AV:T orders are intentions (thrust, pivots, rolls, fire) rather than a list
of hexes, so the set of legal entries is far too large to list. A front end
gets a bounded, useful set for each of the side's ships at the orders
prompt:

* ``SHIP hold``: no change (the current thrust setting, if any, stays on);
* ``SHIP thrust N`` for every setting from 0 to the ship's current maximum
  other than the one set, along the current nose, with no pivot. None but
  ``thrust 0`` when the ship has no fuel left or its radiators are not in.

Each option's path is where the ship would be after each remaining segment
of this turn (its position now first, altitude included) if the entry were
given now and nothing else were ordered until the turn ends. It is flown by
the segment's own steps (:func:`.segment.play_segment`) on a copy of the
game holding only that ship, so it is exactly what resolution would do: fire
and the other ships cannot change a ship's own movement. Nor can where the
ship is: ships alike in all but place and name (a fleet in formation) fly the
same paths moved over, so each such group's options are flown once.
"""

from __future__ import annotations

from vectorwar.dice import Dice
from vectorwar.display import MoveOption
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.memo import Kept
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.display import counter_facing
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders
from vectorwar.systems.avt.segment import Unrecorded, play_segment
from vectorwar.systems.avt.ssd import thrust_limit
from vectorwar.systems.avt.state import AVTState, Ship, unplaced


def entries(state: AVTState, ship: Ship) -> list[ShipOrders]:
    """The bounded set of entries offered for ``ship``: hold, then each other thrust setting."""
    design = state.designs[ship.design]
    can_thrust = ship.radiators == "in" and ship.fuel - ship.chart.fuel > 0
    top = thrust_limit(design, ship) if can_thrust else 0
    return [ShipOrders(ship.id)] + [ShipOrders(ship.id, thrust=t) for t in range(top + 1) if t != ship.chart.setting]


def entry_text(orders: ShipOrders) -> str:
    """The entry as a side writes it; an empty entry is the ship's own ``hold``."""
    return str(orders) if not orders.empty else f"{orders.ship} hold"


def fly(state: AVTState, ship: Ship, orders: ShipOrders) -> tuple[tuple[Position, ...], Ship]:
    """Positions after each remaining segment of the turn (starting where it is), and the ship at the end."""
    alone = replace_fields(state, ships=(ship,))
    given = {ship.side: SegmentOrders((orders,) if not orders.empty else ())}
    # The entries offered never fire, so these dice are never thrown.
    dice = Dice(0, 0)
    path = [ship.position]
    for segment in range(state.segment, SEGMENTS + 1):
        alone = play_segment(replace_fields(alone, segment=segment), given, dice, Unrecorded())
        given = {}
        path.append(alone.ship(ship.id).position)
    return tuple(path), alone.ship(ship.id)


#: One option's flight as steps from where the ship starts (axial columns, rows, levels), and the counter's facing at
#: the end.
_Flight = tuple[tuple[tuple[int, int, int], ...], Direction | None]


def _flights(state: AVTState, ship: Ship) -> list[_Flight]:
    """Each of :func:`entries`' options for ``ship``, flown (as :func:`fly` flies it), as steps from where it starts.

    The options are flown together, each by a copy of the ship under an id of its own in one game: copies that fire
    at nothing and meet no target cannot change each other's movement, so each flies as it would alone, and the
    segment's steps are played once for all of them.
    """
    start = ship.position
    q, r, z = start.hex.q, start.hex.r, start.altitude
    options = entries(state, ship)
    copies = tuple(replace_fields(ship, id=f"{ship.id}#{i}") for i in range(len(options)))
    given = {
        ship.side: SegmentOrders(
            tuple(replace_fields(o, ship=c.id) for o, c in zip(options, copies, strict=True) if not o.empty)
        )
    }
    together = replace_fields(state, ships=copies)
    # The entries offered never fire, so these dice are never thrown.
    dice = Dice(0, 0)
    paths: list[list[Position]] = [[start] for _ in copies]
    for segment in range(state.segment, SEGMENTS + 1):
        together = play_segment(replace_fields(together, segment=segment), given, dice, Unrecorded())
        given = {}
        for path, flown in zip(paths, together.ships, strict=True):
            path.append(flown.position)
    return [
        (tuple((p.hex.q - q, p.hex.r - r, p.altitude - z) for p in path), counter_facing(end))
        for path, end in zip(paths, together.ships, strict=True)
    ]


_FLOWN_KEPT = 256
#: :func:`_flights`' answers by what they depend on (:func:`_flight_key`), the design kept beside them so its identity
#: stays its own; started again past ``_FLOWN_KEPT``. A scene built again for the same position (another viewer, the
#: search bot's menus of one decision) flies nothing again, nor does a turn whose ships are alike.
_FLOWN: Kept[tuple[object, ...], tuple[Design, tuple[_Flight, ...]]] = Kept(_FLOWN_KEPT)


def _kept_flights(state: AVTState, ship: Ship) -> tuple[_Flight, ...]:
    """:func:`_flights`, kept by all a flight reads: the ship but for its id, name and place, the turn and segment
    (a facing change's stops are absolute), the ship's design and the game's options."""
    design = state.designs[ship.design]
    key = (unplaced(ship), state.turn, state.segment, id(design), tuple(sorted(state.options.items())))
    kept = _FLOWN.get(key)
    if kept is not None and kept[0] is design:
        return kept[1]
    flights = tuple(_flights(state, ship))
    _FLOWN.keep(key, (design, flights))
    return flights


def _moved(start: Position, steps: tuple[tuple[int, int, int], ...]) -> tuple[Position, ...]:
    q, r, z = start.hex.q, start.hex.r, start.altitude
    return tuple(Position(Hex(q + dq, r + dr), z + dz) for dq, dr, dz in steps)


def move_options(state: AVTState, side: str) -> dict[str, list[MoveOption]]:
    """Ship id -> the options offered, for the side's ships at an orders prompt (else nothing)."""
    if state.phase != "orders" or side not in state.commanders():
        return {}
    out: dict[str, list[MoveOption]] = {}
    for ship in state.ships_of(side):
        if ship.kind != "ship" or not ship.active:
            continue
        flights = _kept_flights(state, ship)
        out[ship.id] = [
            MoveOption(entry_text(orders), _moved(ship.position, steps), facing)
            for orders, (steps, facing) in zip(entries(state, ship), flights, strict=True)
        ]
    return out
