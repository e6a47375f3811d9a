"""Scenario and ship files: TOML, validated with pydantic.

A scenario names its rule system, its map, its sides and their ships (each
placed at a hex with a facing and a starting speed), the options it plays
with, and any designs of its own. The system-independent part is checked
here; each rule system checks its designs and placements with models of its
own, through :func:`validate_model`, so every error reads
``FILE: KEY: PROBLEM``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from vectorwar.errors import OrderSyntaxError, ScenarioError
from vectorwar.hexes import Direction, Hex
from vectorwar.limits import (
    MAX_ALTITUDE,
    MAX_CLIMB,
    MAX_DESCRIPTION_CHARS,
    MAX_DESIGNS,
    MAX_LOADOUT,
    MAX_MAP_HEXES,
    MAX_MAP_OFFSET,
    MAX_MAP_SECTIONS,
    MAX_MAP_SIDE,
    MAX_NAME_CHARS,
    MAX_SCENARIO_ID_CHARS,
    MAX_SHIPS,
    MAX_SIDES,
    MAX_TABLE_DEPTH,
    MAX_TABLE_ITEMS,
    MAX_TABLE_NUMBER,
    MAX_TAG_CHARS,
    MAX_TITLE_CHARS,
    MAX_TURNS,
    MAX_VELOCITY,
    cite,
    text_problem,
)
from vectorwar.maps import HexMap, MapSection
from vectorwar.vectors import Velocity

M = TypeVar("M", bound=BaseModel)

IDENT = r"^[A-Za-z][A-Za-z0-9_-]*$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def checked_text(text: str, limit: int, *, lines: bool = False) -> str:
    """``text`` for a validator: refused when too long or holding control or invisible characters.

    Names, titles and descriptions reach the database, every screen and the logs, so a NUL
    (which PostgreSQL refuses), a control character or a direction override never gets that far.
    """
    problem = text_problem(text, limit, lines=lines)
    if problem:
        raise ValueError(problem)
    return text


def _text(limit: int, *, lines: bool = False) -> AfterValidator:
    """The validator of a text field at most ``limit`` characters long (:func:`checked_text`)."""
    return AfterValidator(lambda text: checked_text(text, limit, lines=lines))


#: Text fields from a scenario file, each checked by :func:`checked_text` against its limit.
Name = Annotated[str, _text(MAX_NAME_CHARS)]
Title = Annotated[str, _text(MAX_TITLE_CHARS)]
Tag = Annotated[str, _text(MAX_TAG_CHARS)]
ScenarioId = Annotated[str, _text(MAX_SCENARIO_ID_CHARS)]
Description = Annotated[str, _text(MAX_DESCRIPTION_CHARS, lines=True)]


def check_start_velocity(v: str) -> str:
    """A starting velocity's text, refused beyond the limits when the file is read.

    Checked then so that no game is ever stored with a velocity whose path
    would be too long to draw or fly (limits.MAX_VELOCITY, MAX_CLIMB).
    """
    try:
        velocity = Velocity.parse(v)
    except OrderSyntaxError as err:
        raise ValueError(err.problem) from None
    if velocity.speed > MAX_VELOCITY:
        raise ValueError(f"{velocity.speed} hexes per turn is above the limit of {MAX_VELOCITY} ({cite(MAX_VELOCITY)})")
    if abs(velocity.dz) > MAX_CLIMB:
        raise ValueError(
            f"{abs(velocity.dz)} levels per turn up or down is above the limit of {MAX_CLIMB} ({cite(MAX_CLIMB)})"
        )
    return v


class ShipPlacement(_Strict):
    """One ship on the starting map."""

    id: Name = Field(pattern=IDENT, description="Name the ship goes by in orders, e.g. Hawk")
    design: str = Field(description="Design id from the system's catalogue or this file's [designs]")
    at: str = Field(description="Starting hex, col,row")
    facing: str = Field(description="Starting facing, A-F")
    speed: int = Field(default=0, ge=0, le=MAX_VELOCITY, description="Starting SPEED (MSC) or velocity size")
    velocity: str = Field(
        default="0", max_length=200, description="Starting velocity, e.g. 'A=2, B=1' (vector systems)"
    )
    altitude: int = Field(default=0, ge=-MAX_ALTITUDE, le=MAX_ALTITUDE)
    loadout: list[Annotated[str, Field(max_length=MAX_TAG_CHARS)]] = Field(
        default_factory=list,
        max_length=MAX_LOADOUT,
        description="Equipment tags the system reads, e.g. VV5 'traction' or 'bombs:2' (replacing missiles)",
    )

    @field_validator("at")
    @classmethod
    def _hex(cls, v: str) -> str:
        try:
            Hex.parse(v.partition("@")[2] or v)
        except OrderSyntaxError as err:
            raise ValueError(f"{err.problem}, or SECTION@col,row") from None
        return v

    @field_validator("velocity")
    @classmethod
    def _velocity(cls, v: str) -> str:
        return check_start_velocity(v)

    @field_validator("facing")
    @classmethod
    def _facing(cls, v: str) -> str:
        try:
            Direction.parse(v)
        except OrderSyntaxError as err:
            raise ValueError(err.problem) from None
        return v.upper()

    @property
    def direction(self) -> Direction:
        return Direction.parse(self.facing)

    def start_hex(self, hex_map: HexMap, where: str) -> Hex:
        """The starting hex, refused (naming ``where``) if it is off the map."""
        start = hex_map.locate(self.at)
        if not hex_map.contains(start):
            raise ScenarioError(f"{where}.at: hex {self.at} is not on the map")
        return start

    def start_velocity(self, where: str) -> Velocity:
        try:
            return Velocity.parse(self.velocity)
        except OrderSyntaxError as err:
            raise ScenarioError(f"{where}.velocity: {err.problem}") from None


class SideSpec(_Strict):
    id: Name = Field(pattern=IDENT, description="Side name used in orders, e.g. red")
    name: Title = ""
    ships: list[ShipPlacement] = Field(
        default_factory=list,
        max_length=MAX_SHIPS,
        description="Starting ships; may be empty only if the scenario's setup provides them",
    )


class SectionSpec(_Strict):
    name: Name
    col: int = Field(ge=-MAX_MAP_OFFSET, le=MAX_MAP_OFFSET)
    row: int = Field(ge=-MAX_MAP_OFFSET, le=MAX_MAP_OFFSET)
    width: int = Field(gt=0, le=MAX_MAP_SIDE)
    height: int = Field(gt=0, le=MAX_MAP_SIDE)


class TerrainSpec(_Strict):
    at: str
    kind: Tag = Field(description="Terrain tag the rule system reads, e.g. blocking")

    @field_validator("at")
    @classmethod
    def _hex(cls, v: str) -> str:
        return ShipPlacement._hex(v)


class MapSpec(_Strict):
    """One ``width x height`` map, a list of sections, or a ``grid`` of lettered sections.

    A grid is rows of section names (``["A B C D E", "F G H I J"]``), each
    section ``width x height`` hexes: VV5 lays its board out this way.
    """

    width: int | None = Field(default=None, gt=0, le=MAX_MAP_SIDE)
    height: int | None = Field(default=None, gt=0, le=MAX_MAP_SIDE)
    sections: list[SectionSpec] = Field(default_factory=list, max_length=MAX_MAP_SECTIONS)
    grid: list[str] = Field(
        default_factory=list, max_length=MAX_MAP_SECTIONS, description="Rows of section names, space separated"
    )
    terrain: list[TerrainSpec] = Field(default_factory=list, max_length=MAX_MAP_HEXES)

    @model_validator(mode="after")
    def _size(self) -> MapSpec:
        # Counted from the numbers alone, before any hex is built.
        if self.grid:
            count = sum(len(row.split()) for row in self.grid)
            if count > MAX_MAP_SECTIONS:
                raise ValueError(
                    f"{count} sections is above the limit of {MAX_MAP_SECTIONS} ({cite(MAX_MAP_SECTIONS)})"
                )
            hexes = count * (self.width or 0) * (self.height or 0)
        elif self.sections:
            hexes = sum(s.width * s.height for s in self.sections)
        else:
            hexes = (self.width or 0) * (self.height or 0)
        if hexes > MAX_MAP_HEXES:
            raise ValueError(f"{hexes} hexes is above the limit of {MAX_MAP_HEXES} ({cite(MAX_MAP_HEXES)})")
        return self

    def build(self) -> HexMap:
        """The map this spec describes. The spec is frozen and so is the map, so the last spec built keeps its
        map: every game of a batch then shares one map, and with it what the map and the rules keep about it
        (its cells, terrain sets, lines of sight), instead of working it out again each game."""
        global _last_built
        spec, built = _last_built
        if spec is not self:
            built = self._build()
            _last_built = (self, built)
        return built

    def _build(self) -> HexMap:
        if self.grid:
            if self.width is None or self.height is None:
                raise ValueError("a grid map needs the width and height of one section")
            bare = HexMap.grid([row.split() for row in self.grid], self.width, self.height)
        elif self.sections:
            bare = HexMap(tuple(MapSection(**s.model_dump()) for s in self.sections))
        elif self.width is None or self.height is None:
            raise ValueError("a map needs width and height, or sections")
        else:
            bare = HexMap.single(self.width, self.height)
        terrain = []
        for i, t in enumerate(self.terrain):
            try:
                terrain.append((bare.locate(t.at), t.kind))
            except (KeyError, ValueError) as err:
                raise ValueError(f"terrain.{i}.at: {err.args[0]}") from None
        return HexMap(bare.sections, tuple(terrain))


#: The spec :meth:`MapSpec.build` last built (recognised by identity) and its map.
_last_built: tuple[MapSpec | None, HexMap] = (None, HexMap.single(1, 1))


class Scenario(_Strict):
    """A scenario file (see ``vectorwar schema scenario`` for the JSON Schema)."""

    id: ScenarioId = Field(default="", description="Filled from the file name when empty")
    system: str
    title: Title
    description: Description = ""
    max_turns: int = Field(
        default=30, gt=0, le=MAX_TURNS, description="The game ends (a draw unless decided) after this turn"
    )
    map: MapSpec
    sides: list[SideSpec] = Field(min_length=2, max_length=MAX_SIDES)
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    designs: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        max_length=MAX_DESIGNS,
        description="Designs used only by this scenario, in the system's design format",
    )
    setup: dict[str, Any] = Field(
        default_factory=dict,
        description="Steps before turn 1, in the system's own format (e.g. VV5 [setup.purchase])",
    )
    special: dict[str, Any] = Field(
        default_factory=dict,
        description="The scenario's special rules, in the system's own format (e.g. VV5 kind = 'stasis-pod')",
    )

    @model_validator(mode="after")
    def _fleets(self) -> Scenario:
        ships = sum(len(side.ships) for side in self.sides)
        if ships > MAX_SHIPS:
            raise ValueError(f"{ships} ships is above the limit of {MAX_SHIPS} ({cite(MAX_SHIPS)})")
        if not self.setup:
            for i, side in enumerate(self.sides):
                if not side.ships:
                    raise ValueError(f"sides.{i} ({side.id}) has no ships, and there is no setup to provide them")
        return self

    @field_validator("designs", "setup", "special")
    @classmethod
    def _system_tables(cls, tables: dict[str, Any]) -> dict[str, Any]:
        # These tables are read by each system's own models, which may not bound every number;
        # a number a system would loop over must never reach it unchecked.
        problem = _table_problem(tables, "")
        if problem:
            raise ValueError(problem)
        return tables

    @field_validator("sides")
    @classmethod
    def _unique(cls, sides: list[SideSpec]) -> list[SideSpec]:
        seen: set[str] = set()
        for side in sides:
            if side.id in seen:
                raise ValueError(f"side id {side.id!r} used twice")
            seen.add(side.id)
            for ship in side.ships:
                if ship.id in seen:
                    raise ValueError(f"ship id {ship.id!r} used twice (ids must be unique across sides and ships)")
                seen.add(ship.id)
        return sides

    def hex_map(self) -> HexMap:
        return self.map.build()

    def placements(self) -> Iterator[tuple[str, str, ShipPlacement]]:
        """Each ship placement with its side's id and the key its errors name."""
        for i, side in enumerate(self.sides):
            for j, placed in enumerate(side.ships):
                yield f"scenario {self.id}: sides.{i}.ships.{j}", side.id, placed

    def locate(self, ship: ShipPlacement) -> Hex:
        """The starting hex of ``ship`` (``at`` may be section-relative)."""
        return self.hex_map().locate(ship.at)

    def to_data(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def _table_problem(value: Any, where: str, depth: int = 0) -> str:
    """The first number or list in a system's table beyond the engine's limits, as ``KEY: PROBLEM`` ("" if none)."""
    key = where or "(top level)"
    if depth > MAX_TABLE_DEPTH:
        return f"{key}: nested more than {MAX_TABLE_DEPTH} deep ({cite(MAX_TABLE_DEPTH)})"
    if isinstance(value, bool):
        return ""
    if isinstance(value, int | float) and abs(value) > MAX_TABLE_NUMBER:
        return f"{key}: {value} is above the limit of {MAX_TABLE_NUMBER} ({cite(MAX_TABLE_NUMBER)})"
    items: list[tuple[str, Any]] = []
    if isinstance(value, list):
        if len(value) > MAX_TABLE_ITEMS:
            return f"{key}: {len(value)} items is above the limit of {MAX_TABLE_ITEMS} ({cite(MAX_TABLE_ITEMS)})"
        items = [(str(i), v) for i, v in enumerate(value)]
    elif isinstance(value, dict):
        items = [(str(k), v) for k, v in value.items()]
    for name, item in items:
        problem = _table_problem(item, f"{where}.{name}" if where else name, depth + 1)
        if problem:
            return problem
    return ""


def format_validation_error(source: str, err: ValidationError, prefix: tuple[str | int, ...] = ()) -> str:
    lines = []
    for e in err.errors():
        key = ".".join(str(p) for p in (*prefix, *e["loc"])) or "(top level)"
        lines.append(f"{source}: {key}: {e['msg']}")
    return "\n".join(lines)


def validate_model(model: type[M], data: Any, source: str, prefix: tuple[str | int, ...] = ()) -> M:
    """``model.model_validate(data)``, with errors as ``SOURCE: KEY: PROBLEM``."""
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise ScenarioError(format_validation_error(source, err, prefix)) from None


#: A key of more than MAX_TABLE_DEPTH dotted parts, anywhere in a TOML text (a bare word, or a quoted
#: one, then dots and words). Possessive, and starting only where a word does, so it reads in linear time.
_ATOM = r"""(?:[\w-]++|"[^"\n]*+"|'[^'\n]*+')"""
_DEEP_KEY = re.compile(rf"""(?<![\w"'.-]){_ATOM}(?:[ \t]*+\.[ \t]*+{_ATOM}){{{MAX_TABLE_DEPTH}}}""")


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, refusing first a key nested deeper than any scenario's.

    tomllib walks a dotted key's tables from the top for each of its parts, so
    its time grows with the square of the key's length: 40 KB of ``x.x.x...``
    takes it seconds. So such a key is refused before it is parsed.
    """
    deep = _DEEP_KEY.search(text)
    if deep is not None:
        line = text.count("\n", 0, deep.start()) + 1
        raise ScenarioError(
            f"{source}: line {line}: a key nested more than {MAX_TABLE_DEPTH} deep ({cite(MAX_TABLE_DEPTH)})"
        )
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ScenarioError(f"{source}: not valid TOML: {err}") from None
    except RecursionError:  # tomllib reads nested arrays recursively
        raise ScenarioError(f"{source}: not valid TOML: arrays or tables nested too deeply") from None


def read_toml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_bytes().decode()
    except FileNotFoundError:
        raise ScenarioError(f"{path}: no such file") from None
    except UnicodeDecodeError as err:
        raise ScenarioError(f"{path}: not valid TOML: not UTF-8 ({err.reason} at byte {err.start})") from None
    return parse_toml(text, str(path))


def load_scenario(path: Path) -> Scenario:
    data = read_toml(path)
    data.setdefault("id", path.stem)
    return scenario_from_data(data, str(path))


def scenario_from_toml(text: str, source: str, default_id: str) -> Scenario:
    """A scenario file's text, checked as :func:`load_scenario` checks a file (``id`` defaults to ``default_id``)."""
    data = parse_toml(text, source)
    data.setdefault("id", default_id)
    return scenario_from_data(data, source)


def scenario_from_data(data: Mapping[str, Any], source: str) -> Scenario:
    scenario = validate_model(Scenario, dict(data), source)
    try:
        hex_map = scenario.hex_map()
    except ValueError as err:
        raise ScenarioError(f"{source}: map: {err}") from None
    for i, side in enumerate(scenario.sides):
        for j, ship in enumerate(side.ships):
            try:
                hex_map.locate(ship.at)
            except (KeyError, ValueError) as err:
                raise ScenarioError(f"{source}: sides.{i}.ships.{j}.at: {err.args[0]}") from None
    return scenario
