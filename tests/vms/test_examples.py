"""The VMS text's worked examples, reproduced exactly."""

from __future__ import annotations

from vectorwar.dice import Dice
from vectorwar.hexes import Direction, Hex
from vectorwar.systems.vms.initiative import FIGHTERS, MEDIUM, NORMAL_SUBPHASE, REMAINING, choices, roll_initiative
from vectorwar.systems.vms.movement import Motion, Plot, move
from vectorwar.systems.vms.rotation import AdvancedRotation
from vectorwar.systems.vms.ships import PivotCost
from vectorwar.systems.vms.thrust import Burn
from vectorwar.vectors import Velocity

from .helpers import design, sharlin


def test_movement_example_turn_3_accelerate_b_and_start_rotating() -> None:
    """VMS Movement Example, turn 3: A=4, B=2 facing B; 2 in B and one facing clockwise."""
    ship = design()  # accel/decel cost 2, pivot 1+1
    start = Motion(Hex.parse("10,10"), Velocity.parse("A=4, B=2"), Direction.B)
    plot = Plot((Burn("aft1", 4, Direction.B), Burn("port1", 1)), rotation=1)
    result = move(ship, start, plot, turn=3)
    current, nxt = result.record.current, result.record.next
    assert current.label == "Odd"
    assert current.vector == {Direction.A: 4, Direction.B: 2}
    assert current.thrust == {Direction.B: 2}  # step 3: "2" in the right half of B
    assert current.right_this == 1
    assert current.left_this == 0
    assert nxt.label == "Even"
    assert nxt.vector == {Direction.A: 4, Direction.B: 4}  # steps 2 and 4
    assert nxt.right_prev == 1  # starts turn 4 rotating clockwise at 1
    assert nxt.facing is Direction.C
    assert result.motion == Motion(Hex.parse("10,10").shifted(4, -8), Velocity.parse("A=4, B=4"), Direction.C, 1)
    assert result.hexsides_turned == 1


def test_movement_example_turn_4_stop_rotation_and_accelerate_to_b_6() -> None:
    """VMS Movement Example, turn 4: 1 anticlockwise stops the rotation, facing stays C; A=4, B=6."""
    ship = design()
    turn3 = move(
        ship,
        Motion(Hex(0, 0), Velocity.parse("A=4, B=2"), Direction.B),
        Plot((Burn("aft1", 4, Direction.B), Burn("port1", 1)), rotation=1),
        turn=3,
    )
    # Facing C now: toward B is the starboard thruster's push (C-1).
    turn4 = move(ship, turn3.motion, Plot((Burn("starboard1", 4, Direction.B), Burn("aft1", 1)), rotation=-1), turn=4)
    current, nxt = turn4.record.current, turn4.record.next
    assert current.label == "Even"
    assert nxt.label == "Odd"
    assert current.vector == {Direction.A: 4, Direction.B: 4}
    assert current.thrust == {Direction.B: 2}
    assert current.right_prev == 1
    assert current.left_this == 1
    assert nxt.vector == {Direction.A: 4, Direction.B: 6}
    assert (nxt.left_prev, nxt.left_this, nxt.right_this, nxt.right_prev) == (0, 0, 0, 0)
    assert nxt.facing is Direction.C
    assert turn4.motion.rotation == 0
    assert turn4.hexsides_turned == 0


def test_flat_turn_example_sharlin_at_a_5() -> None:
    """VMS Minbari Movement: 5 to go from A=5 to 6, 6 for the flat turn, 6 hexes along A, then B=6."""
    ship = sharlin()
    start = Motion(Hex(0, 0), Velocity.parse("A=5"), Direction.A)
    result = move(ship, start, Plot((Burn("aft1", 5, Direction.A),), flat_turn=1), turn=1)
    assert result.thrust.points == 5
    assert result.flat_turn_cost == 6
    assert result.thrust_spent == 11
    assert result.path[-1] == Hex(0, 0).neighbour(Direction.A, 6)
    assert len(result.path) == 7  # moved 6 hexes along A
    assert str(result.motion.velocity) == "B=6"
    assert result.motion.facing is Direction.B
    assert result.record.next.vector == {Direction.B: 6}
    assert result.record.next.facing is Direction.B


def test_advanced_rotation_example_10_to_start_15_applied() -> None:
    """VMS Advanced Rotation Variant: 15 against a start cost of 10 turns 1 hexside, then 2."""
    pivot = PivotCost(10, 10)
    spin = AdvancedRotation().thrust(15, pivot)
    assert spin.hexsides_per_turn(pivot) == 1.5
    first, spin = spin.advance(pivot)
    assert first == 1
    assert spin.carried // pivot.stop == 5  # "5" start points left over
    second, spin = spin.advance(pivot)
    assert second == 2  # 5 + 15 = 20, 20 / 10 = 2
    assert spin.carried == 0


def test_initiative_example_1_light_fighter_plus_5() -> None:
    """VMS Initiative Example #1: +5 (light fighter +4, race +1); a 4 may shift, a 6 does not."""
    assert REMAINING in choices(NORMAL_SUBPHASE["fighter"], 4 + 1, 4)
    assert choices(NORMAL_SUBPHASE["fighter"], 4 + 1, 4)[0] == FIGHTERS  # may, not must
    assert choices(NORMAL_SUBPHASE["fighter"], 4 + 1, 6) == (FIGHTERS,)


def test_initiative_example_2_launched_this_turn_minus_5() -> None:
    """VMS Initiative Example #2: launched this turn (-10), total -5; a 4 must move earlier, a 6 does not."""
    assert choices(NORMAL_SUBPHASE["fighter"], 4 + 1 - 10, 4) == (MEDIUM,)
    assert choices(NORMAL_SUBPHASE["fighter"], 4 + 1 - 10, 6) == (FIGHTERS,)


def test_initiative_roll_is_a_logged_d20() -> None:
    dice = Dice(seed=3)
    result, event = roll_initiative("Starfury 1", "fighter", [4, 1], dice)
    assert event.dice == "d20"
    assert event.total == result.roll
    assert 1 <= result.roll <= 20
    assert result.total == 5
    assert dice.count == 1
    assert result.choices == choices(FIGHTERS, 5, result.roll)
