"""``vectorwar pbem``: play by e-mail with sealed orders (docs/pbem.md).

The game file travels between the players; each player's keyring
(``GAME.SEAT.secret.json`` beside the game file) stays on their machine and
holds the plot, salt and secret of a commitment until it is revealed, and the
last state of the game the player has seen. Every command loads and checks
both, works in memory, and writes only once everything succeeded.
"""

from __future__ import annotations

import json
import random
import secrets
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from vectorwar.cli.common import UserError, find_seat, out_console, parse_options, refuse_overwrite, reports_errors
from vectorwar.cli.screen import event_lines, game_screen, result_text
from vectorwar.errors import PbemFileError
from vectorwar.limits import MAX_PBEM_FILE_BYTES, cite
from vectorwar.pbem import (
    GAME_ID_DIGITS,
    HEX_DIGITS,
    Keyring,
    PbemGame,
    check_keyring,
    game_from_data,
    keyring_from_data,
    new_keyring,
)
from vectorwar.players import computer_players
from vectorwar.savefile import write_atomically
from vectorwar.setup import find_scenario, system_of

pbem_app = typer.Typer(
    help="Play by e-mail with sealed orders: pass a game file around; plots travel as hashes until all are in.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

FileArg = Annotated[Path, typer.Argument(help="The game file (JSON) the players pass around", dir_okay=False)]
SeatOpt = Annotated[str, typer.Option("--seat", help="Your seat, e.g. red", metavar="SEAT")]


def random_hex(digits: int = HEX_DIGITS) -> str:
    """A fresh salt, secret or game id from the operating system's secret source."""
    return secrets.token_hex(digits // 2)


def keyring_path(file: Path, seat: str) -> Path:
    """Where ``seat``'s keyring for the game in ``file`` lives: beside it, ``GAME.SEAT.secret.json``."""
    return file.with_name(f"{file.stem}.{seat}.secret.json")


def read_json(path: Path, what: str) -> Any:
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise PbemFileError(f"{path}: no such {what}") from None
    if size > MAX_PBEM_FILE_BYTES:
        raise PbemFileError(
            f"{path}: {size} bytes is above the limit of {MAX_PBEM_FILE_BYTES} ({cite(MAX_PBEM_FILE_BYTES)})"
        )
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as err:
        raise PbemFileError(f"{path}: not valid JSON: {err}") from None


def load(file: Path) -> PbemGame:
    return game_from_data(read_json(file, "game file"), str(file))


def load_keyring(file: Path, pbem: PbemGame, seat: str, *, required: bool) -> Keyring:
    """``seat``'s keyring, checked against the game file: a new one if it has none and may start one."""
    path = keyring_path(file, seat)
    if not path.exists():
        if required:
            raise UserError(f"{path}: no keyring for {seat}: reveal on the machine that made the commitment")
        return new_keyring(pbem, seat)
    keyring = keyring_from_data(read_json(path, "keyring"), str(path))
    check_keyring(pbem, keyring, seat)
    return keyring


def save(file: Path, pbem: PbemGame) -> None:
    write_atomically(file, json.dumps(pbem.to_data(), indent=1) + "\n")


def save_keyring(file: Path, keyring: Keyring) -> None:
    write_atomically(keyring_path(file, keyring.seat), json.dumps(keyring.to_data(), indent=1) + "\n")


def status_text(pbem: PbemGame, file: Path | None = None) -> Text:
    """Where the game stands and what each side owes next."""
    text = Text(
        f"{pbem.scenario.title} ({pbem.system.manifest.title}), step {pbem.step}: {pbem.moment}\n", style="bold"
    )
    if pbem.is_over:
        text.append_text(result_text(pbem.game) if pbem.game is not None else Text("game over"))
        return text
    owed = pbem.owed()
    for seat in pbem.seats:
        what = owed.get(seat)
        if what == "commit":
            order = "its plot" if seat in pbem.prompted else "a secret (no orders at this step)"
            line = f"{seat}: owes its commitment: {order}"
        elif what == "reveal":
            line = f"{seat}: owes its reveal (every side has committed)"
        else:
            line = f"{seat}: done at this step, waiting for the others"
        text.append(line + "\n")
    text.append(f"file state {pbem.sequence}, hash {pbem.head[:16]}...", style="dim")
    if file is not None and owed:
        first = next(iter(owed))
        verb = "plot" if owed[first] == "commit" else "reveal"
        text.append(f"\nnext: vectorwar pbem {verb} {file} --seat {first}", style="dim")
    return text


@pbem_app.command("new")
@reports_errors
def new_command(
    scenario: Annotated[str, typer.Argument(help="Built-in scenario id or a .toml file", metavar="SCENARIO")],
    seat: SeatOpt,
    file: Annotated[Path, typer.Option("--file", help="The game file to create", dir_okay=False, metavar="FILE")],
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Rule option NAME=VALUE (see `systems`)", metavar="NAME=VALUE")
    ] = None,
    max_turns: Annotated[int | None, typer.Option(help="End the game after this turn", min=1, metavar="N")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists")] = False,
) -> None:
    """Start a game file, and commit your seat's secret for the set-up's dice."""
    refuse_overwrite(file, force)
    chosen = find_scenario(scenario, files=True)
    if max_turns is not None:
        chosen = chosen.model_copy(update={"max_turns": max_turns})
    options = parse_options(option or [], system_of(chosen), chosen)
    pbem = PbemGame.new(chosen, random_hex(GAME_ID_DIGITS), options)
    seat = find_seat(pbem.seats, seat)
    keyring = _commit(pbem, new_keyring(pbem, seat), "")
    save_keyring(file, keyring)
    save(file, pbem)
    console = out_console()
    console.print(
        Text(f"new play-by-e-mail game {pbem.game_id} in {file}; {seat}'s keyring: {keyring_path(file, seat)}")
    )
    console.print(status_text(pbem, file))


@pbem_app.command("status")
@reports_errors
def status_command(file: FileArg) -> None:
    """Where the game stands and what each side owes (anyone may look: the file holds no secret)."""
    out_console().print(status_text(load(file), file))


@pbem_app.command("plot")
@reports_errors
def plot_command(
    file: FileArg,
    seat: SeatOpt,
    order: Annotated[
        str, typer.Argument(help="Your orders in the system's notation; leave out when you have none", metavar="ORDER")
    ] = "",
    bot: Annotated[str | None, typer.Option(help="Let this computer player choose your orders", metavar="BOT")] = None,
) -> None:
    """Commit your seat's orders for this step: checked as in play, sent as a hash, kept in your keyring."""
    pbem = load(file)
    seat = find_seat(pbem.seats, seat)
    keyring = load_keyring(file, pbem, seat, required=False)
    if bot is not None:
        order = _bot_order(pbem, seat, bot)
    keyring = _commit(pbem, keyring, order, file)
    save(file, pbem)
    save_keyring(file, keyring)
    sealed = keyring.sealed_at(pbem.step)
    said = f": {sealed.plot}" if sealed is not None and sealed.plot else " (no orders, a secret only)"
    console = out_console()
    console.print(Text(f"{seat} committed at step {pbem.step}{said}; the file holds only its hash"))
    console.print(status_text(pbem, file))


@pbem_app.command("reveal")
@reports_errors
def reveal_command(file: FileArg, seat: SeatOpt) -> None:
    """Reveal your committed plot, salt and secret; the last reveal resolves the step with everyone's dice."""
    pbem = load(file)
    seat = find_seat(pbem.seats, seat)
    keyring = load_keyring(file, pbem, seat, required=True)
    step = pbem.step
    sealed, events = pbem.reveal_sealed(keyring)
    save(file, pbem)
    save_keyring(file, keyring.saw(pbem))
    console = out_console()
    console.print(Text(f"{seat} revealed at step {step}" + (f": {sealed.plot}" if sealed.plot else "")))
    if pbem.step > step and pbem.game is not None:
        console.print(Text(f"every side revealed: step {step} resolved with the dice of every secret"))
        for line in event_lines(events):
            console.print(line)
    console.print(status_text(pbem, file))


@pbem_app.command("show")
@reports_errors
def show_command(file: FileArg, seat: SeatOpt) -> None:
    """The game as your seat sees it: the map, the ship cards, your sealed plot, what each side owes."""
    pbem = load(file)
    seat = find_seat(pbem.seats, seat)
    kept = keyring_path(file, seat).exists()
    # Checked even with no keyring yet: a file already holding actions for this seat is refused.
    keyring = load_keyring(file, pbem, seat, required=False)
    console = out_console()
    if pbem.game is not None:
        console.print(game_screen(pbem.game, seat), soft_wrap=True)
    sealed = keyring.sealed_at(pbem.step)
    if sealed is not None:
        console.print(Text(f"your sealed plot ({seat}): {sealed.plot or '(none: a secret only)'}"))
    console.print(status_text(pbem, file))
    if kept:
        save_keyring(file, keyring.saw(pbem))


def _commit(pbem: PbemGame, keyring: Keyring, order: str, file: Path | None = None) -> Keyring:
    """Seal ``order`` with fresh random values and commit it; the keyring that keeps them.

    The keyring is written before the game file (``file``), holding the sealed plot, so a crash between the
    two writes never leaves a commitment whose secret is lost.
    """
    sealed = pbem.seal(keyring.seat, order, random_hex(), random_hex())
    keeping = keyring.keep(sealed)
    if file is not None:
        save_keyring(file, keeping)
    pbem.commit(keyring.seat, *sealed.hashes(pbem.game_id, keyring.seat))
    return keeping.saw(pbem)


def _bot_order(pbem: PbemGame, seat: str, name: str) -> str:
    if pbem.game is None or seat not in pbem.prompted:
        return ""
    bots = computer_players(pbem.system)
    if name not in bots:
        raise UserError(f"no computer player called {name!r} (known: {', '.join(bots)})")
    game = pbem.game
    # The bot's own choices come from a fresh secret, not from anything in the shared file.
    rng = random.Random(random_hex())
    return str(bots[name]().choose(game.system.seat_view(game.state, seat), seat, rng))
