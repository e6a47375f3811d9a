"""The game page on a laptop screen: the map is the dominant area at a readable zoom, nothing sits
on top of the player's counters, the zoom buttons keep the player's ship in view, and the side
column's Orders, Ships and Log are each reachable and scroll on their own.

Measured in a real Chromium at 1280x800 (the e2e default) and 1366x768; screenshots of each
layout go to the artefact directory.
"""

from __future__ import annotations

import math
import re
import shutil
from pathlib import Path
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
#: hexmap.js: SIZE units centre to corner, so a hex is sqrt(3) * SIZE units flat to flat.
SIZE = 20.0
HEX_FLAT_UNITS = math.sqrt(3) * SIZE
#: "At least ~28 px across" at the default zoom, measured the narrow way (flat to flat).
MIN_HEX_PX = 28.0
#: fit.js MIN_ALL_SHIPS_SCALE (0.5 px per unit): the smallest hexes the opening view takes to show every ship.
MIN_ALL_SHIPS_HEX_PX = 0.5 * HEX_FLAT_UNITS - 0.5
LAPTOPS = [(1280, 800), (1366, 768)]
#: (scenario, the player's side, the others' sides): small, large and crowded boards.
GAMES = [
    ("vv5-dogfight", "red", {"blue": "bot:greedy"}),
    ("msc-fleet", "red", {"blue": "bot:greedy"}),
    ("vv5-refugees", "intercept", {"refugees": "bot:greedy"}),
    ("vms-mixed-fleet-vv5", "red", {"blue": "bot:greedy"}),
]
CONTROLS = ["#zoom-in", "#zoom-out", "#zoom-fit", "#zoom-board", "#view-3d", "#velocity-legend"]

RECTS_JS = """sels => sels.map(s => document.querySelector(s)).filter(e => e && e.offsetParent !== null)
  .map(e => { const r = e.getBoundingClientRect(); return {id: e.id, x: r.x, y: r.y, w: r.width, h: r.height}; })"""
COUNTERS_JS = """els => els.map(e => { const r = e.getBoundingClientRect();
  return {id: e.dataset.id, side: e.dataset.side, x: r.x, y: r.y, w: r.width, h: r.height}; })"""
#: What is drawn at a point: the counter's id there, or the tag of whatever else is on top.
HIT_JS = """([x, y]) => { const e = document.elementFromPoint(x, y);
  if (!e) return null; const c = e.closest('.counter'); return c ? c.dataset.id : e.tagName; }"""


def create_game(server: Server, scenario: str, sides: dict[str, str], seed: int = 3) -> dict[str, Any]:
    created: dict[str, Any] = httpx.post(
        f"{server.url}/api/games", json={"scenario": scenario, "sides": sides, "seed": seed}, timeout=60
    ).json()
    return created


def open_game(page: Page, server: Server, created: dict[str, Any]) -> None:
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)


def rect_of(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not drawn"
    return {"x": box["x"], "y": box["y"], "w": box["width"], "h": box["height"]}


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"] and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]
    )


def inside(inner: dict[str, float], outer: dict[str, float]) -> bool:
    return (
        inner["x"] >= outer["x"] - 0.5
        and inner["y"] >= outer["y"] - 0.5
        and inner["x"] + inner["w"] <= outer["x"] + outer["w"] + 0.5
        and inner["y"] + inner["h"] <= outer["y"] + outer["h"] + 0.5
    )


def px_per_unit(page: Page) -> float:
    scale: float = page.evaluate("() => document.querySelector('#map').getScreenCTM().a")
    return scale


