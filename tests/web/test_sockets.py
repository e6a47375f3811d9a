"""The WebSocket's limits (issue 56): a message over the limit closes the socket unparsed, and sockets
over the cap per game or per client address are refused before their handshake with a 429."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect
from websockets.asyncio.client import connect as async_connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from tests.web.helpers import Server, run_async, running
from tests.web.test_api import create
from vectorwar.web.app import MESSAGE_TOO_BIG, SOCKET_RETRY_AFTER_S, WS_MESSAGE_MAX
from vectorwar.web.hub import SOCKETS_PER_CLIENT, Hub, Viewer

SIDES = {"red": "human", "blue": "human"}


def url(game: dict[str, Any]) -> str:
    return f"/ws/games/{game['id']}"


def refused_with(client: TestClient, path: str) -> tuple[int, str, str]:
    """The status, Retry-After and error type of a socket refused at its handshake."""
    with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(path):
        pass
    answer = refused.value
    return answer.status_code, answer.headers["Retry-After"], answer.json()["error"]["type"]


TOO_MANY = (429, str(SOCKET_RETRY_AFTER_S), "TooManySockets")


def test_a_message_over_the_limit_closes_the_socket_and_a_ping_at_the_limit_is_answered(client: TestClient) -> None:
    game = create(client, "msc-duel", SIDES)
    with client.websocket_connect(url(game)) as ws:
        assert json.loads(ws.receive_text())["type"] == "scene"
        ping = json.dumps({"type": "ping"})
        ws.send_text(ping + " " * (WS_MESSAGE_MAX - len(ping)))
        assert json.loads(ws.receive_text()) == {"type": "pong"}
        ws.send_text("[" * (WS_MESSAGE_MAX + 1))
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == MESSAGE_TOO_BIG
    with client.websocket_connect(url(game)) as ws:
        assert json.loads(ws.receive_text())["type"] == "scene"
        ws.send_bytes(b"x" * (WS_MESSAGE_MAX + 1))
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_text()
    assert closed.value.code == MESSAGE_TOO_BIG


def test_sockets_over_the_cap_of_a_game_are_refused_with_a_429(client: TestClient) -> None:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.per_game = 2
    game = create(client, "msc-duel", SIDES)
    other = create(client, "msc-duel", SIDES)
    with client.websocket_connect(url(game)) as first, client.websocket_connect(url(game)) as second:
        for ws in (first, second):
            assert json.loads(ws.receive_text())["type"] == "scene"
        assert hub.watching(game["id"]) == 2
        assert refused_with(client, url(game)) == TOO_MANY
        with client.websocket_connect(url(other)) as elsewhere:  # another game has its own cap
            assert json.loads(elsewhere.receive_text())["type"] == "scene"
    assert hub.watching(game["id"]) == 0
    with client.websocket_connect(url(game)) as again:  # closed sockets free their places
        assert json.loads(again.receive_text())["type"] == "scene"


def test_sockets_over_the_cap_of_one_address_are_refused_with_a_429(client: TestClient) -> None:
    hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
    hub.per_client = 2
    games = [create(client, "msc-duel", SIDES) for _ in range(3)]
    with client.websocket_connect(url(games[0])) as first, client.websocket_connect(url(games[1])) as second:
        for ws in (first, second):
            assert json.loads(ws.receive_text())["type"] == "scene"
        assert refused_with(client, url(games[2])) == TOO_MANY
    with client.websocket_connect(url(games[2])) as third:
        assert json.loads(third.receive_text())["type"] == "scene"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("sockets")
    with running(f"sqlite:///{root / 'games.db'}", root / "data") as srv:
        yield srv


def test_a_real_server_refuses_a_huge_message_as_it_arrives_and_goes_on_serving(server: Server) -> None:
    created = httpx.post(f"{server.url}/api/games", json={"scenario": "msc-duel", "sides": SIDES}, timeout=30)
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    with connect(f"ws://127.0.0.1:{server.port}/ws/games/{game_id}", open_timeout=10, max_size=None) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "scene"
        with contextlib.suppress(ConnectionClosed):  # the server may close while it arrives
            ws.send("x" * 1_000_000)
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == MESSAGE_TOO_BIG
    assert httpx.get(f"{server.url}/api/games/{game_id}", timeout=30).status_code == 200


def test_a_real_server_refuses_a_socket_over_the_address_cap_before_its_handshake(server: Server) -> None:
    created = httpx.post(f"{server.url}/api/games", json={"scenario": "msc-duel", "sides": SIDES}, timeout=30)
    assert created.status_code == 201, created.text
    path = f"ws://127.0.0.1:{server.port}/ws/games/{created.json()['id']}"
    with contextlib.ExitStack() as open_sockets:
        for _ in range(SOCKETS_PER_CLIENT):
            ws = open_sockets.enter_context(connect(path, open_timeout=30, max_size=None))
            assert json.loads(ws.recv(timeout=30))["type"] == "scene"
        with pytest.raises(InvalidStatus) as refused:
            connect(path, open_timeout=30)
    answer = refused.value.response
    assert answer.status_code == 429
    assert answer.headers["Retry-After"] == str(SOCKET_RETRY_AFTER_S)
    assert json.loads(answer.body or b"{}")["error"]["type"] == "TooManySockets"
    with connect(path, open_timeout=30, max_size=None) as ws:  # the others closed: there is room again
        assert json.loads(ws.recv(timeout=30))["type"] == "scene"


def test_a_place_counts_from_admission_so_sockets_opened_at_once_cannot_overfill_a_game() -> None:
    async def no_scenes(live: Any, sides: list[tuple[str, ...]]) -> list[str]:
        return []

    hub = Hub(no_scenes, per_game=2, per_client=3)
    assert hub.admit("g", "a") == ""
    assert hub.admit("g", "b") == ""
    # Neither has joined yet, and the game is full all the same.
    assert "2 live sockets" in hub.admit("g", "c")
    hub.release("g", "b")  # b never joined: its place is free again
    assert hub.admit("g", "c") == ""
    viewer = Viewer(websocket=cast(Any, None), sides=(), client="a")
    hub.join("g", viewer, admitted=True)  # in the place held for it: counted once
    assert hub.watching("g") == 1
    assert "2 live sockets" in hub.admit("g", "d")
    hub.leave("g", viewer)
    hub.release("g", "c")
    assert hub.watching("g") == 0
    hub.per_game = 10
    for _ in range(3):
        assert hub.admit("h", "a") == ""
    assert "3 live sockets" in hub.admit("other", "a")  # an address's places count over every game


def test_a_real_server_refuses_sockets_opened_at_once_past_the_cap_before_any_handshake(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'games.db'}", tmp_path / "data")
    server.start()
    try:
        opened, refused = open_at_once(server, SOCKETS_PER_CLIENT + 8)
    finally:
        process = server.process
        assert process is not None
        process.terminate()
        printed = process.communicate(timeout=30)[0]
    assert (opened, refused) == (SOCKETS_PER_CLIENT, [429] * 8)
    # uvicorn logs an error after each refusal it sent (serve.QuietDenials drops it).
    assert "without completing handshake" not in printed


def open_at_once(server: Server, sockets: int) -> tuple[int, list[int]]:
    """Sockets opened at once on one new game: how many opened, and the statuses of those refused."""
    created = httpx.post(f"{server.url}/api/games", json={"scenario": "msc-duel", "sides": SIDES}, timeout=30)
    assert created.status_code == 201, created.text
    path = f"ws://127.0.0.1:{server.port}/ws/games/{created.json()['id']}"

    async def burst() -> tuple[int, list[int]]:
        async with contextlib.AsyncExitStack() as stack:

            async def one() -> int:
                try:
                    ws = await stack.enter_async_context(async_connect(path, open_timeout=60, max_size=None))
                except InvalidStatus as refused:
                    return refused.response.status_code
                await asyncio.wait_for(ws.recv(), 60)
                return 101

            answers = await asyncio.gather(*(one() for _ in range(sockets)))
            return answers.count(101), sorted(a for a in answers if a != 101)

    outcome: list[tuple[int, list[int]]] = []

    async def main() -> None:
        outcome.append(await burst())

    run_async(main)
    return outcome[0]
