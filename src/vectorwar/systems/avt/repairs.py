"""Repair teams and damage control (A5.456, A5.48).

Each unmarked wrench in the Quarters is a repair team. A ship orders
``repair SYSTEM`` to set a free team on one damage point (one marked box) of
a system; the attempt takes two turns and is rolled at the second turn
break after the order: a d10 of 6 or more clears the box. If the system is
used in a turn while the team is at work, the repair fails at that turn's
break (the team is free again). What counts as using a system
(docs/rulings/avt.md, *AV:T repairs*): a laser that fires; batteries that power
a shot; thrust and fuel while the engine burns; reactors that are on;
radiators that are not in; heat sinks taking heat that turn (option
``heat_sink_use``: or holding any). The Structural
Integrity track is the hull itself and is not repaired in battle.

>>> system_key("laser a1"), system_key("A1"), system_key("heat sinks")
('laser A1', 'laser A1', 'heat sinks')
"""

from __future__ import annotations

from vectorwar.dice import Dice
from vectorwar.events import Event, Note, Rolled
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.orders import repair_object
from vectorwar.systems.avt.state import Repair, Ship

#: Turns a repair takes (A5.48), and the d10 it needs.
REPAIR_TURNS = 2
REPAIR_NEEDS = 6
#: The option saying when the heat sinks are used: "takes-heat" (heat went in that turn) or "holds-heat" (any held).
HEAT_SINK_USE = "heat_sink_use"


def system_key(text: str) -> str:
    """The damage record's name for a system a player writes: ``A1`` is ``laser A1``."""
    name = repair_object(text)
    return f"laser {name}" if name[:1].isupper() else name


def damaged_systems(ship: Ship) -> list[str]:
    """Every system with a box marked that a team could work on (the hull's track is not one), sorted."""
    return sorted({k for k, n in ship.marks if n and k != "structure"} | set(ship.electronics_lost))


def repairable(ship: Ship, key: str) -> int:
    """Marked boxes of ``key`` no team is working on yet (electronics boxes by name)."""
    if key == "structure":
        return 0
    marked = 1 if key in ship.electronics_lost else ship.marked(key)
    return max(0, marked - sum(1 for r in ship.repairs if r.system == key))


def start_repair(ship: Ship, key: str, turn: int) -> Ship:
    return replace_fields(ship, repairs=(*ship.repairs, Repair(key, turn + REPAIR_TURNS)))


def used_this_turn(ship: Ship, heat_in: bool = False, holding_counts: bool = False) -> set[str]:
    """The systems ``ship`` used this turn; ``heat_in``: heat went into its sinks this turn."""
    used = set(ship.used)
    if ship.reactors_on:
        used.add("reactors")
    if ship.radiators != "in":
        used.add("radiators")
    if heat_in or (holding_counts and ship.heat_tenths > 0):
        used.add("heat sinks")
    return used


def repair_step(
    ship: Ship,
    design: Design,
    coming: int,
    dice: Dice,
    events: list[Event],
    heat_in: bool = False,
    holding_counts: bool = False,
) -> Ship:
    """At the turn break: repairs of used systems fail; those due roll; the turn's use is forgotten."""
    used = used_this_turn(ship, heat_in, holding_counts)
    keep: list[Repair] = []
    for repair in ship.repairs:
        if repair.system in used:
            events.append(Note(f"{ship.id}'s repair of {repair.system} fails: the system was used (A5.48)"))
        elif repair.done > coming:
            keep.append(repair)
        else:
            roll = dice.roll("d10", f"{ship.id} repair of {repair.system} (6+)")
            events.append(Rolled.of(roll))
            if roll.total >= REPAIR_NEEDS:
                ship = _clear_box(ship, repair.system)
                events.append(Note(f"{ship.id} repairs one point of {repair.system} (d10 {roll.total})"))
            else:
                events.append(Note(f"{ship.id}'s repair of {repair.system} fails (d10 {roll.total}, 6+ needed)"))
    return replace_fields(ship, repairs=tuple(keep), used=())


def _clear_box(ship: Ship, key: str) -> Ship:
    if key in ship.electronics_lost:
        lost = list(ship.electronics_lost)
        lost.remove(key)
        return replace_fields(ship, electronics_lost=tuple(lost))
    return ship.with_marks(key, max(0, ship.marked(key) - 1))
