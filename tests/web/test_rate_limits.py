"""Per-address limits on creating games and on refused requests (docs/web.md, "Deployment and limits").

Small limits and a clock the test moves: no sleeping, no timing. A held answer "sleeps" by moving
that clock on.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any, cast

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from tests.web.helpers import run_async
from vectorwar.web.app import create_app
from vectorwar.web.ratelimit import RateLimit, RateLimiter, RateLimits, creates_a_game

DUEL = {"scenario": "msc-duel", "sides": {"red": "human", "blue": "human"}}
OTHER = ("198.51.100.7", 40000)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0
        #: Each hold's seconds, in turn.
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(db_url: str, clock: Clock) -> FastAPI:
    limits = RateLimits(
        games_per_minute=6,
        games_burst=2,
        refusals_per_minute=6,
        refusals_burst=3,
        cooldown=20,
        clock=clock,
        sleep=clock.sleep,
    )
    return create_app(db_url, rate_limits=limits)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def games_on(client: TestClient) -> list[Any]:
    answer = client.get("/api/games")
    assert answer.status_code == 200, answer.text
    games: list[Any] = answer.json()
    return games


def test_creating_games_past_the_burst_is_a_429_with_retry_after_and_recovers(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    for _ in range(2):
        assert client.post("/api/games", json=DUEL).status_code == 201
    refused = client.post("/api/games", json=DUEL)
    assert refused.status_code == 429
    assert refused.json()["error"]["type"] == "TooManyGames"
    # 6 a minute: the next token comes in 10 s.
    assert refused.headers["Retry-After"] == "10"
    assert len(games_on(client)) == 2  # nothing was created
    # Play by e-mail's new file counts as a game too.
    assert client.post("/api/pbem/new", json={"scenario": "msc-duel"}).status_code == 429
    # Another address has its own bucket.
    assert TestClient(app, client=OTHER).post("/api/games", json=DUEL).status_code == 201
    clock.now += 9
    assert client.post("/api/games", json=DUEL).status_code == 429
    clock.now += 1
    assert client.post("/api/games", json=DUEL).status_code == 201
    assert client.post("/api/games", json=DUEL).status_code == 429


def test_too_many_refusals_start_a_cool_down_that_refuses_everything_then_ends(
    app: FastAPI, client: TestClient, clock: Clock
) -> None:
    # Three refusals are the burst; the fourth finds the bucket empty and starts the cool-down.
    for _ in range(4):
        assert client.get("/api/games/no-such-game").status_code == 404
    assert clock.slept == []  # refusals earned are answered at once
    cooling = client.get("/api/systems")
    assert cooling.status_code == 429
    assert cooling.json()["error"]["type"] == "TooManyRefusals"
    # Held a second first, so 19 of the cool-down's 20 s are left.
    assert clock.slept == [1.0]
    assert cooling.headers["Retry-After"] == "19"
    # Before any work: a game sent now is not created.
    assert client.post("/api/games", json=DUEL).status_code == 429
    other = TestClient(app, client=OTHER)
    assert other.get("/api/systems").status_code == 200
    assert games_on(other) == []
    assert clock.slept == [1.0, 1.0]  # the other address was never held
    clock.now += 15  # 3 s left
    assert client.get("/api/systems").headers["Retry-After"] == "2"
    clock.now += 1.5  # 0.5 s left: held that long, and then the cool-down is over and it is served
    assert client.get("/api/systems").status_code == 200
    assert clock.slept == [1.0, 1.0, 1.0, 0.5]
    assert client.post("/api/games", json=DUEL).status_code == 201


def test_held_answers_are_bounded_per_address_and_in_all(clock: Clock) -> None:
    """Past ``held_per_address`` (or ``held_at_once``) held answers, a cooling address's 429 goes at once."""

    async def inner(scope: Scope, receive: Receive, send: Send) -> None:
        await PlainTextResponse("served")(scope, receive, send)

    async def scenario() -> None:
        gate = asyncio.Event()
        held: list[float] = []

        async def sleep(seconds: float) -> None:
            held.append(seconds)
            await gate.wait()

        limits = RateLimits(refusals_burst=1, held_per_address=2, held_at_once=3, clock=clock, sleep=sleep)
        limiter = RateLimiter(limits)
        for address in ("a", "b"):
            limiter.cool(address, 30)
        middleware = RateLimit(inner, limiter)

        def client(address: str) -> httpx.AsyncClient:
            transport = httpx.ASGITransport(app=middleware, client=(address, 1))
            return httpx.AsyncClient(transport=transport, base_url="http://test")

        async with client("a") as a, client("b") as b, client("c") as c:
            waiting = [asyncio.create_task(a.get("/")) for _ in range(2)]
            for _ in range(1000):
                if len(held) == 2:
                    break
                await asyncio.sleep(0)
            assert held == [1.0, 1.0]
            third = await a.get("/")  # "a" has two held: refused at once
            assert third.status_code == 429
            waiting.append(asyncio.create_task(b.get("/")))
            for _ in range(1000):
                if len(held) == 3:
                    break
                await asyncio.sleep(0)
            assert len(held) == 3
            assert (await b.get("/")).status_code == 429  # three held in all: at once, though "b" has one
            assert (await c.get("/")).text == "served"  # an address not cooling is never held
            gate.set()
            assert [w.status_code for w in await asyncio.gather(*waiting)] == [429, 429, 429]
            assert middleware._held == {}
            assert len(held) == 3

    run_async(scenario)


