"""Per-address rate limits: how often one client may create games, and how many refusals it may earn.

Two token buckets per client address (docs/web.md, "Deployment and limits"):

* creating a game (a new game, a quick start, a rematch, an imported save file, a tutorial, a
  play-by-e-mail file) takes a token from the address's game bucket; an empty bucket answers
  429 ``TooManyGames`` before the request's body is read;
* every 4xx answer but 429 itself takes a token from its refusal bucket; a refusal that finds
  it empty starts a cool-down, during which every request from the address answers 429
  ``TooManyRefusals`` before any work is done. That answer is held back a moment first (at most
  :attr:`RateLimits.hold`, a few answers an address at once): a client that sends its next
  request when the last is answered, as a script does, then sends a handful a second instead of
  hundreds, and a flood of bad requests so costs the server little more than its own bytes once
  the burst is spent.

The address is the connection's (``scope["client"]``): `vectorwar serve` (uvicorn) replaces it
with ``X-Forwarded-For``'s when the request comes through a proxy it trusts (on the same machine,
or one ``FORWARDED_ALLOW_IPS`` names).

Where the buckets live depends on the database. On SQLite (one server) they live in this
process's memory (:class:`RateLimiter`): a restart forgets them, which only lets an address in
sooner, and at most :attr:`RateLimits.addresses` addresses are kept, the one heard from least
recently forgotten first. On PostgreSQL, which several servers may share, they live in the
database (:class:`SharedBuckets`, table ``rate_buckets``): each check is one atomic statement, so
N servers grant an address the rate once, not N times, and two cannot both spend its last token.
A server learns an address's cool-down from the statement that counts one of its refusals and
then answers the address from memory until the cool-down ends: a flood of refusals spread over
the servers costs each at most one statement past the burst.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vectorwar.web.responses import error

__all__ = ["RateLimit", "RateLimiter", "RateLimits", "SharedBuckets", "Taken", "creates_a_game"]

log = logging.getLogger("vectorwar.web")

#: The routes that create a game (or a play-by-e-mail file): each takes a token of the game bucket.
_CREATING = re.compile(
    r"/api/(games|quickstart|games/import|games/[^/]+/rematch|tutorials/[^/]+/start|pbem/new)/?",
)


@dataclass(frozen=True)
class RateLimits:
    """How much one client address may do (on PostgreSQL, over every server sharing the database).

    The defaults are far above what a player, or a browser test, ever does: only a script
    meets them. ``clock`` gives seconds; tests hand in one they move. ``None``: this process's
    monotonic clock for the buckets in memory, the database's clock for those in the database
    (the servers sharing them share no other clock).
    """

    #: Games an address may create a minute, once its burst is spent.
    games_per_minute: float = 30.0
    #: Games an address may create at once before the rate applies.
    games_burst: int = 60
    #: Refused requests (4xx but 429) an address may earn a minute, once its burst is spent.
    refusals_per_minute: float = 600.0
    #: Refused requests an address may earn at once.
    refusals_burst: int = 300
    #: Seconds every request from an address is answered 429 after it earned one refusal too many.
    cooldown: float = 30.0
    #: Addresses remembered at once; the least recently heard is forgotten first.
    addresses: int = 10_000
    #: Seconds a request met by a cool-down waits before its 429 (at most the cool-down left; 0: none).
    #: Holding costs the server a sleeping task, not CPU, and slows a script to its connections' pace.
    hold: float = 1.0
    #: Answers held at once for one address, and for every address together; past either, the
    #: 429 goes at once (a flood over many connections is then the proxy's or the firewall's).
    held_per_address: int = 16
    held_at_once: int = 1024
    clock: Callable[[], float] | None = field(default=None, compare=False, repr=False)
    #: How a held answer waits (``asyncio.sleep``; tests hand in one they release).
    sleep: Callable[[float], Awaitable[None]] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("games_per_minute", "refusals_per_minute", "cooldown"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"RateLimits.{name} must be a positive number of seconds or a rate, not {value!r}")
        if not (math.isfinite(self.hold) and 0 <= self.hold <= self.cooldown):
            raise ValueError(
                f"RateLimits.hold must be between 0 and the cool-down ({self.cooldown:g} s), not {self.hold!r}"
            )
        for name in ("games_burst", "refusals_burst", "addresses", "held_per_address", "held_at_once"):
            if getattr(self, name) < 1:
                raise ValueError(f"RateLimits.{name} must be at least 1, not {getattr(self, name)!r}")


@dataclass
class _Bucket:
    """Tokens refilled at ``rate`` a second up to ``burst``; full when first made."""

    rate: float
    burst: int
    tokens: float
    at: float

    def take(self, now: float) -> float:
        """Take a token: 0 if there was one, else the seconds until there is (nothing taken)."""
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


@dataclass
class _Address:
    games: _Bucket
    refusals: _Bucket
    cool_until: float = 0.0


class RateLimiter:
    """Each address's two buckets and cool-down, for at most ``limits.addresses`` addresses."""

    def __init__(self, limits: RateLimits) -> None:
        self.limits = limits
        self._clock = limits.clock or time.monotonic
        self._addresses: OrderedDict[str, _Address] = OrderedDict()

    def _of(self, address: str, now: float) -> _Address:
        found = self._addresses.get(address)
        if found is None:
            lim = self.limits
            found = _Address(
                _Bucket(lim.games_per_minute / 60, lim.games_burst, float(lim.games_burst), now),
                _Bucket(lim.refusals_per_minute / 60, lim.refusals_burst, float(lim.refusals_burst), now),
            )
            self._addresses[address] = found
            while len(self._addresses) > lim.addresses:
                self._addresses.popitem(last=False)
        else:
            self._addresses.move_to_end(address)
        return found

    def cooling(self, address: str) -> float:
        """Seconds left of the address's cool-down (0: none)."""
        now = self._clock()
        return max(0.0, self._of(address, now).cool_until - now)

    def take_game(self, address: str) -> float:
        """Count a game created by ``address``: 0 if it may, else the seconds until it may."""
        now = self._clock()
        return self._of(address, now).games.take(now)

    def refused(self, address: str) -> None:
        """Count a refusal the address earned; one too many starts its cool-down."""
        now = self._clock()
        state = self._of(address, now)
        if state.refusals.take(now) > 0:
            state.cool_until = now + self.limits.cooldown

    def cool(self, address: str, seconds: float) -> None:
        """Refuse every request from ``address`` for ``seconds`` more (a cool-down the database answered)."""
        now = self._clock()
        state = self._of(address, now)
        state.cool_until = max(state.cool_until, now + seconds)

    def __len__(self) -> int:
        return len(self._addresses)


