"""A scenario's starting ship states beyond what a kernel placement holds.

A placement (``[[sides.ships]]``) gives a hex, an altitude, a velocity and a
facing A-F, so a ship can only start level, upright and nose on a hexside.
The tutorial's third sample game starts where the second ended (A5.31):
nose on the B/C corner, six fuel units burned. A scenario says so in its
``[special]`` table, one sub-table per ship::

    [special.start.Rafik]
    orientation = "B/C"    # nose window and optional roll: "C+", "C/D- roll -1", "up roll 2"
    fuel = 99              # fuel units left (default: the design's full track)
    thrust = 0             # thrust setting already on, burning from the top of its column
    bias = "A"             # bias direction for thrust toward a hex corner (A5.272)

Every key is optional. The placement's ``facing`` must agree with the
orientation: it is a hexside beside the nose's heading (either side of a
corner; anything for a nose straight up or down). Errors name the key:
``scenario ID: special.start.Rafik.orientation: ...``. See docs/rulings/avt.md,
*AV:T scenario starts*.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from pydantic import BaseModel, ConfigDict, Field, field_validator

from vectorwar.errors import OrderSyntaxError, ScenarioError
from vectorwar.hexes import Direction
from vectorwar.scenario import Scenario, validate_model
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.orientation import Orientation
from vectorwar.systems.avt.state import Ship
from vectorwar.systems.avt.thrust import ThrustChart


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ShipStart(_Strict):
    """One ship's starting state (every key optional)."""

    orientation: str | None = Field(default=None, description="Nose window and optional roll, e.g. 'B/C' or 'C+'")
    fuel: int | None = Field(default=None, ge=0, description="Fuel units left (default: the design's full track)")
    thrust: int | None = Field(default=None, ge=0, description="Thrust setting already on (default 0)")
    bias: str | None = Field(default=None, description="Bias direction A-F for thrust toward a hex corner")

    @field_validator("orientation")
    @classmethod
    def _orientation(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                Orientation.parse(v)
            except OrderSyntaxError as err:
                raise ValueError(err.problem) from None
            except ValueError as err:
                raise ValueError(f"{v!r} is not an orientation: {err}") from None
        return v

    @field_validator("bias")
    @classmethod
    def _bias(cls, v: str | None) -> str | None:
        if v is not None:
            try:
                Direction.parse(v)
            except OrderSyntaxError as err:
                raise ValueError(err.problem) from None
        return v


class StartSpec(_Strict):
    """The AV:T ``[special]`` table."""

    start: dict[str, ShipStart] = Field(default_factory=dict, description="Starting states by ship id")


@dataclass(frozen=True, slots=True)
class Start:
    """A validated starting state, ready to apply to a freshly placed :class:`Ship`."""

    orientation: Orientation | None = None
    fuel: int | None = None
    thrust: int = 0
    bias: Direction | None = None

    def apply(self, ship: Ship) -> Ship:
        return replace(
            ship,
            orientation=self.orientation or ship.orientation,
            fuel=ship.fuel if self.fuel is None else self.fuel,
            chart=ThrustChart(setting=self.thrust) if self.thrust else ship.chart,
            bias=self.bias,
        )


def facing_agrees(orientation: Orientation, facing: Direction) -> bool:
    """Whether a placement's hexside ``facing`` is beside ``orientation``'s nose heading.

    >>> facing_agrees(Orientation.parse("B/C"), Direction.C), facing_agrees(Orientation.parse("B/C"), Direction.D)
    (True, False)
    """
    if abs(orientation.pitch) == 3:
        return True
    return (orientation.heading - 2 * facing.value) % 12 in (0, 1, 11)


def starts(scenario: Scenario, designs: dict[str, Design], three_d: bool) -> dict[str, Start]:
    """The scenario's ``[special.start]`` entries, checked against its placements and designs."""
    source = f"scenario {scenario.id}"
    spec = validate_model(StartSpec, scenario.special, source, ("special",))
    placed = {p.id: p for side in scenario.sides for p in side.ships}
    out: dict[str, Start] = {}
    for ship_id, entry in spec.start.items():
        key = f"{source}: special.start.{ship_id}"
        placement = placed.get(ship_id)
        if placement is None:
            known = ", ".join(sorted(placed))
            raise ScenarioError(f"{key}: no ship {ship_id!r} is placed in this scenario (placed: {known})")
        design = designs[placement.design]  # new_state has reported an unknown design already
        if design.kind != "ship":
            raise ScenarioError(f"{key}: {ship_id} is a {design.kind}; only ships have a starting state")
        orientation = None if entry.orientation is None else Orientation.parse(entry.orientation)
        if orientation is not None:
            if not three_d and (orientation.pitch or orientation.roll):
                raise ScenarioError(
                    f"{key}.orientation: with three_d = false the nose stays in the amber ring, unrolled "
                    f"({entry.orientation!r} is not)"
                )
            if not facing_agrees(orientation, placement.direction):
                raise ScenarioError(
                    f"{key}.orientation: the nose {orientation.nose} does not agree with the placement's "
                    f"facing {placement.facing}; give a hexside beside the nose"
                )
        if entry.fuel is not None and entry.fuel > design.fuel:
            raise ScenarioError(f"{key}.fuel: {entry.fuel} is more than {design.name}'s fuel track ({design.fuel})")
        thrust = entry.thrust or 0
        fuel = design.fuel if entry.fuel is None else entry.fuel
        if thrust > design.max_thrust(fuel):
            raise ScenarioError(
                f"{key}.thrust: {thrust} is above {design.name}'s thrust ({design.max_thrust(fuel)} with {fuel} fuel)"
            )
        if thrust and fuel == 0:
            raise ScenarioError(f"{key}.thrust: the engine cannot be on with no fuel left")
        bias = None if entry.bias is None else Direction.parse(entry.bias)
        out[ship_id] = Start(orientation, entry.fuel, thrust, bias)
    return out
