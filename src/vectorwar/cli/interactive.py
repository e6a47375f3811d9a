"""``vectorwar play``: a game at the keyboard, hot-seat or against the computer.

The save file is rewritten after every accepted order, so quitting at any
prompt (``quit``, end of input, Ctrl-C) loses nothing and ``vectorwar play
FILE`` carries on from the same prompt. When two or more people share the
keyboard, secret plots are given on a cleared screen after a hand-over.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.text import Text

from vectorwar.autopilot import Standing, news, standing_order
from vectorwar.cli.common import (
    HUMAN,
    TakeBackRefused,
    UserError,
    answer_bots,
    end_by_agreement,
    humans,
    out_console,
    reports_errors,
    take_back,
)
from vectorwar.cli.screen import board, game_screen, result_text, status
from vectorwar.cli.session import OptionOpt, SeedOpt, SideOpt, create_game, players_line, seed_note
from vectorwar.cli.standing import describe, standing_change
from vectorwar.errors import SaveFileError
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.play import make_bots
from vectorwar.rules import Bot
from vectorwar.savefile import load_game, save_game

DEFAULT_FILE = Path("vectorwar-game.json")
DEFAULT_SCENARIO = "msc-duel"
DEFAULT_OPPONENT = "greedy"

QUIT = {"quit", "exit", "q"}
HELP_TEXT = (
    "Type your orders and press Enter. Other commands: "
    "'map' shows the board again, 'arcs SHIP' highlights a ship's weapon arcs, "
    "'undo' takes back your orders not yet seen by anyone (a resolved turn only if every other "
    "player agrees, or in practice), 'concede' gives up the game, 'end' offers to end it as a draw "
    "(every other side must agree), 'skip' holds now and goes on by itself until something new can be "
    "decided, 'skip turn' holds to the end of the turn, 'fire at TARGET [PERCENT]' (or 'fire at any') "
    "fires every weapon that reaches it whenever the game goes on for you, 'ask' stops at every prompt "
    "again, 'help', 'quit' (the game is saved; resume with `vectorwar play FILE`)."
)


class Handled(Enum):
    NO = "no"  # not a table command: the line is orders
    YES = "yes"
    MOVED_ON = "moved on"  # the game changed (undo): ask again from the top


class Quit(Exception):
    """The player left the table (quit, end of input or Ctrl-C)."""


@dataclass
class Session:
    """The game at the keyboard: the game, who plays which side, and where it is saved."""

    game: Game
    controllers: dict[str, str]
    path: Path
    console: Console
    #: Undo may take back resolved turns, replaying the computer's orders and the same dice.
    practice: bool = False
    #: Events not yet shown: the next screen prints them below the map, just above the prompt.
    recent: list[Event] = field(default_factory=list)
    bots: dict[str, Bot] = field(init=False)
    people: list[str] = field(init=False)
    #: Each person's standing orders for this sitting (vectorwar.autopilot); none: asked at every prompt.
    standing: dict[str, Standing] = field(default_factory=dict)
    #: The events the last screen showed, for ``map`` to show again.
    shown: list[Event] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        self.bots = make_bots(self.game.system, self.controllers)
        self.people = humans(self.controllers, [s.id for s in self.game.scenario.sides])

    @property
    def hot_seat(self) -> bool:
        return len(self.people) > 1

    def save(self) -> None:
        save_game(self.game, self.path, self.controllers)

    def read(self, prompt: str) -> str:
        try:
            return self.console.input(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise Quit from None

    def clear(self) -> None:
        if self.console.is_terminal:
            # 3J also empties the scrollback, where the last plot could be read.
            self.console.file.write("\x1b[H\x1b[2J\x1b[3J")
            self.console.file.flush()

    def hand_over(self, side: str) -> None:
        self.console.rule(Text(f"hand over to {side}: secret orders", style="bold"))
        if self.console.is_terminal:
            self.read(f"{side}, press Enter when the others cannot see the screen ")
            self.clear()

    def run(self) -> None:
        while not self.game.is_over:
            due = [s for s in self.game.waiting_for if s in self.people]
            if any(s in self.standing for s in due) and self.go_on():
                continue
            if not due:
                self.show_events(answer_bots(self.game, self.bots))
                self.save()
                continue
            self.turn_of(due[0])
        # The screen ends with the last events and the result.
        self.print_screen(None)

    def print_screen(self, side: str | None) -> None:
        """The game screen with the events not yet shown between the map and the prompt."""
        self.shown, self.recent = self.recent, []
        self.console.print(game_screen(self.game, side, None, self.controllers, self.shown), soft_wrap=True)

    def go_on(self) -> bool:
        """Let the standing orders and the bots answer what they may; whether the game moved."""
        before = (len(self.game.history), len(self.game.pending))
        events = answer_bots(self.game, self.bots, self.standing)
        if (len(self.game.history), len(self.game.pending)) == before:
            return False
        self.show_events(events)
        self.save()
        return True

    def turn_of(self, side: str) -> None:
        prompt = self.game.prompt
        if prompt is None:  # run() checked the game is not over
            return
        secret = prompt.simultaneous and self.hot_seat
        if secret:
            self.hand_over(side)
        self.print_screen(side)
        if side in self.standing and (found := news(self.game, side, self.standing[side])):
            self.console.print(Text("new: " + "; ".join(n.text for n in found), style="bold"))
        while True:
            line = self.read(f"{side}> ").strip()
            if not line:
                continue
            if line.lower() in QUIT:
                raise Quit
            handled = self.command(side, line)
            if handled is Handled.MOVED_ON:
                return
            if handled is Handled.YES:
                continue
            start = len(self.game.events)
            try:
                self.game.submit(side, line)
            except ValueError as err:
                self.console.print(Text(f"error: {err}", style="bold red"))
                self.console.print(Text(prompt.help, style="dim"))
                continue
            break
        answer_bots(self.game, self.bots)
        self.save()
        if secret and self.game.pending:
            # Still waiting for another person's plot: wipe this one off the screen.
            self.clear()
            self.console.print(Text(f"{side}'s orders are in."))
        else:
            self.show_events(self.game.events[start:])

    @property
    def everyone_human(self) -> bool:
        return self.hot_seat and len(self.people) == len(self.game.scenario.sides)

    def others_agree(self, side: str, asks: str, otherwise: str) -> bool:
        """Ask every other person at the keyboard to agree to what ``side`` ``asks``; one no is enough."""
        for other in self.people:
            if other != side:
                answer = self.read(escape(f"{other}: {side} {asks}; agree? [y/N] "))
                if answer.strip().lower() not in ("y", "yes"):
                    self.console.print(Text(f"{other} says no: {otherwise}"))
                    return False
        return True

    def show_events(self, events: Sequence[Event]) -> None:
        """Keep ``events`` for the next screen, which prints them after the map (a reprinted map would
        otherwise push them out of sight)."""
        self.recent.extend(events)

    def command(self, side: str, line: str) -> Handled:
        """Carry out ``line`` if it is a table command rather than orders."""
        word, _, rest = line.partition(" ")
        word, rest = word.lower(), rest.strip()
        if word in ("help", "?") and not rest:
            self.console.print(Text(HELP_TEXT))
            self.console.print(status(self.game, side, self.controllers))
            return Handled.YES
        if word == "map" and not rest:
            self.console.print(game_screen(self.game, side, None, self.controllers, self.shown), soft_wrap=True)
            return Handled.YES
        if word == "arcs" and rest:
            try:
                self.console.print(board(self.game, rest), soft_wrap=True)
            except UserError as err:
                self.console.print(Text(f"error: {err}", style="bold red"))
            return Handled.YES
        if word in ("skip", "ask", "fire"):
            try:
                changed = standing_change(self.standing.get(side), line, self.game)
            except UserError as err:
                self.console.print(Text(f"error: {err}", style="bold red"))
                return Handled.YES
            return Handled.NO if changed is None else self.stand(side, word, changed)
        if word == "undo" and not rest:
            try:
                try:
                    taken = take_back(self.game, self.controllers, side, practice=self.practice)
                except TakeBackRefused:
                    # A resolved turn in a game of people only: the whole table may agree to take it back.
                    if not self.everyone_human:
                        raise
                    asks = "asks to take back the last resolved orders (the dice will roll the same again)"
                    if not self.others_agree(side, asks, "nothing is taken back"):
                        return Handled.YES
                    taken = take_back(self.game, self.controllers, side, agreed=True)
            except UserError as err:
                self.console.print(Text(f"error: {err}", style="bold red"))
                return Handled.YES
            self.game = taken.game
            self.save()
            self.console.print(Text(taken.note))
            return Handled.MOVED_ON
        if word in ("concede", "end") and not rest:
            return self.end_game(side, word)
        return Handled.NO

    def stand(self, side: str, word: str, changed: Standing) -> Handled:
        """Keep ``side``'s new standing orders; ``skip`` also answers the prompt now with them."""
        self.standing[side] = changed
        if word != "skip":
            self.console.print(Text(f"standing orders: {describe(changed)}"))
            return Handled.YES
        answer = standing_order(self.game, side, changed, now=True)
        if answer is None:
            self.console.print(Text("error: no standing order answers this prompt: give your orders", style="bold red"))
            return Handled.YES
        self.game.submit(side, answer)
        self.console.print(Text(f"{side}: {answer}"))
        self.save()
        return Handled.MOVED_ON

    def end_game(self, side: str, word: str) -> Handled:
        """``side`` concedes, or offers to end the game as a draw: asked to confirm, then each other person."""
        others = [s.id for s in self.game.scenario.sides if s.id != side]
        if word == "concede":
            question = f"{side}: concede the game? {' and '.join(others)} {'win' if len(others) > 1 else 'wins'}"
        else:
            question = f"{side}: offer to end the game as a draw? Every other side must agree"
        # Escaped: the console reads "[y/N]" as markup otherwise, and drops it.
        if self.read(escape(f"{question}. [y/N] ")).strip().lower() not in ("y", "yes"):
            self.console.print(Text("play goes on"))
            return Handled.YES
        try:
            if word == "concede":
                events = self.game.concede(side)
            else:
                if not self.others_agree(side, "offers to end the game as a draw", "play goes on"):
                    return Handled.YES
                events = end_by_agreement(self.game, self.controllers)
        except (UserError, ValueError) as err:
            self.console.print(Text(f"error: {err}", style="bold red"))
            return Handled.YES
        self.save()
        self.show_events(events)
        return Handled.MOVED_ON


