"""The async layer around the referee: games in memory, the store, locks, worker threads and budgets.

The referee (:mod:`vectorwar.web.referee`) decides; this layer does the
waiting, the storing and the sending, and draws seeds, tokens and game ids.
Every change to a game (an order, a withdrawn plot, a bot's move) happens
under that game's asyncio lock, and is written to the store before the new
game is put on its table and anyone is told: an acknowledged order is a
committed order. If a write fails, the game is dropped from memory and the
next request rebuilds it from what the store holds, so memory is never
ahead of the database.

Several servers may share one PostgreSQL (docs/web.md, "Several
processes"): each change is then written for the version of the game it
was decided on, and refused if another process changed the game first
(:class:`StaleGame`); the game is read again and the change decided again
(:func:`_decided_again`). Every use of a game first checks that the copy in
memory is the stored version.

Game work never runs on the event loop. Checks, orders, scenes, the bots'
turns, set-ups, replays and rebuilds run on a pool of worker threads of
their own (the store's I/O uses asyncio's default pool, so a game's work
can never hold up another game's commit), and each kind but rebuilds has a
time budget (:class:`Budgets`). A request whose work runs over its budget is
refused with :class:`OverBudget`; as that work runs on a copy of the game
(or only reads it), the game is unchanged, and the thread's late result is
dropped. A thread cannot be stopped, so it runs to its end; the pool's
size bounds how many such threads there can be, and work waiting for a free
thread counts against its budget like any other.

Given a :class:`~vectorwar.web.botpool.BotPool` (``vectorwar serve`` gives
one), the computer players think in its worker processes instead, a decision
at a time: one over its budget is stopped with its process and asked again
later, people's games are served first, and games of computer players only
are played on in the background, so many per client address at once.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, ParamSpec, TypeVar

from sqlalchemy.exc import IntegrityError

from vectorwar.autopilot import Standing, standing_order
from vectorwar.catalogue import scenario_paths
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.game import Game
from vectorwar.play import bot_order
from vectorwar.players import computer_players
from vectorwar.registry import systems
from vectorwar.rules import Bot, Order
from vectorwar.scenario import Scenario, load_scenario
from vectorwar.setup import new_seed
from vectorwar.web import referee
from vectorwar.web.botpool import BOTS_ONLY, PEOPLE, BotFailed, BotOverBudget, BotPool, Decision
from vectorwar.web.chat import ChatForbidden, ChatGate, ChatKeyReused, ChatLine, check_text
from vectorwar.web.referee import GameNotFound, SeatForbidden, StalePrompt, Table
from vectorwar.web.store import GameSummary, OpenGame, SeatTaken, StaleGame, Store, token_hash
from vectorwar.web.tracks import replay_with_tracks

__all__ = [
    "Budgets",
    "Created",
    "GameNotFound",
    "GameService",
    "LiveGame",
    "OverBudget",
    "Player",
    "RematchRefused",
    "SeatForbidden",
    "SeatTaken",
    "StaleGame",
    "StalePrompt",
    "Submitted",
    "TooManyBotGames",
]

log = logging.getLogger("vectorwar.web")

QUICKSTART_SCENARIO = "vv5-dogfight"
QUICKSTART_SEATS = {"red": "human", "blue": "bot:greedy"}

R = TypeVar("R")
P = ParamSpec("P")

#: Times a change is decided and written before :class:`StaleGame` reaches the caller: each refusal
#: means another process changed the game first, so the next try starts from its change.
STALE_TRIES = 8


def _decided_again(change: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
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


class PracticeGame(ValueError):
    """A seat of a practice game (a creator's fixed seed) was claimed without the joiner's consent to it."""


class RematchRefused(ValueError):
    """A rematch asked of a game that is not over."""


def rematch_token(token: str, rematch_id: str) -> str:
    """A player's token for the rematch, worked out from their token for the finished game.

    The server keeps only tokens' hashes, so it cannot hand a link to a player who was
    not there when the rematch started; this way each seat holder gets theirs whenever
    they ask with their old token, and nobody without it can.
    """
    digest = hashlib.sha256(f"vectorwar rematch {rematch_id} {token}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


@dataclass(frozen=True, slots=True)
class Player:
    seats: tuple[str, ...]
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

    def seats_of(self, token: str | None) -> tuple[str, ...]:
        return self.table.seats_of(token)


Listener = Callable[[LiveGame], Awaitable[None]]
ChatListener = Callable[[LiveGame, ChatLine], Awaitable[None]]
#: Told of a table rebuilt from the store before anyone sees it (the clocks put back the computers covering late seats).
LoadHook = Callable[[Table], Awaitable[None]]


class GameService:
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
        self.budgets = budgets or Budgets()
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
        self._older: dict[str, Game] = {}

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
        self, live: LiveGame, seat_sets: Sequence[Sequence[str]], *, limited: bool = True
    ) -> list[str]:
        """The scene each set of seats sees of the game now on the table, as JSON text.

        Scenes not built yet for this game are built together, in one trip to a
        worker thread, and kept until the game changes. ``limited``: refused past
        the scene budget (an accepted order's answer is not: it must carry its scene).
        """
        table = live.table
        game = table.game
        keys = [tuple(seats) for seats in seat_sets]
        bases = {key: base for key in keys if (base := table.cached_scene(key)) is not None}
        missing = [key for key in dict.fromkeys(keys) if key not in bases]
        if missing:
            limit = self.budgets.scene if limited else None
            built = await self._work("building the scene", limit, _scene_bases, game, missing)
            for key, base in zip(missing, built, strict=True):
                table.keep_scene(game, key, base)
                bases[key] = base
        return [table.dressed(key, bases[key]) for key in keys]

    async def viewer_scene(self, live: LiveGame, seats: Sequence[str], *, limited: bool = True) -> str:
        """One viewer's scene (see :meth:`viewer_scenes`)."""
        return (await self.viewer_scenes(live, [seats], limited=limited))[0]

    async def _order(
        self, live: LiveGame, before: Game, seat: str, text: str, step: int, viewer: tuple[str, ...]
    ) -> tuple[referee.Ruling, Game, str | None]:
        """Rule on an order, then the bots' answers and the answer's scene: one trip to a worker thread.

        The ruling must come within the order budget (else :class:`OverBudget`,
        nothing taken); the rest then has the bots' budget, past which the order
        stands without the bots' answers. One trip rather than three keeps an
        order's round trip short on a busy machine, where every hand-over
        between threads waits for the scheduler. Returns the ruling, the game
        after it (and the bots), and that game's scene for ``viewer`` if built.
        """
        progress = _Progress()
        table = live.table
        pooled = self.bot_pool is not None
        work = functools.partial(
            _play_order, progress, live.id, before, seat, text, step, table.bots, viewer, table.standing, pooled
        )
        running = asyncio.get_running_loop().run_in_executor(self._pool, work)
        # A result nobody waits for any more is still collected, so a late error is not reported as lost.
        running.add_done_callback(lambda done: done.cancelled() or done.exception())
        try:
            ruling, answer, base = await asyncio.wait_for(asyncio.shield(running), self.budgets.order)
        except TimeoutError:
            if progress.ruling is None:
                raise OverBudget(f"{seat}'s order", self.budgets.order) from None
            try:
                ruling, answer, base = await asyncio.wait_for(asyncio.shield(running), self.budgets.bots)
            except TimeoutError:
                log.warning("game %s: %s", live.id, OverBudget("the computer players' orders", self.budgets.bots))
                return progress.ruling, progress.ruling.game or before, None
        if answer is not None and answer.failure is not None:
            log.error("game %s: a bot failed", live.id, exc_info=answer.failure)
        after = answer.game if answer is not None and answer.game is not None else ruling.game
        if pooled and ruling.game is not None:
            answered = await self._pooled_bots_answer(live, ruling.game)
            if answered is not None:
                after, base = answered, None
        return ruling, after or before, base

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
                known = self._older.pop(game_id, None)
                live = LiveGame(await self._work("replaying the game", None, referee.rebuild, stored, known))
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
    async def locked(self, game_id: str) -> AsyncIterator[LiveGame]:
        """Hold ``game_id``'s lock, on the game as it is in memory now."""
        while True:
            live = await self.get_cached_or_load(game_id)
            async with live.lock:
                if live.stale or not await self._current(live):
                    continue
                try:
                    yield live
                except StaleGame:
                    # Another process wrote first: this copy is old, and the caller decides again on a new one.
                    self._forget(live, older=True)
                    raise
                return

    async def _current(self, live: LiveGame) -> bool:
        """Whether the game in memory is the stored one; if not, it is dropped (to be read again).

        Only asked when other processes share the store (PostgreSQL): alone on its
        database, a server's copy is always the newest, since it writes every change.
        """
        if not self.store.shared:
            return True
        stored = await asyncio.to_thread(self.store.version, live.id)
        if stored == live.table.version:
            return True
        self._forget(live, older=stored is not None)
        return False

    def _forget(self, live: LiveGame, older: bool = False) -> None:
        """Drop the game from memory: whoever holds or waits on its lock must fetch it again.

        ``older``: the copy is a state the store holds, behind the store's newest;
        it is kept aside for the rebuild to replay on from (:func:`referee.caught_up`).
        """
        live.stale = True
        if self._live.get(live.id) is live:
            del self._live[live.id]
        if older:
            self._older[live.id] = live.table.game
            while len(self._older) > self.max_live:
                del self._older[next(iter(self._older))]

    async def changed_elsewhere(self, game_id: str) -> None:
        """Another process changed the game (web/fanout.py): read it again and tell this process's listeners."""
        async with self.locked(game_id) as live:
            pass
        await self._notify(live)

    async def get_cached_or_load(self, game_id: str) -> LiveGame:
        live = self._live.get(game_id)
        return live if live is not None else await self.get(game_id)

    async def scene(self, game_id: str, token: str | None) -> str:
        """The scene ``token`` may see, as JSON text."""
        async with self.locked(game_id) as live:
            seats = live.seats_of(token)
        # A game on the table is never changed in place, so the scene needs no lock while it is built.
        return await self.viewer_scene(live, seats)

    async def games(self) -> list[GameSummary]:
        return await asyncio.to_thread(self.store.games)

    async def timeline(self, game_id: str) -> list[dict[str, Any]]:
        async with self.locked(game_id) as live:
            return referee.timeline(live.table.game)

    async def replay(self, game_id: str, step: int) -> dict[str, Any] | None:
        """The spectator's scene after ``step`` resolved batches; ``None`` past the end."""
        async with self.locked(game_id) as live:
            game = live.table.game
            controllers = dict(live.table.controllers)
            practice = live.table.practice
        scene = await self._work("replaying the game", self.budgets.replay, replay_with_tracks, game, step)
        extra = {"game": game_id, "players": controllers, "drafts": {}, "practice": practice}
        return None if scene is None else {**scene, **extra}

    # -- creating -----------------------------------------------------------

    async def create(
        self,
        scenario_id: str | Scenario,
        seats: Mapping[str, str],
        hotseat: bool = False,
        seed: int | None = None,
        options: Mapping[str, object] | None = None,
        scenario_toml: str | None = None,
        client: str | None = None,
    ) -> Created:
        """A new game of a built-in scenario (by id), a :class:`Scenario`, or a scenario file's text.

        ``client``: who asks (an address), whose games of computer players only are
        counted against :attr:`bot_games_per_client` (:class:`TooManyBotGames`).
        """
        opening = await self._work(
            "setting up the game",
            self.budgets.setup,
            functools.partial(referee.open_game, scenario_toml=scenario_toml),
            scenario_id,
            seats,
            hotseat,
            new_seed() if seed is None else seed,
            options,
        )
        players = tuple(Player(group, secrets.token_urlsafe(24)) for group in opening.groups)
        game_id = "g_" + secrets.token_hex(6)
        tokens = {token_hash(p.token): p.seats for p in players}
        self._admit_bot_game(game_id, opening, client)
        try:
            record = referee.record_of(game_id, opening, tokens, practice=seed is not None)
            await asyncio.to_thread(self.store.create, record)
        except BaseException:
            self._bot_games.pop(game_id, None)
            raise
        self._remember(LiveGame(referee.new_table(game_id, opening, tokens, practice=seed is not None)))
        async with self.locked(game_id) as live:
            await self._bots_move(live)
        return Created(game_id, players)

    async def open_games(self) -> list[OpenGame]:
        return await asyncio.to_thread(self.store.open_games)

    @_decided_again
    async def join(self, game_id: str, seat: str, *, practice: bool = False) -> Player:
        """Claim an open seat of ``game_id``: a new token for it, given once; :class:`SeatTaken` if it is not free.

        A practice game (its creator fixed the dice seed) is joined only with ``practice``, the joiner's
        consent to dice the creator can foresee; :class:`PracticeGame` otherwise.
        """
        async with self.locked(game_id) as live:
            table = live.table
            if table.practice and not practice:
                raise PracticeGame(
                    f"game {game_id} is a practice game: its creator fixed the dice seed and can foresee every "
                    "roll; join with practice set to agree to that"
                )
            if seat not in table.controllers:
                raise SeatTaken(f"game {game_id} has no seat {seat!r} (its seats: {', '.join(table.controllers)})")
            if table.rematch_of is not None:
                raise SeatTaken(
                    f"game {game_id} is a rematch: its seats are kept for the players of {table.rematch_of}"
                )
            if seat not in table.free_seats():
                raise SeatTaken(f"seat {seat!r} of game {game_id} is already taken")
            token = secrets.token_urlsafe(24)
            await self._claim(live, (seat,), token)
        await self._notify(live)
        return Player((seat,), token)

    async def _claim(self, live: LiveGame, seats: tuple[str, ...], token: str) -> None:
        """Give ``seats`` to ``token`` (under the game's lock): stored, then on the table."""
        digest = token_hash(token)
        version = await asyncio.to_thread(self.store.claim_seats, live.id, seats, digest, live.table.version)
        live.table.version = version
        # A new dict rather than a change in place: the table's dict is read off the loop.
        live.table.tokens = {**live.table.tokens, digest: seats}

    @_decided_again
    async def rematch(self, game_id: str, token: str | None, seat: str) -> tuple[str, Player]:
        """The finished game's rematch for the caller holding ``seat``: started by the first to ask.

        The same scenario and options, a fresh seed, every player moved on to the next side
        (two sides: swapped), bots with them. Returns the rematch's id and the caller's seats
        and token there; asking again gives the same. Raises 403, :class:`RematchRefused`.
        """
        async with self.locked(game_id) as live:
            table = live.table
            seats = table.acting_for(token, seat)
            if not table.game.is_over:
                raise RematchRefused(f"game {game_id} is not over: a rematch starts once it has a result")
            if token is None:  # pragma: no cover - acting_for refuses no token
                raise SeatForbidden(seat)
            moved = referee.rematch_seats(table.controllers, seats)
            new_id = table.rematch
            if new_id is None:
                new_id = "g_" + secrets.token_hex(6)
                await self._start_rematch(live, new_id, moved, rematch_token(token, new_id))
                changed = live
            else:
                # The other players' seats wait for them: each claims theirs with the old token.
                new_token = rematch_token(token, new_id)
                async with self.locked(new_id) as fresh:
                    if token_hash(new_token) not in fresh.table.tokens:
                        await self._claim(fresh, moved, new_token)
                changed = fresh
        await self._notify(changed)
        return new_id, Player(moved, rematch_token(token, new_id))

    async def _start_rematch(self, live: LiveGame, new_id: str, seats: tuple[str, ...], token: str) -> None:
        table = live.table
        game = table.game
        opening = await self._work(
            "setting up the game",
            self.budgets.setup,
            referee.open_game,
            game.scenario,
            referee.rematch_controllers(table.controllers),
            False,
            new_seed(),
            dict(game.options),
        )
        tokens = {token_hash(token): seats}
        record = referee.record_of(new_id, opening, tokens, rematch_of=live.id)
        version = await asyncio.to_thread(self.store.create, record, table.version)
        table.rematch = new_id
        if version is not None:
            table.version = version
        fresh = referee.new_table(new_id, opening, tokens)
        fresh.rematch_of = live.id
        self._remember(LiveGame(fresh))
        async with self.locked(new_id) as started:
            await self._bots_move(started)

    async def quickstart(self) -> Created:
        """A game a newcomer can play at once: the VV5 Dogfight against the greedy bot."""
        return await self.create(QUICKSTART_SCENARIO, QUICKSTART_SEATS)

    # -- changing -----------------------------------------------------------

    @_decided_again
    async def submit(self, game_id: str, token: str | None, seat: str, text: str, step: int) -> Submitted:
        """Take ``seat``'s order written for the prompt at ``step``; raises order errors, 403, 409, over budget."""
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, seat)
            before = table.game
            ruling = await self._give(live, before, seat, text, step, viewer)
            if ruling.game is None:
                scene = await self.viewer_scene(live, viewer, limited=False)
                return Submitted(resolved=ruling.resolved, duplicate=True, scene_text=scene)
            # The order is in: its answer carries the scene, however long that takes.
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return Submitted(resolved=len(table.game.history) > len(before.history), duplicate=False, scene_text=scene)

    async def _give(
        self, live: LiveGame, before: Game, seat: str, text: str, step: int, viewer: tuple[str, ...]
    ) -> referee.Ruling:
        """Rule on ``seat``'s order and, unless it repeats one already taken, store it with the answers it drew."""
        ruling, after, base = await self._order(live, before, seat, text, step, viewer)
        if ruling.game is not None:
            await self._persist(live, before, after, cleared_drafts=(seat,))
            live.table.drafts.pop(seat, None)
            if base is not None:
                live.table.keep_scene(after, viewer, base)
        return ruling

    async def check(self, game_id: str, token: str | None, seat: str, text: str) -> str:
        """The canonical text of ``text`` as ``seat``'s order now; nothing is stored."""
        async with self.locked(game_id) as live:
            live.table.acting_for(token, seat)
            game = live.table.game
        return await self._work("checking the order", self.budgets.check, referee.check_order, game, seat, text)

    async def inspect(self, game_id: str, token: str | None, seat: str | None, what: str, fn: Callable[[Game], R]) -> R:
        """``fn(game)`` on a worker within the check's budget, the caller acting for ``seat`` (none:
        anyone may ask); nothing is changed or stored (the tutorials' checks use it)."""
        async with self.locked(game_id) as live:
            if seat is not None:
                live.table.acting_for(token, seat)
            game = live.table.game
        return await self._work(what, self.budgets.check, fn, game)

    @_decided_again
    async def withdraw(self, game_id: str, token: str | None, seat: str) -> None:
        async with self.locked(game_id) as live:
            live.table.acting_for(token, seat)
            before = live.table.game
            after = referee.withdrawn(before, seat)
            if after is None:
                return
            await self._persist(live, before, after)
        await self._notify(live)

    @_decided_again
    async def set_draft(self, game_id: str, token: str | None, seat: str, text: str, step: int | None = None) -> None:
        """Keep what ``seat`` is editing; a draft written at a ``step`` that has passed is dropped.

        A browser saves drafts a moment after each edit, so the last save can
        arrive after the order it became (which cleared the draft): kept, it
        would come back as a stale draft at the next prompt.
        """
        async with self.locked(game_id) as live:
            live.table.acting_for(token, seat)
            if not referee.draft_applies(live.table.game, step):
                return
            live.table.version = await asyncio.to_thread(self.store.set_draft, game_id, seat, text, live.table.version)
            if text:
                live.table.drafts[seat] = text
            else:
                live.table.drafts.pop(seat, None)

    @_decided_again
    async def set_standing(
        self, game_id: str, token: str | None, seat: str, standing: Standing, *, now: bool = False
    ) -> Submitted:
        """Keep ``seat``'s standing orders, then let them (and the bots) answer what they may.

        ``now`` also answers the prompt ``seat`` owes now with the standing
        orders (a skip button); refused with :class:`IllegalOrderError` when no
        standing answer is legal here. Raises 403, 404, over budget.
        """
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, seat)
            before = table.game
            answer = None
            if now and seat in before.waiting_for:
                answer = await self._work(
                    "the standing orders", self.budgets.check, _standing_answer, before, seat, standing
                )
            table.version = await asyncio.to_thread(
                self.store.set_standing, game_id, seat, standing.to_data(), table.version
            )
            table.standing[seat] = standing
            if answer is not None:
                await self._give(live, before, seat, answer, len(before.history), viewer)
            else:
                await self._bots_move(live)
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return Submitted(resolved=len(live.table.game.history) > len(before.history), duplicate=False, scene_text=scene)

    @_decided_again
    async def play_for(self, game_id: str, seat: str, bot: Bot | None) -> None:
        """Have ``bot`` play ``seat`` from now on, its controller unchanged (``None``: its player again).

        The clocks (web/clocks.py) call it when a seat misses its deadline and when
        its player takes it back; they keep who covers which seat, and put it back
        on a table rebuilt from the store (:meth:`on_load`).
        """
        async with self.locked(game_id) as live:
            table = live.table
            bots = {s: b for s, b in table.bots.items() if s != seat}
            # A new dict rather than a change in place: the table's bots are read off the loop.
            table.bots = bots if bot is None else {**bots, seat: bot}
            await self._bots_move(live)
        await self._notify(live)

    @_decided_again
    async def answer_once(self, game_id: str, seat: str, bot: Bot) -> bool:
        """Have ``bot`` give ``seat``'s orders for the prompt it owes now, and only that one.

        The clocks call it for a seat that missed a deadline the table forgives (its player
        keeps the seat). Answers whether an order went in; a bot that fails leaves the seat waiting.
        """
        async with self.locked(game_id) as live:
            before = live.table.game
            if before.is_over or seat not in before.waiting_for:
                return False
            try:
                order = await self._work(
                    "the computer players' orders", self.budgets.bots, bot_order, before, seat, bot
                )
                after = await self._work(
                    "the computer players' orders", self.budgets.order, referee.with_bot_order, before, seat, order
                )
            except Exception:  # a bot's bug, or over budget: the seat waits, as any bot's would
                log.exception("game %s: the computer's orders for %s, late, could not be given", game_id, seat)
                return False
            await self._persist(live, before, after)
            await self._bots_move(live)
        await self._notify(live)
        return True

    # -- ending outside the rules (docs/web.md, *Ending a game*) -------------

    @_decided_again
    async def concede(self, game_id: str, token: str | None, seat: str) -> str:
        """``seat`` concedes; returns the caller's scene. Raises 403, or :class:`IllegalOrderError` once over."""
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, seat)
            before = table.game
            after = await self._work("conceding", self.budgets.order, referee.conceded, before, seat)
            await self._persist(live, before, after)
            await self._note_ending(live, None, f"{seat} conceded")
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return scene

    @_decided_again
    async def offer_end(self, game_id: str, token: str | None, seat: str) -> str:
        """``seat`` offers to end the game as a draw, or accepts the open offer; returns the caller's scene.

        The computer players answer at once; the game ends when every side has agreed.
        """
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, seat)
            before = table.game
            answer = await self._work(
                "asking the computer players",
                self.budgets.bots,
                referee.agree_to_end,
                before,
                table.end_offer,
                (seat,),
                table.bots,
            )
            if answer.game is not None:
                await self._persist(live, before, answer.game)
            await self._note_ending(live, answer.offer, answer.note)
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return scene

    @_decided_again
    async def decline_end(self, game_id: str, token: str | None, seat: str) -> str:
        """``seat`` declines the open offer to end the game, which is then withdrawn; returns the caller's scene."""
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, seat)
            await self._note_ending(live, None, referee.decline_end(table.game, table.end_offer, seat))
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return scene

    async def _note_ending(self, live: LiveGame, offer: referee.EndOffer | None, note: str) -> None:
        """Store the open offer and the note (every process shows them), then keep them on the table."""
        table = live.table
        agreed = None if offer is None else offer.agreed
        step = len(table.game.history)
        table.version = await asyncio.to_thread(self.store.set_ending, live.id, agreed, note, step, table.version)
        table.note_ending(offer, note)

    # -- chat ---------------------------------------------------------------

    async def say(
        self, game_id: str, token: str | None, seat: str, text: str, key: str | None = None
    ) -> tuple[ChatLine, bool]:
        """Store ``seat``'s chat line and hand it to the chat listeners; raises ChatRefused, 403, 404.

        Answers the line and whether it is new. ``key``: the client's idempotency key; a
        retry with a key already stored answers the stored line and stores nothing, sends
        nothing and counts against no rate limit (a key reused for other words is refused).
        """
        line_text = check_text(text)
        async with self.locked(game_id) as live:
            live.table.acting_for(token, seat)
            if key is not None:
                stored = await asyncio.to_thread(self.store.chat_line, game_id, key)
                if stored is not None:
                    if (stored.seat, stored.text) != (seat, line_text):
                        raise ChatKeyReused(key)
                    return stored, False
            self.chat_gate.admit(game_id, seat)
            # Under the lock: the store numbers a game's lines one after another.
            try:
                line = await asyncio.to_thread(self.store.add_chat, game_id, seat, line_text, key)
            except IntegrityError:
                # The same key stored meanwhile by another process (a retry sent to both): that line stands.
                if key is None:
                    raise
                stored = await asyncio.to_thread(self.store.chat_line, game_id, key)
                if stored is None:
                    raise
                if (stored.seat, stored.text) != (seat, line_text):
                    raise ChatKeyReused(key) from None
                return stored, False
        for listener in self._chat_listeners:
            await listener(live, line)
        return line, True

    async def chat(self, game_id: str, token: str | None) -> list[ChatLine]:
        """The game's chat so far, for a token holding one of its seats; a spectator gets :class:`ChatForbidden`."""
        async with self.locked(game_id) as live:
            if not live.seats_of(token):
                raise ChatForbidden()
        return await asyncio.to_thread(self.store.chat, game_id)

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

    async def _bots_answer(self, live: LiveGame, game: Game) -> Game | None:
        """The game after the bots' orders (``None``: none given); a failing or slow bot's seat waits."""
        if self.bot_pool is not None:
            return await self._pooled_bots_answer(live, game)
        try:
            answer = await self._work(
                "the computer players' orders",
                self.budgets.bots,
                referee.bots_answer,
                game,
                live.table.bots,
                live.table.standing,
            )
        except OverBudget as err:
            log.warning("game %s: %s", live.id, err)
            return None
        if answer.failure is not None:
            log.error("game %s: a bot failed", live.id, exc_info=answer.failure)
        return answer.game

    async def _bots_move(self, live: LiveGame) -> bool:
        """Let the bots give every order they owe now and store them; returns whether any did.

        With worker processes, a game of computer players only is played on in the
        background instead, a stored order at a time (:meth:`_drive`), and this returns at once.
        """
        if self.bot_pool is not None and not referee.has_people(live.table.controllers):
            if referee.next_bot_seat(live.table.game, live.table.bots) is not None:
                self._start_driving(live.id)
            return False
        before = live.table.game
        after = await self._bots_answer(live, before)
        if after is None:
            return False
        try:
            await self._persist(live, before, after)
        except StaleGame as err:
            # Another process changed the game first: the bots answer the game it left, at once.
            log.info("%s; the computer players are asked again", err)
            self._soon(self._ask_again(live.id, 0.0))
            return False
        return True

    def _soon(self, work: Awaitable[None]) -> None:
        """Run ``work`` in the background, holding on to its task until it ends."""
        task = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _persist(self, live: LiveGame, before: Game, after: Game, cleared_drafts: tuple[str, ...] = ()) -> None:
        """Store the change from ``before`` to ``after``, then put ``after`` on the table."""
        change = referee.progress(before, after, cleared_drafts)
        try:
            version = await asyncio.to_thread(self.store.record, live.id, change, live.table.version)
        except BaseException:
            # The store may or may not have it (or another process changed the game first: StaleGame):
            # forget the game and rebuild it from the store next time.
            self._forget(live)
            raise
        live.table.game = after
        live.table.version = version

    async def _notify(self, live: LiveGame) -> None:
        for listener in self._listeners:
            await listener(live)

    # -- computer players in worker processes (docs/web.md, "Deployment and limits") ----------

    async def _decide(self, table: Table, game: Game, seat: str) -> Order:
        """``seat``'s bot's next order: in a worker process when there is a pool and the bot has a name there.

        Raises :class:`BotOverBudget` or :class:`OverBudget` past the bots' budget, :class:`BotFailed`.
        """
        controller = table.controllers.get(seat, "")
        if self.bot_pool is None or not controller.startswith(referee.BOT_PREFIX):
            return await self._work(
                "the computer players' orders", self.budgets.bots, bot_order, game, seat, table.bots[seat]
            )
        decision = Decision(
            system=game.system.manifest.name,
            state=game.state,
            seed=game.seed,
            step=len(game.history),
            seat=seat,
            bot=controller.removeprefix(referee.BOT_PREFIX),
        )
        priority = PEOPLE if referee.has_people(table.controllers) else BOTS_ONLY
        return await self.bot_pool.decide(decision, priority=priority, budget=self.budgets.bots)

    async def _next_bot_order(self, live: LiveGame, game: Game) -> Game | None:
        """The game after the next bot's order; ``None`` when no bot owes one, or its seat must wait (logged)."""
        seat = referee.next_bot_seat(game, live.table.bots)
        if seat is None:
            return None
        try:
            order = await self._decide(live.table, game, seat)
            after = await self._work(
                "the computer players' orders", self.budgets.order, referee.with_bot_order, game, seat, order
            )
        except (BotOverBudget, OverBudget) as err:
            log.warning("game %s: %s's computer player: %s; it is asked again later", live.id, seat, err)
            self._ask_again_later(live.id)
            return None
        except BotFailed as err:
            log.error("game %s: %s's computer player failed; its seat waits\n%s", live.id, seat, err.details)
            return None
        except Exception:  # a bot's illegal order, or a rule system's bug resolving it: that seat waits
            log.exception("game %s: %s's computer player's order could not be given; its seat waits", live.id, seat)
            return None
        self._retries.pop(live.id, None)
        return after

    async def _pooled_bots_answer(self, live: LiveGame, game: Game) -> Game | None:
        """Every order the bots and the standing orders owe now (``None``: none given).

        The bots decide a decision at a time in the worker processes; the
        standing orders (cheap: a hold, or the shots the rules list) are given
        here, before each bot's, so the game is the one the kernel's bot loop plays.
        """
        current = game
        while True:
            # The kernel's bot loop with no bots: only the standing orders answer here.
            standing = await self._work(
                "the standing orders", self.budgets.check, referee.bots_answer, current, {}, live.table.standing
            )
            if standing.failure is not None:
                log.error("game %s: a standing order failed", live.id, exc_info=standing.failure)
            after = standing.game or await self._next_bot_order(live, current)
            if after is None:
                break
            current = after
        return None if current is game else current

    def _admit_bot_game(self, game_id: str, opening: referee.Opening, client: str | None) -> None:
        """Count a new game of computer players only against its client; raises :class:`TooManyBotGames`."""
        if self.bot_pool is None or referee.has_people(opening.controllers):
            return
        if client is not None:
            running = sum(1 for owner in self._bot_games.values() if owner == client)
            if running >= self.bot_games_per_client:
                raise TooManyBotGames(self.bot_games_per_client, self.ask_again_after)
        self._bot_games[game_id] = client or ""

    def _start_driving(self, game_id: str) -> None:
        if game_id in self._drivers:
            return
        task = asyncio.get_running_loop().create_task(self._drive(game_id), name=f"vectorwar-bots-{game_id}")
        self._drivers[game_id] = task
        task.add_done_callback(lambda _done: self._drivers.pop(game_id, None))

    async def _drive(self, game_id: str) -> None:
        """Play a game of computer players only on, a stored order at a time, until it is over or a bot must wait.

        The game's lock is held only to read and to store, not while a bot thinks:
        spectators' scenes are answered meanwhile.
        """
        try:
            while True:
                async with self.locked(game_id) as live:
                    before = live.table.game
                if referee.next_bot_seat(before, live.table.bots) is None:
                    break
                after = await self._next_bot_order(live, before)
                if after is None:
                    if game_id not in self._asking_again:
                        break  # failed for good: the game waits where it is
                    return  # asked again later, still counted against its client
                async with self.locked(game_id) as live:
                    if live.table.game is not before:
                        continue  # changed meanwhile (rebuilt from the store): decide again
                    try:
                        await self._persist(live, before, after)
                    except StaleGame:
                        continue  # changed by another process: decide again on its game
                await self._notify(live)
        except GameNotFound:
            pass
        except Exception:
            log.exception("game %s: playing the computer players on failed; they are asked again later", game_id)
            self._ask_again_later(game_id)
            return
        self._bot_games.pop(game_id, None)
        self._retries.pop(game_id, None)

    def _ask_again_later(self, game_id: str) -> None:
        """Ask the game's bots again after a while, longer each time in a row; a game that keeps failing waits."""
        if game_id in self._asking_again:
            return
        tries = self._retries.get(game_id, 0)
        if tries >= ASK_AGAIN_TIMES:
            log.error(
                "game %s: its computer players ran over their budget %d times in a row; the game waits "
                "until it is next loaded",
                game_id,
                tries,
            )
            self._retries.pop(game_id, None)
            self._bot_games.pop(game_id, None)
            return
        self._retries[game_id] = tries + 1
        delay = self.ask_again_after * 2**tries
        task = asyncio.get_running_loop().create_task(self._ask_again(game_id, delay))
        self._asking_again[game_id] = task
        task.add_done_callback(lambda _done: self._asking_again.pop(game_id, None))

    async def _ask_again(self, game_id: str, delay: float) -> None:
        await asyncio.sleep(delay)
        self._asking_again.pop(game_id, None)
        try:
            async with self.locked(game_id) as live:
                moved = await self._bots_move(live)
            if moved:
                await self._notify(live)
        except GameNotFound:
            self._bot_games.pop(game_id, None)
        except Exception:
            log.exception("game %s: asking the computer players again failed", game_id)


