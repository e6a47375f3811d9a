"""VV5 starship design (the "Starship Design" optional rules).

A design gives a mass in tons and fills it with systems. Tonnage is kept in
tenths of a ton so the sums are exact; acceleration and agility round up to
whole tons as the rules say. Structural Integrity equals mass and costs
nothing. A design whose systems outweigh its mass is refused with the full
tonnage sheet, so the designer sees the line that broke the budget.

>>> d = Design(name="Ghost", mass=5, acceleration=2, agility=2, guns=(GunMount(arc="forward", guns=1),), missiles=2)
>>> [f"{line.item}: {line.tenths / 10:g} t" for line in d.tonnage()][:3]
['life support: 1 t', 'acceleration 2G: 2 t', 'agility 2 turns: 1 t']
>>> d.spare_tenths / 10
0.2
>>> try:
...     Design(name="Greedy", mass=5, acceleration=5, agility=2)
... except ValueError as err:
...     print(str(err).splitlines()[1].split(":")[0])
  Value error, Greedy needs 6 t but has a mass of 5 t (1 t over)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from vectorwar.errors import DesignError, ScenarioError
from vectorwar.limits import MAX_DESIGN_NUMBER
from vectorwar.scenario import validate_model

GunArc = Literal["forward", "fwd180", "aft180", "left180", "right180", "turret360"]

# Tenths of a ton per gun, by mount.
GUN_TENTHS: dict[str, int] = {
    "forward": 4,
    "fwd180": 8,
    "aft180": 8,
    "left180": 8,
    "right180": 8,
    "turret360": 12,
}
MISSILE_TENTHS = 2
CARGO_TENTHS = 10
LIFE_SUPPORT_TENTHS = 10
LIGHT_ARMOUR_TENTHS = 1  # an oval on life support, a gun mount or the missiles
MAX_ACCELERATION = 5
MAX_AGILITY = 6
MAX_MASS = 80


def heavy_armour_tenths(mass: int) -> int:
    """Tenths of a ton per armour oval on acceleration, agility, cargo or SI, by mass class."""
    if mass <= 10:
        return 1
    if mass <= 20:
        return 2
    if mass <= 40:
        return 3
    return 4


def _ceil_tons(mass: int, percent: int) -> int:
    """``percent`` of ``mass``, rounded up to a whole ton, in tenths."""
    return -(-mass * percent // 100) * 10


class GunMount(BaseModel):
    """A group of guns sharing one arc (and one status-card line)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    arc: GunArc = Field(description="forward (fixed), fwd180, aft180, left180, right180 or turret360")
    guns: int = Field(ge=1, le=12)
    armour: int = Field(default=0, ge=0, le=10)


class Armour(BaseModel):
    """Armour ovals per damage location."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    structure: int = Field(default=0, ge=0, le=MAX_DESIGN_NUMBER)
    cargo: int = Field(default=0, ge=0, le=MAX_DESIGN_NUMBER)
    agility: int = Field(default=0, ge=0, le=MAX_DESIGN_NUMBER)
    acceleration: int = Field(default=0, ge=0, le=MAX_DESIGN_NUMBER)
    missiles: int = Field(default=0, ge=0, le=MAX_DESIGN_NUMBER)
    life_support: int = Field(default=0, ge=0, le=MAX_DESIGN_NUMBER)


@dataclass(frozen=True, slots=True)
class TonnageLine:
    item: str
    tenths: int


class Design(BaseModel):
    """A VV5 starship design; ``validate`` checks it fits its mass."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    mass: int = Field(ge=1, le=MAX_MASS, description="Tons; also the Structural Integrity")
    acceleration: int = Field(default=0, ge=0, le=MAX_ACCELERATION, description="G")
    agility: int = Field(default=0, ge=0, le=MAX_AGILITY, description="Turns per turn")
    guns: tuple[GunMount, ...] = ()
    missiles: int = Field(default=0, ge=0, le=20, description="Missile launchers, one missile each")
    cargo: int = Field(
        default=0, ge=0, le=MAX_DESIGN_NUMBER, description="Cargo boxes (troopers, refugees, bombs' bay...)"
    )
    armour: Armour = Armour()
    kind: Literal["fighter", "transport", "adp", "other"] = Field(
        default="fighter", description="adp = automated defence platform, played by the engine"
    )
    notes: str = ""
    check_budget: bool = Field(
        default=True, description="False only for scenario objects (ADPs, derelicts) that are not built by these rules"
    )

    @model_validator(mode="after")
    def _fits(self) -> Design:
        if self.check_budget and self.spare_tenths < 0:
            sheet = "; ".join(f"{line.item} {line.tenths / 10:g} t" for line in self.tonnage())
            raise ValueError(
                f"{self.name} needs {self.used_tenths / 10:g} t but has a mass of {self.mass} t "
                f"({-self.spare_tenths / 10:g} t over): {sheet} (VV5 Starship Design)"
            )
        return self

    def tonnage(self) -> list[TonnageLine]:
        """The tonnage sheet, line by line."""
        return list(self._lines())

    def _lines(self) -> Iterator[TonnageLine]:
        yield TonnageLine("life support", LIFE_SUPPORT_TENTHS)
        if self.acceleration:
            yield TonnageLine(f"acceleration {self.acceleration}G", _ceil_tons(self.mass, 15 * self.acceleration))
        if self.agility:
            yield TonnageLine(f"agility {self.agility} turns", _ceil_tons(self.mass, 5 * self.agility))
        for mount in self.guns:
            yield TonnageLine(f"{mount.guns} {mount.arc} gun(s)", GUN_TENTHS[mount.arc] * mount.guns)
        if self.missiles:
            yield TonnageLine(f"{self.missiles} missile(s)", MISSILE_TENTHS * self.missiles)
        if self.cargo:
            yield TonnageLine(f"{self.cargo} cargo", CARGO_TENTHS * self.cargo)
        light = self.armour.life_support + self.armour.missiles + sum(m.armour for m in self.guns)
        heavy = self.armour.structure + self.armour.cargo + self.armour.agility + self.armour.acceleration
        if light:
            yield TonnageLine(f"{light} armour on life support/weapons", LIGHT_ARMOUR_TENTHS * light)
        if heavy:
            yield TonnageLine(
                f"{heavy} armour on SI/cargo/agility/acceleration", heavy_armour_tenths(self.mass) * heavy
            )

    @property
    def used_tenths(self) -> int:
        return sum(line.tenths for line in self._lines())

    @property
    def spare_tenths(self) -> int:
        return self.mass * 10 - self.used_tenths

    @property
    def gun_count(self) -> int:
        return sum(m.guns for m in self.guns)


def design_from_data(data: Any, source: str, key: str) -> Design:
    """Validate one design table; errors name ``source`` and ``key`` and the tonnage sheet."""
    try:
        return validate_model(Design, data, source, (key,))
    except ScenarioError as err:
        raise DesignError(str(err)) from None