#: Seconds one statement of the shared buckets may run (PostgreSQL's ``statement_timeout``); one that
#: takes longer, or fails, lets its request through (logged): the limits never hold up the server.
STATEMENT_BUDGET = 1.0
#: Seconds between sweeps of the rows idle long enough to be as good as absent, per process.
SWEEP_EVERY = 60.0
#: Threads (and so database connections) a process gives the shared buckets: a flood of checks
#: queues on them instead of taking the threads and connections the games need.
THREADS = 2
#: Longer addresses (``X-Forwarded-For`` from a trusted proxy holds what the proxy passed) are kept
#: as their hash, within the column.
ADDRESS_MAX = 100

#: What a check reads of the database's clock, and the spelling of the smaller and the larger of two
#: numbers, per database. SQLite serves only tests here (its servers keep their buckets in memory).
_DIALECT = {
    "postgresql": ("CAST(EXTRACT(EPOCH FROM clock_timestamp()) AS double precision)", "LEAST", "GREATEST"),
    "sqlite": ("((julianday('now') - 2440587.5) * 86400.0)", "MIN", "MAX"),
}


@dataclass(frozen=True)
class Taken:
    """What one check of a shared bucket answered."""

    #: Seconds until the bucket has a token (0: one was taken).
    wait: float
    #: Seconds left of the address's cool-down (0: none).
    cooling: float


