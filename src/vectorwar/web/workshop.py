"""The designer's workshop: ship designs checked by their system's own design rules, and a player's fleet.

Every check goes through the rule system's hooks (``design_schema``, ``design_cards``,
``catalogue_table``), the same ones ``vectorwar design FILE`` uses, so the browser and the command
line accept and refuse the same designs with the same words. A fleet is a list of legal designs kept
on the server under a fleet token the browser makes and keeps; the store holds only its hash. A
fleet exports as the TOML file the command line reads (one ``[table]`` per design) and imports from
one.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, FastAPI, Path, Request, Security
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import JSON, DateTime, String, delete, func, select
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker
from starlette.requests import HTTPConnection

from vectorwar.catalogue import scenario_paths, ship_catalogue
from vectorwar.display import Card
from vectorwar.errors import DesignError, ScenarioError, UnknownSystemError, VectorwarError
from vectorwar.registry import get_system, systems
from vectorwar.scenario import Scenario, load_scenario, parse_toml
from vectorwar.web.imports import IMPORT_PATH, MAX_IMPORT_BYTES, ImportRefused
from vectorwar.web.labdesk import LAB_GAMES, MAX_LAB_GAMES, LabBusy, LabDesk, LabFailed, prepare
from vectorwar.web.referee import open_game
from vectorwar.web.responses import error, error_responses
from vectorwar.web.service import GameService
from vectorwar.web.service_core import within_budget
from vectorwar.web.store import Base, Store, token_hash

#: Designs one fleet may hold (all systems together).
MAX_FLEET_DESIGNS = 60
#: Characters of one design as JSON: every shipped design is under 5,000 (AV:T's SSDs the largest).
MAX_DESIGN_CHARS = 8_000
#: Characters of a TOML file to import (a whole fleet).
MAX_IMPORT_CHARS = 60_000
#: A fleet token: what the browser makes (random, URL-safe); long enough that nobody guesses one.
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{20,100}$"
#: A design's key: the TOML table name a scenario's ``design = "..."`` names.
KEY_PATTERN = r"^[a-z0-9][a-z0-9_-]{0,39}$"
#: Designs kept on the server over every fleet: fleets cost nothing to make, so their sum is bounded too.
MAX_STORED_DESIGNS = 100_000
#: Characters of a scenario file the editor writes (the same limit as a scenario sent to POST /api/games).
MAX_SCENARIO_CHARS = 60_000
#: How deep a design's tables and lists may nest (the deepest shipped design nests three).
MAX_DEPTH = 6


class WorkshopRefused(VectorwarError, ValueError):
    """A workshop request that cannot be done: what is wrong, in words."""


# -- checking a design ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing a design breaks: the field (dotted path, "" for the whole design), what, the rule that
    says so (as the system names it, "" when its message names none) and what the field is (its
    schema's description, which states the field's limits)."""

    field: str
    message: str
    rule: str
    about: str


def _rule_of(text: str) -> str:
    # The systems end a design rule's message (and a field's description) with the rule in brackets.
    found = re.search(r"\(([^()]*)\)\s*$", text)
    return found.group(1) if found else ""


def _descriptions(schema: Mapping[str, Any]) -> dict[str, str]:
    props = schema.get("properties", {})
    return {name: str(spec.get("description", "")) for name, spec in props.items() if isinstance(spec, dict)}


def problems_of(err: DesignError, source: str, key: str, schema: Mapping[str, Any]) -> list[Problem]:
    """The design error's lines as problems; a bound the schema states gets the rule its field names."""
    described = _descriptions(schema)
    found = []
    prefix = f"{source}: {key}"
    for line in str(err).splitlines():
        line = line.strip()
        if not line:
            continue
        where, message = "", line
        if line.startswith(prefix):
            head, sep, tail = line[len(prefix) :].partition(": ")
            if sep:
                where, message = head.lstrip("."), tail
        message = message.removeprefix("Value error, ")
        about = described.get(re.split(r"[.\[]", where)[0], "") if where else ""
        found.append(Problem(where, message, _rule_of(message) or _rule_of(about), about))
    return found


