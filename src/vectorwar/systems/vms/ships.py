"""VMS ship data: what a design must say for the movement rules.

The text converts AoG ship sheets and prints no numbers, so every field here
is the ship-sheet value the rules read, in a TOML-friendly form:

>>> sharlin = Design.model_validate({
...     "name": "Sharlin", "ship_class": "capital", "thrust": 24, "accel_cost": 5,
...     "pivot_cost": "3+3", "flat_turn_cost": "1", "initiative": 1,
...     "thrusters": [{"side": "forward", "rating": 6}, {"side": "aft", "rating": 12},
...                   {"side": "port", "rating": 6}, {"side": "starboard", "rating": 6}],
... })
>>> sorted(sharlin.thruster_table())
['aft1', 'forward1', 'port1', 'starboard1']
>>> str(sharlin.pivot_cost), sharlin.pivot_cost.start, sharlin.flat_turn_cost.cost(6)
('3+3', 3, 6)
>>> sharlin.rotation_limit, sharlin.small_craft
(2, False)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, model_validator
from pydantic_core import core_schema

from vectorwar.errors import DesignError, OrderSyntaxError
from vectorwar.hexes import text_schema
from vectorwar.limits import MAX_DESIGN_NUMBER, read_number

ShipClass = Literal["capital", "medium", "shuttle", "fighter", "civilian"]
Side = Literal["forward", "aft", "port", "starboard"]
SIDES: tuple[Side, ...] = ("forward", "aft", "port", "starboard")

# Rotation speed limits in hexsides per turn (Rotational System, rule 5).
# Capital ships count as "most warships" (docs/rules/vms.md, ruling *Ship class
# for rotation limits*); fighters have none.
ROTATION_LIMITS: dict[ShipClass, int | None] = {
    "civilian": 1,
    "capital": 2,
    "medium": 2,
    "shuttle": 3,
    "fighter": None,
}
SMALL_CRAFT: frozenset[ShipClass] = frozenset({"fighter", "shuttle"})


@dataclass(frozen=True, slots=True)
class PivotCost:
    """The ship sheet's pivot cost ``start+stop``, in rotation points per hexside/turn.

    >>> PivotCost.parse("2 + 4")
    PivotCost(start=2, stop=4)
    """

    start: int
    stop: int

    @classmethod
    def parse(cls, text: str) -> PivotCost:
        parts = text.split("+")
        if len(parts) != 2 or not all(p.strip().isdecimal() for p in parts):
            raise OrderSyntaxError(text, "a pivot cost is written START+STOP, for example 3+3")
        start, stop = (read_number(p.strip(), "a pivot cost's half", MAX_DESIGN_NUMBER, text) for p in parts)
        if start < 1 or stop < 1:
            raise OrderSyntaxError(text, "both halves of a pivot cost must be at least 1")
        return cls(start, stop)

    def __str__(self) -> str:
        return f"{self.start}+{self.stop}"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return text_schema(cls, cls.parse)


@dataclass(frozen=True, slots=True)
class FlatTurnCost:
    """Thrust per hexside of flat turn as a fraction of speed (``"1"``, ``"1/2"``, ``"2/3"``).

    AoG sheets print turn costs as a multiple of speed; a fraction of a point
    rounds up, because a thrust point cannot be split.

    >>> FlatTurnCost.parse("1/2").cost(5), FlatTurnCost.parse("1").cost(6)
    (3, 6)
    """

    numerator: int
    denominator: int = 1

    @classmethod
    def parse(cls, text: str) -> FlatTurnCost:
        top, _, bottom = text.strip().partition("/")
        bottom = bottom or "1"
        if not (top.strip().isdecimal() and bottom.strip().isdecimal()):
            raise OrderSyntaxError(text, "a flat turn cost is a fraction of speed, for example 1 or 1/2")
        num, den = (read_number(p.strip(), "a flat turn cost's part", MAX_DESIGN_NUMBER, text) for p in (top, bottom))
        if num < 1 or den < 1:
            raise OrderSyntaxError(text, "a flat turn cost must be a positive fraction of speed")
        return cls(num, den)

    def cost(self, speed: int) -> int:
        return math.ceil(speed * self.numerator / self.denominator)

    def __str__(self) -> str:
        return str(self.numerator) if self.denominator == 1 else f"{self.numerator}/{self.denominator}"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return text_schema(cls, cls.parse)


class Thruster(BaseModel):
    """One thruster: the side it is mounted on and the most thrust it may carry in a turn."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    side: Side
    rating: int = Field(ge=1, le=MAX_DESIGN_NUMBER)


