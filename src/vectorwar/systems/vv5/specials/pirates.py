"""VV5 scenario 5, Pirates.

A lone pirate ship (a re-built transport with a 2G drive and a 360-degree
turret) runs for its base in the asteroid field that fills the far third of
the board (map sections D, E, I, J, N and O); a flight of interceptors chases
it. Every ship flying through the field rolls 2D6 against its velocity
(``rules.asteroid_fields``); the pirate knows the rocks and adds 1. In each
Boarding Actions phase the pirate rolls 1D6 and gets away, winning, when the
roll is under the distance to the nearest interceptor. By the default
``pirate_evasion = "field"`` option it may roll only from inside the field
(docs/rulings/vv5.md). The pirate also wins by putting every pursuer out of the
game; the interceptors win by destroying the pirate.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from vectorwar.dice import Dice
from vectorwar.errors import ScenarioError
from vectorwar.events import Event, Note, Rolled
from vectorwar.hexes import Hex
from vectorwar.maps import HexMap
from vectorwar.scenario import validate_model
from vectorwar.systems.vv5.movement import ASTEROID_FIELD
from vectorwar.systems.vv5.specials.base import Special, whole_game
from vectorwar.systems.vv5.state import PirateState, Ship, VV5State

OPTION = "pirate_evasion"
PIRATE_ACCELERATION = 2
FIELD_SECTIONS = ("D", "E", "I", "J", "N", "O")


class PiratesSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["pirates"]
    pirate_side: str = Field(description="The side flying the pirate ship")
    field: list[str] = Field(default=list(FIELD_SECTIONS), description="Map sections filled by the asteroid field")
    field_bonus: int = Field(default=1, ge=0, le=6, description="Added to the pirate's asteroid-field rolls")


class Pirates(Special):
    kind = "pirates"

    def set_up(self, state: VV5State, table: dict[str, Any], source: str) -> VV5State:
        spec = validate_model(PiratesSpec, table, source, ("special",))
        if spec.pirate_side not in state.sides:
            raise ScenarioError(f"{source}: special.pirate_side: {spec.pirate_side!r} is not a side of this scenario")
        if len(state.sides) < 2:
            raise ScenarioError(f"{source}: sides: the pirate needs at least one intercepting side")
        pirates = state.ships_of(spec.pirate_side)
        if len(pirates) != 1:
            raise ScenarioError(
                f"{source}: special.pirate_side: the pirate side flies exactly one ship, not {len(pirates)}"
            )
        if pirates[0].acceleration.fitted != PIRATE_ACCELERATION:
            raise ScenarioError(
                f"{source}: special.pirate_side: the pirate ship must have an acceleration of "
                f"{PIRATE_ACCELERATION}G ({pirates[0].id} has {pirates[0].acceleration.fitted}G)"
            )
        field: list[Hex] = []
        for name in spec.field:
            try:
                field.extend(state.map.section(name).hexes())
            except KeyError as err:
                raise ScenarioError(f"{source}: special.field: {err.args[0]}") from None
        taken = set(field)
        terrain = (*((h, k) for h, k in state.map.terrain if h not in taken), *((h, ASTEROID_FIELD) for h in field))
        return replace(
            state,
            map=HexMap(state.map.sections, terrain),
            special=PirateState("pirates", spec.pirate_side, field_bonus=spec.field_bonus),
        )

    def asteroid_field_bonus(self, state: VV5State, ship: Ship) -> int:
        pirates = _pirates(state)
        return pirates.field_bonus if ship.side == pirates.pirate_side else 0

    def boarding(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        pirates = _pirates(state)
        pursuers = state.enemies_of(pirates.pirate_side)
        for ship in state.ships_of(pirates.pirate_side):
            if not pursuers:
                return state  # nobody left to evade: the game ends on elimination
            if not may_evade(state, ship):
                continue
            distance = min(ship.hex.distance(p.hex) for p in pursuers)
            roll = dice.roll("d6", f"{ship.id} tries to lose its pursuers (needs under {distance})")
            events.append(Rolled.of(roll))
            if roll.total < distance:
                events.append(Note(f"{ship.id} has lost its pursuers"))
                return replace(state, special=replace(pirates, escaped=True))
        return state

    def game_over(self, state: VV5State) -> str | None:
        return "the pirate evaded its pursuers" if _pirates(state).escaped else None

    def damage_stake(self, state: VV5State, ship: Ship) -> tuple[float, float]:
        # The pirate's loss wins the game for the hunters, which its VP alone (a transport's 2 a ton) undervalue.
        return (0.0, stake(state)) if ship.side == _pirates(state).pirate_side else (0.0, 0.0)

    def runner(self, state: VV5State) -> str | None:
        return _pirates(state).pirate_side

    def progress(self, state: VV5State) -> dict[str, float]:
        # The pirate wins by getting away, which no VP counts: a trial stopped early weighs its chance at the
        # next evasion roll (1D6 under the distance to the nearest pursuer) against the stake (``stake``);
        # short of the field, half the stake times the share of the way it has come.
        pirates = _pirates(state)
        pursuers = state.enemies_of(pirates.pirate_side)
        field = state.map.hexes_with(ASTEROID_FIELD)
        if not pursuers or not field:
            return {pirates.pirate_side: 0.0}
        c0, _, c1, _ = state.map.extent
        total = 0.0
        for ship in state.ships_of(pirates.pirate_side):
            if may_evade(state, ship):
                chance = escape_chance(min(ship.hex.distance(p.hex) for p in pursuers))
            else:
                # Only the way to the field counts out here: running from the pursuers elsewhere, off the board
                # at worst (a draw), is no progress.
                to_field = state.map.steps_to(ASTEROID_FIELD, ship.hex) or 0
                chance = 0.5 * max(0.0, 1 - to_field / (c1 - c0 + 1))
            total += chance * stake(state)
        return {pirates.pirate_side: total}

    def decide(self, state: VV5State, points: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
        pirates = _pirates(state)
        side = pirates.pirate_side
        hunters = tuple(s for s in state.sides if s != side)
        if pirates.escaped:
            return (side,), "the pirate got away to its base"
        pirate = state.ships_of(side, active_only=False)[0]
        pursuers = any(state.ships_of(s) for s in hunters)
        if pirate.active:
            if not pursuers:
                return (side,), "the pirate has seen off every pursuer"
            return (), "the pirate is still running and still chased: a draw"
        if pirate.status == "exited":
            return (), "the pirate fled off the board, neither home nor caught: a draw"
        if not pursuers:
            return (), "the pirate and every pursuer were lost: a draw"
        return hunters, f"the pirate is out of the game ({pirate.status}): the interceptors win"


def stake(state: VV5State) -> float:
    """What the game's end (the pirate away, or lost) is worth against victory points: half the whole game
    (``specials.base.whole_game``). Not a rule: the search bot's yardstick."""
    return whole_game(state) / 2


