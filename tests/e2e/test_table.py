"""The online table: the your-turn signal, chat between sides, and the pages on a phone.

Two people play a VV5 Dogfight, each on their own page (their own token); the tests give the
other side's orders through the API, chosen by a local mirror of the game (tests/web/helpers).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import Server
from tests.web.helpers import Mirror

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
SCENARIO = "vv5-dogfight"
SEED = 11
PEOPLE = {"red": "human", "blue": "human"}
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"

#: Every Notification the page makes is recorded; the page is told it is not in front, as when
#: the player has gone to another tab or window (a player looking at the page gets no notification).
NOTIFICATION_STUB = """
window.__notes = [];
window.Notification = class {
  constructor(title, options) { window.__notes.push({title, body: (options || {}).body}); }
  static get permission() { return window.__permission || "default"; }
  static requestPermission() { window.__permission = "granted"; return Promise.resolve("granted"); }
};
document.hasFocus = () => false;
"""


def create(server: Server, sides: dict[str, str], seed: int = SEED) -> dict[str, Any]:
    spec = {"scenario": SCENARIO, "sides": sides, "seed": seed}
    answer = httpx.post(f"{server.url}/api/games", json=spec, timeout=60)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def token(created: dict[str, Any], side: str) -> str:
    found: str = next(p["token"] for p in created["players"] if side in p["sides"])
    return found


def url_of(server: Server, created: dict[str, Any], side: str | None) -> str:
    if side is None:
        spectate: str = created["spectate_url"]
        return server.url + spectate
    side_url: str = next(p["url"] for p in created["players"] if side in p["sides"])
    return server.url + side_url


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)


def give(server: Server, created: dict[str, Any], mirror: Mirror, side: str) -> None:
    text = mirror.order_for(side)
    answer = httpx.post(
        f"{server.url}/api/games/{created['id']}/orders",
        json={"side": side, "text": text, "step": mirror.step},
        headers={"Authorization": f"Bearer {token(created, side)}"},
        timeout=60,
    )
    assert answer.status_code == 200, answer.text
    mirror.give(side, text)


def test_your_turn_changes_the_title_and_icon_and_notifies_once(page: Page, server: Server) -> None:
    created = create(server, PEOPLE)
    mirror = Mirror.of(SCENARIO, SEED, PEOPLE, people="random")
    page.add_init_script(NOTIFICATION_STUB)
    open_page(page, url_of(server, created, "red"))
    # Red owes a plot from the start: the title and icon say so, but opening the page is no news.
    expect(page).to_have_title(re.compile(r"^● Your turn — Dogfight"))
    assert page.get_attribute("link[rel=icon]", "data-badge") == "on"
    toggle = page.locator("#notify-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()  # the permission is asked from this click
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("window.__permission") == "granted"
    assert page.evaluate("window.__notes.length") == 0

    give(server, created, mirror, "red")
    expect(page.locator("body")).to_have_attribute("data-your-turn", "false", timeout=TIMEOUT_MS)
    assert not page.title().startswith("●")
    assert page.get_attribute("link[rel=icon]", "data-badge") == "off"
    assert page.evaluate("window.__notes.length") == 0

    # Blue's orders (and any prompt that is blue's alone) until red owes orders again.
    while "red" not in mirror.due():
        (side,) = [s for s in mirror.due() if s != "red"][:1]
        give(server, created, mirror, side)
    expect(page.locator("body")).to_have_attribute("data-your-turn", "true", timeout=TIMEOUT_MS)
    assert page.title().startswith("● Your turn — Dogfight")
    assert page.get_attribute("link[rel=icon]", "data-badge") == "on"
    page.wait_for_function("window.__notes.length === 1", timeout=TIMEOUT_MS)
    note = page.evaluate("window.__notes[0]")
    assert note["title"] == "Your turn — Dogfight"
    assert note["body"].startswith("red: turn ")


def test_chat_reaches_the_other_side_and_no_one_else(browser: Browser, server: Server, artefacts: Path) -> None:
    created = create(server, PEOPLE)
    other = create(server, PEOPLE, seed=SEED + 1)
    pages: dict[str, Page] = {}
    for name, game, side in [
        ("red", created, "red"),
        ("blue", created, "blue"),
        ("spectator", created, None),
        ("elsewhere", other, "red"),
    ]:
        pages[name] = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        open_page(pages[name], url_of(server, game, side))
    red, blue = pages["red"], pages["blue"]
    red.click("#tab-log")
    expect(red.locator("#chat")).to_be_visible()
    # The games were made with a chosen seed: every viewer's log says so first.
    expect(red.locator("#log li").first).to_have_class("log-practice")
    pages["spectator"].click("#tab-log")
    expect(pages["spectator"].locator("#log li.log-practice")).to_have_text(re.compile("chose the dice seed"))
    expect(pages["spectator"].locator("#chat")).to_be_hidden()
    said = "<b>bold</b> move & good luck"
    red.fill("#chat .chat-input", said)
    with red.expect_request(lambda r: r.method == "POST" and r.url.endswith("/chat")) as sent:
        red.click("#chat .chat-send")
    # Each line carries a key of the browser's making, so a retry is stored once.
    body = sent.value.post_data_json
    assert body is not None
    assert re.fullmatch(r"[0-9a-f]{32}", body["key"])
    expect(red.locator("#chat .chat-line")).to_have_count(1)
    expect(red.locator("#chat .chat-input")).to_have_value("")
    # Blue is on its orders: the log tab counts the line; the line itself is plain text.
    expect(blue.locator("#tab-log .tab-badge")).to_have_text("1", timeout=TIMEOUT_MS)
    blue.click("#tab-log")
    line = blue.locator("#chat .chat-line")
    expect(line).to_have_count(1)
    expect(line.locator(".chat-text")).to_have_text(said)
    assert line.locator("b").count() == 0
    assert line.get_attribute("data-side") == "red"
    blue.fill("#chat .chat-input", "and to you")
    blue.press("#chat .chat-input", "Enter")
    expect(red.locator("#chat .chat-line")).to_have_count(2, timeout=TIMEOUT_MS)
    red.screenshot(path=str(artefacts / "chat-red.png"))
    # Nobody else got a word: the spectator has no chat, the other game's page an empty one.
    for name in ("spectator", "elsewhere"):
        assert pages[name].locator("#chat .chat-line").count() == 0, name
    # A reload reads the chat back from the store.
    blue.reload()
    blue.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    expect(blue.locator("#chat .chat-line")).to_have_count(2, timeout=TIMEOUT_MS)
    # Too long is refused by the server with its limit named (the input stops typing at 500 itself).
    red.evaluate("document.querySelector('#chat .chat-input').removeAttribute('maxlength')")
    red.fill("#chat .chat-input", "x" * 501)
    red.click("#chat .chat-send")
    expect(red.locator("#chat .chat-error")).to_contain_text("MAX_CHAT_CHARS")
    assert blue.locator("#chat .chat-line").count() == 2
    # The lobby's list marks them "practice" too.
    lobby = pages["spectator"]
    lobby.goto(server.url + "/")
    expect(lobby.locator(f"tr[data-game='{created['id']}'] .practice-tag")).to_be_visible(timeout=TIMEOUT_MS)
    for p in pages.values():
        p.context.close()


WIDTH_JS = "() => document.scrollingElement.scrollWidth"
TOPBAR_JS = """() => [...document.querySelectorAll('.topbar > *, .top-actions > *')]
  .filter(e => e.offsetParent !== null).map(e => { const r = e.getBoundingClientRect();
  return {id: e.id || e.className, left: r.left, right: r.right}; })"""


def test_no_sideways_scroll_on_a_phone(page: Page, server: Server, artefacts: Path) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "/")
    page.wait_for_selector("#system option", state="attached", timeout=TIMEOUT_MS)
    assert page.evaluate(WIDTH_JS) <= 390
    page.screenshot(path=str(artefacts / "phone-lobby.png"), full_page=True)
    # A created game's links (long URLs) stay inside the screen too.
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".created", timeout=TIMEOUT_MS)
    assert page.evaluate(WIDTH_JS) <= 390

    created = create(server, {"red": "human", "blue": "bot:greedy"})
    open_page(page, url_of(server, created, "red"))
    assert page.evaluate(WIDTH_JS) <= 390
    for part in page.evaluate(TOPBAR_JS):
        assert part["left"] >= 0, part
        assert part["right"] <= 390, part
    # The panels stack under the map, and the replay bar wraps as well.
    map_box = page.locator(".map-pane").bounding_box()
    side_box = page.locator(".side").bounding_box()
    assert map_box is not None
    assert side_box is not None
    assert side_box["y"] >= map_box["y"] + map_box["height"] - 1
    page.screenshot(path=str(artefacts / "phone-game.png"))
    page.click("#replay-toggle")
    expect(page.locator("#replay-bar")).to_be_visible()
    assert page.evaluate(WIDTH_JS) <= 390
    page.click("#replay-exit")
    if DOCS_IMG.is_dir():
        page.screenshot(path=str(artefacts / "phone-390x844.png"))
