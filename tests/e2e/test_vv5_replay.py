"""A VV5 game watched and replayed in the browser: terrain drawn where the map has it, and every
replayed step showing the counters where the server's replay puts them."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import Server

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
SCENARIO = "vv5-refugees"

COUNTERS_JS = "els => Object.fromEntries(els.map(e => [e.dataset.id, e.dataset.hex]))"


def bots_only_game(server: Server, scenario_id: str = SCENARIO) -> dict[str, Any]:
    """A game of greedy bots only, once the server has played it to the end (in its worker processes)."""
    systems = httpx.get(f"{server.url}/api/systems").json()
    scenario = next(s for system in systems for s in system["scenarios"] if s["id"] == scenario_id)
    sides = dict.fromkeys(scenario["sides"], "bot:greedy")
    created: dict[str, Any] = httpx.post(
        f"{server.url}/api/games", json={"scenario": scenario_id, "sides": sides, "seed": 11}, timeout=120
    ).json()
    # Creation answers at once; the bots play on in the background (docs/web.md, "People first").
    deadline = time.monotonic() + 300
    while httpx.get(f"{server.url}/api/games/{created['id']}", timeout=30).json()["result"] is None:
        assert time.monotonic() < deadline, "the game of bots only never ended"
        time.sleep(0.2)
    return created


def shown_counters(page: Page) -> dict[str, str]:
    shown: dict[str, str] = page.eval_on_selector_all("#map .counter", COUNTERS_JS)
    return shown


def server_counters(server: Server, game: str, step: int) -> dict[str, str]:
    scene = httpx.get(f"{server.url}/api/games/{game}/replay", params={"step": step}).json()
    return {c["id"]: c["hex"] for c in scene["counters"]}


def go_to_step(page: Page, step: int) -> None:
    slider = page.locator("#replay-step")
    slider.focus()
    page.keyboard.press("Home")
    page.wait_for_selector("body[data-replay-step='0']", timeout=TIMEOUT_MS)
    for _ in range(step):
        page.keyboard.press("ArrowRight")
    page.wait_for_selector(f"body[data-replay-step='{step}']", timeout=TIMEOUT_MS)


def test_terrain_is_drawn_and_a_vv5_replay_matches_the_server_step_by_step(
    page: Page, server: Server, artefacts: Path
) -> None:
    game = bots_only_game(server)
    scene = httpx.get(f"{server.url}/api/games/{game['id']}").json()
    assert scene["result"] is not None, "a game of bots only is over once created"
    terrain = {t["hex"] for t in scene["map"]["terrain"]}
    assert terrain, f"{SCENARIO} should have terrain"

    page.goto(server.url + game["spectate_url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)
    drawn = set(page.eval_on_selector_all("#map .terrain[data-hex]", "els => els.map(e => e.dataset.hex)"))
    assert drawn == terrain
    page.screenshot(path=str(artefacts / "vv5-terrain.png"))

    final = scene["step"]
    page.click("#replay-toggle")
    page.wait_for_selector("body[data-replay-step='0']", timeout=TIMEOUT_MS)
    # The start, a few moments along the way and the end: the page shows what the server replays.
    for step in sorted({0, 1, final // 3, (2 * final) // 3, final}):
        go_to_step(page, step)
        assert shown_counters(page) == server_counters(server, game["id"], step), f"step {step}"
    assert server_counters(server, game["id"], 0) != server_counters(server, game["id"], final)
    page.screenshot(path=str(artefacts / "vv5-replay-end.png"))


def test_an_asteroid_field_laid_by_a_scenario_rule_is_drawn(page: Page, server: Server, artefacts: Path) -> None:
    """Pirates fills whole sections with an asteroid field by its special rules, not in its map table."""
    game = bots_only_game(server, "vv5-pirates")
    scene = httpx.get(f"{server.url}/api/games/{game['id']}").json()
    field = {t["hex"] for t in scene["map"]["terrain"] if t["kind"] == "asteroid-field"}
    assert len(field) == 6 * 10 * 8, "sections D, E, I, J, N and O, 10 x 8 hexes each"
    page.goto(server.url + game["spectate_url"])
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)
    drawn = page.eval_on_selector_all("#map .terrain-asteroid-field[data-hex]", "els => els.map(e => e.dataset.hex)")
    assert set(drawn) == field
    page.screenshot(path=str(artefacts / "vv5-pirates-field.png"))