class Design(BaseModel):
    """A VMS ship design (one ``[[ship]]`` table of a ships file)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1)
    ship_class: ShipClass
    thrust: int = Field(ge=0, le=MAX_DESIGN_NUMBER, description="thrust points available each turn")
    accel_cost: int = Field(ge=1, le=MAX_DESIGN_NUMBER, description="thrust points per hex/turn of velocity change")
    thrusters: tuple[Thruster, ...]
    pivot_cost: PivotCost | None = Field(default=None, description="START+STOP; not used by fighters and shuttles")
    initiative: int = Field(
        default=0, ge=-MAX_DESIGN_NUMBER, le=MAX_DESIGN_NUMBER, description="the ship sheet's initiative modifier"
    )
    flat_turn_cost: FlatTurnCost | None = Field(default=None, description="per hexside, as a fraction of speed")
    combat: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="the ship's data for each combat module, by module name ([NAME.combat.msc], [NAME.combat.vv5])",
    )
    notes: str = ""

    @model_validator(mode="after")
    def _rules(self) -> Design:
        for side in SIDES:
            n = sum(1 for t in self.thrusters if t.side == side)
            if not 1 <= n <= 4:
                raise ValueError(f"{self.name} has {n} {side} thrusters; every side has 1 to 4")
        if self.pivot_cost is None and not self.small_craft:
            raise ValueError(f"{self.name} is a {self.ship_class} ship and needs a pivot_cost such as 3+3")
        return self

    @property
    def pivot(self) -> PivotCost:
        """The pivot cost a large ship pays to start and stop rotating (its design must give one); a small craft
        turns at will and has none, so asking for a fighter's or a shuttle's is an error.

        >>> Design.model_validate({"name": "Dart", "ship_class": "fighter", "thrust": 6, "accel_cost": 1,
        ...     "thrusters": [{"side": s, "rating": 6} for s in ("forward", "aft", "port", "starboard")]}).pivot
        Traceback (most recent call last):
        ...
        vectorwar.errors.DesignError: Dart is a fighter: small craft turn at will and pay no pivot cost
        """
        if self.pivot_cost is None:
            raise DesignError(f"{self.name} is a {self.ship_class}: small craft turn at will and pay no pivot cost")
        return self.pivot_cost

    @property
    def small_craft(self) -> bool:
        """Fighters and shuttles turn at will instead of plotting rotational thrust."""
        return self.ship_class in SMALL_CRAFT

    @property
    def rotation_limit(self) -> int | None:
        """The class limit of an undamaged ship (``None``: fighters have none)."""
        return ROTATION_LIMITS[self.ship_class]

    def limit_after(self, lost: int) -> int | None:
        """The limit once ``lost`` hexsides of it went to damage (never below 1 while the ship holds together)."""
        limit = self.rotation_limit
        return None if limit is None else max(1, limit - lost)

    def thruster_table(self) -> dict[str, Thruster]:
        """Thrusters by id: the side and its number on that side, from 1 (``port2``); a fresh dict."""
        return dict(self.thrusters_by_id)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Design:
        # The table below is kept on the instance; a copy with new fields must not inherit it.
        copy = super().model_copy(update=update, deep=deep)
        copy.__dict__.pop("thrusters_by_id", None)
        return copy

    @cached_property
    def thrusters_by_id(self) -> dict[str, Thruster]:
        """:meth:`thruster_table`, worked out once a design (the design is frozen): read it, never change it.

        Every plot a planner or bot weighs reads it.
        """
        table: dict[str, Thruster] = {}
        for side in SIDES:
            for n, t in enumerate((t for t in self.thrusters if t.side == side), start=1):
                table[f"{side}{n}"] = t
        return table