def _depth(value: Any, level: int = 0) -> int:
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def bounded_design(design: Mapping[str, Any]) -> dict[str, Any]:
    """The design as plain data, refused when too large or nested too deeply to be a ship."""
    try:
        text = json.dumps(design, allow_nan=False)
    except ValueError:
        raise WorkshopRefused("a design may hold no NaN or infinite numbers") from None
    if len(text) > MAX_DESIGN_CHARS:
        raise WorkshopRefused(
            f"a design may be at most {MAX_DESIGN_CHARS} characters as JSON; this one has {len(text)}"
        )
    if _depth(design) > MAX_DEPTH:
        raise WorkshopRefused(f"a design's tables and lists may nest at most {MAX_DEPTH} deep")
    data: dict[str, Any] = json.loads(text)
    return data


def designer(system_name: str) -> Any:
    """The rule system, refused unless it exists; whether it has a designer is the caller's to ask."""
    try:
        return get_system(system_name)
    except UnknownSystemError as err:
        raise WorkshopRefused(str(err)) from None


@dataclass(frozen=True, slots=True)
class Checked:
    """A design as its system's rules see it: legal or not, why not, its record card and its TOML."""

    system: str
    key: str
    legal: bool
    problems: list[Problem]
    cards: list[Card]
    toml: str
    design: dict[str, Any]


def checked_key(key: str) -> str:
    """A design's key, refused in words unless a scenario's ``design = "..."`` can name it."""
    if not re.fullmatch(KEY_PATTERN, key):
        raise WorkshopRefused(
            f"{key[:60]!r} is no design key: one to 40 lower-case letters, digits, - and _, starting with a letter"
            " or digit (a scenario names the design by it)"
        )
    return key


def check_design(system_name: str, key: str, design: Mapping[str, Any]) -> Checked:
    """Check one design with the system's own design rules (``RuleSystem.design_cards``)."""
    checked_key(key)
    rules = designer(system_name)
    schema = rules.design_schema()
    if schema is None:
        raise WorkshopRefused(f"{system_name} has no ship designer: its designs are shown as they are")
    data = bounded_design(design)
    source = "design"
    try:
        cards = rules.design_cards({key: data}, source) or []
    except DesignError as err:
        problems = problems_of(err, source, key, schema)
        return Checked(system_name, key, False, problems, [], to_toml({key: data}), data)
    return Checked(system_name, key, True, [], list(cards), to_toml({key: data}), data)


def checked_out(checked: Checked) -> dict[str, Any]:
    return {
        "system": checked.system,
        "key": checked.key,
        "legal": checked.legal,
        "problems": [asdict(p) for p in checked.problems],
        "cards": [_card_out(c) for c in checked.cards],
        "toml": checked.toml,
        "design": checked.design,
    }


def _card_out(card: Card) -> dict[str, Any]:
    table = None if card.table is None else {"headers": card.table.headers, "rows": card.table.rows}
    return {"title": card.title, "side": card.side, "rows": card.rows, "table": table, "status": card.status}


# -- TOML, as the command line reads it ----------------------------------------------------------

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _string(text: str) -> str:
    # A TOML basic string on one line: quotes, backslashes and control characters (DEL too) escaped.
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _key(name: str) -> str:
    return name if _BARE_KEY.fullmatch(name) else _string(name)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise WorkshopRefused("a design may hold no NaN or infinite numbers")
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + " }"
    raise WorkshopRefused(f"a design may hold only numbers, text, true/false, lists and tables, not {value!r}")


def to_toml(designs: Mapping[str, Mapping[str, Any]]) -> str:
    """Designs as a TOML file of one ``[table]`` per design, the file ``vectorwar design`` reads."""
    parts = []
    for key, table in designs.items():
        lines = [f"[{_key(key)}]"]
        lines += [f"{_key(str(k))} = {_value(v)}" for k, v in table.items() if v is not None]
        parts.append("\n".join(lines) + "\n")
    return "\n".join(parts)


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _document(data: Mapping[str, Any], prefix: str, out: list[str]) -> None:
    # A table's plain keys first (TOML puts every key of a table before its sub-tables), then each
    # sub-table as [prefix.key] and each list of tables as [[prefix.key]], recursively.
    for k, v in data.items():
        if v is not None and not isinstance(v, dict) and not _is_tables(v):
            out.append(f"{_key(str(k))} = {_value(v)}")
    for k, v in data.items():
        name = f"{prefix}.{_key(str(k))}" if prefix else _key(str(k))
        if isinstance(v, dict):
            out.append(f"\n[{name}]")
            _document(v, name, out)
        elif _is_tables(v):
            for item in v:
                out.append(f"\n[[{name}]]")
                _document(item, name, out)