def _opponent_default(index: int) -> str:
    return HUMAN if index == 0 else DEFAULT_OPPONENT


def _in_progress(path: Path) -> bool:
    try:
        game, _ = load_game(path)
    except SaveFileError:
        return True  # unreadable: not ours to overwrite without --force
    return not game.is_over


Opened = tuple[Game, dict[str, str], list[Event]]


def _resume(path: Path, *, named: bool, console: Console, starting: bool) -> Opened | None:
    """The game in progress at ``path``; None to start one (a finished game in the default file).

    A finished game in a file named on the command line is shown, not replaced: the command ends there.
    """
    game, controllers = load_game(path)
    if game.is_over and not named:
        return None
    if game.is_over:
        console.print(result_text(game))
        console.print(Text(f"(start another with: vectorwar play {path} --new SCENARIO)"))
        raise typer.Exit(0)
    if starting:
        raise UserError(f"{path} holds a game in progress; --side, --seed and --option apply to new games")
    console.print(Text(f"resuming {path}: {game.scenario.title}, {players_line(controllers)}"))
    return game, controllers, []


def _start(
    path: Path,
    new: str | None,
    side: list[str] | None,
    seed: int | None,
    option: list[str] | None,
    *,
    force: bool,
    console: Console,
) -> Opened:
    """A new game of ``new`` (or the default duel) saved in ``path``, and its opening events."""
    if path.exists() and not force and _in_progress(path):
        raise UserError(f"{path} holds a game in progress; resume it with `vectorwar play {path}` or add --force")
    game, controllers, events = create_game(
        new or DEFAULT_SCENARIO, side or [], option or [], seed, HUMAN if side else _opponent_default
    )
    save_game(game, path, controllers)
    console.print(
        Text(
            f"new {game.scenario.id} game in {path} ({seed_note(game, seed is not None)}): {players_line(controllers)}",
            style="bold",
        )
    )
    return game, controllers, list(events)