@pytest.mark.parametrize(("width", "height"), LAPTOPS, ids=[f"{w}x{h}" for w, h in LAPTOPS])
@pytest.mark.parametrize(("scenario", "side", "others"), GAMES, ids=[g[0] for g in GAMES])
def test_the_map_is_readable_and_nothing_covers_the_players_counters(
    page: Page,
    server: Server,
    artefacts: Path,
    width: int,
    height: int,
    scenario: str,
    side: str,
    others: dict[str, str],
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    open_game(page, server, create_game(server, scenario, {side: "human", **others}))
    svg = rect_of(page, "#map")
    # The map is the dominant area of the screen.
    assert svg["w"] >= 0.6 * width, svg
    assert svg["h"] >= 0.75 * height, svg
    # The default zoom keeps hexes readable, whatever the size of the board; smaller ones only so
    # that every ship in play is on the opening screen (fit.js, MIN_ALL_SHIPS_SCALE).
    hex_px = px_per_unit(page) * HEX_FLAT_UNITS
    every: list[dict[str, Any]] = page.eval_on_selector_all("#map .counter", COUNTERS_JS)
    if hex_px < MIN_HEX_PX:
        assert all(inside(c, svg) for c in every), f"hexes are {hex_px:.1f} px across and still some ship is off screen"
        assert hex_px >= MIN_ALL_SHIPS_HEX_PX, f"hexes are {hex_px:.1f} px across at the default zoom"

    controls: list[dict[str, Any]] = page.evaluate(RECTS_JS, CONTROLS)
    assert {c["id"] for c in controls} >= {"zoom-in", "zoom-out", "zoom-fit", "velocity-legend"}
    drawn: list[dict[str, Any]] = page.eval_on_selector_all("#map .counter", COUNTERS_JS)
    own = [c for c in drawn if c["side"] == side]
    assert own, f"no counter of {side}'s on the map"
    in_view = [c for c in own if overlap(c, svg)]
    # The view shows the player's ships: at least one whole counter, with room to spare.
    assert any(inside(c, svg) for c in in_view), (own, svg)
    for c in in_view:
        for control in controls:
            assert not overlap(c, control), f"{c['id']} lies under #{control['id']}"
        centre = [c["x"] + c["w"] / 2, c["y"] + c["h"] / 2]
        if inside({"x": centre[0], "y": centre[1], "w": 0, "h": 0}, svg):
            hit = page.evaluate(HIT_JS, centre)
            assert hit in {d["id"] for d in drawn}, f"{c['id']} is covered by {hit}"
    page.screenshot(path=str(artefacts / f"layout-{scenario}-{width}x{height}.png"))


def test_zoom_buttons_centre_on_the_players_ship(page: Page, server: Server, artefacts: Path) -> None:
    """Refugees: the refugees' ships start in the middle of a 50 x 24 board."""
    open_game(page, server, create_game(server, "vv5-refugees", {"refugees": "human", "intercept": "bot:greedy"}))
    svg = rect_of(page, "#map")
    middle = (svg["x"] + svg["w"] / 2, svg["y"] + svg["h"] / 2)
    z1 = page.locator("#map .counter[data-id='Z1'] .counter-body")

    def distance_from_middle() -> float:
        box = z1.bounding_box()
        assert box is not None
        return math.hypot(box["x"] + box["width"] / 2 - middle[0], box["y"] + box["height"] / 2 - middle[1])

    # Pan well away from the ship first: zooming about the middle of the view would lose it.
    page.locator("#map").focus()
    for _ in range(4):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#map")).to_have_attribute("data-follow", "false")
    assert distance_from_middle() > 0.2 * svg["w"]
    before = px_per_unit(page)
    for _ in range(3):
        page.click("#zoom-in")
    assert px_per_unit(page) > 1.8 * before
    assert distance_from_middle() < 3.0, "the zoom did not centre on the player's ship"
    box = page.locator("#map .counter[data-id='Z1']").bounding_box()
    assert box is not None
    assert inside({"x": box["x"], "y": box["y"], "w": box["width"], "h": box["height"]}, svg)
    page.click("#zoom-out")
    assert distance_from_middle() < 3.0
    # "Fit the ships" goes back to the default view and follows the ships again.
    page.click("#zoom-fit")
    expect(page.locator("#map")).to_have_attribute("data-follow", "true")
    # Refugees' ships spread over a 50-column board: the default view shows them all.
    assert px_per_unit(page) * HEX_FLAT_UNITS >= MIN_ALL_SHIPS_HEX_PX
    every: list[dict[str, Any]] = page.eval_on_selector_all("#map .counter", COUNTERS_JS)
    assert all(inside(c, svg) for c in every)
    page.screenshot(path=str(artefacts / "layout-zoomed-on-own-ship.png"))


def test_orders_ships_and_log_are_each_reachable_and_scroll_on_their_own(
    page: Page, server: Server, artefacts: Path
) -> None:
    created = create_game(server, "vv5-dogfight", {"red": "human", "blue": "bot:greedy"})
    open_game(page, server, created)
    # The page itself never scrolls: each panel does.
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= window.innerHeight + 1")
    viewport = {"x": 0.0, "y": 0.0, "w": 1280.0, "h": 800.0}
    orders_tab, ships_tab, log_tab = page.locator("#tab-orders"), page.locator("#tab-ships"), page.locator("#tab-log")
    expect(orders_tab).to_have_attribute("aria-selected", "true")

    # Orders: the whole form can be reached by scrolling the orders panel alone.
    form = page.locator("form.side-orders[data-side='red']")
    expect(form).to_be_visible()
    commit = form.locator("button.commit")
    commit.scroll_into_view_if_needed()
    assert inside(rect_of(page, "form.side-orders[data-side='red'] button.commit"), viewport)
    assert inside(rect_of(page, "#map"), viewport), "scrolling the orders moved the map"
    page.screenshot(path=str(artefacts / "layout-1280x800-orders.png"))

    # Ships: every card is reachable, the last one too.
    ships_tab.click()
    expect(page.locator("#panel-orders")).to_be_hidden()
    cards = page.locator("#cards .card")
    expect(cards.first).to_be_visible()
    assert cards.count() == 4
    cards.last.scroll_into_view_if_needed()
    expect(cards.last).to_be_in_viewport()
    page.screenshot(path=str(artefacts / "layout-1280x800-ships.png"))
    # Clicking a counter (an enemy's, far off: the whole map first) shows its card.
    orders_tab.click()
    page.click("#zoom-board")
    expect(page.locator("#map")).to_have_attribute("data-follow", "false")
    page.locator("#map .counter[data-id='Y1']").click()
    expect(ships_tab).to_have_attribute("aria-selected", "true")
    expect(page.locator("#cards .card[data-title^='Y1:']")).to_be_in_viewport()

    # Log: most of the screen's height (it was a 150 px strip).
    log_tab.click()
    expect(page.locator("#log")).to_be_visible()
    log = rect_of(page, "#log")
    assert log["h"] >= 0.7 * 800, log
    line: float = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('#log')).fontSize) * 1.4")
    assert log["h"] / line >= 25, "fewer than 25 lines of log"

    # Arrow keys move between the tabs.
    log_tab.focus()
    page.keyboard.press("ArrowRight")
    expect(orders_tab).to_have_attribute("aria-selected", "true")
    expect(orders_tab).to_be_focused()
    page.keyboard.press("ArrowLeft")
    expect(log_tab).to_have_attribute("aria-selected", "true")
    page.screenshot(path=str(artefacts / "layout-1280x800-log.png"))

    # Orders given elsewhere (another window): the next prompt brings Orders back, and the Log
    # tab counts what happened meanwhile.
    before = int(page.locator("body").get_attribute("data-step") or "0")
    player = created["players"][0]
    httpx.post(
        f"{server.url}/api/games/{created['id']}/orders",
        json={"side": "red", "text": "X1 0; X2 0", "step": before},
        headers={"Authorization": f"Bearer {player['token']}"},
    ).raise_for_status()
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=before, timeout=TIMEOUT_MS)
    expect(orders_tab).to_have_attribute("aria-selected", "true")
    expect(page.locator("#tab-log .tab-badge")).to_be_visible()
    expect(page.locator("#tab-log .tab-badge")).to_have_text(re.compile(r"^\d+$"))
    log_tab.click()
    expect(page.locator("#tab-log .tab-badge")).to_be_hidden()


