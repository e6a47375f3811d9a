"""Scenario files: validation errors name the file, the key and the problem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.errors import ScenarioError, UnknownSystemError
from vectorwar.game import Game
from vectorwar.registry import get_system, systems
from vectorwar.scenario import Scenario, load_scenario

GOOD = """
system = "msc"
title = "Test"
[map]
width = 10
height = 10
[[sides]]
id = "a"
[[sides.ships]]
id = "One"
design = "ship1"
at = "2,2"
facing = "C"
[[sides]]
id = "b"
[[sides.ships]]
id = "Two"
design = "ship2"
at = "7,7"
facing = "F"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(text)
    return path


def test_a_good_file_loads_and_takes_its_id_from_the_name(tmp_path: Path) -> None:
    scenario = load_scenario(write(tmp_path, GOOD))
    assert scenario.id == "s"
    assert scenario.hex_map().contains(scenario.locate(scenario.sides[0].ships[0]))


def test_grid_maps_and_section_relative_placements(tmp_path: Path) -> None:
    text = GOOD.replace("width = 10\nheight = 10", 'width = 5\nheight = 4\ngrid = ["A B", "C D"]')
    text = text.replace('at = "7,7"', 'at = "D@4,3"')
    scenario = load_scenario(write(tmp_path, text))
    hex_map = scenario.hex_map()
    assert [s.name for s in hex_map.sections] == ["A", "B", "C", "D"]
    assert str(scenario.locate(scenario.sides[1].ships[0])) == "9,7"  # the far corner of D
    bad = load_scenario  # same loader, a section that does not exist
    with pytest.raises(ScenarioError, match=r"sides\.1\.ships\.0\.at: no map section 'Q'"):
        bad(write(tmp_path, text.replace("D@4,3", "Q@0,0")))
    with pytest.raises(ScenarioError, match="section D is 5x4 hexes"):
        load_scenario(write(tmp_path, text.replace("D@4,3", "D@5,0")))


@pytest.mark.parametrize(
    ("change", "key", "problem"),
    [
        (('at = "2,2"', 'at = "two"'), "sides.0.ships.0.at", "col,row"),
        (('facing = "C"', 'facing = "Q"'), "sides.0.ships.0.facing", "A-F"),
        (("width = 10", "width = -1"), "map.width", "greater than 0"),
        (('id = "b"', 'id = "a"'), "sides", "used twice"),
        (('title = "Test"', 'title = "Test"\ncolour = "red"'), "colour", "Extra inputs"),
    ],
)
def test_errors_name_file_key_and_problem(tmp_path: Path, change: tuple[str, str], key: str, problem: str) -> None:
    path = write(tmp_path, GOOD.replace(*change, 1))
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    message = str(err.value)
    assert str(path) in message
    assert key in message
    assert problem in message


def test_system_specific_errors_name_the_key(tmp_path: Path) -> None:
    scenario = load_scenario(write(tmp_path, GOOD.replace('design = "ship2"', 'design = "dreadnought"')))
    with pytest.raises(ScenarioError, match=r"sides\.1\.ships\.0\.design: no design 'dreadnought'"):
        Game.new(get_system("msc"), scenario, 1)
    scenario = load_scenario(write(tmp_path, GOOD.replace('at = "7,7"', 'at = "70,7"')))
    with pytest.raises(ScenarioError, match=r"sides\.1\.ships\.0\.at: hex 70,7 is not on the map"):
        Game.new(get_system("msc"), scenario, 1)


def test_broken_toml_is_reported_with_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "system = ")
    with pytest.raises(ScenarioError, match="not valid TOML"):
        load_scenario(path)


def test_the_schema_exports_as_json() -> None:
    schema = Scenario.model_json_schema()
    text = json.dumps(schema)
    assert schema["title"] == "Scenario"
    assert "sides" in schema["required"]
    assert "ShipPlacement" in text


def test_builtin_scenarios_are_found_by_id() -> None:
    assert {"msc-duel", "msc-fleet"} <= set(scenario_paths())
    assert builtin_scenario("msc-fleet").title == "Fleet Action"
    with pytest.raises(ScenarioError, match="no scenario called 'nope'"):
        builtin_scenario("nope")


def test_systems_come_from_entry_points() -> None:
    assert "msc" in systems()
    assert get_system("msc").manifest.title == "Minimal Space Combat"
    with pytest.raises(UnknownSystemError, match="no rule system called 'chess'"):
        get_system("chess")


def test_a_systems_ships_file_is_parsed_once_per_process() -> None:
    from vectorwar.systems.vv5 import catalogue

    first = catalogue.designs()
    first["mine"] = first["harpy"]  # a caller's dict is its own: nothing leaks into the next game
    second = catalogue.designs()
    assert "mine" not in second
    assert second["harpy"] is first["harpy"]  # the same parsed design, not a re-read of ships.toml