def toml_document(data: Mapping[str, Any]) -> str:
    """Any plain data as a TOML document: tables as ``[table]``, lists of tables as ``[[table]]``."""
    out: list[str] = []
    _document(data, "", out)
    return "\n".join(out).lstrip("\n") + "\n"


def from_toml(text: str) -> dict[str, dict[str, Any]]:
    """A TOML file of designs, one ``[table]`` per design; refused when it is not one."""
    try:  # the scenario reader's bound on nested keys holds here too (tomllib is slow on deep ones)
        data = parse_toml(text, "the designs file")
    except ScenarioError as err:
        raise WorkshopRefused(str(err)) from None
    if not data:
        raise WorkshopRefused("no designs in it (one [table] per design)")
    if len(data) > MAX_FLEET_DESIGNS:
        raise WorkshopRefused(f"a file may hold at most {MAX_FLEET_DESIGNS} designs; this one has {len(data)}")
    out = {}
    for key, table in data.items():
        if not isinstance(table, dict):
            raise WorkshopRefused(f"{key}: a design is a [table]; this is a plain value")
        out[checked_key(key)] = bounded_design(table)
    return out


# -- scenarios ---------------------------------------------------------------------------------

#: Seconds a scenario's check (its set-up) or a file of designs' checks may take: each takes milliseconds.
SCENARIO_BUDGET = 5.0


@dataclass(frozen=True, slots=True)
class ScenarioChecked:
    """A scenario as set-up sees it: whether a game can start from it, why not, and its file."""

    ok: bool
    problem: str
    toml: str
    #: What set-up lets pass but a designer would want to know (terrain off the map, a kind unknown).
    warnings: list[str]


def scenario_warnings(scenario: Scenario, kinds: list[str]) -> list[str]:
    """Terrain set-up takes but play may not read: hexes off the map, kinds the system's scenarios never use."""
    found = []
    board = scenario.hex_map()
    for i, t in enumerate(scenario.map.terrain):
        if not board.contains(board.locate(t.at)):
            found.append(f"map.terrain.{i}: hex {t.at} is not on the map")
        if kinds and t.kind not in kinds:
            found.append(
                f"map.terrain.{i}: {t.kind!r} is no kind this system's scenarios use ({', '.join(kinds)}); "
                "its rules may not read it"
            )
    return found


def check_scenario(data: Mapping[str, Any]) -> ScenarioChecked:
    """The scenario as a TOML file, set up as ``POST /api/games`` sets one up (``scenario_toml``)."""
    try:
        text = toml_document(data)
    except RecursionError:
        raise WorkshopRefused("a scenario's tables may not nest that deep") from None
    if len(text) > MAX_SCENARIO_CHARS:
        raise WorkshopRefused(
            f"a scenario file may be at most {MAX_SCENARIO_CHARS} characters; this one has {len(text)}"
        )
    try:
        opening = open_game("", {}, False, 0, scenario_toml=text)
    except VectorwarError as err:
        return ScenarioChecked(False, str(err), text, [])
    scenario = opening.setup.game.scenario
    return ScenarioChecked(True, "", text, scenario_warnings(scenario, terrain_kinds().get(scenario.system, [])))


# -- the systems' designers ----------------------------------------------------------------------


def terrain_kinds() -> dict[str, list[str]]:
    """By system, the terrain kinds its own built-in scenarios use (what a scenario editor may offer)."""
    kinds: dict[str, set[str]] = {}
    for path in scenario_paths().values():
        try:
            scenario = load_scenario(path)
        except VectorwarError:
            continue
        kinds.setdefault(scenario.system, set()).update(t.kind for t in scenario.map.terrain)
    return {name: sorted(found) for name, found in kinds.items()}


#: The set-up step of a scenario's start zones, ``[setup.deploy.zone.SIDE]`` with ``cols``, ``rows`` and
#: ``facing`` (MSC 5.0; systems/msc/deploy.py reads it).
START_ZONES = "deploy"
#: Rule options that say how a side wins are named so (MSC's ``victory`` and ``victory_turns``): the
#: editor shows them with the turn limit.
VICTORY_PREFIX = "victory"


