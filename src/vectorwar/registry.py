"""Finding rule systems: the ``vectorwar.systems`` entry-point group.

Any installed package can add a system by declaring, in its pyproject::

    [project.entry-points."vectorwar.systems"]
    mysystem = "mypackage.rules:system"

where ``system`` is a :class:`~vectorwar.rules.RuleSystem` instance.
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import Any

from vectorwar.errors import UnknownSystemError
from vectorwar.rules import RuleSystem

GROUP = "vectorwar.systems"

_added: dict[str, RuleSystem[Any]] = {}


@cache
def _from_entry_points() -> dict[str, RuleSystem[Any]]:
    found: dict[str, RuleSystem[Any]] = {}
    for ep in entry_points(group=GROUP):
        system = ep.load()
        if not isinstance(system, RuleSystem):
            raise TypeError(f"entry point {ep.name} = {ep.value} is not a RuleSystem")
        if system.manifest.name != ep.name:
            raise TypeError(f"entry point {ep.name} names a system called {system.manifest.name!r}")
        found[ep.name] = system
    return found


def register(system: RuleSystem[Any]) -> None:
    """Add a system in-process (for tests and notebooks); entry points are the normal way."""
    _added[system.manifest.name] = system


def systems() -> dict[str, RuleSystem[Any]]:
    """Every registered system by name, sorted."""
    merged = {**_from_entry_points(), **_added}
    return dict(sorted(merged.items()))


def get_system(name: str) -> RuleSystem[Any]:
    found = systems()
    if name not in found:
        known = ", ".join(found) or "none installed"
        raise UnknownSystemError(f"no rule system called {name!r} (known: {known})")
    return found[name]
