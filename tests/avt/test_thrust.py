"""The thrust chart (A5.241-A5.282, A5.342-A5.362) against every cell the tutorial shows."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.hexes import Direction
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.systems.avt.avid import Window
from vectorwar.systems.avt.thrust import CELLS, Burn, ThrustChart, arrows, dots, minor_dots, thrust_heading


def burn_cells(
    chart: ThrustChart, noses: list[str], bias: Direction | None = None, pivoting: bool = False
) -> tuple[ThrustChart, list[Burn]]:
    burns: list[Burn] = []
    for nose in noses:
        chart, burn = chart.burn(Window.parse(nose), bias, pivoting)
        burns.append(burn)
    return chart, burns


def test_avt_a5_2431_thrust_5_gives_1_1_1_2_over_its_first_four_cells() -> None:
    assert [dots(5, c) for c in range(1, 5)] == [1, 1, 1, 2]
    # A5.28: the fifth cell is one dot again.
    assert dots(5, 5) == 1


def test_ruling_thrust_chart_a_full_column_is_a_quarter_g_a_dot_per_quarter_thrust() -> None:
    # Thrust T is T quarter-gravities: T/4 hexes a turn of velocity each 16-second segment.
    assert [dots(5, c) for c in range(1, 9)] == [1, 1, 1, 2, 1, 1, 1, 2]
    assert [dots(4, c) for c in range(1, 9)] == [1] * 8


def test_avt_a5_274_one_displacement_arrow_in_the_fourth_cell_two_at_the_bottom() -> None:
    assert [arrows(5, c) for c in range(1, 5)] == [0, 0, 0, 1]
    assert arrows(5, 8) == 2


@given(st.integers(1, 40))
def test_property_a2_4_a_full_burn_displaces_half_its_velocity_change(thrust: int) -> None:
    change = sum(dots(thrust, c) for c in range(1, CELLS + 1))
    displaced = sum(arrows(thrust, c) for c in range(1, CELLS + 1))
    assert change == 2 * thrust
    assert displaced == change // 2


def test_avt_a5_272_a_corner_alternates_dots_starting_with_the_bias_direction() -> None:
    # Game two, segment 6: thrust 5, fourth cell (two dots), nose on A/B, bias A: first in A, second in B.
    chart = ThrustChart(setting=5, cell=3, pending=(3, 0, 0, 0, 0, 0, 0, 0), fuel=3)
    chart, burn = chart.burn(Window.parse("A/B"), Direction.A, pivoting=True)
    assert burn.dots == ((Arrow.A, 1), (Arrow.B, 1))
    assert chart.pending_dots() == {Arrow.A: 4, Arrow.B: 1}
    # A5.274-A5.275: the cell's displacement arrow is ignored while pivoting.
    assert burn.displacement == ()


def test_avt_a5_272_the_bias_decides_which_side_takes_the_odd_dots() -> None:
    _, burns = burn_cells(ThrustChart(setting=4), ["A/B", "A/B", "A/B"], bias=Direction.B)
    assert [b.dots for b in burns] == [((Arrow.B, 1),), ((Arrow.A, 1),), ((Arrow.B, 1),)]


def test_ruling_bias_not_beside_the_corner_falls_back_to_the_anticlockwise_side() -> None:
    _, burns = burn_cells(ThrustChart(setting=4), ["C/D", "C/D"], bias=Direction.A)
    assert [b.dots for b in burns] == [((Arrow.C, 1),), ((Arrow.D, 1),)]


def test_avt_a5_342_a5_351_thrust_4_at_c_up_one_dot_in_c_then_one_in_c_and_one_up() -> None:
    chart, (first, second) = burn_cells(ThrustChart(setting=4), ["C+", "C+"])
    assert first.dots == ((Arrow.C, 1),)
    assert second.dots == ((Arrow.C, 1), (Arrow.UP, 1))
    # A5.362: two fuel units for the two cells, whatever the angle.
    assert chart.fuel == 2
    assert chart.pending_dots() == {Arrow.C: 2, Arrow.UP: 1}


def test_avt_a5_366_thrust_at_c_d_up_puts_dots_in_c_d_and_up() -> None:
    chart, _ = burn_cells(ThrustChart(setting=4), ["C/D+", "C/D+"], bias=Direction.C)
    assert chart.pending_dots() == {Arrow.C: 1, Arrow.D: 1, Arrow.UP: 1}


def test_avt_thrust_toward_a_pole_is_orthogonal_and_a_green_nose_leads_with_the_vertical() -> None:
    assert thrust_heading(Window.parse("up")).major == (Arrow.UP, Arrow.UP)
    assert thrust_heading(Window.parse("up")).minor is None
    green = thrust_heading(Window.parse("C--"))
    assert green.major == (Arrow.DOWN, Arrow.DOWN)
    assert green.minor == (Arrow.C, Arrow.C)
    assert [minor_dots(4, c) for c in range(1, 9)] == [0, 1, 0, 1, 0, 1, 0, 1]


def test_avt_displacement_cells_and_carry() -> None:
    chart, burns = burn_cells(ThrustChart(setting=5), ["A"] * 8)
    assert [len(b.displacement) for b in burns] == [0, 0, 0, 1, 0, 1, 1, 2]
    assert all(a is Arrow.A for b in burns for a in b.displacement)
    # After a whole column nothing is left over; a partial burn carries its fraction on.
    assert chart.carry == (0, 0)
    partial, _ = burn_cells(ThrustChart(setting=5), ["A"] * 2)
    assert partial.carry == (2 * 5 * (1 + 3), 0)


def test_avt_no_displacement_while_pivoting_keeps_the_carry() -> None:
    chart, burns = burn_cells(ThrustChart(setting=5, cell=3), ["A"], pivoting=True)
    assert burns[0].displacement == ()
    assert chart.carry == (0, 0)


def test_ruling_a_pivoting_cells_displacement_is_dropped_not_held_over() -> None:
    # docs/rulings/avt.md, AV:T pivoting drops the cell's displacement: thrust 5 displaces 5 hexes over a whole
    # column (A2.4), but with its fourth cell burned while pivoting (A5.274) that cell's share is lost for good.
    chart, burns = burn_cells(ThrustChart(setting=5), ["A"] * 3)
    carried = chart.carry
    chart, (pivot_cell,) = burn_cells(chart, ["A"], pivoting=True)
    assert pivot_cell.displacement == ()
    assert chart.carry == carried
    chart, rest = burn_cells(chart, ["A"] * 4)
    assert sum(len(b.displacement) for b in [*burns, pivot_cell, *rest]) == 4
    # The column ends short of its fifth hex by exactly the dropped cell's share (the carry counts a hex as
    # 128 and cell c of thrust T adds 2T(2c - 1)): held over, that share would have made the fifth hex.
    assert chart.carry == (128 - 2 * 5 * (2 * 4 - 1), 0)


def test_avt_the_chart_refuses_a_cell_off_the_bottom_or_without_thrust() -> None:
    with pytest.raises(ValueError, match="no thrust"):
        ThrustChart().burn(Window.parse("A"), None, False)
    with pytest.raises(ValueError, match="off the bottom"):
        ThrustChart(setting=3, cell=8).burn(Window.parse("A"), None, False)
    with pytest.raises(ValueError, match="cells 1-8"):
        dots(5, 9)


def test_avt_a5_282_a_break_clears_the_pending_dots_and_fuel_and_restarts_at_the_top() -> None:
    chart, _ = burn_cells(ThrustChart(setting=5), ["A"] * 3)
    assert chart.burning
    assert chart.fuel == 3
    fresh = chart.broken()
    assert (fresh.cell, fresh.fuel, fresh.pending_dots(), fresh.setting) == (0, 0, {}, 5)
