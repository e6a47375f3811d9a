"""VV5 optional rule: Shock (option ``shock``).

A crewed starship collects one shock point for each of these, each at most
once between two panic checks: shot at by guns or missiles from its rear arc
(the forward gun arc reversed); one or more missiles launched at it; damage
from gunfire; damage from missile hits. Every friendly starship lost
(destroyed, knocked out or crashed, not one that left the board) adds a
point of its own, without a cap.

Just before plotting, each ship with shock points checks for panic: the
points, +1 for a Rookie crew, less the level of an Ace crew; a 1D6 at or
under that total panics it. All shock points are then cleared. Each panicked
ship at once rolls on the panic table, and that move is its plot this turn,
cut down to what its agility and engines can still do. The plot order may
leave a panicked ship out (the engine flies the panic move) or name it with
exactly that move; anything else is refused.

Panic lasts until the next panic check: a panicked Ace has no Ace Moment
this turn, and a panicked Veteran or Ace loses its +1 in the fire phases
that follow (the next turn's launches and gunfire; its turn's own fire came
before the check). Shock points from missile hits after movement are
counted at the next turn's check.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from vectorwar.dice import Dice
from vectorwar.events import Destroyed, Event, Rolled
from vectorwar.systems.vv5 import crews
from vectorwar.systems.vv5.arcs import REAR_ARC, in_arc
from vectorwar.systems.vv5.events import Crashed, Deflected, GunsFired, KnockedOut, MissileLaunched, MissileResolved
from vectorwar.systems.vv5.movement import turn_allowance
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.state import Ship, VV5State

OPTION = "shock"
RULE_PANIC = "VV5 Shock: Panic (optional rule)"

REAR = "shot-from-rear"
INCOMING = "missiles-incoming"
GUN_DAMAGE = "gun-damage"
MISSILE_DAMAGE = "missile-damage"
FRIEND_LOST = "friend-lost:"  # + the lost ship's id: one point per friend, no cap

# The panic table: 1 drift, 2 left, 3 right, 4 left then 1G, 5 right then 1G, 6 1G.
PANIC_TABLE: dict[int, tuple[str, ...]] = {1: (), 2: ("L",), 3: ("R",), 4: ("L", "1"), 5: ("R", "1"), 6: ("1",)}


def enabled(state: VV5State) -> bool:
    return bool(state.options.get(OPTION, False))


def points(ship: Ship) -> int:
    return len(ship.shock)


@dataclass(frozen=True, slots=True)
class PanicChecked(Event):
    """The panic check before plotting; shock marked after it counts at the next one."""

    kind: ClassVar[str] = "vv5-panic-check"
    turn: int

    def describe(self) -> str:
        return f"panic check for turn {self.turn}: all shock points cleared"


@dataclass(frozen=True, slots=True)
class PanicRolled(Event):
    kind: ClassVar[str] = "vv5-panic"
    ship: str
    shock: int
    need: int
    roll: int
    panicked: bool

    def describe(self) -> str:
        verdict = "the crew panics" if self.panicked else "the crew holds"
        return (
            f"{self.ship} has {self.shock} shock point(s), panics on {self.need} or less, rolls {self.roll}: {verdict}"
        )


@dataclass(frozen=True, slots=True)
class PanicMove(Event):
    kind: ClassVar[str] = "vv5-panic-move"
    ship: str
    roll: int
    move: str

    def describe(self) -> str:
        return f"{self.ship} panics (table roll {self.roll}) and must fly {self.move} this turn"


# -- collecting shock ------------------------------------------------------------


def since_check(events: list[Event]) -> list[Event]:
    """The events after the last panic check in ``events`` (all of them if there is none)."""
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], PanicChecked):
            return events[i + 1 :]
    return events


def _mark(state: VV5State, ship_id: str, tag: str) -> VV5State:
    try:
        ship = state.ship(ship_id)
    except KeyError:
        return state
    if not ship.active or not crews.crewed(state, ship) or tag in ship.shock:
        return state
    return state.with_ship(replace(ship, shock=(*ship.shock, tag)))


def _from_rear(state: VV5State, shooter_id: str, target_id: str) -> bool:
    try:
        shooter, target = state.ship(shooter_id), state.ship(target_id)
    except KeyError:
        return False
    return in_arc(REAR_ARC, target.hex, target.facing, shooter.hex)


def absorb(state: VV5State, events: list[Event]) -> VV5State:
    """Mark the shock that ``events`` (fire, hits and losses since the last check) gave each ship."""
    if not enabled(state):
        return state
    gun_victims: list[str] = []
    for event in events:
        if isinstance(event, MissileLaunched):
            state = _mark(state, event.target, INCOMING)
            if _from_rear(state, event.ship, event.target):
                state = _mark(state, event.target, REAR)
        elif isinstance(event, GunsFired):
            if _from_rear(state, event.ship, event.target):
                state = _mark(state, event.target, REAR)
            if event.hit and event.damage > 0:
                gun_victims.append(event.target)
        elif isinstance(event, Deflected) and event.meant_for in gun_victims:
            # The hit went to the ship in the way instead.
            gun_victims[len(gun_victims) - 1 - gun_victims[::-1].index(event.meant_for)] = event.ship
        elif isinstance(event, MissileResolved) and event.hit:
            state = _mark(state, event.target, MISSILE_DAMAGE)
        elif isinstance(event, Destroyed | KnockedOut | Crashed):
            try:
                lost = state.ship(event.ship)
            except KeyError:
                continue
            for friend in state.ships_of(lost.side):
                if friend.id != lost.id:
                    state = _mark(state, friend.id, FRIEND_LOST + lost.id)
    for victim in gun_victims:
        state = _mark(state, victim, GUN_DAMAGE)
    return state


# -- the panic check ---------------------------------------------------------------


def panic_need(state: VV5State, ship: Ship) -> int:
    """Shock points, +1 for a Rookie, less an Ace's level: a 1D6 at or under this panics."""
    need = points(ship)
    if crews.is_rookie(state, ship):
        need += 1
    return need - crews.ship_ace_level(state, ship)


