"""VV5 movement: plots, vector markers, collisions, gravity, terrain, the board edge.

A ship's vector marker sits at ``hex + velocity``. Each acceleration in a plot
moves the marker one hex per G in the direction the ship points at that
moment; then every ship moves onto its marker, collisions are settled, and
the marker is re-placed as the mirror image of the ship's old position
(so the new velocity is the displacement just made), pulled by any strangely
dense body the ship passed next to.

>>> from vectorwar.hexes import Direction, Hex
>>> facing, velocity = plan(Direction.A, Velocity(), Manoeuvre.parse("RR1"))
>>> str(facing), str(velocity)
('C', 'C=1')
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Event, LeftMap, Moved, Note, Rolled
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.maps import HexMap, MapSection
from vectorwar.roster import replace_fields
from vectorwar.systems.vv5.events import BoardShifted, Collided, Crashed, Pulled
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.state import PlotEntry, Ship, VV5State
from vectorwar.vectors import Velocity

RULE_PLOT = "VV5 Plotting Movement"
BOARD_SHIFT = "board_shift"
RULE_EMERGENCY = "VV5 Plotting Movement (emergency thrusters)"

ASTEROID = "asteroid"
ASTEROID_FIELD = "asteroid-field"
DENSE_PREFIX = "dense-"


def gravity_of(kind: str | None) -> int:
    """G pull of a terrain tag (``dense-2`` pulls 2 hexes); 0 for anything else."""
    if kind and kind.startswith(DENSE_PREFIX):
        return int(kind[len(DENSE_PREFIX) :])
    return 0


def is_solid(kind: str | None) -> bool:
    """Large asteroids and strangely dense bodies: they block fire and wreck ships ending on them."""
    return kind == ASTEROID or is_dense(kind)


def is_dense(kind: str | None) -> bool:
    """A strangely dense body: it pulls on ships passing next to it."""
    return gravity_of(kind) > 0


def turn_allowance(ship: Ship) -> tuple[int, int]:
    """(rotations, G of thrust) the ship may plot this turn.

    With no agility left the emergency thrusters give one rotation, as long
    as there is acceleration to divert, and no thrust (docs/rulings/vv5.md).
    """
    if ship.agility.boxes > 0:
        return ship.agility.boxes, ship.acceleration.boxes
    if ship.acceleration.boxes > 0:
        return 1, 0
    return 0, 0


def check_manoeuvre(ship: Ship, move: Manoeuvre) -> None:
    rotations, thrust = turn_allowance(ship)
    if move.turns <= rotations and move.thrust <= thrust:
        return
    label = f"{ship.id} {move}"
    emergency = ship.agility.boxes == 0
    if move.turns > rotations:
        if emergency:
            why = (
                "no agility left: emergency thrusters allow one rotation and no thrust"
                if ship.acceleration.boxes
                else "no agility and no acceleration left: the ship cannot rotate"
            )
            raise IllegalOrderError(label, why, RULE_EMERGENCY)
        raise IllegalOrderError(label, f"{move.turns} rotations but Agility is {rotations}", RULE_PLOT)
    if move.thrust > thrust:
        if emergency and move.thrust:
            raise IllegalOrderError(
                label, "with no agility left the engines only turn the ship: no thrust", RULE_EMERGENCY
            )
        raise IllegalOrderError(label, f"{move.thrust}G of thrust but Acceleration is {thrust}", RULE_PLOT)


def plan(facing: Direction, velocity: Velocity, move: Manoeuvre) -> tuple[Direction, Velocity]:
    """Heading after the rotations and velocity after the thrust, step by step."""
    facing, dq, dr = _steps_from(facing, move.steps)
    if dq or dr:
        velocity = Velocity(velocity.dq + dq, velocity.dr + dr, velocity.dz)
    return facing, velocity


@lru_cache(maxsize=4096)
def _steps_from(facing: Direction, steps: tuple[str, ...]) -> tuple[Direction, int, int]:
    """What a plot's steps do from ``facing``, whatever the velocity: the heading after them and the change of
    velocity ``(dq, dr)``, the same for every ship (each thrust adds its G toward the nose at that moment)."""
    dq = dr = 0
    for step in steps:
        if step == "L":
            facing = facing.turned(-1)
        elif step == "R":
            facing = facing.turned(1)
        else:
            g = int(step)
            nq, nr = facing.delta
            dq, dr = dq + nq * g, dr + nr * g
    return facing, dq, dr


#: No pull (a frozen value, so every move without one shares it).
_NO_PULL = Velocity()
#: The plot of a ship given none: it drifts on its vector.
_DRIFT = Manoeuvre(())


def gravity_pull(hex_map: HexMap, path: Sequence[Hex]) -> Velocity:
    """The pull on the vector marker from every hex entered next to a dense body."""
    if not hex_map.hexes_where(is_dense):
        return _NO_PULL  # most maps have none: no need to read every hex of an asteroid field
    bodies = [(h, gravity_of(k)) for h, k in hex_map.terrain if gravity_of(k)]
    pull = Velocity()
    for entered in path[1:]:
        for body, g in bodies:
            if entered.distance(body) == 1:
                direction = next(d for d in Direction if entered.neighbour(d) == body)
                pull += Velocity.toward(direction, g)
    return pull


def _crowded(ends: dict[str, Hex], ships: Sequence[Ship]) -> bool:
    """Whether two ships end in one hex or a huge ship moves: otherwise every ship ends in a hex of its own and
    fills only that one, and :func:`_settle_collisions` has nothing to settle."""
    return len({(h.q, h.r) for h in ends.values()}) < len(ends) or any(s.footprint for s in ships)


def _settle_collisions(state: VV5State, ends: dict[str, Hex], dice: Dice, events: list[Event]) -> dict[str, Hex]:
    """One ship per hex at the end of movement: competitive dice, losers knocked aside (asked only where two
    ships end in one hex or a huge ship moves: :func:`move_ships`)."""
    ends = dict(ends)
    for _ in range(50):  # each pass settles at least one crowded hex
        by_hex: dict[Hex, list[str]] = {}
        for ship_id, where in ends.items():
            # A huge ship crowds every hex it fills, not just its own.
            for filled in state.ship(ship_id).hexes_at(where):
                if state.map.contains(filled):
                    by_hex.setdefault(filled, []).append(ship_id)
        crowded = sorted((h, ids) for h, ids in by_hex.items() if len(ids) > 1)
        if not crowded:
            return ends
        where, ids = crowded[0]
        steadfast = [i for i in ids if state.ship(i).steadfast]
        if len(steadfast) == 1:
            winner = steadfast[0]
        else:
            winner = roll_off(sorted(steadfast or ids), dice, events, f"collision at {where}")
        for loser in ids:
            if loser == winner:
                continue
            roll = dice.roll("d6", f"direction {loser} is knocked from {where}")
            events.append(Rolled.of(roll))
            target = where.neighbour(Direction(roll.total - 1))
            events.append(Collided(loser, winner, Position(where), Position(target)))
            # Landing on another ship just makes a new crowded hex for the next pass.
            ends[loser] = target
    return ends  # pragma: no cover - 50 passes always settle a real board


def roll_off(ids: list[str], dice: Dice, events: list[Event], why: str) -> str:
    """Competitive dice: each rolls a d6 in the order given; highest wins; the tied re-roll among themselves."""
    contenders = list(ids)
    while True:
        rolls = {}
        for ship_id in contenders:
            roll = dice.roll("d6", f"{why}: {ship_id}")
            events.append(Rolled.of(roll))
            rolls[ship_id] = roll.total
        best = max(rolls.values())
        contenders = [s for s in contenders if rolls[s] == best]
        if len(contenders) == 1:
            return contenders[0]


def board_shift(state: VV5State) -> bool:
    """Is the Dogfight's shift by agreement in force (option ``board_shift``)?"""
    return bool(state.options.get(BOARD_SHIFT, False))


