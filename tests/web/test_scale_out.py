"""Two real servers on one PostgreSQL, each request sent to either at random (docs/web.md, *Several processes*).

A few games are played through both: orders (the two halves of a
simultaneous plot raced through both at once, retries sent to the other),
chat lines, and sockets on either that must hear every change whichever
server took it. Then one server is killed with SIGKILL mid-game: nothing it
acknowledged is lost, and a socket it held reconnects to the other and
carries on. Local mirrors of the games (the kernel playing the same orders)
say what every step must be, and the store is read at the end: each
acknowledged order is there once, each step resolved once.

Nothing waits on time: each wait is for a state (a socket's scene at a
step, a chat line), with a timeout only to fail rather than hang.
"""

from __future__ import annotations

import json
import random
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.web.helpers import Mirror, Server, throwaway_postgres

pytestmark = pytest.mark.slow

PEOPLE = {"red": "human", "blue": "human"}
AGAINST_BOT = {"red": "human", "blue": "bot:greedy"}
#: Seconds a wait for a state may take before the test fails (a loaded machine is slow, never this slow).
PATIENCE = 60


@dataclass
class Table:
    """One game as the test plays it: its id, the sides' tokens, the mirror, what was acknowledged."""

    id: str
    tokens: dict[str, str]
    mirror: Mirror
    chat: dict[str, str] = field(default_factory=dict)  # key -> text of each acknowledged line


@dataclass
class Socket:
    """A live socket on one server, read until its scene reaches a step."""

    ws: ClientConnection
    scene: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def read(self) -> None:
        message = json.loads(self.ws.recv(timeout=PATIENCE))
        if message["type"] == "scene":
            self.scene = message["scene"]
        elif message["type"] == "chat":
            self.lines.append(message["line"]["text"])

    def read_to_the_end(self) -> None:
        """Read until the connection closes (:class:`ConnectionClosed`)."""
        while True:
            self.read()

    def until_step(self, step: int) -> dict[str, Any]:
        while self.scene.get("step", -1) < step:
            self.read()
        assert self.scene["step"] == step
        return self.scene

    def until_line(self, text: str) -> None:
        while text not in self.lines:
            self.read()


def open_socket(sockets: ExitStack, server: Server, game_id: str, token: str | None = None) -> Socket:
    query = f"?token={token}" if token else ""
    url = f"ws://127.0.0.1:{server.port}/ws/games/{game_id}{query}"
    socket = Socket(sockets.enter_context(connect(url, open_timeout=PATIENCE)))
    socket.read()  # the scene now
    return socket


def create(server: Server, scenario: str, sides: dict[str, str], seed: int) -> Table:
    answer = httpx.post(
        f"{server.url}/api/games", json={"scenario": scenario, "sides": sides, "seed": seed}, timeout=PATIENCE
    )
    assert answer.status_code == 201, answer.text
    body = answer.json()
    tokens = {p["sides"][0]: p["token"] for p in body["players"]}
    return Table(body["id"], tokens, Mirror.of(scenario, seed, sides))


