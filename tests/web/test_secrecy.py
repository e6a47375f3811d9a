"""Secrecy with real WebSocket clients on a real server: nobody sees another side's plot before it resolves."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from tests.web.helpers import Mirror, Server, running


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("secrecy")
    with running(f"sqlite:///{root / 'games.db'}", root / "data") as srv:
        yield srv


def socket(server: Server, game_id: str, token: str | None) -> ClientConnection:
    query = f"?token={token}" if token else ""
    return connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}{query}", open_timeout=10)


def scene_from(ws: ClientConnection) -> dict[str, Any]:
    message = json.loads(ws.recv(timeout=10))
    assert message["type"] == "scene"
    scene: dict[str, Any] = message["scene"]
    return scene


def hex_of(scene: dict[str, Any], ship: str) -> str:
    hex_: str = next(c["hex"] for c in scene["counters"] if c["id"] == ship)
    return hex_


def test_a_plot_reaches_no_other_viewer_before_it_resolves(server: Server) -> None:
    sides = {"red": "human", "blue": "human"}
    created = httpx.post(f"{server.url}/api/games", json={"scenario": "msc-duel", "sides": sides, "seed": 9}).json()
    gid = created["id"]
    tokens = {p["sides"][0]: p["token"] for p in created["players"]}
    mirror = Mirror.of("msc-duel", 9, sides)
    game = mirror.game
    # A plot that moves the ship, so that leaking its effect would show as well as leaking its text.
    plot = next(o.text for o in game.system.move_options(game.state, "red")["Hawk"] if o.end.hex != o.path[0].hex)
    red_ws, blue_ws = socket(server, gid, tokens["red"]), socket(server, gid, tokens["blue"])
    with red_ws as red, blue_ws as blue, socket(server, gid, None) as spectator:
        start = {name: scene_from(ws) for name, ws in (("red", red), ("blue", blue), ("spectator", spectator))}
        assert start["red"]["viewer"] == ["red"]
        assert start["spectator"]["viewer"] == []
        hawk_at = hex_of(start["blue"], "Hawk")

        answer = httpx.post(
            f"{server.url}/api/games/{gid}/orders",
            json={"side": "red", "text": plot, "step": mirror.step},
            headers={"Authorization": f"Bearer {tokens['red']}"},
        )
        assert answer.status_code == 200
        assert answer.json()["scene"]["pending"] == {"red": plot}
        assert scene_from(red)["pending"] == {"red": plot}

        # Red's token cannot plot, withdraw or draft for blue.
        forged = httpx.post(
            f"{server.url}/api/games/{gid}/orders",
            json={"side": "blue", "text": "Raven 0", "step": mirror.step},
            headers={"Authorization": f"Bearer {tokens['red']}"},
        )
        assert forged.status_code == 403
        assert httpx.delete(f"{server.url}/api/games/{gid}/orders/red?token={tokens['blue']}").status_code == 403

        seen_before = [scene_from(blue), scene_from(spectator)]
        seen_before += [httpx.get(f"{server.url}/api/games/{gid}?token={tokens['blue']}").json()]
        seen_before += [httpx.get(f"{server.url}/api/games/{gid}").json()]
        seen_before += [httpx.get(f"{server.url}/api/games/{gid}/replay?step=0").json()]
        for scene in seen_before:
            assert plot not in json.dumps(scene)
            assert scene["pending"] == {}
            assert hex_of(scene, "Hawk") == hawk_at
        assert [s["prompt"]["waiting_for"] for s in seen_before[:2]] == [["blue"], ["blue"]]

        mirror.give("red", plot)
        blue_plot = mirror.order_for("blue")
        answer = httpx.post(
            f"{server.url}/api/games/{gid}/orders",
            json={"side": "blue", "text": blue_plot, "step": mirror.step},
            headers={"Authorization": f"Bearer {tokens['blue']}"},
        )
        assert answer.json()["resolved"] is True
        mirror.give("blue", blue_plot)
        expected = str(next(c.position.hex for c in game.system.counters(game.state) if c.id == "Hawk"))
        after = [scene_from(blue), scene_from(spectator), scene_from(red)]
        assert [s["step"] for s in after] == [1, 1, 1]
        assert [hex_of(s, "Hawk") for s in after] == [expected] * 3
        assert expected != hawk_at


def test_a_bots_plot_stays_secret_from_the_person_it_plays(server: Server) -> None:
    sides = {"red": "human", "blue": "bot:greedy"}
    created = httpx.post(f"{server.url}/api/games", json={"scenario": "vv5-dogfight", "sides": sides, "seed": 5}).json()
    bot_plot = str(Mirror.of("vv5-dogfight", 5, sides).game.pending["blue"])
    token = created["players"][0]["token"]
    scene = httpx.get(f"{server.url}/api/games/{created['id']}?token={token}").json()
    assert scene["prompt"]["waiting_for"] == ["red"]
    assert scene["pending"] == {}
    assert bot_plot not in json.dumps(scene)
    with socket(server, created["id"], token) as ws:
        assert scene_from(ws)["pending"] == {}
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong"}
        ws.send("not json at all")
        assert json.loads(ws.recv(timeout=10))["type"] == "error"
    assert httpx.get(f"{server.url}/api/games").status_code == 200


def test_a_socket_for_an_unknown_game_is_closed(server: Server) -> None:
    with socket(server, "g_nothing", None) as ws, pytest.raises(Exception, match="4404"):
        ws.recv(timeout=10)
