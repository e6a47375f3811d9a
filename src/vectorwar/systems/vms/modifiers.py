"""Initiative modifiers a scenario gives (Rules Changes, Initiative: "the ship sheets, the scenario, and page 8").

The design carries the sheet's modifier; a scenario adds its own in
``[[special.initiative]]`` tables, each naming ships or a whole side, a
modifier, why, and optionally the turns it holds on (the text's "launched
this turn", -10, is a modifier for one turn):

.. code-block:: toml

    [[special.initiative]]
    side = "blue"
    modifier = 1
    reason = "race"

    [[special.initiative]]
    ships = ["Wasp1", "Wasp2"]
    modifier = -10
    reason = "launched this turn"
    turns = [1]

>>> m = InitiativeModifier(-10, "launched this turn", (1,))
>>> m.applies(1), m.applies(2), str(m)
(True, False, 'launched this turn -10 (turn 1)')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from vectorwar.errors import ScenarioError
from vectorwar.scenario import validate_model


@dataclass(frozen=True, slots=True)
class InitiativeModifier:
    """One scenario modifier on one ship; ``turns`` empty means every turn."""

    value: int
    reason: str
    turns: tuple[int, ...] = ()

    def applies(self, turn: int) -> bool:
        return not self.turns or turn in self.turns

    def __str__(self) -> str:
        when = f" (turn {', '.join(map(str, self.turns))})" if self.turns else ""
        return f"{self.reason} {self.value:+d}{when}"


class InitiativeRule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    ships: list[str] = Field(default_factory=list, description="Ship ids the modifier applies to")
    side: str = Field(default="", description="A side whose every ship the modifier applies to")
    modifier: int = Field(description="Added to the ship's initiative total, e.g. +1 for race, -10 launched")
    reason: str = Field(min_length=1, description="Why, shown on the card and in the log")
    turns: list[int] = Field(default_factory=list, description="Only on these turns (empty: every turn)")

    @model_validator(mode="after")
    def _names_ships(self) -> InitiativeRule:
        if bool(self.ships) == bool(self.side):
            raise ValueError("give either ships or side")
        return self


class VMSSpecial(BaseModel):
    """The VMS part of a scenario's ``[special]`` table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    initiative: list[InitiativeRule] = Field(default_factory=list)


def scenario_modifiers(
    special: Mapping[str, Any], ships: Iterable[tuple[str, str]], source: str
) -> dict[str, tuple[InitiativeModifier, ...]]:
    """Each ship's scenario modifiers from ``special``; ``ships`` is (ship id, side id) pairs.

    A rule naming a ship or side the scenario does not have is refused: a
    typo would otherwise silently drop the modifier.
    """
    rules = validate_model(VMSSpecial, dict(special), source, ("special",)).initiative
    sides: dict[str, list[str]] = {}
    for ship_id, side in ships:
        sides.setdefault(side, []).append(ship_id)
    known = {s for ids in sides.values() for s in ids}
    out: dict[str, list[InitiativeModifier]] = {s: [] for s in known}
    for i, rule in enumerate(rules):
        if rule.side and rule.side not in sides:
            raise ScenarioError(f"{source}: special.initiative.{i}.side: no side {rule.side!r}")
        unknown = [s for s in rule.ships if s not in known]
        if unknown:
            raise ScenarioError(f"{source}: special.initiative.{i}.ships: no ship {', '.join(unknown)}")
        modifier = InitiativeModifier(rule.modifier, rule.reason, tuple(rule.turns))
        for ship_id in rule.ships or sides[rule.side]:
            out[ship_id].append(modifier)
    return {s: tuple(m) for s, m in out.items()}
