"""The ``vectorwar`` command line.

The commands live in modules by what they work on: :mod:`.info` (what is
installed), :mod:`.session` (a save file, one step at a time),
:mod:`.interactive` (``play``), :mod:`.simulate`, :mod:`.lab` (``lab run/sweep/report``), :mod:`.ladder` and
:mod:`.pbem` (play by e-mail); :mod:`.render` draws.
"""

import typer

from vectorwar.cli.design import design_command
from vectorwar.cli.info import scenarios_command, schema_command, ships_command, systems_command
from vectorwar.cli.interactive import play_command
from vectorwar.cli.lab import lab_app
from vectorwar.cli.ladder import ladder_command
from vectorwar.cli.pbem import pbem_app
from vectorwar.cli.roster import roster_command
from vectorwar.cli.serve import serve_command
from vectorwar.cli.session import (
    concede_command,
    end_command,
    log_command,
    new_command,
    orders_command,
    show_command,
    undo_command,
)
from vectorwar.cli.simulate import simulate_command

app = typer.Typer(
    help="vectorwar: tactical starship combat on hex maps. Start with `vectorwar play`.",
    no_args_is_help=True,
    pretty_exceptions_show_locals=False,
    rich_markup_mode=None,
)

app.command("play")(play_command)
app.command("new")(new_command)
app.command("orders")(orders_command)
app.command("show")(show_command)
app.command("log")(log_command)
app.command("undo")(undo_command)
app.command("concede")(concede_command)
app.command("end")(end_command)
app.command("simulate")(simulate_command)
app.command("systems")(systems_command)
app.command("scenarios")(scenarios_command)
app.command("ships")(ships_command)
app.command("schema")(schema_command)
app.command("design")(design_command)
app.command("roster")(roster_command)
app.command("serve")(serve_command)
app.command("ladder")(ladder_command)
app.add_typer(lab_app, name="lab")
app.add_typer(pbem_app, name="pbem")

__all__ = ["app"]