def workshop_systems() -> list[dict[str, Any]]:
    """Each system with designs: its title, its schema (none: read-only), its catalogue as raw tables, the
    terrain kinds its scenarios use, whether its scenarios may draw start zones and its victory options."""
    terrain = terrain_kinds()
    out = []
    for name, rules in systems().items():
        catalogue = ship_catalogue(name)
        schema = rules.design_schema()
        if schema is None and not catalogue:
            continue
        table = rules.catalogue_table()
        out.append(
            {
                "system": name,
                "title": rules.manifest.title,
                "editable": schema is not None,
                "schema": schema,
                "catalogue": catalogue,
                "catalogue_table": None if table is None else {"headers": table.headers, "rows": table.rows},
                "terrain": terrain.get(name, []),
                # The set-up step that places each side's ships in a start zone (MSC's [setup.deploy]).
                "start_zones": START_ZONES in rules.setup_steps,
                "victory": [o.name for o in rules.manifest.options if o.name.startswith(VICTORY_PREFIX)],
            }
        )
    return out


# -- the fleets' store ---------------------------------------------------------------------------


class FleetRow(Base):
    __tablename__ = "fleet_designs"

    fleet: Mapped[str] = mapped_column(String(64), primary_key=True)  # the fleet token's hash
    system: Mapped[str] = mapped_column(String(40), primary_key=True)
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    design: Mapped[dict[str, Any]] = mapped_column(JSON)
    saved: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True, slots=True)
class FleetDesign:
    system: str
    key: str
    design: dict[str, Any]


class FleetFull(WorkshopRefused):
    """The fleet holds as many designs as it may."""


