"""MSC ship design (MSC 3.0): build points and design limits.

>>> d = Design(name="Ship 1", engine=3, shields=3, to_hit=3, weapons=("F", "FL", "FR"))
>>> d.build_points
15
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from vectorwar.errors import DesignError
from vectorwar.scenario import validate_model
from vectorwar.systems.msc.arcs import TEXT_ORDER, Side

MAX_RATING = 5
WEAPON_COST = 2
MAX_BUILD_POINTS = 25


class Design(BaseModel):
    """A ship design: ratings, weapon sides, and what it costs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    engine: int = Field(ge=0, le=MAX_RATING, description="Top SPEED; 1 BP a point, at most 5 (MSC 3.0)")
    shields: int = Field(ge=1, le=MAX_RATING, description="Hits it can take; 1 BP a point, at most 5")
    to_hit: int = Field(ge=0, le=MAX_RATING, description="Hits on a d6 at or under this; 1 BP a point, at most 5")
    weapons: tuple[str, ...] = Field(default=(), description="Sides with a weapon: F, FL, FR, RL, RR (2 BP each)")
    notes: str = ""

    @field_validator("weapons")
    @classmethod
    def _weapons(cls, sides: tuple[str, ...]) -> tuple[str, ...]:
        names = [s.strip().upper() for s in sides]
        for n in names:
            if n not in Side.__members__:
                raise ValueError(f"{n!r} is not a ship side (F, FL, FR, RL, RR)")
            if n == "R":
                raise ValueError("no weapon may be mounted in the Rear (MSC 3.0)")
        if len(set(names)) != len(names):
            raise ValueError("only one weapon may be placed on each side (MSC 3.0)")
        order = [s.value for s in TEXT_ORDER]
        return tuple(sorted(names, key=order.index))

    @model_validator(mode="after")
    def _budget(self) -> Design:
        if self.build_points > MAX_BUILD_POINTS:
            raise ValueError(
                f"costs {self.build_points} BP ({self.cost_line()}); "
                f"the largest ship allowed is {MAX_BUILD_POINTS} BP (MSC 3.0)"
            )
        return self

    @property
    def build_points(self) -> int:
        return self.engine + self.shields + self.to_hit + WEAPON_COST * len(self.weapons)

    def cost_line(self) -> str:
        return (
            f"ENGINE {self.engine} + SHIELDS {self.shields} + TO-HIT {self.to_hit} "
            f"+ {len(self.weapons)} weapons x {WEAPON_COST}"
        )

    @property
    def weapon_sides(self) -> tuple[Side, ...]:
        return tuple(_SIDES[w] for w in self.weapons)  # Side(w), without the enum's call: every new ship asks


_SIDES: dict[str, Side] = {side.value: side for side in Side}


def design_from_data(data: Any, source: str, key: str) -> Design:
    """Validate one design table; errors name ``source`` and ``key``."""
    try:
        return validate_model(Design, data, source, (key,))
    except DesignError:
        raise
    except Exception as err:  # ScenarioError from validate_model
        raise DesignError(str(err)) from None
