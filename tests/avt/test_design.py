"""The Rafik Mk. 1 as the excerpt gives it, the designed parts marked, and laser tables."""

from __future__ import annotations

import pytest

from vectorwar.errors import DesignError
from vectorwar.systems.avt.design import design_from_data
from vectorwar.systems.avt.lasers import damage, entry, max_range
from vectorwar.systems.avt.rules import system


def test_avt_a5_312_a5_314_the_rafiks_data_block() -> None:
    rafik = system.designs()["rafik"]
    assert (rafik.thrust, rafik.fuel, rafik.reactor, rafik.battery, rafik.flex) == (5, 105, 3, 22, 1)
    assert (rafik.heat_sinks, rafik.radiators) == (15, 1.2)
    assert rafik.hull_depth == {"nose": 30, "aft": 30, "side": 30}


def test_avt_a5_371_mounts_a_to_g_hold_3_mrls_3_plus_5_lasers_two_in_mount_a() -> None:
    rafik = system.designs()["rafik"]
    assert sorted(rafik.mounts) == list("ABCDEFG")
    assert all((m.weapon, m.power, m.cooling) == ("3 MRLS", 3, 5) for m in rafik.mounts.values())
    assert list(rafik.lasers)[:3] == ["A1", "A2", "B1"]


def test_avt_a5_45_hit_location_tables_match_the_damage_example() -> None:
    tables = system.designs()["rafik"].hit_locations
    # The example's nose rolls 2, 7, 10, 5, 3, 4 and core rolls 1, 6, 10, 5, 9, 2.
    assert [tables["nose"][r - 1] for r in (2, 7, 10, 5, 3, 4)] == [
        "Quarters 0",
        "Reactors 2",
        "Mount A 2",
        "Cargo 0",
        "Quarters 0",
        "Cargo 0",
    ]
    assert [tables["core"][r - 1] for r in (1, 6, 10, 5, 9, 2)] == [
        "Life Support 2",
        "Epsilon 1",
        "Structural Integrity 0",
        "Delta 1",
        "Batteries 1",
        "Bridge 2",
    ]
    assert all(len(rows) == 10 for rows in tables.values())


def test_avt_designed_parts_are_marked() -> None:
    rafik = system.designs()["rafik"]
    text = " ".join(rafik.designed)
    assert "roll_chart" in text
    assert "mounts B-G" in text
    assert "pivot_chart rows 4-6" in text
    # The pivot chart's first three rows are the tutorial's.
    assert rafik.pivots[:3] == ((0,), (0, 1), (0, 1, 2))


def test_avt_design_errors_name_the_file_and_key() -> None:
    with pytest.raises(DesignError, match=r"ships.toml: wasp.pivot_chart: .*row 2 .* needs 2 wedge timings"):
        design_from_data(
            {"name": "Wasp", "thrust": 6, "pivot_chart": [[0], [0]], "roll_chart": [[0]]}, "ships.toml", "wasp"
        )
    with pytest.raises(DesignError, match=r"wasp.mounts.A.arc: .*clock hour"):
        design_from_data(
            {
                "name": "Wasp",
                "pivot_chart": [[0]],
                "roll_chart": [[0]],
                "mounts": {"A": {"lasers": 1, "power": 3, "cooling": 5, "arc": ["noon"]}},
            },
            "ships.toml",
            "wasp",
        )
    with pytest.raises(DesignError, match="needs a pivot_chart and a roll_chart"):
        design_from_data({"name": "Wasp"}, "ships.toml", "wasp")


def test_avt_a2_2_reading_the_weapon_table() -> None:
    # The text's example: range 10, roll 6, 7 points.
    assert damage("3 MRLS", 10, 6) == 7
    assert entry("3 MRLS", 23, 1) == "D1"
    assert damage("3 MRLS", 23, 1) == 0
    assert damage("3 MRLS", 30, 10) == 1
    assert max_range("3 MRLS") == 30
    with pytest.raises(ValueError, match="beyond"):
        damage("3 MRLS", 31, 5)
    with pytest.raises(KeyError, match="no weapon table"):
        damage("8 HRLS", 1, 1)


def test_design_numbers_are_bounded_before_any_work_depends_on_them() -> None:
    from vectorwar.errors import DesignError
    from vectorwar.systems.avt.design import design_from_data

    base = {"name": "x", "pivot_chart": [[0]], "roll_chart": [[0]]}
    for field, value, limit in (("thrust", 999, "30"), ("fuel", 10**9, "999"), ("battery", 10**6, "999")):
        with pytest.raises(DesignError, match=rf"x\.{field}: .*{limit}"):
            design_from_data({**base, field: value}, "f", "x")
    with pytest.raises(DesignError, match="rows go up to 180 degrees"):
        design_from_data({**base, "pivot_chart": [[0] * (i + 1) for i in range(7)]}, "f", "x")
