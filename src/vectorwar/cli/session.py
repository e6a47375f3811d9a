"""Commands on a save file, one step at a time: new, orders, show, log, undo, concede, end.

Each command loads the file, does its work in memory and writes the file
back only once everything succeeded, so a refused order leaves it untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from vectorwar.cli.common import (
    HUMAN,
    UserError,
    answer_bots,
    end_by_agreement,
    find_side,
    out_console,
    parse_options,
    parse_sides,
    refuse_overwrite,
    reports_errors,
    side_ids,
    take_back,
)
from vectorwar.cli.screen import event_lines, game_screen, status
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.limits import MAX_SEED_BITS
from vectorwar.play import make_bots
from vectorwar.savefile import load_game, save_game
from vectorwar.setup import find_scenario, set_up, system_of

FileArg = Annotated[Path, typer.Argument(help="Save file (JSON)", dir_okay=False, metavar="FILE")]
SideOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--side",
        help="Who plays a side: SIDE=human or SIDE=BOT: random, greedy, search, search:2, search:3 (e.g. blue=search)",
        metavar="SIDE=PLAYER",
    ),
]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", help="Rule option NAME=VALUE (see `systems`)", metavar="NAME=VALUE")
]
SeedOpt = Annotated[
    int | None,
    typer.Option(
        help="Dice seed, to repeat a game: whoever knows it can foresee every roll "
        "(default: a secret 128-bit seed, never printed, kept in the save file)",
        metavar="N",
        min=0,
        max=2**MAX_SEED_BITS - 1,
    ),
]


def seed_note(game: Game, chosen: bool) -> str:
    """How a new game's seed is announced: a chosen one is the chooser's own, a drawn one stays secret."""
    return f"seed {game.seed}, chosen: it foretells every roll" if chosen else "dice seed drawn in secret"


def create_game(
    scenario_id: str,
    sides: Sequence[str],
    options: Sequence[str],
    seed: int | None,
    default_player: str | Callable[[int], str] = HUMAN,
) -> tuple[Game, dict[str, str], list[Event]]:
    """A new game whose computer players have already given what they owe."""
    scenario = find_scenario(scenario_id, files=True)
    system = system_of(scenario)
    setup = set_up(
        scenario,
        parse_sides(sides, scenario, system, default_player),
        seed=seed,
        options=parse_options(options, system, scenario),
    )
    game = setup.game
    events = list(game.events)
    events.extend(answer_bots(game, setup.bots))
    return game, setup.players, events


def players_line(controllers: dict[str, str]) -> str:
    return ", ".join(f"{side} {player}" for side, player in controllers.items())


@reports_errors
def new_command(
    scenario: Annotated[
        str, typer.Argument(help="Built-in scenario id (see `scenarios`) or a .toml file", metavar="SCENARIO")
    ],
    file: FileArg,
    seed: SeedOpt = None,
    side: SideOpt = None,
    option: OptionOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists")] = False,
) -> None:
    """Start a game in a new save file. Sides not given with --side are played by people."""
    refuse_overwrite(file, force)
    game, controllers, events = create_game(scenario, side or [], option or [], seed)
    save_game(game, file, controllers)
    console = out_console()
    console.print(
        Text(
            f"new {game.scenario.id} game in {file} ({seed_note(game, seed is not None)}): {players_line(controllers)}"
        )
    )
    for line in event_lines(events):
        console.print(line)
    console.print(status(game, None, controllers))


def person_side(game: Game, controllers: Mapping[str, str], name: str, why: str = "") -> str:
    """The side ``name`` means (in any case), refused when a computer player holds it."""
    side = find_side(side_ids(game.scenario), name)
    player = controllers.get(side, HUMAN)
    if player != HUMAN:
        raise UserError(f"side {side} is played by the computer ({player}){why}")
    return side


@reports_errors
def orders_command(
    file: FileArg,
    side: Annotated[str, typer.Argument(help="The side giving the orders, e.g. red", metavar="SIDE")],
    text: Annotated[str, typer.Argument(help="The orders, in the system's notation (quote them)", metavar="TEXT")],
) -> None:
    """Give a side's orders; computer players then answer, and the file is saved."""
    game, controllers = load_game(file)
    side = person_side(game, controllers, side)
    prompt = game.prompt
    start = len(game.events)
    game.submit(side, text)
    answer_bots(game, make_bots(game.system, controllers))
    save_game(game, file, controllers)
    console = out_console()
    if prompt is not None and prompt.simultaneous and side in game.pending:
        console.print(Text(f"{side}'s orders are in; they stay secret until every side has given theirs"))
    else:
        console.print(Text(f"{side}: {text}"))
    for line in event_lines(game.events[start:]):
        console.print(line)
    console.print(status(game, side, controllers))


@reports_errors
def show_command(
    file: FileArg,
    side: Annotated[
        str | None, typer.Option(help="Show as this side (includes its own waiting orders)", metavar="SIDE")
    ] = None,
    arcs: Annotated[str | None, typer.Option(help="Highlight this ship's weapon arcs", metavar="SHIP")] = None,
) -> None:
    """Show the map, the ship cards and whose orders are awaited."""
    game, controllers = load_game(file)
    out_console().print(game_screen(game, side, arcs, controllers), soft_wrap=True)


@reports_errors
def log_command(file: FileArg) -> None:
    """Print the event log, every die roll included, in words."""
    game, _ = load_game(file)
    console = out_console()
    for line in event_lines(game.events):
        console.print(line)


@reports_errors
def undo_command(
    file: FileArg,
    agreed: Annotated[
        bool, typer.Option("--agreed", help="Every side is a person and the whole table agrees to undo a resolved turn")
    ] = False,
    practice: Annotated[
        bool, typer.Option("--practice", help="Undo a resolved turn anyway: the computer and the dice replay the same")
    ] = False,
) -> None:
    """Take back orders no one else has seen: a person's orders still waiting.

    A resolved turn goes back (with the computer's answers to it) only with
    --agreed (every side a person) or --practice.
    """
    game, controllers = load_game(file)
    taken = take_back(game, controllers, agreed=agreed, practice=practice)
    save_game(taken.game, file, controllers)
    console = out_console()
    console.print(Text(taken.note))
    console.print(status(taken.game, None, controllers))


@reports_errors
def concede_command(
    file: FileArg,
    side: Annotated[str, typer.Argument(help="The side giving up, e.g. red", metavar="SIDE")],
) -> None:
    """Concede the game for a side played by a person: the other sides win (with three or more, they share it)."""
    game, controllers = load_game(file)
    side = person_side(game, controllers, side, "; only a person concedes")
    events = game.concede(side)
    save_game(game, file, controllers)
    console = out_console()
    for line in event_lines(events):
        console.print(line)
    console.print(status(game, None, controllers))


@reports_errors
def end_command(
    file: FileArg,
    agreed: Annotated[
        bool, typer.Option("--agreed", help="Every person at the table agrees to end the game as a draw")
    ] = False,
) -> None:
    """End the game as a draw by agreement of every side.

    The people say so with --agreed; each computer player agrees unless it is ahead.
    """
    game, controllers = load_game(file)
    if not agreed:
        raise UserError(
            "a game ends by agreement only when every side agrees: add --agreed once every person at the table does"
        )
    events = end_by_agreement(game, controllers)
    save_game(game, file, controllers)
    console = out_console()
    for line in event_lines(events):
        console.print(line)
    console.print(status(game, None, controllers))
