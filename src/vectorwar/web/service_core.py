"""The service's core: games in memory and their locks, the store's versions, worker threads and budgets.

:class:`ServiceCore` reads games (a miss is replayed from the store), holds
a game's lock on the stored version (docs/web.md, "Several processes"),
stores a change before putting it on the table, tells the listeners, and
runs game work on its worker threads within :class:`Budgets`. The changes
themselves are made by the mixins that :class:`~vectorwar.web.service.GameService`
is built of; the computer players' turns (:meth:`ServiceCore._bots_move`)
are :class:`~vectorwar.web.service_bots.BotDriving`'s.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import os
from abc import ABC, abstractmethod
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, fields
from typing import Any, ParamSpec, TypeVar

from vectorwar.game import Game
from vectorwar.web import referee
from vectorwar.web.botpool import BotPool
from vectorwar.web.chat import ChatGate, ChatLine
from vectorwar.web.referee import GameNotFound, Table
from vectorwar.web.store import GameSummary, StaleGame, Store
from vectorwar.web.tracks import replay_with_tracks

log = logging.getLogger("vectorwar.web")

R = TypeVar("R")
P = ParamSpec("P")

#: Times a change is decided and written before :class:`StaleGame` reaches the caller: each refusal
#: means another process changed the game first, so the next try starts from its change.
STALE_TRIES = 8


def decided_again(change: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """A change to a game, made again from the stored game when another process wrote first.

    The refused try wrote nothing (:class:`StaleGame`), and the game it read
    was dropped from memory, so the next try reads the game as stored and
    rules again: an order is then taken on the other process's game, or found
    to be a retry of one already taken there.
    """

    @functools.wraps(change)
    async def again(*args: P.args, **kwargs: P.kwargs) -> R:
        for _ in range(STALE_TRIES - 1):
            try:
                return await change(*args, **kwargs)
            except StaleGame as err:
                log.info("%s; deciding again", err)
        return await change(*args, **kwargs)

    return again


#: Multiplies every work budget of the server (docs/web.md): an operator on a slow or shared machine,
#: and the test suite, which runs on a loaded one, give work more wall-clock time without changing code.
BUDGET_SCALE_ENV = "VECTORWAR_BUDGET_SCALE"
MAX_BUDGET_SCALE = 100.0


def budget_scale() -> float:
    """``VECTORWAR_BUDGET_SCALE`` (1 when unset), a number from 1 to 100; anything else is refused."""
    text = os.environ.get(BUDGET_SCALE_ENV, "").strip()
    if not text:
        return 1.0
    try:
        scale = float(text)
    except ValueError:
        scale = math.nan
    if not 1.0 <= scale <= MAX_BUDGET_SCALE:  # NaN fails this too
        raise ValueError(f"{BUDGET_SCALE_ENV}={text!r}: give a number from 1 to {MAX_BUDGET_SCALE:g}")
    return scale


async def within_budget(budget: float, refusal: Callable[[float], Exception], fn: Callable[..., R], *args: Any) -> R:
    """``fn(*args)`` on a worker thread, off the event loop; past ``budget`` seconds (times
    :func:`budget_scale`) the request gets ``refusal(seconds)`` instead.

    For stateless checks whose inputs are bounded before they start (a thread cannot be stopped, so the
    bounds are what keep its work short); the game's own work goes through :class:`GameService`'s budgets.
    """
    seconds = budget * budget_scale()
    try:
        return await asyncio.wait_for(asyncio.to_thread(fn, *args), seconds)
    except TimeoutError:
        raise refusal(seconds) from None


@dataclass(frozen=True, slots=True)
class Budgets:
    """Seconds each kind of game work may take off the event loop before its request is refused.

    Generous next to what play needs (tens of milliseconds; docs/web.md), so
    only runaway work meets them.
    """

    check: float = 2.0
    order: float = 5.0
    scene: float = 5.0
    bots: float = 10.0
    setup: float = 5.0
    replay: float = 10.0

    def scaled(self, factor: float) -> Budgets:
        """Every budget times ``factor``."""
        return Budgets(*(getattr(self, f.name) * factor for f in fields(self)))


class OverBudget(Exception):
    """Game work took longer than the server allows for it; the request is refused and nothing changed."""

    def __init__(self, what: str, seconds: float) -> None:
        self.what = what
        self.seconds = seconds
        super().__init__(
            f"{what} took longer than the server's budget of {seconds:g} s for it, "
            "so the request was refused; nothing changed"
        )


class TooManyBotGames(Exception):
    """A client already has as many games of computer players only running as the server allows."""

    def __init__(self, limit: int, retry_after: float) -> None:
        self.limit = limit
        self.retry_after = retry_after
        super().__init__(
            f"this address already has {limit} game{'s' if limit != 1 else ''} of computer players only "
            f"running, the most the server plays at once for one address; try again when one is over"
        )


@dataclass(frozen=True, slots=True)
class Player:
    sides: tuple[str, ...]
    token: str


@dataclass(frozen=True, slots=True)
class Created:
    id: str
    players: tuple[Player, ...]


@dataclass(frozen=True, slots=True)
class Submitted:
    resolved: bool
    duplicate: bool
    #: The caller's scene after the order, as JSON text (the same text its sockets get).
    scene_text: str

    @property
    def scene(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.scene_text)
        return parsed


@dataclass(eq=False)
class LiveGame:
    """A table in memory with its lock."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Set when the game was dropped from memory; whoever waited on its lock must fetch it again.
    stale: bool = False

    @property
    def id(self) -> str:
        return self.table.id

    def sides_of(self, token: str | None) -> tuple[str, ...]:
        return self.table.sides_of(token)


