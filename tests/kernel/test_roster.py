"""The roster's ship index: found by id through a dict, invisible to the state's data and equality."""

from __future__ import annotations

import json
import pickle
from dataclasses import replace
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.game import Game
from vectorwar.registry import get_system, systems
from vectorwar.roster import Roster, replace_fields
from vectorwar.serial import from_data, to_data
from vectorwar.systems.vv5.state import VV5State


def _state() -> VV5State:
    state: VV5State = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight-4"), seed=2).state
    return state


def test_ships_are_found_by_id_and_replaced_in_place() -> None:
    state = _state()
    ids = [s.id for s in state.ships]
    assert [state.ship(i).id for i in ids] == ids
    moved = replace(state.ship(ids[2]), damage_taken=state.ship(ids[2]).damage_taken + 1)
    after = state.with_ship(moved)
    assert [s.id for s in after.ships] == ids
    assert after.ship(ids[2]) is moved
    assert after.ships[2] is moved
    assert state.ship(ids[2]) is not moved  # the old state is untouched
    assert after.with_ship(state.ship(ids[2])) == state


def test_an_unknown_id_is_a_key_error() -> None:
    state = _state()
    with pytest.raises(KeyError, match="nobody"):
        state.ship("nobody")


def test_the_index_is_not_part_of_the_states_data_or_equality() -> None:
    state = _state()
    before = json.dumps(to_data(state), sort_keys=True)
    state.ship(state.ships[0].id)  # builds the index
    assert json.dumps(to_data(state), sort_keys=True) == before
    back = from_data(VV5State, json.loads(before))
    assert back == state
    assert json.dumps(to_data(back), sort_keys=True) == before
    assert "_ship_index" not in repr(state)


def test_replace_fields_is_dataclasses_replace() -> None:
    state = _state()
    ship = state.ships[1]
    assert replace_fields(ship, damage_taken=3) == replace(ship, damage_taken=3)
    assert replace_fields(state, turn=state.turn + 1) == replace(state, turn=state.turn + 1)
    with pytest.raises(TypeError):
        replace_fields(ship, no_such_field=1)  # refused as replace refuses it


def test_replace_fields_keeps_the_index_and_answers_only_while_the_ships_stay() -> None:
    # A state that keeps its fields in slots (VV5's keeps them in a __dict__: tests/vv5/test_fast_paths.py;
    # every layout and the answers' rule: tests/kernel/test_replace_fields.py).
    state = Game.new(get_system("msc"), builtin_scenario("msc-fleet"), seed=2).state
    side = state.sides[0]
    own = state.ships_of(side)
    later = replace_fields(state, turn=state.turn + 1)
    assert later.ships_of(side) is own  # the answer handed on
    fewer = replace_fields(state, ships=state.ships[1:])
    assert fewer.ships_of(side) == tuple(s for s in state.ships[1:] if s.side == side and s.active)
    assert fewer.ship(state.ships[1].id) is state.ships[1]  # an index of its own, not the old one
    with pytest.raises(KeyError):
        fewer.ship(state.ships[0].id)


def test_with_ships_is_with_ship_for_each_in_turn() -> None:
    state = _state()
    changed = [replace(s, damage_taken=s.damage_taken + 1 + i) for i, s in enumerate(state.ships[::2])]
    one_by_one = state
    for ship in changed:
        one_by_one = one_by_one.with_ship(ship)
    together = state.with_ships(changed)
    assert together == one_by_one
    assert [together.ship(s.id) for s in changed] == changed
    assert state.with_ships([]) is state
    unknown = replace(state.ships[0], id="nobody")
    assert state.with_ships([unknown]) == state.with_ship(unknown)  # an id not aboard: as with_ship does


def _asked_states() -> list[tuple[str, Roster[Any]]]:
    """Every shipped system's first built-in scenario's opening state, its kept answers filled."""
    states = []
    for name, system in sorted(systems().items()):
        scenario_id = next((sid for sid in sorted(scenario_paths()) if sid.startswith(f"{name}-")), None)
        if scenario_id is None:
            continue  # a system added by a test, with no built-in scenario
        state = Game.new(system, builtin_scenario(scenario_id), seed=2).state
        if not isinstance(state, Roster):
            continue
        for side in state.sides:
            state.ships_of(side)
            state.enemies_of(side)
        state.sides_in_play()
        if state.ships:
            state.ship(state.ships[0].id)
        states.append((scenario_id, state))
    return states


@pytest.mark.parametrize(("scenario_id", "state"), _asked_states(), ids=lambda v: v if isinstance(v, str) else "")
def test_a_state_with_kept_answers_pickles_without_them(scenario_id: str, state: Any) -> None:
    # What a server does to hand a decision to a bot's worker process.
    restored = pickle.loads(pickle.dumps(state))
    assert restored == state
    assert "_asked" not in getattr(restored, "__dict__", {})
    assert getattr(restored, "_asked", None) is None
    assert restored.ships_of(state.sides[0]) == state.ships_of(state.sides[0])
