"""The roster's ship index: found by id through a dict, invisible to the state's data and equality."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.registry import get_system
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
