"""Each boundary of AV:T damage allocation as the text draws it: one test per sentence, on both sides of the line.

A one-character change to any of these comparisons (``<`` for ``<=``, ``==`` for ``<=``) fails a test here.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.avt.test_damage import design, rows, ship, soak
from tests.support.dice import LoadedDice
from vectorwar.events import Event, Rolled
from vectorwar.systems.avt.damage import allocate
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.events import ShipDestroyed
from vectorwar.systems.avt.fire import _pentagon_check
from vectorwar.systems.avt.ssd import next_pentagon
from vectorwar.systems.avt.state import HEAT_TENTHS, Ship

#: Spares the last box: Quarters (armour 0) with a soak of 5 is more than the 1 point left (A5.455).
SPARE = (1, *soak(5))


def with_armour(region: str, armour: int) -> Design:
    base = design()
    assert base.ssd is not None
    return base.model_copy(update={"ssd": base.ssd.model_copy(update={"armour": {**base.ssd.armour, region: armour}})})


def skin_soaks(events: list[Event]) -> int:
    return sum(1 for e in events if isinstance(e, Rolled) and "soak (skin" in e.purpose)


def hit(target: Ship, points: int, *faces: int, region: str = "nose-top", **kw: Any) -> tuple[Ship, list[Event]]:
    events: list[Event] = []
    dice = LoadedDice(*faces)
    after = allocate(target, kw.get("d", design()), points, region, dice, events)
    assert not dice.script, "a scripted die was not thrown"
    return after, events


class TestSkin:
    def test_a5_44_skin_armour_0_throws_no_soak_roll(self) -> None:
        _, events = hit(ship(), 1, *SPARE, d=with_armour("nose-top", 0))
        assert skin_soaks(events) == 0
        assert rows(events)[0].soak == -1

    def test_a5_44_skin_armour_1_throws_one(self) -> None:
        _, events = hit(ship(), 2, *soak(3), d=with_armour("nose-top", 1))
        assert skin_soaks(events) == 1

    def test_a5_442_armour_equal_to_the_damage_stops_it_with_no_soak_roll(self) -> None:
        after, events = hit(ship(), 4)  # nose-top armour 4
        assert skin_soaks(events) == 0
        assert after == ship()

    def test_a5_442_one_point_more_than_the_armour_needs_a_soak_roll(self) -> None:
        _, events = hit(ship(), 5, *soak(1))
        assert skin_soaks(events) == 1

    def test_a5_441_a_skin_soak_of_0_is_a_structural_integrity_hit(self) -> None:
        after, _ = hit(ship(), 5, *soak(0), *SPARE)
        assert after.marked("structure") == 1

    def test_a5_441_a_skin_soak_of_1_is_not(self) -> None:
        after, _ = hit(ship(), 5, *soak(1))
        assert after.marked("structure") == 0


class TestOctagon:
    # The Rafik's fourth Structural Integrity box is an octagon of 2 (the 71-point example).
    def test_a5_454_a_roll_under_the_octagon_destroys_the_ship(self) -> None:
        after, events = hit(ship(marks=(("structure", 3),)), 5, *soak(0), 1)
        assert not after.active
        assert any(isinstance(e, ShipDestroyed) for e in events)

    def test_a5_454_a_roll_of_the_octagons_number_does_not(self) -> None:
        after, events = hit(ship(marks=(("structure", 3),)), 5, *soak(0), 2, *SPARE)
        assert after.active
        assert after.marked("structure") == 4
        assert not any(isinstance(e, ShipDestroyed) for e in events)


class TestExplosions:
    # Nose table: 8 is Batteries (armour 1), 9 Heat Sinks (armour 1). Losing a box leaves the Rafik's
    # batteries 18 and its heat sinks 12. 8 points at nose-top: 4 armour, a soak of 1, 3 in: the box's
    # armour 1 and soak 2 take the 3.
    def test_a5_453_a_battery_holding_what_is_left_is_not_full_and_does_not_explode(self) -> None:
        after, events = hit(ship(battery=18), 8, *soak(1), 8, *soak(2))
        assert "explodes" not in " ".join(r.note for r in rows(events))
        assert after.battery == 18

    def test_a5_453_a_battery_holding_one_more_is_full_and_explodes(self) -> None:
        after, events = hit(ship(battery=19), 8, *soak(1), 8, *soak(2), 1, 1, *SPARE)
        assert "Full Battery explodes" in " ".join(r.note for r in rows(events))
        assert after.battery == 18

    def test_a5_453_a_heat_sink_holding_what_is_left_is_not_full_and_does_not_explode(self) -> None:
        after, events = hit(ship(heat_tenths=12 * HEAT_TENTHS), 8, *soak(1), 9, *soak(2))
        assert "explodes" not in " ".join(r.note for r in rows(events))
        assert after.heat_tenths == 12 * HEAT_TENTHS

    def test_a5_453_a_heat_sink_holding_more_is_full_explodes_and_its_heat_goes_with_it(self) -> None:
        after, events = hit(ship(heat_tenths=12 * HEAT_TENTHS + 1), 8, *soak(1), 9, *soak(2), 1, 1, *SPARE)
        assert "Full Heat Sink explodes" in " ".join(r.note for r in rows(events))
        # Like a battery's charge, the heat above what the sinks left can hold is gone with the box.
        assert after.heat_tenths == 12 * HEAT_TENTHS


class TestPentagon:
    @pytest.mark.parametrize(("roll", "lost"), [(2, True), (3, False)])
    def test_a5_47_a_damaged_laser_loses_its_pentagon_on_a_roll_under_its_number(self, roll: int, lost: bool) -> None:
        shooter = ship(marks=(("laser A1", 1),))
        assert next_pentagon(design(), shooter, "A1") == 3
        events: list[Event] = []
        after = _pentagon_check(design(), shooter, "A1", LoadedDice(roll), events)
        assert after.marked("laser A1") == (2 if lost else 1)


def test_the_ship_helper_is_the_plain_rafik() -> None:
    # The boundary tests above change one thing each; the ship they start from has nothing marked.
    assert replace(ship(), marks=()) == ship()
