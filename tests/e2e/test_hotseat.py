"""Hot-seat hand-over: two people share one browser (one token holding both sides).

At a secret (simultaneous) prompt only one side orders at a time; when the side to act changes a
full-panel screen, "Pass to blue — press Ready", covers the map and the orders until the next
player presses Ready (or Enter, or Space), and the plot already sent stays hidden unless asked for.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import Server

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
#: What takes a click at the middle of an element's box: the id of the closest element with one.
#: What is on top at the middle of the element's part inside the window (a tall panel runs past its bottom).
HIT_JS = """sel => { const r = document.querySelector(sel).getBoundingClientRect();
  const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, window.innerHeight);
  const e = document.elementFromPoint(r.x + r.width / 2, (top + bottom) / 2);
  return e ? (e.closest('[id]') || {}).id : null; }"""


def hotseat_game(server: Server) -> dict[str, Any]:
    created: dict[str, Any] = httpx.post(
        f"{server.url}/api/games",
        json={"scenario": "vv5-dogfight", "sides": {"red": "human", "blue": "human"}, "hotseat": True, "seed": 4},
        timeout=60,
    ).json()
    (player,) = created["players"]
    assert player["sides"] == ["red", "blue"]
    return created


def step_of(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-step") or "0")


def plot_every_ship(form: Locator) -> str:
    """Pick a plot for each ship (not the first, so the order is not all zeros); the order text."""
    ships = sorted({r.get_attribute("data-ship") or "" for r in form.locator("input[type=radio]").all()})
    for ship in ships:
        form.locator(f"input[type=radio][data-ship='{ship}']").nth(3).check()
    text = form.locator(".order-preview code").get_attribute("data-order") or ""
    assert all(ship in text for ship in ships), text
    return text


def test_hot_seat_hands_over_between_sides_and_hides_the_plot_sent(page: Page, server: Server, artefacts: Path) -> None:
    created = hotseat_game(server)
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)
    handover = page.locator("#handover")
    red = page.locator("form.side-orders[data-side='red']")
    blue = page.locator("form.side-orders[data-side='blue']")

    # Whoever sits down first is asked for: red's secret plot.
    expect(handover).to_be_visible()
    expect(page.locator("#handover-title")).to_have_text("Pass to red — press Ready")
    # It covers the map and the orders: what is under their middle is the hand-over screen.
    assert page.evaluate(HIT_JS, "#map") in {"handover", "handover-title", "handover-ready"}
    assert page.evaluate(HIT_JS, "#orders") in {"handover", "handover-title", "handover-ready"}
    page.screenshot(path=str(artefacts / "hotseat-handover-red.png"))
    page.keyboard.press("Enter")
    expect(handover).to_be_hidden()
    expect(red).to_be_visible()
    expect(blue).to_be_hidden()

    red_text = plot_every_ship(red)
    red.locator("button.commit").click()

    # The side to act is now blue: the screen covers everything until blue is ready.
    expect(handover).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("#handover-title")).to_have_text("Pass to blue — press Ready")
    expect(handover).to_contain_text("red has sent theirs, hidden until all are in")
    page.screenshot(path=str(artefacts / "hotseat-handover-blue.png"))
    page.keyboard.press(" ")
    expect(handover).to_be_hidden()
    expect(blue).to_be_visible()

    # Red's plot is nowhere on the page blue sees: only that it was sent.
    pending = page.locator("section.pending[data-side='red']")
    expect(pending).to_contain_text("sent (hidden until all are in)")
    assert red_text not in page.locator("body").inner_text()
    assert red_text not in page.content()
    for entry in red_text.split("; "):
        expect(page.get_by_text(entry, exact=True)).to_have_count(0)
    page.screenshot(path=str(artefacts / "hotseat-blue-plots.png"))
    # Red may look again if the players agree: Show, then Hide.
    show = pending.get_by_role("button", name="Show")
    show.click()
    expect(pending.locator("code")).to_have_text(red_text)
    pending.get_by_role("button", name="Hide").click()
    expect(pending.locator("code")).to_have_count(0)
    assert red_text not in page.content()

    # Play goes on: blue plots, the turn resolves with both plots, and the next secret plot
    # hands the screen back to red.
    before = step_of(page)
    blue_text = plot_every_ship(blue)
    blue.locator("button.commit").click()
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=before, timeout=TIMEOUT_MS)
    for entry in [*red_text.split("; "), *blue_text.split("; ")]:
        ship, plot = entry.split(" ", 1)
        expect(page.locator("#log li", has_text=f"{ship} plots {plot}:").first).to_be_attached()
    expect(page.locator(".status .phase")).to_contain_text("turn 2")
    expect(handover).to_be_visible(timeout=TIMEOUT_MS)
    expect(handover).to_have_attribute("data-side", "red")
    page.click("#handover-ready")
    expect(red).to_be_visible()
    expect(red.locator("input[type=radio]").first).to_be_visible()
    expect(page.locator("section.pending")).to_have_count(0)
