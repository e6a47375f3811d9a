"""Importing a finished game's save file to watch it (docs/web.md, *Watching a save file*): a lab sample is
replayed, checked and stored as a finished game of computer sides; a file that does not replay exactly, an
unfinished game and anything that is no save file are refused with the reason."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vectorwar.lab.games import Job, play_seeds
from vectorwar.savefile import game_to_data
from vectorwar.setup import find_scenario, set_up
from vectorwar.web.app import create_app
from vectorwar.web.imports import MAX_IMPORT_BYTES


@pytest.fixture(scope="module")
def sample() -> dict[str, Any]:
    """A lab sample game: the first seed of an MSC duel between the greedy and the random computer players."""
    scenario = find_scenario("msc-duel")
    [row] = play_seeds(Job(0, scenario.to_data(), {"red": "greedy", "blue": "random"}, games=1), [0])
    data: dict[str, Any] = json.loads(row["sample"])
    return data


def test_a_lab_sample_comes_in_as_a_finished_game_of_computer_sides_to_replay(
    client: TestClient, sample: dict[str, Any]
) -> None:
    answer = client.post("/api/games/import", content=json.dumps(sample))
    assert answer.status_code == 201, answer.text
    body = answer.json()
    game = body["id"]
    assert body["spectate_url"] == f"/games/{game}"
    assert body["replay_url"] == f"/games/{game}?replay"

    scene = client.get(f"/api/games/{game}").json()
    assert scene["players"] == {"red": "bot:greedy", "blue": "bot:random"}
    assert scene["result"] is not None
    assert scene["step"] == len(sample["history"])
    # Whoever has the file knows every roll, as with a seed a creator fixed.
    assert scene["practice"] is True
    assert scene["free_sides"] == []

    start = client.get(f"/api/games/{game}/replay", params={"step": 0}).json()
    assert start["step"] == 0
    assert start["result"] is None
    end = client.get(f"/api/games/{game}/replay", params={"step": len(sample["history"])}).json()
    assert end["result"] == scene["result"]
    listed = {g["id"]: g for g in client.get("/api/games").json()}
    assert listed[game]["over"] is True


def test_the_imported_game_is_rebuilt_from_the_store_as_it_was(db_url: str, sample: dict[str, Any]) -> None:
    with TestClient(create_app(db_url)) as first:
        game = first.post("/api/games/import", content=json.dumps(sample)).json()["id"]
        before = first.get(f"/api/games/{game}").json()
    # A new server on the same database has the game only in its store: it replays the stored batches.
    with TestClient(create_app(db_url)) as second:
        after = second.get(f"/api/games/{game}").json()
        timeline = second.get(f"/api/games/{game}/timeline").json()["steps"]
    assert after["result"] == before["result"]
    assert after["events"] == before["events"]
    assert len(timeline) == len(sample["history"])


def test_a_side_a_person_played_becomes_a_computer_side(client: TestClient, sample: dict[str, Any]) -> None:
    edited = {**sample, "controllers": {"red": "human", "blue": "nobody-knows"}}
    game = client.post("/api/games/import", content=json.dumps(edited)).json()["id"]
    assert client.get(f"/api/games/{game}").json()["players"] == {"red": "bot:greedy", "blue": "bot:greedy"}


def test_a_file_that_does_not_replay_exactly_is_refused_and_nothing_is_stored(
    client: TestClient, sample: dict[str, Any]
) -> None:
    before = client.get("/api/games").json()
    forged = json.loads(json.dumps(sample))
    forged["events"][-1] = {**forged["events"][-1], "forged": True}
    answer = client.post("/api/games/import", content=json.dumps(forged))
    assert answer.status_code == 422
    assert answer.json()["error"]["type"] == "BadSaveFile"
    assert "does not give the recorded event log" in answer.json()["error"]["message"]

    reseeded = {**sample, "seed": sample["seed"] + 1}
    answer = client.post("/api/games/import", content=json.dumps(reseeded))
    assert answer.status_code == 422
    assert "replay" in answer.json()["error"]["message"]
    assert client.get("/api/games").json() == before


def test_only_a_finished_game_comes_in(client: TestClient) -> None:
    setup = set_up(find_scenario("msc-duel"), {"red": "human", "blue": "human"}, seed=3)
    answer = client.post("/api/games/import", content=json.dumps(game_to_data(setup.game)))
    assert answer.status_code == 422
    message = answer.json()["error"]["message"]
    assert "the game is not over" in message
    assert "vectorwar play FILE" in message


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"{not json", "not valid JSON"),
        (b"[1, 2]", "not a vectorwar save file"),
        (json.dumps({"format": "vectorwar-save", "version": 99}).encode(), "save format version 99"),
        (b"[" * 100_000, "nested too deep"),
        (json.dumps({"format": "vectorwar-save", "version": 1, "controllers": [1]}).encode(), "controllers: a table"),
    ],
)
def test_what_is_no_save_file_is_refused_in_words(client: TestClient, body: bytes, words: str) -> None:
    answer = client.post("/api/games/import", content=body)
    assert answer.status_code == 422
    assert words in answer.json()["error"]["message"]


def test_a_file_over_the_limit_is_refused_before_it_is_read(client: TestClient) -> None:
    answer = client.post("/api/games/import", content=b" " * (MAX_IMPORT_BYTES + 1))
    assert answer.status_code == 413
    assert str(MAX_IMPORT_BYTES) in answer.json()["error"]["message"]
