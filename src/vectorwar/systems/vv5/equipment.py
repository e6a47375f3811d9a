"""Fitting out a VV5 starship: its status card from its design, and scenario equipment."""

from __future__ import annotations

from dataclasses import replace

from vectorwar.errors import ScenarioError
from vectorwar.roster import replace_fields
from vectorwar.systems.vv5 import crews
from vectorwar.systems.vv5.design import Design
from vectorwar.systems.vv5.state import Box, Mount, Ship


def build_ship(ship_id: str, side: str, design_id: str, design: Design, **where: object) -> Ship:
    """A ship fresh from the yard: boxes and armour from its design."""
    a = design.armour
    return Ship(
        id=ship_id,
        side=side,
        design=design_id,
        name=design.name,
        mass=design.mass,
        kind=design.kind,
        structure=Box.new(design.mass, a.structure),
        cargo=Box.new(design.cargo, a.cargo),
        agility=Box.new(design.agility, a.agility),
        acceleration=Box.new(design.acceleration, a.acceleration),
        life_support=Box.new(1, a.life_support),
        mounts=tuple(Mount(m.arc, Box.new(m.guns, m.armour)) for m in design.guns),
        launchers=tuple("ready" for _ in range(design.missiles)),
        missile_armour=Box.new(0, a.missiles),
        **where,  # type: ignore[arg-type]
    )


LOADOUTS = ("traction", "bombs:N", "crew:NAME:POINTS")


def fit_loadout(ship: Ship, loadout: tuple[str, ...], where: str) -> Ship:
    """Scenario equipment: ``traction`` turns one missile launcher into a traction unit;
    ``bombs:N`` loads bombs in place of the last N missiles (scenario 2, Strike Force).

    Bombs stay in their launcher slots, so a missile hit on the pair holding
    them loses them; they can never be launched.
    """
    for tag in loadout:
        if tag not in LOADOUTS and not tag.startswith(("bombs:", crews.TAG)):
            raise ScenarioError(f"{where}: unknown equipment {tag!r} (known: {', '.join(LOADOUTS)})")
    if "traction" in loadout:
        if not ship.launchers:
            raise ScenarioError(f"{where}: a traction unit replaces a missile launcher, and {ship.id} has none")
        ship = replace(ship, launchers=ship.launchers[1:])
    for tag in loadout:
        if tag.startswith("bombs:"):
            count = tag.removeprefix("bombs:")
            if not count.isdigit() or int(count) < 1:
                raise ScenarioError(f"{where}: {tag!r}: write bombs:N with N a whole number of bombs, 1 or more")
            n = int(count)
            ready = ship.missiles_ready
            if n > ready:
                raise ScenarioError(f"{where}: {tag!r}: {ship.id} has only {ready} missile launcher(s) to load")
            launchers = list(ship.launchers)
            for i in [i for i, x in enumerate(launchers) if x == "ready"][-n:]:
                launchers[i] = "bomb"
            ship = replace(ship, launchers=tuple(launchers))
    return replace_fields(ship, loadout=loadout)
