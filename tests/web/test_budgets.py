"""Game work runs off the event loop, each kind within a time budget (docs/web.md, "The async layer").

The slow work here is real work held back: the referee's function waits on a
gate the test opens, so the tests assert the order things happen in, never
how long they take.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from vectorwar.web import referee
from vectorwar.web.service import Budgets, GameService
from vectorwar.web.service_core import BUDGET_SCALE_ENV, budget_scale
from vectorwar.web.store import Store

TINY = 0.05


def service_of(client: TestClient) -> GameService:
    app = client.app
    assert isinstance(app, FastAPI)
    service: GameService = app.state.service
    return service


@contextmanager
def held_back(monkeypatch: pytest.MonkeyPatch, name: str) -> Iterator[threading.Event]:
    """Make ``referee.<name>`` wait until the test opens the gate; yields an event set once it has started."""
    real: Callable[..., Any] = getattr(referee, name)
    started, gate = threading.Event(), threading.Event()

    def slow(*args: Any, **kwargs: Any) -> Any:
        started.set()
        gate.wait(timeout=60)  # a failed test must not leave the worker stuck for ever
        return real(*args, **kwargs)

    monkeypatch.setattr(referee, name, slow)
    try:
        yield started
    finally:
        gate.set()
        monkeypatch.setattr(referee, name, real)


def new_duel(client: TestClient) -> tuple[str, dict[str, str]]:
    created = client.post("/api/games", json={"scenario": "msc-duel", "seed": 4, "hotseat": True}).json()
    return created["id"], {"Authorization": f"Bearer {created['players'][0]['token']}"}


def refused(answer: httpx.Response, what: str) -> None:
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["type"] == "OverBudget"
    assert error["message"].startswith(what)
    assert f"budget of {TINY:g} s" in error["message"]
    assert "nothing changed" in error["message"]


def test_a_check_over_its_budget_is_refused_and_changes_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, headers = new_duel(client)
    service_of(client).budgets = Budgets(check=TINY)
    with held_back(monkeypatch, "check_order") as started:
        answer = client.post(f"/api/games/{gid}/check", json={"side": "red", "text": "Hawk 1"}, headers=headers)
        assert started.is_set()
    refused(answer, "checking the order took longer")
    scene = client.get(f"/api/games/{gid}", headers=headers).json()
    assert (scene["step"], scene["pending"]) == (0, {})
    again = client.post(f"/api/games/{gid}/check", json={"side": "red", "text": "Hawk 1"}, headers=headers)
    assert again.json() == {"ok": True, "canonical": "Hawk 1"}


def test_a_scene_over_its_budget_is_refused_and_the_game_is_unchanged(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid, headers = new_duel(client)
    given = client.post(f"/api/games/{gid}/orders", json={"side": "red", "text": "Hawk 1", "step": 0}, headers=headers)
    assert given.status_code == 200
    service_of(client).budgets = Budgets(scene=TINY)
    with held_back(monkeypatch, "scene_base"):
        # A spectator's scene is not built yet, so it must be built now: held back past the budget.
        refused(client.get(f"/api/games/{gid}"), "building the scene took longer")
    scene = client.get(f"/api/games/{gid}", headers=headers).json()
    assert (scene["step"], scene["pending"]) == (0, {"red": "Hawk 1"})
    assert client.get(f"/api/games/{gid}").json()["pending"] == {}


def test_an_order_over_its_budget_is_not_taken(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    gid, headers = new_duel(client)
    service_of(client).budgets = Budgets(order=TINY)
    body = {"side": "red", "text": "Hawk 1", "step": 0}
    with held_back(monkeypatch, "rule_on_order"):
        refused(client.post(f"/api/games/{gid}/orders", json=body, headers=headers), "red's order took longer")
    # The worker finished once the gate opened; its late result went nowhere.
    assert client.get(f"/api/games/{gid}", headers=headers).json()["pending"] == {}
    service_of(client).budgets = Budgets()
    again = client.post(f"/api/games/{gid}/orders", json=body, headers=headers).json()
    assert (again["duplicate"], again["scene"]["pending"]) == (False, {"red": "Hawk 1"})


def test_other_requests_are_answered_while_a_slow_one_is_worked_on(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    slow_game, headers = new_duel(client)
    other_game, other_headers = new_duel(client)
    with ThreadPoolExecutor(max_workers=1) as requests, held_back(monkeypatch, "check_order") as started:
        slow: Future[httpx.Response] = requests.submit(
            client.post, f"/api/games/{slow_game}/check", json={"side": "red", "text": "Hawk 1"}, headers=headers
        )
        assert started.wait(timeout=30)
        # The check is held back on a worker thread; the event loop still answers everyone,
        # the slow check's own game included.
        other = client.post(
            f"/api/games/{other_game}/orders", json={"side": "red", "text": "Hawk 2", "step": 0}, headers=other_headers
        )
        same = client.get(f"/api/games/{slow_game}", headers=headers)
        assert not slow.done()
    assert other.status_code == 200
    assert other.json()["scene"]["pending"] == {"red": "Hawk 2"}
    assert same.status_code == 200
    assert slow.result().json() == {"ok": True, "canonical": "Hawk 1"}


def test_the_budget_scale_multiplies_every_default_budget_and_refuses_what_is_no_scale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(BUDGET_SCALE_ENV, raising=False)
    assert budget_scale() == 1.0
    assert GameService(Store("sqlite://")).budgets == Budgets()
    monkeypatch.setenv(BUDGET_SCALE_ENV, "3")
    assert GameService(Store("sqlite://")).budgets == Budgets(
        check=6.0, order=15.0, scene=15.0, bots=30.0, setup=15.0, replay=30.0
    )
    for bad in ("0.5", "101", "nan", "fast"):
        monkeypatch.setenv(BUDGET_SCALE_ENV, bad)
        with pytest.raises(ValueError, match="VECTORWAR_BUDGET_SCALE"):
            budget_scale()
    monkeypatch.setenv(BUDGET_SCALE_ENV, "100")
    assert budget_scale() == 100.0
    monkeypatch.setenv(BUDGET_SCALE_ENV, "1")
    assert budget_scale() == 1.0
