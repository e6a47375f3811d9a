"""Per-address limits on creating games and on refused requests (docs/web.md, "Deployment and limits").

Small limits and a clock the test moves: no sleeping, no timing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from vectorwar.web.app import create_app
from vectorwar.web.ratelimit import RateLimiter, RateLimits, creates_a_game

DUEL = {"scenario": "msc-duel", "sides": {"red": "human", "blue": "human"}}
OTHER = ("198.51.100.7", 40000)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app(db_url: str, clock: Clock) -> FastAPI:
    limits = RateLimits(
        games_per_minute=6, games_burst=2, refusals_per_minute=6, refusals_burst=3, cooldown=20, clock=clock
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
    cooling = client.get("/api/systems")
    assert cooling.status_code == 429
    assert cooling.json()["error"]["type"] == "TooManyRefusals"
    assert cooling.headers["Retry-After"] == "20"
    # Before any work: a game sent now is not created.
    assert client.post("/api/games", json=DUEL).status_code == 429
    other = TestClient(app, client=OTHER)
    assert other.get("/api/systems").status_code == 200
    assert games_on(other) == []
    clock.now += 15
    assert client.get("/api/systems").headers["Retry-After"] == "5"
    clock.now += 5
    assert client.get("/api/systems").status_code == 200
    assert client.post("/api/games", json=DUEL).status_code == 201


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
