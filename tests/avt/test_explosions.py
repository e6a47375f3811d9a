"""A full battery's explosion (A5.453) is one pool: it goes off once and is used up row by row."""

from __future__ import annotations

from dataclasses import replace

from tests.support.dice import LoadedDice
from vectorwar.events import Event
from vectorwar.hexes import Position
from vectorwar.systems.avt.damage import allocate
from vectorwar.systems.avt.events import AllocationRow
from vectorwar.systems.avt.rules import AttackVector
from vectorwar.systems.avt.state import Ship


def test_avt_a5_453_a_battery_explosion_is_spent_once_and_not_set_off_again_by_its_own_hits() -> None:
    wasp = AttackVector().designs()["wasp"]
    ship = Ship("W", "red", "wasp", wasp.name, "ship", Position.parse("0,0"), fuel=wasp.fuel, battery=wasp.battery)
    dice = LoadedDice(
        *(3, 1),  # skin soak 2: 10 - 3 armour - 2 = 5 left
        5,
        *(2, 1),  # Batteries (armour 1), soak 1: marked; 18 stored > 14 left, so it explodes
        *(6, 4),  # the blast: 2d10 = 10, less armour 1 = 9
        1,
        *(5, 1),  # explosion: Cargo, soak 4 -> 5 left
        2,
        *(4, 1),  # explosion: Fuel, soak 3 -> 2 left
        1,
        *(5, 1),  # explosion: Cargo, soak 4 > 2: the blast is spent
        1,
        *(6, 1),  # the first pool again (3 left): Cargo, soak 5 > 3: done
    )
    events: list[Event] = []
    after = allocate(replace(ship), wasp, 10, "port", dice, events, "boxes", ())
    table = [(e.left, e.system, e.soak) for e in events if isinstance(e, AllocationRow)]
    assert table == [
        (10, "skin (port)", 2),
        (5, "Batteries", 1),
        (9, "Cargo", 4),
        (5, "Fuel", 3),
        (2, "Cargo", 4),
        (3, "Cargo", 5),
    ]
    assert after.marked("batteries") == 1
    assert after.active
    assert not dice.script
