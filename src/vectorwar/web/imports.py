"""Finished games brought in from save files, to be watched in the browser's replay (``POST /api/games/import``).

A save file (``vectorwar play``'s, or a lab sample's) is read as the command line reads one: its
orders are replayed from its set-up and seed, and the file is refused unless the replay gives the
state and event log it records exactly (:func:`vectorwar.savefile.game_from_data`). Only a finished
game comes in: the server has no way to tell who should hold the sides of one still being played.
Every side becomes a computer side nobody holds, and the game is marked as one whose seed was fixed,
since whoever has the file knows every roll. No I/O here: the service replays and stores
(``GameService.import_game``), within the replay budget.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from vectorwar.errors import SaveFileError
from vectorwar.game import Game
from vectorwar.players import computer_players
from vectorwar.rules import Clock
from vectorwar.savefile import game_from_data
from vectorwar.serial import to_data
from vectorwar.web.referee import BOT_PREFIX, Table, game_record
from vectorwar.web.store import NewGame, Progress

#: Bytes of a save file the server reads (the command line reads up to 16 MiB; a lab sample of a
#: three-against-three MSC game is under 200 KB).
MAX_IMPORT_BYTES = 4 * 1024 * 1024
#: Where the server's request-size limit lets a save file through (web/app.py's BodyLimit).
IMPORT_PATH = "/api/games/import"


class ImportRefused(ValueError):
    """A save file the server will not take: what is wrong with it, in words."""


@dataclass(frozen=True, slots=True)
class Imported:
    """A finished game read from a save file and the computer player that takes each side."""

    game: Game
    controllers: dict[str, str]


def read_save(body: bytes) -> Imported:
    """The finished game a save file holds, replayed and checked; raises :class:`ImportRefused`."""
    if len(body) > MAX_IMPORT_BYTES:
        raise ImportRefused(f"a save file may be at most {MAX_IMPORT_BYTES} bytes; this one has {len(body)}")
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as err:
        raise ImportRefused(f"not a save file: not valid JSON ({err})") from None
    except RecursionError:
        raise ImportRefused("not a save file: nested too deep to read") from None
    if isinstance(data, dict) and not isinstance(data.get("controllers", {}), dict):
        raise ImportRefused("save file: controllers: a table of side = player, as the command line writes it")
    try:
        game, controllers = game_from_data(data, "save file")
    except SaveFileError as err:
        raise ImportRefused(str(err)) from None
    except RecursionError:
        raise ImportRefused("save file: nested too deep to read") from None
    if not game.is_over:
        raise ImportRefused(
            f"save file: the game is not over (it waits at {game.clock}): only a finished game can be "
            "imported to watch; play it on with `vectorwar play FILE`"
        )
    return Imported(game, computer_sides(game, controllers))


def computer_sides(game: Game, saved: Mapping[str, str]) -> dict[str, str]:
    """Each side as a computer side (``bot:NAME``): the computer player the file names for it, else greedy
    (random where the system has no greedy player). Nobody plays a finished game on, so the name only says
    who played it where the file knows."""
    offered = computer_players(game.system)
    fallback = "greedy" if "greedy" in offered else "random"
    sides = [side.id for side in game.scenario.sides]
    return {side: BOT_PREFIX + (saved[side] if saved.get(side) in offered else fallback) for side in sides}


def record_of(game_id: str, imported: Imported) -> NewGame:
    """What the store keeps of the imported game: its set-up, computer sides, no tokens, every batch."""
    game = imported.game
    batches = tuple((to_data(b.clock, Clock), b.orders) for b in game.history)
    last = game.history[-1].clock.turn if game.history else 1
    played = Progress(
        first_step=0,
        batches=batches,
        pending={},
        clock="",
        turn=last,
        over=True,
        ending=game.history[-1].end if game.history else "",
    )
    return game_record(game_id, game, imported.controllers, {}, practice=True, played=played)


def table_of(game_id: str, imported: Imported) -> Table:
    """The imported game on a table: no tokens, no bots to ask (the game is over), its seed marked as fixed."""
    return Table(game_id, imported.game, dict(imported.controllers), {}, {}, {}, practice=True)
