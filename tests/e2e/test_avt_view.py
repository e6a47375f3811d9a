"""The 3-D map view: AV:T games open with the map tilted and ships standing at their altitude.

Geometry is checked against the hex layout itself (flat-topped odd-q hexes of SIZE units, the
plane's depth scaled by TILT, LIFT units per altitude level), both in SVG units and on screen,
so a view that drew counters on the plane, or a click that forgot the tilt, fails here.
"""

from __future__ import annotations

import json
import math
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
#: The layout hexmap.js draws: SIZE is centre to corner, H a hex's height.
SIZE = 20.0
H = math.sqrt(3) * SIZE
TILT = 0.5
LIFT = 0.8 * H
#: SVG units are rounded to 0.1 in the data attributes; screen positions to a pixel or so.
SVG_TOLERANCE = 0.11
PX_TOLERANCE = 1.5

AVT_SIDES = {"blue": "human", "chocolates": "bot:random"}

COUNTERS_JS = """els => els.map(e => ({id: e.dataset.id, hex: e.dataset.hex,
  altitude: Number(e.dataset.altitude), x: Number(e.dataset.x), y: Number(e.dataset.y)}))"""

#: SVG root coordinates to screen (client) pixels, through the map's own transform.
TO_SCREEN_JS = """([x, y]) => {
  const p = new DOMPoint(x, y).matrixTransform(document.querySelector('#map').getScreenCTM());
  return [p.x, p.y];
}"""

#: What takes a click at a screen point: a counter, or else the element's tag.
HIT_JS = """([x, y]) => {
  const e = document.elementFromPoint(x, y);
  return e.closest('.counter') ? 'counter' : e.tagName;
}"""

BOX_CENTRE_JS = """e => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }"""


def create_game(server: Server, scenario: str, sides: dict[str, str], seed: int = 3) -> dict[str, Any]:
    body = json.dumps({"scenario": scenario, "sides": sides, "seed": seed}).encode()
    request = urllib.request.Request(
        server.url + "/api/games", data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as res:
        created: dict[str, Any] = json.load(res)
    return created


def scene_of(server: Server, created: dict[str, Any]) -> dict[str, Any]:
    """The player's scene over the API (the player's url is `/games/{id}?token=...`)."""
    with urllib.request.urlopen(server.url + "/api" + created["players"][0]["url"], timeout=10) as res:
        scene: dict[str, Any] = json.load(res)
    return scene


def open_game(page: Page, server: Server, created: dict[str, Any]) -> None:
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)


def plane_point(hex_text: str) -> tuple[float, float]:
    """A hex's centre on the flat map, in SVG units (odd columns half a hex lower)."""
    col, row = (int(part) for part in hex_text.split(","))
    return col * 1.5 * SIZE, row * H + (H / 2 if col % 2 else 0.0)


def tilted(hex_text: str, altitude: int = 0) -> tuple[float, float]:
    x, y = plane_point(hex_text)
    return x, y * TILT - altitude * LIFT


def counters(page: Page) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.eval_on_selector_all("#map .counter", COUNTERS_JS)
    return found


def on_screen(page: Page, point: tuple[float, float]) -> tuple[float, float]:
    x, y = page.evaluate(TO_SCREEN_JS, list(point))
    return float(x), float(y)


def centre_of(page: Page, selector: str) -> tuple[float, float]:
    x, y = page.locator(selector).evaluate(BOX_CENTRE_JS)
    return float(x), float(y)


def px_per_unit(page: Page) -> float:
    scale: float = page.evaluate("() => document.querySelector('#map').getScreenCTM().d")
    return scale


def assert_flat(page: Page) -> None:
    expect(page.locator("#map")).to_have_attribute("data-view", "flat")
    assert page.locator("#map g.plane").get_attribute("transform") is None
    expect(page.locator("#map .stalk")).to_have_count(0)
    expect(page.locator("#map .shadow")).to_have_count(0)
    for c in counters(page):
        x, y = plane_point(c["hex"])
        assert (c["x"], c["y"]) == pytest.approx((x, y), abs=SVG_TOLERANCE), c


