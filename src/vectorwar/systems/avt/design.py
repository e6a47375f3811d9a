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
from vectorwar.limits import MAX_DESIGN_NUMBER, MAX_TABLE_NUMBER
from vectorwar.scenario import validate_model
from vectorwar.systems.avt.arcs import ArcWindow, parse_arc
from vectorwar.systems.avt.fuel import max_thrust
from vectorwar.systems.avt.orientation import Chart

#: The highest thrust a design may have: 7.5 G, six times the Rafik's. Planning and drawing a ship's
#: options grow with its thrust, so an outlandish number is refused when the design is read.
MAX_THRUST = 30


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Face = Literal["nose", "aft", "port", "starboard", "top", "bottom"]
Depth = Literal["nose", "aft", "side"]
FACES: tuple[Face, ...] = ("nose", "aft", "port", "starboard", "top", "bottom")
#: The four neighbours of each face, in the order its armour diagram names its off-centre regions.
NEIGHBOURS: dict[Face, tuple[Face, ...]] = {
    "nose": ("top", "bottom", "port", "starboard"),
    "aft": ("top", "bottom", "port", "starboard"),
    "port": ("top", "bottom", "nose", "aft"),
    "starboard": ("top", "bottom", "nose", "aft"),
    "top": ("nose", "aft", "port", "starboard"),
    "bottom": ("nose", "aft", "port", "starboard"),
}
#: The 30 armour regions (A5.43): each face's centre and the region one off it toward each neighbour.
REGIONS: tuple[str, ...] = tuple(r for f in FACES for r in (f, *(f"{f}-{n}" for n in NEIGHBOURS[f])))
#: Systems with rules of their own (A5.452-A5.457, A5.47); any other name in a hit location table is a
#: plain row of boxes listed in ``SSD.systems`` (cargo, bridge, hyperdrives ...).
SPECIAL_SYSTEMS = frozenset(
    {
        "structural integrity",
        "pivot/si",
        "batteries",
        "heat sinks",
        "reactors",
        "radiators",
        "fuel",
        "thrust",
        "quarters",
        "electronics",
        "no effect",
    }
)


def region_face(region: str) -> Face:
    face = region.partition("-")[0]
    if face not in FACES:
        raise ValueError(f"no armour region {region!r}")
    return face


class SSD(_Strict):
    """The damage side of the Ship's Systems Display: armour diagram, hull depths' use and system boxes.

    Box lists read left to right, the order damage marks them (A5.452). Where the
    excerpt prints no SSD, the numbers are the design's own (see ``Design.designed``).
    """

    armour: dict[str, int] = Field(description="Skin armour of each of the 30 regions, by name (nose, nose-top ...)")
    region_tables: dict[str, Face] = Field(
        default_factory=dict, description="Regions whose hit location table is not their face's (A5.462)"
    )
    region_depths: dict[str, Depth] = Field(
        default_factory=dict, description="Regions whose hull depth is not their face's (A5.462)"
    )
    structure: list[int] = Field(
        min_length=1, max_length=60, description="Structural Integrity track: 0 a box, n an octagon (A5.454)"
    )
    batteries: list[int] = Field(default_factory=list, max_length=60, description="Capacity left with each box")
    heat_sinks: list[int] = Field(default_factory=list, max_length=60, description="Capacity left with each box")
    reactors: list[int] = Field(default_factory=list, max_length=20, description="Power of each box; 0 is the X")
    radiators: int = Field(default=0, ge=0, le=20, description="Radiator boxes; each dumps an equal share")
    quarters: list[bool] = Field(default_factory=list, max_length=60, description="Quarters boxes; true: a wrench")
    electronics: list[str] = Field(default_factory=list, max_length=20, description="Electronics check boxes")
    systems: dict[str, int] = Field(default_factory=dict, description="Other systems: boxes of each, by name")

    @field_validator("armour")
    @classmethod
    def _regions(cls, armour: dict[str, int]) -> dict[str, int]:
        missing = [r for r in REGIONS if r not in armour]
        extra = [r for r in armour if r not in REGIONS]
        if missing or extra:
            raise ValueError(
                f"armour needs exactly the 30 regions {', '.join(REGIONS)}"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + (f"; unknown {', '.join(extra)}" if extra else "")
            )
        if any(not 0 <= v <= 99 for v in armour.values()):
            raise ValueError("skin armour is 0-99")
        return armour

    @field_validator("region_tables", "region_depths")
    @classmethod
    def _known(cls, table: dict[str, str]) -> dict[str, str]:
        unknown = [r for r in table if r not in REGIONS]
        if unknown:
            raise ValueError(f"unknown armour regions {', '.join(unknown)}")
        return table

    @field_validator("structure", "batteries", "heat_sinks", "reactors")
    @classmethod
    def _numbers(cls, boxes: list[int], info: Any) -> list[int]:
        if any(not 0 <= b <= 999 for b in boxes):
            raise ValueError(f"{info.field_name} boxes hold numbers 0-999")
        if info.field_name != "structure" and any(b > a for a, b in pairwise(boxes)):
            raise ValueError(f"{info.field_name}: what is left falls as boxes are marked left to right: {boxes}")
        return boxes

    @field_validator("systems")
    @classmethod
    def _systems(cls, systems: dict[str, int]) -> dict[str, int]:
        for name, boxes in systems.items():
            if name.lower() != name or name in SPECIAL_SYSTEMS:
                raise ValueError(f"systems.{name}: names are lower case and not one of the special systems")
            if not 1 <= boxes <= 60:
                raise ValueError(f"systems.{name}: 1-60 boxes")
        return systems

    def table(self, region: str) -> Face:
        """The hit location table damage entering ``region`` uses."""
        return self.region_tables.get(region, region_face(region))

    def depth_kind(self, region: str) -> Depth:
        face = region_face(region)
        default: Depth = "nose" if face == "nose" else "aft" if face == "aft" else "side"
        return self.region_depths.get(region, default)


