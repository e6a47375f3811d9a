"""The lobby's headline game opens with every ship in play on screen, on laptop screens and up.

The VV5 Dogfight's sides start 49 columns apart; at readable-hex zoom that is wider than the
map at 1366 px, and the first screen used to show only the player's own ships.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import Server
from tests.e2e.test_layout import COUNTERS_JS, inside, rect_of

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
SCREENS = [(1366, 768), (1400, 900), (1600, 900), (1920, 1080)]


@pytest.mark.parametrize(("width", "height"), SCREENS, ids=[f"{w}x{h}" for w, h in SCREENS])
def test_the_quick_start_dogfight_opens_with_both_sides_on_screen(
    page: Page, server: Server, artefacts: Path, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto(server.url + "/")
    page.click("#quick-start")
    page.wait_for_url("**/games/**", timeout=TIMEOUT_MS)
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)
    svg = rect_of(page, "#map")
    counters = page.eval_on_selector_all("#map .counter", COUNTERS_JS)
    sides = {c["side"] for c in counters}
    assert sides == {"red", "blue"}, sides
    off = [c["id"] for c in counters if not inside(c, svg)]
    assert not off, f"off the first screen at {width}x{height}: {off}"
    page.screenshot(path=str(artefacts / f"opening-dogfight-{width}x{height}.png"))
