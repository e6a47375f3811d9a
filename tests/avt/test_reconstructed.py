"""Values the excerpt's print lost or gives two ways, pinned to the rulings that choose them
(docs/rulings/avt.md, *AV:T Core Electronics armour*, *AV:T Batteries armour*, *AV:T hit location values
the print lost*, *AV:T hull depth counts boxes*)."""

from __future__ import annotations

from tests.avt.test_damage import rows, seventy_one
from vectorwar.systems.avt.design import hit_entry
from vectorwar.systems.avt.rules import AttackVector


def tables() -> dict[str, list[str]]:
    return AttackVector().designs()["rafik"].hit_locations


def test_ruling_core_electronics_armour_is_2_as_the_71_point_example_plays_it() -> None:
    # The print gives Core roll 7 as Electronics 0; the example's Electronics row adds 2 to the soak.
    assert hit_entry(tables()["core"][7 - 1]) == ("electronics", 2)
    electronics = [r for r in rows(seventy_one()[1]) if r.system == "Electronics"]
    assert [(r.left, r.roll, r.armour) for r in electronics] == [(7, 7, 2)]


def test_ruling_batteries_carry_component_armour_1_on_every_table() -> None:
    # A5.451 speaks of a 2 next to Batteries; every legible Batteries entry and the example print 1.
    batteries = [
        (face, roll)
        for face, entries in tables().items()
        for roll, entry in enumerate(entries, start=1)
        if hit_entry(entry)[0] == "batteries"
    ]
    # Port 2, Starboard 2, Top 3 and Core 9 are legible; Nose 8 and Bottom 4 lost their number.
    assert sorted(batteries) == [("bottom", 4), ("core", 9), ("nose", 8), ("port", 2), ("starboard", 2), ("top", 3)]
    assert {hit_entry(tables()[face][roll - 1])[1] for face, roll in batteries} == {1}


def test_ruling_hit_location_values_the_print_lost() -> None:
    t = tables()
    lost_numbers = {("aft", 1): "delta", ("nose", 8): "batteries", ("aft", 8): "heat sinks"}
    lost_numbers |= {("top", 4): "heat sinks", ("bottom", 4): "batteries", ("core", 4): "gamma"}
    for (face, roll), name in lost_numbers.items():
        assert hit_entry(t[face][roll - 1]) == (name, 1), (face, roll)
    # Starboard 1 mirrors Port 1, as every legible row of the two does; Core 1 is the example's.
    assert hit_entry(t["starboard"][0]) == hit_entry(t["port"][0]) == ("cargo", 0)
    assert hit_entry(t["core"][0]) == ("life support", 2)


def test_ruling_the_71_point_examples_core_starts_at_35_left_not_the_notes_33() -> None:
    allocation = rows(seventy_one()[1])
    first_core = next(r for r in allocation if r.table == "core")
    assert (first_core.left, first_core.roll, first_core.system) == (35, 1, "Life Support")
    # The note on the skin's row keeps the text's words, 33, while the rows move on at 35.
    assert "Core at <= 33 points left" in allocation[0].note
    assert all(r.table == "nose" for r in allocation[1:10])
