"""``vectorwar roster``: a VV5 campaign's crew roster (optional rule Experienced Crews).

The roster file keeps each named crew's experience points and fate from game
to game. ``--add-game`` counts a finished VV5 save file into it (each game
once); a scenario then puts a crew aboard with the loadout tag the roster
gives (``crew:NAME:POINTS``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from vectorwar.cli.common import UserError, out_console, reports_errors
from vectorwar.savefile import load_game
from vectorwar.systems.vv5 import crews
from vectorwar.systems.vv5.api import VV5State

RosterArg = Annotated[
    Path,
    typer.Argument(help="Crew roster file (JSON; created by the first --add-game)", dir_okay=False, metavar="FILE"),
]
AddOpt = Annotated[
    Path | None,
    typer.Option(
        "--add-game", help="Count a finished VV5 save file into the roster", dir_okay=False, metavar="SAVE.json"
    ),
]


def roster_table(roster: crews.CrewRoster) -> Table:
    table = Table(title=f"Crews ({len(roster.games)} game(s) counted)")
    for header, justify in (("crew", "left"), ("points", "right"), ("rating", "left"), ("status", "left")):
        table.add_column(header, justify=justify)  # type: ignore[arg-type]
    for record in sorted(roster.crews, key=lambda c: (c.status != "active", -c.experience, c.name)):
        table.add_row(record.name, str(record.experience), crews.rating(record.experience), record.status)
    return table


def add_game(roster: crews.CrewRoster, save: Path) -> crews.CrewRoster:
    """The roster with the game in ``save`` counted; a one-line error if it cannot be."""
    game, _ = load_game(save)
    state = game.state
    if not isinstance(state, VV5State):
        raise UserError(f"{save}: a {game.system.manifest.name} game; crew rosters are for VV5 games")
    if state.phase != "over":
        raise UserError(f"{save}: the game is not finished (turn {state.turn}, {state.phase}); count it when it ends")
    if not crews.enabled(state):
        raise UserError(f"{save}: the game was played without the {crews.OPTION} option; it earns no experience")
    key = crews.game_key(game)
    if key in roster.games:
        raise UserError(f"{save}: the roster already counts this game ({key})")
    return crews.update_roster(roster, game)


@reports_errors
def roster_command(file: RosterArg, add: AddOpt = None) -> None:
    """Show a VV5 crew roster: each crew's experience points, rating and fate."""
    roster = crews.load_roster(file)
    console = out_console()
    if add is not None:
        roster = add_game(roster, add)
        crews.save_roster(roster, file)
        console.print(Text(f"counted {add} into {file}"))
    if not roster.crews:
        console.print(Text(f"{file}: no crews yet (add a finished game with --add-game SAVE.json)"))
        return
    console.print(roster_table(roster))