def panic_move(ship: Ship, roll: int) -> Manoeuvre:
    """The panic table's move, keeping only the steps the ship can still make (in order)."""
    rotations, thrust = turn_allowance(ship)
    kept: list[str] = []
    for step in PANIC_TABLE[roll]:
        if step in ("L", "R"):
            if rotations > 0:
                kept.append(step)
                rotations -= 1
        elif thrust > 0:
            kept.append(step)
            thrust -= 1
    return Manoeuvre(tuple(kept))


def panic_check(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    """Before plotting: roll for panic, clear all shock, and roll the panic table for the panicked."""
    if not enabled(state):
        return state
    state = absorb(state, since_check(events))
    for ship in state.ships:
        if ship.panicked or ship.panic_move:
            state = state.with_ship(replace(ship, panicked=False, panic_move=""))
    for ship in state.ships:
        if not ship.active or not ship.shock:
            continue
        need = panic_need(state, ship)
        panicked = False
        if need > 0:  # at 0 or less no face of the die can panic the crew, so none is rolled
            roll = dice.roll("d6", f"panic check for {ship.id} ({points(ship)} shock, panics on {need} or less)")
            events.append(Rolled.of(roll))
            panicked = roll.total <= need
            events.append(PanicRolled(ship.id, points(ship), need, roll.total, panicked))
        state = state.with_ship(replace(ship, panicked=panicked))
    events.append(PanicChecked(state.turn))
    for ship in state.ships:
        state = state.with_ship(replace(ship, shock=())) if ship.shock else state
    for ship in state.ships:
        if not ship.panicked:
            continue
        roll = dice.roll("d6", f"panic table for {ship.id}")
        events.append(Rolled.of(roll))
        move = panic_move(ship, roll.total)
        events.append(PanicMove(ship.id, roll.total, str(move)))
        state = state.with_ship(replace(ship, panic_move=str(move)))
    return state


# -- plots -------------------------------------------------------------------------


def forced(state: VV5State, ship: Ship) -> Manoeuvre | None:
    """The move a panicked ship must fly this turn, or ``None``."""
    if not enabled(state) or not ship.panicked or not ship.active:
        return None
    return Manoeuvre.parse(ship.panic_move)


def plot_problem(state: VV5State, ship: Ship, move: Manoeuvre) -> str | None:
    must = forced(state, ship)
    if must is None or move == must:
        return None
    return f"{ship.id} has panicked and must fly its panic move {must} (or leave it out of the plot)"


def fill_panic_moves(state: VV5State, plots: dict[str, Manoeuvre]) -> dict[str, Manoeuvre]:
    if not enabled(state):  # no panic without the optional rule: the plots as given
        return plots
    out = dict(plots)
    for ship in state.ships:
        must = forced(state, ship)
        if must is not None:
            out[ship.id] = must
    return out
