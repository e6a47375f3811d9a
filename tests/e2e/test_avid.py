"""The AVID and firing arc diagrams drawn in the browser, checked against sample game one (A5.16).

At segment 5 the tutorial writes the triangle-chocolate's range 5 in the lower blue F/A window,
circled, with the nose triangle in A; mapped to the firing arc diagrams it is one down and to port
of the nose (11-), where mounts A and B reach it (A5.161-A5.166). Each check finds the drawn mark
inside the window group it must be in, so a card that put it in another window fails.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server
from tests.e2e.test_avt_view import TIMEOUT_MS, create_game, open_game

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

SIDES = {"blue": "human", "chocolates": "bot:random"}


def sample_game_one_at_segment_5(server: Server) -> dict[str, Any]:
    """Sample game one with the Rafik drifting (holding) through segments 1-4."""
    created = create_game(server, "avt-drift", SIDES, seed=0)
    player = created["players"][0]
    for _ in range(4):
        answer = httpx.get(f"{server.url}/api{player['url']}", timeout=10).json()
        httpx.post(
            f"{server.url}/api/games/{created['id']}/orders",
            json={"side": "blue", "text": "hold", "step": answer["step"]},
            headers={"Authorization": f"Bearer {player['token']}"},
            timeout=10,
        ).raise_for_status()
    return created


def test_the_avid_at_sample_game_one_segment_5(page: Page, server: Server, artefacts: Path) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    created = sample_game_one_at_segment_5(server)
    open_game(page, server, created)
    tab = page.locator("#tab-avid")
    expect(tab).to_be_visible(timeout=TIMEOUT_MS)
    tab.click()
    card = page.locator("svg#avid-card")
    expect(card).to_have_attribute("data-segment", "5", timeout=TIMEOUT_MS)
    expect(card).to_have_attribute("data-ship", "Rafik")
    # A5.162: range 5 in the lower blue F/A window, circled.
    marker = card.locator('g.avid-window[data-window="F/A-"] > g.avid-target[data-target="Triangle"]')
    expect(marker).to_have_count(1)
    expect(marker.locator("text")).to_have_text("5")
    expect(marker).to_have_class("avid-target circled")
    expect(marker.locator("circle.avid-circle")).to_have_count(1)
    # It is nowhere else, and the upper F/A window above it holds no marker.
    expect(card.locator('g.avid-target[data-target="Triangle"]')).to_have_count(1)
    expect(card.locator('g.avid-window[data-window="F/A+"] g.avid-target')).to_have_count(0)
    # A5.163: the nose triangle in A; A5.1651: the Top star in the purple window, Bottom below.
    expect(card.locator('g.avid-window[data-window="A"] > g.avid-symbol[data-symbol="nose"]')).to_have_count(1)
    expect(card.locator('g.avid-window[data-window="up"] > g.avid-symbol[data-symbol="top"]')).to_have_count(1)
    expect(card.locator('g.avid-window[data-window="down"] > g.avid-symbol[data-symbol="bottom"]')).to_have_count(1)
    # A5.11: vectors 6 A, 3 B, 1 up on the arrows.
    for arrow, value in (("A", "6"), ("B", "3"), ("up", "1"), ("C", "0")):
        expect(card.locator(f'g.avid-arrow[data-arrow="{arrow}"]')).to_have_attribute("data-value", value)

    # The triangle is the target chosen: every mount's diagram marks window 11-, and only A and B reach it.
    diagrams = page.locator("svg.arc-diagram")
    expect(diagrams).to_have_count(7)
    mount_a = page.locator('svg.arc-diagram[data-mount="A"]')
    expect(
        mount_a.locator('g.arc-window.marked[data-window="11-"] g.arc-target[data-target="Triangle"]')
    ).to_have_count(1)
    expect(mount_a.locator("g.arc-window.marked")).to_have_count(1)
    reaching = page.locator('svg.arc-diagram[data-reaches="true"]')
    assert sorted(reaching.evaluate_all("els => els.map(e => e.dataset.mount)")) == ["A", "B"]
    expect(page.locator('svg.arc-diagram[data-mount="C"] g.arc-window.marked[data-window="11-"]')).to_have_count(1)
    expect(page.locator('svg.arc-diagram[data-mount="C"] g.arc-window[data-window="11-"]')).not_to_have_class(
        "arc-window in-arc marked"
    )

    # Hovering the marker says its bearing, range, ring and the mounts that reach it.
    marker.hover()
    info = page.locator("#avid-info")
    expect(info).to_contain_text("Triangle: bearing F/A- (blue ring, below the map, circled), range 5")
    expect(info).to_contain_text("arc window 11-; mounts A, B reach it")
    expect(page.locator("svg.arc-diagram.hover-reaches")).to_have_count(2)
    page.screenshot(path=str(artefacts / "avid-1366x768.png"))
    page.locator(".arc-heading").scroll_into_view_if_needed()
    page.locator("#panel-avid").evaluate("p => { p.scrollTop = p.querySelector('.arc-heading').offsetTop - 60; }")
    page.screenshot(path=str(artefacts / "arc-diagrams-1366x768.png"))
    card.screenshot(path=str(artefacts / "avid-card.png"))
    mount_a.screenshot(path=str(artefacts / "arc-diagram-a.png"))

    # Choosing the circle instead marks its window (12+, A5.171) in the diagrams.
    page.locator('.avid-targets li[data-target="Circle"] button').click()
    expect(mount_a.locator('g.arc-window.marked[data-window="12+"] g.arc-target[data-target="Circle"]')).to_have_count(
        1
    )

    # A red card turns the card so D is at the top; the marks stay in their windows.
    page.locator("#avid-red").check()
    card = page.locator("svg#avid-card")
    expect(card).to_have_attribute("data-top", "D")
    box = card.locator('g.avid-arrow[data-arrow="D"] .arrow-letter').bounding_box()
    top = card.locator('g.avid-arrow[data-arrow="A"] .arrow-letter').bounding_box()
    assert box is not None
    assert top is not None
    assert box["y"] < top["y"]
    expect(card.locator('g.avid-window[data-window="F/A-"] > g.avid-target[data-target="Triangle"]')).to_have_count(1)
    page.locator("#avid-red").uncheck()


def test_the_avid_follows_the_segment_and_shows_a_pivot(page: Page, server: Server) -> None:
    created = create_game(server, "avt-pivot-thrust", SIDES, seed=0)
    open_game(page, server, created)
    page.locator("#tab-avid").click()
    card = page.locator("svg#avid-card")
    expect(card).to_have_attribute("data-segment", "1", timeout=TIMEOUT_MS)
    player = created["players"][0]
    step = int(page.locator("body").get_attribute("data-step") or "0")
    httpx.post(
        f"{server.url}/api/games/{created['id']}/orders",
        json={"side": "blue", "text": "Rafik pivot A", "step": step},
        headers={"Authorization": f"Bearer {player['token']}"},
        timeout=10,
    ).raise_for_status()
    # A5.222-A5.224: after segment 1 the nose is in F/A and the pivot reaches A in segment 2.
    expect(card).to_have_attribute("data-segment", "2", timeout=TIMEOUT_MS)
    expect(card.locator('g.avid-window[data-window="F/A"] > g.avid-symbol[data-symbol="nose"]')).to_have_count(1)
    expect(card.locator('g.avid-window[data-window="A"] > g.avid-turn-stop[data-segment="2"]')).to_have_count(1)
    expect(card.locator("polyline.avid-turn-arrow.pivot")).to_have_count(1)