class MountSpec(_Strict):
    """A weapon mount: its lasers (one per row, named A1, A2 ...) and its arc diagram."""

    weapon: str = Field(default="3 MRLS", description="Weapon table the lasers fire on")
    lasers: int = Field(ge=1, le=4, description="Lasers in the mount, one per row")
    power: int = Field(ge=0, le=MAX_DESIGN_NUMBER, description="Battery points to fire one laser (the 3 of 3(+5))")
    cooling: int = Field(
        ge=1, le=MAX_DESIGN_NUMBER, description="Segments before a laser fires again (the +5 of 3(+5))"
    )
    arc: list[str] = Field(min_length=1, description="Arc diagram windows: clock hours, ranges like 10..2, top, all")
    hits: list[int] = Field(
        default_factory=lambda: [0],
        min_length=1,
        max_length=8,
        description="Each laser's damage track (A5.47): 0 for the first box, then each pentagon's number",
    )

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
    thrust: int = Field(default=0, ge=0, le=MAX_THRUST, description="Maximum thrust, the Thrust Matrix's first row")
    fuel: int = Field(default=0, ge=0, le=MAX_TABLE_NUMBER, description="Fuel units on the fuel track")
    thrust_matrix: list[int] = Field(
        default_factory=list,
        description="Every row of the Thrust Matrix, top first (the first is `thrust`); empty: the one row `thrust`",
    )
    fuel_spaces: int = Field(
        default=0, ge=0, le=MAX_DESIGN_NUMBER, description="Hull spaces of fuel: the fuel track's columns (0: one row)"
    )
    fuel_shapes: list[int] = Field(
        default_factory=list,
        description="Units burned when each change of fuel shape is reached, one per Thrust Matrix row after the first",
    )
    reactor: int = Field(
        default=0, ge=0, le=MAX_DESIGN_NUMBER, description="Power per segment the reactors put in the batteries (RCT)"
    )
    battery: int = Field(default=0, ge=0, le=MAX_TABLE_NUMBER, description="Battery capacity (BTTY)")
    flex: int = Field(
        default=0, ge=0, le=MAX_DESIGN_NUMBER, description="Flex points (shown; their rules are not in the excerpt)"
    )
    heat_sinks: int = Field(default=0, ge=0, le=MAX_TABLE_NUMBER, description="Heat sink capacity")
    radiators: float = Field(
        default=0.0, ge=0, le=MAX_DESIGN_NUMBER, description="Heat a turn the radiators dump when out"
    )
    hull_depth: dict[Literal["nose", "aft", "side"], int] = Field(default_factory=dict)
    pivot_chart: list[list[int]] = Field(default_factory=list, description="Caterpillar chart for pivots")
    roll_chart: list[list[int]] = Field(default_factory=list, description="Caterpillar chart for rolls")
    mounts: dict[str, MountSpec] = Field(default_factory=dict)
    hit_locations: dict[str, list[str]] = Field(
        default_factory=dict, description="Hit location tables, 'SYSTEM armour' per d10 roll (A5.45)"
    )
    ssd: SSD | None = Field(default=None, description="Armour regions and system boxes (A5.43-A5.48); none: no damage")
    toughness: int = Field(
        default=10, ge=1, le=MAX_TABLE_NUMBER, description="A target's damage in one segment that destroys it"
    )
    designed: list[str] = Field(default_factory=list, description="What vectorwar designed where the text is silent")
    notes: str = ""

    @field_validator("pivot_chart", "roll_chart")
    @classmethod
    def _charts(cls, chart: list[list[int]], info: Any) -> list[list[int]]:
        if len(chart) > 6:
            raise ValueError(f"{info.field_name}: rows go up to 180 degrees (6), got {len(chart)}")
        if any(not 0 <= t <= MAX_DESIGN_NUMBER for row in chart for t in row):
            raise ValueError(f"{info.field_name}: timings are 0-{MAX_DESIGN_NUMBER} segments")
        return _check_chart(chart, info.field_name)

    @field_validator("hull_depth")
    @classmethod
    def _depths(cls, depths: dict[str, int]) -> dict[str, int]:
        if any(not 1 <= d <= MAX_TABLE_NUMBER for d in depths.values()):
            raise ValueError(f"hull_depth: each depth is 1-{MAX_TABLE_NUMBER}")
        return depths

    @field_validator("thrust_matrix")
    @classmethod
    def _matrix_rows(cls, rows: list[int]) -> list[int]:
        if len(rows) > 20 or any(not 0 <= r <= MAX_THRUST for r in rows):
            raise ValueError(f"thrust_matrix: at most 20 rows of thrust 0-{MAX_THRUST}")
        return rows

    @model_validator(mode="after")
    def _ship_needs(self) -> Design:
        if self.kind == "ship" and (not self.pivot_chart or not self.roll_chart):
            raise ValueError("a ship needs a pivot_chart and a roll_chart (at least the 30-degree row)")
        for name in self.mounts:
            if len(name) != 1 or not name.isupper():
                raise ValueError(f"mount {name!r}: mounts are single capital letters, A, B ...")
        self._ssd_needs()
        return self._matrix_needs()

    def _ssd_needs(self) -> None:
        ssd = self.ssd
        if ssd is None:
            return
        for face in (*FACES, "core"):
            if face not in self.hit_locations:
                raise ValueError(f"an SSD needs a hit location table for the {face}")
        if any(k not in self.hull_depth for k in ("nose", "aft", "side")):
            raise ValueError("an SSD needs hull_depth for nose, aft and side")
        for table, rows in self.hit_locations.items():
            if len(rows) != 10:
                raise ValueError(f"hit_locations.{table}: a d10 table has 10 rows, got {len(rows)}")
            for row in rows:
                system, armour = hit_entry(row)
                known = (
                    system in SPECIAL_SYSTEMS
                    or system in ssd.systems
                    or (system.startswith("mount ") and system[6:].upper() in self.mounts)
                )
                if not known:
                    raise ValueError(f"hit_locations.{table}: {row!r} names no system of the SSD")
                if not 0 <= armour <= 99:
                    raise ValueError(f"hit_locations.{table}: {row!r}: component armour is 0-99")
        if ssd.batteries and ssd.batteries[0] != self.battery:
            raise ValueError(f"ssd.batteries starts at the battery capacity {self.battery}")
        if ssd.heat_sinks and ssd.heat_sinks[0] != self.heat_sinks:
            raise ValueError(f"ssd.heat_sinks starts at the heat sink capacity {self.heat_sinks}")
        if ssd.reactors and ssd.reactors[0] != self.reactor:
            raise ValueError(f"ssd.reactors starts at the reactor power {self.reactor}")

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
        table = self.thrust_by_fuel
        if 0 <= fuel_left < len(table):
            return table[fuel_left]
        return max_thrust(self.matrix, self.fuel_shapes, max(0, self.fuel - fuel_left))

    @cached_property
    def thrust_by_fuel(self) -> tuple[int, ...]:
        """:meth:`max_thrust` for each count of units left, none to a full track: the bots ask it every segment."""
        return tuple(max_thrust(self.matrix, self.fuel_shapes, self.fuel - left) for left in range(self.fuel + 1))

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Design:
        # The charts below are cached on the instance; a copy with new fields must not inherit them.
        # (Catalogue designs are shared by every game in the process, so they are often already cached.)
        copy = super().model_copy(update=update, deep=deep)
        for name in ("pivots", "rolls", "lasers", "arcs", "thrust_by_fuel"):
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


def hit_entry(row: str) -> tuple[str, int]:
    """A hit location table row, ``"Mount A 2"``, as (system in lower case, component armour).

    >>> hit_entry("Heat Sinks 1"), hit_entry("Mount A 2")
    (('heat sinks', 1), ('mount a', 2))
    """
    name, _, armour = row.strip().rpartition(" ")
    if not name or not armour.isdigit() or len(armour) > 2:
        raise ValueError(f"a hit location row is 'SYSTEM ARMOUR', like 'Batteries 1', got {row!r}")
    return name.lower(), int(armour)


def design_from_data(data: Any, source: str, key: str) -> Design:
    """Validate one design table; errors read ``SOURCE: KEY.FIELD: PROBLEM``."""
    try:
        return validate_model(Design, data, source, (key,))
    except DesignError:
        raise
    except Exception as err:  # ScenarioError from validate_model
        raise DesignError(str(err)) from None
