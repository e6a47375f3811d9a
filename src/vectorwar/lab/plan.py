"""Sweeps and tournaments from a small TOML file (the schema is in docs/lab.md).

A plan names a scenario and the sides' bots, and varies any of:

* ``design.KEY.FIELD``: a field of a ship design (the scenario's own, else the catalogue's);
* ``option.NAME``: a rule option;
* ``side.SIDE``: the bot in a side;
* ``fleet.SIDE``: a design every ship of a side flies;

over a grid (every combination of the ``[grid]`` lists), over explicit
``[[points]]`` (for values that must change together, like a BP split at
equal cost), or both (every point with every grid combination). A
``[tournament]`` table plays every ordering of its bots (or designs) in the sides.
"""

from __future__ import annotations

import itertools
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from vectorwar.catalogue import builtin_scenario, ship_catalogue
from vectorwar.errors import ScenarioError
from vectorwar.lab.adapter import bot_names, check_setup
from vectorwar.lab.games import Job
from vectorwar.lab.runner import LabError
from vectorwar.scenario import scenario_from_data

#: Games a set-up when a plan names none: enough that a 95% interval on a win rate is about 3 points either way.
DEFAULT_GAMES = 1000

PLAN_KEYS = {"scenario", "games", "first_seed", "sides", "options", "grid", "points", "tournament"}


def load_plan(path: Path) -> list[Job]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LabError(f"{path}: no such plan file") from None
    except tomllib.TOMLDecodeError as err:
        raise LabError(f"{path}: not valid TOML: {err}") from None
    return plan_jobs(data, str(path))


def plan_jobs(data: Mapping[str, Any], source: str) -> list[Job]:
    """The jobs a plan stands for, each checked by setting its game up once."""
    _check_keys(data, source)
    scenario = builtin_scenario(str(data["scenario"]))
    games = _positive(data.get("games", DEFAULT_GAMES), f"{source}: games")
    first_seed = int(data.get("first_seed", 0))
    sides = [s.id for s in scenario.sides]
    bots = bot_names(scenario.system)
    default_bot = "greedy" if "greedy" in bots else "random"
    base_sides = dict.fromkeys(sides, default_bot) | dict(data.get("sides", {}))
    settings = _grid_settings(data, source)
    tournament = data.get("tournament")
    if tournament is not None:
        settings = _tournament_settings(settings, tournament, sides, bots, source)
    jobs: list[Job] = []
    for index, setting in enumerate(settings):
        label = str(setting.pop("label", ""))
        job = _job(index, scenario.to_data(), base_sides, dict(data.get("options", {})), setting, source)
        jobs.append(
            Job(
                index=index,
                scenario=job[0],
                controllers=job[1],
                options=job[2],
                games=games,
                first_seed=first_seed,
                label=label or ", ".join(f"{k}={v}" for k, v in setting.items()),
                params=setting,
            )
        )
        _check(jobs[-1], bots, sides, f"{source}: {jobs[-1].label or 'the base set-up'}")
    return jobs


def _check_keys(data: Mapping[str, Any], source: str) -> None:
    """Refuse a plan with a key it does not know (a typo would silently sweep nothing) or no scenario."""
    unknown = sorted(set(data) - PLAN_KEYS)
    if unknown:
        raise LabError(f"{source}: unknown key {unknown[0]!r} (known: {', '.join(sorted(PLAN_KEYS))})")
    if "scenario" not in data:
        raise LabError(f"{source}: scenario: missing (a built-in scenario id or a .toml path)")


def _grid_settings(data: Mapping[str, Any], source: str) -> list[dict[str, Any]]:
    """Every ``[[points]]`` entry with every combination of the ``[grid]`` lists (one empty setting for neither)."""
    grid = dict(data.get("grid", {}))
    for key, values in grid.items():
        if not isinstance(values, list) or not values:
            raise LabError(f"{source}: grid.{key}: give a non-empty list of values")
    points: list[dict[str, Any]] = [dict(p) for p in data.get("points", [])] or [{}]
    combos = [dict(zip(grid, values, strict=True)) for values in itertools.product(*grid.values())]
    return [{**point, **combo} for point in points for combo in combos]