def test_avt_opens_in_3d_and_the_button_and_key_switch_views(page: Page, server: Server, artefacts: Path) -> None:
    created = create_game(server, "avt-drift", AVT_SIDES)
    open_game(page, server, created)
    button = page.locator("#view-3d")
    expect(button).to_be_visible()
    expect(button).to_have_text("3-D")
    expect(button).to_have_attribute("aria-pressed", "true")
    svg = page.locator("#map")
    expect(svg).to_have_attribute("data-view", "3d")
    assert page.locator("#map g.plane").get_attribute("transform") == f"scale(1,{TILT})"
    # The plane really is squashed: a hex is half as tall for its width as on the flat map.
    hex_cell = page.locator("#map .layer-reach polygon.reach").first
    box = hex_cell.bounding_box()
    assert box is not None
    tilted_ratio = box["height"] / box["width"]
    page.screenshot(path=str(artefacts / "avt-01-3d.png"))

    button.click()
    expect(button).to_have_attribute("aria-pressed", "false")
    assert_flat(page)
    box = hex_cell.bounding_box()
    assert box is not None
    flat_ratio = box["height"] / box["width"]
    assert tilted_ratio == pytest.approx(flat_ratio * TILT, rel=0.05)
    page.screenshot(path=str(artefacts / "avt-02-flat.png"))

    # "3" on the focused map switches back, like the button.
    svg.focus()
    page.keyboard.press("3")
    expect(svg).to_have_attribute("data-view", "3d")
    expect(button).to_have_attribute("aria-pressed", "true")

    # The choice is remembered for this game.
    button.click()
    expect(svg).to_have_attribute("data-view", "flat")
    page.reload()
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)
    expect(button).to_have_attribute("aria-pressed", "false")
    assert_flat(page)
    button.click()
    page.reload()
    page.wait_for_selector("#map .counter", timeout=TIMEOUT_MS)
    expect(svg).to_have_attribute("data-view", "3d")
    expect(button).to_have_attribute("aria-pressed", "true")


def test_3d_counters_stand_at_their_altitude_with_stalks_and_shadows(
    page: Page, server: Server, artefacts: Path
) -> None:
    created = create_game(server, "avt-drift", AVT_SIDES)
    open_game(page, server, created)
    expect(page.locator("#map")).to_have_attribute("data-view", "3d")
    drawn = counters(page)
    raised = [c for c in drawn if c["altitude"]]
    level = [c for c in drawn if not c["altitude"]]
    assert raised, f"avt-drift should have counters off the plane: {drawn}"
    assert level, f"avt-drift should have counters on the plane: {drawn}"
    scale = px_per_unit(page)
    # Only a counter with a facing gets the facing arrow: the tutorial's targets have none.
    expect(page.locator("#map .counter[data-id='Rafik'] polygon.facing")).to_have_count(1)
    expect(page.locator("#map .counter[data-id='Square'] polygon.facing")).to_have_count(0)

    for c in drawn:
        # In SVG units: the plane point, lifted by altitude x LIFT (down for negative altitude).
        x, y = tilted(c["hex"], c["altitude"])
        assert (c["x"], c["y"]) == pytest.approx((x, y), abs=SVG_TOLERANCE), c
        # On screen: the counter's body is centred where that point is drawn.
        body = centre_of(page, f"#map .counter[data-id='{c['id']}'] .counter-body")
        want = on_screen(page, (x, y))
        assert body == pytest.approx(want, abs=PX_TOLERANCE), c
        # Its shadow marks its hex on the plane.
        shadow = centre_of(page, f"#map .shadow[data-id='{c['id']}']")
        assert shadow == pytest.approx(on_screen(page, tilted(c["hex"])), abs=PX_TOLERANCE), c
        # The gap between the two on screen is the altitude, LIFT per level.
        assert (shadow[1] - body[1]) / scale == pytest.approx(c["altitude"] * LIFT, abs=1.0), c

    for c in raised:
        stalk = page.locator(f"#map line.stalk[data-id='{c['id']}']")
        expect(stalk).to_have_count(1)
        ends = [float(stalk.get_attribute(a) or "nan") for a in ("x1", "y1", "x2", "y2")]
        px, py = tilted(c["hex"])
        assert ends == pytest.approx([px, py, px, py - c["altitude"] * LIFT], abs=SVG_TOLERANCE)
        expect(stalk).to_have_class("stalk below" if c["altitude"] < 0 else "stalk")
        expect(page.locator(f"#map .counter[data-id='{c['id']}'] .stalk-label")).to_have_text(f"{c['altitude']:+d}")
    for c in level:
        expect(page.locator(f"#map line.stalk[data-id='{c['id']}']")).to_have_count(0)

    # Painter's order: the far side of the plane (smaller plane y) is drawn first.
    depths = [plane_point(c["hex"])[1] for c in drawn]
    assert depths == sorted(depths)

    # The ghost of a climbing plot ends at its own altitude, on a stalk of its own.
    scene = scene_of(server, created)
    climbing = [
        o for ship in scene["move_options"].values() for o in ship if o["end"]["altitude"] != o["path"][0]["altitude"]
    ]
    assert climbing, "avt-drift's first plots should climb"
    option = climbing[-1]
    page.locator(f"form.side-orders input[type=radio][value='{option['text']}']").check()
    ghost = page.locator("#ghost")
    expect(ghost).to_have_attribute("data-end", option["end"]["hex"])
    g = page.locator("#ghost .ghost-counter")
    gx, gy = tilted(option["end"]["hex"], option["end"]["altitude"])
    assert float(g.get_attribute("data-x") or "nan") == pytest.approx(gx, abs=SVG_TOLERANCE)
    assert float(g.get_attribute("data-y") or "nan") == pytest.approx(gy, abs=SVG_TOLERANCE)
    expect(page.locator("#ghost line.ghost-stalk")).to_have_count(1)
    page.screenshot(path=str(artefacts / "avt-03-3d-ghost.png"))