def vms_plot_game(server: Server) -> dict[str, Any]:
    """A VMS duel whose first prompt is the red Tern's plot (long burn orders)."""
    created = create_game(server, "vms-capital-duel-vv5", {"red": "human", "blue": "bot:greedy"})
    scene = httpx.get(server.url + "/api" + created["players"][0]["url"]).json()
    assert scene["prompt"]["kind"] == "plot", scene["prompt"]
    assert scene["move_options"].get("Tern"), scene["prompt"]
    return created


def test_every_vms_plot_option_shows_its_whole_text_and_end_hex(page: Page, server: Server, artefacts: Path) -> None:
    open_game(page, server, vms_plot_game(server))
    labels = page.locator("fieldset.ship-plot[data-ship='Tern'] label.option")
    count = labels.count()
    assert count > 20
    longest = max(len(t) for t in labels.all_inner_texts())
    assert longest > 30, "the duel's plots should include long burn orders"
    lst = rect_of(page, "fieldset.ship-plot[data-ship='Tern'] .options")
    clipped = page.eval_on_selector_all(
        "fieldset.ship-plot[data-ship='Tern'] label.option",
        """(labels, list) => labels.flatMap(label => {
            const out = [];
            for (const part of label.querySelectorAll('.opt-text, .opt-end')) {
              const r = part.getBoundingClientRect();
              // Cut by its own box, or running past the list's right edge (its scrollbar aside).
              if (part.scrollWidth > part.clientWidth + 1 || part.scrollHeight > part.clientHeight + 1
                  || r.right > list.x + list.w + 0.5 || r.left < list.x - 0.5) out.push(label.textContent);
            }
            return out;
          })""",
        lst,
    )
    assert not clipped, f"cut off: {clipped[:3]}"
    # Each end hex is drawn whole, next to (or under) its plot, and reads as written in the scene.
    for i in range(0, count, max(1, count // 8)):
        label = labels.nth(i)
        label.scroll_into_view_if_needed()
        end = label.locator(".opt-end")
        expect(end).to_be_visible()
        end_hex = label.get_attribute("data-end") or ""
        expect(end).to_contain_text(end_hex)
        box = end.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= lst["x"] + lst["w"] + 0.5
    page.screenshot(path=str(artefacts / "layout-1280x800-vms-plot.png"))


def test_a_lost_connection_is_told_in_words_a_player_understands(page: Page, server: Server) -> None:
    open_game(page, server, create_game(server, "msc-duel", {"red": "human", "blue": "bot:greedy"}))
    form = page.locator("form.side-orders[data-side='red']")
    form.locator("input[type=radio][data-ship='Hawk']").first.check()
    page.route("**/api/games/*/orders", lambda route: route.abort("failed"))
    form.locator("button.commit").click()
    status = form.locator(".check.bad")
    expect(status).to_contain_text("Cannot reach the server: is it still running?", timeout=TIMEOUT_MS)
    expect(status).to_contain_text("Your orders were not sent")
    expect(status).not_to_contain_text("Failed to fetch")
    # Back on line, the same commit goes through.
    page.unroute("**/api/games/*/orders")
    before = int(page.locator("body").get_attribute("data-step") or "0")
    form.locator("button.commit").click()
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=before, timeout=TIMEOUT_MS)
