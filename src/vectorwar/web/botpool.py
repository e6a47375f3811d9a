"""Computer players think in worker processes of their own (docs/web.md, "Deployment and limits").

A bot's decision is CPU work that can take seconds (the ``search`` levels).
Run on the server's own threads it would share the web process's CPU and
its GIL with every other game's orders, and a thread over its budget cannot
be stopped. So each decision goes to a pool of worker processes:

* **cheap and exact hand-over.** A :class:`Decision` carries what the bot
  reads of the game (the system's name, the frozen state, the seed, the
  step, the side and the bot's name), pickled in a few kilobytes; the worker
  answers with the order, which the service gives on its own copy of the
  game. The bot gets the same view and the same random source as in the
  web process (:func:`vectorwar.play.bot_decision`), so its order is the same.
* **a budget that stops the work.** A decision still running past its budget
  is cancelled by killing its worker process; a fresh one takes its place
  for the next decision. The service logs it and asks the bot again later.
* **people first.** Games where a person holds a side (:data:`PEOPLE`) and
  games of computer players only (:data:`BOTS_ONLY`) have workers of their
  own, each lane first come first served. A decision cannot be stopped part
  way and handed back, so a person's game never waits behind a long
  ``search:3`` decision of a game nobody plays in: the bot-only lane's
  workers run at a lower CPU priority still, taking little of a core the web
  process or the people's workers want.

Waiting for a free worker does not count against a decision's budget: the
budget bounds the work, the lane the wait.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import multiprocessing
import os
import signal
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.context import ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any

from vectorwar.rules import Order

__all__ = [
    "BOTS_ONLY",
    "PEOPLE",
    "BotFailed",
    "BotOverBudget",
    "BotPool",
    "Decision",
    "bots_only_size",
    "decide",
    "default_size",
]

#: The lane of a decision for a game where a person holds a side.
PEOPLE = 0
#: The lane of a decision for a game of computer players only.
BOTS_ONLY = 1
#: How much lower the people's workers' CPU priority is than the web process's (Unix ``nice``), so that on
#: a busy machine the web process's requests come before the bots' thinking.
NICENESS = 5
#: The bot-only lane's: lower still, so such games take little of a core others want, yet never stop.
NICENESS_BOTS_ONLY = 15


def default_size() -> int:
    """One worker per core but one, which stays the web process's; at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def bots_only_size(size: int) -> int:
    """Workers for the games of computer players only beside ``size`` for people's: half as many, at least one.

    >>> bots_only_size(1), bots_only_size(4), bots_only_size(7)
    (1, 2, 3)
    """
    return max(1, size // 2)


@dataclass(frozen=True, slots=True)
class Decision:
    """One computer player's next order to decide: all the worker needs, and no more."""

    system: str
    state: Any
    seed: int
    #: Resolved batches so far (the game's ``len(history)``), which seeds the bot's random source.
    step: int
    side: str
    #: The bot's name as the system offers it (``greedy``, ``search:3``).
    bot: str


class BotOverBudget(Exception):
    """A decision ran past its budget; its worker process was killed and nothing came of it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(
            f"a computer player's decision took longer than the server's budget of {seconds:g} s; "
            "its worker process was stopped"
        )


class BotFailed(Exception):
    """The bot raised, or its worker process died; ``details`` is what the worker reported."""

    def __init__(self, details: str) -> None:
        self.details = details
        super().__init__(f"a computer player failed: {details.strip().splitlines()[-1] if details.strip() else '?'}")


def decide(decision: Decision) -> Order:
    """The bot's order: what the worker process runs (the web process may run it too, for tests)."""
    from vectorwar.play import bot_decision
    from vectorwar.registry import get_system
    from vectorwar.setup import make_bots

    system = get_system(decision.system)
    bot = make_bots(system, {decision.side: decision.bot})[decision.side]
    return bot_decision(system, decision.state, decision.seed, decision.step, decision.side, bot)


def _serve(connection: Connection, initializer: Callable[[], None] | None, niceness: int) -> None:
    """A worker process's life: decisions in, orders out, until the web process goes."""
    # Ctrl-C in the terminal reaches the whole process group: the web process stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(niceness)
    if initializer is not None:
        initializer()
    from vectorwar.registry import systems

    for system in systems().values():
        system.bots()  # every system loaded before the first decision, not during it
    try:
        connection.send(READY)
    except (EOFError, OSError):
        return
    while True:
        try:
            decision = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[bool, Any] = (True, decide(decision))
            connection.send(answer)
        except (EOFError, OSError):
            return
        except Exception as err:  # a bot's bug is reported, and the worker goes on
            connection.send((False, "".join(traceback.format_exception(err))))


#: What a worker says once it is ready for decisions.
READY = "ready"


class _WorkerLost(Exception):
    pass


class _Worker:
    """One worker process, started when first needed and again after it is killed."""

    def __init__(
        self, context: ForkServerContext | SpawnContext, initializer: Callable[[], None] | None, niceness: int
    ) -> None:
        self._context = context
        self._initializer = initializer
        self._niceness = niceness
        self._lock = threading.Lock()
        self._process: BaseProcess | None = None
        self._connection: Connection | None = None

    @property
    def pid(self) -> int | None:
        process = self._process
        return None if process is None else process.pid

    def start(self) -> None:
        """Start the process if there is none, and wait until it is ready (on a thread: this blocks).

        Not part of any decision's budget: a new process loads every rule system first.
        """
        with self._lock:
            if self._process is not None:
                return
            ours, theirs = self._context.Pipe()
            started: BaseProcess = self._context.Process(
                target=_serve, args=(theirs, self._initializer, self._niceness), daemon=True, name="vectorwar-bot"
            )
            started.start()
            theirs.close()  # the worker's end lives in the worker only, so its death reads as EOF here
            self._process, self._connection = started, ours
        try:
            ready = ours.recv()
        except (EOFError, OSError):
            self._forget(started, ours)
            raise _WorkerLost() from None
        if ready != READY:  # pragma: no cover - the worker says nothing else first
            self.stop()
            raise _WorkerLost()

    def exchange(self, decision: Decision) -> tuple[bool, Any]:
        """Send a decision and wait for the answer (on a thread: this blocks)."""
        with self._lock:
            process, connection = self._process, self._connection
        if process is None or connection is None:  # pragma: no cover - both are set together above
            raise _WorkerLost()
        try:
            connection.send(decision)
            answer: tuple[bool, Any] = connection.recv()
            return answer
        except (EOFError, OSError):
            self._forget(process, connection)
            raise _WorkerLost() from None

    def kill(self) -> None:
        """Stop the process at once, whatever it is doing; the next decision starts a new one.

        The thread waiting on the killed process reads the end of its pipe and reaps it.
        """
        with self._lock:
            process = self._process
            self._process, self._connection = None, None
        if process is not None:
            process.kill()

    def _forget(self, process: BaseProcess, connection: Connection) -> None:
        """Let go of a process that died or was killed: no longer this worker's, closed and reaped."""
        with self._lock:
            if self._process is process:
                self._process, self._connection = None, None
        self._close(connection)
        process.join(30)  # reaped, so the process is gone and not a zombie

    def _close(self, connection: Connection) -> None:
        """Close our end of the pipe once. A stop and the thread whose exchange the stop ended both get to it, and
        ``Connection.close`` is not safe across threads: both could close the descriptor, the second failing
        (EBADF, seen under load) or, if the number was given out again meanwhile, closing someone else's file."""
        with self._lock:
            if not connection.closed:
                connection.close()

    def stop(self) -> None:
        with self._lock:
            process, connection = self._process, self._connection
            self._process, self._connection = None, None
        if process is not None:
            process.kill()
            process.join(5)
        if connection is not None:
            self._close(connection)


class _Lane:
    """Workers for one kind of game, and the decisions waiting for one of them, first come first served."""

    def __init__(self, workers: list[_Worker]) -> None:
        self.workers = workers
        self.free = list(workers)
        self.waiting: collections.deque[asyncio.Future[_Worker]] = collections.deque()

    def queued(self) -> int:
        return sum(1 for ready in self.waiting if not ready.done())

    async def acquire(self) -> _Worker:
        if self.free and not self.queued():
            return self.free.pop()
        ready: asyncio.Future[_Worker] = asyncio.get_running_loop().create_future()
        self.waiting.append(ready)
        try:
            return await ready
        except asyncio.CancelledError:
            # Handed a worker just as the wait was given up: it goes to the next in line.
            if ready.done() and not ready.cancelled():
                self.release(ready.result())
            raise

    def release(self, worker: _Worker) -> None:
        while self.waiting:
            ready = self.waiting.popleft()
            if not ready.done():
                ready.set_result(worker)
                return
        self.free.append(worker)

    def close(self) -> None:
        for ready in self.waiting:
            if not ready.done():
                ready.cancel()
        self.waiting.clear()
        for worker in self.workers:
            worker.stop()


class BotPool:
    """``size`` worker processes for the decisions of people's games, and ``bots_only`` for the rest.

    ``bots_only`` defaults to :func:`bots_only_size`. A worker starts when first needed (or at :meth:`warm`).
    """

    def __init__(
        self,
        size: int,
        *,
        bots_only: int | None = None,
        initializer: Callable[[], None] | None = None,
        start_method: str | None = None,
    ) -> None:
        if size < 1:
            raise ValueError(f"a pool of worker processes needs at least one (got {size})")
        bots_only = bots_only_size(size) if bots_only is None else bots_only
        if bots_only < 1:
            raise ValueError(f"games of computer players only need at least one worker (got {bots_only})")
        if start_method is None:
            # Never fork a process with threads running; a fork server is quick to start workers from.
            start_method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(start_method)
        if not isinstance(context, ForkServerContext | SpawnContext):
            raise ValueError(f"worker processes start by forkserver or spawn, not {start_method!r}")
        if isinstance(context, ForkServerContext):
            context.set_forkserver_preload([__name__])
        self.size = size
        self._lanes = {
            PEOPLE: _Lane([_Worker(context, initializer, NICENESS) for _ in range(size)]),
            BOTS_ONLY: _Lane([_Worker(context, initializer, NICENESS_BOTS_ONLY) for _ in range(bots_only)]),
        }
        # Two threads a worker: one waiting on it, and one still reaping the process it just killed.
        self._threads = ThreadPoolExecutor(max_workers=2 * (size + bots_only), thread_name_prefix="vectorwar-bots")
        self._closed = False

    def warm(self) -> None:
        """Start the people's workers now and wait until each is ready (blocks), so no person waits for one.

        The bot-only lane's start when a game of computer players first needs them.
        """
        started = [self._threads.submit(worker.start) for worker in self._lanes[PEOPLE].workers]
        for done in started:
            done.result()

    def pids(self) -> list[int]:
        """The worker processes running now, of either lane."""
        return [pid for lane in self._lanes.values() for w in lane.workers if (pid := w.pid) is not None]

    def waiting(self, lane: int | None = None) -> int:
        """Decisions waiting for a free worker: of one lane (:data:`PEOPLE`, :data:`BOTS_ONLY`), or of both."""
        return sum(self._lanes[lane].queued() for lane in ((lane,) if lane is not None else self._lanes))

    async def decide(self, decision: Decision, *, lane: int, budget: float | None) -> Order:
        """The bot's order, once a worker of ``lane`` (:data:`PEOPLE` or :data:`BOTS_ONLY`) is free.

        Raises :class:`BotOverBudget` (the worker was killed) or :class:`BotFailed`.
        """
        if self._closed:
            raise BotFailed("the server is stopping")
        chosen = self._lanes[lane]
        worker = await chosen.acquire()
        try:
            return await self._run(worker, decision, budget)
        finally:
            chosen.release(worker)

    def close(self) -> None:
        self._closed = True
        for lane in self._lanes.values():
            lane.close()
        self._threads.shutdown(wait=False, cancel_futures=True)

    async def _run(self, worker: _Worker, decision: Decision, budget: float | None) -> Order:
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self._threads, worker.start)
        except _WorkerLost:
            raise BotFailed("a worker process for the computer players could not start") from None
        running = loop.run_in_executor(self._threads, worker.exchange, decision)
        # An answer nobody waits for any more (over budget) is still collected, so its end is not reported as lost.
        running.add_done_callback(_collected)
        try:
            ok, value = await asyncio.wait_for(asyncio.shield(running), budget)
        except TimeoutError:
            worker.kill()
            raise BotOverBudget(budget or 0.0) from None
        except asyncio.CancelledError:
            # Nobody will read this answer: the worker must not be handed on mid-decision.
            worker.kill()
            raise
        except _WorkerLost:
            raise BotFailed("the computer player's worker process died") from None
        if not ok:
            raise BotFailed(str(value))
        order: Order = value
        return order


def _collected(done: asyncio.Future[Any] | Future[Any]) -> None:
    if not done.cancelled():
        done.exception()
