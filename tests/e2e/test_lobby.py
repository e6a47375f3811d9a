"""The lobby's open games and the rematch in the browser (docs/web.md, *Open sides and rematches*).

A player takes an open side from the lobby's list, concedes, starts the rematch with the sides
swapped, and finds both games under "Your games".
"""

from __future__ import annotations

import re
import shutil
from typing import Any

import httpx
import pytest
from playwright.sync_api import Dialog, Page, expect

from tests.e2e.conftest import Server

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000


def test_join_an_open_side_from_the_lobby_concede_and_start_a_rematch(page: Page, server: Server) -> None:
    created: dict[str, Any] = httpx.post(
        f"{server.url}/api/games",
        json={"scenario": "msc-duel", "sides": {"red": "human", "blue": "open"}},
        timeout=60,
    ).json()
    game_id = created["id"]
    red_token = created["players"][0]["token"]
    # The creator's page says blue's side waits for someone to join.
    page.goto(server.url + created["players"][0]["url"])
    expect(page.locator("#status .open-sides")).to_contain_text("blue", timeout=TIMEOUT_MS)
    page.context.clear_cookies()
    page.evaluate("localStorage.clear()")
    page.goto(server.url + "/")
    listed = page.locator(f"#open-games li[data-game='{game_id}']")
    expect(listed).to_contain_text("Duel", timeout=TIMEOUT_MS)
    listed.get_by_role("button", name="Join as blue").click()

    page.wait_for_url(re.compile(rf"/games/{game_id}\?token="), timeout=TIMEOUT_MS)
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    ending = page.locator("#ending")
    ending.locator("summary").click()
    ending.get_by_role("button", name="Concede…").click()
    ending.get_by_role("button", name="Yes, concede").click()
    expect(page.locator("#result .winners")).to_have_text("red wins", timeout=TIMEOUT_MS)

    ending.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: "/games/" in url and game_id not in url, timeout=TIMEOUT_MS)
    rematch_id = page.url.split("/games/")[1].split("?")[0]
    assert rematch_id != game_id
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    expect(page.locator("body")).to_have_attribute("data-over", "false", timeout=TIMEOUT_MS)
    # The creator, who was red, is blue in the rematch; the joiner took red.
    theirs = httpx.post(
        f"{server.url}/api/games/{game_id}/rematch",
        json={"side": "red"},
        headers={"Authorization": f"Bearer {red_token}"},
        timeout=60,
    ).json()
    assert theirs["id"] == rematch_id
    assert theirs["sides"] == ["blue"]

    page.goto(server.url + "/")
    expect(page.locator(f"#my-games li[data-game='{rematch_id}']")).to_contain_text("as red", timeout=TIMEOUT_MS)
    expect(page.locator(f"#my-games li[data-game='{game_id}']")).to_contain_text("over")
    expect(page.locator(f"#open-games li[data-game='{game_id}']")).to_have_count(0)


def test_joining_a_practice_game_asks_the_joiner_to_agree_to_the_fixed_seed(page: Page, server: Server) -> None:
    created: dict[str, Any] = httpx.post(
        f"{server.url}/api/games",
        json={"scenario": "msc-duel", "sides": {"red": "human", "blue": "open"}, "seed": 11},
        timeout=60,
    ).json()
    game_id = created["id"]
    page.goto(server.url + "/")
    listed = page.locator(f"#open-games li[data-game='{game_id}']")
    expect(listed.locator(".practice-tag")).to_be_visible(timeout=TIMEOUT_MS)
    questions: list[str] = []

    def decline(dialog: Dialog) -> None:
        questions.append(dialog.message)
        dialog.dismiss()

    # Declined, nothing is sent: the side stays open.
    page.once("dialog", decline)
    listed.get_by_role("button", name="Join as blue").click()
    expect(listed.get_by_role("button", name="Join as blue")).to_be_enabled(timeout=TIMEOUT_MS)
    assert "can foresee every roll" in questions[0]
    free = httpx.get(f"{server.url}/api/games/open", timeout=60).json()
    assert next(g for g in free if g["id"] == game_id)["free"] == ["blue"]
    # Agreed, the side is taken and the game opens.
    page.once("dialog", lambda dialog: dialog.accept())
    listed.get_by_role("button", name="Join as blue").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}\?token="), timeout=TIMEOUT_MS)
    expect(page.locator(".log-practice")).to_have_count(1, timeout=TIMEOUT_MS)
