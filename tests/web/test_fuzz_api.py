"""Schemathesis over the app's own OpenAPI: no request answers 5xx, hangs, or breaks the documented schema.

Every operation is fuzzed in-process (ASGI, no port) with schema-valid and
schema-invalid cases. Random ids would only ever meet 404, so about half the
cases are pointed at real games (one per system) with a real token, side,
step and order words, and half the new-game bodies name a real scenario, so
the routes that create games and take orders do real work.

Each case has a time budget: a request that takes longer fails the test as a
hang. The budget is generous (the server's own per-request budgets are far
smaller) so a loaded machine does not make it flaky.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.result import Ok
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from vectorwar.game import Game
from vectorwar.play import make_bots
from vectorwar.web import referee
from vectorwar.web.app import WS_MESSAGE_MAX, create_app
from vectorwar.web.store import Store

from .test_fuzz import GAMES

#: Seconds one request may take before the case counts as a hang.
CASE_BUDGET_S = 10.0
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def _operations() -> list[tuple[str, str]]:
    # The schema as the app publishes it; any app instance will do to list the operations.
    schema = schemathesis.openapi.from_dict(create_app("sqlite://").openapi())
    operations = []
    for op in schema.get_all_operations():
        assert isinstance(op, Ok)
        operations.append((op.ok().method.upper(), op.ok().path))
    return operations


OPERATIONS = _operations()


class World:
    """The app under test, its schema, and one real game per system with its players."""

    def __init__(self, app: FastAPI, client: TestClient) -> None:
        # From the app's document, not from_asgi(): loading over ASGI runs the app's lifespan, and its
        # shutdown would close the service's workers before the first case.
        self.schema = schemathesis.openapi.from_dict(app.openapi())
        self.client = client
        self.store: Store = app.state.store
        self.games: dict[str, dict[str, Any]] = {}
        for scenario, (sides, _) in GAMES.items():
            answer = client.post("/api/games", json={"scenario": scenario, "sides": sides, "seed": 5})
            assert answer.status_code == 201, answer.text
            self.games[scenario] = answer.json()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    db = tmp_path_factory.mktemp("fuzz-api") / "games.db"
    # No per-address limits: the fuzzing is a flood of refused requests from one address on purpose,
    # and their 429 would hide the routes' own answers (tests/web/test_rate_limits.py tests the limits).
    app = create_app(f"sqlite:///{db}", rate_limits=None)
    with TestClient(app) as client:
        yield World(app, client)


words = st.sampled_from(sorted({w for _, vocabulary in GAMES.values() for w in vocabulary} | {"1", "2", "99", "-1"}))
order_texts = st.lists(words, min_size=1, max_size=6).map(" ".join)


def _realistic(world: World, case: Any, data: st.DataObject) -> None:
    """Points ``case`` at a real game: its id, a player's token, a side, the current step, an order."""
    scenario = data.draw(st.sampled_from(sorted(world.games)), label="game")
    game = world.games[scenario]
    player = data.draw(st.sampled_from(game["players"]), label="player")
    sides = sorted(GAMES[scenario][0])
    case.path_parameters = {**(case.path_parameters or {}), "game_id": game["id"]}
    if "side" in case.path_parameters:
        case.path_parameters["side"] = data.draw(st.sampled_from(sides), label="side")
    case.headers = {**(case.headers or {}), "Authorization": f"Bearer {player['token']}"}
    if case.operation.body and data.draw(st.booleans(), label="whole body"):
        # A body the schema accepts, with an order a player could really give now, so the
        # parser, the rules and the resolution all run, not just the request's validation.
        stored = world.store.load(game["id"])
        assert stored is not None
        live = referee.rebuild(stored).game
        due = [side for side in live.waiting_for if side in player["sides"]]
        legal = [_legal_order(live, side) for side in due]
        side = data.draw(st.sampled_from(due or sides), label="body side")
        text = data.draw(st.sampled_from(legal) | order_texts if legal else order_texts, label="text")
        step = len(live.history)
        case.body = {"side": side, "text": text}
        if "step" in case.operation.body.items[0].definition["schema"]["properties"]:
            case.body["step"] = data.draw(st.sampled_from([step, step, step + 1]), label="step")
        if "{side}" in case.path:
            case.path_parameters["side"] = side
            del case.body["side"]


