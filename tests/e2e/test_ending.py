"""Ending a game in the browser: conceding and offering a draw, each confirmed first (docs/web.md, *Ending a game*).

Every side's page and a spectator's see the end and the right result over their sockets.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import Server

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000


def new_game(server: Server, hotseat: bool = False) -> dict[str, Any]:
    created: dict[str, Any] = httpx.post(
        f"{server.url}/api/games",
        json={"scenario": "msc-duel", "sides": {"red": "human", "blue": "human"}, "hotseat": hotseat, "seed": 3},
        timeout=60,
    ).json()
    return created


def url_of(server: Server, created: dict[str, Any], side: str) -> str:
    path: str = next(p["url"] for p in created["players"] if side in p["sides"])
    return server.url + path


def open_live(page: Page, url: str) -> Page:
    page.goto(url)
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    expect(page.locator("body")).to_have_attribute("data-over", "false", timeout=TIMEOUT_MS)
    return page


def test_a_concession_is_confirmed_and_every_page_sees_the_win(page: Page, browser: Browser, server: Server) -> None:
    created = new_game(server)
    red = open_live(page, url_of(server, created, "red"))
    blue = open_live(browser.new_page(), url_of(server, created, "blue"))
    spectator = open_live(browser.new_page(), server.url + f"/games/{created['id']}")
    ending = red.locator("#ending")
    ending.locator("summary").click()
    ending.get_by_role("button", name="Concede…").click()
    confirm = ending.locator(".ending-confirm")
    expect(confirm).to_contain_text("red: concede the game? blue wins, and the game is over.")
    # Cancelled: nothing is sent, the game goes on.
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_have_count(0)
    expect(red.locator("body")).to_have_attribute("data-over", "false")
    ending.locator("summary").click()
    ending.get_by_role("button", name="Concede…").click()
    ending.get_by_role("button", name="Yes, concede").click()
    for viewer in (red, blue, spectator):
        expect(viewer.locator("body")).to_have_attribute("data-over", "true", timeout=TIMEOUT_MS)
        expect(viewer.locator("#result .winners")).to_have_text("blue wins")
        expect(viewer.locator("#result .reason")).to_have_text("red conceded")
    # Only the rematch is left to offer, and only to the players.
    for player in (red, blue):
        expect(player.locator("#ending button")).to_have_text(["Rematch"])
    expect(spectator.locator("#ending")).to_be_hidden()
    blue.close()
    spectator.close()


def test_a_draw_offered_and_accepted_ends_the_game_for_everyone(
    page: Page, browser: Browser, server: Server, artefacts: Path
) -> None:
    created = new_game(server)
    red = open_live(page, url_of(server, created, "red"))
    blue = open_live(browser.new_page(), url_of(server, created, "blue"))
    spectator = open_live(browser.new_page(), server.url + f"/games/{created['id']}")
    ending = red.locator("#ending")
    ending.locator("summary").click()
    ending.get_by_role("button", name="Offer a draw…").click()
    expect(ending.locator(".ending-confirm")).to_contain_text("It ends when blue agrees")
    red.screenshot(path=str(artefacts / "ending-00-offer-confirmation.png"))
    ending.get_by_role("button", name="Yes, offer a draw").click()
    for viewer in (red, blue, spectator):
        expect(viewer.locator("#ending .ending-offer")).to_contain_text(
            "red offers to end the game as a draw. Waiting for blue.", timeout=TIMEOUT_MS
        )
    expect(red.locator("#ending").get_by_role("button", name="Withdraw the offer")).to_be_visible()
    expect(spectator.locator("#ending button")).to_have_count(0)
    blue.screenshot(path=str(artefacts / "ending-01-offer-seen-by-blue.png"))
    blue.locator("#ending").get_by_role("button", name="Accept the draw").click()
    for viewer in (red, blue, spectator):
        expect(viewer.locator("body")).to_have_attribute("data-over", "true", timeout=TIMEOUT_MS)
        expect(viewer.locator("#result .winners")).to_have_text("A draw")
        expect(viewer.locator("#result .reason")).to_have_text("ended by agreement")
    blue.close()
    spectator.close()


def test_a_declined_offer_is_seen_and_play_goes_on(page: Page, browser: Browser, server: Server) -> None:
    created = new_game(server)
    red = open_live(page, url_of(server, created, "red"))
    blue = open_live(browser.new_page(), url_of(server, created, "blue"))
    red.locator("#ending summary").click()
    red.locator("#ending").get_by_role("button", name="Offer a draw…").click()
    red.locator("#ending").get_by_role("button", name="Yes, offer a draw").click()
    blue.locator("#ending").get_by_role("button", name="Decline").click()
    for viewer in (red, blue):
        expect(viewer.locator("#ending .ending-note")).to_have_text(
            "blue declines to end the game; play goes on", timeout=TIMEOUT_MS
        )
        expect(viewer.locator("body")).to_have_attribute("data-over", "false")
    blue.close()


def test_hot_seat_offers_as_one_side_and_accepts_as_the_other(page: Page, server: Server) -> None:
    created = new_game(server, hotseat=True)
    open_live(page, url_of(server, created, "red"))
    handover = page.locator("#handover")
    expect(handover).to_be_visible(timeout=TIMEOUT_MS)
    page.click("#handover-ready")
    ending = page.locator("#ending")
    ending.locator("summary").click()
    ending.locator(".ending-offer-button[data-side='red']").click()
    expect(ending.locator(".ending-confirm")).to_contain_text("red: offer to end the game as a draw?")
    ending.get_by_role("button", name="Yes, offer a draw").click()
    ending.get_by_role("button", name="Accept as blue").click()
    expect(page.locator("body")).to_have_attribute("data-over", "true", timeout=TIMEOUT_MS)
    expect(page.locator("#result .reason")).to_have_text("ended by agreement")