def test_a_429_is_not_counted_as_a_refusal(client: TestClient) -> None:
    for _ in range(2):
        assert client.post("/api/games", json=DUEL).status_code == 201
    # Many times the refusal burst of 429s: no cool-down follows.
    for _ in range(10):
        assert client.post("/api/games", json=DUEL).json()["error"]["type"] == "TooManyGames"
    assert client.get("/api/systems").status_code == 200


def test_refusals_spread_out_never_start_a_cool_down(client: TestClient, clock: Clock) -> None:
    # 6 a minute refill one token each 10 s: a refusal every 10 s is never one too many.
    for _ in range(20):
        assert client.get("/api/games/no-such-game").status_code == 404
        clock.now += 10
    assert client.get("/api/systems").status_code == 200


def test_the_limiter_forgets_the_least_recently_heard_address_first(clock: Clock) -> None:
    limiter = RateLimiter(RateLimits(refusals_burst=1, cooldown=60, addresses=2, clock=clock))
    limiter.refused("a")
    limiter.refused("a")
    assert limiter.cooling("a") == 60
    limiter.cooling("b")
    limiter.cooling("a")  # heard again: "b" is now the oldest
    limiter.cooling("c")
    assert len(limiter) == 2
    assert limiter.cooling("a") == 60
    limiter.cooling("d")
    limiter.cooling("e")
    assert len(limiter) == 2
    assert limiter.cooling("a") == 0  # forgotten, so it starts afresh


@pytest.mark.parametrize(
    ("method", "path", "creates"),
    [
        ("POST", "/api/games", True),
        ("POST", "/api/quickstart", True),
        ("POST", "/api/games/import", True),
        ("POST", "/api/games/abc/rematch", True),
        ("POST", "/api/tutorials/vv5-basics/start", True),
        ("POST", "/api/pbem/new", True),
        ("GET", "/api/games", False),
        ("POST", "/api/games/abc/orders", False),
        ("POST", "/api/pbem/turn", False),
        ("POST", "/api/games/abc/rematch/x", False),
    ],
)
def test_which_requests_create_a_game(method: str, path: str, creates: bool) -> None:
    assert creates_a_game(method, path) is creates


def test_limits_must_be_positive() -> None:
    with pytest.raises(ValueError, match="games_burst"):
        RateLimits(games_burst=0)
    with pytest.raises(ValueError, match="cooldown"):
        RateLimits(cooldown=float("nan"))
    with pytest.raises(ValueError, match="held_per_address"):
        RateLimits(held_per_address=0)
    with pytest.raises(ValueError, match="hold"):
        RateLimits(hold=-0.1)
    with pytest.raises(ValueError, match="hold"):
        RateLimits(hold=31, cooldown=30)
    assert RateLimits(hold=30, cooldown=30).hold == 30  # at most the cool-down: the whole of it may be held
    assert RateLimits(hold=0).hold == 0  # none


def test_the_default_limits_are_far_above_play(db_url: str) -> None:
    # A browser test or a player never meets them: dozens of games and hundreds of refusals at once.
    limits = RateLimits()
    assert limits.games_burst >= 50
    assert limits.refusals_burst >= 200
    with TestClient(create_app(db_url)) as client:
        for _ in range(50):
            assert client.get("/api/games/no-such-game").status_code == 404
        assert client.get("/api/systems").status_code == 200


def test_behind_a_trusted_proxy_each_forwarded_address_has_its_own_limits(app: FastAPI) -> None:
    # What `vectorwar serve` does: uvicorn puts X-Forwarded-For's address in the request's scope
    # when the connection comes from a proxy it trusts, and the limits count that address.
    # uvicorn's ASGI types and Starlette's differ only in how precisely they spell the same protocol.
    behind: ASGIApp = cast(ASGIApp, ProxyHeadersMiddleware(cast(Any, app), trusted_hosts="testclient"))
    with TestClient(behind) as proxy:  # every request comes from the proxy's own address
        first = {"X-Forwarded-For": "203.0.113.1"}
        for _ in range(2):
            assert proxy.post("/api/games", json=DUEL, headers=first).status_code == 201
        assert proxy.post("/api/games", json=DUEL, headers=first).status_code == 429
        assert proxy.post("/api/games", json=DUEL, headers={"X-Forwarded-For": "203.0.113.2"}).status_code == 201


def test_the_api_document_names_the_429_on_every_route(app: FastAPI) -> None:
    # Any request may meet its address's cool-down, so every operation documents the 429.
    operations = [op for path in app.openapi()["paths"].values() for op in path.values()]
    assert operations
    assert all("429" in op["responses"] for op in operations)