def _legal_order(game: Game, side: str) -> str:
    return str(
        make_bots(game.system, {side: "random"})[side].choose(game.state, side, random.Random(len(game.history)))
    )


def _realistic_new_game(case: Any, data: st.DataObject) -> None:
    scenario = data.draw(st.sampled_from(sorted(GAMES)), label="scenario")
    sides = dict(GAMES[scenario][0])
    if data.draw(st.booleans(), label="one bot"):
        sides[sorted(sides)[-1]] = "bot:random"
    case.body = {"scenario": scenario, "sides": sides, "seed": data.draw(st.integers(0, 2**64), label="seed")}


def _for_httpx(request: dict[str, Any]) -> dict[str, Any]:
    """Schemathesis's request (``requests`` style keywords) for the TestClient (``httpx`` style)."""
    out = {k: request[k] for k in ("method", "url", "headers", "params", "cookies") if request.get(k) is not None}
    if "json" in request:
        out["json"] = request["json"]
    elif request.get("data") is not None:
        out["content"] = request["data"]
    return out


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_every_operation_answers_within_its_schema_and_budget(world: World, method: str, path: str) -> None:
    operation = world.schema[path][method]
    cases = st.one_of(operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE))

    @settings(max_examples=40, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        case = data.draw(cases, label="case")
        if data.draw(st.booleans(), label="realistic"):
            if "{game_id}" in path:
                _realistic(world, case, data)
            elif (method, path) == ("POST", "/api/games"):
                _realistic_new_game(case, data)
        # Sent through the fixture's client, not case.call(): that runs the app's lifespan around
        # every request, and its shutdown closes the service's workers under the next one.
        request = case.as_transport_kwargs(base_url="http://testserver")
        start = time.perf_counter()
        response = world.client.request(**_for_httpx(request))
        took = time.perf_counter() - start
        assert took <= CASE_BUDGET_S, f"{method} {path} took {took:.2f} s (budget {CASE_BUDGET_S} s)"
        assert response.status_code < 500, response.text
        case.validate_response(response, checks=CHECKS)

    fuzz()


def test_the_fuzzed_games_are_real(world: World) -> None:
    # The realistic half only means something if its ids name games the server has.
    for game in world.games.values():
        player = game["players"][0]
        assert world.client.get(f"/api/games/{game['id']}", params={"token": player["token"]}).status_code == 200


@pytest.mark.parametrize("depth", [100, 10_000, 60_000])
def test_a_deeply_nested_body_is_refused_with_a_4xx(client: TestClient, depth: int) -> None:
    created = client.post("/api/games", json={"scenario": "msc-duel", "sides": {"red": "human", "blue": "human"}})
    game = created.json()
    token = game["players"][0]["token"]
    nested = "[" * depth + "]" * depth
    for url, body in [
        ("/api/games", nested),
        (f"/api/games/{game['id']}/orders", '{"side": "red", "text": ' + nested + ', "step": 0}'),
        (f"/api/games/{game['id']}/check", '{"side": "red", "text": "Hawk 1", "extra": ' + nested + "}"),
    ]:
        answer = client.post(
            url, content=body, headers={"Content-Type": "application/json", "Authorization": f"Bearer {token}"}
        )
        assert 400 <= answer.status_code < 500, (url, depth, answer.status_code, answer.text[:200])
        assert "error" in json.loads(answer.text)


def test_a_deeply_nested_socket_message_gets_an_error_and_the_socket_lives(client: TestClient) -> None:
    created = client.post("/api/games", json={"scenario": "msc-duel", "sides": {"red": "human", "blue": "human"}})
    with client.websocket_connect(f"/ws/games/{created.json()['id']}") as socket:
        assert socket.receive_json()["type"] == "scene"
        # As deep as a message within the size limit can be (a longer one closes the socket: test_sockets.py).
        socket.send_text("[" * (WS_MESSAGE_MAX // 2) + "]" * (WS_MESSAGE_MAX // 2))
        assert socket.receive_json()["type"] == "error"
        socket.send_text('{"type": "ping"}')
        assert socket.receive_json() == {"type": "pong"}


def test_the_fuzzed_operations_cover_the_api(world: World) -> None:
    # A route added later is fuzzed without anyone editing this file; this guards the listing itself.
    assert ("POST", "/api/games/{game_id}/orders") in OPERATIONS
    assert ("POST", "/api/games") in OPERATIONS
    assert len(OPERATIONS) >= 10
