"""Damage allocation (A5.4): the text's 36-point and 71-point examples, roll for roll, and each box's effect."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tests.support.dice import LoadedDice
from vectorwar.events import Event
from vectorwar.hexes import Position
from vectorwar.systems.avt.armour import struck
from vectorwar.systems.avt.avid import Window
from vectorwar.systems.avt.damage import allocate
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.events import AllocationRow, ShipDestroyed
from vectorwar.systems.avt.orientation import Orientation
from vectorwar.systems.avt.rules import AttackVector
from vectorwar.systems.avt.ssd import battery_capacity, laser_state, reactor_power, thrust_limit
from vectorwar.systems.avt.state import Ship


def design(name: str = "rafik") -> Design:
    return AttackVector().designs()[name]


def ship(name: str = "rafik", **changes: Any) -> Ship:
    d = design(name)
    s = Ship("X", "blue", name, d.name, "ship", Position.parse("0,0"), fuel=d.fuel, battery=d.battery)
    return replace(s, **changes)


def rows(events: list[Event]) -> list[AllocationRow]:
    return [e for e in events if isinstance(e, AllocationRow)]


# The text's table (A5.46 example): damage left, location roll, system, armour, soak.
SEVENTY_ONE = [
    (71, 0, "skin (nose-bottom)", 4, 4),
    (63, 2, "Quarters", 0, 2),
    (61, 7, "Reactors", 2, 5),
    (54, 10, "Mount A", 2, 2),
    (50, 5, "Cargo", 0, 0),
    (50, 3, "Quarters", 0, 1),
    (49, 4, "Cargo", 0, 2),
    (47, 10, "Mount A", 2, 4),
    (41, 3, "Quarters", 0, 4),
    (37, 5, "Cargo", 0, 2),
    (35, 1, "Life Support", 2, 2),
    (31, 6, "Epsilon", 1, 2),
    (28, 10, "Structural Integrity", 0, 6),
    (22, 5, "Delta", 1, 2),
    (19, 9, "Batteries", 1, 4),
    (14, 2, "Bridge", 2, 4),
    (8, 10, "Structural Integrity", 0, 1),
    (7, 7, "Electronics", 2, 1),
    (4, 8, "Heat Sinks", 1, 1),
    (2, 10, "Fuel", 0, 0),
    (2, 7, "Reactors", 2, 2),
]


def soak(n: int) -> tuple[int, int]:
    """Two d10 faces whose larger minus smaller is ``n`` (a 2d10- soak roll)."""
    return (n + 1, 1) if n else (4, 4)


def seventy_one_dice(survival: int = 5) -> LoadedDice:
    faces: list[int] = [*soak(4)]
    for _, roll, system, _, s in SEVENTY_ONE[1:]:
        faces += [roll, *soak(s)]
        if (roll, system) == (10, "Mount A"):
            faces.append(2 if len([f for f in faces if f == 10]) == 1 else 9)  # which laser: top, then bottom
        if system == "Fuel":
            faces.append(survival)  # the 4th SI hit is an octagon of 2
    return LoadedDice(*faces)


def seventy_one(survival: int = 5) -> tuple[Ship, list[Event]]:
    events: list[Event] = []
    # The Rafik has spent power (as in sample game three: 16 left), so the battery box hit is an empty one.
    after = allocate(ship(battery=16), design(), 71, "nose-bottom", seventy_one_dice(survival), events)
    return after, events


def test_avt_a5_46_the_71_point_example_reproduces_row_for_row() -> None:
    after, events = seventy_one()
    got = [(r.left, r.roll, r.system, r.armour, r.soak) for r in rows(events)]
    assert got == SEVENTY_ONE
    notes = [r.note for r in rows(events)]
    assert "Core at <= 33 points left" in notes[0]
    assert "1st hit" in notes[3]
    assert "die roll of 2" in notes[3]
    assert "A1" in notes[3]
    assert "1st Struct. Int. hit" in notes[4]
    assert "A2" in notes[7]
    assert "die roll of 9" in notes[7]
    assert "Transition to Core; Aft at <= 5 points left" in notes[9]
    assert "2nd Struct. Int. hit" in notes[12]
    assert "Empty Battery" in notes[14]
    assert "3rd Struct. Int. hit" in notes[16]
    assert "sensors hit" in notes[17]
    assert "Transition to Aft" in notes[17]
    assert "4th SI hit. Roll of 2+ needed to survive" in notes[19]
    assert "Exceeds damage left, END" in notes[20]
    assert after.active
    assert after.marked("structure") == 4
    assert laser_state(design(), after, "A1") == "damaged"
    assert laser_state(design(), after, "A2") == "damaged"
    assert after.electronics_lost == ("sensors",)
    # The last Reactors roll exceeded the damage left: only the first reactor box is marked.
    assert after.marked("reactors") == 1
    assert reactor_power(design(), 1) == 2


def test_avt_a5_454_under_the_octagon_the_ship_is_destroyed() -> None:
    after, events = seventy_one(survival=1)
    assert not after.active
    assert any(isinstance(e, ShipDestroyed) for e in events)
    assert rows(events)[-1].system == "Fuel"  # nothing is allocated after the ship is gone


def test_avt_a5_442_the_36_point_example_the_attacker_picks_the_4_armour_region() -> None:
    # A Rafik facing A/B hit from A upper blue: one window up and to port of the nose, a boundary (A5.431).
    regions = struck(Orientation.level(1), Window.parse("A+"), three_d=True)
    assert regions == ("nose-top", "nose-port")
    ssd = design().ssd
    assert ssd is not None
    armour = ssd.armour
    assert (armour["nose-top"], armour["nose-port"]) == (4, 5)
    events: list[Event] = []
    # The skin's soak roll is 1; what the interior rolls after that is not in the example.
    allocate(ship(), design(), 36, "nose-top", LoadedDice(2, 1, then_seed=1), events)
    first = rows(events)[0]
    assert (first.left, first.armour, first.soak) == (36, 4, 1)
    assert rows(events)[1].left == 31  # 31 damage points reach the interior


def test_avt_a5_453_a_full_battery_explodes_into_a_new_pool_on_the_same_table() -> None:
    events: list[Event] = []
    dice = LoadedDice(
        *soak(1),  # skin: 20 - 4 - 1 = 15 get in
        8,
        *soak(1),  # nose 8: Batteries (armour 1), full: capacity 22 -> 18 with 22 stored
        5,
        5,  # the explosion: 2d10 = 10, less armour 1 = 9
        2,
        *soak(9),  # the explosion's pool: Quarters absorbs all 9
        1,
        *soak(9),  # back to the first pool (13 left): Quarters 9
        1,
        *soak(4),  # Quarters 4: nothing left
    )
    after = allocate(ship(), design(), 20, "nose-top", dice, events)
    table = rows(events)
    assert "Full Battery explodes" in table[1].note
    assert "= 9 more on this table" in table[1].note
    assert (table[2].left, table[2].table, table[2].system) == (9, "nose", "Quarters")
    assert "explosion" in table[2].note
    assert (table[3].left, table[4].left) == (13, 4)
    assert after.battery == 18
    assert battery_capacity(design(), after.marked("batteries")) == 18
    assert not dice.script


def test_avt_a5_46_damage_past_the_third_hull_depth_exits_with_a_final_soak() -> None:
    events: list[Event] = []
    # A ship with no hull to speak of: hull depth 1 everywhere, so every row moves the damage on.
    thin = design().model_copy(update={"hull_depth": {"nose": 1, "aft": 1, "side": 1}})
    dice = LoadedDice(*soak(1), 2, *soak(2), 1, *soak(2), 2, *soak(2), *soak(3))
    allocate(ship(), thin, 30, "nose-top", dice, events)
    table = rows(events)
    assert [r.table for r in table] == ["skin", "nose", "core", "aft", "skin"]
    assert "Transition to Core" in table[1].note
    assert "Transition to Aft" in table[2].note
    assert "exit the far side" in table[3].note
    assert table[4].system == "far side skin (aft-bottom)"
    assert not dice.script


def test_ruling_hull_depth_option_points_counts_only_damage_absorbed() -> None:
    # With only points counted, the 71-point example's zero-soak Cargo row does not dig in: the Core comes later.
    events: list[Event] = []
    allocate(ship(battery=16), design(), 71, "nose-bottom", seventy_one_dice(), events, count="points")
    assert "Transition to Core" not in rows(events)[9].note


def test_avt_a5_454_a_structural_hit_with_the_track_full_destroys_the_ship() -> None:
    events: list[Event] = []
    full = ship(marks=(("structure", 12),))
    after = allocate(full, design(), 20, "nose-top", LoadedDice(*soak(0), then_seed=3), events)
    assert not after.active
    assert any(isinstance(e, ShipDestroyed) for e in events)


def test_avt_a5_452_fuel_hits_take_whole_columns_and_thrust_hits_the_engines() -> None:
    events: list[Event] = []
    # Port skin 4, soak 1: 1 gets in; Fuel (armour 0) with a soak of 0 takes a column and an SI hit;
    # then Cargo with soak 2 exceeds the 1 left.
    rafik = ship()
    after = allocate(rafik, design(), 6, "port", LoadedDice(*soak(1), 3, 1, 1, 1, *soak(2)), events)
    assert after.fuel == rafik.fuel - 4  # the left-most column of 105 units in 30 columns holds 4
    assert (after.fuel_lost, after.marked("fuel"), after.marked("structure")) == (4, 1, 1)
    assert "fuel column 1 lost: 4 units" in rows(events)[1].note
    # The Wasp's aft table starts with its engines: a Thrust box lowers its maximum thrust.
    wasp = ship("wasp")
    hit = allocate(wasp, design("wasp"), 8, "aft", LoadedDice(*soak(1), 1, *soak(1), 1, *soak(9)), [])
    assert hit.marked("thrust") == 1
    assert thrust_limit(design("wasp"), hit) == 5


def test_avt_a5_43_every_window_of_the_ship_strikes_one_region_or_a_boundary_and_every_region_is_reachable() -> None:
    from vectorwar.systems.avt.arcs import ALL_ARC_WINDOWS
    from vectorwar.systems.avt.armour import regions_of
    from vectorwar.systems.avt.design import REGIONS

    seen: set[str] = set()
    for window in ALL_ARC_WINDOWS:
        regions = regions_of(window)
        assert 1 <= len(regions) <= 2
        # A boundary joins two regions of one face (A5.431: the attacker chooses between neighbours).
        assert len({r.split("-")[0] for r in regions}) == 1
        seen.update(regions)
    assert seen == set(REGIONS)


def test_avt_a5_461_a5_462_the_wasp_is_a_cylinder_with_its_one_off_the_nose_regions_on_the_sides() -> None:
    wasp = design("wasp")
    ssd = wasp.ssd
    assert ssd is not None
    assert wasp.hull_depth["nose"] == wasp.hull_depth["aft"] > wasp.hull_depth["side"]
    for region in ("nose-top", "nose-bottom", "nose-port", "nose-starboard"):
        assert (ssd.table(region), ssd.depth_kind(region)) == ("nose", "side")
    assert (ssd.table("nose"), ssd.depth_kind("nose")) == ("nose", "nose")
    rafik = design().ssd
    assert rafik is not None
    assert {rafik.depth_kind(r) for r in ("nose", "nose-top", "aft-port", "port")} == {"nose", "aft", "side"}
    assert design().hit_locations["core"][6] == "Electronics 2"  # as the 71-point example has it


def test_avt_a5_47_a_damaged_laser_rolls_against_its_next_pentagon_each_time_it_fires() -> None:
    from vectorwar.game import Game

    from .helpers import AVT, make_scenario

    ships = [("blue", "Rafik", "rafik", "20,20", "A", "0", 0), ("red", "Raven", "rafik", "20,17", "D", "0", 0)]
    game = Game.new(AVT, make_scenario(ships), 0)
    state = game.state
    game.state = state.with_ship(replace(state.ship("Rafik"), marks=(("laser A1", 1),)))
    game.submit("blue", "Rafik fire A1>Raven")
    events = game.submit("red", "hold")
    pentagon = [e for e in events if "under 3 marks a pentagon" in e.describe()]
    assert len(pentagon) == 1  # the A1 track is a box then pentagons of 3 and 6


def test_an_exploding_battery_is_its_own_pool_allocated_once() -> None:
    # A5.453: 20 points at the nose (armour 5, soak 1) hit a full battery (armour 1, soak 2): it explodes for
    # 2d10 = 8 less its armour 1 = 7, a pool of its own on the nose table until spent; then the first pool
    # goes on with its 11 points.
    dice = LoadedDice(
        *soak(1),
        8,
        *soak(2),
        4,
        4,  # the explosion's 2d10
        1,
        *soak(2),  # explosion: Quarters, 7 -> 5
        4,
        *soak(3),  # explosion: Cargo, 5 -> 2
        7,
        *soak(1),  # explosion: Reactors 2 + 1 > 2: the explosion is spent
        7,
        *soak(9),  # the first pool: Reactors 2 + 9 = its last 11 points
    )
    events: list[Event] = []
    after = allocate(ship(), design(), 20, "nose", dice, events)
    rows = [e for e in events if isinstance(e, AllocationRow)]
    blast = [r.left for r in rows if "explosion" in r.note]
    main = [r.left for r in rows if "explosion" not in r.note]
    assert blast == [7, 5, 2]
    assert main == [20, 14, 11]
    assert not dice.script  # every die scripted was used, and no more
    assert dict(after.marks) == {"batteries": 1, "cargo": 1, "quarters": 1, "reactors": 1}


def test_hull_depth_notes_appear_only_where_the_pool_can_reach_them() -> None:
    # The text notes "Core at <= 33 points left" because 63 points are past the skin; a pool no deeper than
    # the hull depth gets no such note, and a transition names the next stage only if the rest can reach it.
    _, events = seventy_one()
    notes = [r.note for r in rows(events)]
    assert notes[17].endswith("Transition to Aft")
    shallow: list[Event] = []
    allocate(ship(), design(), 16, "nose", LoadedDice(*soak(1), 7, *soak(9)), shallow)
    assert "Core" not in rows(shallow)[0].note