def shift_to_fit(hex_map: HexMap, keep: Sequence[Ship]) -> tuple[int, int] | None:
    """The translation that puts every ship of ``keep`` on the board, or ``None`` if none does.

    Of the translations that fit, the one leaving fewest vector markers off
    the board wins, then the shortest, then the lowest ``(dq, dr)``: the same
    answer every time.
    """
    if not keep:
        return None
    cells = board_cells(hex_map.sections)
    places = [(s.hex.q, s.hex.r) for s in keep]
    markers = [(s.vector_marker.q, s.vector_marker.r) for s in keep]
    # A shift of up to a dozen hexes that leaves no marker off is the answer, and the first such in order of the
    # key below (no marker off, shortest, lowest) is the least of them all: try those before every translation
    # (the first ship's hex first, as most shifts put it off the board).
    (q0, r0), others = places[0], places[1:] + markers
    for dq, dr in _NEAR_SHIFTS:
        if (q0 + dq, r0 + dr) in cells and all((q + dq, r + dr) in cells for q, r in others):
            return dq, dr
    # The translations that put the first ship on the board, narrowed ship by ship to those that put them all
    # there (each ship tests only the translations left, not the whole board).
    fits = [(q - q0, r - r0) for q, r in cells]
    for q, r in places[1:]:
        fits = [(dq, dr) for dq, dr in fits if (q + dq, r + dr) in cells]
    if not fits:
        return None
    # How many markers each fitting translation keeps on the board, counted marker by marker.
    kept = dict.fromkeys(fits, 0)
    for mq, mr in markers:
        for dq, dr in fits:
            if (mq + dq, mr + dr) in cells:
                kept[dq, dr] += 1
    most = max(kept.values())  # the fewest markers off
    return min((t for t in fits if kept[t] == most), key=lambda t: (_hex_distance(*t), t))


