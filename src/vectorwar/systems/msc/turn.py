"""The MSC turn between decisions (MSC 4.0): movement, initiative, each side's fire, the turn's end.

Pure functions of the state, the orders and the dice, called by the order kinds' resolutions
(:mod:`vectorwar.systems.msc.kinds`): a plot's resolution moves the ships and rolls initiative,
a declaration's resolves the fire and finds the next side with something to shoot at.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from vectorwar.dice import Dice
from vectorwar.events import Event, GameOver, InitiativeSet, LeftMap, Moved, Note, Rolled, TurnBegan
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.memo import Kept
from vectorwar.roster import replace_fields
from vectorwar.systems.msc.combat import fire_weapon
from vectorwar.systems.msc.design import Design
from vectorwar.systems.msc.fire import any_legal_shot
from vectorwar.systems.msc.movement import trace
from vectorwar.systems.msc.orders import FireOrders, Move, Plot
from vectorwar.systems.msc.state import MSCState, Ship, TurnEntry

#: The option naming how a side wins (MSC 5.0 leaves it to the players), and the turns counted for 'shields'.
VICTORY = "victory"
VICTORY_TURNS = "victory_turns"
DEFAULT_VICTORY_TURNS = 10
MAX_VICTORY_TURNS = 99


def new_ship(ship_id: str, side: str, key: str, design: Design, at: Hex, facing: Direction, speed: int) -> Ship:
    """A ship fresh from the yard: its Ship Turn Record with every oval open."""
    weapons = design.weapon_sides
    return Ship(
        id=ship_id,
        side=side,
        design=key,
        name=design.name,
        engine_rating=design.engine,
        shield_rating=design.shields,
        to_hit=design.to_hit,
        weapons_fitted=weapons,
        hex=at,
        facing=facing,
        speed=speed,
        engine=design.engine,
        shields=design.shields,
        weapons=weapons,
    )


def move(state: MSCState, plots: Iterable[Plot], events: list[Event]) -> MSCState:
    """Every plotted move carried out together (MSC 6.0); a ship that flies off the map disengages."""
    # Each ship is read as it stands (after its own earlier move, were it plotted twice), and the state is
    # copied once for all the moves.
    done: dict[str, Ship] = {}
    hex_map = state.map
    contains = hex_map.contains
    known = _GROUND.get
    for plot in plots:
        for ship_id, plotted in plot.moves:
            ship = done.get(ship_id) or state.ship(ship_id)
            offsets, facing = _course(ship.facing, plotted.steps)
            at = ship.hex
            q, r = at.q, at.r
            # Each hex entered as its shared ground-level position (the event's path; the end's hex is the ship's).
            path = [
                known((q, r)) or _ground(q, r),
                *[known((q + dq, r + dr)) or _ground(q + dq, r + dr) for dq, dr in offsets],
            ]
            exit_at = (
                None  # no move this long can leave the map from here
                if len(offsets) <= hex_map.clear_radius(at)
                else next((i for i, p in enumerate(path) if not contains(p.hex)), None)
            )
            shown = path if exit_at is None else path[: exit_at + 1]
            words = str(plotted)
            record = (*ship.record, _entry(state.turn, len(plotted.steps), words))
            events.append(Moved(ship_id, words, tuple(shown), facing))
            status = ship.status
            if exit_at is not None:
                status = "disengaged"
                events.append(LeftMap(ship_id, shown[-1]))
            done[ship_id] = ship.moved(shown[-1].hex, facing, len(plotted.steps), record, status)
    return state.with_ships(done.values())


@lru_cache(maxsize=4096)  # every ship writes a line a turn, and a batch of games writes few distinct lines
def _entry(turn: int, speed: int, move: str) -> TurnEntry:
    """A line of the Ship Turn Record (a frozen value: ships that write the same line share it)."""
    return TurnEntry(turn, speed, move)


def _ground(q: int, r: int) -> Position:
    """The position at altitude 0 of axial hex (``q``, ``r``), one frozen object a hex (:data:`_GROUND`)."""
    return _GROUND.keep((q, r), Position(Hex(q, r)))


_MOST_GROUND = 65536
#: Ground-level positions by axial pair, shared by every move's path (at most ``_MOST_GROUND``): a move enters a
#: few hexes of one small map, and a position built for each is a third of the move's time.
_GROUND: Kept[tuple[int, int], Position] = Kept(_MOST_GROUND)


@lru_cache(maxsize=4096)  # a game flies few distinct moves from each facing
def _course(facing: Direction, steps: tuple[str, ...]) -> tuple[tuple[tuple[int, int], ...], Direction]:
    """:func:`~vectorwar.systems.msc.movement.trace` from the origin: each hex entered as an axial offset, and the
    facing at the end."""
    path, end_facing = trace(Hex(0, 0), facing, Move(steps))
    return tuple((h.q, h.r) for h in path[1:]), end_facing


def after_movement(state: MSCState, dice: Dice, events: list[Event]) -> MSCState:
    """Initiative, then the first side with something to shoot at is asked to fire."""
    if len(state.sides_in_play()) <= 1:
        return end(state, "elimination", events)
    order = initiative(state.sides_in_play(), dice, events)
    events.append(InitiativeSet(order))
    return next_firer(replace_fields(state, phase="fire", fire_order=order, firing=0), events)


def initiative(sides: tuple[str, ...], dice: Dice, events: list[Event]) -> tuple[str, ...]:
    """Highest roll first; any sides tied re-roll among themselves (MSC 4.0)."""
    rolls: dict[str, int] = {}
    for side in sides:
        roll = dice.roll("d6", f"initiative for {side}")
        events.append(Rolled.of(roll))
        rolls[side] = roll.total
    order: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = tuple(s for s in sides if rolls[s] == value)
        order.extend(tied if len(tied) == 1 else initiative(tied, dice, events))
    return tuple(order)


def fire(state: MSCState, declared: FireOrders, dice: Dice, events: list[Event]) -> MSCState:
    """The firing side's shots, each resolved at once (MSC 7.0 Damage); a shot at a ship already gone is lost.
    The state returned has the next side in initiative order up (:func:`next_firer` finds whether it fires)."""
    if not declared.shots:
        events.append(Note(f"{state.fire_order[state.firing]} holds fire"))
    # Each shot reads the ships as the shots before it left them; the state is copied once for all of them.
    hit: dict[str, Ship] = {}
    for shot in declared.shots:
        target = hit.get(shot.target) or state.ship(shot.target)
        if not target.active:
            events.append(Note(f"{shot.ship}'s {shot.weapon} shot is lost: {shot.target} is already {target.status}"))
            continue
        shooter = hit.get(shot.ship) or state.ship(shot.ship)
        hit[shot.target] = fire_weapon(state.map, shooter, shot.weapon, target, dice, events)
    return state.with_ships(hit.values(), firing=state.firing + 1)


def next_firer(state: MSCState, events: list[Event]) -> MSCState:
    """The state at the next side in initiative order with a shot to declare, or at the turn's end."""
    # The sides passed over change nothing the search reads (ships, map, options): one copy for all of them.
    firing = state.firing
    while firing < len(state.fire_order):
        side = state.fire_order[firing]
        if not state.ships_of(side):
            pass  # wiped out earlier this turn: no combat phase, nothing to report
        elif any_legal_shot(state, side):
            break
        else:
            events.append(Note(f"{side} has no target in range and arc"))
        firing += 1
    if firing != state.firing:
        state = replace_fields(state, firing=firing)
    return state if firing < len(state.fire_order) else end_turn(state, events)


