"""A table's pace in the browser (docs/web.md, *Deadlines and clocks*).

Set up in the lobby with a pace, the game is listed with it; its page shows each owed seat's
deadline with a countdown, and a player leaves an address for the reminders, which only they see.
The computer taking a late seat over is tested on a clock the test moves (tests/web/test_clocks.py).
"""

from __future__ import annotations

import re
import shutil

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000


def test_a_game_set_up_with_a_pace_shows_its_deadlines_and_takes_a_reminder_address(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
    page.select_option("#system", "msc")
    page.select_option("#scenario", "msc-duel")
    page.select_option("#seat-blue", "bot:greedy")
    page.select_option("#pace", "deadline-1d")
    expect(page.locator("#pace-details")).to_be_visible()
    page.select_option("#pace-remind", str(3600))
    page.click("#create")
    created = page.locator("#created")
    expect(created).to_contain_text("Pace: 1 day a decision", timeout=TIMEOUT_MS)
    game_id = (created.locator("h3").text_content() or "").split()[1]
    listed = page.locator(f"#games tr[data-game='{game_id}']")
    expect(listed).to_contain_text("1 day a decision", timeout=TIMEOUT_MS)

    created.locator("a.join").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}\?token="), timeout=TIMEOUT_MS)
    panel = page.locator("#table-clock")
    expect(panel).to_contain_text("Pace: 1 day a decision", timeout=TIMEOUT_MS)
    expect(panel.locator(".clock-seat[data-seat='red'] .countdown")).to_have_text(
        re.compile(r"in (23 h \d\d min|1 d 0 h)"), timeout=TIMEOUT_MS
    )

    panel.locator(".reminders summary").click()
    page.fill("#remind-email", "red@example.org")
    panel.get_by_role("button", name="Save").click()
    expect(panel.locator(".reminders-form [role=status]")).to_have_text("Saved", timeout=TIMEOUT_MS)
    # The address is the seat holder's alone: a spectator's view of the clock does not hold it.
    spectator = httpx.get(f"{server.url}/api/games/{game_id}/clock", timeout=60)
    assert spectator.status_code == 200
    assert spectator.json()["pace"]["words"] == "1 day a decision"
    assert "red@example.org" not in spectator.text
    token = page.url.split("token=")[1]
    # The lobby's Your games says when the player's move is due.
    page.goto(server.url + "/")
    expect(page.locator(f"#my-games li[data-game='{game_id}'] .due")).to_contain_text("due", timeout=TIMEOUT_MS)
    own = httpx.get(f"{server.url}/api/games/{game_id}/clock", headers={"Authorization": f"Bearer {token}"}, timeout=60)
    assert own.json()["contacts"]["red"]["email"] == "red@example.org"
