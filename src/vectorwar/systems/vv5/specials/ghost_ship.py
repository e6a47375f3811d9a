"""VV5 scenario 7, The Ghost Ship.

A huge derelict mining ship (structural integrity 80) fills two hexes and
drifts at a steady velocity from the top edge toward the edge the players
started from. Nothing can be fired through it. Players race to put starship
troopers aboard (see :mod:`boarding`) and download its computer log; a side
holding the log must then take a starship off the board within 5 hexes of its
starting corner to win. When the Ghost Ship drifts off that far edge it
plunges into a black hole and is destroyed, with any troopers aboard.

The game ends when the Ghost Ship is destroyed (or plunges) with nobody
holding the log, when a holder gets the log home, or when every starship that
held it is lost. The ``ghost_log_escape`` option set to False ends the game
at the download instead, the downloading sides winning.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from vectorwar.dice import Dice
from vectorwar.errors import OrderSyntaxError, ScenarioError
from vectorwar.events import Event, Note
from vectorwar.hexes import Direction
from vectorwar.systems.vv5.specials.base import homeward, whole_game
from vectorwar.systems.vv5.specials.boarding import (
    BoardingSpec,
    BoardingSpecial,
    board,
    derelict_design,
    derelict_lost,
    initial_state,
    locate,
    place_derelict,
    read_spec,
)
from vectorwar.systems.vv5.state import Ship, VV5State
from vectorwar.vectors import Velocity

GHOST_ID = "GS"
GHOST = derelict_design("Ghost Ship", 80)


class GhostSpec(BoardingSpec):
    kind: Literal["ghost-ship"]
    extends: str = Field(default="C", description="Direction from the first hex to the Ghost Ship's second hex")
    velocity: str = Field(default="D=2", description="The Ghost Ship's drift, toward the players' edge")


class GhostShip(BoardingSpecial):
    kind = "ghost-ship"
    ends_on_elimination = False  # a lone side still has the log to win

    def set_up(self, state: VV5State, table: dict[str, Any], source: str) -> VV5State:
        spec = read_spec(GhostSpec, state, table, source)
        if not isinstance(spec, GhostSpec):  # pragma: no cover - read_spec builds the type it is given
            raise TypeError("ghost-ship spec expected")
        at = locate(state, spec.at, "at", source)
        try:
            extends = Direction.parse(spec.extends)
            velocity = Velocity.parse(spec.velocity)
        except OrderSyntaxError as err:
            raise ScenarioError(f"{source}: special: {err.problem}") from None
        second = at.neighbour(extends)
        if not state.map.contains(second):
            raise ScenarioError(f"{source}: special.extends: the Ghost Ship's second hex {second} is off the map")
        if any(state.occupant(h) is not None for h in (at, second)):
            raise ScenarioError(f"{source}: special.at: a starship already sits where the Ghost Ship goes")
        state = place_derelict(state, GHOST_ID, GHOST, at, velocity, (extends.delta,))
        return replace(state, special=initial_state(state, spec, GHOST_ID, source))

    def after_movement(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        ghost = state.ship(GHOST_ID)
        if ghost.status == "exited":
            events.append(Note(f"{ghost.id} drifts off the far edge into a black hole's gravity well and is destroyed"))
            state = state.with_ship(replace(ghost, status="destroyed"))
            state = derelict_lost(state, "the Ghost Ship plunged into the black hole", events)
        return record_escapes(state)

    def game_over(self, state: VV5State) -> str | None:
        b = board(state)
        if b.escaped:
            return f"{', '.join(b.escaped)} got the computer log home"
        if b.log and not state.options.get("ghost_log_escape", True):
            return f"{', '.join(b.log)} downloaded the computer log"
        if b.log and not any(state.ship(c).active for c in b.carriers):
            return "every starship holding the computer log is gone"
        if b.gone and not b.log:
            return b.gone
        return None

    def progress(self, state: VV5State) -> dict[str, float]:
        # Only the log taken home wins, which no VP counts. A trial stopped early gives a side holding the log
        # its best carrier's way home from the Ghost Ship (``homeward``) against the whole game; before the
        # download, a side alone aboard its troopers' chance (``BoardingSpecial.progress``) times the log held at
        # the derelict, a quarter of the whole game as ``homeward`` gives a prize not yet on its way.
        b = board(state)
        stake = whole_game(state)
        ghost = state.ship(GHOST_ID).hex
        corners = dict(b.corners)
        out = super().progress(state)
        for ship_id in b.carriers:
            ship = state.ship(ship_id)
            if ship.active and ship.side in corners:
                value = homeward(stake, ghost, ship.hex, corners[ship.side])
                out[ship.side] = max(out.get(ship.side, 0.0), value)
        return out

    def damage_stake(self, state: VV5State, ship: Ship) -> tuple[float, float]:
        # A carrier of the log costs its side, lost, its way home; a transport still carrying troopers, the log
        # held at the derelict (``BoardingSpecial.damage_stake``).
        b = board(state)
        corner = dict(b.corners).get(ship.side)
        ghost = state.ship(GHOST_ID)
        if ship.id in b.carriers and corner is not None and ghost.active and not b.gone:
            return 0.0, homeward(whole_game(state), ghost.hex, ship.hex, corner)
        return super().damage_stake(state, ship)

    def decide(self, state: VV5State, points: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
        b = board(state)
        if b.escaped:
            return b.escaped, f"{', '.join(b.escaped)} took the log off the board near home"
        if b.log and not state.options.get("ghost_log_escape", True):
            return tuple(dict.fromkeys(b.log)), "the download wins (ghost_log_escape off)"
        return (), "nobody brought the computer log home: a draw"


def record_escapes(state: VV5State) -> VV5State:
    """A starship that held the log and left the board near its side's corner brings it home."""
    b = board(state)
    corners = dict(b.corners)
    escaped = list(b.escaped)
    for ship_id in b.carriers:
        ship = state.ship(ship_id)
        home = corners.get(ship.side)
        near_home = home is not None and ship.hex.distance(home) <= b.exit_radius
        if ship.status == "exited" and near_home and ship.side not in escaped:
            escaped.append(ship.side)
    return state if len(escaped) == len(b.escaped) else replace(state, special=replace(b, escaped=tuple(escaped)))