class SharedBuckets:
    """Each address's buckets in the database's ``rate_buckets`` table, shared by every server on it.

    A check is one ``INSERT ... ON CONFLICT DO UPDATE ... RETURNING``: the row is made full (less
    the token taken) on an address's first check; later ones refill it by the time passed since it
    was last counted and take a token if there is one, all under the row's lock, so two servers
    cannot both spend the last token. The time is the database's clock, or ``limits.clock`` when a
    test hands one in. Rows idle for longer than a bucket takes to fill again and a cool-down to
    end are as good as absent, and deleted at most once every :data:`SWEEP_EVERY` seconds.

    The blocking methods (:meth:`take`, :meth:`maybe_sweep`) run on the caller's thread; the server
    awaits :meth:`take_game` and :meth:`refused`, which run them on :data:`THREADS` threads of their
    own (a sweep beside the check, not before its answer).
    """

    def __init__(self, engine: Engine, limits: RateLimits, *, own_engine: bool = False) -> None:
        self.engine = engine
        self.limits = limits
        self._own_engine = own_engine
        dialect = engine.dialect.name
        if dialect not in _DIALECT:
            raise ValueError(f"the shared rate limits need PostgreSQL (or SQLite, in tests), not {dialect}")
        database_now, least, greatest = _DIALECT[dialect]
        now = ":now" if limits.clock is not None else database_now
        refilled = f"{least}(:burst, rate_buckets.tokens + {greatest}(0.0, excluded.at - rate_buckets.at) * :rate)"
        # Every SET reads the row as it was; ``excluded.at`` is this check's time (the insert's ``at``).
        self._take = text(
            "INSERT INTO rate_buckets (kind, address, tokens, at, wait, cool_until) "
            f"VALUES (:kind, :address, :burst - 1, {now}, 0.0, 0.0) "
            "ON CONFLICT (kind, address) DO UPDATE SET "
            f"tokens = CASE WHEN {refilled} >= 1 THEN {refilled} - 1 ELSE {refilled} END, "
            f"wait = CASE WHEN {refilled} >= 1 THEN 0.0 ELSE (1 - {refilled}) / :rate END, "
            f"cool_until = CASE WHEN {refilled} >= 1 OR :cooldown <= 0 THEN rate_buckets.cool_until "
            "ELSE excluded.at + :cooldown END, "
            f"at = {greatest}(rate_buckets.at, excluded.at) "
            "RETURNING wait, cool_until, at"
        )
        self._sweep = text(f"DELETE FROM rate_buckets WHERE at < {now} - :idle")
        self._swept = -math.inf
        self._sweeping = threading.Lock()
        self._warned = -math.inf
        self._threads: ThreadPoolExecutor | None = None

    @classmethod
    def on(cls, url: str, limits: RateLimits) -> SharedBuckets:
        """Shared buckets on the database at ``url``, on an engine of their own (migrated already by the store)."""
        if make_url(url).get_backend_name() == "postgresql":
            # A connection a thread, and each statement stopped by the database past its budget.
            timeout = f"-c statement_timeout={int(STATEMENT_BUDGET * 1000)}"
            engine = create_engine(
                url, pool_size=THREADS, max_overflow=0, pool_timeout=STATEMENT_BUDGET,
                connect_args={"options": timeout, "connect_timeout": 5},
            )  # fmt: skip
        else:
            engine = create_engine(url, connect_args={"timeout": STATEMENT_BUDGET})
        return cls(engine, limits, own_engine=True)

    def close(self) -> None:
        """Stop the threads and let the connections go (a later check starts them again)."""
        threads, self._threads = self._threads, None
        if threads is not None:
            threads.shutdown(wait=True, cancel_futures=True)
        if self._own_engine:
            self.engine.dispose()

    def idle(self) -> float:
        """Seconds after which an untouched row is as good as absent: its bucket full, its cool-down over."""
        lim = self.limits
        return max(
            lim.games_burst / lim.games_per_minute * 60, lim.refusals_burst / lim.refusals_per_minute * 60, lim.cooldown
        )

    def take(self, kind: str, address: str) -> Taken:
        """Take a token of ``address``'s ``kind`` bucket ("games" or "refusals"): one statement.

        An empty refusal bucket starts the address's cool-down. A statement that fails or runs
        over its budget is logged and takes nothing: the request goes through.
        """
        lim = self.limits
        if kind == "games":
            rate, burst, cooldown = lim.games_per_minute / 60, lim.games_burst, 0.0
        elif kind == "refusals":
            rate, burst, cooldown = lim.refusals_per_minute / 60, lim.refusals_burst, lim.cooldown
        else:
            raise ValueError(f"no rate limit is called {kind!r}: 'games' or 'refusals'")
        params = {
            "kind": kind, "address": _stored(address), "rate": rate, "burst": float(burst), "cooldown": cooldown,
        }  # fmt: skip
        if lim.clock is not None:
            params["now"] = lim.clock()
        try:
            with self.engine.begin() as db:
                wait, cool_until, at = db.execute(self._take, params).one()
        except SQLAlchemyError as err:
            self._warn(err)
            return Taken(0.0, 0.0)
        return Taken(max(0.0, float(wait)), max(0.0, float(cool_until) - float(at)))

    def sweep(self) -> int:
        """Delete the rows idle past :meth:`idle`; how many were."""
        params: dict[str, float] = {"idle": self.idle()}
        if self.limits.clock is not None:
            params["now"] = self.limits.clock()
        with self.engine.begin() as db:
            return int(db.execute(self._sweep, params).rowcount)

    def sweep_due(self) -> bool:
        """Whether :data:`SWEEP_EVERY` seconds have passed since this process last swept (or it never did)."""
        return (self.limits.clock or time.monotonic)() - self._swept >= SWEEP_EVERY

    def maybe_sweep(self) -> None:
        """Sweep if it is due and no other thread of this process is sweeping."""
        if not self.sweep_due() or not self._sweeping.acquire(blocking=False):
            return
        try:
            self._swept = (self.limits.clock or time.monotonic)()
            self.sweep()
        except SQLAlchemyError as err:
            self._warn(err)
        finally:
            self._sweeping.release()

    def _warn(self, err: Exception) -> None:
        # Once a minute at most: a database that is down would otherwise log every request.
        now = time.monotonic()
        if now - self._warned >= 60:
            self._warned = now
            log.warning("the shared rate limits could not be checked, so requests go through unlimited: %s", err)

    async def take_game(self, address: str) -> float:
        """Count a game created by ``address``: 0 if it may, else the seconds until it may."""
        return (await self._off_the_loop("games", address)).wait

    async def refused(self, address: str) -> float:
        """Count a refusal the address earned: the seconds of its cool-down now (0: none)."""
        return (await self._off_the_loop("refusals", address)).cooling

    async def _off_the_loop(self, kind: str, address: str) -> Taken:
        if self._threads is None:
            self._threads = ThreadPoolExecutor(THREADS, thread_name_prefix="vectorwar-limits")
        if self.sweep_due():
            # Not awaited: no request waits for the sweep.
            self._threads.submit(self.maybe_sweep)
        return await asyncio.get_running_loop().run_in_executor(self._threads, self.take, kind, address)


