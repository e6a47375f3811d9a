"""The Vector Movement System's design catalogue: the built-in ships plus a scenario's own designs.

Public: code outside the system and inside it reach the designs here rather
than through the rule-system object. The built-in ``data/ships.toml`` is
parsed once per process (:func:`vectorwar.catalogue.load_designs`).
"""

from __future__ import annotations

from typing import Any

from vectorwar.catalogue import load_designs
from vectorwar.errors import DesignError, ScenarioError
from vectorwar.scenario import Scenario, validate_model
from vectorwar.systems.vms.modules import MODULES
from vectorwar.systems.vms.ships import Design


def design_from_data(data: Any, source: str, key: str) -> Design:
    """Validate one VMS design table and its combat tables; errors name ``source`` and ``key``."""
    try:
        design = validate_model(Design, data, source, (key,))
    except ScenarioError as err:
        raise DesignError(str(err)) from None
    for name, table in design.combat.items():
        if name not in MODULES:
            raise DesignError(f"{source}: {key}.combat.{name}: no combat module {name!r} (known: {', '.join(MODULES)})")
        MODULES[name].card(design.name, table, f"{source}: {key}")
    return design


def designs(scenario: Scenario | None = None) -> dict[str, Design]:
    """The built-in designs by id, with ``scenario``'s own designs added (theirs win on a clash)."""
    return load_designs("vms", design_from_data, scenario)
