"""A whole AV:T duel against the computer, played as a person would: standing orders and skips.

The person leaves standing fire at any enemy and lets the game go on by itself, and at every stop
(a new turn, damage, a target in or out of an arc) says "skip to the next decision". The duel ends
within 40 commits, and at every stop both ships are on screen.
"""

from __future__ import annotations

import shutil

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, doc_screenshot
from tests.e2e.test_follow_view import counters_off_screen, open_game, scene_of
from tests.e2e.test_layout import create_game

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 30_000
MOST_COMMITS = 40


@pytest.mark.parametrize(("person", "computer", "seed"), [("blue", "red", 2), ("red", "blue", 3)])
def test_a_whole_duel_in_at_most_forty_commits_with_both_ships_in_view(
    page: Page, server: Server, person: str, computer: str, seed: int
) -> None:
    created = create_game(server, "avt-duel-wasp", {person: "human", computer: "bot:greedy"}, seed=seed)
    open_game(page, server, created)
    box = page.locator("fieldset.flow")
    box.locator("select.standing-target").select_option("*")
    expect(page.locator("form.side-orders .check")).to_have_text("Standing orders kept.", timeout=TIMEOUT_MS)
    commits = 0
    while scene_of(server, created)["result"] is None:
        assert commits < MOST_COMMITS, f"the duel was not over after {commits} commits"
        assert counters_off_screen(page) == [], (
            f"a ship off screen at step {page.locator('body').get_attribute('data-step')}"
        )
        if commits == 4 and person == "red":
            doc_screenshot(page, "avt-duel-1366.png")  # the README's picture of the duel mid-game
        step = int(page.locator("body").get_attribute("data-step") or "0")
        page.locator("fieldset.flow button.skip-decision").click()
        commits += 1
        page.wait_for_function(
            "s => Number(document.body.dataset.step) > s || document.querySelector('#result:not([hidden])')",
            arg=step,
            timeout=TIMEOUT_MS,
        )
        expect(page.locator("fieldset.flow, #result:not([hidden])").first).to_be_visible(timeout=TIMEOUT_MS)
    result = scene_of(server, created)["result"]
    assert result["reason"], result