Listener = Callable[[LiveGame], Awaitable[None]]
#: The sides of a table a lock is taken to read for (:meth:`ServiceCore.locked`).
Viewing = Callable[[Table], Sequence[str]]
ChatListener = Callable[[LiveGame, ChatLine], Awaitable[None]]
#: Told of a table rebuilt from the store before anyone sees it (the clocks put back the computers covering late sides).
LoadHook = Callable[[Table], Awaitable[None]]


class ServiceCore(ABC):
    """The state every part of the service shares, reading, and the way every change is stored and told."""

    def __init__(
        self,
        store: Store,
        max_live: int = 500,
        budgets: Budgets | None = None,
        workers: int = 8,
        bot_pool: BotPool | None = None,
        bot_games_per_client: int = 2,
        ask_again_after: float = 30.0,
    ) -> None:
        self.store = store
        self.budgets = budgets or Budgets().scaled(budget_scale())
        #: Games in memory, least recently used first; the oldest idle ones are dropped past ``max_live``.
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self.max_live = max_live
        self._loading: dict[str, asyncio.Lock] = {}
        self._listeners: list[Listener] = []
        self._chat_listeners: list[ChatListener] = []
        self._load_hooks: list[LoadHook] = []
        self.chat_gate = ChatGate()
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="vectorwar-game")
        #: Worker processes for the computer players' decisions; none: they think on the threads above.
        self.bot_pool = bot_pool
        #: Games of computer players only, being played now, by the client that created them.
        self._bot_games: dict[str, str] = {}
        self.bot_games_per_client = bot_games_per_client
        #: Seconds before a bot that ran over its budget is asked again (doubling each time in a row).
        self.ask_again_after = ask_again_after
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._retries: dict[str, int] = {}
        self._asking_again: dict[str, asyncio.Task[None]] = {}
        self._background: set[asyncio.Future[None]] = set()
        #: Games dropped for being older than the store's, by id: where their rebuild replays on from.
        self._older: dict[str, Table] = {}

    def on_change(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def on_chat(self, listener: ChatListener) -> None:
        self._chat_listeners.append(listener)

    def on_load(self, hook: LoadHook) -> None:
        self._load_hooks.append(hook)

    def close(self) -> None:
        # Threads still running over their budget finish on their own; nobody waits for them.
        self._pool.shutdown(wait=False, cancel_futures=True)
        for task in [*self._drivers.values(), *self._asking_again.values()]:
            task.cancel()
        if self.bot_pool is not None:
            self.bot_pool.close()

    # -- off the event loop -------------------------------------------------

    async def _work(self, what: str, budget: float | None, fn: Callable[..., R], *args: Any) -> R:
        """``fn(*args)`` on a worker thread; past ``budget`` seconds, :class:`OverBudget` (``None``: no limit)."""
        running = asyncio.get_running_loop().run_in_executor(self._pool, functools.partial(fn, *args))
        if budget is None:
            return await running
        try:
            return await asyncio.wait_for(running, budget)
        except TimeoutError:
            raise OverBudget(what, budget) from None

    async def viewer_scenes(
        self, live: LiveGame, side_sets: Sequence[Sequence[str]], *, limited: bool = True
    ) -> list[str]:
        """The scene each set of sides sees of the game now on the table, as JSON text.

        Scenes not built yet for this game are built together, in one trip to a
        worker thread, and kept until the game changes. ``limited``: refused past
        the scene budget (an accepted order's answer is not: it must carry its scene).
        """
        table = live.table
        game = table.game
        keys = [tuple(sides) for sides in side_sets]
        bases = {key: base for key in keys if (base := table.cached_scene(key)) is not None}
        missing = [key for key in dict.fromkeys(keys) if key not in bases]
        if missing:
            limit = self.budgets.scene if limited else None
            built = await self._work("building the scene", limit, _scene_bases, game, missing)
            for key, base in zip(missing, built, strict=True):
                table.keep_scene(game, key, base)
                bases[key] = base
        return [table.dressed(key, bases[key]) for key in keys]

    async def viewer_scene(self, live: LiveGame, sides: Sequence[str], *, limited: bool = True) -> str:
        """One viewer's scene (see :meth:`viewer_scenes`)."""
        return (await self.viewer_scenes(live, [sides], limited=limited))[0]

    # -- reading ------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game in memory, replayed from the store on a miss; raises :class:`GameNotFound`."""
        if not referee.GAME_ID.fullmatch(game_id):
            # Never asked of the store: PostgreSQL refuses a NUL in a query outright (a 500).
            raise GameNotFound(game_id)
        live = self._live.get(game_id)
        if live is not None:
            self._live.move_to_end(game_id)
            return live
        loading = self._loading.setdefault(game_id, asyncio.Lock())
        async with loading:
            live = self._live.get(game_id)
            if live is None:
                stored = await asyncio.to_thread(self.store.load, game_id)
                if stored is None:
                    self._loading.pop(game_id, None)
                    raise GameNotFound(game_id)
                # Replaying a stored game is how it comes back at all: off the loop, but never refused.
                # A copy dropped as older than the store's is replayed on from where it was.
                older = self._older.pop(game_id, None)
                known = None if older is None else older.game
                live = LiveGame(await self._work("replaying the game", None, referee.rebuild, stored, known))
                if older is not None:
                    # Read again for one side's secret: every other side's scene still holds.
                    live.table.scenes_from(older)
                for hook in self._load_hooks:
                    await hook(live.table)
                self._remember(live)
        self._loading.pop(game_id, None)
        # Bots owe their orders as soon as the game is back, as after any change.
        async with self.locked(game_id) as live:
            moved = await self._bots_move(live)
        if moved:
            await self._notify(live)
        return live

    @asynccontextmanager
    async def locked(self, game_id: str, viewing: Viewing | None = None) -> AsyncIterator[LiveGame]:
        """Hold ``game_id``'s lock, on the game as it is in memory now.

        ``viewing``: the lock is only to read what these sides (of the table)
        see, so the copy in memory need be current only in what they see (the
        public version and their own secrets): another side's secret change made
        through another process then costs this view nothing. Without it, the
        copy must be current in everything, as a change to the game needs.
        """
        while True:
            live = await self.get_cached_or_load(game_id)
            async with live.lock:
                sides = None if viewing is None else tuple(viewing(live.table))
                if live.stale or not await self._current(live, sides):
                    continue
                try:
                    yield live
                except StaleGame:
                    # Another process wrote first: this copy is old, and the caller decides again on a new one.
                    self._forget(live, older=True)
                    raise
                return

    async def _current(self, live: LiveGame, sides: tuple[str, ...] | None = None) -> bool:
        """Whether the game in memory is the stored one (for ``sides``' view only: see :meth:`locked`); if not,
        it is dropped (to be read again).

        Only asked when other processes share the store (PostgreSQL): alone on its
        database, a server's copy is always the newest, since it writes every change.
        The question is the same whatever other sides did: one statement reading
        the versions and the marks of ``sides``.
        """
        if not self.store.shared:
            return True
        table = live.table
        stored = await asyncio.to_thread(self.store.stamps, live.id, sides or ())
        if stored is not None and stored.version == table.version:
            if sides is None and stored.secret == table.secret_version:
                return True
            if sides is not None and all(stored.marks.get(s, 0) == table.marks.get(s, 0) for s in sides):
                return True
        self._forget(live, older=stored is not None)
        return False

    def _forget(self, live: LiveGame, older: bool = False) -> None:
        """Drop the game from memory: whoever holds or waits on its lock must fetch it again.

        ``older``: the copy is a state the store holds, behind the store's newest;
        it is kept aside for the rebuild to replay on from (:func:`referee.caught_up`)
        and to keep the scenes that still hold (:meth:`Table.scenes_from`).
        """
        live.stale = True
        if self._live.get(live.id) is live:
            del self._live[live.id]
        if older:
            self._older[live.id] = live.table
            while len(self._older) > self.max_live:
                del self._older[next(iter(self._older))]

    async def changed_elsewhere(self, game_id: str, position: int | None = None) -> None:
        """Another process changed the game (web/fanout.py): read it again and tell this process's listeners.

        ``position``: only the secrets of the side at this place changed; the game
        is read again only if that side's are older here, and every other side's
        scene is kept (so its sockets are sent nothing).
        """
        viewing = None if position is None else functools.partial(_side_at, position)
        async with self.locked(game_id, viewing) as live:
            pass
        await self._notify(live)

    async def get_cached_or_load(self, game_id: str) -> LiveGame:
        live = self._live.get(game_id)
        return live if live is not None else await self.get(game_id)

    async def scene(self, game_id: str, token: str | None) -> str:
        """The scene ``token`` may see, as JSON text."""
        async with self.locked(game_id, functools.partial(token_sides, token)) as live:
            sides = live.sides_of(token)
        # A game on the table is never changed in place, so the scene needs no lock while it is built.
        return await self.viewer_scene(live, sides)

    async def games(self) -> list[GameSummary]:
        return await asyncio.to_thread(self.store.games)

    async def timeline(self, game_id: str) -> list[dict[str, Any]]:
        async with self.locked(game_id, _no_sides) as live:
            return referee.timeline(live.table.game)

    async def replay(self, game_id: str, step: int) -> dict[str, Any] | None:
        """The spectator's scene after ``step`` resolved batches; ``None`` past the end."""
        async with self.locked(game_id, _no_sides) as live:
            game = live.table.game
            controllers = dict(live.table.controllers)
            practice = live.table.practice
        scene = await self._work("replaying the game", self.budgets.replay, replay_with_tracks, game, step)
        extra = {"game": game_id, "players": controllers, "drafts": {}, "practice": practice}
        return None if scene is None else {**scene, **extra}

    # -- inside -------------------------------------------------------------

    def _remember(self, live: LiveGame) -> None:
        self._live[live.id] = live
        self._live.move_to_end(live.id)
        while len(self._live) > self.max_live:
            # Only an idle game may go: everything it did is in the store already.
            idle = next((gid for gid, old in self._live.items() if not old.lock.locked()), None)
            if idle is None:
                return
            self._live.pop(idle).stale = True

    def _soon(self, work: Awaitable[None]) -> None:
        """Run ``work`` in the background, holding on to its task until it ends."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _persist(self, live: LiveGame, before: Game, after: Game, cleared_drafts: tuple[str, ...] = ()) -> None:
        """Store the change from ``before`` to ``after``, then put ``after`` on the table."""
        change = referee.progress(before, after, cleared_drafts)
        table = live.table
        plots = referee.private_to(before, after)
        # A plot replaced (and its side's draft cleared) shows to that side only: a secret change.
        private = () if plots is None else tuple(dict.fromkeys((*plots, *cleared_drafts)))
        try:
            now = await asyncio.to_thread(
                self.store.record, live.id, change, table.version, table.secret_version, private
            )
        except BaseException:
            # The store may or may not have it (or another process changed the game first: StaleGame):
            # forget the game and rebuild it from the store next time.
            self._forget(live)
            raise
        if private:
            table.put(after, private_to=private)
            table.keep_secret(now, private)
        else:
            table.put(after)
            table.version = now

    async def _notify(self, live: LiveGame) -> None:
        for listener in self._listeners:
            await listener(live)

    @abstractmethod
    async def _bots_move(self, live: LiveGame) -> bool:
        """Let the bots give every order they owe now and store them; returns whether any did."""


def token_sides(token: str | None, table: Table) -> tuple[str, ...]:
    """The sides ``token`` holds at ``table``: what a lock taken for its view reads for (:meth:`ServiceCore.locked`)."""
    return table.sides_of(token)


def _side_at(position: int, table: Table) -> tuple[str, ...]:
    return tuple(list(table.controllers)[position : position + 1])


def _no_sides(_table: Table) -> tuple[str, ...]:
    return ()


def _scene_bases(game: Game, side_sets: Sequence[tuple[str, ...]]) -> list[str]:
    return [referee.scene_base(game, sides) for sides in side_sets]
