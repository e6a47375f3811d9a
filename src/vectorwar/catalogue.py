"""The scenarios and ship designs that ship with each rule system.

A system keeps them in its package, under ``data/scenarios/*.toml`` and
``data/ships.toml``; a scenario is found by its id (the file name without
``.toml``) or by a path to any TOML file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from importlib.resources import as_file, files
from pathlib import Path
from typing import Any, TypeVar

from vectorwar.errors import ScenarioError
from vectorwar.registry import systems
from vectorwar.scenario import Scenario, ShipPlacement, load_scenario, read_toml


@cache  # where a system's package lies stays put for the process: every new game asks
def _data_dir(system_name: str) -> Path | None:
    system = systems()[system_name]
    package = type(system).__module__.rsplit(".", 1)[0]
    root = files(package) / "data"
    with as_file(root) as path:
        return path if path.is_dir() else None


def scenario_paths() -> dict[str, Path]:
    """Built-in scenario files by id, across every registered system."""
    found: dict[str, Path] = {}
    for name in systems():
        data = _data_dir(name)
        if data is None:
            continue
        for path in sorted((data / "scenarios").glob("*.toml")):
            found[path.stem] = path
    return found


def builtin_scenario(name_or_path: str) -> Scenario:
    """A scenario by built-in id, or from a ``.toml`` path."""
    if name_or_path.endswith(".toml") or "/" in name_or_path:
        return load_scenario(Path(name_or_path))
    paths = scenario_paths()
    if name_or_path not in paths:
        raise ScenarioError(
            f"no scenario called {name_or_path!r} (built-in: {', '.join(paths) or 'none'}; or give a .toml path)"
        )
    return load_scenario(paths[name_or_path])


D = TypeVar("D")


def load_designs(
    system_name: str, read: Callable[[Any, str, str], D], scenario: Scenario | None = None
) -> dict[str, D]:
    """The system's catalogue plus a scenario's own designs (which win on a clash).

    ``read(table, source, key)`` validates one design table and raises with
    the source and key in its message.
    """
    out: dict[str, D] = dict(_builtin_designs(_ships_file(system_name), system_name, read))
    if scenario is not None:
        for key, table in scenario.designs.items():
            out[key] = read(table, f"scenario {scenario.id}", f"designs.{key}")
    return out


def design_for(designs: Mapping[str, D], placed: ShipPlacement, where: str) -> D:
    """The design a placement names, refused (naming ``where``) if there is none."""
    design = designs.get(placed.design)
    if design is None:
        raise ScenarioError(f"{where}.design: no design {placed.design!r} (known: {', '.join(sorted(designs))})")
    return design


@cache  # as _data_dir: the file is there or not for the whole process
def _ships_file(system_name: str) -> Path | None:
    data = _data_dir(system_name)
    if data is None or not (data / "ships.toml").is_file():
        return None
    return data / "ships.toml"


def ship_catalogue(system_name: str) -> dict[str, dict[str, Any]]:
    """The system's built-in designs as raw tables, by design id."""
    path = _ships_file(system_name)
    return {} if path is None else read_toml(path)


# Every game used to re-read and re-validate its system's ships.toml (it showed in
# profiles). Designs are frozen, so one parse per (file, reader) serves the process;
# callers get a fresh dict each time, so adding a scenario's designs never leaks.
@cache
def _builtin_designs(path: Path | None, system_name: str, read: Callable[[Any, str, str], Any]) -> Mapping[str, Any]:
    if path is None:
        return {}
    source = f"{system_name} catalogue ships.toml"
    return {k: read(v, source, k) for k, v in read_toml(path).items()}
