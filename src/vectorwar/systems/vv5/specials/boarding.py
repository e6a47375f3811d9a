"""Starship troopers boarding a derelict (VV5 scenarios 6 and 7, shared mechanics).

Every cargo box of a transport carries one trooper, who dies with the box.
A transport boards when, in the Boarding Actions phase, it sits next to one
of the derelict's hexes with exactly the derelict's velocity: all its
troopers cross at once, and a transport boards only once. Then, in that
phase and every later one until the data is taken:

* with troopers of several sides aboard, each side rolls 1D6 per trooper
  and every 6 kills an enemy trooper (the enemy side with most aboard);
* a side alone aboard finds the data on 2D6 at or under its troopers;
  while enemies remain aboard each side finds it only on a 2 (several
  sides may get a copy that way).

Once the data is downloaded the computer is sabotaged: nobody else gets it.
Troopers aboard when the derelict is destroyed die with it.

The scenario modules place the derelict on the automated ``derelict`` side:
it never gives way in a collision and has no crew, so no life support to
hit (every point of damage falls on its structure).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from vectorwar.dice import Dice
from vectorwar.errors import ScenarioError
from vectorwar.events import Event, Note, Rolled
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.scenario import validate_model
from vectorwar.systems.vv5 import catalogue
from vectorwar.systems.vv5.combat import p_at_least
from vectorwar.systems.vv5.design import Design
from vectorwar.systems.vv5.equipment import build_ship
from vectorwar.systems.vv5.movement import is_solid, turn_allowance
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.planner import rendezvous, ring
from vectorwar.systems.vv5.specials.adp import armed_platforms, phaser_hit
from vectorwar.systems.vv5.specials.base import Special, whole_game
from vectorwar.systems.vv5.state import BoardingState, Box, Ship, VV5State
from vectorwar.vectors import Velocity

DERELICT_SIDE = "derelict"
STILL = Velocity()
LOST = ("destroyed", "knocked-out", "crashed")
#: The randomly determined transport: 1-3 the Courier (6 troopers), 4-6 the Hauler (10).
TRANSPORT_ROLL = {1: "courier", 2: "courier", 3: "courier", 4: "hauler", 5: "hauler", 6: "hauler"}


class BoardingSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["alien-starship", "ghost-ship"]
    at: str = Field(description="Hex of the derelict, e.g. H@4,3")
    corners: dict[str, str] = Field(description="Each side's starting corner hex")
    transports: dict[str, str] = Field(default_factory=dict, description="Each side's transport ship id")
    transport: Literal["roll", "fixed"] = Field(
        default="roll", description="'roll' picks each transport's design with a die; 'fixed' keeps the file's"
    )
    exit_radius: int = Field(default=5, ge=0)


def derelict_design(name: str, mass: int) -> Design:
    return Design(name=name, mass=mass, kind="other", check_budget=False)


def place_derelict(
    state: VV5State,
    ship_id: str,
    design: Design,
    at: Hex,
    velocity: Velocity = STILL,
    footprint: tuple[tuple[int, int], ...] = (),
) -> VV5State:
    ship = build_ship(
        ship_id, DERELICT_SIDE, design.name.lower(), design, hex=at, facing=Direction.A, velocity=velocity
    )
    ship = replace(ship, life_support=Box.new(0), footprint=footprint, steadfast=True)
    automated = state.automated if DERELICT_SIDE in state.automated else (*state.automated, DERELICT_SIDE)
    return replace(state, ships=(*state.ships, ship), automated=automated)


def read_spec(spec_type: type[BoardingSpec], state: VV5State, table: dict[str, Any], source: str) -> BoardingSpec:
    spec = validate_model(spec_type, table, source, ("special",))
    for side in spec.corners:
        if side not in state.sides:
            raise ScenarioError(f"{source}: special.corners: {side!r} is not a side of this scenario")
    missing = set(state.sides) - set(spec.corners)
    if missing:
        raise ScenarioError(f"{source}: special.corners: no corner for {', '.join(sorted(missing))}")
    for side, ship_id in spec.transports.items():
        try:
            ship = state.ship(ship_id)
        except KeyError:
            raise ScenarioError(f"{source}: special.transports.{side}: no ship {ship_id!r}") from None
        if ship.side != side or ship.kind != "transport":
            raise ScenarioError(f"{source}: special.transports.{side}: {ship_id} is not a transport of {side}")
    return spec


def initial_state(state: VV5State, spec: BoardingSpec, target: str, source: str) -> BoardingState:
    try:
        corners = tuple((side, state.map.locate(at)) for side, at in sorted(spec.corners.items()))
    except (KeyError, ValueError) as err:
        raise ScenarioError(f"{source}: special.corners: {err.args[0]}") from None
    return BoardingState(
        spec.kind,
        target,
        corners=corners,
        exit_radius=spec.exit_radius,
        transport=spec.transport,
        transports=tuple(sorted(spec.transports.items())),
    )


def locate(state: VV5State, text: str, key: str, source: str) -> Hex:
    try:
        where = state.map.locate(text)
    except (KeyError, ValueError) as err:
        raise ScenarioError(f"{source}: special.{key}: {err.args[0]}") from None
    if not state.map.contains(where):
        raise ScenarioError(f"{source}: special.{key}: {text} is not on the map")
    return where


def board(state: VV5State) -> BoardingState:
    if not isinstance(state.special, BoardingState):  # pragma: no cover - only called for these scenarios
        raise TypeError("not a boarding scenario")
    return state.special


def _bump(tally: tuple[tuple[str, int], ...], side: str, amount: int) -> tuple[tuple[str, int], ...]:
    merged = dict(tally)
    merged[side] = merged.get(side, 0) + amount
    return tuple(sorted((s, n) for s, n in merged.items() if n))


def troopers_on(ship: Ship, b: BoardingState) -> int:
    """Troopers still in a transport's cargo boxes (none once it has boarded)."""
    if ship.kind != "transport" or ship.id in dict(b.boarded):
        return 0
    return ship.cargo.boxes


