"""Finding rule systems: the ``vectorwar.systems`` entry-point group.

Any installed package can add a system by declaring, in its pyproject::

    [project.entry-points."vectorwar.systems"]
    mysystem = "mypackage.rules:system"

where ``system`` is a :class:`~vectorwar.rules.RuleSystem` instance, then reinstalling the package
(``pip install -e .``) so the entry point is written into its metadata.

For tests and plug-in development, ``VECTORWAR_EXTRA_SYSTEMS`` names more systems without
installing anything: a comma-separated list of ``module:attribute`` paths to RuleSystem instances
(the test suite sets it so that a ``vectorwar serve`` subprocess sees its fixture system too).
"""

from __future__ import annotations

import os
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from typing import Any

from vectorwar.errors import UnknownSystemError
from vectorwar.rules import RuleSystem

GROUP = "vectorwar.systems"
#: The environment variable naming systems to load besides the entry points (tests, plug-in work).
EXTRA = "VECTORWAR_EXTRA_SYSTEMS"

_added: dict[str, RuleSystem[Any]] = {}


@cache
def _from_entry_points() -> dict[str, RuleSystem[Any]]:
    found: dict[str, RuleSystem[Any]] = {}
    for ep in entry_points(group=GROUP):
        found[ep.name] = _checked(ep.load(), f"entry point {ep.name} = {ep.value}", ep.name)
    return found


def _checked(system: object, where: str, name: str | None = None) -> RuleSystem[Any]:
    if not isinstance(system, RuleSystem):
        raise TypeError(f"{where} is not a RuleSystem")
    if name is not None and system.manifest.name != name:
        raise TypeError(f"{where} names a system called {system.manifest.name!r}")
    return system


@cache
def _from_environment(paths: str) -> dict[str, RuleSystem[Any]]:
    found: dict[str, RuleSystem[Any]] = {}
    for path in filter(None, (p.strip() for p in paths.split(","))):
        module, _, attribute = path.partition(":")
        if not attribute:
            raise TypeError(f"{EXTRA} entry {path!r} is not module:attribute")
        system = _checked(getattr(import_module(module), attribute), f"{EXTRA} entry {path}")
        found[system.manifest.name] = system
    return found


def register(system: RuleSystem[Any]) -> None:
    """Add a system in-process (for tests and notebooks); entry points are the normal way."""
    _added[system.manifest.name] = system


def systems() -> dict[str, RuleSystem[Any]]:
    """Every registered system by name, sorted."""
    merged = {**_from_entry_points(), **_from_environment(os.environ.get(EXTRA, "")), **_added}
    return dict(sorted(merged.items()))


def get_system(name: str) -> RuleSystem[Any]:
    found = systems()
    if name not in found:
        known = ", ".join(found) or "none installed"
        raise UnknownSystemError(f"no rule system called {name!r} (known: {known})")
    return found[name]
