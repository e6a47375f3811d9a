"""Per-address limits shared by the servers on one database (docs/web.md, "Deployment and limits").

On PostgreSQL the buckets live in the database's ``rate_buckets`` table, one atomic statement a
check (web/ratelimit.py, ``SharedBuckets``). The bucket tests run on SQLite too (the statement is
the same but for the clock's spelling); the servers' tests need PostgreSQL, where the servers
use the shared buckets. A clock the test moves: no sleeping, no timing.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.web.helpers import Server, throwaway_postgres
from vectorwar.web.app import create_app
from vectorwar.web.ratelimit import SWEEP_EVERY, RateLimit, RateLimiter, RateLimits, SharedBuckets, Taken
from vectorwar.web.store import Store

DUEL = {"scenario": "msc-duel", "sides": {"red": "human", "blue": "human"}}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def small(clock: Clock) -> RateLimits:
    # 6 a minute: a token each 10 s. No held answers: these tests are about the buckets.
    return RateLimits(
        games_per_minute=6, games_burst=2, refusals_per_minute=6, refusals_burst=3, cooldown=20, hold=0, clock=clock
    )


def two_servers_buckets(db: str, limits: RateLimits) -> tuple[SharedBuckets, SharedBuckets]:
    Store(db).close()  # migrated, as the server's store does at its start
    return SharedBuckets.on(db, limits), SharedBuckets.on(db, limits)


def rows(buckets: SharedBuckets) -> list[tuple[str, str]]:
    with buckets.engine.connect() as db:
        return sorted(
            (kind, address) for kind, address in db.execute(sa.text("SELECT kind, address FROM rate_buckets"))
        )


def test_two_servers_cannot_both_spend_the_last_token(db: str) -> None:
    clock = Clock()  # stands still: no token comes back during the race
    limits = RateLimits(games_per_minute=6, games_burst=10, clock=clock)
    one, two = two_servers_buckets(db, limits)
    try:
        # 40 checks at once from two servers' threads: exactly the burst of 10 is granted.
        with ThreadPoolExecutor(8) as pool:
            answers = list(pool.map(lambda i: (one, two)[i % 2].take("games", "203.0.113.9"), range(40)))
        assert sum(taken.wait == 0 for taken in answers) == 10
        assert {taken.wait for taken in answers if taken.wait > 0} == {10.0}
        # Another address has its own bucket; one longer than the column is kept as its hash.
        assert one.take("games", "203.0.113.10") == Taken(0.0, 0.0)
        assert two.take("games", "x" * 300) == Taken(0.0, 0.0)
        assert one.take("games", "x" * 300) == Taken(0.0, 0.0)
        assert len(rows(one)) == 3
    finally:
        one.close()
        two.close()


def test_the_shared_bucket_refills_by_the_clock_and_a_cool_down_ends(db: str) -> None:
    clock = Clock()
    one, two = two_servers_buckets(db, small(clock))
    try:
        assert [one.take("games", "a").wait, two.take("games", "a").wait] == [0, 0]
        assert two.take("games", "a").wait == 10
        clock.now += 4
        assert one.take("games", "a").wait == pytest.approx(6)
        clock.now += 6
        assert two.take("games", "a").wait == 0
        assert one.take("games", "a").wait == pytest.approx(10)
        # Three refusals are the burst; the fourth, on the other server, starts the cool-down.
        assert [one.take("refusals", "a").cooling for _ in range(3)] == [0, 0, 0]
        assert two.take("refusals", "a").cooling == 20
        clock.now += 15
        # Ten seconds refilled one token: this refusal is within the rate, and the cool-down runs on.
        assert one.take("refusals", "a").cooling == pytest.approx(5)
        clock.now += 5
        assert two.take("refusals", "a") == Taken(0.0, 0.0)
    finally:
        one.close()
        two.close()


def test_idle_rows_are_swept_at_most_once_a_minute(db: str) -> None:
    clock = Clock()
    one, two = two_servers_buckets(db, small(clock))
    try:
        assert one.idle() == 30  # the refusal bucket refills in 30 s, longer than the rest
        assert one.sweep_due()
        one.take("games", "a")
        one.maybe_sweep()  # nothing idle yet
        two.take("refusals", "b")
        clock.now += 31
        one.take("games", "c")
        one.maybe_sweep()  # idle rows, but within a minute of the last sweep: kept
        assert rows(one) == [("games", "a"), ("games", "c"), ("refusals", "b")]
        clock.now += SWEEP_EVERY - 31
        assert one.sweep_due()
        one.take("games", "c")
        one.maybe_sweep()
        assert rows(one) == [("games", "c")]
        assert not one.sweep_due()
    finally:
        one.close()
        two.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.tuples(st.sampled_from(["games", "refusals"]), st.floats(0, 90)), min_size=1, max_size=30))
def test_the_shared_buckets_answer_as_the_buckets_in_memory_do(tmp_path: Path, steps: list[tuple[str, float]]) -> None:
    # The same checks at the same times: the same waits and cool-downs, sweeps included (a row
    # swept is one the memory's bucket has refilled to full, with no cool-down left).
    clock = Clock()
    limits = small(clock)
    url = f"sqlite:///{tmp_path / 'games.db'}"
    shared = two_servers_buckets(url, limits)[0]
    with shared.engine.begin() as db:
        db.execute(sa.text("DELETE FROM rate_buckets"))  # another example's
    memory = RateLimiter(limits)
    try:
        for kind, later in steps:
            clock.now += later
            taken = shared.take(kind, "a")
            shared.maybe_sweep()
            if kind == "games":
                assert taken.wait == pytest.approx(memory.take_game("a"))
            else:
                memory.refused("a")
                assert taken.cooling == pytest.approx(memory.cooling("a"))
    finally:
        shared.close()


def test_a_check_the_database_cannot_answer_lets_the_request_through(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    buckets = two_servers_buckets(url, RateLimits(games_burst=1, clock=Clock()))[0]
    try:
        assert buckets.take("games", "a").wait == 0
        with buckets.engine.begin() as db:
            db.execute(sa.text("DROP TABLE rate_buckets"))
        assert buckets.take("games", "a") == Taken(0.0, 0.0)
    finally:
        buckets.close()


@pytest.fixture
def postgres() -> Iterator[str]:
    with throwaway_postgres() as url:
        yield url


def app_on(db: str, limits: RateLimits) -> FastAPI:
    """A server's app with the shared buckets: on PostgreSQL its own; on SQLite (whose servers keep them in
    memory) given them here, so that the same checks run without a database server."""
    if db.startswith("postgresql"):
        app = create_app(db, rate_limits=limits)
        assert app.state.shared_limits is not None
        return app
    app = create_app(db, rate_limits=None)
    app.state.shared_limits = SharedBuckets.on(db, limits)
    app.add_middleware(RateLimit, limiter=RateLimiter(limits), shared=app.state.shared_limits)
    return app


def test_two_servers_on_one_database_share_the_rates_and_the_cool_down(db: str) -> None:
    clock = Clock()
    apps = [app_on(db, small(clock)) for _ in range(2)]
    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        assert one.post("/api/games", json=DUEL).status_code == 201
        assert two.post("/api/games", json=DUEL).status_code == 201
        for server in (one, two):
            refused = server.post("/api/games", json=DUEL)
            assert refused.status_code == 429
            assert refused.json()["error"]["type"] == "TooManyGames"
            assert refused.headers["Retry-After"] == "10"
        assert len(one.get("/api/games").json()) == 2  # nothing more was created
        clock.now += 10
        assert two.post("/api/games", json=DUEL).status_code == 201
        assert one.post("/api/games", json=DUEL).status_code == 429

        # Refusals on either count together: the fourth starts the cool-down.
        for server in (one, two, one, two):
            assert server.get("/api/games/no-such-game").status_code == 404
        cooling = two.get("/api/systems")
        assert (cooling.status_code, cooling.headers["Retry-After"]) == (429, "20")
        assert cooling.json()["error"]["type"] == "TooManyRefusals"
        # The other server learns it at the address's next refusal there.
        assert one.get("/api/games/no-such-game").status_code == 404
        assert one.get("/api/systems").status_code == 429
        clock.now += 20
        assert one.get("/api/systems").status_code == 200
        assert two.get("/api/systems").status_code == 200
    for app in apps:
        app.state.shared_limits.close()  # again, for PostgreSQL's: a second close does nothing


@pytest.mark.slow
def test_a_second_server_process_cannot_exceed_the_shared_rate(postgres: str, tmp_path: Path) -> None:
    # Two real `vectorwar serve` processes on one PostgreSQL, two games an address at once and then one
    # each 100 minutes: together they grant two, not four.
    rates = ("--games-burst", "2", "--games-per-minute", "0.01")
    servers = [Server(postgres, tmp_path / name, args=rates) for name in ("one", "two")]
    try:
        for server in servers:
            server.start()
        answers = [httpx.post(f"{server.url}/api/games", json=DUEL, timeout=60) for server in servers * 2]
        assert [answer.status_code for answer in answers] == [201, 201, 429, 429]
        for refused in answers[2:]:
            assert refused.json()["error"]["type"] == "TooManyGames"
            assert int(refused.headers["Retry-After"]) > 5000
    finally:
        for server in servers:
            server.stop()
