"""Standing orders at the online table: kept, answered by the server, refused when bad, and back after a restart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from vectorwar.web.app import create_app


def new_duel(client: TestClient, seed: int = 2) -> tuple[str, str, str]:
    """An AV:T duel: blue a person, red the greedy computer player. Returns the id, blue's token and side."""
    created = client.post(
        "/api/games",
        json={"scenario": "avt-duel-wasp", "seed": seed, "sides": {"blue": "human", "red": "bot:greedy"}},
    ).json()
    player = next(p for p in created["players"] if "blue" in p["sides"])
    return created["id"], player["token"], "blue"


def put(client: TestClient, gid: str, token: str, side: str, **body: Any) -> Any:
    return client.put(f"/api/games/{gid}/standing/{side}", json=body, headers={"Authorization": f"Bearer {token}"})


def scene(client: TestClient, gid: str, token: str) -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()
    return answer


def test_skip_to_the_end_of_the_turn_answers_every_segment_of_it(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as client:
        gid, token, side = new_duel(client)
        done = put(client, gid, token, side, skip_through_turn=1, now=True)
        assert done.status_code == 200, done.text
        now = done.json()["scene"]
        # Eight segments went by; the game stops at the first segment of turn 2, where blue must plot.
        assert now["step"] == 8
        assert now["prompt"]["clock"].startswith("turn 2, segment 1")
        assert now["my_turn"] == ["blue"]
        assert now["standing"]["blue"]["skip_through_turn"] == 1
        assert now["news"]["blue"] == ["turn 2 begins"]


def test_standing_orders_survive_a_restart_and_go_on_answering(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(url)) as client:
        gid, token, side = new_duel(client)
        assert put(client, gid, token, side, flow="decision", fire_at="*", min_chance=10).status_code == 200
        first = scene(client, gid, token)
        assert first["step"] == 0  # the first prompt of the game is a decision: nothing was answered
    with TestClient(create_app(url)) as client:
        again = scene(client, gid, token)
        assert again["standing"]["blue"] == {
            "flow": "decision",
            "skip_through_turn": 0,
            "fire_at": "*",
            "min_chance": 10,
        }
        order = client.post(
            f"/api/games/{gid}/orders",
            json={"side": "blue", "text": "Rafik thrust 2", "step": 0},
            headers={"Authorization": f"Bearer {token}"},
        ).json()
        # The server answered the quiet segments after blue's order by itself.
        assert order["scene"]["step"] > 1


def test_bad_standing_orders_are_refused_and_change_nothing(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as client:
        gid, token, side = new_duel(client)
        for body in ({"min_chance": 101}, {"flow": "always"}, {"skip_through_turn": -1}, {"fire_at": "x" * 65}):
            assert put(client, gid, token, side, **body).status_code == 422, body
        assert put(client, gid, "not-a-token", side, flow="decision").status_code == 403
        assert put(client, gid, token, "red", flow="decision").status_code == 403
        now = scene(client, gid, token)
        assert now["standing"] == {}
        assert now["step"] == 0


def test_spectators_do_not_see_a_sides_standing_orders(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as client:
        gid, token, side = new_duel(client)
        put(client, gid, token, side, flow="decision", fire_at="Wasp", min_chance=40)
        watcher = client.get(f"/api/games/{gid}").json()
        assert watcher["standing"] == {}
        assert watcher["news"] == {}
