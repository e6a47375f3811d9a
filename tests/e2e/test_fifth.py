"""The fifth rule system (tests/support/fifth, shipped with the tests only) plays in the browser like
the real four: the server subprocess loads it through ``VECTORWAR_EXTRA_SYSTEMS`` (tests/conftest.py),
a game is made through the API against its random bot, and a person plays turns in the page."""

from __future__ import annotations

import shutil
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
TURNS = 3


def test_a_fifth_system_game_plays_in_the_page_against_its_random_bot(page: Page, server: Server) -> None:
    listed = httpx.get(f"{server.url}/api/systems", timeout=60).json()
    assert "fifth" in {s["name"] for s in listed}
    created: dict[str, Any] = httpx.post(
        f"{server.url}/api/games",
        json={"scenario": "fifth-duel", "sides": {"red": "human", "blue": "bot:random"}, "seed": 5},
        timeout=60,
    ).json()
    url = server.url + next(p["url"] for p in created["players"] if "red" in p["sides"])
    page.goto(url)
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    expect(page.locator("#map .counter[data-id='Skiff']")).to_be_attached(timeout=TIMEOUT_MS)
    expect(page.locator("#map .counter[data-id='Dory']")).to_be_attached()
    start = page.locator("#map .counter[data-id='Skiff']").get_attribute("data-hex")

    played = 0
    for turn in range(TURNS):
        page.wait_for_selector("form.side-orders, body[data-over=true]", timeout=TIMEOUT_MS)
        if page.locator("body").get_attribute("data-over") == "true":
            break
        before = int(page.locator("body").get_attribute("data-step") or "0")
        order = page.locator("form.side-orders input.order-text")
        if not order.is_visible():
            page.locator("form.side-orders button.type-toggle").click()
        if turn == 0:
            # A wrong order is refused with the system's own words before it is sent.
            order.fill("Z")
            expect(page.locator("form.side-orders .check.bad")).to_contain_text("A-F", timeout=TIMEOUT_MS)
        # Red steps towards blue (direction B from its start on the left edge), then stays.
        order.fill("B" if turn == 0 else "stay")
        expect(page.locator("form.side-orders .check.ok")).to_be_visible(timeout=TIMEOUT_MS)
        order.press("Enter")
        page.wait_for_function(
            "s => Number(document.body.dataset.step) > s || document.body.dataset.over === 'true'",
            arg=before,
            timeout=TIMEOUT_MS,
        )
        played += 1
    assert played >= 1
    expect(page.locator("#map .counter[data-id='Skiff']")).not_to_have_attribute("data-hex", start or "")
    expect(page.locator("#log li", has_text="Skiff plots B").first).to_be_attached(timeout=TIMEOUT_MS)
