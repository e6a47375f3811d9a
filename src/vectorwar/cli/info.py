"""Commands that describe what is installed: systems, scenarios, ships, schemas."""

from __future__ import annotations

import json
from enum import StrEnum
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from vectorwar.catalogue import builtin_scenario, scenario_paths, ship_catalogue
from vectorwar.cli.common import out_console, reports_errors
from vectorwar.display import CardTable
from vectorwar.registry import get_system, systems
from vectorwar.rules import OptionValue, RuleSystem
from vectorwar.scenario import Scenario


@reports_errors
def systems_command() -> None:
    """List the installed rule systems: phases of the turn and rule options with their defaults."""
    table = Table(title="Rule systems", show_lines=True)
    for header in ("name", "title", "phases", "options (default)"):
        table.add_column(header)
    for name, system in systems().items():
        m = system.manifest
        phases = "\n".join(
            f"{i}. {p.name}" + (f" ({p.orders} orders{', secret' if p.simultaneous else ''})" if p.orders else "")
            for i, p in enumerate(m.phases, 1)
        )
        options = "\n".join(
            f"{o.name} = {_value(o.default)}" + (f" [{' | '.join(map(str, o.choices))}]" if o.choices else "")
            for o in m.options
        )
        table.add_row(Text(name), Text(m.title), Text(phases), Text(options or "none"))
    out_console().print(table)


def _value(value: OptionValue) -> str:
    """An option value as it is typed after --option."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _sides(scenario: Scenario) -> str:
    return "\n".join(
        f"{side.id}: " + ", ".join(f"{ship.id} ({ship.design})" for ship in side.ships) for side in scenario.sides
    )


@reports_errors
def scenarios_command() -> None:
    """List the built-in scenarios (play one with `vectorwar play --new ID`)."""
    table = Table(title="Scenarios", show_lines=True)
    for header in ("id", "system", "title", "sides / ships", "map", "turns"):
        table.add_column(header)
    for ident in scenario_paths():
        sc = builtin_scenario(ident)
        hex_map = sc.hex_map()
        c0, r0, c1, r1 = hex_map.extent
        size = f"{c1 - c0 + 1}x{r1 - r0 + 1}"
        table.add_row(
            Text(sc.id), Text(sc.system), Text(sc.title), Text(_sides(sc)), Text(size), Text(str(sc.max_turns))
        )
    out_console().print(table)


def _raw_table(system_name: str) -> CardTable:
    """The catalogue file's own fields, for systems that give no table of their own."""
    raw = ship_catalogue(system_name)
    keys: list[str] = []
    for fields in raw.values():
        keys.extend(k for k in fields if k not in keys)
    rows = tuple((ident, *(_cell(fields.get(k, "")) for k in keys)) for ident, fields in raw.items())
    return CardTable(("id", *keys), rows)


def _cell(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(map(str, value))
    return str(value)


def _catalogue(system: RuleSystem[Any]) -> CardTable:
    return system.catalogue_table() or _raw_table(system.manifest.name)


@reports_errors
def ships_command(
    system: Annotated[str | None, typer.Argument(help="Rule system (default: every system)", metavar="SYSTEM")] = None,
) -> None:
    """List the built-in ship designs, with their build-point cost where the system has one."""
    chosen = [get_system(system)] if system else list(systems().values())
    console = out_console()
    for sys in chosen:
        data = _catalogue(sys)
        table = Table(title=f"{sys.manifest.title} ({sys.manifest.name}) ships")
        for i, header in enumerate(data.headers):
            # Ids are typed into scenario files and names are short: never split them.
            table.add_column(header, no_wrap=i < 2, min_width=len(header))
        for row in data.rows:
            table.add_row(*(Text(v) for v in row))
        console.print(table)


class SchemaKind(StrEnum):
    scenario = "scenario"
    design = "design"


@reports_errors
def schema_command(
    kind: Annotated[SchemaKind, typer.Argument(help="Which file format", metavar="KIND")],
    system: Annotated[str, typer.Option(help="Rule system, for design files", metavar="SYSTEM")] = "msc",
) -> None:
    """Print the JSON Schema of scenario files or of a system's ship designs."""
    if kind is SchemaKind.scenario:
        schema: dict[str, Any] | None = Scenario.model_json_schema()
    else:
        schema = get_system(system).design_schema()
        if schema is None:
            raise ValueError(f"rule system {system!r} has no ship design format")
    typer.echo(json.dumps(schema, indent=2))
