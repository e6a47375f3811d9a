"""Save files: one readable JSON file per game, written atomically.

A save holds the setup (the full scenario, options, seed), who controls each
side, every resolved order batch, any plots still waiting, and, for people
reading the file, the current state and the event log. Loading replays the
orders from the setup and refuses the file if the replay does not reproduce
the recorded state and log exactly (an edited file, or a rules change).
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from vectorwar import __version__
from vectorwar.errors import SaveFileError, VectorwarError
from vectorwar.events import event_to_data
from vectorwar.game import Game, OrderBatch
from vectorwar.limits import MAX_HISTORY, MAX_SAVE_FILE_BYTES, MAX_SEED_BITS, MAX_SIDES, cite
from vectorwar.registry import get_system
from vectorwar.rules import Clock
from vectorwar.scenario import scenario_from_data
from vectorwar.serial import from_data, to_data

FORMAT = "vectorwar-save"
VERSION = 1


def game_to_data(game: Game, controllers: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "vectorwar": __version__,
        "system": game.system.manifest.name,
        "seed": game.seed,
        "options": dict(game.options),
        "controllers": dict(controllers or {}),
        "scenario": game.scenario.to_data(),
        "history": [batch_to_data(b) for b in game.history],
        "pending": {side: str(order) for side, order in game.pending.items()},
        "dice_count": game.dice_count,
        "state": game.system.state_to_data(game.state),
        "events": [event_to_data(e) for e in game.events],
    }


def batch_to_data(batch: OrderBatch) -> dict[str, Any]:
    """A batch as a save holds it: ``end`` only on the batch that ended the game, so other batches read as ever."""
    data: dict[str, Any] = to_data(batch, OrderBatch)
    if not batch.end:
        data.pop("end", None)
    return data


def game_from_data(data: Any, source: str = "save") -> tuple[Game, dict[str, str]]:
    """Rebuild a game by replay and check it against the recorded state."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveFileError(f"{source}: not a vectorwar save file")
    if data.get("version") != VERSION:
        raise SaveFileError(f"{source}: save format version {data.get('version')!r}, this vectorwar reads {VERSION}")
    _check_bounds(data, source)
    try:
        system = get_system(str(data["system"]))
        scenario = scenario_from_data(data["scenario"], f"{source}: scenario")
        history = [from_data(OrderBatch, b) for b in data["history"]]
        game = Game.replay(system, scenario, data["seed"], data["options"], history)
        for side, text in dict(data.get("pending", {})).items():
            game.submit(side, text)
    except KeyError as err:
        raise SaveFileError(f"{source}: missing key {err.args[0]!r}") from None
    except (VectorwarError, ValueError, TypeError) as err:
        raise SaveFileError(f"{source}: cannot replay the recorded orders: {err}") from None
    if "state" in data and system.state_to_data(game.state) != data["state"]:
        raise SaveFileError(f"{source}: replaying the orders does not give the recorded state")
    if "events" in data and [event_to_data(e) for e in game.events] != data["events"]:
        raise SaveFileError(f"{source}: replaying the orders does not give the recorded event log")
    controllers = {str(k): str(v) for k, v in dict(data.get("controllers", {})).items()}
    return game, controllers


def _check_bounds(data: dict[str, Any], source: str) -> None:
    """The save's numbers and lists against their limits, before anything is replayed from them."""
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**MAX_SEED_BITS:
        wanted = f"a whole number from 0 to 2**{MAX_SEED_BITS} - 1 ({cite(MAX_SEED_BITS)})"
        raise SaveFileError(f"{source}: seed: {wanted}, not {str(seed)[:40]}")
    history = data.get("history", [])
    if not isinstance(history, list) or len(history) > MAX_HISTORY:
        size = len(history) if isinstance(history, list) else type(history).__name__
        raise SaveFileError(
            f"{source}: history: a list of at most {MAX_HISTORY} order batches ({cite(MAX_HISTORY)}), not {size}"
        )
    pending = data.get("pending", {})
    if not isinstance(pending, dict) or len(pending) > MAX_SIDES:
        raise SaveFileError(f"{source}: pending: at most one plot per side ({cite(MAX_SIDES)})")


def save_game(game: Game, path: Path, controllers: dict[str, str] | None = None) -> None:
    """Write ``path`` atomically: a crash leaves the old file or the new, never half of one."""
    write_atomically(path, json.dumps(game_to_data(game, controllers), indent=1, sort_keys=False) + "\n")


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one step: write a temporary file beside it, sync, rename."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent or Path("."), prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_game(path: Path) -> tuple[Game, dict[str, str]]:
    try:
        size = Path(path).stat().st_size
        if size > MAX_SAVE_FILE_BYTES:
            raise SaveFileError(
                f"{path}: {size} bytes is above the limit of {MAX_SAVE_FILE_BYTES} ({cite(MAX_SAVE_FILE_BYTES)})"
            )
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SaveFileError(f"{path}: no such save file") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise SaveFileError(f"{path}: not valid JSON: {err}") from None
    except RecursionError:
        # The parser recurses once a level: a file nested past Python's depth is no save file.
        raise SaveFileError(f"{path}: not valid JSON: nested too deep to read") from None
    try:
        return game_from_data(data, str(path))
    except RecursionError:
        raise SaveFileError(f"{path}: not a vectorwar save: nested too deep to read") from None


__all__ = ["Clock", "batch_to_data", "game_from_data", "game_to_data", "load_game", "save_game", "write_atomically"]
