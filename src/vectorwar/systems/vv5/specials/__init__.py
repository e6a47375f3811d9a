"""Scenario special rules for VV5.

A scenario names its special rules in a ``[special]`` table with a ``kind``;
the :class:`Special` registered under that kind validates the table, sets the
scenario up (placing objects, rolling for features) and hooks into the turn:
after movement, in the Boarding Actions phase, when deciding whether the game
is over and who won. Scenarios without a ``[special]`` table play the plain
rules (the Dogfight).
"""

from __future__ import annotations

from typing import Any

from vectorwar.dice import Dice
from vectorwar.errors import ScenarioError
from vectorwar.events import Event
from vectorwar.systems.vv5.specials.alien_starship import AlienStarship
from vectorwar.systems.vv5.specials.base import Special
from vectorwar.systems.vv5.specials.cargo_runs import CARGO_RUNS
from vectorwar.systems.vv5.specials.ghost_ship import GhostShip
from vectorwar.systems.vv5.specials.invasion import Invasion
from vectorwar.systems.vv5.specials.pirates import Pirates
from vectorwar.systems.vv5.specials.pod import StasisPod
from vectorwar.systems.vv5.state import VV5State

SPECIALS: dict[str, Special] = {
    s.kind: s for s in (StasisPod(), *CARGO_RUNS, Pirates(), Invasion(), AlienStarship(), GhostShip())
}


def special_for(state: VV5State) -> Special | None:
    return None if state.special is None else SPECIALS[state.special.kind]


def set_up(state: VV5State, table: dict[str, Any], source: str) -> VV5State:
    """Apply a scenario's ``[special]`` table (empty: plain rules)."""
    if not table:
        return state
    kind = table.get("kind")
    if kind not in SPECIALS:
        raise ScenarioError(f"{source}: special.kind: unknown special rules {kind!r} (known: {', '.join(SPECIALS)})")
    return SPECIALS[str(kind)].set_up(state, table, source)


def begin(state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
    special = special_for(state)
    return state if special is None else special.begin(state, dice, events)


__all__ = ["SPECIALS", "Special", "begin", "set_up", "special_for"]
