"""The fuel track's layout and shapes, and the Thrust Matrix row they put a ship on."""

from __future__ import annotations

from typing import Any

import pytest

from vectorwar.errors import DesignError, IllegalOrderError
from vectorwar.game import Game
from vectorwar.systems.avt.design import design_from_data
from vectorwar.systems.avt.events import VectorsResolved
from vectorwar.systems.avt.fuel import column_units, matrix_row, max_thrust, shape, track_rows, unit_place
from vectorwar.systems.avt.rules import system

from .helpers import AVT, make_scenario

CHARTS = {"pivot_chart": [[0]], "roll_chart": [[0]]}
# A made-up tug: three matrix rows, circles, then squares, then circles again.
TUG = {"name": "Tug", "thrust": 2, "fuel": 30, "fuel_spaces": 10, "thrust_matrix": [2, 3, 4], "fuel_shapes": [4, 20]}


def test_avt_fuel_track_105_units_in_30_spaces_burn_in_rows_of_30() -> None:
    rafik = system.designs()["rafik"]
    # "Generation 3.5 Fusion / 30 Spaces / 105 Units": 30 columns, three full rows and half a row.
    assert track_rows(rafik.fuel, rafik.fuel_spaces) == (30, 30, 30, 15)
    columns = [column_units(c, rafik.fuel, rafik.fuel_spaces) for c in range(rafik.fuel_spaces)]
    # Columns hold 4 (the 15 under the short last row) or 3: 3.5 a hull space, as the generation says.
    assert columns == [4] * 15 + [3] * 15
    assert sum(columns) / len(columns) == 3.5
    # A5.282: the whole top row before the second; A5.362: game two's 6 and game three's 2 units
    # are the first 8 of the top row, left to right.
    assert [unit_place(i, 30) for i in (0, 7, 29, 30, 104)] == [(0, 0), (0, 7), (0, 29), (1, 0), (3, 14)]


def test_avt_a5_24_the_rafik_uses_the_first_row_of_its_thrust_matrix_whatever_its_fuel() -> None:
    rafik = system.designs()["rafik"]
    assert rafik.matrix == (5,)
    assert {rafik.max_thrust(left) for left in range(0, 106)} == {5}


def test_avt_a2_4_each_change_of_fuel_shape_moves_one_row_down_the_thrust_matrix() -> None:
    tug = design_from_data({**TUG, **CHARTS}, "test", "tug")
    # Burned 0-3: circles, row 1; the 4th unit burned reaches the squares: row 2; 20: circles again, row 3.
    assert [matrix_row(b, tug.fuel_shapes) for b in (0, 3, 4, 19, 20, 30)] == [0, 0, 1, 1, 2, 2]
    assert [shape(i, tug.fuel_shapes) for i in (0, 3, 4, 19, 20, 29)] == [
        "circle",
        "circle",
        "square",
        "square",
        "circle",
        "circle",
    ]
    assert [tug.max_thrust(left) for left in (30, 27, 26, 11, 10, 0)] == [2, 2, 3, 3, 4, 4]
    assert max_thrust((2, 3), (4,), 99) == 3


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"thrust_matrix": [3, 4, 5]}, "the first row is the thrust, 2"),
        ({"thrust_matrix": [2, 2, 4]}, "each row is higher"),
        ({"fuel_shapes": [4]}, "3 rows need 2 changes, got 1"),
        ({"fuel_shapes": [20, 4]}, "in burning order"),
        ({"fuel_shapes": [4, 30]}, "within the 30 units"),
    ],
)
def test_avt_thrust_matrix_and_fuel_shapes_are_checked(changes: dict[str, Any], words: str) -> None:
    with pytest.raises(DesignError, match=words):
        design_from_data({**TUG, **CHARTS, **changes}, "test", "tug")


def test_avt_a2_4_burning_past_a_shape_change_raises_the_thrust_limit() -> None:
    base = make_scenario(
        [("blue", "Tug", "tug", "20,20", "A", "0", 0), ("chocolates", "Far", "chocolate", "0,0", "A", "0", 0)]
    )
    tug = {**TUG, **CHARTS, "fuel": 8, "fuel_spaces": 4, "thrust_matrix": [2, 4], "fuel_shapes": [4]}
    game = Game.new(AVT, base.model_copy(update={"designs": {"tug": tug}}), 0)
    assert dict(AVT.ship_cards(game.state)[0].rows)["thrust matrix"] == "row 1 of 2: max 2"
    with pytest.raises(IllegalOrderError, match="thrust 3 is above Tug's 2"):
        game.submit("blue", "Tug thrust 3")
    resolved: list[VectorsResolved] = []
    for order in ["Tug thrust 2"] + ["hold"] * 7:
        resolved += [e for e in game.submit("blue", order) if isinstance(e, VectorsResolved)]
    # Eight cells of thrust 2 are four dots, four fuel units: the circles are gone (A5.282).
    assert [(r.fuel, r.fuel_left) for r in resolved] == [(4, 4)]
    assert dict(AVT.ship_cards(game.state)[0].rows)["thrust matrix"] == "row 2 of 2: max 4"
    game.submit("blue", "Tug thrust 4")
    assert game.state.ship("Tug").chart.setting == 4
