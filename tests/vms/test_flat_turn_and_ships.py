"""VMS flat turns (Minbari Movement) and the ship data model."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.hexes import Direction, Hex
from vectorwar.systems.vms.flat_turn import _turned_vector, flat_turn, recorded_speed, rotated
from vectorwar.systems.vms.movement import Motion, Plot, move
from vectorwar.systems.vms.ships import FlatTurnCost, PivotCost
from vectorwar.systems.vms.thrust import Burn
from vectorwar.vectors import Velocity

from .helpers import design, sharlin

velocities = st.builds(Velocity, st.integers(-8, 8), st.integers(-8, 8))


@given(velocities, st.integers(-6, 6))
def test_a_flat_turn_keeps_the_speed_and_six_steps_come_back(v: Velocity, k: int) -> None:
    assert rotated(v, k).speed == v.speed
    assert rotated(rotated(v, k), -k) == v
    assert rotated(v, 6) == v


@given(st.integers(-30, 30), st.integers(-30, 30), st.integers(-2, 2), st.integers(-7, 7))
def test_the_flat_turns_whole_numbers_are_the_recorded_forms(dq: int, dr: int, dz: int, k: int) -> None:
    """The menus price and turn a vector in whole numbers (``_turned_vector``): the recorded numbers added and the
    vector turned through its recorded form, for every vector and turn either way."""
    v = Velocity(dq, dr, dz)
    assert _turned_vector(v, k) == (recorded_speed(v), rotated(v, k))


def test_flat_turn_cost_uses_the_two_recorded_numbers_added() -> None:
    """VMS Minbari Movement step 2: A=4, B=2 is priced at speed 6."""
    v = Velocity.parse("A=4, B=2")
    assert recorded_speed(v) == 6
    turn = flat_turn(sharlin(), v, Direction.A, -2)
    assert turn.cost == 12
    assert str(turn.next_velocity) == "E=4, F=2"
    assert turn.next_facing is Direction.E


def test_flat_turn_needs_the_ability_and_a_vector() -> None:
    with pytest.raises(IllegalOrderError, match="no flat turn ability"):
        flat_turn(design(), Velocity.parse("A=3"), Direction.A, 1)
    with pytest.raises(IllegalOrderError, match="speed 0"):
        flat_turn(sharlin(), Velocity(), Direction.A, 1)


def test_ruling_flat_turn_hexsides_count_toward_the_rotation_limit_and_penalty() -> None:
    """Ruling *Flat turns and rotation limits*: rotation and flat turn hexsides add up."""
    ship = sharlin()
    start = Motion(Hex(0, 0), Velocity.parse("A=2"), Direction.A, 1)
    result = move(ship, start, Plot(flat_turn=2), turn=1)
    assert result.hexsides_turned == 3
    assert result.overspeed == 1
    assert result.motion.facing is Direction.D
    assert str(result.motion.velocity) == "C=2"


def test_ruling_flat_turn_is_paid_from_total_thrust_not_through_thrusters() -> None:
    ship = sharlin()  # thrust 24
    start = Motion(Hex(0, 0), Velocity.parse("A=12"), Direction.A)
    assert move(ship, start, Plot(flat_turn=2), turn=1).thrust_spent == 24
    with pytest.raises(IllegalOrderError, match="has 24 thrust"):
        move(ship, start, Plot((Burn("aft1", 5, Direction.A),), flat_turn=2), turn=1)


def test_design_needs_1_to_4_thrusters_per_side() -> None:
    with pytest.raises(ValueError, match="0 port thrusters"):
        design(thrusters=[{"side": s, "rating": 3} for s in ("forward", "aft", "starboard")])
    with pytest.raises(ValueError, match="5 aft thrusters"):
        design(
            thrusters=[{"side": "aft", "rating": 3}] * 5
            + [{"side": s, "rating": 3} for s in ("forward", "port", "starboard")]
        )
    many = design(thrusters=[{"side": s, "rating": 2} for s in ("forward", "aft", "aft", "port", "starboard")])
    assert set(many.thruster_table()) == {"forward1", "aft1", "aft2", "port1", "starboard1"}


def test_large_ships_need_a_pivot_cost_small_craft_do_not() -> None:
    with pytest.raises(ValueError, match="needs a pivot_cost"):
        design(pivot_cost=None)
    assert design(ship_class="fighter", pivot_cost=None).small_craft


def test_sheet_notations_round_trip() -> None:
    assert str(PivotCost.parse("3+4")) == "3+4"
    assert str(FlatTurnCost.parse("2/3")) == "2/3"
    assert FlatTurnCost.parse("2/3").cost(4) == 3
    with pytest.raises(OrderSyntaxError):
        PivotCost.parse("3")
    with pytest.raises(OrderSyntaxError):
        FlatTurnCost.parse("half")
    ship = sharlin()
    assert type(ship).model_validate(ship.model_dump()) == ship
