"""VV5 scenario 9, Invasion.

Three strangely dense bodies (1, 2 and 3 G) and three automated defence
platforms cross the board toward the right edge, where the human flight
starts. The engine plays the alien side (see ``adp.py``). Every alien unit
moves along its vector at 3 hexes a turn and is then shifted one hex in a
random direction; a platform whose engine is knocked out keeps its velocity
and is not shifted. The bodies are map terrain (``dense-N``) that this
special moves each turn before the starships move, so gravity, blocked fire
and ships crashing on a body all follow from the movement rules: a ship that
ends its move in the hex a body has just moved into is destroyed. Each time
a platform is destroyed one body, picked at random, is taken off the board.
The game ends once no body is left on the board: two or three bodies off the
right edge win for the aliens, one is a draw, none a win for the humans.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from vectorwar.dice import Dice
from vectorwar.errors import OrderSyntaxError, ScenarioError
from vectorwar.events import Event, Note, Rolled
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.scenario import validate_model
from vectorwar.systems.vv5.movement import DENSE_PREFIX
from vectorwar.systems.vv5.specials.base import Special
from vectorwar.systems.vv5.state import Body, InvasionState, Ship, VV5State
from vectorwar.vectors import Velocity

OPTION = "invasion_bodies_shift"
LOST = ("destroyed", "knocked-out", "crashed")


class BodySpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    gravity: int = Field(ge=1, le=3)
    at: str = Field(description="Starting hex, e.g. G@4,3")
    velocity: str = Field(description="Vector, e.g. 'B=1, C=2' (3 hexes toward the right edge)")


class InvasionSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["invasion"]
    alien_side: str = Field(description="The scenario side holding the defence platforms; the engine plays it")
    bodies: list[BodySpec] = Field(min_length=1)


class Invasion(Special):
    kind = "invasion"
    # The flight is the only side a player plays: the game runs on until the bodies are gone.
    ends_on_elimination = False

    def set_up(self, state: VV5State, table: dict[str, Any], source: str) -> VV5State:
        spec = validate_model(InvasionSpec, table, source, ("special",))
        alien = spec.alien_side
        if alien not in state.sides:
            raise ScenarioError(f"{source}: special.alien_side: {alien!r} is not a side of this scenario")
        if len(state.sides) < 2:
            raise ScenarioError(f"{source}: sides: the invasion needs a human side besides {alien!r}")
        odd = [s.id for s in state.ships_of(alien) if s.kind != "adp"]
        if odd:
            raise ScenarioError(
                f"{source}: special.alien_side: the engine flies only defence platforms ({', '.join(odd)} is not one)"
            )
        bodies: list[Body] = []
        for i, b in enumerate(spec.bodies):
            where = f"{source}: special.bodies.{i}"
            try:
                at = state.map.locate(b.at)
            except (KeyError, ValueError) as err:
                raise ScenarioError(f"{where}.at: {err.args[0]}") from None
            try:
                velocity = Velocity.parse(b.velocity)
            except OrderSyntaxError as err:
                raise ScenarioError(f"{where}.velocity: {err.problem}") from None
            if not state.map.contains(at):
                raise ScenarioError(f"{where}.at: hex {b.at} is not on the map")
            if state.occupant(at) is not None or any(o.hex == at for o in bodies):
                raise ScenarioError(f"{where}.at: hex {b.at} is already taken")
            bodies.append(Body(b.name, b.gravity, at, velocity))
        humans = tuple(s for s in state.sides if s != alien)
        state = replace(
            state,
            sides=humans,
            # "One or more players": every human flight fights the invasion together.
            allies=humans if len(humans) > 1 else (),
            automated=(*state.automated, alien),
            special=InvasionState("invasion", alien, tuple(bodies)),
        )
        return _with_terrain(state, tuple(bodies))

    def before_movement(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        state = _pay_for_platforms(state, dice, events)
        invasion = invasion_state(state)
        shift = bool(state.options.get(OPTION, True))
        moved: list[Body] = []
        for body in invasion.bodies:
            if body.status != "on-board":
                moved.append(body)
                continue
            taken = {b.hex for b in moved if b.status == "on-board"}
            path = body.hex.line_to(body.hex.shifted(body.velocity.dq, body.velocity.dr))
            # Two bodies never share a hex: one that would end on another stops short.
            end = next((h for h in reversed(path) if h not in taken), body.hex)
            if shift and state.map.contains(end):
                roll = dice.roll("d6", f"random shift of the {body.name} body")
                events.append(Rolled.of(roll))
                to = end.neighbour(Direction(roll.total - 1))
                if to in taken:
                    events.append(Note(f"the {body.name} body cannot shift onto another body and stays at {end}"))
                else:
                    end = to
            if state.map.contains(end):
                events.append(Note(f"the {body.name} body ({body.gravity}G) moves from {body.hex} to {end}"))
                moved.append(replace(body, hex=end))
            else:
                edge = _edge(state.map, end)
                events.append(Note(f"the {body.name} body ({body.gravity}G) leaves the board by the {edge} edge"))
                moved.append(replace(body, hex=end, status="exited", edge=edge))
        return _with_terrain(replace(state, special=replace(invasion, bodies=tuple(moved))), tuple(moved))

    def boarding(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        return _pay_for_platforms(state, dice, events)

    def game_over(self, state: VV5State) -> str | None:
        if not on_board(invasion_state(state)):
            return "no strangely dense body is left on the board"
        return None

    def decide(self, state: VV5State, points: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
        invasion = invasion_state(state)
        exits = sum(1 for b in invasion.bodies if b.status == "exited" and b.edge == "right")
        why = f"{exits} strangely dense bod{'y' if exits == 1 else 'ies'} left by the right edge"
        left = len(on_board(invasion))
        if left and not state.sides_in_play():
            # Nothing is left to stop them: every body still out there, less those owed
            # for platforms lost in the same phase as the last starship, gets through.
            exits += max(0, left - len(_unpaid(state)))
            why = f"the flight is gone and {exits} strangely dense bodies reach the right edge"
        if exits >= 2:
            return (invasion.alien_side,), f"{why}: the invasion succeeds"
        if exits == 1:
            return (), f"{why}: a draw"
        return state.sides, f"{why}: the invasion is stopped"


def on_board(invasion: InvasionState) -> tuple[Body, ...]:
    return tuple(b for b in invasion.bodies if b.status == "on-board")


def _unpaid(state: VV5State) -> list[Ship]:
    invasion = invasion_state(state)
    return [
        s
        for s in state.ships
        if s.side == invasion.alien_side and s.status in LOST and s.id not in invasion.platforms_lost
    ]


def _pay_for_platforms(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    """Each platform newly lost takes one randomly chosen body off the board."""
    for platform in _unpaid(state):
        invasion = invasion_state(state)
        remaining = on_board(invasion)
        paid = replace(invasion, platforms_lost=(*invasion.platforms_lost, platform.id))
        if not remaining:
            state = replace(state, special=paid)
            continue
        pick = 0
        if len(remaining) > 1:
            roll = dice.roll("d6", f"which body goes with {platform.id} (1-6 split among {len(remaining)})")
            events.append(Rolled.of(roll))
            pick = (roll.total - 1) * len(remaining) // 6
        gone = remaining[pick]
        events.append(Note(f"{platform.id} is lost and the {gone.name} body vanishes from {gone.hex}"))
        bodies = tuple(replace(b, status="removed") if b.name == gone.name else b for b in paid.bodies)
        state = _with_terrain(replace(state, special=replace(paid, bodies=bodies)), bodies)
    return state


def _with_terrain(state: VV5State, bodies: tuple[Body, ...]) -> VV5State:
    """The map with every dense body at its current hex and no stale ones."""
    kept = tuple((h, k) for h, k in state.map.terrain if not k.startswith(DENSE_PREFIX))
    dense = tuple((b.hex, f"{DENSE_PREFIX}{b.gravity}") for b in bodies if b.status == "on-board")
    return replace(state, map=HexMap(state.map.sections, (*kept, *dense)))


def _edge(hex_map: HexMap, h: Hex) -> str:
    c0, r0, c1, _ = hex_map.extent
    if h.col > c1:
        return "right"
    if h.col < c0:
        return "left"
    return "top" if h.row < r0 else "bottom"


def crash_risk(state: VV5State, end: Hex) -> float:
    """Chance that a body ends this turn on ``end`` (with the random shift, each neighbour 1 in 6)."""
    invasion = invasion_state(state)
    shift = bool(state.options.get(OPTION, True))
    risk = 0.0
    for body in on_board(invasion):
        aim = body.hex.shifted(body.velocity.dq, body.velocity.dr)
        if not shift:
            risk += 1.0 if aim == end else 0.0
        elif aim.distance(end) == 1:
            risk += 1 / 6
    return risk


def invasion_state(state: VV5State) -> InvasionState:
    """The scenario's own state (bodies, platforms' side); a TypeError in any other game."""
    if not isinstance(state.special, InvasionState):  # pragma: no cover - only called for this scenario
        raise TypeError("not an invasion game")
    return state.special
