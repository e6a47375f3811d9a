"""Turns that flow in the browser: the Standing orders box skips the segments with nothing new to decide."""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server
from tests.e2e.test_avt_view import create_game, open_game, scene_of

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 15_000
DUEL = {"blue": "human", "red": "bot:greedy"}


def test_skip_to_the_end_of_the_turn_then_go_on_until_something_is_new(page: Page, server: Server) -> None:
    created = create_game(server, "avt-duel-wasp", DUEL, seed=2)
    open_game(page, server, created)
    box = page.locator("fieldset.flow")
    expect(box).to_be_visible()
    expect(page.locator("body")).to_have_attribute("data-step", "0")

    # One click answers the eight segments of turn 1; the game stops where blue must plot turn 2.
    box.locator("button.skip-turn").click()
    expect(page.locator("body")).to_have_attribute("data-step", "8", timeout=TIMEOUT_MS)
    expect(page.locator("fieldset.flow .news")).to_contain_text("turn 2 begins", timeout=TIMEOUT_MS)

    # Standing fire at any enemy, and the flow on: kept on the server for this side.
    page.locator("fieldset.flow select.standing-target").select_option("*")
    expect(page.locator("form.side-orders .check")).to_have_text("Standing orders kept.", timeout=TIMEOUT_MS)
    page.locator("fieldset.flow input.flow-decision").check()
    expect(page.locator("form.side-orders .check")).to_have_text("Standing orders kept.", timeout=TIMEOUT_MS)
    standing = scene_of(server, created)["standing"]["blue"]
    assert standing["flow"] == "decision"
    assert standing["fire_at"] == "*"

    # Skipping to the next decision goes past the quiet segments: the next stop says why it stopped.
    page.locator("fieldset.flow button.skip-decision").click()
    page.wait_for_function("() => Number(document.body.dataset.step) > 9", timeout=TIMEOUT_MS)
    scene = scene_of(server, created)
    if scene["prompt"] is not None:
        assert scene["news"]["blue"], "stopped with nothing new"
        expect(page.locator("fieldset.flow .news")).to_contain_text(scene["news"]["blue"][0], timeout=TIMEOUT_MS)
