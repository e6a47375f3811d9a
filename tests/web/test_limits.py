"""The attacks of issue 15 through the HTTP API: each is a 4xx naming the field and the limit, and the game is
unchanged (the library side and the properties are in tests/kernel/test_limits.py)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.test_api import auth, create, token_of
from vectorwar import limits
from vectorwar.catalogue import scenario_paths


def scene_of(client: TestClient, game: dict[str, Any], side: str) -> Any:
    return client.get(f"/api/games/{game['id']}", headers=auth(token_of(game, side))).json()


@pytest.mark.parametrize(
    ("scenario", "sides", "text", "limit"),
    [
        ("msc-duel", {"red": "human", "blue": "human"}, "Hawk 99999999", limits.MAX_MOVE_STEPS),
        (
            "vms-capital-duel-msc",
            {"red": "human", "blue": "human"},
            "Tern aft1:A=4 port1:rot=3 R99999999",
            limits.MAX_ROTATION,
        ),
    ],
)
@pytest.mark.parametrize("endpoint", ["orders", "check"])
def test_an_order_with_a_huge_number_is_a_400_naming_the_limit_and_changes_nothing(
    client: TestClient, scenario: str, sides: dict[str, str], text: str, limit: int, endpoint: str
) -> None:
    game = create(client, scenario, sides)
    before = scene_of(client, game, "red")
    answer = client.post(
        f"/api/games/{game['id']}/{endpoint}",
        json={"side": "red", "text": text, **({"step": 0} if endpoint == "orders" else {})},
        headers=auth(token_of(game, "red")),
    )
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error["type"] == "OrderLimitError"
    assert f"above the limit of {limit}" in error["message"]
    assert limits.cite(limit) in error["message"]
    assert scene_of(client, game, "red") == before


def test_a_scenario_with_a_huge_velocity_is_refused_and_no_game_is_stored(client: TestClient) -> None:
    text = scenario_paths()["vms-capital-duel-msc"].read_text()
    attack = text.replace('velocity = "A=1"', 'velocity = "B=99999999999"')
    assert attack != text
    answer = client.post("/api/games", json={"scenario_toml": attack})
    assert answer.status_code == 422, answer.text
    message = answer.json()["error"]["message"]
    assert "sides.0.ships.0.velocity" in message
    assert "is above the limit of" in message
    too_fast = client.post("/api/games", json={"scenario_toml": text.replace('"A=1"', '"B=61"')})
    assert too_fast.status_code == 422
    assert f"limit of {limits.MAX_VELOCITY}" in too_fast.json()["error"]["message"]
    assert client.get("/api/games").json() == []


def test_an_order_longer_than_the_limit_is_refused(client: TestClient) -> None:
    game = create(client, "msc-duel", {"red": "human", "blue": "human"})
    answer = client.post(
        f"/api/games/{game['id']}/check",
        json={"side": "red", "text": "Hawk 1;" * 1000},
        headers=auth(token_of(game, "red")),
    )
    assert 400 <= answer.status_code < 500
    assert str(limits.MAX_ORDER_CHARS) in answer.text
