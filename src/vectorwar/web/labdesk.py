"""A small lab run on the server, for the scenario editor's "Send it to the lab" (docs/lab.md, *The workshop*).

A designer who has just laid out a scenario wants a first answer to "is it balanced?" without
installing the lab: the server plays it a hundred times between its greedy computer players
(random where a system has none), on seeds 0, 1, ..., and answers each side's wins, draws and
losses with 95% Wilson intervals, how often the game is decided before the turn limit and how long
it lasts: the same figures, worked out by the same code (``lab.games``, ``lab.metrics``), as
``vectorwar lab run`` writes for a full run, whose exact command comes with the answer.

The games never hold up anyone's play: they run in one worker process of their own, at a lower CPU
priority than the web process and the computer players' workers, one run at a time on a server
(another is refused with 429 until it ends), in chunks, within a time budget. A run that reaches its
budget stops and answers the games it played, saying so; a chunk still running then is stopped with
its process.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import shlex
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.pool import Pool
from typing import Any

from vectorwar.lab.games import COLUMNS, Job, game_row
from vectorwar.lab.metrics import cell_metrics
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.savefile import game_to_data
from vectorwar.scenario import Scenario, scenario_from_data
from vectorwar.setup import scenario_from_text, set_up
from vectorwar.web.botpool import NICENESS
from vectorwar.web.service_core import budget_scale

#: Games a run plays unless asked for fewer or more: enough for a 95% interval of about ten points
#: either way on an even match.
LAB_GAMES = 100
#: The most games a run on the server plays; `vectorwar lab run` is for more.
MAX_LAB_GAMES = 200
#: Seconds of play a run may take before it stops with the games it has.
LAB_BUDGET = 30.0
#: Games a task of the worker plays: the budget is looked at between tasks.
CHUNK = 10
#: Games a full run plays (the command the answer offers): `vectorwar lab run`'s default.
FULL_RUN = 1000
#: The lab's worker runs below the computer players' workers (botpool.NICENESS), which run below the web.
LAB_NICENESS = NICENESS + 5


class LabFailed(Exception):
    """A game of the run could not be played (a fault in the rules or the computer players, not the scenario)."""


class LabBusy(Exception):
    """Another designer's run is being played on this server."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__(
            "the server's lab is playing another scenario's games; send yours again when it is done "
            f"(within {retry_after:g} s), or run the lab on your own machine with the command below"
        )


def lab_bots(scenario: Scenario) -> dict[str, str]:
    """The computer player in every side: greedy, or random where the system has no greedy player."""
    offered = get_system(scenario.system).bots()
    bot = "greedy" if "greedy" in offered else "random"
    return {side.id: bot for side in scenario.sides}


def full_run_command(scenario: Scenario, bots: Mapping[str, str], file: str = "scenario.toml") -> str:
    """The command that plays the same set-up :data:`FULL_RUN` times on the designer's own machine."""
    stem = file.removesuffix(".toml")
    words = ["vectorwar", "lab", "run", file, "-n", str(FULL_RUN)]
    words += [w for side, bot in bots.items() for w in ("--side", f"{side}={bot}")]
    words += ["--out", f"{stem}.parquet"]
    return shlex.join(words) + f" && vectorwar lab report {shlex.quote(stem + '.parquet')}"


def play_chunk(scenario_data: Mapping[str, Any], bots: Mapping[str, str], seeds: Sequence[int]) -> list[dict[str, Any]]:
    """One task of the lab's worker: each seed's game played out, as the lab's row (no luck, no sample)."""
    scenario = scenario_from_data(scenario_data, "workshop lab run")
    job = Job(0, scenario_data, bots, games=len(seeds), first_seed=seeds[0] if seeds else 0, details=False)
    rows = []
    for seed in seeds:
        game = play_out(scenario, bots, seed)
        row = game_row(job, scenario, game)
        if seed == 0:
            # The first game whole, so the page can offer it to watch (POST /api/games/import).
            row["sample"] = game_to_data(game, dict(bots))
        rows.append(row)
    return rows


def figures(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The run's figures from its rows: per side and for the set-up, as the lab's cells table has them."""
    frame = {column: [row.get(column, "") for row in rows] for column in COLUMNS}
    cells = cell_metrics(frame)
    first = cells[0]
    side_keys = ("side", "wins", "draws", "losses", "win", "win_lo", "win_hi", "loss", "loss_lo", "loss_hi")
    return {
        "games": first["games"],
        "seeds": first["seeds"],
        "draws": first["draws"],
        **{k: first[k] for k in ("draw", "draw_lo", "draw_hi", "completion", "completion_lo", "completion_hi")},
        **{k: first[k] for k in ("turns_mean", "turns_sd", "turns_min", "turns_max")},
        "sides": [{k: cell[k] for k in side_keys} for cell in cells],
    }


@dataclass(frozen=True, slots=True)
class Prepared:
    """A scenario checked by set-up, ready to send to the worker."""

    scenario: Scenario
    bots: dict[str, str]


def prepare(scenario_toml: str) -> Prepared:
    """The scenario file checked as ``POST /api/games`` checks one and set up once with its computer players
    (raises the set-up's own error), so a scenario that cannot start is refused before any game is played."""
    scenario = scenario_from_text(scenario_toml, "scenario")
    bots = lab_bots(scenario)
    set_up(scenario, bots, seed=0)
    return Prepared(scenario, bots)


def _lower_priority() -> None:
    with contextlib.suppress(OSError, AttributeError):  # no nice() on some platforms: the run is small anyway
        os.nice(LAB_NICENESS)


class LabDesk:
    """The server's lab: one worker process (started when first needed), one run at a time."""

    def __init__(self, budget: float | None = None) -> None:
        self.budget = LAB_BUDGET * budget_scale() if budget is None else budget
        self._pool: Pool | None = None
        self._running = asyncio.Lock()

    def _worker(self) -> Pool:
        if self._pool is None:
            # Never fork a process with threads running; the fork server starts the worker clean.
            method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
            pool = multiprocessing.get_context(method).Pool(1, initializer=_lower_priority)
            weakref.finalize(self, pool.terminate)
            self._pool = pool
        return self._pool

    def _stop_worker(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()

    def close(self) -> None:
        self._stop_worker()

    async def run(self, prepared: Prepared, games: int) -> dict[str, Any]:
        """Play ``games`` games of the prepared scenario within the budget; raises :class:`LabBusy`."""
        if self._running.locked():
            raise LabBusy(self.budget)
        async with self._running:
            return await self._play(prepared, games)

    async def _play(self, prepared: Prepared, games: int) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.budget
        data = prepared.scenario.to_data()
        rows: list[dict[str, Any]] = []
        complete = True
        for start in range(0, games, CHUNK):
            left = deadline - loop.time()
            if left <= 0:
                complete = False
                break
            task = self._worker().apply_async(
                play_chunk, (data, prepared.bots, list(range(start, min(games, start + CHUNK))))
            )
            try:
                rows += await asyncio.to_thread(task.get, left)
            except multiprocessing.TimeoutError:
                # The chunk still running is stopped with its worker; the next run starts a new one.
                self._stop_worker()
                complete = False
                break
            except Exception as err:
                raise LabFailed(f"a game of the lab run could not be played: {err}") from err
        sample = next((row["sample"] for row in rows if isinstance(row.get("sample"), dict)), None)
        return {
            "asked": games,
            "complete": complete,
            "budget": self.budget,
            "bots": prepared.bots,
            "command": full_run_command(prepared.scenario, prepared.bots),
            "figures": figures(rows) if rows else None,
            "sample": sample,
        }