def _stored(address: str) -> str:
    if len(address) <= ADDRESS_MAX:
        return address
    return "sha256:" + hashlib.sha256(address.encode("utf-8", "surrogatepass")).hexdigest()


def creates_a_game(method: str, path: str) -> bool:
    """Whether a request creates a game, and so counts against its address's game bucket."""
    return method == "POST" and _CREATING.fullmatch(path) is not None


class RateLimit:
    """ASGI middleware: answers 429 with ``Retry-After`` past an address's limits, before the app works.

    ``limiter`` holds the buckets in memory; with ``shared`` (PostgreSQL) the buckets are the
    database's, and ``limiter`` only remembers the cool-downs the database answered.
    """

    def __init__(self, app: ASGIApp, limiter: RateLimiter, shared: SharedBuckets | None = None) -> None:
        self.app = app
        self.limiter = limiter
        self.shared = shared
        self._sleep = limiter.limits.sleep or asyncio.sleep
        #: Answers being held now, by address and in all (see :meth:`_hold`).
        self._held: dict[str, int] = {}
        self._held_total = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            # Sockets have their own caps (web/hub.py): 32 an address, 64 a game, per process.
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        wait = self.limiter.cooling(address)
        if wait > 0:
            await self._hold(address, wait)
            wait = self.limiter.cooling(address)  # a hold ends at the latest when the cool-down does
        if wait > 0:
            message = (
                "this address has sent too many refused requests lately; "
                f"every request from it is refused for {_seconds(wait)} s more"
            )
            await _too_many("TooManyRefusals", message, wait, scope, receive, send)
            return
        if creates_a_game(str(scope.get("method", "")), str(scope.get("path", ""))):
            if self.shared is None:
                wait = self.limiter.take_game(address)
            else:
                wait = await self.shared.take_game(address)
            if wait > 0:
                lim = self.limiter.limits
                message = (
                    f"this address may create at most {lim.games_burst} games at once and "
                    f"{lim.games_per_minute:g} a minute after that; try again in {_seconds(wait)} s"
                )
                await _too_many("TooManyGames", message, wait, scope, receive, send)
                return
        refused = False

        async def counting(message: Message) -> None:
            nonlocal refused
            if message["type"] == "http.response.start":
                status = int(message["status"])
                if 400 <= status < 500 and status != 429:
                    refused = True
                    if self.shared is None:
                        self.limiter.refused(address)
            await send(message)

        await self.app(scope, receive, counting)
        if refused and self.shared is not None:
            # Counted once the answer is sent: the refused client does not wait for the database.
            cooling = await self.shared.refused(address)
            if cooling > 0:
                self.limiter.cool(address, cooling)

    async def _hold(self, address: str, wait: float) -> None:
        """Wait a moment before refusing a cooling address, unless it (or everyone) has enough held."""
        lim = self.limiter.limits
        seconds = min(lim.hold, wait)
        held = self._held.get(address, 0)
        if seconds <= 0 or held >= lim.held_per_address or self._held_total >= lim.held_at_once:
            return
        self._held[address] = held + 1
        self._held_total += 1
        try:
            await self._sleep(seconds)
        finally:
            self._held_total -= 1
            left = self._held[address] - 1
            if left:
                self._held[address] = left
            else:
                del self._held[address]


def _seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


async def _too_many(kind: str, message: str, wait: float, scope: Scope, receive: Receive, send: Send) -> None:
    answer = error(429, kind, message)
    answer.headers["Retry-After"] = str(_seconds(wait))
    await answer(scope, receive, send)
