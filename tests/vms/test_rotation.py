"""VMS rotation: momentum, pivot costs, class limits, small craft, the advanced variant."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError
from vectorwar.hexes import Direction, Hex
from vectorwar.systems.vms.movement import Motion, Plot, move
from vectorwar.systems.vms.rotation import (
    AdvancedRotation,
    overspeed,
    overspeed_damage,
    rotation_cost,
    weapon_penalty,
)
from vectorwar.systems.vms.ships import ROTATION_LIMITS, PivotCost
from vectorwar.systems.vms.thrust import Burn
from vectorwar.vectors import Velocity

from .helpers import design, fighter

directions = st.sampled_from(list(Direction))


def test_pivot_cost_start_then_stop() -> None:
    """VMS Rotational System 3: X+X is start cost then stop cost, per hexside/turn."""
    pivot = PivotCost.parse("2+3")
    assert rotation_cost(0, 2, pivot) == 4
    assert rotation_cost(2, 0, pivot) == 6
    assert rotation_cost(0, -1, pivot) == 2
    assert rotation_cost(-1, 1, pivot) == 3 + 2  # stop, then start the other way


@given(directions, st.integers(-3, 3), st.integers(0, 8))
def test_rotation_without_rotational_thrust_keeps_its_speed(facing: Direction, speed: int, turns: int) -> None:
    """Facing after n turns of drifting = start + n x speed; the speed never changes."""
    ship = design(ship_class="capital")
    motion = Motion(Hex(0, 0), Velocity(), facing, speed)
    for turn in range(1, turns + 1):
        motion = move(ship, motion, Plot(), turn).motion
        assert motion.rotation == speed
    assert motion.facing is facing.turned(turns * speed)


def test_rotational_burns_must_pay_the_plotted_change_exactly() -> None:
    ship = design(pivot_cost="2+2")
    with pytest.raises(IllegalOrderError, match="needs 2 rotational points"):
        move(ship, Motion(Hex(0, 0), Velocity(), Direction.A), Plot((Burn("aft1", 1),), rotation=1), 1)
    with pytest.raises(IllegalOrderError, match="needs 0 rotational points"):
        move(ship, Motion(Hex(0, 0), Velocity(), Direction.A), Plot((Burn("aft1", 1),)), 1)


def test_weapon_penalty_is_minus_2_per_hexside_turned() -> None:
    """VMS Rotational System 4."""
    assert [weapon_penalty(n) for n in (0, 1, -2, 3)] == [0, -2, -4, -6]


def test_ruling_class_rotation_limits() -> None:
    """Ruling *Ship class for rotation limits*: civilian 1, capital and medium 2, shuttle 3, fighter none."""
    assert ROTATION_LIMITS == {"civilian": 1, "capital": 2, "medium": 2, "shuttle": 3, "fighter": None}


def test_overspeed_rolls_xd10_for_each_extra_hexside_every_turn() -> None:
    """VMS Rotational System 5: X = hexsides over the limit, rolled at the end of every such turn."""
    ship = design(ship_class="civilian", pivot_cost="1+1", thrust=20)
    motion = Motion(Hex(0, 0), Velocity(), Direction.A, 3)
    dice = Dice(seed=1)
    for turn in (1, 2):
        result = move(ship, motion, Plot(), turn)
        assert result.overspeed == 2
        event = overspeed_damage("Liner", result.overspeed, dice)
        assert event is not None
        assert event.dice == "2d10"
        assert len(event.faces) == 2
        motion = result.motion
    assert overspeed_damage("Liner", 0, dice) is None
    assert overspeed(None, 12) == 0


@pytest.mark.parametrize("ship_class", ["fighter", "shuttle"])
def test_small_craft_turn_at_will_for_1_per_hexside_and_stop(ship_class: str) -> None:
    """VMS Fighters and Shuttles: no plotted rotation; 1 thrust point per hexside; no rotation carried."""
    craft = fighter(ship_class)
    result = move(craft, Motion(Hex(0, 0), Velocity(), Direction.A), Plot((Burn("aft1", 2),), rotation=2), 1)
    assert result.motion.facing is Direction.C
    assert result.motion.rotation == 0
    assert result.thrust_spent == 2
    assert result.hexsides_turned == 2


def test_shuttles_may_not_turn_more_than_3_fighters_may() -> None:
    """VMS Rotational System 5: the small-craft limit is absolute, so it is refused, not damaged."""
    with pytest.raises(IllegalOrderError, match="at most 3"):
        move(fighter("shuttle"), Motion(Hex(0, 0), Velocity(), Direction.A), Plot((Burn("aft1", 4),), rotation=4), 1)
    result = move(fighter(), Motion(Hex(0, 0), Velocity(), Direction.A), Plot((Burn("aft1", 5),), rotation=5), 1)
    assert result.motion.facing is Direction.F


def test_ruling_small_craft_thrust_from_their_starting_facing() -> None:
    """Small craft turn at the end of the move, so this turn's thrust uses the old facing."""
    craft = fighter()
    result = move(
        craft,
        Motion(Hex(0, 0), Velocity(), Direction.A),
        Plot((Burn("aft1", 2, Direction.A), Burn("port1", 1)), rotation=1),
        1,
    )
    assert str(result.motion.velocity) == "A=2"
    assert result.motion.facing is Direction.B


def test_ruling_thrust_before_rotation_and_its_option() -> None:
    """Ruling *Thrust before rotation*: thrusters fire from the start-of-turn facing, or after it by option."""
    ship = design()
    start = Motion(Hex(0, 0), Velocity(), Direction.A)
    plot = Plot((Burn("aft1", 2, Direction.A), Burn("port1", 1)), rotation=1)
    assert str(move(ship, start, plot, 1).motion.velocity) == "A=1"
    with pytest.raises(IllegalOrderError, match="facing B"):
        move(ship, start, plot, 1, rotate_before_thrust=True)
    after = Plot((Burn("aft1", 2, Direction.B), Burn("port1", 1)), rotation=1)
    assert str(move(ship, start, after, 1, rotate_before_thrust=True).motion.velocity) == "B=1"


@given(st.integers(1, 12), st.integers(1, 12), st.integers(1, 40), st.integers(0, 10))
def test_advanced_rotation_turns_on_whole_hexsides_only(start: int, stop: int, points: int, turns: int) -> None:
    """Over n turns the facing turns floor(n x rate) hexsides, the part-hexside carried."""
    pivot = PivotCost(start, stop)
    spin = AdvancedRotation().thrust(points, pivot)
    turned = 0
    for _ in range(turns):
        n, spin = spin.advance(pivot)
        turned += n
    assert turned == turns * points * stop // (start * stop)
    assert 0 <= spin.carried < start * stop


def test_ruling_advanced_rotation_stop_drops_the_part_hexside() -> None:
    """Ruling *Advanced rotation when the ship stops*: at rate 0 nothing is carried."""
    pivot = PivotCost(10, 10)
    _, spin = AdvancedRotation().thrust(15, pivot).advance(pivot)
    stopped = spin.thrust(-15, pivot)
    assert stopped == AdvancedRotation(0, 0)
    assert spin.thrust(-10, pivot).rate == 50  # slowing by 1 hexside/turn: 10 stop points


def test_advanced_rotation_reverses_through_zero() -> None:
    pivot = PivotCost(10, 5)
    spin = AdvancedRotation().thrust(10, pivot)  # 1 hexside/turn clockwise
    assert spin.thrust(-5, pivot) == AdvancedRotation(0, 0)
    assert spin.thrust(-15, pivot).hexsides_per_turn(pivot) == -1.0
