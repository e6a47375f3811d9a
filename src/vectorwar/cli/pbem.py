"""``vectorwar pbem``: play by e-mail with sealed orders (docs/pbem.md).

The game file travels between the players; each player's keyring
(``GAME.SIDE.secret.json`` beside the game file) stays on their machine and
holds the plot, salt and secret of a commitment until it is revealed, and the
last state of the game the player has seen. Every command loads and checks
both, works in memory, and writes only once everything succeeded.
"""

from __future__ import annotations

import json
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.text import Text

from vectorwar.cli.common import UserError, find_side, out_console, parse_options, refuse_overwrite, reports_errors
from vectorwar.cli.screen import event_lines, game_screen, result_text
from vectorwar.errors import PbemFileError
from vectorwar.limits import MAX_PBEM_FILE_BYTES, cite
from vectorwar.pbem import (
    GAME_ID_DIGITS,
    HEX_DIGITS,
    MAX_DEADLINE_HOURS,
    Keyring,
    PbemGame,
    check_keyring,
    game_from_data,
    keyring_from_data,
    new_keyring,
    rebuild,
    time_text,
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
SideOpt = Annotated[str, typer.Option("--side", help="Your side, e.g. red", metavar="SIDE")]
AtOpt = Annotated[
    str | None,
    typer.Option(
        "--at",
        help="The time to record as now, ISO 8601 (default: this machine's clock); a time is only ever a claim",
        metavar="TIME",
    ),
]
OrderArg = Annotated[
    str | None,
    typer.Argument(help="Your orders for the step you commit to; leave out to see the result first", metavar="ORDER"),
]
BotOpt = Annotated[str | None, typer.Option(help="Let this computer player choose your orders", metavar="BOT")]


def clock(at: str | None) -> int:
    """Now, in Unix seconds: ``at`` (ISO 8601, a zone or UTC) if given, else this machine's clock."""
    if at is None:
        return int(time.time())
    try:
        when = datetime.fromisoformat(at)
    except ValueError:
        raise UserError(f"--at {at!r}: not a time in ISO 8601, like 2027-01-15T08:00:00Z") from None
    if when.tzinfo is None:
        raise UserError(f"--at {at!r}: give the zone, like 2027-01-15T08:00:00Z")
    return int(when.timestamp())


def stamp(pbem: PbemGame, now: int) -> int | None:
    """The time an action records: none in a game with no deadline, and never before the file's last one."""
    if pbem.deadline_hours is None:
        return None
    return max(now, pbem.last_time or 0)


def random_hex(digits: int = HEX_DIGITS) -> str:
    """A fresh salt, secret or game id from the operating system's secret source."""
    return secrets.token_hex(digits // 2)


def keyring_path(file: Path, side: str) -> Path:
    """Where ``side``'s keyring for the game in ``file`` lives: beside it, ``GAME.SIDE.secret.json``."""
    return file.with_name(f"{file.stem}.{side}.secret.json")


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


def opened(
    file: Path, side: str, at: str | None, *, required: bool = False, seen: bool = True
) -> tuple[PbemGame, str, int, Keyring]:
    """What a side's command starts from: the game file, the side as the file names it, now (``at``, else this
    machine's clock) and the side's keyring checked against the file (:func:`load_keyring`), marked as having
    seen the file now unless ``seen`` is false."""
    pbem = load(file)
    side = find_side(pbem.sides, side)
    now = clock(at)
    keyring = load_keyring(file, pbem, side, required=required, now=now)
    return pbem, side, now, keyring.saw(pbem, now) if seen else keyring


def load_keyring(file: Path, pbem: PbemGame, side: str, *, required: bool, now: int | None = None) -> Keyring:
    """``side``'s keyring, checked against the game file (a claim against the side by ``now``, this machine's
    clock): a new one if it has none and may start one."""
    path = keyring_path(file, side)
    if not path.exists():
        if required:
            raise UserError(f"{path}: no keyring for {side}: reveal on the machine that made the commitment")
        return new_keyring(pbem, side)
    keyring = keyring_from_data(read_json(path, "keyring"), str(path))
    check_keyring(pbem, keyring, side, now)
    return keyring


def save(file: Path, pbem: PbemGame) -> None:
    write_atomically(file, json.dumps(pbem.to_data(), indent=1) + "\n")


def save_keyring(file: Path, keyring: Keyring) -> None:
    write_atomically(keyring_path(file, keyring.side), json.dumps(keyring.to_data(), indent=1) + "\n")


def status_text(pbem: PbemGame, file: Path | None = None) -> Text:
    """Where the game stands and what each side owes next."""
    text = Text(
        f"{pbem.scenario.title} ({pbem.system.manifest.title}), step {pbem.step}: {pbem.moment}\n", style="bold"
    )
    if pbem.is_over:
        text.append_text(result_text(pbem.game) if pbem.game is not None else Text("game over"))
        return text
    owed = pbem.owed()
    for side in pbem.sides:
        what = owed.get(side)
        if what == "commit":
            order = "its plot" if side in pbem.prompted else "a secret (no orders at this step)"
            line = f"{side}: owes its commitment: {order}"
        elif what == "reveal":
            line = f"{side}: owes its reveal (every side has committed)"
        else:
            line = f"{side}: done at this step, waiting for the others"
        text.append(line + "\n")
    if pbem.agreed:
        waiting = [s for s in pbem.sides if s not in pbem.agreed]
        text.append(f"a draw is offered: {', '.join(pbem.agreed)} agreed; it ends the game drawn if "
                    f"{' and '.join(waiting)} agree{'s' if len(waiting) == 1 else ''} at this step "
                    "(vectorwar pbem draw), and lapses when the step resolves\n")  # fmt: skip
    if pbem.whole_turns:
        text.append("one file a turn: a plot may add standing fire for the turn's later prompts, "
                    "like 'Hawk 2L1 | fire at any 30%'\n")  # fmt: skip
    due = pbem.claimable_at()
    if due is not None and pbem.last_time is not None:
        text.append(
            f"deadline: {pbem.deadline_hours} h a step; the last action was at {time_text(pbem.last_time)}, "
            f"so from {time_text(due)} the others may claim the step against {', '.join(owed)}\n"
        )
    text.append(f"file state {pbem.sequence}, hash {pbem.head[:16]}...", style="dim")
    if file is not None and owed:
        first = next(iter(owed))
        text.append(f"\nnext: vectorwar pbem turn {file} --side {first}", style="dim")
    return text


@pbem_app.command("new")
@reports_errors
def new_command(
    scenario: Annotated[str, typer.Argument(help="Built-in scenario id or a .toml file", metavar="SCENARIO")],
    side: SideOpt,
    file: Annotated[Path, typer.Option("--file", help="The game file to create", dir_okay=False, metavar="FILE")],
    option: Annotated[
        list[str] | None, typer.Option("--option", help="Rule option NAME=VALUE (see `systems`)", metavar="NAME=VALUE")
    ] = None,
    max_turns: Annotated[int | None, typer.Option(help="End the game after this turn", min=1, metavar="N")] = None,
    deadline_hours: Annotated[
        int | None,
        typer.Option(
            "--deadline-hours",
            help="Hours a step may wait for a side before the others can claim it (written into the game)",
            min=1,
            max=MAX_DEADLINE_HOURS,
            metavar="H",
        ),
    ] = None,
    whole_turns: Annotated[
        bool,
        typer.Option(
            "--whole-turns",
            help="One file a turn: each plot adds standing fire ('| fire at any 30%%') for the turn's later prompts",
        ),
    ] = False,
    at: AtOpt = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite FILE if it exists")] = False,
) -> None:
    """Start a game file, and commit your side's secret for the set-up's dice."""
    refuse_overwrite(file, force)
    chosen = find_scenario(scenario, files=True)
    if max_turns is not None:
        chosen = chosen.model_copy(update={"max_turns": max_turns})
    options = parse_options(option or [], system_of(chosen), chosen)
    pbem = PbemGame.new(chosen, random_hex(GAME_ID_DIGITS), options, deadline_hours, whole_turns)
    side = find_side(pbem.sides, side)
    now = clock(at)
    keyring = _commit(pbem, new_keyring(pbem, side), "", stamp(pbem, now)).saw(pbem, now)
    save_keyring(file, keyring)
    save(file, pbem)
    console = out_console()
    console.print(
        Text(f"new play-by-e-mail game {pbem.game_id} in {file}; {side}'s keyring: {keyring_path(file, side)}")
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
    side: SideOpt,
    order: Annotated[
        str, typer.Argument(help="Your orders in the system's notation; leave out when you have none", metavar="ORDER")
    ] = "",
    bot: BotOpt = None,
    at: AtOpt = None,
) -> None:
    """Commit your side's orders for this step: checked as in play, sent as a hash, kept in your keyring."""
    pbem, side, now, keyring = opened(file, side, at)
    if bot is not None:
        order = _bot_order(pbem, side, bot)
    keyring = _commit(pbem, keyring, order, stamp(pbem, now), file)
    save(file, pbem)
    save_keyring(file, keyring)
    sealed = keyring.sealed_at(pbem.step)
    said = f": {sealed.plot}" if sealed is not None and sealed.plot else " (no orders, a secret only)"
    console = out_console()
    console.print(Text(f"{side} committed at step {pbem.step}{said}; the file holds only its hash"))
    console.print(status_text(pbem, file))


@pbem_app.command("reveal")
@reports_errors
def reveal_command(file: FileArg, side: SideOpt, at: AtOpt = None) -> None:
    """Reveal your committed plot, salt and secret; the last reveal resolves the step with everyone's dice."""
    pbem, side, now, keyring = opened(file, side, at, required=True)
    step = pbem.step
    sealed, events = pbem.reveal_sealed(keyring, stamp(pbem, now))
    save(file, pbem)
    save_keyring(file, keyring.saw(pbem, now))
    console = out_console()
    console.print(Text(f"{side} revealed at step {step}" + (f": {sealed.plot}" if sealed.plot else "")))
    if pbem.step > step and pbem.game is not None:
        console.print(Text(f"every side revealed: step {step} resolved with the dice of every secret"))
        for line in event_lines(events):
            console.print(line)
    console.print(status_text(pbem, file))


@pbem_app.command("show")
@reports_errors
def show_command(file: FileArg, side: SideOpt, at: AtOpt = None) -> None:
    """The game as your side sees it: the map, the ship cards, your sealed plot, what each side owes.

    Opening a new file with ``show`` is your record of when it reached you, which a claim against your side
    is checked against: open each file as it arrives.
    """
    # Checked even with no keyring yet: a file already holding actions for this side is refused.
    pbem, side, now, keyring = opened(file, side, at, seen=False)
    console = out_console()
    if pbem.game is not None:
        console.print(game_screen(pbem.game, side), soft_wrap=True)
    sealed = keyring.sealed_at(pbem.step)
    if sealed is not None:
        console.print(Text(f"your sealed plot ({side}): {sealed.plot or '(none: a secret only)'}"))
    console.print(status_text(pbem, file))
    # Written even for a first look: it is this player's record of when the file reached them.
    save_keyring(file, keyring.saw(pbem, now))


@pbem_app.command("turn")
@reports_errors
def turn_command(file: FileArg, side: SideOpt, order: OrderArg = None, bot: BotOpt = None, at: AtOpt = None) -> None:
    """Everything your side owes in one pass: reveal what you sealed, see the result, commit your next orders.

    Run it without ORDER to reveal and see the new step; then again with ORDER (or --bot) to commit. If your
    commitment is the step's last, it is revealed at once. Then send the file on: one file a step from each side.
    """
    pbem, side, now, keyring = opened(file, side, at)
    _pass(file, pbem, keyring, order, bot, now)


@pbem_app.command("claim")
@reports_errors
def claim_command(file: FileArg, side: SideOpt, order: OrderArg = None, bot: BotOpt = None, at: AtOpt = None) -> None:
    """Claim the step against the sides still owing, once the game's deadline has passed, then play on.

    Each silent side gives its standing orders from the file, else the rules' order that changes nothing (a
    hold, or every ship keeping its course), and its secret is left out of the dice. Anyone can check the
    claim from the file; the silent player's own copy of vectorwar refuses one made before the deadline by
    its record of when the file came.
    """
    pbem, side, now, keyring = opened(file, side, at)
    when = stamp(pbem, now)
    if when is None:
        pbem.claim(side, now)  # refused: a game with no deadline has no claims
        return
    start = len(pbem.game.events) if pbem.game is not None else 0
    claim = pbem.claim(side, when)
    console = out_console()
    console.print(
        Text(f"{side} claimed step {claim.step} at {time_text(claim.at)} against {', '.join(claim.against)}, "
             f"silent since {time_text(claim.since)}")
    )  # fmt: skip
    if pbem.game is not None:
        for line in event_lines(list(pbem.game.events[start:])):
            console.print(line)
    _pass(file, pbem, keyring.saw(pbem, now), order, bot, now)


@pbem_app.command("concede")
@reports_errors
def concede_command(
    file: FileArg,
    side: SideOpt,
    yes: Annotated[bool, typer.Option("--yes", help="Concede: without it, nothing is written")] = False,
    at: AtOpt = None,
) -> None:
    """Give the game up: it ends now and the other sides win. Send the file on so they see it.

    It cannot be taken back, so it needs --yes. Only your own copy of vectorwar, with your keyring, can
    concede for your side: a concession in your name that your keyring did not make is refused by your tools.
    """

    def confirmed(side: str) -> None:
        if not yes:
            raise UserError(
                f"conceding ends the game and cannot be taken back: run it again with --yes to concede for {side}"
            )

    _end_early(file, side, at, PbemGame.concede, confirmed)
    out_console().print(Text(f"send {file} on: the others see the game over when they open it", style="dim"))


@pbem_app.command("draw")
@reports_errors
def draw_command(file: FileArg, side: SideOpt, at: AtOpt = None) -> None:
    """Offer to end the game as a draw, or agree to the offer in the file. Send the file on.

    The game ends drawn once every side has agreed at the same step; an offer lapses when the step resolves,
    so a side that would rather play on just takes its turn.
    """
    _end_early(file, side, at, PbemGame.agree)


def _end_early(
    file: Path,
    side: str,
    at: str | None,
    act: Callable[[PbemGame, str, int | None], object],
    confirmed: Callable[[str], None] | None = None,
) -> None:
    """``side``'s concession or agreement to a draw (``act``) added to the file, once ``confirmed`` allows it."""
    pbem, side, now, keyring = opened(file, side, at)
    if confirmed is not None:
        confirmed(side)
    act(pbem, side, stamp(pbem, now))
    # The keyring first, as a pass writes them: it keeps the action, so a lost file can be rebuilt.
    save_keyring(file, keyring.saw(pbem, now))
    save(file, pbem)
    out_console().print(status_text(pbem, file))


@pbem_app.command("rebuild")
@reports_errors
def rebuild_command(
    file: FileArg,
    side: SideOpt,
    source: Annotated[
        Path | None,
        typer.Option(
            "--from",
            help="The file your last pass answered (default: FILE itself, if an older file overwrote it)",
            dir_okay=False,
            metavar="RECEIVED",
        ),
    ] = None,
) -> None:
    """Rebuild the file you sent last, if you lost it, from the file it answered and your keyring.

    Your keyring (beside FILE) keeps your last pass, so the file you sent is the one you received with that
    pass added again; it must come out exactly as you last saw it. The result is written to FILE.
    """
    base = load(source if source is not None else file)
    side = find_side(base.sides, side)
    path = keyring_path(file, side)
    if not path.exists():
        raise UserError(f"{path}: no keyring for {side}: rebuild on the machine that sent the file")
    keyring = keyring_from_data(read_json(path, "keyring"), str(path))
    if keyring.side != side:
        raise UserError(f"{path}: the keyring is {keyring.side}'s, not {side}'s")
    pbem = rebuild(base, keyring)
    save(file, pbem)
    console = out_console()
    console.print(Text(f"rebuilt {file}: state {pbem.sequence}, hash {pbem.head[:16]}..., as {side} sent it"))
    console.print(status_text(pbem, file))


def _pass(file: Path, pbem: PbemGame, keyring: Keyring, order: str | None, bot: str | None, now: int) -> None:
    """The rest of a side's pass (:meth:`PbemGame.turn`), the files written, and what it did in words."""
    side = keyring.side
    when = stamp(pbem, now)
    done = pbem.turn(keyring, None, random_hex(), random_hex(), when)
    if done.needs_orders and (order is not None or bot is not None):
        chosen = _bot_order(pbem, side, bot) if bot is not None else order
        later = pbem.turn(done.keyring, chosen, random_hex(), random_hex(), when)
        done = replace(later, revealed=done.revealed + later.revealed, events=done.events + later.events)
    elif order and not done.needs_orders:
        raise UserError(f"{side} has no orders to give now ({pbem.moment}): leave ORDER out")
    # The keyring first: a crash between the two writes never loses the secret of a commitment in the file.
    save_keyring(file, done.keyring)
    save(file, pbem)
    console = out_console()
    for sealed in done.revealed:
        console.print(Text(f"{side} revealed at step {sealed.step}" + (f": {sealed.plot}" if sealed.plot else "")))
    for line in event_lines(list(done.events)):
        console.print(line)
    if done.committed is not None:
        console.print(Text(f"{side} committed at step {done.committed.step}: {done.committed.plot}"))
    if done.needs_orders:
        if pbem.game is not None:
            console.print(game_screen(pbem.game, side), soft_wrap=True)
        console.print(Text(f"your orders now ({pbem.moment}): vectorwar pbem turn {file} --side {side} ORDER"))
    else:
        console.print(status_text(pbem, file))


def _commit(pbem: PbemGame, keyring: Keyring, order: str, at: int | None = None, file: Path | None = None) -> Keyring:
    """Seal ``order`` with fresh random values and commit it; the keyring that keeps them.

    The keyring is written before the game file (``file``), holding the sealed plot, so a crash between the
    two writes never leaves a commitment whose secret is lost.
    """
    sealed = pbem.seal(keyring.side, order, random_hex(), random_hex())
    keeping = keyring.keep(sealed)
    if file is not None:
        save_keyring(file, keeping)
    pbem.commit(keyring.side, *sealed.hashes(pbem.game_id, keyring.side), at)
    return keeping.saw(pbem)


def _bot_order(pbem: PbemGame, side: str, name: str) -> str:
    if pbem.game is None or side not in pbem.prompted:
        return ""
    bots = computer_players(pbem.system)
    if name not in bots:
        raise UserError(f"no computer player called {name!r} (known: {', '.join(bots)})")
    game = pbem.game
    # The bot's own choices come from a fresh secret, not from anything in the shared file.
    rng = random.Random(random_hex())
    return str(bots[name]().choose(game.system.side_view(game.state, side), side, rng))