#: Times in a row a game's bots are asked again after running over their budget, before the game waits.
ASK_AGAIN_TIMES = 5


class _Progress:
    """How far an order's worker has got, for the event loop to read if the worker runs late."""

    ruling: referee.Ruling | None = None


def _play_order(
    progress: _Progress,
    game_id: str,
    game: Game,
    seat: str,
    text: str,
    step: int,
    bots: Mapping[str, Bot],
    viewer: tuple[str, ...],
    standing: Mapping[str, Standing],
    pooled: bool = False,
) -> tuple[referee.Ruling, referee.BotAnswer | None, str | None]:
    """The ruling, the bots' answers and the scene (``pooled``: the bots answer in worker processes later)."""
    ruling = _rule(game_id, game, seat, text, step)
    progress.ruling = ruling
    if ruling.game is None:
        return ruling, None, None
    if pooled:
        # A scene the bots' orders are about to change is not worth building.
        due = referee.next_bot_seat(ruling.game, bots) is not None
        return ruling, None, None if due else referee.scene_base(ruling.game, viewer)
    answer = referee.bots_answer(ruling.game, bots, standing)
    return ruling, answer, referee.scene_base(answer.game or ruling.game, viewer)


def _standing_answer(game: Game, seat: str, standing: Standing) -> str:
    """The order ``standing`` gives for ``seat`` now, whatever is new; refused when none is legal here."""
    answer = standing_order(game, seat, standing, now=True)
    if answer is None:
        raise IllegalOrderError(
            "skip",
            "no standing order answers this prompt (hold is not an order here): give your orders",
            "standing orders",
        )
    return answer