def give(server: Server, table: Table, side: str, text: str, step: int) -> dict[str, Any]:
    answer = httpx.post(
        f"{server.url}/api/games/{table.id}/orders",
        json={"side": side, "text": text, "step": step},
        headers={"Authorization": f"Bearer {table.tokens[side]}"},
        timeout=PATIENCE,
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def say(server: Server, table: Table, side: str, text: str, key: str) -> dict[str, Any]:
    answer = httpx.post(
        f"{server.url}/api/games/{table.id}/chat",
        json={"side": side, "text": text, "key": key},
        headers={"Authorization": f"Bearer {table.tokens[side]}"},
        timeout=PATIENCE,
    )
    assert answer.status_code in (200, 201), answer.text  # 201: stored now; 200: found stored
    table.chat[key] = text
    body: dict[str, Any] = answer.json()
    return body


def scene(server: Server, table: Table, side: str) -> dict[str, Any]:
    answer = httpx.get(f"{server.url}/api/games/{table.id}", params={"token": table.tokens[side]}, timeout=PATIENCE)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def play_one(rng: random.Random, servers: list[Server], table: Table, pool: ThreadPoolExecutor) -> None:
    """The next order(s) of ``table``: one side's through a server at random, or every owed side's at once."""
    mirror = table.mirror
    due = mirror.due()
    step = mirror.step
    orders = {side: mirror.order_for(side) for side in due}
    if len(orders) > 1 and rng.random() < 0.6:
        # A simultaneous plot's halves raced through the two servers at once.
        first = rng.randrange(2)
        sent = [
            pool.submit(give, servers[(first + i) % 2], table, side, text, step)
            for i, (side, text) in enumerate(orders.items())
        ]
        for answer in sent:
            assert answer.result()["duplicate"] is False
        for side, text in orders.items():
            mirror.game.submit(side, text)
        mirror.run_bots()
        return
    side = rng.choice(due)
    server = rng.choice(servers)
    assert give(server, table, side, orders[side], step)["duplicate"] is False
    mirror.give(side, orders[side])
    if rng.random() < 0.25:
        # The client's retry, sent to the other server: found taken, nothing taken twice.
        other = servers[1 - servers.index(server)]
        assert give(other, table, side, orders[side], step)["duplicate"] is True


def same_everywhere(servers: list[Server], table: Table) -> None:
    for side in table.tokens:
        seen = [scene(server, table, side) for server in servers]
        assert seen[0]["step"] == table.mirror.step
        assert all(s == seen[0] for s in seen[1:]), f"{table.id}: the servers show {side} different games"
        assert seen[0]["pending"] == {s: str(o) for s, o in table.mirror.game.pending.items() if s == side}


def check_store(url: str, tables: list[Table]) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as db:
            for table in tables:
                rows = db.execute(
                    sa.text("SELECT step, orders FROM order_batches WHERE game_id = :g ORDER BY step"), {"g": table.id}
                ).all()
                history = table.mirror.game.history
                # Every step resolved once, with exactly the orders acknowledged for it.
                assert [r.step for r in rows] == list(range(len(history)))
                assert [[tuple(o) for o in r.orders] for r in rows] == [list(b.orders) for b in history]
                pending: dict[str, str] = dict(
                    db.execute(
                        sa.text("SELECT side, text FROM pending_plots WHERE game_id = :g"), {"g": table.id}
                    ).all()
                )
                assert pending == {s: str(o) for s, o in table.mirror.game.pending.items()}
                chat = db.execute(sa.text("SELECT key, text FROM chat_lines WHERE game_id = :g"), {"g": table.id}).all()
                assert sorted(chat) == sorted(table.chat.items())  # each acknowledged line once
    finally:
        engine.dispose()


def test_two_servers_on_one_postgres_play_as_one_and_a_killed_one_loses_nothing(tmp_path: Path) -> None:
    rng = random.Random(56)
    with throwaway_postgres() as url, ThreadPoolExecutor(4) as pool, ExitStack() as sockets:
        # The computer player thinks in a worker process on one server and on a thread on the other.
        one = Server(url, tmp_path / "one", args=("--bot-workers", "1"))
        two = Server(url, tmp_path / "two", args=("--bot-workers", "0"))
        one.start()
        two.start()
        try:
            servers = [one, two]
            tables = [
                create(one, "msc-duel", PEOPLE, 20),
                create(two, "msc-duel", PEOPLE, 26),
                create(one, "vv5-dogfight", AGAINST_BOT, 8),
            ]
            duel = tables[0]
            # Sockets on both servers watching the first game: a side's and a spectator's.
            red_on_two = open_socket(sockets, two, duel.id, duel.tokens["red"])
            watching_on_one = open_socket(sockets, one, duel.id)

            for n in range(30):
                table = rng.choice(tables)
                if n % 6 == 5:
                    side = rng.choice(list(table.tokens))
                    key = f"line-{n:04d}"
                    say(rng.choice(servers), table, side, f"{side} says {n}", key)
                    if table is duel:
                        red_on_two.until_line(f"{side} says {n}")
                    continue
                if table.mirror.game.is_over:
                    continue
                play_one(rng, servers, table, pool)
                if table is duel:
                    # Whichever server took it, both sockets hear it.
                    red_on_two.until_step(duel.mirror.step)
                    watching_on_one.until_step(duel.mirror.step)
            for table in tables:
                same_everywhere(servers, table)

            # Mid-game: one server takes a half of a plot and a chat line, then is killed.
            while len(duel.mirror.due()) < 2:
                assert not duel.mirror.game.is_over, "the seed's game ended too soon for this test"
                play_one(rng, servers, duel, pool)
            step = duel.mirror.step
            text = duel.mirror.order_for("red")
            assert give(one, duel, "red", text, step)["duplicate"] is False
            duel.mirror.game.submit("red", text)
            say(one, duel, "blue", "just before the end", "line-last")
            one.kill()
            with pytest.raises(ConnectionClosed):
                watching_on_one.read_to_the_end()

            # Nothing it acknowledged is lost: the other server has the half plot and the line.
            assert scene(two, duel, "red")["pending"] == {"red": text}
            assert "just before the end" in [
                line["text"]
                for line in httpx.get(
                    f"{two.url}/api/games/{duel.id}/chat",
                    headers={"Authorization": f"Bearer {duel.tokens['blue']}"},
                    timeout=PATIENCE,
                ).json()["lines"]
            ]
            # Its socket reconnects to the other server and goes on from where the game is.
            again = open_socket(sockets, two, duel.id)
            assert again.scene["step"] == step
            blue = duel.mirror.order_for("blue")
            assert give(two, duel, "blue", blue, step)["duplicate"] is False
            duel.mirror.give("blue", blue)
            again.until_step(duel.mirror.step)
            red_on_two.until_step(duel.mirror.step)
            for _ in range(4):
                if not duel.mirror.game.is_over:
                    play_one(rng, [two, two], duel, pool)
            again.until_step(duel.mirror.step)
            for table in tables:
                same_everywhere([two], table)
            check_store(url, tables)
        finally:
            one.stop()
            two.stop()
