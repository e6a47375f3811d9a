"""``vectorwar simulate``: many games between computer players, for designers."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from vectorwar.cli.common import (
    HUMAN,
    UserError,
    games_progress,
    out_console,
    parse_options,
    parse_sides,
    reports_errors,
)
from vectorwar.cli.session import OptionOpt, SideOpt
from vectorwar.play import Summary, simulate
from vectorwar.setup import find_scenario, system_of

DEFAULT_BOT = "greedy"


@reports_errors
def simulate_command(
    scenario: Annotated[str, typer.Argument(help="Built-in scenario id or a .toml file", metavar="SCENARIO")],
    games: Annotated[int, typer.Option("-n", "--games", min=1, help="How many games", metavar="N")] = 100,
    side: SideOpt = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses SEED + i", metavar="N")] = 0,
    option: OptionOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print only the summary, as JSON")] = False,
) -> None:
    """Play computer players against each other and count the wins.

    Sides not given with --side are played by the greedy computer player.
    """
    sc = find_scenario(scenario, files=True)
    system = system_of(sc)
    controllers = parse_sides(side or [], sc, system, DEFAULT_BOT)
    people = [s for s, player in controllers.items() if player == HUMAN]
    if people:
        raise UserError(f"simulate needs a computer player in every side; {', '.join(people)} set to human")
    options = parse_options(option or [], system, sc)
    sides = list(controllers)
    if as_json:
        summary = simulate(sc, controllers, games, seed, options)
        data = {
            "scenario": sc.id,
            "system": sc.system,
            "controllers": controllers,
            "first_seed": seed,
            **summary.to_data(sides),
        }
        typer.echo(json.dumps(data, indent=2))
        return
    progress = games_progress()
    with progress:
        task = progress.add_task(f"{sc.id}", total=games)
        summary = simulate(sc, controllers, games, seed, options, lambda done: progress.update(task, completed=done))
    out_console().print(
        summary_table(summary, controllers, f"{sc.title}: {games} games, seeds {seed}-{seed + games - 1}")
    )


def summary_table(summary: Summary, controllers: dict[str, str], title: str) -> Table:
    table = Table(title=title)
    for header in ("side", "player", "wins", "share"):
        table.add_column(header, justify="right" if header in ("wins", "share") else "left")
    for side, player in controllers.items():
        wins = summary.wins.get(side, 0)
        table.add_row(Text(side), Text(player), str(wins), f"{wins / summary.games:.0%}")
    table.add_row(Text("draws"), Text(""), str(summary.draws), f"{summary.draws / summary.games:.0%}")
    table.caption = f"average length {summary.average_turns:.1f} turns"
    return table