def _tournament_settings(
    settings: list[dict[str, Any]], tournament: Mapping[str, Any], sides: list[str], bots: list[str], source: str
) -> list[dict[str, Any]]:
    """Each setting once for every ordering of the tournament's bots (or designs) in the sides."""
    if "bots" in tournament and "designs" in tournament:
        raise LabError(f"{source}: tournament: give bots or designs, not both (sweep the other in [grid])")
    what, kind = ("designs", "fleet") if "designs" in tournament else ("bots", "side")
    entrants = list(tournament.get(what, bots))
    if len(entrants) < len(sides):
        raise LabError(f"{source}: tournament.{what}: {len(sides)} sides need at least {len(sides)} {what}")
    return [
        {**s, **{f"{kind}.{side}": entrant for side, entrant in zip(sides, order, strict=True)}}
        for s in settings
        for order in itertools.permutations(entrants, len(sides))
    ]


def _job(
    index: int,
    scenario: dict[str, Any],
    sides: dict[str, str],
    options: dict[str, object],
    setting: Mapping[str, Any],
    source: str,
) -> tuple[dict[str, Any], dict[str, str], dict[str, object]]:
    sides = dict(sides)
    fleets: dict[str, str] = {}
    designs: dict[str, dict[str, Any]] = {k: dict(v) for k, v in scenario.get("designs", {}).items()}
    for key, value in setting.items():
        kind, _, rest = key.partition(".")
        if kind == "option" and rest:
            options[rest] = value
        elif kind == "side" and rest:
            sides[rest] = str(value)
        elif kind == "fleet" and rest:
            fleets[rest] = str(value)
        elif kind == "design" and rest.count(".") == 1:
            _set_design_field(designs, scenario["system"], key, value, source)
        else:
            raise LabError(
                f"{source}: {key!r} is not a thing a plan can vary "
                "(design.KEY.FIELD, option.NAME, side.SIDE or fleet.SIDE)"
            )
    entries = []
    for entry in scenario["sides"]:
        if entry["id"] in fleets:
            entry = {**entry, "ships": [{**ship, "design": fleets[entry["id"]]} for ship in entry["ships"]]}
        entries.append(entry)
    unknown = sorted(set(fleets) - {entry["id"] for entry in entries})
    if unknown:
        raise LabError(f"{source}: fleet.{unknown[0]}: no such side (sides: {', '.join(s['id'] for s in entries)})")
    return {**scenario, "designs": designs, "sides": entries}, sides, options


def _set_design_field(designs: dict[str, dict[str, Any]], system: str, key: str, value: Any, source: str) -> None:
    """Set ``design.KEY.FIELD``; a design the scenario lacks is copied from the catalogue first."""
    design, field = key.removeprefix("design.").split(".")
    if design not in designs:
        catalogue = ship_catalogue(system)
        if design not in catalogue:
            raise LabError(f"{source}: {key}: no design {design!r} in the scenario or the catalogue")
        designs[design] = dict(catalogue[design])
    designs[design][field] = value


def _check(job: Job, bots: list[str], sides: list[str], where: str) -> None:
    for side, bot in job.controllers.items():
        if side not in sides:
            raise LabError(f"{where}: no side {side!r} (sides: {', '.join(sides)})")
        if bot not in bots:
            raise LabError(f"{where}: side {side}: no computer player {bot!r} (known: {', '.join(bots)})")
    try:
        check_setup(scenario_from_data(job.scenario, where), job.options)
    except ScenarioError as err:
        raise LabError(f"{where}: {err}") from None


def _positive(value: object, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise LabError(f"{where}: give a whole number of games, at least 1, got {value!r}")
    return value
