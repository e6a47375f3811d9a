"""Minimal Space Combat's design catalogue: the built-in ships plus a scenario's own designs.

Public: code outside the system (front ends, tools) and inside it (set-up,
specials, bots) reach the designs here rather than through the rule-system
object, which keeps every module below ``rules`` free of it. The built-in
``data/ships.toml`` is parsed once per process (:func:`vectorwar.catalogue.load_designs`).
"""

from __future__ import annotations

from vectorwar.catalogue import load_designs
from vectorwar.scenario import Scenario
from vectorwar.systems.msc.design import Design, design_from_data


def designs(scenario: Scenario | None = None) -> dict[str, Design]:
    """The built-in designs by id, with ``scenario``'s own designs added (theirs win on a clash)."""
    return load_designs("msc", design_from_data, scenario)
