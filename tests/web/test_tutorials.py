"""The tutorials over HTTP: listed for the lobby, started as a game, and each order judged by the
kernel's checker (expected, unexpected with the step's words, illegal with the rules' words)."""

from __future__ import annotations

from fastapi.testclient import TestClient

from vectorwar.tutorial import builtin_tutorial, builtin_tutorials


def start(client: TestClient, tutorial_id: str) -> tuple[str, str, str]:
    res = client.post(f"/api/tutorials/{tutorial_id}/start")
    assert res.status_code == 201, res.text
    body = res.json()
    (player,) = body["players"]
    assert player["url"].endswith(f"&tutorial={tutorial_id}")
    return body["id"], player["token"], player["sides"][0]


def test_the_lobby_lists_every_tutorial_and_a_tutorials_steps_name_their_controls(client: TestClient) -> None:
    listed = client.get("/api/tutorials").json()
    assert [t["id"] for t in listed] == [t.id for t in builtin_tutorials()]
    steps = client.get("/api/tutorials/avt-sample-1").json()
    assert steps["side"] == "blue"
    assert steps["steps"][0]["highlight"] == builtin_tutorial("avt-sample-1").steps[0].highlight
    # The expected orders stay on the server: the page learns them only by asking.
    assert "order" not in steps["steps"][0]
    assert client.get("/api/tutorials/no-such").status_code == 404
    assert client.post("/api/tutorials/no-such/start").status_code == 404


def test_a_tutorial_game_judges_orders_and_follows_progress(client: TestClient) -> None:
    game, token, side = start(client, "avt-sample-1")
    auth = {"Authorization": f"Bearer {token}"}
    url = f"/api/games/{game}/tutorial/avt-sample-1"
    assert client.get(url).json() == {"index": 0, "total": 8, "finished": False}
    wrong = client.post(f"{url}/check", json={"side": side, "text": "Rafik thrust 3"}, headers=auth).json()
    assert (wrong["kind"], wrong["ok"]) == ("unexpected", False)
    assert wrong["message"] == builtin_tutorial("avt-sample-1").steps[0].wrong
    illegal = client.post(f"{url}/check", json={"side": side, "text": "Rafik thrust 9"}, headers=auth).json()
    refused = client.post(f"/api/games/{game}/check", json={"side": side, "text": "Rafik thrust 9"}, headers=auth)
    assert (illegal["kind"], illegal["message"]) == ("illegal", refused.json()["error"]["message"])
    right = client.post(f"{url}/check", json={"side": side, "text": "hold"}, headers=auth).json()
    assert (right["kind"], right["ok"], right["message"]) == (
        "expected",
        True,
        builtin_tutorial("avt-sample-1").steps[0].after,
    )
    # Nothing was given by checking; giving it moves the tutorial on.
    assert client.get(url).json()["index"] == 0
    res = client.post(f"/api/games/{game}/orders", json={"side": side, "text": "hold", "step": 0}, headers=auth)
    assert res.status_code == 200, res.text
    assert client.get(url).json()["index"] == 1


def test_only_the_learners_token_may_check_and_only_in_the_tutorials_game(client: TestClient) -> None:
    game, _token, side = start(client, "avt-sample-1")
    res = client.post(f"/api/games/{game}/tutorial/avt-sample-1/check", json={"side": side, "text": "hold"})
    assert res.status_code == 403
    res = client.get(f"/api/games/{game}/tutorial/msc-first-game")
    assert res.status_code == 422
    assert "not the tutorial msc-first-game's msc-duel" in res.json()["error"]["message"]
