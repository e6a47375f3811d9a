"""What every command shares: consoles, error reporting, side and option specs, saving.

Library errors become one ``error: ...`` line on stderr and exit code 1;
malformed command-line values are usage errors (exit code 2, from click).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from vectorwar.autopilot import Standing
from vectorwar.errors import VectorwarError
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.play import bot_accepts_end, bot_turns
from vectorwar.rules import Bot, RuleSystem
from vectorwar.scenario import Scenario
from vectorwar.setup import HUMAN, Default, game_options, side_players

__all__ = ["HUMAN", "UserError", "answer_bots", "find_side", "parse_options", "parse_sides", "take_back"]

P = ParamSpec("P")
R = TypeVar("R")


class UserError(VectorwarError, ValueError):
    """A command-line request that cannot be met (unknown side, file exists...)."""


def out_console() -> Console:
    # Built per command so that a replaced sys.stdout (tests, pipes) is honoured.
    return Console(highlight=False, soft_wrap=True)


def err_console() -> Console:
    return Console(stderr=True, highlight=False)


def games_progress() -> Progress:
    """The progress bar of commands that play many games (on standard error, gone when done)."""
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err_console(),
        transient=True,
    )


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


def side_ids(scenario: Scenario) -> list[str]:
    return [side.id for side in scenario.sides]


def find_side(sides: Iterable[str], name: str) -> str:
    """A side by name, in any case."""
    sides = list(sides)
    for side in sides:
        if side.lower() == name.lower():
            return side
    raise UserError(f"no side called {name!r} (sides: {', '.join(sides)})")


def parse_sides(
    specs: Sequence[str],
    scenario: Scenario,
    system: RuleSystem[Any],
    default: Default = HUMAN,
) -> dict[str, str]:
    """``red=greedy`` specs to a player for every side (checked by the kernel's set-up, in its words).

    Sides not named get ``default``, or ``default(index)`` for a side's position.
    """
    return side_players(scenario, system, _assignments(specs, "SIDE=PLAYER, like red=greedy"), default)


def parse_options(specs: Sequence[str], system: RuleSystem[Any], scenario: Scenario) -> dict[str, object]:
    """``name=value`` specs, each value read as the type of the option's default."""
    return game_options(system, scenario, _assignments(specs, "NAME=VALUE, like map_edge=forbid"), as_text=True)


def _assignments(specs: Sequence[str], what: str) -> dict[str, str]:
    return dict(split_assignment(spec, what) for spec in specs)


def humans(controllers: Mapping[str, str], sides: Iterable[str]) -> list[str]:
    return [s for s in sides if controllers.get(s, HUMAN) == HUMAN]


def answer_bots(game: Game, bots: Mapping[str, Bot], standing: Mapping[str, Standing] | None = None) -> list[Event]:
    """Let the computer players, and the people's standing orders, give the orders they owe, until a person must act.

    This is the kernel's bot loop with ``beside_people`` off: it stops
    *before* a bot plots a secret move alongside a person, so no bot plot
    waits in the save file where the person could read it. Returns the events
    this produced.
    """
    start = len(game.events)
    for _ in bot_turns(game, bots, beside_people=False, standing=standing):
        pass
    return game.events[start:]


class TakeBackRefused(UserError):
    """An undo that would show a player what others ordered or what the dice will do."""


@dataclass(frozen=True, slots=True)
class TakenBack:
    """What an undo left: the earlier game, and a sentence saying plainly what was undone."""

    game: Game
    note: str


def take_back(
    game: Game,
    controllers: Mapping[str, str],
    side: str | None = None,
    *,
    agreed: bool = False,
    practice: bool = False,
) -> TakenBack:
    """Undo only what no one else has seen, unless the table allows more.

    A person's own plot still waiting (``side``'s, or with no side every
    person's) is withdrawn: no one has seen it. A resolved batch has been seen
    by every side, and replaying it replays the computer players' plots and
    the very same dice (the seed fixes them), so it is taken back only in
    practice (``practice``: the note says so) or when every side is a person
    and the whole table agrees (``agreed``). Batches then go back to and
    including the last one with a person's order, so the computer players'
    answers to it go too (with computer players only, one batch goes).
    """
    sides = side_ids(game.scenario)
    people = humans(controllers, sides)
    own = [s for s in game.pending if (s == side if side is not None else s in people)]
    if own:
        earlier = Game.replay(game.system, game.scenario, game.seed, game.options, game.history)
        for other, order in game.pending.items():
            if other not in own:
                earlier.pending[other] = order
        return TakenBack(earlier, f"withdrew {' and '.join(own)}'s waiting orders (no one had seen them)")
    voters = set(people) or set(sides)
    index = next(
        (i for i in range(len(game.history) - 1, -1, -1) if voters & {s for s, _ in game.history[i].orders}), None
    )
    if index is None:
        raise UserError("nothing to take back: no orders have been given yet")
    everyone_human = len(people) == len(sides)
    if not practice and not (everyone_human and agreed):
        if everyone_human:
            raise TakeBackRefused(
                f"the orders of {game.history[index].clock} are resolved and every player has seen what came of them; "
                "they can be taken back only if the whole table agrees (`vectorwar undo FILE --agreed`)"
            )
        raise TakeBackRefused(
            f"the orders of {game.history[index].clock} are resolved: taking them back would show you the "
            "computer's secret orders and the dice to come; only your own orders still waiting can be taken "
            "back (--practice allows it)"
        )
    earlier = Game.replay(game.system, game.scenario, game.seed, game.options, game.history[:index])
    if everyone_human and agreed:
        return TakenBack(
            earlier, f"took back to {earlier.clock} as the table agreed; the dice will roll the same again"
        )
    bots = "" if everyone_human else "the computer will give the same orders again and "
    return TakenBack(earlier, f"practice: took back to {earlier.clock}; {bots}the dice will roll the same")


def end_by_agreement(game: Game, controllers: Mapping[str, str]) -> list[Event]:
    """End ``game`` as a draw, the people at the table having agreed; the computer players answer now.

    Each computer player agrees unless it is ahead (:func:`vectorwar.play.bot_accepts_end`);
    one that does not leaves the game as it was, with a :class:`UserError` naming it.
    """
    sides = side_ids(game.scenario)
    if game.is_over:
        raise UserError("the game is over already")
    for side in sides:
        player = controllers.get(side, HUMAN)
        if player != HUMAN and not bot_accepts_end(game, side):
            raise UserError(f"{side} ({player}) will not end the game: it is ahead; play goes on")
    return game.end_by_agreement(sides)


def refuse_overwrite(path: Path, force: bool) -> None:
    if path.exists() and not force:
        raise UserError(f"{path} already exists; choose another file or add --force to overwrite it")
