"""VV5 Starship Design: tonnage, round-ups, armour classes, the catalogue, purchases."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.errors import DesignError
from vectorwar.systems.vv5.design import Armour, Design, GunMount, design_from_data, heavy_armour_tenths
from vectorwar.systems.vv5.purchase import points_wasted, purchase_choices
from vectorwar.systems.vv5.rules import system


def sheet(design: Design) -> dict[str, float]:
    return {line.item: line.tenths / 10 for line in design.tonnage()}


@pytest.mark.parametrize(
    ("mass", "g", "tons"),
    [(5, 1, 1), (6, 1, 1), (7, 1, 2), (10, 2, 3), (20, 1, 3), (20, 5, 15), (7, 5, 6)],
)
def test_acceleration_costs_15_percent_per_g_rounded_up(mass: int, g: int, tons: int) -> None:
    d = Design(name="T", mass=mass, acceleration=g, check_budget=False)
    assert sheet(d)[f"acceleration {g}G"] == tons


@pytest.mark.parametrize(("mass", "turns", "tons"), [(5, 1, 1), (20, 1, 1), (21, 1, 2), (10, 6, 3), (7, 3, 2)])
def test_agility_costs_5_percent_per_turn_rounded_up(mass: int, turns: int, tons: int) -> None:
    d = Design(name="T", mass=mass, agility=turns, check_budget=False)
    assert sheet(d)[f"agility {turns} turns"] == tons


def test_weapon_cargo_and_life_support_weights() -> None:
    d = Design(
        name="T",
        mass=30,
        guns=(GunMount(arc="forward", guns=2), GunMount(arc="left180", guns=1), GunMount(arc="turret360", guns=3)),
        missiles=4,
        cargo=2,
    )
    s = sheet(d)
    assert s["life support"] == 1
    assert s["2 forward gun(s)"] == pytest.approx(0.8)
    assert s["1 left180 gun(s)"] == pytest.approx(0.8)
    assert s["3 turret360 gun(s)"] == pytest.approx(3.6)
    assert s["4 missile(s)"] == pytest.approx(0.8)
    assert s["2 cargo"] == 2


@pytest.mark.parametrize(("mass", "tenths"), [(1, 1), (10, 1), (11, 2), (20, 2), (21, 3), (40, 3), (41, 4), (80, 4)])
def test_heavy_armour_price_follows_the_mass_class(mass: int, tenths: int) -> None:
    assert heavy_armour_tenths(mass) == tenths


def test_armour_is_priced_per_oval() -> None:
    d = Design(name="T", mass=15, armour=Armour(life_support=2, missiles=1, structure=3, cargo=1), check_budget=False)
    s = sheet(d)
    assert s["3 armour on life support/weapons"] == pytest.approx(0.3)
    assert s["4 armour on SI/cargo/agility/acceleration"] == pytest.approx(0.8)


def test_an_overweight_design_is_refused_with_the_sheet() -> None:
    with pytest.raises(DesignError) as err:
        design_from_data(
            {"name": "Brick", "mass": 6, "acceleration": 5, "agility": 2, "missiles": 3}, "my-ships.toml", "brick"
        )
    message = str(err.value)
    assert "my-ships.toml: brick" in message
    assert "Brick needs 7.6 t but has a mass of 6 t (1.6 t over)" in message
    assert "acceleration 5G 5 t" in message


def test_every_catalogue_design_is_legal_and_the_named_masses_match_the_text() -> None:
    catalogue = system.designs()
    assert {k: catalogue[k].mass for k in ("dynamo", "harpy", "ghost")} == {"dynamo": 6, "harpy": 7, "ghost": 5}
    assert all(d.spare_tenths >= 0 for d in catalogue.values())
    assert {d.kind for d in catalogue.values()} == {"fighter", "transport", "adp"}


def test_the_defender_matches_its_sample_status_card() -> None:
    d = system.designs()["defender"]
    assert [(m.arc, m.guns, m.armour) for m in d.guns] == [("forward", 2, 1), ("turret360", 2, 2)]
    assert d.missiles == 4
    assert d.armour.life_support == 5


@given(st.integers(min_value=1, max_value=80), st.integers(0, 5), st.integers(0, 6))
def test_structure_equals_mass_and_life_support_is_always_aboard(mass: int, g: int, turns: int) -> None:
    d = Design(name="T", mass=mass, acceleration=g, agility=turns, check_budget=False)
    assert d.tonnage()[0].item == "life support"
    assert d.used_tenths >= 10
    assert d.spare_tenths == mass * 10 - d.used_tenths


def test_the_purchase_example() -> None:
    """Scenario 1's example: 15 points each; Harpy pair leaves 1 unusable point; Ghost or Dynamo for the second."""
    catalogue = system.designs()
    fighters = {k: v for k, v in catalogue.items() if v.kind == "fighter" and k != "defender"}
    first = purchase_choices(15, 0, {"dynamo": catalogue["dynamo"], "harpy": catalogue["harpy"]})
    assert ("harpy", 2) in first
    assert 15 - 2 * catalogue["harpy"].mass == 1
    assert points_wasted(1, fighters)
    second = purchase_choices(15, 0, {"dynamo": catalogue["dynamo"], "ghost": catalogue["ghost"]})
    assert ("dynamo", 2) in second
    assert ("ghost", 3) in second
    assert ("dynamo", 3) not in second  # 18 t is over budget


def test_singles_only_when_a_pair_is_out_of_reach() -> None:
    catalogue = system.designs()
    assert purchase_choices(10, 0, {"dynamo": catalogue["dynamo"]}) == [("dynamo", 1)]
    assert purchase_choices(12, 2, {"dynamo": catalogue["dynamo"]}) == [("dynamo", 1)]
    assert purchase_choices(30, 3, {"ghost": catalogue["ghost"]}) == []
