"""AV:T ship designs: what the Ship's Systems Display (SSD) records.

Only what the excerpt prints is taken from it; everything the excerpt lacks
(its diagrams: the arc diagrams of mounts B-G, the caterpillar charts beyond
90 degrees, the roll chart) is designed here and listed in the design's
``designed`` field so no one mistakes it for the published SSD.

Targets (the tutorial's chocolates) are designs of kind ``target``: they do
not move or shoot, and are destroyed by ``toughness`` points of damage in one
segment or by a ship flying through their space (A5.113).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from itertools import pairwise
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from vectorwar.errors import DesignError
from vectorwar.scenario import validate_model
from vectorwar.systems.avt.arcs import ArcWindow, parse_arc
from vectorwar.systems.avt.fuel import max_thrust
from vectorwar.systems.avt.orientation import Chart


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MountSpec(_Strict):
    """A weapon mount: its lasers (one per row, named A1, A2 ...) and its arc diagram."""

    weapon: str = Field(default="3 MRLS", description="Weapon table the lasers fire on")
    lasers: int = Field(ge=1, le=4, description="Lasers in the mount, one per row")
    power: int = Field(ge=0, description="Battery points to fire one laser (the 3 of 3(+5))")
    cooling: int = Field(ge=1, description="Segments before a laser fires again (the +5 of 3(+5))")
    arc: list[str] = Field(min_length=1, description="Arc diagram windows: clock hours, ranges like 10..2, top, all")

    @field_validator("arc")
    @classmethod
    def _arc(cls, entries: list[str]) -> list[str]:
        try:
            parse_arc(entries)
        except Exception as err:  # OrderSyntaxError or ValueError: show it as a field error
            raise ValueError(str(err)) from None
        return entries


def _check_chart(chart: list[list[int]], name: str) -> list[list[int]]:
    for i, row in enumerate(chart, 1):
        if len(row) != i:
            raise ValueError(f"{name} row {i} is a {30 * i}-degree change and needs {i} wedge timings, got {len(row)}")
        if row[0] != 0 or any(b < a for a, b in pairwise(row)):
            raise ValueError(f"{name} row {i} must start at +0 and never go back in time: {row}")
    return chart


class Design(_Strict):
    """One ship (or target) design."""

    name: str
    kind: Literal["ship", "target"] = "ship"
    thrust: int = Field(default=0, ge=0, description="Maximum thrust, the Thrust Matrix's first row")
    fuel: int = Field(default=0, ge=0, description="Fuel units on the fuel track")
    thrust_matrix: list[int] = Field(
        default_factory=list,
        description="Every row of the Thrust Matrix, top first (the first is `thrust`); empty: the one row `thrust`",
    )
    fuel_spaces: int = Field(default=0, ge=0, description="Hull spaces of fuel: the fuel track's columns (0: one row)")
    fuel_shapes: list[int] = Field(
        default_factory=list,
        description="Units burned when each change of fuel shape is reached, one per Thrust Matrix row after the first",
    )
    reactor: int = Field(default=0, ge=0, description="Power per segment the reactors put in the batteries (RCT)")
    battery: int = Field(default=0, ge=0, description="Battery capacity (BTTY)")
    flex: int = Field(default=0, ge=0, description="Flex points (not used yet)")
    heat_sinks: int = Field(default=0, ge=0, description="Heat sink capacity (not used yet)")
    radiators: float = Field(default=0.0, ge=0, description="Heat a turn the radiators dump when out (not used yet)")
    hull_depth: dict[Literal["nose", "aft", "side"], int] = Field(default_factory=dict)
    pivot_chart: list[list[int]] = Field(default_factory=list, description="Caterpillar chart for pivots")
    roll_chart: list[list[int]] = Field(default_factory=list, description="Caterpillar chart for rolls")
    mounts: dict[str, MountSpec] = Field(default_factory=dict)
    hit_locations: dict[str, list[str]] = Field(
        default_factory=dict, description="Hit location tables, 'SYSTEM armour' per d10 roll (not used yet)"
    )
    toughness: int = Field(default=10, ge=1, description="A target's damage in one segment that destroys it")
    designed: list[str] = Field(default_factory=list, description="What vectorwar designed where the text is silent")
    notes: str = ""

    @field_validator("pivot_chart", "roll_chart")
    @classmethod
    def _charts(cls, chart: list[list[int]], info: Any) -> list[list[int]]:
        return _check_chart(chart, info.field_name)

    @model_validator(mode="after")
    def _ship_needs(self) -> Design:
        if self.kind == "ship" and (not self.pivot_chart or not self.roll_chart):
            raise ValueError("a ship needs a pivot_chart and a roll_chart (at least the 30-degree row)")
        for name in self.mounts:
            if len(name) != 1 or not name.isupper():
                raise ValueError(f"mount {name!r}: mounts are single capital letters, A, B ...")
        return self._matrix_needs()

    def _matrix_needs(self) -> Design:
        rows = self.matrix
        if rows[0] != self.thrust:
            raise ValueError(f"thrust_matrix: the first row is the thrust, {self.thrust}, not {rows[0]}")
        if any(b <= a for a, b in pairwise(rows)):
            raise ValueError(f"thrust_matrix: each row is higher than the one above (the ship is lighter): {rows}")
        if len(self.fuel_shapes) != len(rows) - 1:
            raise ValueError(
                f"fuel_shapes: each change of shape moves one row down the thrust matrix, so {len(rows)} rows "
                f"need {len(rows) - 1} changes, got {len(self.fuel_shapes)}"
            )
        if any(not 0 < n < self.fuel for n in self.fuel_shapes) or any(b <= a for a, b in pairwise(self.fuel_shapes)):
            raise ValueError(f"fuel_shapes: changes come in burning order within the {self.fuel} units")
        return self

    @property
    def matrix(self) -> tuple[int, ...]:
        """The Thrust Matrix's rows, top first."""
        return tuple(self.thrust_matrix) or (self.thrust,)

    def max_thrust(self, fuel_left: int) -> int:
        """Current maximum thrust with ``fuel_left`` units on the track (A2.4 Thrust, Fuel Unit)."""
        return max_thrust(self.matrix, self.fuel_shapes, max(0, self.fuel - fuel_left))

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Design:
        # The charts below are cached on the instance; a copy with new fields must not inherit them.
        # (Catalogue designs are shared by every game in the process, so they are often already cached.)
        copy = super().model_copy(update=update, deep=deep)
        for name in ("pivots", "rolls", "lasers", "arcs"):
            copy.__dict__.pop(name, None)
        return copy

    @cached_property
    def pivots(self) -> Chart:
        return tuple(tuple(row) for row in self.pivot_chart)

    @cached_property
    def rolls(self) -> Chart:
        return tuple(tuple(row) for row in self.roll_chart)

    @cached_property
    def lasers(self) -> dict[str, str]:
        """Laser name (``A1``) -> its mount letter."""
        return {f"{m}{i}": m for m, spec in sorted(self.mounts.items()) for i in range(1, spec.lasers + 1)}

    @cached_property
    def arcs(self) -> dict[str, frozenset[ArcWindow]]:
        return {m: parse_arc(spec.arc) for m, spec in self.mounts.items()}


def design_from_data(data: Any, source: str, key: str) -> Design:
    """Validate one design table; errors read ``SOURCE: KEY.FIELD: PROBLEM``."""
    try:
        return validate_model(Design, data, source, (key,))
    except DesignError:
        raise
    except Exception as err:  # ScenarioError from validate_model
        raise DesignError(str(err)) from None