def end_turn(state: MSCState, events: list[Event]) -> MSCState:
    if len(state.sides_in_play()) <= 1:
        return end(state, "elimination", events)
    counted = int(state.options.get(VICTORY_TURNS, DEFAULT_VICTORY_TURNS))
    if state.options.get(VICTORY) == "shields" and state.turn >= min(counted, state.max_turns):
        return end_on_shields(state, events)
    if state.turn >= state.max_turns:
        return end(state, f"turn limit {state.max_turns} reached", events, draw=True)
    state = replace_fields(state, turn=state.turn + 1, phase="plot", fire_order=(), firing=0)
    events.append(TurnBegan(state.turn))
    return state


def end_on_shields(state: MSCState, events: list[Event]) -> MSCState:
    """Victory by SHIELDS left (option victory = shields): the side with the most wins; a tie is a draw."""
    left = {side: sum(s.shields for s in state.ships_of(side)) for side in state.sides}
    best = max(left.values())
    leaders = tuple(side for side, n in left.items() if n == best)
    counts = ", ".join(f"{side} {n}" for side, n in left.items())
    if len(leaders) > 1:
        return end(state, f"SHIELDS left after turn {state.turn} are tied ({counts})", events, draw=True)
    reason = f"most SHIELDS left after turn {state.turn} ({counts})"
    events.append(GameOver(leaders, reason))
    return replace_fields(state, phase="over", winners=leaders, end_reason=reason)


def end(state: MSCState, reason: str, events: list[Event], draw: bool = False) -> MSCState:
    winners = () if draw else state.sides_in_play()
    if not winners and not draw:
        reason = "no side has a ship left in the battle"
    events.append(GameOver(winners, reason))
    return replace_fields(state, phase="over", winners=winners, end_reason=reason)
