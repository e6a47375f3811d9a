"""Helpers for building VV5 situations by hand."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.support.dice import LoadedDice as LoadedDice  # the VV5 tests import it from here
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.systems.vv5.design import Design, GunMount
from vectorwar.systems.vv5.equipment import build_ship
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import Box, Ship, VV5State
from vectorwar.vectors import Velocity


def make_ship(
    ship_id: str = "X1",
    side: str = "red",
    at: str = "10,10",
    facing: str = "A",
    velocity: str = "0",
    design: Design | None = None,
) -> Ship:
    d = design or system.designs()["dynamo"]
    return build_ship(
        ship_id,
        side,
        d.name.lower(),
        d,
        hex=Hex.parse(at),
        facing=Direction.parse(facing),
        velocity=Velocity.parse(velocity),
    )


def guns_of(ship: Ship, arc: str) -> Box:
    """The guns of ``ship``'s mount on ``arc``, which it must have."""
    mount = ship.mount(arc)
    assert mount is not None
    return mount.guns


def make_state(*ships: Ship, hex_map: HexMap | None = None, **changes: Any) -> VV5State:
    state = VV5State(
        turn=1,
        phase="plot",
        sides=tuple(dict.fromkeys(s.side for s in ships)),
        ships=ships,
        map=hex_map or HexMap.single(30, 30),
        max_turns=15,
        options={"several_targets": "harder"},
    )
    return replace(state, **changes)


GUNSHIP = Design(name="Gunship", mass=10, acceleration=1, agility=1, guns=(GunMount(arc="forward", guns=2),))


@pytest.fixture
def gunship() -> Design:
    return GUNSHIP
