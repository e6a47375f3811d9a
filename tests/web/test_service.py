"""The service and the store underneath the API: memory limits, concurrency, failed commits, migrations."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tests.web.helpers import Mirror, run_async
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.web.app import create_app
from vectorwar.web.service import GameService
from vectorwar.web.store import Progress, Store


def test_the_schema_is_migrated_once_and_to_the_newest_version(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    Store(url).close()
    store = Store(url)  # a second start finds the schema up to date
    tables = set(sa.inspect(store.engine).get_table_names())
    expected = {"games", "sides", "tokens", "order_batches", "pending_plots", "drafts", "chat_lines", "alembic_version"}
    assert expected <= tables
    with store.engine.connect() as db:
        assert db.execute(sa.text("SELECT version_num FROM alembic_version")).scalar_one() == "0013"
    assert "ending" in {c["name"] for c in sa.inspect(store.engine).get_columns("order_batches")}
    assert "hash" in {c["name"] for c in sa.inspect(store.engine).get_columns("tokens")}
    assert "token" not in {c["name"] for c in sa.inspect(store.engine).get_columns("tokens")}


def test_games_dropped_from_memory_come_back_from_the_store(tmp_path: Path) -> None:
    async def scenario() -> None:
        service = GameService(Store(f"sqlite:///{tmp_path / 'games.db'}"), max_live=1)
        sides = {"red": "human", "blue": "bot:greedy"}
        games = [await service.create("msc-duel", sides, seed=seed) for seed in (1, 2)]
        mirrors = [Mirror.of("msc-duel", seed, sides) for seed in (1, 2)]
        for _ in range(4):
            for created, mirror in zip(games, mirrors, strict=True):
                if mirror.game.is_over:
                    continue
                text = mirror.order_for("red")
                done = await service.submit(created.id, created.players[0].token, "red", text, mirror.step)
                mirror.give("red", text)
                assert done.scene["step"] == len(mirror.game.history)
        assert len(service._live) == 1

    run_async(scenario)


def test_plots_arriving_together_resolve_once(tmp_path: Path) -> None:
    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'games.db'}")
        service = GameService(store)
        created = await service.create("msc-duel", {"red": "human", "blue": "human"}, seed=3)
        token = {p.sides[0]: p.token for p in created.players}
        answers = await asyncio.gather(
            service.submit(created.id, token["red"], "red", "Hawk 1", 0),
            service.submit(created.id, token["blue"], "blue", "Raven 1", 0),
            service.submit(created.id, token["red"], "red", "Hawk 1", 0),
        )
        assert sorted(a.duplicate for a in answers) == [False, False, True]
        assert sum(a.resolved and not a.duplicate for a in answers) == 1
        stored = store.load(created.id)
        assert stored is not None
        assert len(stored.batches) == 1
        assert stored.batches[0][1] == [("red", "Hawk 1"), ("blue", "Raven 1")]

    run_async(scenario)


def test_an_order_whose_commit_fails_is_not_accepted(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    app = create_app(url)
    with TestClient(app, raise_server_exceptions=False) as client:
        created = client.post("/api/games", json={"scenario": "msc-duel", "seed": 4}).json()
        gid, token = created["id"], created["players"][0]["token"]
        engine = app.state.store.engine
        with engine.begin() as db:
            refuse = "SELECT RAISE(ABORT, 'disk full')"
            db.execute(sa.text(f"CREATE TRIGGER full_disk BEFORE INSERT ON pending_plots BEGIN {refuse}; END"))
        body = {"side": "red", "text": "Hawk 1", "step": 0}
        failed = client.post(f"/api/games/{gid}/orders", json=body, headers={"Authorization": f"Bearer {token}"})
        assert failed.status_code == 500
        scene = client.get(f"/api/games/{gid}?token={token}").json()
        assert scene["pending"] == {}
        assert scene["prompt"]["waiting_for"] == ["red", "blue"]
        with engine.begin() as db:
            db.execute(sa.text("DROP TRIGGER full_disk"))
        again = client.post(f"/api/games/{gid}/orders", json=body, headers={"Authorization": f"Bearer {token}"})
        assert again.status_code == 200
        assert again.json()["duplicate"] is False
        assert again.json()["scene"]["pending"] == {"red": "Hawk 1"}


def test_a_resolution_that_fails_midway_leaves_the_game_as_the_store_has_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bug in a rule system must not leave memory ahead of the store: the game comes back as stored."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    resolve = Game._resolve

    def resolve_then_fail(game: Game) -> list[Event]:
        resolve(game)  # the turn is played in memory ...
        raise RuntimeError("a bug in the rules")  # ... and then something breaks before it is stored

    with TestClient(create_app(url), raise_server_exceptions=False) as client:
        created = client.post("/api/games", json={"scenario": "msc-duel", "seed": 4, "hotseat": True}).json()
        gid, token = created["id"], created["players"][0]["token"]
        headers = {"Authorization": f"Bearer {token}"}
        red = client.post(
            f"/api/games/{gid}/orders", json={"side": "red", "text": "Hawk 1", "step": 0}, headers=headers
        )
        assert red.status_code == 200
        monkeypatch.setattr(Game, "_resolve", resolve_then_fail)
        blue = client.post(
            f"/api/games/{gid}/orders", json={"side": "blue", "text": "Raven 1", "step": 0}, headers=headers
        )
        assert blue.status_code == 500
        monkeypatch.setattr(Game, "_resolve", resolve)
        scene = client.get(f"/api/games/{gid}", headers=headers).json()
        assert scene["step"] == 0
        assert scene["pending"] == {"red": "Hawk 1"}
        assert scene["prompt"]["waiting_for"] == ["blue"]
        again = client.post(
            f"/api/games/{gid}/orders", json={"side": "blue", "text": "Raven 1", "step": 0}, headers=headers
        )
        assert again.json()["resolved"] is True
        assert again.json()["duplicate"] is False
    with TestClient(create_app(url)) as restarted:
        # The store has the turn now: memory was never ahead of it.
        assert restarted.get(f"/api/games/{gid}", headers=headers).json()["step"] == 1


def test_recording_progress_for_a_game_the_store_lacks_writes_nothing(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    progress = Progress(
        first_step=0,
        batches=(({"turn": 1, "phase": "plot"}, (("red", "Hawk 1"),)),),
        pending={},
        clock="turn 1, plot",
        turn=1,
        over=False,
    )
    with pytest.raises(LookupError, match="g_missing"):
        store.record("g_missing", progress)
    with store.engine.connect() as db:
        assert db.execute(sa.text("SELECT count(*) FROM order_batches")).scalar_one() == 0


def test_timeline_counts_avt_segments() -> None:
    async def scenario() -> None:
        service = GameService(Store("sqlite://"))
        created = await service.create("avt-drift", {"blue": "bot:random", "chocolates": "bot:random"}, seed=2)
        steps = await service.timeline(created.id)
        first_turn = [s["segment"] for s in steps if s["turn"] == 1]
        assert first_turn[:8] == list(range(1, 9))
        assert all(
            str(s["clock"]).startswith(f"turn {s['turn']}, segment {s['segment']}") for s in steps if s["segment"]
        )

    run_async(scenario)