def may_evade(state: VV5State, ship: Ship) -> bool:
    """May ``ship`` roll to evade now? Under the default option only from inside the asteroid field."""
    if state.options.get(OPTION, "field") == "anywhere":
        return True
    return state.map.terrain_at(ship.hex) == ASTEROID_FIELD


def escape_chance(distance: int) -> float:
    """The chance that the evasion roll, 1D6, comes under ``distance`` (to the nearest pursuer).

    >>> escape_chance(1), escape_chance(4), escape_chance(9)
    (0.0, 0.5, 1.0)
    """
    return min(1.0, max(0.0, (distance - 1) / 6))


def field_risk(speed: int, bonus: int) -> tuple[float, float]:
    """(chance of being destroyed, chance of 1D6 damage) for one asteroid-field roll."""
    ways = [0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]  # ways to roll 2..12 on 2D6, indexed by total
    lost = sum(ways[t] for t in range(2, 13) if t + bonus < speed) / 36
    hit = sum(ways[t] for t in range(2, 13) if t + bonus == speed) / 36
    return lost, hit


def objective(state: VV5State, ship: Ship, end: Hex, speed: int) -> float:
    """Greedy pull: the pirate runs for the field and away from pursuers; interceptors close on the pirate."""
    pirates = _pirates(state)
    field = state.map.hexes_with(ASTEROID_FIELD)
    in_field = end in field
    bonus = pirates.field_bonus if ship.side == pirates.pirate_side else 0
    lost, hit = field_risk(speed, bonus) if in_field else (0.0, 0.0)
    score = -60.0 * lost - 3.0 * hit
    steps = state.map.steps_to(ASTEROID_FIELD, end)
    to_field = 99 if steps is None else steps
    if to_field <= speed + 2:
        # Next turn's roll, after braking as hard as the drive allows: do not arrive too fast to slow down.
        later_lost, later_hit = field_risk(max(0, speed - ship.acceleration.boxes), bonus)
        score -= 40.0 * later_lost + 2.0 * later_hit
    if ship.side == pirates.pirate_side:
        hunters = [(e.hex.shifted(e.velocity.dq, e.velocity.dr)) for e in state.enemies_of(ship.side)]
        if not hunters:
            return score
        distance = min(end.distance(h) for h in hunters)
        can_roll = in_field or state.options.get(OPTION, "field") == "anywhere"
        escape = escape_chance(distance) if can_roll else 0.0
        # Speed buys little: the field's rocks punish it and the drive brakes only 2G a turn.
        score += 12.0 * escape - 0.6 * to_field + 0.3 * min(distance, 8) - 1.5 * max(0, speed - 4)
        # A transport turns slowly: hold a level course, clear of the top and bottom edges.
        dq, dr = end.minus(ship.hex)
        if not state.map.contains(end.shifted(2 * dq, 2 * dr)):
            score -= 4.0
        score -= 1.0 * abs(dr + dq / 2)
        return score - 0.5 * max(0, 4 - state.map.distance_to_edge(end))
    quarry = state.ships_of(pirates.pirate_side)
    if not quarry:
        return score
    target = quarry[0].hex.shifted(quarry[0].velocity.dq, quarry[0].velocity.dr)
    return score - 0.9 * end.distance(target)


def _pirates(state: VV5State) -> PirateState:
    if not isinstance(state.special, PirateState):  # pragma: no cover - only called for this scenario
        raise TypeError("not a pirates game")
    return state.special
