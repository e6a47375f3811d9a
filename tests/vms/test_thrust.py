"""VMS thrust: thruster arcs on the flat-topped hex, ratings, the accel/decel cost, total thrust."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import IllegalOrderError
from vectorwar.hexes import Direction, Hex
from vectorwar.systems.vms.movement import Motion, Plot, move
from vectorwar.systems.vms.ships import SIDES
from vectorwar.systems.vms.thrust import Burn, apply_burns, pushes
from vectorwar.vectors import Velocity

from .helpers import design


def test_ruling_side_thrusters_push_toward_either_hexside_of_the_other_flank() -> None:
    """VMS Thruster Firing Arcs on six hexsides: forward/aft one hexside each, port/starboard two."""
    facing = Direction.A
    assert pushes("aft", facing) == (Direction.A,)
    assert pushes("forward", facing) == (Direction.D,)
    assert set(pushes("starboard", facing)) == {Direction.F, Direction.E}
    assert set(pushes("port", facing)) == {Direction.B, Direction.C}


@given(st.sampled_from(list(Direction)))
def test_every_direction_can_be_pushed_by_exactly_one_side(facing: Direction) -> None:
    reached = [d for side in SIDES for d in pushes(side, facing)]
    assert sorted(reached) == list(Direction)


def test_thrust_outside_a_thrusters_arc_is_refused() -> None:
    with pytest.raises(IllegalOrderError, match="can only push toward"):
        apply_burns(design(), Direction.A, [Burn("aft1", 2, Direction.B)])


@given(st.lists(st.tuples(st.sampled_from(["aft1", "port1", "forward1"]), st.integers(1, 10)), max_size=5))
def test_thrust_through_a_thruster_never_exceeds_its_rating(burns: list[tuple[str, int]]) -> None:
    ship = design(accel_cost=1)
    table = ship.thruster_table()
    totals: dict[str, int] = {}
    for name, n in burns:
        totals[name] = totals.get(name, 0) + n
    if any(used > table[name].rating for name, used in totals.items()):
        with pytest.raises(IllegalOrderError, match="rated"):
            apply_burns(ship, Direction.A, [Burn(t, n) for t, n in burns])
    else:
        use = apply_burns(ship, Direction.A, [Burn(t, n) for t, n in burns])
        assert use.per_thruster == totals


def test_rotational_and_translational_points_share_a_thrusters_rating() -> None:
    """VMS Rotational System 1: rotational thrust counts toward the thruster's rating."""
    with pytest.raises(IllegalOrderError, match="7 points through aft1, rated 6"):
        apply_burns(design(), Direction.A, [Burn("aft1", 6, Direction.A), Burn("aft1", 1)])


def test_thruster_critical_hits_cut_rotation_as_well_as_acceleration() -> None:
    """VMS Rotational System 6: a damaged thruster carries less of either kind of thrust."""
    lost = {"aft1": 5}
    with pytest.raises(IllegalOrderError, match="rated 1"):
        apply_burns(design(), Direction.A, [Burn("aft1", 2, Direction.A)], lost)
    with pytest.raises(IllegalOrderError, match="rated 1"):
        apply_burns(design(), Direction.A, [Burn("aft1", 2)], lost)


def test_ruling_accel_cost_is_thrust_points_per_hex_and_only_whole_hexes() -> None:
    """Ruling *Thrust points and the accel/decel cost*: hexes = points / cost, points a multiple of it."""
    ship = design(accel_cost=3)
    assert apply_burns(ship, Direction.A, [Burn("aft1", 6, Direction.A)]).hexes == {Direction.A: 2}
    with pytest.raises(IllegalOrderError, match="multiple of the accel/decel cost 3"):
        apply_burns(ship, Direction.A, [Burn("aft1", 4, Direction.A)])


def test_rotational_points_do_not_pay_the_accel_cost() -> None:
    use = apply_burns(design(accel_cost=3), Direction.A, [Burn("port1", 1)])
    assert use.rotational_points == 1
    assert use.hexes == {}


def test_thrust_from_two_thrusters_adds_up_in_one_direction() -> None:
    use = apply_burns(design(), Direction.A, [Burn("port1", 2, Direction.B), Burn("starboard1", 2, Direction.F)])
    assert use.hexes == {Direction.B: 1, Direction.F: 1}
    assert str(use.velocity_change) == "A=1"


def test_total_thrust_is_a_hard_limit() -> None:
    ship = design(thrust=5)
    with pytest.raises(IllegalOrderError, match="has 5 thrust"):
        move(ship, Motion(Hex(0, 0), Velocity(), Direction.A), Plot((Burn("aft1", 6, Direction.A),)), turn=1)


def test_deceleration_uses_the_forward_thruster() -> None:
    start = Motion(Hex(0, 0), Velocity.parse("A=3"), Direction.A)
    result = move(design(), start, Plot((Burn("forward1", 2, Direction.D),)), turn=1)
    assert str(result.motion.velocity) == "A=2"
