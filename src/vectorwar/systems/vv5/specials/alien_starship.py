"""VV5 scenario 6, Alien Starship.

An ancient starship (structural integrity 20; it neither moves nor fires)
sits at the centre of the board with three automated defence platforms next
to it, an empty hex between each (see :mod:`adp`). Players escort troopers to
it; they board as in scenario 7 (see :mod:`boarding`; the starship is still,
so a transport must stop next to it). Downloading its data wins outright.

If the starship is destroyed first the game ends on victory points: 3 a
structure point for a destroyed starship and 1 a point of damage, 2 a
structure point for a destroyed transport and 1 per 2 points of damage other
than to cargo (the plain tally, ``rules.victory_points``), and 5 for every
trooper a rival loses (aboard, with a cargo
box or with the transport). The platforms and the starship are worth nothing.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import Field

from vectorwar.errors import OrderSyntaxError, ScenarioError
from vectorwar.hexes import Direction
from vectorwar.systems.vv5 import catalogue
from vectorwar.systems.vv5.equipment import build_ship
from vectorwar.systems.vv5.specials.boarding import (
    BoardingSpec,
    BoardingSpecial,
    board,
    derelict_design,
    initial_state,
    locate,
    place_derelict,
    read_spec,
    troopers_lost,
)
from vectorwar.systems.vv5.state import VV5State
from vectorwar.vectors import Velocity

STARSHIP_ID = "AS"
ANCIENT = derelict_design("Ancient Starship", 20)
PLATFORM_SIDE = "defences"


class AlienSpec(BoardingSpec):
    kind: Literal["alien-starship"]
    platforms: list[str] = Field(
        default=["A", "C", "E"], description="Directions from the starship to its three defence platforms"
    )


class AlienStarship(BoardingSpecial):
    kind = "alien-starship"

    def set_up(self, state: VV5State, table: dict[str, Any], source: str) -> VV5State:
        spec = read_spec(AlienSpec, state, table, source)
        if not isinstance(spec, AlienSpec):  # pragma: no cover - read_spec builds the type it is given
            raise TypeError("alien-starship spec expected")
        at = locate(state, spec.at, "at", source)
        try:
            directions = [Direction.parse(d) for d in spec.platforms]
        except OrderSyntaxError as err:
            raise ScenarioError(f"{source}: special.platforms: {err.problem}") from None
        spots = [at.neighbour(d) for d in directions]
        for i, a in enumerate(spots):
            if any(a.distance(b) < 2 for b in spots[i + 1 :]):
                raise ScenarioError(f"{source}: special.platforms: leave an empty hex between platforms")
        if any(state.occupant(h) is not None for h in (at, *spots)):
            raise ScenarioError(f"{source}: special.at: a starship already sits where the ancient starship goes")
        state = place_derelict(state, STARSHIP_ID, ANCIENT, at)
        design = catalogue.designs()["adp"]
        platforms = tuple(
            build_ship(f"ADP{i + 1}", PLATFORM_SIDE, "adp", design, hex=h, facing=Direction.A, velocity=Velocity())
            for i, h in enumerate(spots)
        )
        state = replace(state, ships=(*state.ships, *platforms), automated=(*state.automated, PLATFORM_SIDE))
        return replace(state, special=initial_state(state, spec, STARSHIP_ID, source))

    def game_over(self, state: VV5State) -> str | None:
        b = board(state)
        if b.log:
            return f"{', '.join(b.log)} downloaded the ancient starship's data"
        if b.gone:
            return b.gone
        return None

    def decide(self, state: VV5State, points: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
        b = board(state)
        if b.log:
            return tuple(dict.fromkeys(b.log)), "the download wins outright"
        summary = ", ".join(f"{s} {v} VP" for s, v in points.items())
        best = max(points.values(), default=0)
        leaders = tuple(s for s in state.sides if points[s] == best)
        return (leaders if len(leaders) == 1 else ()), f"scenario 6 victory points: {summary}"

    def score(self, state: VV5State, points: dict[str, int]) -> dict[str, int]:
        """The plain tally, less anything scored on the ancient starship or the platforms, plus troopers."""
        points = dict(points)
        for ship in state.ships:
            if ship.side in points:
                continue
            # The plain tally credits every ship alike; these are worth nothing here.
            for side, done in ship.damage_by:
                if side in points and side != ship.destroyed_by:
                    points[side] -= done
            if ship.destroyed_by in points:
                points[ship.destroyed_by] -= 3 * ship.mass
        for loser, count in troopers_lost(state).items():
            for side in points:
                if side != loser:
                    points[side] += 5 * count
        return points