def roll_transports(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    """Each side's randomly determined transport (the text's scenarios 6 and 7)."""
    b = board(state)
    if b.transport != "roll":
        return state
    for side, ship_id in b.transports:
        state = roll_transport(state, side, ship_id, "troopers", dice, events)
    return state


def roll_transport(
    state: VV5State, side: str, ship_id: str, carrying: str, dice: Dice, events: list[Event]
) -> VV5State:
    """Roll one side's transport (1-3 Courier, 4-6 Hauler) and put it where the file's transport was."""

    designs = catalogue.designs()
    roll = dice.roll("d6", f"which transport {side} gets")
    events.append(Rolled.of(roll))
    key = TRANSPORT_ROLL[roll.total]
    old = state.ship(ship_id)
    new = build_ship(ship_id, side, key, designs[key], hex=old.hex, facing=old.facing, velocity=old.velocity)
    # The crew (optional rules) and scenario tags belong to the side, not to the hull rolled for.
    new = replace(new, loadout=old.loadout, crew=old.crew, experience=old.experience)
    events.append(Note(f"{side}'s transport {ship_id} is a {designs[key].name} with {new.cargo.boxes} {carrying}"))
    return state.with_ship(new)


def can_board(state: VV5State, ship: Ship, target: Ship) -> bool:
    """Next to the derelict, with exactly its velocity, and troopers to send."""
    if not ship.active or not target.active or ship.side not in state.sides:
        return False
    if troopers_on(ship, board(state)) == 0 or ship.velocity != target.velocity:
        return False
    return ship.hex not in target.hexes and any(ship.hex.distance(h) == 1 for h in target.hexes)


def transfer(state: VV5State, events: list[Event]) -> VV5State:
    b = board(state)
    target = state.ship(b.target)
    for ship in state.ships:
        if can_board(state, ship, target):
            count = troopers_on(ship, b)
            b = replace(b, boarded=(*b.boarded, (ship.id, count)), aboard=_bump(b.aboard, ship.side, count))
            events.append(Note(f"{ship.id} matches {target.id}'s velocity: {count} troopers of {ship.side} board it"))
            state = replace(state, special=b)
    return state


def fight(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    """Rival boarding parties: 1D6 per trooper, each 6 kills an enemy, all at once."""
    b = board(state)
    aboard = {s: n for s, n in b.aboard if n > 0}
    if len(aboard) < 2:
        return state
    sixes: dict[str, int] = {}
    for side in sorted(aboard):
        sixes[side] = 0
        for i in range(aboard[side]):
            roll = dice.roll("d6", f"{side} trooper {i + 1} fights aboard {b.target}")
            events.append(Rolled.of(roll))
            sixes[side] += roll.total == 6
    after = dict(aboard)
    for side in sorted(sixes):
        for _ in range(sixes[side]):
            enemies = [s for s in sorted(after) if s != side and after[s] > 0]
            if not enemies:
                break
            victim = max(enemies, key=lambda s: after[s])  # the largest enemy party; ties to the first side
            after[victim] -= 1
    lost = b.lost
    for side, n in aboard.items():
        if after[side] < n:
            lost = _bump(lost, side, n - after[side])
            events.append(Note(f"{n - after[side]} of {side}'s troopers aboard {b.target} are killed"))
    return replace(state, special=replace(b, aboard=tuple(sorted(after.items())), lost=lost))


def search(state: VV5State, dice: Dice, events: list[Event]) -> tuple[VV5State, tuple[str, ...]]:
    """Rolls for the data; returns the sides that download it this phase."""
    b = board(state)
    aboard = {s: n for s, n in b.aboard if n > 0}
    found: list[str] = []
    for side in sorted(aboard):
        alone = len(aboard) == 1
        need = f"2D6 at or under {aboard[side]}" if alone else "a 2 on 2D6, enemies being aboard"
        roll = dice.roll("2d6", f"{side}'s troopers search {b.target} for its data ({need})")
        events.append(Rolled.of(roll))
        if (alone and roll.total <= aboard[side]) or (not alone and roll.total == 2):
            found.append(side)
    if not found:
        return state, ()
    carriers = tuple(s.id for s in state.ships if s.active and s.side in found)
    for side in found:
        events.append(Note(f"{side} downloads the data from {b.target}; its computer is then sabotaged"))
    b = replace(b, log=(*b.log, *found), carriers=(*b.carriers, *carriers))
    return replace(state, special=b), tuple(found)


def derelict_lost(state: VV5State, why: str, events: list[Event]) -> VV5State:
    """The derelict is gone: troopers still aboard die with it."""
    b = board(state)
    if b.gone:
        return state
    lost = b.lost
    for side, n in b.aboard:
        if n:
            lost = _bump(lost, side, n)
            events.append(Note(f"{n} of {side}'s troopers die with {b.target}"))
    return replace(state, special=replace(b, gone=why, aboard=(), lost=lost))


def troopers_lost(state: VV5State) -> dict[str, int]:
    """Troopers each side has lost: aboard the derelict, with cargo boxes, or with their transport."""
    b = board(state)
    lost = dict.fromkeys(state.sides, 0)
    lost.update({s: n for s, n in b.lost if s in lost})
    sent = dict(b.boarded)
    for ship in state.ships:
        if ship.kind != "transport" or ship.side not in lost:
            continue
        if ship.id in sent:
            lost[ship.side] += ship.cargo.fitted - sent[ship.id]
        elif ship.status in LOST:
            lost[ship.side] += ship.cargo.fitted  # the boxes left went down with the ship
        else:
            lost[ship.side] += ship.cargo.fitted - ship.cargo.boxes
    return lost


class BoardingSpecial(Special):
    """The parts scenarios 6 and 7 share; each subclass places its derelict and says how it ends."""

    def begin(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        return roll_transports(state, dice, events)

    def boarding(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        b = board(state)
        target = state.ship(b.target)
        if not target.active:
            return derelict_lost(state, f"{target.id} was destroyed", events)
        if b.log or b.gone:
            return state  # the computer is sabotaged: nothing more to find
        state = transfer(state, events)
        state = fight(state, dice, events)
        state, _ = search(state, dice, events)
        return state

    def progress(self, state: VV5State) -> dict[str, float]:
        # The download wins, which no VP counts: a trial stopped early gives a side alone aboard its troopers'
        # chance to download the data in the next Boarding Actions phase times what the data is worth there.
        b = board(state)
        aboard = {side: n for side, n in b.aboard if n > 0}
        if not data_to_fetch(state, b) or len(aboard) != 1:
            return {}
        ((side, n),) = aboard.items()
        return {side: (1 - p_at_least(n + 1)) * download_worth(state)}

    def damage_stake(self, state: VV5State, ship: Ship) -> tuple[float, float]:
        # Only troopers can fetch the data: a transport still carrying them costs its side, lost, what the data is
        # worth to it, whatever the transport's VP.
        b = board(state)
        if not data_to_fetch(state, b) or not troopers_on(ship, b):
            return 0.0, 0.0
        return 0.0, download_worth(state)


def data_to_fetch(state: VV5State, b: BoardingState) -> bool:
    """Whether the derelict's data is still there to fetch: nobody has downloaded it, its computer is not
    sabotaged, and the derelict is still in play."""
    return not b.log and not b.gone and state.ship(b.target).active


def download_worth(state: VV5State) -> float:
    """What the data downloaded at the derelict is worth against victory points (not a rule: the search bot's
    yardstick): a quarter of the whole game, as the Stasis Pod's grab and a prize held where it was taken
    (``homeward``); the Ghost Ship's carriers then earn the rest on their way home."""
    return whole_game(state) / 4


# -- the greedy bot's view --------------------------------------------------------

HOLD_OFF = 15  #: transports wait this far from the derelict (its ring beyond phaser reach of platforms next to it)


@dataclass(frozen=True, slots=True)
class _OpenWater:
    """Where a transport may plan to end a turn: on the map, not on a rock. A value, not a closure, so the
    planner's answers can be kept by their arguments (a search bot's trials plan the same transport again and
    again from the same position)."""

    map: HexMap

    def __call__(self, h: Hex) -> bool:
        return self.map.contains(h) and not is_solid(self.map.terrain_at(h))


def _open_water(state: VV5State) -> Callable[[Hex], bool]:
    return _OpenWater(state.map)


def _holding_point(state: VV5State, ship: Ship, target: Ship) -> Hex:
    """Where a transport waits, out of the platforms' reach, on its own side of the derelict."""
    corner = dict(board(state).corners).get(ship.side, ship.hex)
    line = target.hex.line_to(corner)
    spot = line[min(HOLD_OFF, len(line) - 1)]
    while not state.map.contains(spot) and spot != target.hex:  # pragma: no cover - corners are on the board
        spot = line[line.index(spot) - 1]
    return spot


def planned_plot(state: VV5State, ship: Ship, wait: bool = True) -> Manoeuvre | None:
    """The multi-turn plan of a transport still carrying troopers (None: let the greedy scoring decide).

    While the derelict's platforms can still fire, the transport makes for a
    waiting spot out of their reach and stops there, if it is to ``wait`` (the
    greedy bot's call: while its side can still silence them, or leads on
    points); otherwise, and once they are silenced, it plans a rendezvous:
    next to the derelict, at its velocity.
    """
    b = board(state)
    target = state.ship(b.target)
    if not ship.active or not data_to_fetch(state, b) or not troopers_on(ship, b):
        return None
    rotations, thrust = turn_allowance(ship)
    if not thrust:
        return None
    body = frozenset({(0, 0), *target.footprint})
    if wait and armed_platforms(state):
        spot = _holding_point(state, ship, target)
        plan = rendezvous(
            ship.hex,
            ship.velocity,
            ship.facing,
            rotations,
            thrust,
            spot,
            STILL,
            ring([(0, 0)]) | {(0, 0)},
            body=frozenset(),
            inside=_open_water(state),
        )
    else:
        blocked = {(s.hex.q - target.hex.q, s.hex.r - target.hex.r) for s in state.ships if s.active and s.steadfast}
        goal = ring(body) - blocked
        if not goal:  # pragma: no cover - three platforms leave three free hexes
            return None
        plan = rendezvous(
            ship.hex,
            ship.velocity,
            ship.facing,
            rotations,
            thrust,
            target.hex,
            target.velocity,
            frozenset(goal),
            body=body,
            inside=_open_water(state),
        )
    return plan.move if plan.estimate < float("inf") else None


def boarding_objective(state: VV5State, ship: Ship, end: Hex, speed: int) -> float:
    """Greedy pull: transports rendezvous with the derelict; holders of the data run for home."""
    b = board(state)
    target = state.ship(b.target)
    corner = dict(b.corners).get(ship.side)
    if ship.side in b.log and ship.id in b.carriers and corner is not None:
        if not state.map.contains(end):
            return 1100.0 if end.distance(corner) <= b.exit_radius else -50.0
        return -1.0 * end.distance(corner)
    if not data_to_fetch(state, b):
        enemy_carriers = [state.ship(c) for c in b.carriers if state.ship(c).active and state.ship(c).side != ship.side]
        return -0.3 * min((end.distance(c.hex) for c in enemy_carriers), default=0)
    troopers = troopers_on(ship, b)
    if troopers:
        return 0.0  # the rendezvous planner steers transports (planned_plot)
    guards = armed_platforms(state)
    if guards:
        # Platforms shoot the nearest ship at 2D6 >= range (+4 at one that cannot accelerate): keep out of their
        # easy reach, this turn and next.
        drift = end.shifted(end.q - ship.hex.q, end.r - ship.hex.r)
        danger = sum(
            phaser_hit(end.distance(g.hex), ship) + 0.5 * phaser_hit(drift.distance(g.hex), ship) for g in guards
        )
        own = [s for s in state.ships_of(ship.side) if s.id != ship.id and troopers_on(s, b)]
        return -6.0 * danger - 0.05 * min((end.distance(s.hex) for s in own), default=0)
    # Escorts stay near the derelict, where the transports are going.
    return -0.15 * end.distance(target.hex)


def target_weight(state: VV5State, side: str, target: Ship) -> float:
    """How much the greedy bot wants to shoot ``target`` (0: leave it alone)."""
    b = board(state)
    if target.id == b.target:
        aboard = dict(b.aboard)
        rivals = any(n for s, n in aboard.items() if s != side)
        return 1.0 if rivals and not aboard.get(side) and not b.log else 0.0
    if troopers_on(target, b) or target.id in b.carriers:
        return 1.5
    return 1.0