def _scene_bases(game: Game, seat_sets: Sequence[tuple[str, ...]]) -> list[str]:
    return [referee.scene_base(game, seats) for seats in seat_sets]


def _rule(game_id: str, game: Game, seat: str, text: str, step: int) -> referee.Ruling:
    """The referee's ruling on an order, with a rule system's bug logged (the table is untouched)."""
    try:
        return referee.rule_on_order(game, seat, text, step)
    except (OrderSyntaxError, IllegalOrderError, StalePrompt):
        raise
    except Exception:
        log.exception("game %s: resolving %s's order failed; the game stays as stored", game_id, seat)
        raise


@functools.cache
def catalogue() -> list[dict[str, Any]]:
    """Every registered system with its bots, built-in scenarios and rule options, for the lobby (read from files)."""
    paths = scenario_paths()
    out: list[dict[str, Any]] = []
    for name, system in systems().items():
        scenarios = []
        for sid, path in paths.items():
            try:
                sc = load_scenario(path)
            except ScenarioError:
                continue
            if sc.system == name:
                scenarios.append(
                    {
                        "id": sid,
                        "title": sc.title,
                        "description": sc.description,
                        "sides": [s.id for s in sc.sides],
                        "options": dict(sc.options),
                    }
                )
        options = [
            {
                "name": o.name,
                "default": o.default,
                "description": o.description,
                "choices": list(o.choices),
                "least": o.least,
                "most": o.most,
            }
            for o in system.manifest.options
        ]
        out.append(
            {
                "name": name,
                "title": system.manifest.title,
                "bots": list(computer_players(system)),
                "scenarios": scenarios,
                "options": options,
            }
        )
    return out
