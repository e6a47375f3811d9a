"""Set-up phases as panels of buttons (issue 20): the VV5 purchase and the MSC fleet build.

Every button writes an order in the engine's notation; the live check accepts it and the
commit plays it, so what the player buys or builds is what the game then fields. With
VECTORWAR_DOC_SCREENSHOTS=1 the purchase panel at 1366x768 is written to docs/img for the README.
"""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, doc_screenshot

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000


def create_game(server: Server, scenario: str, sides: dict[str, str], seed: int) -> dict[str, Any]:
    body = json.dumps({"scenario": scenario, "sides": sides, "seed": seed}).encode()
    request = urllib.request.Request(
        server.url + "/api/games", data=body, headers={"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=30) as res:
        created: dict[str, Any] = json.load(res)
    return created


def scene_of(server: Server, created: dict[str, Any]) -> dict[str, Any]:
    with urllib.request.urlopen(server.url + "/api" + created["players"][0]["url"], timeout=10) as res:
        scene: dict[str, Any] = json.load(res)
    return scene


def step_of(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-step") or "0")


def wait_past(page: Page, step: int) -> None:
    page.wait_for_function(
        "s => Number(document.body.dataset.step) > s || document.body.dataset.over === 'true'",
        arg=step,
        timeout=TIMEOUT_MS,
    )


def test_the_vv5_purchase_panel_buys_with_buttons(page: Page, server: Server, artefacts: Path) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    created = create_game(server, "vv5-dogfight-purchase", {"red": "human", "blue": "bot:greedy"}, seed=6)
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    form = page.locator("form.side-orders[data-side='red']")
    panel = form.locator(".setup-panel")
    expect(panel).to_be_visible(timeout=TIMEOUT_MS)
    # No text box sending the player to the command line: the help line gives way to the panel.
    expect(page.locator(".prompt-help")).to_have_count(0)
    expect(form.locator("input.order-text")).to_have_count(0)

    # The buttons are exactly the purchases the rules allow now, each with its cost and the design's card.
    offered = {o["order"]: o for o in scene_of(server, created)["setup"]["red"]["options"]}
    buttons = panel.locator("button.setup-option[data-order^='buy']")
    assert {b.get_attribute("data-order") for b in buttons.all()} == set(offered)
    assert all(" t" in (b.text_content() or "") for b in buttons.all())
    expect(panel.locator(".setup-stats").first).to_contain_text("agility")
    left = int(scene_of(server, created)["setup"]["red"]["left"])
    expect(panel.locator(".setup-left")).to_contain_text(f"{left} t to spend")

    pick = buttons.last
    order = pick.get_attribute("data-order") or ""
    pick.click()
    expect(pick).to_have_attribute("aria-pressed", "true")
    expect(panel.locator(".setup-left")).to_contain_text(f"{left - offered[order]['cost']} t left after this")
    expect(form.locator(".check.ok")).to_contain_text(order, timeout=TIMEOUT_MS)
    page.screenshot(path=str(artefacts / "setup-purchase.png"))
    doc_screenshot(page, "setup-purchase.png")
    # On a phone the panel stacks under the map and nothing scrolls sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    panel.scroll_into_view_if_needed()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    doc_screenshot(page, "setup-purchase-390.png")
    page.set_viewport_size({"width": 1366, "height": 768})

    before = step_of(page)
    form.locator("button.commit").click()
    wait_past(page, before)
    # Buy on with the panel (or finish) until the battle opens on the plot.
    for _ in range(6):
        page.wait_for_selector("form.side-orders[data-side='red'], body[data-over=true]", timeout=TIMEOUT_MS)
        if not form.locator(".setup-panel").count():
            break
        before = step_of(page)
        form.locator("button.setup-option").first.click()
        expect(form.locator(".check.ok")).to_be_visible(timeout=TIMEOUT_MS)
        form.locator("button.commit").click()
        wait_past(page, before)
    design, count = order.split()[2], int(order.split()[1])
    red = [c for c in scene_of(server, created)["counters"] if c["side"] == "red"]
    bought = [c for c in scene_of(server, created)["cards"] if c["side"] == "red"]
    assert len(red) >= count
    assert sum(1 for card in bought if design in card["title"].lower()) >= count


def test_the_msc_build_panel_builds_a_fleet(page: Page, server: Server, artefacts: Path) -> None:
    created = create_game(server, "msc-build", {"red": "human", "blue": "bot:greedy"}, seed=2)
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    form = page.locator("form.side-orders[data-side='red']")
    panel = form.locator(".setup-panel.setup-fleet")
    expect(panel).to_be_visible(timeout=TIMEOUT_MS)
    status = panel.locator(".setup-left")
    expect(status).to_contain_text("0 BP spent of 45 BP; 45 BP left")

    panel.locator("button.setup-option[data-order='scout']").click()
    expect(panel.locator(".setup-fleet li")).to_have_count(1)
    panel.get_by_role("button", name="Remove R1").click()  # taken back: nothing spent
    expect(status).to_contain_text("0 BP spent")
    ship1 = panel.locator("button.setup-option[data-order='ship1']")
    ship1.click()
    ship1.click()
    # A design of one's own: 5/5/5 with no weapons is 15 BP, the last of the 45.
    for label in ("ENGINE", "SHIELDS", "TO-HIT"):
        panel.get_by_label(label, exact=True).fill("5")
    custom = panel.locator("button.setup-custom")
    expect(custom).to_contain_text("5/5/5 · 15 BP")
    custom.click()
    expect(status).to_contain_text("45 BP spent of 45 BP; 0 BP left; 3 of 6 ships")
    expect(ship1).to_be_disabled()  # nothing left to spend
    expect(form.locator(".check.ok")).to_contain_text("R1 ship1; R2 ship1; R3 5/5/5", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artefacts / "setup-build.png"))

    before = step_of(page)
    form.locator("button.commit").click()
    wait_past(page, before)
    page.wait_for_selector("form.side-orders[data-side='red'] input[type=radio]", timeout=TIMEOUT_MS)
    red = sorted(c["id"] for c in scene_of(server, created)["counters"] if c["side"] == "red")
    assert red == ["R1", "R2", "R3"]


def test_the_stasis_pod_body_is_placed_with_a_button(page: Page, server: Server) -> None:
    created = create_game(server, "vv5-stasis-pod-place", {"red": "human", "blue": "bot:greedy"}, seed=4)
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    form = page.locator("form.side-orders[data-side='red']")
    buttons = form.locator(".setup-panel button.setup-option")
    expect(buttons).to_have_count(4, timeout=TIMEOUT_MS)  # the four hexes at the centre of the board
    assert [b.get_attribute("data-order") for b in buttons.all()] == [
        "place body H@4,3",
        "place body H@4,4",
        "place body H@5,3",
        "place body H@5,4",
    ]
    buttons.nth(3).click()
    expect(form.locator(".check.ok")).to_contain_text("place body H@5,4", timeout=TIMEOUT_MS)
    before = step_of(page)
    form.locator("button.commit").click()
    wait_past(page, before)
    # The computer puts the pod beside it, the feature is rolled, and the battle opens on the plot.
    page.wait_for_selector("form.side-orders[data-side='red'] input[type=radio]", timeout=TIMEOUT_MS)
    log = " ".join(e["text"] for e in scene_of(server, created)["events"])
    assert "red places the orbited body at H@5,4" in log
    assert "blue places the stasis pod" in log


def test_the_msc_deploy_panel_places_ships_and_picks_their_speeds(page: Page, server: Server, artefacts: Path) -> None:
    created = create_game(server, "msc-deploy", {"red": "human", "blue": "bot:greedy"}, seed=3)
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    form = page.locator("form.side-orders[data-side='red']")
    panel = form.locator(".setup-panel.setup-deploy")
    expect(panel).to_be_visible(timeout=TIMEOUT_MS)
    expect(panel.locator(".setup-deploy-ship")).to_have_count(3)
    # The hexes offered are the zone's only, the SPEEDs 0 to each ship's ENGINE (Hawk is Ship 1, ENGINE 3).
    hexes = panel.get_by_label("Hawk start hex").locator("option")
    expect(hexes).to_have_count(4 * 18)
    speeds = panel.get_by_label("Hawk starting SPEED").locator("option")
    assert [o.get_attribute("value") for o in speeds.all()] == ["0", "1", "2", "3"]

    panel.get_by_label("Hawk start hex").select_option("0,2")
    panel.get_by_label("Hawk starting SPEED").select_option("0")
    panel.get_by_label("Falcon start hex").select_option("3,16")
    panel.get_by_label("Falcon starting SPEED").select_option("4")
    expect(form.locator(".check.ok")).to_contain_text("Hawk 0,2 0; Kite 2,9 2; Falcon 3,16 4", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artefacts / "setup-deploy.png"))

    before = step_of(page)
    form.locator("button.commit").click()
    wait_past(page, before)
    page.wait_for_selector("form.side-orders[data-side='red'] input[type=radio]", timeout=TIMEOUT_MS)
    red = {c["id"]: c for c in scene_of(server, created)["counters"] if c["side"] == "red"}
    # The ships stand where they were placed, at the SPEEDs picked, as turn 1's plot opens.
    assert (red["Hawk"]["hex"], red["Kite"]["hex"], red["Falcon"]["hex"]) == ("0,2", "2,9", "3,16")
    assert (red["Hawk"]["velocity"], red["Falcon"]["velocity"]) == ("speed 0", "speed 4")


def test_the_refugees_interceptors_are_placed_with_buttons(page: Page, server: Server) -> None:
    """Refugees as the text sets it up: the interceptors place each ship ten hexes or more from the asteroid
    (the buttons offer those at ten, facing it), then the computer turns the refugees' ships on the rock."""
    created = create_game(server, "vv5-refugees-place", {"intercept": "human", "refugees": "bot:greedy"}, seed=3)
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    form = page.locator("form.side-orders[data-side='intercept']")
    chosen: list[str] = []
    for ship in ("Y1", "Y2"):
        buttons = form.locator(".setup-panel button.setup-option")
        # 60 hexes at ten from the asteroid; the first (the top of the ring) the same for both ships.
        expect(buttons.first).to_have_attribute("data-order", f"place {ship} C@3,1 C", timeout=TIMEOUT_MS)
        orders = [b.get_attribute("data-order") or "" for b in buttons.all()]
        assert all(o.startswith(f"place {ship} ") for o in orders)
        assert not any(o.split()[2] in chosen for o in orders)  # one starship a hex
        pick = orders[-1]
        chosen.append(pick.split()[2])
        buttons.nth(len(orders) - 1).click()
        expect(form.locator(".check.ok")).to_contain_text(pick, timeout=TIMEOUT_MS)
        before = step_of(page)
        form.locator("button.commit").click()
        wait_past(page, before)
    # The refugees lift off their chosen ways and turn 1 opens: no set-up panel is left.
    expect(page.locator("#log li.log-turn").first).to_be_attached(timeout=TIMEOUT_MS)
    expect(page.locator(".setup-panel")).to_have_count(0, timeout=TIMEOUT_MS)
    log = " ".join(e["text"] for e in scene_of(server, created)["events"])
    assert f"intercept places Y1 at {chosen[0]}" in log
    assert f"intercept places Y2 at {chosen[1]}" in log
    assert log.count("lifts off facing") == 3
