"""Open sides, joining one and rematches over the API (docs/web.md, *Open sides and rematches*)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from tests.web.test_api import auth, create, token_of
from vectorwar.web.app import create_app
from vectorwar.web.migrations import upgrade
from vectorwar.web.store import SideTaken, Store

OPEN_BLUE = {"red": "human", "blue": "open"}


def join(client: TestClient, game_id: str, side: str, *, practice: bool = True) -> Any:
    """Take ``side``; ``create`` fixes a seed, so these games are practice games the joiner agrees to."""
    return client.post(f"/api/games/{game_id}/join", json={"side": side, "practice": practice})


def open_list(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/games/open")
    assert answer.status_code == 200, answer.text
    listed: list[dict[str, Any]] = answer.json()
    return listed


def scene_of(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game_id}", headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    scene: dict[str, Any] = answer.json()
    return scene


def rematch(client: TestClient, game_id: str, side: str, token: str) -> Any:
    return client.post(f"/api/games/{game_id}/rematch", json={"side": side}, headers=auth(token))


def test_an_open_side_is_listed_without_a_token_and_is_taken_once(client: TestClient) -> None:
    created = create(client, "msc-duel", OPEN_BLUE)
    # The creator gets red's token only: blue's is made when someone joins.
    assert [p["sides"] for p in created["players"]] == [["red"]]
    full = create(client, "msc-duel", {"red": "human", "blue": "human"})
    listed = open_list(client)
    assert [g["id"] for g in listed] == [created["id"]]
    assert listed[0]["free"] == ["blue"]
    assert listed[0]["scenario"] == "msc-duel"
    assert full["id"] not in [g["id"] for g in listed]
    assert scene_of(client, created["id"])["free_sides"] == ["blue"]

    first = join(client, created["id"], "blue")
    assert first.status_code == 201, first.text
    blue = first.json()
    assert blue["sides"] == ["blue"]
    assert blue["url"] == f"/games/{created['id']}?token={blue['token']}"
    # The token acts for blue (its scene says so) and for nothing else.
    assert scene_of(client, created["id"], blue["token"])["viewer"] == ["blue"]
    second = join(client, created["id"], "blue")
    assert second.status_code == 409
    assert second.json()["error"]["type"] == "SideTaken"
    assert "token" not in second.text
    assert join(client, created["id"], "red").status_code == 409
    assert join(client, created["id"], "green").status_code == 409
    assert join(client, "g_000000000000", "blue").status_code == 404
    assert open_list(client) == []
    # No view carries a token: the spectator's and red's scenes, the lobby lists.
    seen = (
        client.get(f"/api/games/{created['id']}").text,
        client.get("/api/games").text,
        client.get("/api/games/open").text,
        client.get(f"/api/games/{created['id']}", headers=auth(token_of(created, "red"))).text,
    )
    for text in seen:
        assert blue["token"] not in text
        assert token_of(created, "red") not in text


def test_a_claimed_side_survives_a_restart(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        created = create(client, "msc-duel", OPEN_BLUE)
        blue = join(client, created["id"], "blue").json()
    with TestClient(create_app(db_url)) as client:
        assert scene_of(client, created["id"], blue["token"])["viewer"] == ["blue"]
        assert join(client, created["id"], "blue").status_code == 409
        assert open_list(client) == []


def test_a_rematch_swaps_the_sides_and_waits_for_the_game_to_end(client: TestClient) -> None:
    created = create(client, "msc-duel", {"red": "human", "blue": "human"})
    game_id = created["id"]
    red, blue = token_of(created, "red"), token_of(created, "blue")
    early = rematch(client, game_id, "red", red)
    assert early.status_code == 409
    assert early.json()["error"]["type"] == "NotOver"
    assert rematch(client, game_id, "blue", red).status_code == 403
    conceded = client.post(f"/api/games/{game_id}/concede", json={"side": "red"}, headers=auth(red))
    assert conceded.status_code == 200, conceded.text

    started = rematch(client, game_id, "red", red)
    assert started.status_code == 200, started.text
    new = started.json()
    assert new["sides"] == ["blue"]
    assert new["id"] != game_id
    assert scene_of(client, new["id"], new["token"])["viewer"] == ["blue"]
    # Each side holder of the finished game is told; a spectator is not.
    assert scene_of(client, game_id, blue)["rematch"] == new["id"]
    assert scene_of(client, game_id)["rematch"] is None
    # The rematch's free side is kept for blue's player: not listed, not joinable.
    assert open_list(client) == []
    assert join(client, new["id"], "red").status_code == 409
    theirs = rematch(client, game_id, "blue", blue).json()
    assert theirs["id"] == new["id"]
    assert theirs["sides"] == ["red"]
    assert theirs["token"] != new["token"]
    assert scene_of(client, new["id"], theirs["token"])["viewer"] == ["red"]
    # Asking again gives the same link; the same scenario, options and a fresh seed.
    assert rematch(client, game_id, "red", red).json() == new
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[new["id"]]["scenario"] == "msc-duel"
    assert not listed[new["id"]]["practice"]


def test_a_bot_keeps_its_controller_on_the_swapped_side(client: TestClient) -> None:
    created = create(client, "msc-duel", {"red": "human", "blue": "bot:greedy"})
    red = token_of(created, "red")
    client.post(f"/api/games/{created['id']}/concede", json={"side": "red"}, headers=auth(red))
    new = rematch(client, created["id"], "red", red).json()
    assert new["sides"] == ["blue"]
    assert scene_of(client, new["id"], new["token"])["players"] == {"red": "bot:greedy", "blue": "human"}


def old_duel(conn: sa.Connection) -> None:
    """An MSC duel as a schema before migration 0013 stored it: red and blue seats, red's token holding "red".

    Those schemas still called a side a seat (its tables and columns); 0013 renames them.
    """
    conn.execute(
        sa.text(
            "INSERT INTO games (id, system, scenario_id, title, scenario, seed, options, created, step, turn, "
            "over) VALUES ('g_old', 'msc', 'msc-duel', 'Duel', '{}', '7', '{}', '2026-01-01', 0, 1, false)"
        )
    )
    conn.execute(
        sa.text(
            "INSERT INTO seats (game_id, seat, position, controller) VALUES "
            "('g_old', 'red', 0, 'human'), ('g_old', 'blue', 1, 'human')"
        )
    )
    conn.execute(sa.text("""INSERT INTO tokens (hash, game_id, seats) VALUES ('h1', 'g_old', '["red"]')"""))


def test_the_rematch_migration_keeps_old_games_and_their_sides(db: str) -> None:
    engine = sa.create_engine(db)
    upgrade(engine, "0006")
    with engine.begin() as conn:
        old_duel(conn)
    engine.dispose()
    store = Store(db)  # upgrades to the newest schema
    stored = store.load("g_old")
    assert stored is not None
    assert stored.rematch is None
    assert stored.rematch_of is None
    # Blue was never handed out: an old game's free side is open to join like a new one's.
    assert [(g.id, g.free) for g in store.open_games()] == [("g_old", ("blue",))]
    store.claim_sides("g_old", ("blue",), "h2")
    with pytest.raises(SideTaken):
        store.claim_sides("g_old", ("blue",), "h3")
    assert store.open_games() == []
    store.close()


def test_joining_a_practice_game_needs_the_joiners_consent_to_the_fixed_seed(client: TestClient) -> None:
    created = client.post("/api/games", json={"scenario": "msc-duel", "sides": OPEN_BLUE, "seed": 7}).json()
    listed = {g["id"]: g for g in open_list(client)}
    assert listed[created["id"]]["practice"] is True
    refused = join(client, created["id"], "blue", practice=False)
    assert refused.status_code == 409, refused.text
    assert refused.json()["error"]["type"] == "PracticeGame"
    assert "can foresee every roll" in refused.json()["error"]["message"]
    # Refused, the side stays free; with consent it is taken.
    assert open_list(client)[0]["free"] == ["blue"]
    agreed = join(client, created["id"], "blue")
    assert agreed.status_code == 201, agreed.text
    assert scene_of(client, created["id"], agreed.json()["token"])["practice"] is True


def test_a_game_with_a_drawn_seed_is_joined_without_any_consent(client: TestClient) -> None:
    created = client.post("/api/games", json={"scenario": "msc-duel", "sides": OPEN_BLUE}).json()
    assert open_list(client)[0]["practice"] is False
    assert join(client, created["id"], "blue", practice=False).status_code == 201


def test_the_sides_migration_keeps_a_games_sides_tokens_chat_and_clock_events(db: str) -> None:
    engine = sa.create_engine(db)
    upgrade(engine, "0012")
    with engine.begin() as conn:
        old_duel(conn)  # the chat, clock and contact rows below use the seat names too
        conn.execute(
            sa.text(
                "INSERT INTO chat_lines (game_id, number, seat, text, at) VALUES "
                "('g_old', 1, 'red', 'hi', '2026-01-01 00:00:00+00:00')"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO table_clocks (game_id, pace, seats, events, due) VALUES ('g_old', "
                """'{"kind": "deadline", "seconds": 3600}', '{}', """
                """'[{"at": "2026-01-01T00:00:00+00:00", "seat": "blue", "text": "late"}]', NULL)"""
            )
        )
        conn.execute(
            sa.text("INSERT INTO seat_contacts (game_id, seat, email) VALUES ('g_old', 'red', 'r@example.org')")
        )
    engine.dispose()
    Store(db)  # upgrades to the newest schema
    engine = sa.create_engine(db)
    with engine.connect() as conn:
        sides = conn.execute(sa.text("SELECT side FROM sides WHERE game_id = 'g_old' ORDER BY position")).all()
        assert [row[0] for row in sides] == ["red", "blue"]
        assert conn.execute(sa.text("SELECT side FROM chat_lines")).scalar_one() == "red"
        assert conn.execute(sa.text("SELECT side FROM side_contacts")).scalar_one() == "red"
        held = conn.execute(sa.text("SELECT sides FROM tokens WHERE hash = 'h1'")).scalar_one()
        assert (json.loads(held) if isinstance(held, str) else held) == ["red"]
        events = conn.execute(sa.text("SELECT events FROM table_clocks")).scalar_one()
        assert (json.loads(events) if isinstance(events, str) else events) == [
            {"at": "2026-01-01T00:00:00+00:00", "side": "blue", "text": "late"}
        ]
    engine.dispose()
