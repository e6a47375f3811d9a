"""Computer players think in worker processes (docs/web.md, "Computer players").

The bots' orders from the pool are the kernel's own (the game is the one
the kernel plays in-process); a decision over its budget is stopped by
killing its worker, whose process is then gone, while other games are
answered; people's games are served before games of computer players only,
and one address may run only so many of those at once.

No timing is asserted: the waits are bounded only so that a broken pool
fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import random
import time
from collections.abc import Callable, Coroutine, Mapping
from multiprocessing import get_context
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import Mirror, run_async
from vectorwar.autopilot import ANY, Flow, Standing
from vectorwar.play import bot_turns
from vectorwar.registry import get_system
from vectorwar.rules import Bot, Order
from vectorwar.setup import set_up
from vectorwar.web.app import create_app
from vectorwar.web.botpool import (
    BOTS_ONLY,
    NICENESS,
    NICENESS_BOTS_ONLY,
    PEOPLE,
    BotOverBudget,
    BotPool,
    Decision,
    _Worker,
    bots_only_size,
    decide,
)
from vectorwar.web.service import Budgets, GameService, TooManyBotGames
from vectorwar.web.store import Store

WAIT = 120.0  # seconds: a bound for a broken pool, far above what any step here takes


class SpinBot:
    """A computer player that never makes up its mind (registered only by these tests)."""

    def __init__(self, pidfile: str) -> None:
        self.pidfile = pidfile

    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        Path(self.pidfile).write_text(str(os.getpid()))
        while True:
            pass


class SpinOnceBot(SpinBot):
    """Spins the first time it is asked (in any process), then plays as the random bot."""

    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        if not Path(self.pidfile).exists():
            super().choose(state, side, rng)
        order: Order = get_system("msc").random_order(state, side, rng)
        return order


def register_spin(pidfile: str) -> None:
    """Offer ``bot:spin`` and ``bot:spin-once`` in MSC, in whichever process calls this (the test's, and each
    worker at its start)."""
    msc = type(get_system("msc"))
    real = msc.__dict__.get("_real_bots", msc.bots)

    def bots(self: Any) -> Mapping[str, Callable[[], Bot]]:
        return {**real(self), "spin": lambda: SpinBot(pidfile), "spin-once": lambda: SpinOnceBot(pidfile)}

    msc._real_bots = real  # type: ignore[attr-defined]
    msc.bots = bots  # type: ignore[method-assign]


@pytest.fixture
def spin(tmp_path: Path) -> Any:
    pidfile = str(tmp_path / "spin.pid")
    msc = type(get_system("msc"))
    real = msc.bots
    register_spin(pidfile)
    yield pidfile
    msc.bots = real  # type: ignore[method-assign]
    del msc._real_bots  # type: ignore[attr-defined]


async def until(check: Callable[[], Coroutine[Any, Any, bool]] | Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        done = check()
        if done if isinstance(done, bool) else await done:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still waiting for {what} after {WAIT:g} s")


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def test_a_bot_game_played_in_worker_processes_is_the_kernels_game() -> None:
    sides = {"red": "bot:greedy", "blue": "bot:random"}  # random reads the bot's rng, greedy does not

    async def scenario() -> None:
        service = GameService(Store("sqlite://"), bot_pool=BotPool(1))
        try:
            created = await service.create("vv5-dogfight", sides, seed=3)

            async def over() -> bool:
                return (await service.get(created.id)).table.game.is_over

            await until(over, "the bot game to end")
            played = (await service.get(created.id)).table.game
            assert played.history == Mirror.of("vv5-dogfight", 3, sides).game.history
            # The same game with the bots on the server's threads (the whole game within one budget).
            threads = GameService(Store("sqlite://"), budgets=Budgets(bots=WAIT))
            try:
                alike = await threads.create("vv5-dogfight", sides, seed=3)
                assert (await threads.get(alike.id)).table.game.history == played.history
            finally:
                threads.close()
            assert service.bot_pool is not None
            assert len(service.bot_pool.pids()) == 1
        finally:
            service.close()

    run_async(scenario)


def test_a_persons_game_against_a_bot_in_worker_processes_is_the_kernels_game() -> None:
    sides = {"red": "human", "blue": "bot:random"}

    async def scenario() -> None:
        service = GameService(Store("sqlite://"), bot_pool=BotPool(1))
        try:
            created = await service.create("msc-duel", sides, seed=11)
            token = created.players[0].token
            mirror = Mirror.of("msc-duel", 11, sides)
            for _ in range(6):
                if mirror.game.is_over:
                    break
                text = mirror.order_for("red")
                answer = await service.submit(created.id, token, "red", text, mirror.step)
                mirror.give("red", text)
                # The answer's scene already holds the bot's answer, as with bots on threads.
                assert answer.scene["step"] == mirror.step
            assert (await service.get(created.id)).table.game.history == mirror.game.history
        finally:
            service.close()

    run_async(scenario)


def test_standing_orders_between_pooled_bots_play_the_kernels_game() -> None:
    # blue skips to the next decision with standing fire; red, the greedy bot, thinks in a worker process.
    sides = {"blue": "human", "red": "bot:greedy"}
    standing = Standing(Flow.DECISION, fire_at=ANY, min_chance=20)

    async def scenario() -> None:
        service = GameService(Store("sqlite://"), bot_pool=BotPool(1))
        try:
            created = await service.create("avt-duel-wasp", sides, seed=2)
            token = created.players[0].token
            await service.set_standing(created.id, token, "blue", standing, now=True)
            for _ in range(4):
                game = (await service.get(created.id)).table.game
                if game.is_over or "blue" not in game.waiting_for:
                    break
                await service.set_standing(created.id, token, "blue", standing, now=True)
            played = (await service.get(created.id)).table.game
            # The kernel's bot loop, in-process, with the same standing orders and the same skips.
            setup = set_up("avt-duel-wasp", {"blue": "human", "red": "greedy"}, seed=2)
            kernel = setup.game
            while len(kernel.history) < len(played.history):
                kernel.submit("blue", played.history[len(kernel.history)].orders[0][1])
                for _ in bot_turns(kernel, setup.bots, standing={"blue": standing}):
                    pass
            assert kernel.history == played.history
            assert len(played.history) > 10
        finally:
            service.close()

    run_async(scenario)


def test_the_same_decision_in_a_worker_and_in_process_is_the_same_order() -> None:
    setup = set_up("vv5-dogfight", {"red": "random", "blue": "greedy"}, seed=5)
    game = setup.game

    async def scenario() -> None:
        pool = BotPool(1)
        try:
            for side, name in (("red", "random"), ("blue", "greedy"), ("red", "search")):
                decision = Decision("vv5", game.state, game.seed, len(game.history), side, name)
                pooled = await pool.decide(decision, lane=PEOPLE, budget=None)
                assert str(pooled) == str(decide(decision))
        finally:
            pool.close()

    run_async(scenario)


def test_a_decision_over_its_budget_is_stopped_with_its_process_and_other_games_go_on(spin: str) -> None:
    async def scenario() -> None:
        pool = BotPool(1, initializer=functools.partial(register_spin, spin))
        # Generous, for the greedy bot's answer below on a loaded machine; the spinning bot meets it anyway.
        service = GameService(Store("sqlite://"), budgets=Budgets(bots=5.0), bot_pool=pool, ask_again_after=3600)
        try:
            stuck = asyncio.create_task(service.create("msc-duel", {"red": "human", "blue": "bot:spin"}, seed=1))
            await until(lambda: Path(spin).exists() and Path(spin).read_text() != "", "the spinning bot to start")
            spinner = int(Path(spin).read_text())
            # While it spins: a game of two people is answered.
            people = await service.create("msc-duel", {}, seed=2, hotseat=True)
            given = await service.submit(people.id, people.players[0].token, "red", "Hawk 1", 0)
            assert given.scene["pending"] == {"red": "Hawk 1"}

            created = await stuck  # the bot ran over its budget: the game is there, blue's side waits
            await until(lambda: gone(spinner), "the spinning worker's process to be gone")
            assert spinner not in pool.pids()
            game = (await service.get(created.id)).table.game
            assert (len(game.history), game.waiting_for) == (0, ("red", "blue"))
            assert created.id in service._asking_again  # the bot is asked again later

            # A game against greedy gets its bot's answer from a new worker.
            sides = {"red": "human", "blue": "bot:greedy"}
            fight = await service.create("msc-duel", sides, seed=3)
            mirror = Mirror.of("msc-duel", 3, sides)
            text = mirror.order_for("red")
            answer = await service.submit(fight.id, fight.players[0].token, "red", text, 0)
            mirror.give("red", text)
            assert answer.scene["step"] == mirror.step == 1
            assert pool.pids()
            assert spinner not in pool.pids()
        finally:
            service.close()

    run_async(scenario)


def test_a_bot_stopped_over_its_budget_is_asked_again_later(spin: str) -> None:
    sides = {"red": "human", "blue": "bot:spin-once"}

    async def scenario() -> None:
        pool = BotPool(1, initializer=functools.partial(register_spin, spin))
        service = GameService(Store("sqlite://"), budgets=Budgets(bots=1.0), bot_pool=pool, ask_again_after=0.1)
        try:
            created = await service.create("msc-duel", sides, seed=6)
            assert Path(spin).exists()  # it spun, and was stopped

            async def plotted() -> bool:
                return "blue" in (await service.get(created.id)).table.game.pending

            await until(plotted, "blue's bot to be asked again and plot")
            given = await service.submit(created.id, created.players[0].token, "red", "Hawk 1", 0)
            assert given.resolved
            assert given.scene["step"] >= 1
        finally:
            service.close()

    run_async(scenario)


def test_a_persons_game_never_waits_behind_a_bot_only_games_decision(spin: str) -> None:
    setup = set_up("msc-duel", {"red": "greedy", "blue": "greedy"}, seed=4)
    state, seed = setup.game.state, setup.game.seed
    finished: list[str] = []

    async def scenario() -> None:
        pool = BotPool(1, initializer=functools.partial(register_spin, spin))
        try:

            async def ask(name: str, side: str, bot: str, lane: int) -> None:
                with contextlib.suppress(BotOverBudget):
                    await pool.decide(Decision("msc", state, seed, 0, side, bot), lane=lane, budget=None)
                finished.append(name)

            busy = asyncio.create_task(ask("spin", "red", "spin", BOTS_ONLY))
            await until(lambda: Path(spin).exists() and Path(spin).read_text() != "", "the spinning bot to start")
            spinner = int(Path(spin).read_text())
            # The bot-only lane's one worker is busy: another bot-only game's decision waits for it ...
            bots = asyncio.create_task(ask("bots only", "red", "greedy", BOTS_ONLY))
            await until(lambda: pool.waiting(BOTS_ONLY) == 1, "the bot-only decision to queue")
            # ... and a person's game's is answered by a worker of its own, the spinner still spinning.
            await ask("people", "blue", "greedy", PEOPLE)
            assert (finished, pool.waiting(PEOPLE), pool.waiting(BOTS_ONLY)) == (["people"], 0, 1)
            assert spinner in pool.pids()
            assert not gone(spinner)
            # Giving up on the spinning decision stops its worker, which goes to the next in line.
            busy.cancel()
            await bots
        finally:
            pool.close()

    run_async(scenario)
    assert finished == ["people", "bots only"]


def test_the_bot_only_lane_runs_at_the_lowest_cpu_priority(spin: str) -> None:
    setup = set_up("msc-duel", {"red": "greedy", "blue": "greedy"}, seed=4)
    state, seed = setup.game.state, setup.game.seed

    async def scenario() -> None:
        pool = BotPool(1, initializer=functools.partial(register_spin, spin))
        try:
            await pool.decide(Decision("msc", state, seed, 0, "blue", "greedy"), lane=PEOPLE, budget=None)
            (people,) = pool.pids()
            busy = asyncio.create_task(
                pool.decide(Decision("msc", state, seed, 0, "red", "spin"), lane=BOTS_ONLY, budget=None)
            )
            await until(lambda: Path(spin).exists() and Path(spin).read_text() != "", "the spinning bot to start")
            spinner = int(Path(spin).read_text())
            ours = os.getpriority(os.PRIO_PROCESS, 0)
            assert os.getpriority(os.PRIO_PROCESS, people) == min(19, ours + NICENESS)
            assert os.getpriority(os.PRIO_PROCESS, spinner) == min(19, ours + NICENESS_BOTS_ONLY)
            assert NICENESS_BOTS_ONLY > NICENESS
            busy.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await busy
        finally:
            pool.close()

    run_async(scenario)


def test_a_pool_refuses_a_lane_of_no_workers() -> None:
    with pytest.raises(ValueError, match="at least one"):
        BotPool(1, bots_only=0)
    assert [bots_only_size(n) for n in (1, 2, 3, 8)] == [1, 1, 1, 4]


def test_one_address_runs_only_so_many_bot_only_games_at_once(spin: str) -> None:
    async def scenario() -> None:
        pool = BotPool(1, initializer=functools.partial(register_spin, spin))
        service = GameService(
            Store("sqlite://"), budgets=Budgets(bots=1.0), bot_pool=pool, bot_games_per_client=1, ask_again_after=3600
        )
        try:
            bots = {"red": "bot:spin", "blue": "bot:greedy"}
            first = await service.create("msc-duel", bots, seed=1, client="192.0.2.1")
            with pytest.raises(TooManyBotGames) as refused:
                await service.create("msc-duel", bots, seed=2, client="192.0.2.1")
            assert "192.0.2.1" not in str(refused.value)
            assert "1 game of computer players only" in str(refused.value)
            # Another address, and a game with a person in it, are not held back.
            await service.create("msc-duel", bots, seed=3, client="192.0.2.2")
            await service.create("msc-duel", {"red": "human", "blue": "bot:greedy"}, seed=4, client="192.0.2.1")
            # Until the bots give up for good, the first game counts; it is still there, unplayed.
            assert (await service.get(first.id)).table.game.history == []
        finally:
            service.close()

    run_async(scenario)


def test_a_refused_bot_only_game_is_429_with_retry_after(db_url: str) -> None:
    with TestClient(create_app(db_url, bot_workers=1)) as client:
        app: Any = client.app
        app.state.service.bot_games_per_client = 0
        bots = {"red": "bot:greedy", "blue": "bot:greedy"}
        refused = client.post("/api/games", json={"scenario": "msc-duel", "sides": bots})
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["type"] == "TooManyBotGames"
        assert int(refused.headers["Retry-After"]) >= 1
        played = client.post("/api/games", json={"scenario": "msc-duel", "sides": {"blue": "bot:greedy"}})
        assert played.status_code == 201


class _PipeEnd:
    """A pipe end that counts its closes."""

    def __init__(self) -> None:
        self.closes = 0
        self.closed = False

    def close(self) -> None:
        self.closes += 1
        self.closed = True


class _DeadProcess:
    pid = None

    def kill(self) -> None:
        pass

    def join(self, timeout: float | None = None) -> None:
        pass


def test_a_stop_and_the_thread_it_interrupted_close_the_pipe_once() -> None:
    """Stopping a worker takes its pipe and kills its process, and the thread waiting on that process then reads
    the end and lets it go as well: both close our end of the pipe, once between them (a descriptor closed twice
    fails with EBADF, or closes a file given its number meanwhile)."""
    worker = _Worker(get_context("spawn"), None, 0)
    end, process = _PipeEnd(), _DeadProcess()
    worker._process, worker._connection = process, end  # type: ignore[assignment]
    worker.stop()
    # The exchange the stop interrupted reads the end of the pipe and lets go of the same end and process.
    worker._forget(process, end)  # type: ignore[arg-type]
    assert end.closes == 1
