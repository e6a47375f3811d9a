"""Nothing a client sends can crash the server or change a game it refuses.

Hypothesis writes order texts from each system's own vocabulary mixed with
junk, and bodies of any JSON shape, for a game of every registered system.
The TestClient re-raises any exception the app lets through, so a crash
fails the test rather than hiding behind a 500.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.game import Game
from vectorwar.registry import systems
from vectorwar.web.app import create_app


def _fuzzed_game(system: str) -> tuple[str, dict[str, str], list[str]]:
    """A system's first built-in scenario, all sides people, and words its orders use: its ships' names
    and the pieces of a few random orders at the first prompt."""
    name = min(s for s in scenario_paths() if builtin_scenario(s).system == system)
    scenario = builtin_scenario(name)
    rules = systems()[system]
    game = Game.new(rules, scenario, 11)
    words = {ship.id for side in scenario.sides for ship in side.ships}
    for side in game.waiting_for:
        for seed in range(4):
            text = str(rules.random_order(game.state, side, random.Random(seed)))
            words.update(w for w in re.split(r"[\s,;:=()]+", text) if w)
    return name, {side.id: "human" for side in scenario.sides}, sorted(words)


#: One scenario per registered system, all sides people, with words its orders use.
GAMES: dict[str, tuple[dict[str, str], list[str]]] = {
    name: (sides, words) for name, sides, words in map(_fuzzed_game, systems())
}
ALLOWED = {200, 400, 403, 409, 422}

pieces = st.one_of(
    st.sampled_from(sorted({w for _, words in GAMES.values() for w in words})),
    st.sampled_from(["0", "1", "2", "5", "12", "-1", "99", ">", "*", ";", ":", "=", "+", "/", " ", "hold", "@"]),
    st.text(max_size=6),
)
order_texts = st.lists(pieces, max_size=10).map(" ".join)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, dict[str, dict[str, Any]]]]:
    db = tmp_path_factory.mktemp("fuzz") / "games.db"
    with TestClient(create_app(f"sqlite:///{db}")) as client:
        games = {}
        for scenario, (sides, _) in GAMES.items():
            answer = client.post("/api/games", json={"scenario": scenario, "sides": sides, "seed": 11})
            assert answer.status_code == 201, answer.text
            games[scenario] = answer.json()
        yield client, games


def _view(client: TestClient, game: dict[str, Any]) -> list[Any]:
    scenes = [client.get(f"/api/games/{game['id']}?token={p['token']}").json() for p in game["players"]]
    return [(s["step"], s["pending"], s["counters"], s["prompt"], s["cards"]) for s in scenes]


FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@FUZZ
@pytest.mark.parametrize("scenario", sorted(GAMES))
@given(data=st.data(), text=order_texts)
def test_any_order_text_is_answered_and_a_refused_one_changes_nothing(
    world: tuple[TestClient, dict[str, dict[str, Any]]], scenario: str, data: st.DataObject, text: str
) -> None:
    client, games = world
    game = games[scenario]
    before = _view(client, game)
    player = data.draw(st.sampled_from(game["players"]))
    side = data.draw(st.sampled_from([*player["sides"], *GAMES[scenario][0]]))
    scene = client.get(f"/api/games/{game['id']}?token={player['token']}").json()
    step = data.draw(st.sampled_from([scene["step"], scene["step"], max(scene["step"] - 1, 0), scene["step"] + 1]))
    answer = client.post(
        f"/api/games/{game['id']}/orders",
        json={"side": side, "text": text, "step": step},
        headers={"Authorization": f"Bearer {player['token']}"},
    )
    assert answer.status_code in ALLOWED, answer.text
    if answer.status_code == 400:
        error = answer.json()["error"]
        assert error["type"] in {"OrderSyntaxError", "IllegalOrderError", "NotYourTurnError"}
        assert error["message"]
    if answer.status_code != 200:
        assert _view(client, game) == before


@FUZZ
@pytest.mark.parametrize("scenario", sorted(GAMES))
@given(endpoint=st.sampled_from(["orders", "check", "drafts/{side}", "games"]), body=json_values)
def test_any_json_body_is_answered_without_a_crash(
    world: tuple[TestClient, dict[str, dict[str, Any]]], scenario: str, endpoint: str, body: Any
) -> None:
    client, games = world
    game = games[scenario]
    player = game["players"][0]
    headers = {"Authorization": f"Bearer {player['token']}"}
    before = _view(client, game)
    if endpoint == "games":
        answer = client.post("/api/games", json=body)
        assert answer.status_code in {201, 422}, answer.text
    elif endpoint == "drafts/{side}":
        answer = client.put(f"/api/games/{game['id']}/drafts/{player['sides'][0]}", json=body, headers=headers)
        assert answer.status_code in {204, 422}, answer.text
    else:
        answer = client.post(f"/api/games/{game['id']}/{endpoint}", json=body, headers=headers)
        assert answer.status_code in ALLOWED, answer.text
    if answer.status_code >= 400:
        assert _view(client, game) == before


def test_the_fuzzed_games_exist_for_every_registered_system() -> None:
    assert "fifth" in systems()
    assert {builtin_scenario(s).system for s in GAMES} == set(systems())