@reports_errors
def play_command(
    file: Annotated[
        Path | None, typer.Argument(help=f"Save file (default: ./{DEFAULT_FILE})", dir_okay=False, metavar="FILE")
    ] = None,
    new: Annotated[
        str | None,
        typer.Option(
            "--new", help=f"Start this scenario (default when starting: {DEFAULT_SCENARIO})", metavar="SCENARIO"
        ),
    ] = None,
    side: SideOpt = None,
    seed: SeedOpt = None,
    option: OptionOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Start over even if FILE holds a game in progress")] = False,
    practice: Annotated[
        bool,
        typer.Option(
            "--practice",
            help="Let undo take back resolved turns (the computer's orders and the dice replay the same)",
        ),
    ] = False,
) -> None:
    """Play at the keyboard: resume FILE, or start a game in it.

    With no arguments: resume ./vectorwar-game.json, or start a duel against
    the greedy computer player there. Starting a game without --side, you
    play the first side and the computer the rest; with --side, sides not
    named are played by people (e.g. --side blue=human for hot-seat).
    """
    path = file or DEFAULT_FILE
    console = out_console()
    opened = None
    if new is None and path.exists() and not force:
        opened = _resume(
            path, named=file is not None, console=console, starting=bool(side or seed is not None or option)
        )
    if opened is None:
        opened = _start(path, new, side, seed, option, force=force, console=console)
    game, controllers, opening = opened
    session = Session(game, controllers, path, console, practice, opening)
    console.print(Text(HELP_TEXT, style="dim"))
    if practice:
        console.print(Text("practice: undo takes back resolved turns; the computer and the dice then replay the same"))
    try:
        session.run()
    except Quit:
        console.print(Text(f"game saved in {path}; resume with: vectorwar play {path}"))
    except KeyboardInterrupt:
        # Ctrl-C while the computer plays: the file still holds the last accepted order.
        console.print(Text(f"\ninterrupted; game saved in {path}; resume with: vectorwar play {path}"))
        raise typer.Exit(130) from None
