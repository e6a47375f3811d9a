"""VV5 rulings whose default is the text's plain reading, each with the other reading as an option
(docs/rulings.md, section VV5): the asteroid field's roll, the destroyer's damage points, cargo lost with
its ship, and the placements the scenarios leave to the players."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.events import Event, Moved
from vectorwar.hexes import Position
from vectorwar.rules import OptionValue
from vectorwar.systems.vv5.hazards import ASTEROID_ROLL, asteroid_fields
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import VV5State
from vectorwar.systems.vv5.victory import KILL_SCORES_DAMAGE, victory_points
from vectorwar.vectors import Velocity

from .conftest import LoadedDice, make_ship, make_state

DEFAULTS: dict[str, Any] = {o.name: o.default for o in system.manifest.options}


def pirate_state(**options: OptionValue) -> VV5State:
    return system.new_state(builtin_scenario("vv5-pirates"), {**DEFAULTS, **options})


# -- VV5 asteroid field rolls ----------------------------------------------------------------


def _flown(state: VV5State, ship_id: str, *names: str) -> tuple[VV5State, Moved]:
    """``ship_id`` at velocity 3 having flown through the named hexes (the last is where it ends)."""
    hexes = [state.map.locate(n) for n in names]
    ship = replace(state.ship(ship_id), hex=hexes[-1], velocity=Velocity.parse("B=3"))
    return state.with_ship(ship), Moved(ship_id, "0", tuple(Position(h) for h in hexes), ship.facing)


def test_ruling_asteroid_roll_defaults_to_entering() -> None:
    spec = next(o for o in system.manifest.options if o.name == "asteroid_roll")
    assert spec == ASTEROID_ROLL
    assert (spec.default, spec.choices) == ("entering", ("entering", "every_turn"))


def test_ruling_a_ship_entering_the_field_rolls() -> None:
    # C@9,4 is the last column outside the field (sections D, E, I, J, N, O); D@0,4 the first inside.
    state, move = _flown(pirate_state(), "X1", "C@8,4", "C@9,4", "D@0,4")
    out = asteroid_fields(state, [move], LoadedDice(1, 1), [])  # 2 under velocity 3: destroyed
    assert out.ship("X1").status == "crashed"


@pytest.mark.parametrize(("mode", "rolls"), [("entering", False), ("every_turn", True)])
def test_ruling_a_ship_moving_inside_the_field_rolls_only_under_every_turn(mode: str, rolls: bool) -> None:
    state, move = _flown(pirate_state(asteroid_roll=mode), "X1", "D@0,4", "D@1,4", "D@2,4")
    events: list[Event] = []
    dice = LoadedDice(1, 1)
    out = asteroid_fields(state, [move], dice, events)
    assert (out.ship("X1").status == "crashed") is rolls
    assert (dice.count == 2) is rolls


def test_ruling_leaving_the_field_is_no_entry() -> None:
    state, move = _flown(pirate_state(), "X1", "D@1,4", "D@0,4", "C@9,4")
    dice = LoadedDice()
    out = asteroid_fields(state, [move], dice, [])
    assert out.ship("X1").active
    assert dice.count == 0


def test_ruling_one_roll_a_turn_however_often_a_move_enters() -> None:
    state, move = _flown(pirate_state(), "X1", "C@9,4", "D@0,4", "C@9,3", "D@0,3")
    dice = LoadedDice(6, 6)
    asteroid_fields(state, [move], dice, [])
    assert dice.count == 2


# -- VV5 victory points ------------------------------------------------------------------------


@pytest.mark.parametrize(("both", "red"), [(False, 18), (True, 22)])
def test_ruling_the_destroyer_scores_its_damage_too_only_with_the_option(both: bool, red: int) -> None:
    """A Dynamo (6 t) destroyed by red after red did 4 points and green 2: the kill is 18 VPs to red."""
    y = replace(make_ship("Y1", "blue"), status="destroyed", destroyed_by="red", damage_by=(("green", 2), ("red", 4)))
    others = (make_ship("X1", "red", at="1,1"), make_ship("Z1", "green", at="3,3"))
    state = make_state(y, *others, options={"kill_scores_damage": both})
    assert victory_points(state) == {"blue": 0, "red": red, "green": 2}


def test_ruling_kill_scores_damage_defaults_to_the_kill_alone() -> None:
    assert (KILL_SCORES_DAMAGE.default, KILL_SCORES_DAMAGE in system.manifest.options) == (False, True)
