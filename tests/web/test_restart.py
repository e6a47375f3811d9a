"""Durability: SIGKILL the real server mid-game, start it again, and find every accepted order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from tests.web.helpers import Mirror, Server
from vectorwar.scene import build_scene


def give(server: Server, gid: str, token: str, side: str, text: str, step: int) -> dict[str, Any]:
    answer = httpx.post(
        f"{server.url}/api/games/{gid}/orders",
        json={"side": side, "text": text, "step": step},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def scene(server: Server, gid: str, token: str | None = None) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/games/{gid}", params={"token": token} if token else {}).json()
    return data


def test_a_killed_server_loses_no_accepted_order(db: str, tmp_path: Path) -> None:
    server = Server(db, tmp_path / "data")
    printed = server.start()
    assert printed.strip() == f"vectorwar is at http://127.0.0.1:{server.port}/"
    try:
        # Two people in MSC, played for a while and stopped with red's secret plot in.
        people = {"red": "human", "blue": "human"}
        duel = httpx.post(f"{server.url}/api/games", json={"scenario": "msc-duel", "sides": people, "seed": 21}).json()
        tokens = {p["sides"][0]: p["token"] for p in duel["players"]}
        msc = Mirror.of("msc-duel", 21, people)
        while len(msc.game.history) < 3 or not msc.game.prompt or not msc.game.prompt.simultaneous:
            side = msc.due()[0]
            text = msc.order_for(side)
            give(server, duel["id"], tokens[side], side, text, msc.step)
            msc.give(side, text)
        plot = msc.order_for("red")
        plot_step = msc.step
        give(server, duel["id"], tokens["red"], "red", plot, plot_step)
        msc.game.submit("red", plot)
        httpx.put(
            f"{server.url}/api/games/{duel['id']}/drafts/blue",
            json={"text": "Raven 1"},
            params={"token": tokens["blue"]},
        ).raise_for_status()

        # A VV5 dogfight against greedy: the bot's plot waits in the store too.
        bot_sides = {"red": "human", "blue": "bot:greedy"}
        fight = httpx.post(
            f"{server.url}/api/games", json={"scenario": "vv5-dogfight", "sides": bot_sides, "seed": 8}
        ).json()
        fight_token = fight["players"][0]["token"]
        vv5 = Mirror.of("vv5-dogfight", 8, bot_sides)
        for _ in range(4):
            text = vv5.order_for("red")
            give(server, fight["id"], fight_token, "red", text, vv5.step)
            vv5.give("red", text)

        server.kill()
        server.start()

        red = scene(server, duel["id"], tokens["red"])
        assert red["step"] == len(msc.game.history)
        assert red["pending"] == {"red": plot}
        assert red["prompt"]["waiting_for"] == ["blue"]
        blue = scene(server, duel["id"], tokens["blue"])
        assert blue["pending"] == {}
        assert blue["drafts"] == {"blue": "Raven 1"}
        # A retry of the plot sent before the crash is recognised as already accepted.
        assert give(server, duel["id"], tokens["red"], "red", plot, plot_step)["duplicate"] is True
        # The game goes on exactly as the kernel plays it.
        blue_plot = msc.order_for("blue")
        after = give(server, duel["id"], tokens["blue"], "blue", blue_plot, msc.step)
        msc.give("blue", blue_plot)
        assert after["resolved"] is True
        assert after["scene"]["counters"] == build_scene(msc.game, ["blue"])["counters"]
        assert after["scene"]["events"] == build_scene(msc.game, ["blue"])["events"]

        resumed = scene(server, fight["id"], fight_token)
        assert resumed["step"] == len(vv5.game.history)
        assert resumed["prompt"]["waiting_for"] == list(vv5.game.waiting_for)
        text = vv5.order_for("red")
        answer = give(server, fight["id"], fight_token, "red", text, vv5.step)
        vv5.give("red", text)
        assert answer["scene"]["step"] == len(vv5.game.history)
        assert answer["scene"]["counters"] == build_scene(vv5.game, ["red"])["counters"]
        games = {g["id"] for g in httpx.get(f"{server.url}/api/games").json()}
        assert {duel["id"], fight["id"]} <= games
    finally:
        server.stop()


def test_a_chat_line_retried_across_a_killed_server_is_stored_once(db: str, tmp_path: Path) -> None:
    server = Server(db, tmp_path / "data")
    server.start()
    try:
        people = {"red": "human", "blue": "human"}
        duel = httpx.post(f"{server.url}/api/games", json={"scenario": "msc-duel", "sides": people}).json()
        red = {"Authorization": f"Bearer {next(p['token'] for p in duel['players'] if p['sides'] == ['red'])}"}
        chat = f"{server.url}/api/games/{duel['id']}/chat"
        line = {"side": "red", "text": "still there?", "key": "0123456789abcdef"}
        first = httpx.post(chat, json=line, headers=red, timeout=30)
        assert first.status_code == 201, first.text
        # The answer was lost with the server; the client sends the same line again.
        server.kill()
        server.start()
        retry = httpx.post(chat, json=line, headers=red, timeout=30)
        assert retry.status_code == 200, retry.text
        assert retry.json() == first.json()
        lines = httpx.get(chat, headers=red, timeout=30).json()["lines"]
        assert [x["text"] for x in lines] == ["still there?"]
    finally:
        server.stop()
