"""Hand-made VMS designs for the tests (the text prints no ship statistics)."""

from __future__ import annotations

from typing import Any

from vectorwar.systems.vms.ships import Design

SIDES = ("forward", "aft", "port", "starboard")


def design(**fields: Any) -> Design:
    data: dict[str, Any] = {
        "name": "Hyperion",
        "ship_class": "medium",
        "thrust": 12,
        "accel_cost": 2,
        "pivot_cost": "1+1",
        "thrusters": [{"side": s, "rating": 6} for s in SIDES],
    }
    data.update(fields)
    return Design.model_validate(data)


def sharlin() -> Design:
    """The flat-turn example's war cruiser: accel/decel cost 5 and a flat turn cost of 1 x speed."""
    return design(
        name="Sharlin",
        ship_class="capital",
        thrust=24,
        accel_cost=5,
        pivot_cost="3+3",
        flat_turn_cost="1",
        thrusters=[{"side": s, "rating": 12} for s in SIDES],
    )


def fighter(ship_class: str = "fighter") -> Design:
    return design(
        name="Starfury",
        ship_class=ship_class,
        thrust=8,
        accel_cost=1,
        pivot_cost=None,
        thrusters=[{"side": s, "rating": 8} for s in SIDES],
    )
