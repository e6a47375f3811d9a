"""VMS games for the plug-in tests: the system registered, small scenarios with designs of their own."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from vectorwar.game import Game
from vectorwar.registry import register, systems
from vectorwar.scenario import Scenario, scenario_from_data
from vectorwar.systems.vms import system as VMS

from .helpers import SIDES

# Until the entry point is installed the tests still find the system by name.
if "vms" not in systems():
    register(VMS)

MSC = {"engine": 3, "shields": 3, "to_hit": 3, "weapons": ["F"]}
VV5 = {"mass": 20, "acceleration": 2, "agility": 2, "guns": [{"arc": "forward", "guns": 2}]}
COMBAT = {"msc": MSC, "vv5": VV5}


def design(**fields: Any) -> dict[str, Any]:
    """The movement example's ship (accel/decel 2, pivot 1+1, 6 through every thruster) unless told."""
    data: dict[str, Any] = {
        "name": "Hyperion",
        "ship_class": "medium",
        "thrust": 12,
        "accel_cost": 2,
        "pivot_cost": "1+1",
        "thrusters": [{"side": s, "rating": 6} for s in SIDES],
        "combat": COMBAT,
    }
    data.update(fields)
    return data


DESIGNS: dict[str, dict[str, Any]] = {
    "hyperion": design(),
    "fighter": design(name="Starfury", ship_class="fighter", thrust=8, accel_cost=1, pivot_cost=None, initiative=4),
    "capital": design(name="Omega", ship_class="capital", thrust=20, pivot_cost="1+1"),
    "target": design(name="Hulk", combat={"msc": {**MSC, "weapons": []}, "vv5": {**VV5, "guns": []}}),
}

# A placement: (side, id, design, at, facing, velocity).
Placement = tuple[str, str, str, str, str, str]


def make_scenario(
    ships: Iterable[Placement],
    *,
    options: Mapping[str, object] | None = None,
    designs: Mapping[str, dict[str, Any]] | None = None,
    special: Mapping[str, Any] | None = None,
    max_turns: int = 5,
    width: int = 30,
    height: int = 30,
) -> Scenario:
    sides: dict[str, list[dict[str, Any]]] = {}
    for side, ship_id, kind, at, facing, velocity in ships:
        sides.setdefault(side, []).append(
            {"id": ship_id, "design": kind, "at": at, "facing": facing, "velocity": velocity}
        )
    data = {
        "id": "test",
        "system": "vms",
        "title": "test",
        "max_turns": max_turns,
        "map": {"width": width, "height": height},
        "sides": [{"id": side, "ships": placed} for side, placed in sides.items()],
        "options": dict(options or {}),
        "designs": dict(designs or DESIGNS),
        "special": dict(special or {}),
    }
    return scenario_from_data(data, "test scenario")


def new_game(ships: Iterable[Placement], seed: int = 0, **kwargs: Any) -> Game:
    return Game.new(VMS, make_scenario(ships, **kwargs), seed)


__all__ = ["DESIGNS", "VMS", "Placement", "design", "make_scenario", "new_game"]