def test_clicking_a_hex_on_the_tilted_plane_picks_the_plot_ending_there(page: Page, server: Server) -> None:
    created = create_game(server, "avt-drift", AVT_SIDES)
    open_game(page, server, created)
    expect(page.locator("#map")).to_have_attribute("data-view", "3d")
    scene = scene_of(server, created)
    options = scene["move_options"]["Rafik"]
    ends = list(dict.fromkeys(o["end"]["hex"] for o in options))
    assert len(ends) >= 2

    def click_plane_hex(hex_text: str, tilted_view: bool) -> None:
        point = on_screen(page, tilted(hex_text) if tilted_view else plane_point(hex_text))
        # Nothing standing there would take the click instead of the plane.
        assert page.evaluate(HIT_JS, list(point)) != "counter", f"{hex_text} is covered by a counter"
        page.mouse.click(*point)

    def picked(hex_text: str) -> None:
        radio = page.locator(f"form.side-orders input[type=radio][data-ship='Rafik'][data-end='{hex_text}']").first
        expect(radio).to_be_checked()
        expect(page.locator("#ghost")).to_have_attribute("data-end", hex_text)

    # In 3-D the hex is drawn a tilted plane's depth away from where the flat map has it.
    click_plane_hex(ends[0], tilted_view=True)
    picked(ends[0])
    click_plane_hex(ends[-1], tilted_view=True)
    picked(ends[-1])

    # The same clicks in the flat view pick the same way (and the tilt is really undone there).
    page.click("#view-3d")
    expect(page.locator("#map")).to_have_attribute("data-view", "flat")
    click_plane_hex(ends[0], tilted_view=False)
    picked(ends[0])


@pytest.mark.parametrize(
    ("scenario", "sides"),
    [
        ("msc-duel", {"red": "human", "blue": "bot:greedy"}),
        ("vv5-dogfight", {"red": "human", "blue": "bot:greedy"}),
    ],
)
def test_games_without_altitude_stay_flat_with_no_3d_button(
    page: Page, server: Server, scenario: str, sides: dict[str, str]
) -> None:
    created = create_game(server, scenario, sides)
    open_game(page, server, created)
    expect(page.locator("#view-3d")).to_be_hidden()
    assert_flat(page)
    # The key does nothing where the view is not offered.
    page.locator("#map").focus()
    page.keyboard.press("3")
    assert_flat(page)
    expect(page.locator("#view-3d")).to_be_hidden()
