"""Damage allocation (A5.4): the text's 36-point and 71-point examples, roll for roll, and each box's effect."""

from __future__ import annotations

from dataclasses import replace

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
from vectorwar.systems.avt.ssd import laser_state, reactor_power
from vectorwar.systems.avt.state import Ship


def design(name: str = "rafik") -> Design:
    return AttackVector().designs()[name]


def ship(name: str = "rafik", **changes: object) -> Ship:
    d = design(name)
    s = Ship("X", "blue", name, d.name, "ship", Position.parse("0,0"), fuel=d.fuel, battery=d.battery)
    return replace(s, **changes)  # type: ignore[arg-type]


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
    armour = design().ssd.armour  # type: ignore[union-attr]
    assert (armour["nose-top"], armour["nose-port"]) == (4, 5)
    events: list[Event] = []
    # The skin's soak roll is 1; what the interior rolls after that is not in the example.
    allocate(ship(), design(), 36, "nose-top", LoadedDice(2, 1, then_seed=1), events)
    first = rows(events)[0]
    assert (first.left, first.armour, first.soak) == (36, 4, 1)
    assert rows(events)[1].left == 31  # 31 damage points reach the interior


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
