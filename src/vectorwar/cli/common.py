"""What every command shares: consoles, error reporting, seat and option specs, saving.

Library errors become one ``error: ...`` line on stderr and exit code 1;
malformed command-line values are usage errors (exit code 2, from click).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from vectorwar.errors import VectorwarError
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.play import bot_turns
from vectorwar.rules import Bot, RuleSystem
from vectorwar.scenario import Scenario
from vectorwar.setup import HUMAN, Default, game_options, seat_players

__all__ = ["HUMAN", "UserError", "answer_bots", "find_seat", "parse_options", "parse_seats", "take_back"]

P = ParamSpec("P")
R = TypeVar("R")


class UserError(VectorwarError, ValueError):
    """A command-line request that cannot be met (unknown seat, file exists...)."""


def out_console() -> Console:
    # Built per command so that a replaced sys.stdout (tests, pipes) is honoured.
    return Console(highlight=False, soft_wrap=True)


def err_console() -> Console:
    return Console(stderr=True, highlight=False)


def one_line(err: BaseException) -> str:
    """An error message folded onto one line (validation errors come one per line)."""
    lines = [line.strip() for line in str(err).splitlines() if line.strip()]
    return "; ".join(lines) or type(err).__name__


def report(err: BaseException) -> None:
    typer.echo(f"error: {one_line(err)}", err=True)


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turn the library's errors into ``error: ...`` and exit code 1, with no traceback."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (VectorwarError, ValueError) as err:
            report(err)
            raise typer.Exit(1) from None
        except OSError as err:
            # Unreadable or unwritable files are the user's to fix, not a bug to trace.
            report(err)
            raise typer.Exit(1) from None

    return wrapper


def split_assignment(text: str, what: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise typer.BadParameter(f"{text!r}: write {what}")
    return name.strip(), value.strip()


def seat_ids(scenario: Scenario) -> list[str]:
    return [side.id for side in scenario.sides]


def find_seat(seats: Iterable[str], name: str) -> str:
    """A seat by name, in any case."""
    seats = list(seats)
    for seat in seats:
        if seat.lower() == name.lower():
            return seat
    raise UserError(f"no seat called {name!r} (seats: {', '.join(seats)})")


def parse_seats(
    specs: Sequence[str],
    scenario: Scenario,
    system: RuleSystem[Any],
    default: Default = HUMAN,
) -> dict[str, str]:
    """``red=greedy`` specs to a player for every seat (checked by the kernel's set-up, in its words).

    Seats not named get ``default``, or ``default(index)`` for a seat's position.
    """
    return seat_players(scenario, system, _assignments(specs, "SEAT=PLAYER, like red=greedy"), default)


def parse_options(specs: Sequence[str], system: RuleSystem[Any], scenario: Scenario) -> dict[str, object]:
    """``name=value`` specs, each value read as the type of the option's default."""
    return game_options(system, scenario, _assignments(specs, "NAME=VALUE, like map_edge=forbid"), as_text=True)


def _assignments(specs: Sequence[str], what: str) -> dict[str, str]:
    return dict(split_assignment(spec, what) for spec in specs)


def humans(controllers: Mapping[str, str], seats: Iterable[str]) -> list[str]:
    return [s for s in seats if controllers.get(s, HUMAN) == HUMAN]


def answer_bots(game: Game, bots: Mapping[str, Bot]) -> list[Event]:
    """Let the computer players give the orders they owe, until a person must act.

    This is the kernel's bot loop with ``beside_people`` off: it stops
    *before* a bot plots a secret move alongside a person, so no bot plot
    waits in the save file where the person could read it. Returns the events
    this produced.
    """
    start = len(game.events)
    for _ in bot_turns(game, bots, beside_people=False):
        pass
    return game.events[start:]


def take_back(game: Game, controllers: Mapping[str, str]) -> Game:
    """The game as it was when a person last had to give orders.

    A plot still waiting is withdrawn first; otherwise resolved batches are
    dropped back to and including the last one with a person's order, so the
    computer players' answers to it go too. (With computer players only,
    one batch goes.)
    """
    people = set(humans(controllers, seat_ids(game.scenario))) or set(seat_ids(game.scenario))
    if game.pending:
        return Game.replay(game.system, game.scenario, game.seed, game.options, game.history)
    for index in range(len(game.history) - 1, -1, -1):
        if any(seat in people for seat, _ in game.history[index].orders):
            return Game.replay(game.system, game.scenario, game.seed, game.options, game.history[:index])
    raise UserError("nothing to take back: no orders have been given yet")


def refuse_overwrite(path: Path, force: bool) -> None:
    if path.exists() and not force:
        raise UserError(f"{path} already exists; choose another file or add --force to overwrite it")
