"""Chat between a game's sides: stored with the game, sent to that game's sides only, bounded.

Each socket is read in the order its messages were sent, so "gets nothing" is checked by
pinging after the chat line: a socket that had been sent the line would read it before its pong.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.web.test_api import auth, create, token_of
from vectorwar.web.app import create_app
from vectorwar.web.chat import CHAT_WINDOW_SECONDS, MAX_CHAT_BURST, MAX_CHAT_CHARS, ChatGate, ChatRefused
from vectorwar.web.migrations import upgrade
from vectorwar.web.store import Store

SIDES = {"red": "human", "blue": "human"}


def say(client: TestClient, game: dict[str, Any], side: str, text: str, token: str | None = None) -> Any:
    headers = auth(token if token is not None else token_of(game, side))
    return client.post(f"/api/games/{game['id']}/chat", json={"side": side, "text": text}, headers=headers)


def socket(client: TestClient, game: dict[str, Any], token: str | None) -> WebSocketTestSession:
    query = f"?token={token}" if token else ""
    return client.websocket_connect(f"/ws/games/{game['id']}{query}")


def first_scene(ws: WebSocketTestSession) -> None:
    assert json.loads(ws.receive_text())["type"] == "scene"


def next_is_pong(ws: WebSocketTestSession) -> None:
    ws.send_text(json.dumps({"type": "ping"}))
    message = json.loads(ws.receive_text())
    assert message == {"type": "pong"}, f"expected nothing before the pong, got {message}"


def test_a_line_reaches_the_other_side_and_no_one_else(client: TestClient) -> None:
    game = create(client, "msc-duel", SIDES, seed=2)
    other = create(client, "msc-duel", SIDES, seed=3)
    with (
        socket(client, game, token_of(game, "red")) as red,
        socket(client, game, None) as spectator,
        socket(client, other, token_of(other, "red")) as elsewhere,
    ):
        for ws in (red, spectator, elsewhere):
            first_scene(ws)
        answer = say(client, game, "blue", "  <b>good luck</b>  ")
        assert answer.status_code == 201, answer.text
        line = answer.json()
        assert (line["n"], line["side"], line["text"]) == (1, "blue", "<b>good luck</b>")
        got = json.loads(red.receive_text())
        assert got == {"type": "chat", "line": line}
        next_is_pong(spectator)
        next_is_pong(elsewhere)
        next_is_pong(red)
    # Stored with the game: both sides read it back; the other game's chat is empty.
    for side in ("red", "blue"):
        read = client.get(f"/api/games/{game['id']}/chat", headers=auth(token_of(game, side)))
        assert read.json() == {"lines": [line]}
    assert client.get(f"/api/games/{other['id']}/chat", headers=auth(token_of(other, "red"))).json() == {"lines": []}
    # A spectator neither reads it nor speaks.
    refused = client.get(f"/api/games/{game['id']}/chat")
    assert refused.status_code == 403
    assert "spectator" in refused.json()["error"]["message"]
    assert client.post(f"/api/games/{game['id']}/chat", json={"side": "red", "text": "hi"}).status_code == 403


def test_a_side_speaks_only_for_itself(client: TestClient) -> None:
    game = create(client, "msc-duel", SIDES, seed=2)
    answer = say(client, game, "blue", "I am blue, honest", token=token_of(game, "red"))
    assert answer.status_code == 403
    assert say(client, game, "red", "hello").json()["n"] == 1
    other = create(client, "msc-duel", SIDES, seed=3)
    # A token of another game holds no side here.
    assert say(client, game, "red", "hi", token=token_of(other, "red")).status_code == 403
    lines = client.get(f"/api/games/{game['id']}/chat", headers=auth(token_of(game, "red"))).json()["lines"]
    assert [(x["side"], x["text"]) for x in lines] == [("red", "hello")]


def test_a_line_too_long_or_empty_is_refused_naming_the_limit(client: TestClient) -> None:
    game = create(client, "msc-duel", SIDES, seed=2)
    long = say(client, game, "red", "x" * (MAX_CHAT_CHARS + 1))
    assert long.status_code == 422
    error = long.json()["error"]
    assert error["type"] == "ChatRefused"
    assert error["rule"] == "MAX_CHAT_CHARS"
    assert f"at most {MAX_CHAT_CHARS} characters; this one has {MAX_CHAT_CHARS + 1}" in error["message"]
    assert say(client, game, "red", "   ").status_code == 422
    assert say(client, game, "red", "bell\x07").status_code == 422
    # Far too long is still the same clear refusal, not the framework's.
    assert say(client, game, "red", "x" * 10 * MAX_CHAT_CHARS).status_code == 422
    assert say(client, game, "red", "x" * MAX_CHAT_CHARS).status_code == 201
    lines = client.get(f"/api/games/{game['id']}/chat", headers=auth(token_of(game, "red"))).json()["lines"]
    assert len(lines) == 1


def test_a_side_that_talks_too_fast_is_refused_until_its_window_passes(client: TestClient) -> None:
    game = create(client, "msc-duel", SIDES, seed=2)
    for i in range(MAX_CHAT_BURST):
        assert say(client, game, "red", f"line {i}").status_code == 201
    fast = say(client, game, "red", "one more")
    assert fast.status_code == 422
    assert fast.json()["error"]["rule"] == "MAX_CHAT_BURST"
    # The other side has its own allowance.
    assert say(client, game, "blue", "calm down").status_code == 201


def test_the_gate_lets_a_side_speak_again_once_its_window_has_passed() -> None:
    now = [100.0]
    gate = ChatGate(clock=lambda: now[0])
    for _ in range(MAX_CHAT_BURST):
        gate.admit("g", "red")
    with pytest.raises(ChatRefused):
        gate.admit("g", "red")
    gate.admit("g2", "red")  # another game's side is another allowance
    now[0] += CHAT_WINDOW_SECONDS
    gate.admit("g", "red")


def test_the_chat_migration_keeps_old_games_and_their_chat_survives_a_restart(db: str) -> None:
    engine = sa.create_engine(db)
    upgrade(engine, "0002")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO games (id, system, scenario_id, title, scenario, seed, options, created, step, turn, "
                "over) VALUES ('g_old', 'msc', 'msc-duel', 'Duel', '{}', '7', '{}', '2026-01-01', 0, 1, false)"
            )
        )
    engine.dispose()
    store = Store(db)  # upgrades to the newest schema
    assert store.load("g_old") is not None
    assert store.chat("g_old") == []
    store.close()
    with TestClient(create_app(db)) as client:
        game = create(client, "msc-duel", SIDES, seed=2)
        assert say(client, game, "red", "é ☄ <tag>").status_code == 201
        assert say(client, game, "blue", "second").status_code == 201
    with TestClient(create_app(db)) as client:
        lines = client.get(f"/api/games/{game['id']}/chat", headers=auth(token_of(game, "blue"))).json()["lines"]
    assert [(x["n"], x["side"], x["text"]) for x in lines] == [(1, "red", "é ☄ <tag>"), (2, "blue", "second")]
    assert lines[0]["at"].endswith("+00:00")


def test_invisible_characters_are_taken_out_and_control_characters_refused(client: TestClient) -> None:
    game = create(client, "msc-duel", SIDES, seed=2)
    answer = say(client, game, "red", "g\u200bg \u202eevil\u2066 \ufeff")
    assert answer.status_code == 201, answer.text
    assert answer.json()["text"] == "gg evil"
    for bad in ("a\x00b", "bell\x07", "csi\x9b31m"):
        refused = say(client, game, "red", bad)
        assert refused.status_code == 422, refused.text
        assert "control characters" in refused.json()["error"]["message"]
    only_invisible = say(client, game, "red", "\u200b\u202e")
    assert only_invisible.status_code == 422
    assert "needs some text" in only_invisible.json()["error"]["message"]


def say_keyed(client: TestClient, game: dict[str, Any], side: str, text: str, key: str) -> Any:
    return client.post(
        f"/api/games/{game['id']}/chat",
        json={"side": side, "text": text, "key": key},
        headers=auth(token_of(game, side)),
    )


def test_a_retried_line_is_stored_once_and_answered_with_the_stored_line(db: str) -> None:
    with TestClient(create_app(db)) as client:
        game = create(client, "msc-duel", SIDES, seed=2)
        first = say_keyed(client, game, "red", "hello", "line-0001")
        assert first.status_code == 201, first.text
        with socket(client, game, token_of(game, "blue")) as blue:
            first_scene(blue)
            # Retries past the rate limit's burst: a retry stores nothing, so it counts against nothing.
            for _ in range(MAX_CHAT_BURST + 2):
                again = say_keyed(client, game, "red", "hello", "line-0001")
                assert again.status_code == 200, again.text
                assert again.json() == first.json()
            next_is_pong(blue)  # a retry is sent to no one
        reused = say_keyed(client, game, "red", "other words", "line-0001")
        assert reused.status_code == 409
        assert reused.json()["error"]["type"] == "ChatKeyReused"
        assert say_keyed(client, game, "blue", "hello", "line-0001").status_code == 409
        # Another game's lines have keys of their own.
        other = create(client, "msc-duel", SIDES, seed=3)
        assert say_keyed(client, other, "red", "hello", "line-0001").status_code == 201
        bad_key = say_keyed(client, game, "red", "hi", "no spaces allowed")
        assert bad_key.status_code == 422
        assert "body.key" in bad_key.json()["error"]["message"]
    with TestClient(create_app(db)) as client:  # after a restart the key is still known
        again = say_keyed(client, game, "red", "hello", "line-0001")
        assert again.status_code == 200
        lines = client.get(f"/api/games/{game['id']}/chat", headers=auth(token_of(game, "red"))).json()["lines"]
    assert [x["text"] for x in lines] == ["hello"]


def test_the_store_refuses_a_second_line_with_a_key_of_the_game(db: str) -> None:
    store = Store(db)
    with TestClient(create_app(db)) as client:
        game = create(client, "msc-duel", SIDES, seed=2)
    store.add_chat(game["id"], "red", "once", "key-00001")
    with pytest.raises(sa.exc.IntegrityError):
        store.add_chat(game["id"], "red", "twice", "key-00001")
    found = store.chat_line(game["id"], "key-00001")
    assert found is not None
    assert found.text == "once"
    assert store.chat_line(game["id"], "key-00002") is None
    store.add_chat(game["id"], "red", "no key")
    store.add_chat(game["id"], "red", "no key either")  # lines without keys never collide
    assert [x.text for x in store.chat(game["id"])] == ["once", "no key", "no key either"]
    store.close()


def test_the_key_migration_keeps_every_old_row_and_old_games_are_not_practice(db: str) -> None:
    engine = sa.create_engine(db)
    upgrade(engine, "0005")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO games (id, system, scenario_id, title, scenario, seed, options, created, step, turn, "
                "over) VALUES ('g_old', 'msc', 'msc-duel', 'Duel', '{}', '7', '{}', '2026-01-01', 1, 1, false)"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO order_batches (game_id, step, clock, orders, ending) VALUES "
                """('g_old', 0, '{"turn": 1, "phase": "plot"}', '[["red", "Hawk 1"]]', '')"""
            )
        )
        conn.execute(
            sa.text(
                # The schema of that revision, which still called a side a seat (migration 0013 renames it).
                "INSERT INTO chat_lines (game_id, number, seat, text, at) VALUES "
                "('g_old', 1, 'red', 'hi', '2026-01-01 00:00:00+00:00')"
            )
        )
    engine.dispose()
    store = Store(db)  # upgrades to the newest schema
    stored = store.load("g_old")
    assert stored is not None
    assert stored.batches == [({"turn": 1, "phase": "plot"}, [("red", "Hawk 1")])]
    assert stored.seed_fixed is False
    assert [x.text for x in store.chat("g_old")] == ["hi"]
    assert [g.practice for g in store.games()] == [False]
    store.close()
