"""Text from outside the server (issue 56): bounded and free of NUL, control and invisible characters
before it reaches a database, a screen or a log. On PostgreSQL, which refuses a NUL and an over-long
value outright, each of these answered 500 once; every one must be a 422 naming the field and the limit."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.web.helpers import throwaway_postgres
from tests.web.test_api import auth, create, token_of
from vectorwar import limits
from vectorwar.catalogue import scenario_paths
from vectorwar.web.app import create_app

DUEL = scenario_paths()["msc-duel"].read_text()


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'games.db'}"
        with TestClient(create_app(url)) as client:
            yield client
        return
    with throwaway_postgres() as url, TestClient(create_app(url)) as client:
        yield client


def scenario(**replace: str) -> str:
    text = DUEL
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new, 1)
    return text


@pytest.mark.parametrize(
    ("text", "where", "says"),
    [
        (scenario(**{'title = "Duel"': 'title = "Du\\u0000el"'}), "title", "control characters"),
        (scenario(**{'title = "Duel"': 'title = "Duel\\u202Eleud"'}), "title", "direction-changing"),
        (scenario(**{'title = "Duel"': f'title = "{"x" * 55_000}"'}), "title", limits.MAX_TITLE_CHARS.name),
        (scenario(**{'title = "Duel"': f'id = "{"d" * 300}"\ntitle = "Duel"'}), "id", "MAX_SCENARIO_ID_CHARS"),
        (scenario(**{'title = "Duel"': 'id = "du\\u0000el"\ntitle = "Duel"'}), "id", "control characters"),
        (scenario(**{'id = "red"': f'id = "r{"e" * 150}"'}), "sides.0.id", limits.MAX_NAME_CHARS.name),
        (scenario(**{'name = "Red"': 'name = "R\\u0000ed"'}), "sides.0.name", "control characters"),
        (scenario(**{'id = "Hawk"': f'id = "H{"a" * 150}"'}), "sides.0.ships.0.id", "MAX_NAME_CHARS"),
    ],
    ids=["title-nul", "title-rlo", "title-long", "id-long", "id-nul", "side-long", "side-name-nul", "ship-long"],
)
def test_a_scenario_with_bad_text_is_a_422_naming_the_field_and_nothing_is_stored(
    server: TestClient, text: str, where: str, says: str
) -> None:
    before = server.get("/api/games").json()
    answer = server.post("/api/games", json={"scenario_toml": text})
    assert answer.status_code == 422, answer.text
    message = answer.json()["error"]["message"]
    assert f"{where}:" in message
    assert says in message
    assert server.get("/api/games").json() == before


def test_a_scenario_at_the_limits_is_taken(server: TestClient) -> None:
    text = scenario(**{'title = "Duel"': f'id = "{"d" * limits.MAX_SCENARIO_ID_CHARS}"\ntitle = "{"é" * 120}"'})
    answer = server.post("/api/games", json={"scenario_toml": text})
    assert answer.status_code == 201, answer.text
    games = {g["id"]: g for g in server.get("/api/games").json()}
    assert games[answer.json()["id"]]["title"] == "é" * limits.MAX_TITLE_CHARS


@pytest.mark.parametrize("text", ["Hawk\x00 1", "Hawk \u202e1", "\x1b[31mHawk"])
def test_a_draft_or_order_with_a_nul_or_control_character_is_a_422_and_changes_nothing(
    server: TestClient, text: str
) -> None:
    game = create(server, "msc-duel", {"red": "human", "blue": "human"})
    red = auth(token_of(game, "red"))
    draft = server.put(f"/api/games/{game['id']}/drafts/red", json={"text": text}, headers=red)
    assert draft.status_code == 422, draft.text
    assert "body.text" in draft.json()["error"]["message"]
    for endpoint, extra in (("orders", {"step": 0}), ("check", {})):
        answer = server.post(
            f"/api/games/{game['id']}/{endpoint}", json={"side": "red", "text": text, **extra}, headers=red
        )
        assert answer.status_code == 422, answer.text
    assert server.get(f"/api/games/{game['id']}", headers=red).json()["drafts"] == {}


def test_a_new_game_request_bounds_its_sides_and_options(server: TestClient) -> None:
    many = {f"s{i}": "human" for i in range(limits.MAX_SIDES + 1)}
    answer = server.post("/api/games", json={"scenario": "msc-duel", "sides": many})
    assert answer.status_code == 422
    assert "body.sides" in answer.json()["error"]["message"]
    answer = server.post("/api/games", json={"scenario": "msc-duel", "sides": {"r" * 300: "human"}})
    assert answer.status_code == 422
    options = {f"o{i}": True for i in range(100)}
    answer = server.post("/api/games", json={"scenario": "msc-duel", "options": options})
    assert answer.status_code == 422
    assert "body.options" in answer.json()["error"]["message"]


def test_an_option_beyond_its_bounds_is_a_422_and_the_lobby_shows_the_bounds(server: TestClient) -> None:
    answer = server.post("/api/games", json={"scenario": "msc-build", "options": {"build_points": 10**9}})
    assert answer.status_code == 422, answer.text
    assert "build_points must be from 1 to 999" in answer.json()["error"]["message"]
    msc = next(s for s in server.get("/api/systems").json() if s["name"] == "msc")
    points = next(o for o in msc["options"] if o["name"] == "build_points")
    assert (points["least"], points["most"]) == (1, 999)


def test_a_fixed_seed_marks_a_practice_game_to_every_viewer_and_a_drawn_one_does_not(server: TestClient) -> None:
    fixed = create(server, "msc-duel", {"red": "human", "blue": "human"}, seed=12)
    answer = server.post("/api/games", json={"scenario": "msc-duel", "sides": {"red": "human", "blue": "human"}})
    assert answer.status_code == 201
    drawn = answer.json()
    for game, practice in ((fixed, True), (drawn, False)):
        for token in (token_of(game, "red"), token_of(game, "blue"), None):
            scene = server.get(f"/api/games/{game['id']}", headers=auth(token) if token else {}).json()
            assert scene["practice"] is practice
        with server.websocket_connect(f"/ws/games/{game['id']}") as ws:
            assert ws.receive_json()["scene"]["practice"] is practice
        assert server.get(f"/api/games/{game['id']}/replay?step=0").json()["practice"] is practice
    listed = {g["id"]: g["practice"] for g in server.get("/api/games").json()}
    assert listed[fixed["id"]] is True
    assert listed[drawn["id"]] is False


@pytest.mark.parametrize(
    "body",
    [
        {"fire_at": "Raven\x00"},
        {"fire_at": "R" * 65},
        {"min_chance": 101},
        {"skip_through_turn": 10**9},
        {"flow": "forever"},
        {"extra": 1},
    ],
)
def test_standing_orders_with_bad_fields_are_a_422_and_change_nothing(
    server: TestClient, body: dict[str, object]
) -> None:
    game = create(server, "msc-duel", {"red": "human", "blue": "human"})
    red = auth(token_of(game, "red"))
    before = server.get(f"/api/games/{game['id']}", headers=red).json()
    answer = server.put(f"/api/games/{game['id']}/standing/red", json=body, headers=red)
    assert answer.status_code == 422, answer.text
    assert "body." in answer.json()["error"]["message"]
    assert server.get(f"/api/games/{game['id']}", headers=red).json() == before


@pytest.mark.parametrize("route", ["concede", "end-offer", "end-offer/decline"])
def test_ending_bodies_are_bounded(server: TestClient, route: str) -> None:
    game = create(server, "msc-duel", {"red": "human", "blue": "human"})
    red = auth(token_of(game, "red"))
    for side in ("r" * 300, "red\x00"):
        answer = server.post(f"/api/games/{game['id']}/{route}", json={"side": side}, headers=red)
        assert answer.status_code in (403, 422), answer.text
    assert server.get(f"/api/games/{game['id']}", headers=red).json()["result"] is None


@pytest.mark.parametrize("game_id", ["g_%00", "g_" + "a" * 300, "g_%E2%80%AEevil"])
def test_a_game_id_no_game_could_have_is_a_404_that_does_not_repeat_it(server: TestClient, game_id: str) -> None:
    for answer in (
        server.get(f"/api/games/{game_id}"),
        server.post(f"/api/games/{game_id}/chat", json={"side": "red", "text": "hi"}),
        server.get(f"/games/{game_id}"),
    ):
        assert answer.status_code == 404, answer.text
        assert "a" * 41 not in answer.text
    with server.websocket_connect(f"/ws/games/{game_id}") as ws, pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()
    assert closed.value.code == 4404
