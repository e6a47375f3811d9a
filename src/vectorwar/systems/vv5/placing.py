"""Placements the players make before turn 1 (VV5 scenarios 2, 4 and 8).

A scenario asks for them by leaving them out of its file; the special then
lists the placements still owed in ``VV5State.placing``, each ``"side:what"``,
and the game opens in the ``place`` phase. Each owed placement is one order,
from the choices :func:`options` offers; once all are made the special's own
start runs and turn 1 begins.

* Stasis Pod (``body`` and ``pod`` left out of ``[special]``): one player puts
  the orbited body at the centre of the map, another the pod next to it
  (``place body H@4,3``, ``place pod H@5,3``; what is owed: ``body``, ``pod``).
* Refugees (``placement = "players"``): the interceptors place each starship
  no less than ten hexes from the asteroid, with its facing (``place Y1 G@4,3 B``;
  owed ``ship:Y1``), then the refugees choose each ship's facing on the rock
  (``face Z1 C``; owed ``face:Z1``). Every ship starts at 1 hex a turn the way it faces.
* Strike Force and Assault Force (``placement = "players"``): the interceptors
  choose their edge, the top of D or the bottom of N (``edge top``; owed ``edge``).

>>> parse("place body H@4,3"), str(parse("Pod h@5,3"))
(Place(what='body', at='H@4,3'), 'place pod H@5,3')
>>> parse("place y1 g@4,3 b"), str(parse("face z1 c")), str(parse("edge Bottom"))
(PlaceShip(ship='Y1', at='G@4,3', facing='B'), 'face Z1 C', 'edge bottom')
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace

from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.events import Event, Note
from vectorwar.hexes import Direction, Hex
from vectorwar.rules import Clock, Prompt
from vectorwar.systems.vv5.movement import is_solid
from vectorwar.systems.vv5.state import CargoRunState, PodState, VV5State
from vectorwar.vectors import Velocity

RULE = "VV5 Scenario 4 (Stasis Pod: placing the body and the pod)"
RULE_REFUGEES = "VV5 Scenario 8 (Refugees: the interceptors place first, no less than ten hexes from the asteroid)"
RULE_FACINGS = "VV5 Scenario 8 (Refugees: the refugees start on the asteroid facing any direction)"
RULE_EDGE = "VV5 Scenario 2 (Strike Force: the interceptors start on the top edge of D or the bottom edge of N)"
WHAT = ("body", "pod")
EDGES = ("top", "bottom")
#: How fast the interceptors of Strike Force and Assault Force come in.
EDGE_SPEED = 2
_PLACE = re.compile(r"^\s*(?:place\s+)?(body|pod)\s+(\S+)\s*$", re.IGNORECASE)
_SHIP = re.compile(r"^\s*place\s+(\S+)\s+(\S+)\s+([A-F])\s*$", re.IGNORECASE)
_FACE = re.compile(r"^\s*face\s+(\S+)\s+([A-F])\s*$", re.IGNORECASE)
_EDGE = re.compile(r"^\s*edge\s+(top|bottom)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Place:
    """Put ``what`` (the orbited body or the stasis pod) at the hex named ``at``."""

    what: str
    at: str

    @classmethod
    def parse(cls, text: str) -> Place:
        m = _PLACE.match(text)
        if not m:
            raise OrderSyntaxError(text, "write 'place body HEX' or 'place pod HEX', e.g. 'place body H@4,3'")
        return cls(m.group(1).lower(), m.group(2).upper())

    def __str__(self) -> str:
        return f"place {self.what} {self.at}"


@dataclass(frozen=True, slots=True)
class PlaceShip:
    """Put the starship ``ship`` at the hex ``at``, facing ``facing`` (Refugees' interceptors)."""

    ship: str
    at: str
    facing: str

    def __str__(self) -> str:
        return f"place {self.ship} {self.at} {self.facing}"


@dataclass(frozen=True, slots=True)
class Face:
    """Turn the starship ``ship`` to ``facing`` where it starts (Refugees' ships on the asteroid)."""

    ship: str
    facing: str

    def __str__(self) -> str:
        return f"face {self.ship} {self.facing}"


@dataclass(frozen=True, slots=True)
class Edge:
    """The interceptors' starting edge: ``top`` (of D) or ``bottom`` (of N)."""

    edge: str

    def __str__(self) -> str:
        return f"edge {self.edge}"


Placement = Place | PlaceShip | Face | Edge
PLACEMENTS = (Place, PlaceShip, Face, Edge)


def parse(text: str) -> Placement:
    """Any set-up placement order."""
    if m := _SHIP.match(text):
        return PlaceShip(m.group(1).upper(), m.group(2).upper(), m.group(3).upper())
    if m := _FACE.match(text):
        return Face(m.group(1).upper(), m.group(2).upper())
    if m := _EDGE.match(text):
        return Edge(m.group(1).lower())
    if _PLACE.match(text):
        return Place.parse(text)
    raise OrderSyntaxError(
        text,
        "write 'place body HEX' or 'place pod HEX', 'place SHIP HEX FACING' (e.g. 'place Y1 G@4,3 B'), "
        "'face SHIP FACING' (e.g. 'face Z1 C') or 'edge top' / 'edge bottom'",
    )


def owed(state: VV5State) -> tuple[str, str]:
    """(side, what) of the next placement: ``body``, ``pod``, ``ship:ID``, ``face:ID`` or ``edge``."""
    side, _, what = state.placing[0].partition(":")
    return side, what


def centre_hexes(state: VV5State) -> list[Hex]:
    """The hexes nearest the middle of the board: on an even board the centre is a corner of four."""
    c0, r0, c1, r1 = state.map.extent
    cols = sorted({(c0 + c1) // 2, (c0 + c1 + 1) // 2})
    rows = sorted({(r0 + r1) // 2, (r0 + r1 + 1) // 2})
    return [Hex.from_offset(c, r) for c in cols for r in rows if state.map.contains(Hex.from_offset(c, r))]


def choices(state: VV5State) -> list[Hex]:
    """Where the next body, pod or interceptor may go (none for a facing or an edge)."""
    _, what = owed(state)
    if what == "body":
        return centre_hexes(state)
    if what == "pod":
        pod = _pod(state)
        return [
            h for h in (pod.body.neighbour(d) for d in Direction) if state.map.contains(h) and state.occupant(h) is None
        ]
    if what.startswith("ship:"):
        return ship_hexes(state, what.partition(":")[2])
    return []


def ship_hexes(state: VV5State, ship_id: str) -> list[Hex]:
    """Every hex an interceptor may start in: on the map, open, no nearer the asteroid than the scenario's
    distance, and not where a starship already placed sits."""
    run = _run(state)
    rock, least = _rock(run), run.min_distance
    taken = {s.hex for s in state.ships if s.id != ship_id and f"{s.side}:ship:{s.id}" not in state.placing}
    return [
        h
        for section in state.map.sections
        for h in section.hexes()
        if h.distance(rock) >= least and h not in taken and not is_solid(state.map.terrain_at(h))
    ]


def nearest_choices(state: VV5State, ship_id: str) -> list[PlaceShip]:
    """The interceptor's placements at the least distance it may start from the asteroid, each facing it."""
    run = _run(state)
    rock = _rock(run)
    hexes = [h for h in ship_hexes(state, ship_id) if h.distance(rock) == run.min_distance]
    return [
        PlaceShip(ship_id, name(state, h), str(_toward(h, rock))) for h in sorted(hexes, key=lambda h: (h.row, h.col))
    ]


def _toward(at: Hex, rock: Hex) -> Direction:
    """The facing that brings a ship at ``at`` nearest ``rock`` in one hex."""
    return min(Direction, key=lambda d: (at.neighbour(d).distance(rock), int(d)))


def free_facings(state: VV5State, ship_id: str) -> list[Direction]:
    """The facings a refugee ship may take: any not taken by a ship of its side already faced (docs/rulings/vv5.md,
    *VV5 refugees start on their asteroid*: no two lift off the same way)."""
    ship = state.ship(ship_id)
    faced = {
        s.facing
        for s in state.ships_of(ship.side)
        if s.id != ship_id and s.hex == ship.hex and f"{s.side}:face:{s.id}" not in state.placing
    }
    return [d for d in Direction if d not in faced]


def name(state: VV5State, h: Hex) -> str:
    """The hex as a player writes it on a map of sections, ``H@4,3``."""
    section = state.map.section_of(h)
    if section is None or len(state.map.sections) == 1:
        return str(h)
    return f"{section.name}@{h.col - section.col},{h.row - section.row}"


def prompt(state: VV5State) -> Prompt:
    side, what = owed(state)
    if what in WHAT:
        where = ", ".join(name(state, h) for h in choices(state))
        help = (
            f"place the orbited body at the centre of the map ('place body HEX'): {where}"
            if what == "body"
            else f"place the stasis pod next to the body ('place pod HEX'): {where}"
        )
    elif what.startswith("ship:"):
        ship_id = what.partition(":")[2]
        run = _run(state)
        help = (
            f"place {ship_id} and its facing, no less than {run.min_distance} hexes from the asteroid at "
            f"{name(state, _rock(run))} ('place {ship_id} HEX FACING', e.g. 'place {ship_id} G@4,3 B'); "
            "it starts at 1 hex a turn the way it faces"
        )
    elif what.startswith("face:"):
        ship_id = what.partition(":")[2]
        free = " ".join(str(d) for d in free_facings(state, ship_id))
        help = f"the facing {ship_id} lifts off the asteroid with, at 1 hex a turn ('face {ship_id} C'): one of {free}"
    else:
        help = (
            "your interceptors' edge: 'edge top' (the top edge of D, heading down) or "
            f"'edge bottom' (the bottom edge of N, heading up), at {EDGE_SPEED} hexes a turn"
        )
    return Prompt(Clock(0, "place"), (side,), "place", False, help)


def check(state: VV5State, side: str, order: Placement) -> None:
    placer, what = owed(state)
    if side != placer:  # pragma: no cover - the kernel asks only the prompted side
        raise IllegalOrderError(str(order), f"{placer} places now", RULE)
    if what in WHAT:
        _check_pod(state, order, what)
    elif what.startswith("ship:"):
        _check_ship(state, order, what.partition(":")[2])
    elif what.startswith("face:"):
        _check_face(state, order, what.partition(":")[2])
    elif not isinstance(order, Edge):
        raise IllegalOrderError(
            str(order), "choose your interceptors' edge now: 'edge top' or 'edge bottom'", RULE_EDGE
        )


def _check_pod(state: VV5State, order: Placement, what: str) -> None:
    if not isinstance(order, Place) or order.what != what:
        got = order.what if isinstance(order, Place) else str(order)
        raise IllegalOrderError(str(order), f"the {what} is to be placed now, not the {got}", RULE)
    at = _locate(state, order.at, str(order), RULE)
    allowed = choices(state)
    if at not in allowed:
        where = ", ".join(name(state, h) for h in allowed)
        rule = "at the centre of the map" if what == "body" else "in a free hex next to the body"
        raise IllegalOrderError(str(order), f"the {what} goes {rule}: one of {where}", RULE)


def _check_ship(state: VV5State, order: Placement, ship_id: str) -> None:
    if not isinstance(order, PlaceShip) or order.ship != ship_id.upper():
        raise IllegalOrderError(
            str(order), f"{ship_id} is to be placed now: 'place {ship_id} HEX FACING'", RULE_REFUGEES
        )
    at = _locate(state, order.at, str(order), RULE_REFUGEES)
    run = _run(state)
    rock = _rock(run)
    if not state.map.contains(at):
        raise IllegalOrderError(str(order), f"{order.at} is off the board", RULE_REFUGEES)
    if at.distance(rock) < run.min_distance:
        raise IllegalOrderError(
            str(order),
            f"{order.at} is {at.distance(rock)} hexes from the asteroid at {name(state, rock)}; "
            f"the interceptors start no less than {run.min_distance} hexes away",
            RULE_REFUGEES,
        )
    if at not in ship_hexes(state, ship_id):
        raise IllegalOrderError(str(order), f"{order.at} is taken: one starship a hex, none on a rock", RULE_REFUGEES)


def _check_face(state: VV5State, order: Placement, ship_id: str) -> None:
    if not isinstance(order, Face) or order.ship != ship_id.upper():
        raise IllegalOrderError(str(order), f"{ship_id}'s facing is due now: 'face {ship_id} C'", RULE_FACINGS)
    free = free_facings(state, ship_id)
    if Direction.parse(order.facing) not in free:
        raise IllegalOrderError(
            str(order),
            f"another refugee ship already lifts off facing {order.facing}: one of {' '.join(map(str, free))}",
            RULE_FACINGS,
        )


def resolve(state: VV5State, side: str, order: Placement, events: list[Event]) -> VV5State:
    ship_id = owed(state)[1].partition(":")[2]  # the ship as the file names it (orders are read in capitals)
    state = replace(state, placing=state.placing[1:])
    if isinstance(order, Place):
        return _resolve_pod(state, side, order, events)
    if isinstance(order, PlaceShip):
        facing = Direction.parse(order.facing)
        at = state.map.locate(order.at)
        ship = replace(state.ship(ship_id), hex=at, facing=facing, velocity=Velocity.toward(facing))
        events.append(Note(f"{side} places {ship_id} at {order.at} facing {facing}, at 1 hex a turn"))
        return state.with_ship(ship)
    if isinstance(order, Face):
        facing = Direction.parse(order.facing)
        ship = replace(state.ship(ship_id), facing=facing, velocity=Velocity.toward(facing))
        events.append(Note(f"{ship_id} lifts off facing {facing}, at 1 hex a turn"))
        return state.with_ship(ship)
    return _resolve_edge(state, side, order, events)


def _resolve_pod(state: VV5State, side: str, order: Place, events: list[Event]) -> VV5State:
    at = state.map.locate(order.at)
    pod = _pod(state)
    if order.what == "body":
        # The pod waits beside the body until it is placed, so the board never shows them apart.
        spot = next(h for h in (at.neighbour(d) for d in Direction) if state.map.contains(h))
        pod = replace(pod, body=at, pod=spot)
    else:
        pod = replace(pod, pod=at)
    events.append(Note(f"{side} places the {'orbited body' if order.what == 'body' else 'stasis pod'} at {order.at}"))
    return replace(state, special=pod)


#: A direction seen in a mirror laid along a row: up and down swap, so do the diagonals on each side.
_FLIPPED = {
    Direction.A: Direction.D,
    Direction.B: Direction.C,
    Direction.C: Direction.B,
    Direction.D: Direction.A,
    Direction.E: Direction.F,
    Direction.F: Direction.E,
}


def _resolve_edge(state: VV5State, side: str, order: Edge, events: list[Event]) -> VV5State:
    """The file places the interceptors on the top edge of D; the bottom of N is the same line mirrored."""
    events.append(Note(f"{side} comes in from the {order.edge} edge"))
    if order.edge == "top":
        return state
    _, r0, _, r1 = state.map.extent
    for ship in state.ships_of(side):
        facing = _FLIPPED[ship.facing]
        at = Hex.from_offset(ship.hex.col, r1 - (ship.hex.row - r0))
        state = state.with_ship(
            replace(ship, hex=at, facing=facing, velocity=Velocity.toward(facing, ship.velocity.speed))
        )
    return state


def random_place(state: VV5State, side: str, rng: random.Random) -> Placement:
    """Any legal placement, drawn at random."""
    _, what = owed(state)
    if what in WHAT:
        return Place(what, name(state, rng.choice(choices(state))))
    if what.startswith("ship:"):
        ship_id = what.partition(":")[2]
        return PlaceShip(ship_id, name(state, rng.choice(choices(state))), str(rng.choice(list(Direction))))
    if what.startswith("face:"):
        ship_id = what.partition(":")[2]
        return Face(ship_id, str(rng.choice(free_facings(state, ship_id))))
    return Edge(rng.choice(EDGES))


def greedy_place(state: VV5State, side: str, rng: random.Random) -> Placement:
    """A sound placement that varies with the bot's dice.

    The body and pod go among the choices nearest the placing side's own
    corner; an interceptor starts within three hexes of the nearest it may,
    toward the left or right edge, facing the asteroid; a refugee transport lifts off toward a narrow edge,
    its escorts any free way; the edge is either.
    """
    _, what = owed(state)
    if what in WHAT:
        corner = dict(_pod(state).corners).get(side)
        options = sorted(choices(state), key=str)
        best = min(h.distance(corner) if corner else 0 for h in options)
        near = [h for h in options if (h.distance(corner) if corner else 0) <= best + 1]
        return Place(what, name(state, rng.choice(near)))
    if what.startswith("ship:"):
        ship_id = what.partition(":")[2]
        run = _run(state)
        rock = _rock(run)
        # Across the refugees' ways out: toward the left or right edge, a few hexes off the nearest allowed.
        ring = [
            h
            for h in choices(state)
            if h.distance(rock) <= run.min_distance + 3 and abs(h.col - rock.col) >= run.min_distance - 2
        ]
        at = rng.choice(ring or choices(state))
        return PlaceShip(ship_id, name(state, at), str(_toward(at, rock)))
    if what.startswith("face:"):
        ship_id = what.partition(":")[2]
        free = free_facings(state, ship_id)
        # B, C, E and F all gain ground toward the left or right edge; A and D run along the middle column.
        sideways = [d for d in free if d not in (Direction.A, Direction.D)]
        carrier = state.ship(ship_id).kind == "transport"
        return Face(ship_id, str(rng.choice(sideways if carrier and sideways else free)))
    return Edge(rng.choice(EDGES))


def _locate(state: VV5State, at: str, order: str, rule: str) -> Hex:
    try:
        return state.map.locate(at)
    except (KeyError, ValueError) as err:
        raise IllegalOrderError(order, f"no hex {at!r} on this map ({err})", rule) from None


def _pod(state: VV5State) -> PodState:
    if not isinstance(state.special, PodState):  # pragma: no cover - only the Stasis Pod places the body
        raise TypeError("not a stasis-pod game")
    return state.special


def _run(state: VV5State) -> CargoRunState:
    if not isinstance(state.special, CargoRunState):  # pragma: no cover - only the crossings place ships
        raise TypeError("not a crossing scenario")
    return state.special


def _rock(run: CargoRunState) -> Hex:
    if run.asteroid is None:  # pragma: no cover - Refugees always names its asteroid
        raise TypeError("no asteroid in this scenario")
    return run.asteroid