class FleetStore:
    """The fleets' rows on the server's database (each method one transaction)."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def list(self, fleet: str) -> list[FleetDesign]:
        with self._sessions() as db:
            rows = db.scalars(
                select(FleetRow).where(FleetRow.fleet == fleet).order_by(FleetRow.system, FleetRow.key)
            ).all()
            return [FleetDesign(r.system, r.key, dict(r.design)) for r in rows]

    def save(self, fleet: str, item: FleetDesign) -> None:
        with self._sessions.begin() as db:
            row = db.get(FleetRow, (fleet, item.system, item.key))
            if row is not None:
                row.design = item.design
                row.saved = datetime.now(UTC)
                return
            count = db.scalar(select(func.count()).select_from(FleetRow).where(FleetRow.fleet == fleet)) or 0
            stored = db.scalar(select(func.count()).select_from(FleetRow)) or 0
            if stored >= MAX_STORED_DESIGNS:
                raise FleetFull(f"this server keeps at most {MAX_STORED_DESIGNS} designs over all fleets, and has them")
            if count >= MAX_FLEET_DESIGNS:
                raise FleetFull(
                    f"a fleet may hold at most {MAX_FLEET_DESIGNS} designs: delete one before saving another"
                )
            db.add(FleetRow(fleet=fleet, system=item.system, key=item.key, design=item.design, saved=datetime.now(UTC)))

    def delete(self, fleet: str, system: str, key: str) -> bool:
        with self._sessions.begin() as db:
            gone = db.execute(
                delete(FleetRow).where(FleetRow.fleet == fleet, FleetRow.system == system, FleetRow.key == key)
            )
            return bool(getattr(gone, "rowcount", 0))


# -- the routes ----------------------------------------------------------------------------------

router = APIRouter(prefix="/api/workshop", tags=["workshop"])

_BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="fleet token",
    description="The fleet token the browser made and keeps: whoever holds it may change the fleet",
)


def install(app: FastAPI, store: Store) -> None:
    """The routes, the fleets' store on the server's database, and the answer to a refusal."""
    app.state.fleets = FleetStore(store)
    app.include_router(router)
    app.include_router(samples)
    app.state.lab = LabDesk()

    @app.exception_handler(LabBusy)
    async def lab_busy(_request: Request, err: Exception) -> JSONResponse:
        answer = error(429, "LabBusy", str(err))
        answer.headers["Retry-After"] = str(max(1, round(err.retry_after if isinstance(err, LabBusy) else 1)))
        return answer

    @app.exception_handler(LabFailed)
    async def lab_failed(_request: Request, err: Exception) -> JSONResponse:
        return error(422, "LabFailed", str(err))

    @app.exception_handler(ImportRefused)
    async def not_imported(_request: Request, err: Exception) -> JSONResponse:
        return error(422, "BadSaveFile", str(err))

    @app.exception_handler(WorkshopRefused)
    async def refused(_request: Request, err: Exception) -> JSONResponse:
        return _refused(err) if isinstance(err, WorkshopRefused) else error(422, type(err).__name__, str(err))


def _fleets(request: HTTPConnection) -> FleetStore:
    fleets: FleetStore = request.app.state.fleets
    return fleets


Fleets = Annotated[FleetStore, Depends(_fleets)]


def _fleet(header: Annotated[HTTPAuthorizationCredentials | None, Security(_BEARER)]) -> str:
    if header is None or not re.fullmatch(TOKEN_PATTERN, header.credentials):
        raise WorkshopRefused(
            "a fleet is named by its fleet token (Authorization: Bearer TOKEN, 20 to 100 letters, digits, - or _)"
        )
    return token_hash(header.credentials)


Fleet = Annotated[str, Depends(_fleet)]
SystemName = Annotated[str, Path(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9_-]*$")]
DesignKey = Annotated[str, Path(max_length=200, description="The design's key: its TOML table name")]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DesignBody(_Body):
    key: str = Field(
        default="mydesign", max_length=200, description="The design's key (its TOML table name): " + KEY_PATTERN
    )
    design: dict[str, Any] = Field(description="The design's fields, as the system's design schema describes")


class SaveBody(_Body):
    design: dict[str, Any] = Field(description="The design's fields, as the system's design schema describes")


class ScenarioBody(_Body):
    scenario: dict[str, Any] = Field(
        description="The scenario as `vectorwar schema scenario` describes it (its designs in `designs`)"
    )


class LabBody(ScenarioBody):
    games: int = Field(default=LAB_GAMES, ge=1, le=MAX_LAB_GAMES, description="Games to play, seeds 0, 1, ...")


class ImportBody(_Body):
    toml: str = Field(min_length=1, max_length=MAX_IMPORT_CHARS, description="A TOML file of designs")


_REFUSALS = error_responses(404, 409, 413, 422)


class OverBudget(WorkshopRefused):
    """A check that took longer than the server gives it."""


R = TypeVar("R")


async def _within_budget(fn: Callable[..., R], *args: Any) -> R:
    return await within_budget(SCENARIO_BUDGET, _over_budget, fn, *args)


def _over_budget(seconds: float) -> OverBudget:
    return OverBudget(f"checking took longer than the server's budget of {seconds:g} s")


def _refused(err: WorkshopRefused) -> JSONResponse:
    return error(409 if isinstance(err, FleetFull) else 422, type(err).__name__, str(err))


@router.get("/systems", summary="The systems' designers: each one's design schema and catalogue")
async def list_designers() -> JSONResponse:
    return JSONResponse(await asyncio.to_thread(workshop_systems))


@router.post("/{system}/check", summary="Check a design with its system's design rules", responses=_REFUSALS)
async def check(system: SystemName, body: DesignBody) -> JSONResponse:
    try:
        checked = await _within_budget(check_design, system, body.key, body.design)
    except WorkshopRefused as err:
        return _refused(err)
    return JSONResponse(checked_out(checked))


@router.post("/{system}/import", summary="Read a TOML file of designs and check each one", responses=_REFUSALS)
async def import_designs(system: SystemName, body: ImportBody) -> JSONResponse:
    def work() -> list[dict[str, Any]]:
        return [checked_out(check_design(system, k, v)) for k, v in from_toml(body.toml).items()]

    try:
        return JSONResponse({"designs": await _within_budget(work)})
    except WorkshopRefused as err:
        return _refused(err)


@router.get("/fleet", summary="The designs in a fleet", responses=_REFUSALS)
async def fleet_list(fleets: Fleets, fleet: Fleet) -> JSONResponse:
    found = await asyncio.to_thread(fleets.list, fleet)
    return JSONResponse({"designs": [asdict(d) for d in found], "limit": MAX_FLEET_DESIGNS})


@router.put(
    "/fleet/{system}/{key}", summary="Save a legal design to the fleet (replacing one of that key)", responses=_REFUSALS
)
async def fleet_save(system: SystemName, key: DesignKey, body: SaveBody, fleets: Fleets, fleet: Fleet) -> JSONResponse:
    try:
        checked = await _within_budget(check_design, system, key, body.design)
        if not checked.legal:
            first = checked.problems[0]
            return error(
                422,
                "DesignError",
                f"only a legal design can be saved: {first.field or key}: {first.message}"
                + (f" ({first.about})" if first.about and not first.rule else ""),
                rule=first.rule or None,
            )
        await asyncio.to_thread(fleets.save, fleet, FleetDesign(system, key, bounded_design(body.design)))
    except WorkshopRefused as err:
        return _refused(err)
    return JSONResponse(checked_out(checked))


@router.delete("/fleet/{system}/{key}", summary="Delete a design from the fleet", responses=_REFUSALS)
async def fleet_delete(system: SystemName, key: DesignKey, fleets: Fleets, fleet: Fleet) -> JSONResponse:
    if not await asyncio.to_thread(fleets.delete, fleet, system, key):
        return error(404, "NotFound", f"the fleet has no {system} design {key!r}")
    return JSONResponse({"deleted": key})


@router.get(
    "/fleet/{system}.toml",
    summary="The fleet's designs of one system as the TOML file `vectorwar design` reads",
    responses=_REFUSALS,
)
async def fleet_export(system: SystemName, fleets: Fleets, fleet: Fleet) -> Response:
    found = [d for d in await asyncio.to_thread(fleets.list, fleet) if d.system == system]
    if not found:
        return error(404, "NotFound", f"the fleet has no {system} designs")
    text = f"# {system} designs from a vectorwar fleet: check with `vectorwar design {system} FILE`\n\n"
    text += to_toml({d.key: d.design for d in found})
    return Response(
        text,
        media_type="application/toml",
        headers={"Content-Disposition": f'attachment; filename="{system}-fleet.toml"'},
    )


@router.post(
    "/scenario",
    summary="Check a scenario as set-up does; answers its TOML file for POST /api/games",
    responses=_REFUSALS,
)
async def scenario_check(body: ScenarioBody) -> JSONResponse:
    try:
        if _depth(body.scenario) > MAX_DEPTH + 3:
            raise WorkshopRefused(f"a scenario's tables and lists may nest at most {MAX_DEPTH + 3} deep")
        checked = await _within_budget(check_scenario, body.scenario)
    except WorkshopRefused as err:
        return _refused(err)
    return JSONResponse(asdict(checked))


# -- a save file brought in to watch (web/imports.py) -----------------------------------------------

samples = APIRouter(tags=["lobby"])


@samples.post(
    IMPORT_PATH,
    status_code=201,
    summary="Import a finished game's save file (a lab sample, `vectorwar play`'s) to watch its replay",
    responses=error_responses(413, 422),
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": f"The save file as it is written (JSON), at most {MAX_IMPORT_BYTES} bytes",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
async def import_game(request: Request) -> JSONResponse:
    service: GameService = request.app.state.service
    game_id = await service.import_game(await request.body())
    return JSONResponse(
        {"id": game_id, "spectate_url": f"/games/{game_id}", "replay_url": f"/games/{game_id}?replay"},
        status_code=201,
    )


@router.post(
    "/lab",
    summary="Play a scenario a few dozen times between computer players on the server: its win/draw/loss figures",
    responses=error_responses(413, 422, 429),
)
async def lab_run(body: LabBody, request: Request) -> JSONResponse:
    desk: LabDesk = request.app.state.lab
    try:
        if _depth(body.scenario) > MAX_DEPTH + 3:
            raise WorkshopRefused(f"a scenario's tables and lists may nest at most {MAX_DEPTH + 3} deep")
        checked = await _within_budget(check_scenario, body.scenario)
        if not checked.ok:
            return error(422, "BadSetup", checked.problem)
        prepared = await _within_budget(prepare, checked.toml)
    except WorkshopRefused as err:
        return _refused(err)
    except VectorwarError as err:
        return error(422, "BadSetup", str(err))
    return JSONResponse({**await desk.run(prepared, body.games), "toml": checked.toml})