def _hex_distance(dq: int, dr: int) -> int:
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


#: How far :func:`shift_to_fit` looks, shortest first, for a shift that leaves no ship or marker off: the
#: Dogfight's shifts that do are up to some ten hexes long, and a longer one is found among every translation.
_NEAR = 12
#: The translations of up to :data:`_NEAR` hexes, shortest first, then lowest ``(dq, dr)``: :func:`shift_to_fit`'s
#: order.
_NEAR_SHIFTS: tuple[tuple[int, int], ...] = tuple(
    sorted(
        (
            (dq, dr)
            for dq in range(-_NEAR, _NEAR + 1)
            for dr in range(-_NEAR, _NEAR + 1)
            if _hex_distance(dq, dr) <= _NEAR
        ),
        key=lambda t: (_hex_distance(*t), t),
    )
)


def board_cells(sections: tuple[MapSection, ...]) -> frozenset[tuple[int, int]]:
    """Every hex of the board, as axial ``(q, r)``: ``(q, r) in board_cells(m.sections)`` is ``m.contains(Hex(q, r))``.

    Asked for every ship greedy plots, so the last layout's answer is found by identity (hashing fifteen
    sections costs more than the look-up).
    """
    if _last_board and _last_board[0][0] is sections:
        return _last_board[0][1]
    cells = _cells_of(sections)
    _last_board[:] = [(sections, cells)]  # the pair swapped in one step, so threads never mix two layouts
    return cells


def open_cells(hex_map: HexMap) -> frozenset[tuple[int, int]]:
    """The board's hexes a ship may end its move on, no rock in them, as axial ``(q, r)`` (:func:`board_cells`
    where the board has no terrain): the last board's answer kept by identity, as :func:`board_cells` keeps its."""
    if not hex_map.terrain:
        return board_cells(hex_map.sections)
    if _last_open and _last_open[0][0] is hex_map.sections and _last_open[0][1] is hex_map.terrain:
        return _last_open[0][2]
    cells = frozenset((q, r) for q, r in board_cells(hex_map.sections) if not is_solid(hex_map.terrain_at(Hex(q, r))))
    _last_open[:] = [(hex_map.sections, hex_map.terrain, cells)]
    return cells


_last_open: list[tuple[tuple[MapSection, ...], tuple[tuple[Hex, str], ...], frozenset[tuple[int, int]]]] = []


@cache
def _cells_of(sections: tuple[MapSection, ...]) -> frozenset[tuple[int, int]]:
    return frozenset((h.q, h.r) for section in sections for h in section.hexes())


_last_board: list[tuple[tuple[MapSection, ...], frozenset[tuple[int, int]]]] = []


def _shift_the_battle(state: VV5State, retreating: frozenset[str], events: list[Event]) -> VV5State:
    """The Dogfight's shift: every ship and marker moves together so the ships stay on the board.

    Only ships whose side let them retreat are left off; if no shift can hold
    all the others (they are spread wider than the board), none is made.
    """
    keep = [s for s in state.ships if s.active and s.id not in retreating]
    if all(state.map.contains(s.hex) for s in keep):
        return state
    offset = shift_to_fit(state.map, keep)
    if offset is None:
        events.append(Note("the starships are spread wider than the board: no shift keeps them all on it"))
        return state
    dq, dr = offset
    events.append(BoardShifted(str(Velocity(dq, dr)), tuple(s.id for s in keep if not state.map.contains(s.hex))))
    return replace_fields(state, ships=tuple(replace_fields(s, hex=s.hex.shifted(dq, dr)) for s in state.ships))


