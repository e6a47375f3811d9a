"""The replay draws each ship's trail up to the turn scrubbed to, and the shots of that turn as lines.

Two greedy bots play a VV5 Dogfight to its end as the game is created; the same game played
by the kernel here says which turn had which shots.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server
from tests.web.helpers import Mirror
from vectorwar.events import TurnBegan

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
#: A liveness bound for the whole game of computer players: their worker runs at a low CPU priority, so on a
#: loaded machine it takes what the rest leaves (docs/web.md, *People first*).
GAME_TIMEOUT_MS = 180_000
SCENARIO = "vv5-dogfight"
SEED = 3
BOTS = {"red": "bot:greedy", "blue": "bot:greedy"}
POINTS_JS = "el => el.getAttribute('points').trim().split(/\\s+/).length"


def test_scrubbing_to_a_turn_draws_the_trails_so_far_and_that_turns_shots(
    page: Page, server: Server, artefacts: Path
) -> None:
    game = Mirror.of(SCENARIO, SEED, BOTS).game
    turn, first_shot = 0, None
    for event in game.events:
        if isinstance(event, TurnBegan):
            turn = event.turn
        if event.kind == "vv5-guns" and first_shot is None:
            first_shot = (turn, getattr(event, "ship", ""), getattr(event, "target", ""))
    assert first_shot is not None
    shot_turn, shooter, target = first_shot

    created = httpx.post(
        f"{server.url}/api/games", json={"scenario": SCENARIO, "sides": BOTS, "seed": SEED}, timeout=60
    ).json()
    page.goto(server.url + created["spectate_url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)
    expect(page.locator("body")).to_have_attribute("data-over", "true", timeout=GAME_TIMEOUT_MS)
    # The live game draws no trails.
    assert page.locator("#map .trail-group").count() == 0
    page.click("#replay-toggle")
    expect(page.locator("body")).to_have_attribute("data-replay-step", "0", timeout=TIMEOUT_MS)
    # Forward turn by turn to the start of the turn after the first shot: the trails have a point
    # for every turn begun, and the lines are that shot turn's.
    ships = page.locator("#map .counter").count()
    for _ in range(shot_turn):
        before = page.locator("body").get_attribute("data-replay-step")
        page.click("#replay-next-turn")
        expect(page.locator("body")).not_to_have_attribute("data-replay-step", before or "", timeout=TIMEOUT_MS)
    expect(page.locator("#replay-label")).to_contain_text(f"turn {shot_turn}")
    groups = page.locator("#map .trail-group")
    expect(groups).to_have_count(ships)
    for group in groups.all():
        assert group.get_attribute("data-points") == str(shot_turn + 1)
        assert group.locator("polyline.trail").evaluate(POINTS_JS) == shot_turn + 1
        assert group.locator("circle.trail-point").count() == shot_turn
    line = page.locator(f"#map line.shot-line[data-shooter='{shooter}'][data-target='{target}']")
    expect(line.first).to_be_attached()
    assert line.first.get_attribute("data-turn") == str(shot_turn)
    assert page.locator(f"#map line.shot-line:not([data-turn='{shot_turn}'])").count() == 0
    page.screenshot(path=str(artefacts / "replay-tracks.png"))

    # The legend's boxes switch each off and on.
    page.uncheck("#replay-trails")
    expect(page.locator("#map .trail-group")).to_have_count(0)
    assert page.locator("#map line.shot-line").count() > 0
    page.uncheck("#replay-shots")
    expect(page.locator("#map line.shot-line")).to_have_count(0)
    page.check("#replay-trails")
    expect(page.locator("#map .trail-group")).to_have_count(ships)

    # One turn earlier, nobody had fired yet.
    page.check("#replay-shots")
    page.click("#replay-prev-turn")
    expect(page.locator("#map .trail-group").first).to_have_attribute("data-points", str(shot_turn))
    assert page.locator("#map line.shot-line").count() == 0
    # Back to the live game: no trails.
    page.click("#replay-exit")
    expect(page.locator("#map .trail-group")).to_have_count(0)
