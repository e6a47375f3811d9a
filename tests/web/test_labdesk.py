"""The scenario editor's "Send it to the lab" (docs/lab.md, *The workshop end to end*): a bounded run of the
scenario between computer players on the server, figured by the lab's own code, one run at a time, within
its budget."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import run_async
from vectorwar.lab.games import Job, play_seeds
from vectorwar.lab.metrics import cell_metrics
from vectorwar.setup import scenario_from_text
from vectorwar.web.labdesk import LabBusy, LabDesk, prepare
from vectorwar.web.workshop import toml_document

SCENARIO: dict[str, Any] = {
    "system": "msc",
    "title": "Lab trial",
    "max_turns": 12,
    "map": {"width": 16, "height": 10},
    "sides": [
        {"id": "red", "ships": [{"id": "Hawk", "design": "ship1", "at": "3,5", "facing": "B", "speed": 2}]},
        {"id": "blue", "ships": [{"id": "Raven", "design": "ship2", "at": "12,5", "facing": "E", "speed": 2}]},
    ],
}


def test_a_scenario_sent_to_the_lab_answers_the_lab_runs_figures_and_its_command(client: TestClient) -> None:
    answer = client.post("/api/workshop/lab", json={"scenario": SCENARIO, "games": 20})
    assert answer.status_code == 200, answer.text
    run = answer.json()
    assert run["complete"] is True
    assert run["bots"] == {"red": "greedy", "blue": "greedy"}
    assert run["command"] == (
        "vectorwar lab run scenario.toml -n 1000 --side red=greedy --side blue=greedy --out scenario.parquet"
        " && vectorwar lab report scenario.parquet"
    )
    figures = run["figures"]
    assert figures["games"] == 20
    assert figures["seeds"] == "0-19"

    # The same games and figures as the lab's own run of the same file on the same seeds.
    scenario = scenario_from_text(run["toml"])
    rows = play_seeds(Job(0, scenario.to_data(), run["bots"], games=20, details=False), range(20))
    columns = {c: [r[c] for r in rows] for c in rows[0]}
    lab = {cell["side"]: cell for cell in cell_metrics(columns)}
    for side in figures["sides"]:
        mine = lab[side["side"]]
        assert (side["wins"], side["draws"], side["losses"]) == (mine["wins"], mine["draws"], mine["losses"])
        assert side["wins"] + side["draws"] + side["losses"] == 20
        assert side["win_lo"] <= side["win"] <= side["win_hi"]
    assert figures["completion"] == lab["red"]["completion"]
    assert figures["turns_mean"] == lab["red"]["turns_mean"]

    # The first game comes whole: it opens in the replay like a lab report's sample.
    imported = client.post("/api/games/import", content=json.dumps(run["sample"]))
    assert imported.status_code == 201, imported.text
    assert run["sample"]["seed"] == 0


def test_a_scenario_set_up_refuses_is_not_played(client: TestClient) -> None:
    broken = json.loads(json.dumps(SCENARIO))
    broken["sides"][1]["ships"][0]["at"] = "40,5"
    answer = client.post("/api/workshop/lab", json={"scenario": broken})
    assert answer.status_code == 422
    assert answer.json()["error"]["type"] == "BadSetup"
    assert "sides.1.ships.0.at: hex 40,5 is not on the map" in answer.json()["error"]["message"]


@pytest.mark.parametrize("games", [0, 201])
def test_a_run_is_small(client: TestClient, games: int) -> None:
    answer = client.post("/api/workshop/lab", json={"scenario": SCENARIO, "games": games})
    assert answer.status_code == 422


def test_one_run_at_a_time_and_a_run_stops_at_its_budget() -> None:
    prepared = prepare(toml_document(SCENARIO))

    async def two_at_once() -> dict[str, Any]:
        desk = LabDesk()
        try:
            first = asyncio.create_task(desk.run(prepared, 10))
            await asyncio.sleep(0)
            with pytest.raises(LabBusy, match="playing another scenario's games"):
                await desk.run(prepared, 10)
            return await first
        finally:
            desk.close()

    answers: dict[str, dict[str, Any]] = {}

    async def first_run() -> None:
        answers["run"] = await two_at_once()

    run_async(first_run)
    run = answers["run"]
    assert run["complete"] is True
    assert run["figures"]["games"] == 10

    async def out_of_time() -> dict[str, Any]:
        desk = LabDesk(budget=0.001)
        try:
            return await desk.run(prepared, 200)
        finally:
            desk.close()

    async def second_run() -> None:
        answers["stopped"] = await out_of_time()

    run_async(second_run)
    stopped = answers["stopped"]
    assert stopped["complete"] is False
    assert stopped["figures"] is None or stopped["figures"]["games"] < 200


def test_a_run_while_another_plays_is_told_when_to_ask_again(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def busy(*_args: object) -> dict[str, Any]:
        raise LabBusy(30.0)

    monkeypatch.setattr(client.app.state.lab, "run", busy)  # type: ignore[attr-defined]
    answer = client.post("/api/workshop/lab", json={"scenario": SCENARIO})
    assert answer.status_code == 429
    assert answer.headers["Retry-After"] == "30"
    assert answer.json()["error"]["type"] == "LabBusy"
