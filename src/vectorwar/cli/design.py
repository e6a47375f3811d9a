"""``vectorwar design``: check a file of your own ship designs against a system's design rules."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from vectorwar.cli.common import UserError, out_console, reports_errors
from vectorwar.cli.render import render_cards
from vectorwar.registry import get_system
from vectorwar.scenario import read_toml


@reports_errors
def design_command(
    system: Annotated[str, typer.Argument(help="Rule system whose design rules apply", metavar="SYSTEM")],
    file: Annotated[Path, typer.Argument(help="TOML file of designs, one [table] per design", metavar="FILE")],
) -> None:
    """Check your designs: print each one's cost sheet and the record card it starts with.

    An invalid design is refused with the line of the rules it breaks. Designs
    that pass can be used in a scenario's [designs] table.
    """
    rules = get_system(system)
    tables = read_toml(file)
    cards = rules.design_cards(tables, str(file))
    if cards is None:
        raise UserError(f"{system} has no ship designer")
    if not cards:
        raise UserError(f"{file}: no designs in it (one [table] per design)")
    out_console().print(render_cards(cards, {}))
