"""Conceding and ending by agreement over the API: every side and spectator sees the end (docs/web.md, *Ending a game*).

Each socket is read in the order its messages were sent, so the scene a socket reads after
an ending request is the one the request sent (or a later one).
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.web.test_api import auth, create, token_of
from vectorwar.web.app import create_app
from vectorwar.web.migrations import upgrade
from vectorwar.web.store import Store

PEOPLE = {"red": "human", "blue": "human"}


def post(client: TestClient, game: dict[str, Any], path: str, side: str, token: str | None = None) -> Any:
    headers = auth(token if token is not None else token_of(game, side))
    return client.post(f"/api/games/{game['id']}/{path}", json={"side": side}, headers=headers)


def socket(client: TestClient, game: dict[str, Any], token: str | None) -> WebSocketTestSession:
    query = f"?token={token}" if token else ""
    return client.websocket_connect(f"/ws/games/{game['id']}{query}")


def next_scene(ws: WebSocketTestSession) -> dict[str, Any]:
    while True:
        message = json.loads(ws.receive_text())
        if message["type"] == "scene":
            scene: dict[str, Any] = message["scene"]
            return scene


def scene_of(client: TestClient, game: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    answer = client.get(f"/api/games/{game['id']}", headers=auth(token) if token else {})
    assert answer.status_code == 200, answer.text
    scene: dict[str, Any] = answer.json()
    return scene


def test_a_concession_reaches_every_side_and_spectator(client: TestClient) -> None:
    game = create(client, "msc-duel", PEOPLE, seed=2)
    with (
        socket(client, game, token_of(game, "red")) as red,
        socket(client, game, token_of(game, "blue")) as blue,
        socket(client, game, None) as spectator,
    ):
        for ws in (red, blue, spectator):
            assert next_scene(ws)["result"] is None
        answer = post(client, game, "concede", "red")
        assert answer.status_code == 200, answer.text
        assert answer.json()["scene"]["result"]["winners"] == ["blue"]
        for ws in (red, blue, spectator):
            scene = next_scene(ws)
            assert scene["result"] == {
                "winners": ["blue"],
                "reason": "red conceded",
                "scores": {},
                "score_label": "points",
            }
            assert scene["prompt"] is None
            assert scene["end_note"] == "red conceded"
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[game["id"]]["over"] is True


def test_a_request_that_is_refused_changes_nothing(client: TestClient) -> None:
    game = create(client, "msc-duel", PEOPLE, seed=2)
    wrong = post(client, game, "concede", "blue", token=token_of(game, "red"))
    assert wrong.status_code == 403
    assert "does not hold side 'blue'" in wrong.json()["error"]["message"]
    assert post(client, game, "end-offer/decline", "red").status_code == 400
    assert (
        "no side has offered to end the game"
        in post(client, game, "end-offer/decline", "red").json()["error"]["message"]
    )
    assert scene_of(client, game)["result"] is None
    assert post(client, game, "concede", "blue").status_code == 200
    again = post(client, game, "concede", "red")
    assert again.status_code == 400
    assert "the game is over" in again.json()["error"]["message"]
    late = post(client, game, "end-offer", "red")
    assert late.status_code == 400
    assert scene_of(client, game)["result"]["reason"] == "blue conceded"


def test_an_offer_is_seen_by_all_and_ends_the_game_when_accepted(client: TestClient) -> None:
    game = create(client, "msc-duel", PEOPLE, seed=2)
    with socket(client, game, token_of(game, "blue")) as blue, socket(client, game, None) as spectator:
        next_scene(blue)
        next_scene(spectator)
        offered = post(client, game, "end-offer", "red")
        assert offered.status_code == 200, offered.text
        for ws in (blue, spectator):
            scene = next_scene(ws)
            assert scene["end_offer"] == {"by": "red", "agreed": ["red"], "waiting": ["blue"]}
            assert scene["result"] is None
        accepted = post(client, game, "end-offer", "blue")
        assert accepted.status_code == 200, accepted.text
        for ws in (blue, spectator):
            scene = next_scene(ws)
            assert scene["result"]["winners"] == []
            assert scene["result"]["reason"] == "ended by agreement"
            assert scene["end_offer"] is None
    log = scene_of(client, game)["events"]
    assert any("agree to end the game" in str(line) for line in log)


def test_a_declined_offer_lets_play_go_on(client: TestClient) -> None:
    game = create(client, "msc-duel", PEOPLE, seed=2)
    assert post(client, game, "end-offer", "blue").status_code == 200
    declined = post(client, game, "end-offer/decline", "red")
    assert declined.status_code == 200, declined.text
    scene = declined.json()["scene"]
    assert scene["end_offer"] is None
    assert scene["end_note"] == "red declines to end the game; play goes on"
    assert scene["result"] is None
    assert scene["prompt"] is not None
    # The note stays until the game moves on.
    for side, text in (("red", "Hawk 1"), ("blue", "Raven 1")):
        answer = client.post(
            f"/api/games/{game['id']}/orders",
            json={"side": side, "text": text, "step": 0},
            headers=auth(token_of(game, side)),
        )
        assert answer.status_code == 200, answer.text
    assert answer.json()["scene"]["end_note"] == ""


def test_hotseat_accepts_for_each_side_it_holds(client: TestClient) -> None:
    game = create(client, "msc-duel", PEOPLE, seed=2, hotseat=True)
    token = game["players"][0]["token"]
    first = post(client, game, "end-offer", "red", token=token).json()["scene"]
    assert first["end_offer"]["waiting"] == ["blue"]
    second = post(client, game, "end-offer", "blue", token=token).json()["scene"]
    assert second["result"]["reason"] == "ended by agreement"


def test_a_bot_that_is_not_ahead_agrees_at_once(client: TestClient) -> None:
    game = create(client, "msc-duel", {"red": "human", "blue": "bot:greedy"}, seed=2)
    scene = post(client, game, "end-offer", "red").json()["scene"]
    assert scene["result"]["reason"] == "ended by agreement"


def test_an_end_survives_a_restart_and_replays(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        game = create(client, "msc-duel", PEOPLE, seed=2)
        for side, text in (("red", "Hawk 1"), ("blue", "Raven 1")):
            answer = client.post(
                f"/api/games/{game['id']}/orders",
                json={"side": side, "text": text, "step": 0},
                headers=auth(token_of(game, side)),
            )
            assert answer.status_code == 200, answer.text
        assert post(client, game, "concede", "blue").status_code == 200
    with TestClient(create_app(db_url)) as client:
        scene = scene_of(client, game)
        assert scene["result"]["reason"] == "blue conceded"
        assert scene["step"] == 2
        steps = client.get(f"/api/games/{game['id']}/timeline").json()["steps"]
        assert len(steps) == 2
        end = client.get(f"/api/games/{game['id']}/replay", params={"step": 2}).json()
        assert end["result"]["reason"] == "blue conceded"
        before = client.get(f"/api/games/{game['id']}/replay", params={"step": 1}).json()
        assert before["result"] is None


def test_the_ending_migration_keeps_old_batches(db_url: str) -> None:
    engine = sa.create_engine(db_url)
    upgrade(engine, "0003")
    with engine.begin() as conn:
        conn.execute(
            sa.text(
                "INSERT INTO games (id, system, scenario_id, title, scenario, seed, options, created, step, turn, "
                "over) VALUES ('g_old', 'msc', 'msc-duel', 'Duel', '{}', '7', '{}', '2026-01-01', 1, 1, false)"
            )
        )
        conn.execute(
            sa.text(
                "INSERT INTO order_batches (game_id, step, clock, orders) VALUES "
                """('g_old', 0, '{"turn": 1, "phase": "plot"}', '[["red", "Hawk 1"], ["blue", "Raven 1"]]')"""
            )
        )
    engine.dispose()
    store = Store(db_url)
    stored = store.load("g_old")
    store.close()
    assert stored is not None
    assert stored.ending == ""
    assert stored.batches[0][1] == [("red", "Hawk 1"), ("blue", "Raven 1")]


def test_a_bot_that_is_ahead_declines_and_play_goes_on(client: TestClient) -> None:
    # In the VMS capital duel blue starts the stronger (standing 50 to 40).
    game = create(client, "vms-capital-duel-vv5", {"red": "human", "blue": "bot:greedy"}, seed=2)
    answer = post(client, game, "end-offer", "red")
    assert answer.status_code == 200, answer.text
    scene = answer.json()["scene"]
    assert scene["result"] is None
    assert scene["end_offer"] is None
    assert scene["end_note"] == "blue (a computer player) will not end the game: it is ahead"
