"""Per-address rate limits: how often one client may create games, and how many refusals it may earn.

Two token buckets per client address (docs/web.md, "Deployment and limits"):

* creating a game (a new game, a quick start, a rematch, an imported save file, a tutorial, a
  play-by-e-mail file) takes a token from the address's game bucket; an empty bucket answers
  429 ``TooManyGames`` before the request's body is read;
* every 4xx answer but 429 itself takes a token from its refusal bucket; a refusal that finds
  it empty starts a cool-down, during which every request from the address answers 429
  ``TooManyRefusals`` before any work is done. A flood of bad requests so costs the server
  little more than the flood's own bytes once the burst is spent.

The address is the connection's (``scope["client"]``): `vectorwar serve` (uvicorn) replaces it
with ``X-Forwarded-For``'s when the request comes through a proxy it trusts (on the same machine,
or one ``FORWARDED_ALLOW_IPS`` names). The buckets live in this process's memory, so the limits
are per process, and a restart forgets them, which only lets an address in sooner. At most
:attr:`RateLimits.addresses` addresses are kept: the one heard from least recently is forgotten
first, so a flood of addresses cannot grow the memory without end.
"""

from __future__ import annotations

import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vectorwar.web.responses import error

__all__ = ["RateLimit", "RateLimiter", "RateLimits", "creates_a_game"]

#: The routes that create a game (or a play-by-e-mail file): each takes a token of the game bucket.
_CREATING = re.compile(
    r"/api/(games|quickstart|games/import|games/[^/]+/rematch|tutorials/[^/]+/start|pbem/new)/?",
)


@dataclass(frozen=True)
class RateLimits:
    """How much one client address may do, per server process.

    The defaults are far above what a player, or a browser test, ever does: only a script
    meets them. ``clock`` gives seconds (monotonic); tests hand in one they move.
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
    clock: Callable[[], float] = field(default=time.monotonic, compare=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("games_per_minute", "refusals_per_minute", "cooldown"):
            value = getattr(self, name)
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"RateLimits.{name} must be a positive number of seconds or a rate, not {value!r}")
        for name in ("games_burst", "refusals_burst", "addresses"):
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
        now = self.limits.clock()
        return max(0.0, self._of(address, now).cool_until - now)

    def take_game(self, address: str) -> float:
        """Count a game created by ``address``: 0 if it may, else the seconds until it may."""
        now = self.limits.clock()
        return self._of(address, now).games.take(now)

    def refused(self, address: str) -> None:
        """Count a refusal the address earned; one too many starts its cool-down."""
        now = self.limits.clock()
        state = self._of(address, now)
        if state.refusals.take(now) > 0:
            state.cool_until = now + self.limits.cooldown

    def __len__(self) -> int:
        return len(self._addresses)


def creates_a_game(method: str, path: str) -> bool:
    """Whether a request creates a game, and so counts against its address's game bucket."""
    return method == "POST" and _CREATING.fullmatch(path) is not None


class RateLimit:
    """ASGI middleware: answers 429 with ``Retry-After`` past an address's limits, before the app works."""

    def __init__(self, app: ASGIApp, limiter: RateLimiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            # Sockets have their own caps (web/hub.py): 32 an address, 64 a game.
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        address = str(client[0]) if client else ""
        wait = self.limiter.cooling(address)
        if wait > 0:
            message = (
                "this address has sent too many refused requests lately; "
                f"every request from it is refused for {_seconds(wait)} s more"
            )
            await _too_many("TooManyRefusals", message, wait, scope, receive, send)
            return
        if creates_a_game(str(scope.get("method", "")), str(scope.get("path", ""))):
            wait = self.limiter.take_game(address)
            if wait > 0:
                lim = self.limiter.limits
                message = (
                    f"this address may create at most {lim.games_burst} games at once and "
                    f"{lim.games_per_minute:g} a minute after that; try again in {_seconds(wait)} s"
                )
                await _too_many("TooManyGames", message, wait, scope, receive, send)
                return

        async def counting(message: Message) -> None:
            if message["type"] == "http.response.start":
                status = int(message["status"])
                if 400 <= status < 500 and status != 429:
                    self.limiter.refused(address)
            await send(message)

        await self.app(scope, receive, counting)


def _seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


async def _too_many(kind: str, message: str, wait: float, scope: Scope, receive: Receive, send: Send) -> None:
    answer = error(429, kind, message)
    answer.headers["Retry-After"] = str(_seconds(wait))
    await answer(scope, receive, send)
