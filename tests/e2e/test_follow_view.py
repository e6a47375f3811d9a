"""Every ship stays on the map: the frame follows them off the printed sheet, arrows point to ships
off screen, and the range ruler measures between ships and hexes.

An AV:T map is geomorphic: ships fly on past the scenario's board. The view used to frame the
empty board once they had, with neither counter on screen and nothing saying where they went.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, ViewportSize, expect

from tests.e2e.conftest import Server
from tests.e2e.test_layout import COUNTERS_JS, create_game, inside, rect_of
from vectorwar.hexes import Hex

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
LAPTOP: ViewportSize = {"width": 1366, "height": 768}
DUEL_SIDES = {"blue": "human", "red": "bot:greedy"}
#: Turns of the duel played: the Rafik, thrusting from the first segment, leaves the printed sheet in the fourth.
TURNS = 4
SEGMENTS = 8

#: SVG root coordinates to pixels in the page, through the map's own transform.
TO_SCREEN_JS = """([x, y]) => {
  const p = new DOMPoint(x, y).matrixTransform(document.querySelector('#map').getScreenCTM());
  return [p.x, p.y];
}"""


def open_game(page: Page, server: Server, created: dict[str, Any]) -> None:
    page.set_viewport_size(LAPTOP)
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)


def step_of(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-step") or "0")


def order(server: Server, created: dict[str, Any], side: str, text: str) -> None:
    player = created["players"][0]
    scene = httpx.get(f"{server.url}/api{player['url']}", timeout=10).json()
    httpx.post(
        f"{server.url}/api/games/{created['id']}/orders",
        json={"side": side, "text": text, "step": scene["step"]},
        headers={"Authorization": f"Bearer {player['token']}"},
        timeout=30,
    ).raise_for_status()


def counters_off_screen(page: Page) -> list[str]:
    svg = rect_of(page, "#map")
    drawn: list[dict[str, Any]] = page.eval_on_selector_all("#map .counter", COUNTERS_JS)
    assert drawn, "no counter drawn"
    return [c["id"] for c in drawn if not inside(c, svg)]


def scene_of(server: Server, created: dict[str, Any]) -> dict[str, Any]:
    scene: dict[str, Any] = httpx.get(f"{server.url}/api{created['players'][0]['url']}", timeout=10).json()
    return scene


def test_avt_duel_keeps_both_ships_in_view_after_every_update_off_the_printed_sheet(
    page: Page, server: Server, artefacts: Path
) -> None:
    created = create_game(server, "avt-duel-wasp", DUEL_SIDES, seed=4)
    open_game(page, server, created)
    expect(page.locator("#follow-ships")).to_have_attribute("aria-pressed", "true")
    assert counters_off_screen(page) == []
    furthest = 0
    for _ in range(TURNS * SEGMENTS):
        scene = scene_of(server, created)
        if scene["result"] is not None:
            break
        before = step_of(page)
        order(server, created, "blue", "Rafik thrust 3, bias A")
        # The scene is drawn in one go (step, map and follow together), so once the step shows
        # the map has been fitted to it.
        page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=before, timeout=TIMEOUT_MS)
        off = counters_off_screen(page)
        assert off == [], f"off screen after step {step_of(page)}: {off}"
        expect(page.locator("#map")).to_have_attribute("data-follow", "true")
        rafik = next(c for c in scene_of(server, created)["counters"] if c["id"] == "Rafik")
        furthest = max(furthest, -int(rafik["hex"].split(",")[1]))
    # The Rafik flew well off the printed sheet (rows 0-39), and the sheet went with it.
    assert furthest >= 10, f"the Rafik never left the printed sheet (furthest row -{furthest})"
    expect(page.locator("#map .hex-sheet")).to_have_count(1)
    expect(page.locator(".edge-arrows .edge-arrow")).to_have_count(0)
    page.screenshot(path=str(artefacts / "follow-avt-duel-1366x768.png"))

    # The flat view, "show the ships" and the whole map all frame both ships too.
    page.locator("#view-3d").click()
    expect(page.locator("#map")).to_have_attribute("data-view", "flat")
    assert counters_off_screen(page) == []
    page.locator("#zoom-board").click()
    expect(page.locator("#map")).to_have_attribute("data-follow", "false")
    expect(page.locator("#follow-ships")).to_have_attribute("aria-pressed", "false")
    assert counters_off_screen(page) == []
    page.locator("#zoom-fit").click()
    expect(page.locator("#follow-ships")).to_have_attribute("aria-pressed", "true")
    assert counters_off_screen(page) == []


def test_an_edge_arrow_points_to_a_ship_panned_off_screen_and_brings_it_back(page: Page, server: Server) -> None:
    created = create_game(server, "avt-duel-wasp", DUEL_SIDES, seed=4)
    open_game(page, server, created)
    page.locator("#map").focus()
    arrow = page.locator("#map ~ .edge-arrows .edge-arrow[data-ship=Wasp]")
    # Pan down (the Wasp starts at the top of the sheet) until it is off screen: panning stops following.
    for _ in range(40):
        if arrow.count():
            break
        page.keyboard.press("ArrowDown")
    expect(arrow).to_be_visible()
    expect(page.locator("#follow-ships")).to_have_attribute("aria-pressed", "false")
    assert "Wasp" in counters_off_screen(page)
    expect(arrow).to_contain_text("Wasp")
    # The arrow sits at the map's top edge, pointing up toward the Wasp.
    svg = rect_of(page, "#map")
    box = rect_of(page, "#map ~ .edge-arrows .edge-arrow[data-ship=Wasp]")
    assert inside(box, svg)
    assert box["y"] < svg["y"] + svg["h"] / 4, (box, svg)
    arrow.click()
    expect(arrow).to_have_count(0)
    assert "Wasp" not in counters_off_screen(page)
    # Following the ships again (key F) brings every ship back into the frame.
    page.locator("#map").focus()
    page.keyboard.press("f")
    expect(page.locator("#follow-ships")).to_have_attribute("aria-pressed", "true")
    assert counters_off_screen(page) == []


def click_counter(page: Page, ship: str) -> None:
    page.locator(f"#map .counter[data-id='{ship}'] .counter-body").click()


def test_the_ruler_measures_hexes_between_ships_and_hexes_and_the_ralt_range_in_avt(page: Page, server: Server) -> None:
    created = create_game(server, "msc-duel", {"red": "human", "blue": "bot:greedy"})
    open_game(page, server, created)
    readout = page.locator(".ruler-readout")
    expect(readout).to_be_hidden()
    page.locator("#ruler").click()
    expect(page.locator("#ruler")).to_have_attribute("aria-pressed", "true")
    expect(readout).to_be_visible()
    at = {c["id"]: c["hex"] for c in scene_of(server, created)["counters"]}
    (first, a), (second, b) = sorted(at.items())[:2]
    click_counter(page, first)
    click_counter(page, second)

    def hexes(p: str, q: str) -> int:
        (pc, pr), (qc, qr) = (map(int, p.split(",")), map(int, q.split(",")))
        return Hex.from_offset(pc, pr).distance(Hex.from_offset(qc, qr))

    expect(readout).to_have_attribute("data-hexes", str(hexes(a, b)))
    expect(readout).to_contain_text(f"{first} to {second}: {hexes(a, b)} hex")
    # Picking a counter with the ruler out does not select it (no card, no plot).
    expect(page.locator("#map .ruler-line")).to_have_count(1)
    # A third click starts again: the ship, then a bare hex three columns along.
    click_counter(page, first)
    col, row = (int(part) for part in a.split(","))
    target = f"{col + 3},{row}"
    x, y = page.evaluate(
        TO_SCREEN_JS, [(col + 3) * 1.5 * 20.0, row * 20.0 * 3**0.5 + (10.0 * 3**0.5 if (col + 3) % 2 else 0)]
    )
    page.mouse.click(x, y)
    expect(readout).to_have_attribute("data-hexes", str(hexes(a, target)))
    expect(readout).to_contain_text(f"{first} to {target}: ")
    # Esc puts the ruler away.
    page.locator("#map").focus()
    page.keyboard.press("Escape")
    expect(readout).to_be_hidden()
    expect(page.locator("#map .ruler-line")).to_have_count(0)

    # AV:T: between two ships the ruler adds the range with altitude, the RALT's, from the scene.
    avt = create_game(server, "avt-duel-wasp", DUEL_SIDES, seed=4)
    open_game(page, server, avt)
    page.locator("#map").focus()
    page.keyboard.press("r")
    click_counter(page, "Rafik")
    click_counter(page, "Wasp")
    expect(readout).to_have_attribute("data-hexes", "25")
    expect(readout).to_contain_text("Rafik to Wasp: 25 hexes; range 25 by the RALT (25 out, level), seen through A")


def test_the_rulers_hex_count_is_the_engines_for_hexes_off_the_printed_sheet(page: Page, server: Server) -> None:
    """The ruler counts hexes in the page (geometry.js); it must agree with vectorwar.hexes everywhere,
    negative coordinates (an AV:T ship off the sheet) included."""
    page.goto(server.url + "/")
    pairs = [
        (a, b) for a in ["0,0", "15,-48", "-3,7", "1,1", "-1,-1"] for b in ["0,0", "15,7", "-8,-3", "2,-5", "29,39"]
    ]
    got = page.evaluate(
        """async (pairs) => { const g = await import('/static/map/geometry.js');
          return pairs.map(([a, b]) => g.hexDistance(a, b)); }""",
        pairs,
    )

    def engine(p: str, q: str) -> int:
        (pc, pr), (qc, qr) = (map(int, p.split(",")), map(int, q.split(",")))
        return Hex.from_offset(pc, pr).distance(Hex.from_offset(qc, qr))

    assert got == [engine(a, b) for a, b in pairs]


def test_edge_arrows_find_a_place_or_share_one_on_a_map_squeezed_small(page: Page, server: Server) -> None:
    """Arrows for ships in one direction spread along their edge (edges.js ``freePlace``), each try counted:
    a third ship near a corner once sent the search back and forth between two taken places for ever,
    hanging the page. On a map laid out 60 px high, arrows at y 22 and 40 leave no place a whole step
    from both within the edge: the next shares its wanted place."""
    page.goto(server.url + "/")
    places = page.evaluate(
        """async () => { const e = await import('/static/map/edges.js');
          return [
            e.freePlace([{x: 478, y: 22}, {x: 478, y: 40}], {x: 478, y: 30}, 'x', 500, 60),
            e.freePlace([{x: 478, y: 100}], {x: 478, y: 100}, 'x', 500, 400),
            e.freePlace([{x: 478, y: 100}, {x: 478, y: 126}], {x: 478, y: 100}, 'x', 500, 400),
            e.freePlace([{x: 478, y: 100}], {x: 478, y: 370}, 'x', 500, 400),
            e.freePlace([{x: 478, y: 356}, {x: 478, y: 330}], {x: 478, y: 356}, 'x', 500, 400),
          ]; }"""
    )
    assert places == [
        {"x": 478, "y": 30},  # no room: overlaps
        {"x": 478, "y": 126},  # one step along
        {"x": 478, "y": 74},  # one step down taken: one step up
        {"x": 478, "y": 370},  # already free
        {"x": 478, "y": 304},  # a third ship by a corner: past the edge, so two steps the other way
    ]
