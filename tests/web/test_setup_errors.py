"""One set of set-up errors: the same mistake reads the same from the command line and the web API."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.cli.helpers import run

# (command-line arguments after `new SCENARIO FILE`, the same request to POST /api/games)
SAME_MISTAKES = {
    "unknown scenario": ("no-such-scenario", [], {"scenario": "no-such-scenario"}),
    "unknown side": (
        "msc-duel",
        ["--side", "green=greedy"],
        {"scenario": "msc-duel", "sides": {"green": "bot:greedy"}},
    ),
    "unknown computer player": (
        "msc-duel",
        ["--side", "blue=nobody"],
        {"scenario": "msc-duel", "sides": {"blue": "bot:nobody"}},
    ),
    "unknown option": (
        "msc-duel",
        ["--option", "warp_drive=true"],
        {"scenario": "msc-duel", "options": {"warp_drive": True}},
    ),
    "option value not allowed": (
        "msc-duel",
        ["--option", "map_edge=wrap"],
        {"scenario": "msc-duel", "options": {"map_edge": "wrap"}},
    ),
}


@pytest.mark.parametrize("mistake", SAME_MISTAKES)
def test_the_same_set_up_mistake_reads_the_same_from_the_cli_and_the_api(
    mistake: str, client: TestClient, tmp_path: Path
) -> None:
    scenario, args, body = SAME_MISTAKES[mistake]
    save = tmp_path / "g.json"
    code, _, err = run("new", scenario, str(save), *args)
    answer = client.post("/api/games", json=body)
    assert code == 1
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["type"] == "BadSetup"
    assert err == f"error: {error['message']}\n"
    assert not save.exists()
    assert client.get("/api/games").json() == []