#: A straight move: the hexes it passes through, both ends included, and the same as positions.
Course = tuple[tuple[Hex, ...], tuple[Position, ...]]


@lru_cache(maxsize=1 << 14)
def _course(q: int, r: int, dq: int, dr: int) -> Course:
    """The kernel's line from axial ``(q, r)`` to its vector marker ``(dq, dr)`` away, and each of its hexes as
    a position (the move's event lists them). The values are frozen, so moves along the same line share them:
    a search's trials fly the same few moves from the same places again and again."""
    path = tuple(Hex(q, r).line_to(Hex(q + dq, r + dr)))
    return path, tuple(map(Position, path))


def move_ships(
    state: VV5State,
    plots: dict[str, Manoeuvre],
    dice: Dice,
    events: list[Event],
    retreating: frozenset[str] = frozenset(),
    settle: bool = True,
) -> VV5State:
    """Carry out every ship's plot at once (VV5 Moving starships, Collisions).

    Then the board edge is settled (:func:`settle_edge`) unless ``settle`` is
    false: a caller moving part of the ships settles it on the whole battle.
    """
    planned: dict[str, tuple[Ship, Manoeuvre, Direction, Velocity, Course]] = {}
    ends: dict[str, Hex] = {}
    for ship in state.ships:
        if not ship.active:
            continue
        move = plots.get(ship.id, _DRIFT)
        facing, velocity = plan(ship.facing, ship.velocity, move)
        course = _course(ship.hex.q, ship.hex.r, velocity.dq, velocity.dr)
        planned[ship.id] = (ship, move, facing, velocity, course)
        ends[ship.id] = course[0][-1]  # its vector marker
    if _crowded(ends, [p[0] for p in planned.values()]):
        ends = _settle_collisions(state, ends, dice, events)
    hex_map = state.map
    moved: dict[str, Ship] = {}
    for ship_id, end in ends.items():
        ship, move, facing, velocity, (path, positions) = planned[ship_id]
        knocked = end is not path[-1] and end != path[-1]  # knocked aside after a collision
        if knocked:
            path, positions = (*path, end), (*positions, Position(end))
        pull = gravity_pull(hex_map, path)
        if not knocked and pull is _NO_PULL and not velocity.dz:
            new_velocity = velocity  # at its marker with nothing pulling: the velocity plotted
        else:
            new_velocity = Velocity(end.q - ship.hex.q + pull.dq, end.r - ship.hex.r + pull.dr, pull.dz)
        written = str(move)
        events.append(Moved(ship_id, written, positions, facing))
        if not pull.is_zero:
            events.append(Pulled(ship_id, str(pull)))
        status = ship.status
        # Off the board, the edge is settled once every ship has moved (the Dogfight may shift them all back).
        ground = hex_map.terrain_at(end) if hex_map.terrain else None
        if ground is not None and is_solid(ground) and hex_map.contains(end):
            status = "crashed"
            events.append(Crashed(ship_id, Position(end), ground))
        moved[ship_id] = replace_fields(
            ship,
            hex=end,
            facing=facing,
            velocity=new_velocity,
            accelerated=move.thrust,
            record=(*ship.record, PlotEntry(state.turn, written)),
            status=status,
        )
    if moved:
        state = replace_fields(state, ships=tuple(moved.get(s.id, s) for s in state.ships))
    if not ends:
        events.append(Note("no starship moves"))
    return settle_edge(state, retreating, events) if settle else state


def settle_edge(state: VV5State, retreating: frozenset[str], events: list[Event]) -> VV5State:
    """Ships off the board leave the battle; in a Dogfight with ``board_shift`` the battle shifts first.

    With ``board_shift`` on, every ship and marker is shifted together to
    bring back the ships that ended off the board, unless their side let them
    retreat (``retreating``) (docs/rulings/vv5.md, *VV5 leaving the board*).
    """
    if board_shift(state):
        state = _shift_the_battle(state, retreating, events)
    for ship in state.ships:
        if ship.active and not state.map.contains(ship.hex):
            state = state.with_ship(replace_fields(ship, status="exited"))
            events.append(LeftMap(ship.id, Position(ship.hex)))
    return state
