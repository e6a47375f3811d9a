"""Firing in one click, and queues the rules refuse that cannot be made, in every system's order forms.

Each target a ship can reach gets an "Every weapon at" button that queues every weapon reaching it
(the scene's `volley` pieces); a shot the rules would refuse after those already queued (the same
AV:T laser twice, a weapon's uses spent) is greyed out and a second press adds nothing. The VMS
composer's status line and Commit stay in view under its long menu of plots.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import Server
from tests.e2e.test_avt_view import create_game, open_game, scene_of
from tests.e2e.test_odds import MSC_CLOSE, create, drive_to_fire, open_page, scene

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 15_000
DUEL_SIDES = {"blue": "human", "red": "bot:random"}
RAFIK_AT_WASP = ["fire A1>Wasp", "fire A2>Wasp", "fire B1>Wasp", "fire C1>Wasp"]


def step_of(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-step") or "0")


def commit(page: Page) -> None:
    """Press Commit and wait for the game to move on."""
    before = step_of(page)
    page.locator("form.side-orders button.commit").first.click()
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=before, timeout=TIMEOUT_MS)


def volley(options: list[dict[str, Any]], target: str) -> list[str]:
    """The pieces one press at `target` queues from nothing chosen: each weapon's `volley` pieces, as often as
    marked, while the weapon's uses allow (the scenes used here have no units or budgets to mind)."""
    pieces: list[str] = []
    uses: dict[str, int] = {}
    for o in options:
        if o["target"] != target:
            continue
        for _ in range(o["volley"]):
            if o["limit"] and uses.get(o["weapon"], 0) + o["uses"] > o["limit"]:
                break
            uses[o["weapon"]] = uses.get(o["weapon"], 0) + o["uses"]
            pieces.append(o["piece"])
    return pieces


def in_view(page: Page, element: Locator) -> None:
    """`element` lies inside the viewport and nothing covers its centre."""
    box = element.bounding_box()
    size = page.viewport_size
    assert box is not None
    assert size is not None
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= size["height"], (box, size)
    assert box["x"] >= 0, box
    assert box["x"] + box["width"] <= size["width"], (box, size)
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert element.evaluate("(el, [x, y]) => el.contains(document.elementFromPoint(x, y))", [x, y])


def test_avt_one_click_fires_every_laser_that_reaches_the_wasp(page: Page, server: Server, artefacts: Path) -> None:
    created = create_game(server, "avt-duel-wasp", DUEL_SIDES)
    offered = [o["piece"] for o in scene_of(server, created)["fire_options"]["Rafik"] if o["target"] == "Wasp"]
    assert offered == RAFIK_AT_WASP
    open_game(page, server, created)
    composer = page.locator("form.side-orders fieldset.composer[data-ship='Rafik']")
    composer.locator("input[type=radio][value='Rafik hold']").check()
    every = composer.locator("button.target-all[data-target='Wasp']")
    expect(every).to_contain_text("+4")
    every.click()
    chips = composer.locator(".fire-chosen button.piece")
    expect(chips).to_have_count(4)
    preview = page.locator("form.side-orders .order-preview code")
    expect(preview).to_have_attribute("data-order", "Rafik " + " ".join(RAFIK_AT_WASP))
    # Every laser is firing: the button, and every weapon, has nothing more to add.
    expect(every).to_be_disabled()
    for mount in "ABC":
        expect(composer.locator(f"button.weapon[data-weapon='{mount}']")).to_be_disabled()
    status = page.locator("form.side-orders p.check")
    expect(status).to_have_text("✓ Rafik fire A1>Wasp A2>Wasp B1>Wasp C1>Wasp", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artefacts / "one-click-avt.png"))

    commit(page)
    after = scene_of(server, created)
    fired = [e["text"] for e in after["events"] if e["kind"] == "LaserFired" and e["text"].startswith("Rafik")]
    assert len(fired) == 4, fired
    assert {t.split(" at ")[0] for t in fired} == {f"Rafik fires {laser}" for laser in ("A1", "A2", "B1", "C1")}
    expect(page.locator("#log li", has_text="Rafik fires C1 at Wasp").first).to_be_attached()


def test_avt_one_laser_cannot_be_queued_twice(page: Page, server: Server) -> None:
    created = create_game(server, "avt-duel-wasp", DUEL_SIDES)
    open_game(page, server, created)
    composer = page.locator("form.side-orders fieldset.composer[data-ship='Rafik']")
    composer.locator("input[type=radio][value='Rafik hold']").check()
    chips = composer.locator(".fire-chosen button.piece")
    preview = page.locator("form.side-orders .order-preview code")

    composer.locator("button.weapon[data-weapon='B']").click()
    b1 = composer.locator("button.target[data-piece='fire B1>Wasp']")
    b1.click()
    expect(chips).to_have_count(1)
    expect(b1).to_be_disabled()
    expect(b1).to_have_attribute("title", "B1 is already firing: it fires once (A5.371)")
    # Its mount has no other laser: the weapon is spent too.
    expect(composer.locator("button.weapon[data-weapon='B']")).to_be_disabled()
    b1.click(force=True)
    expect(chips).to_have_count(1)
    expect(preview).to_have_attribute("data-order", "Rafik fire B1>Wasp")

    # The map takes a mount's next laser not yet firing, then refuses: each laser fires once.
    composer.locator("button.weapon[data-weapon='A']").click()
    wasp = page.locator("#map .counter[data-id='Wasp']")
    wasp.click()
    wasp.click()
    expect(chips).to_have_count(3)
    wasp.click()
    expect(page.locator("form.side-orders p.check")).to_contain_text("Not queued: A1 is already firing")
    expect(chips).to_have_count(3)
    expect(preview).to_have_attribute("data-order", "Rafik fire B1>Wasp fire A1>Wasp fire A2>Wasp")
    # One press adds what is left (C1), and pressed again nothing.
    every = composer.locator("button.target-all[data-target='Wasp']")
    expect(every).to_contain_text("+1")
    every.click()
    expect(chips).to_have_count(4)
    expect(every).to_be_disabled()
    every.click(force=True)
    expect(chips).to_have_count(4)
    expect(preview).to_have_attribute("data-order", "Rafik fire B1>Wasp fire A1>Wasp fire A2>Wasp fire C1>Wasp")


def test_msc_one_click_from_the_map_fires_every_weapon_that_reaches_the_target(page: Page, server: Server) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 4, scenario_toml=MSC_CLOSE)
    now = drive_to_fire(server, created, "red")
    options = now["fire_options"]["Hawk"]
    target = options[0]["target"]
    wanted = volley(options, target)
    # One shot per weapon: MSC weapons fire once a turn.
    assert sorted(wanted) == sorted({o["piece"] for o in options if o["target"] == target})
    open_page(page, server, created)
    every = page.locator(f"fieldset.ship-fire[data-ship='Hawk'] button.target-all[data-target='{target}']")
    # With no weapon armed, the target's counter clicked on the map brings its button up; Enter presses it.
    page.locator(f"#map .counter[data-id='{target}']").click()
    expect(every).to_be_focused()
    page.keyboard.press("Enter")
    line = page.locator("form.side-orders input.order-text")
    expect(line).to_have_value(f"Hawk {' '.join(wanted)}")
    expect(every).to_be_disabled()
    # Each weapon fires once: every one is spent.
    for weapon in {o["weapon"] for o in options if o["target"] == target}:
        expect(page.locator(f"button.weapon[data-ship='Hawk'][data-weapon='{weapon}']")).to_be_disabled()
    expect(page.locator("form.side-orders p.check")).to_contain_text("✓", timeout=TIMEOUT_MS)
    commit(page)
    fired = [e for e in scene(server, created)["events"] if e["kind"] == "Fired" and e["text"].startswith("Hawk")]
    assert len(fired) == len(wanted), fired


def test_vv5_one_click_fires_each_mount_whole_and_twice(page: Page, server: Server) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 3, scenario="vv5-dogfight")
    now = drive_to_fire(server, created, "red", guns=True)
    ship, options = next(
        (s, opts) for s, opts in now["fire_options"].items() if any(o["weapon"] != "msl" for o in opts)
    )
    target = next(o["target"] for o in options if o["weapon"] != "msl")
    wanted = volley(options, target)
    guns = [p for p in wanted if "*" in p]
    # Rapid fire: each mount's every gun, twice (the mount's whole limit).
    assert guns, wanted
    assert len(guns) == 2 * len({p.split("*")[0] for p in guns}), wanted
    open_page(page, server, created)
    every = page.locator(f"fieldset.ship-fire[data-ship='{ship}'] button.target-all[data-target='{target}']")
    every.click()
    expect(page.locator("form.side-orders input.order-text")).to_have_value(f"{ship} {' '.join(wanted)}")
    chips = page.locator(f".fire-chosen button.piece[data-ship='{ship}']")
    expect(chips).to_have_count(len(wanted))
    expect(every).to_be_disabled()
    every.click(force=True)
    expect(chips).to_have_count(len(wanted))
    expect(page.locator("form.side-orders p.check")).to_contain_text("✓", timeout=TIMEOUT_MS)
    commit(page)
    events = scene(server, created)["events"]
    fired = [e for e in events if e["kind"] == "GunsFired" and e["text"].startswith(f"{ship} fires")]
    assert len(fired) >= len(guns), fired


def test_vms_commit_and_status_stay_in_view_under_the_menu_of_plots(
    page: Page, server: Server, artefacts: Path
) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 5, scenario="vms-capital-duel-msc")
    now = scene(server, created)
    ship = next(iter(now["order_pieces"]))
    assert len(now["move_options"][ship]) > 50
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    composer = page.locator(f"fieldset.vms-composer[data-ship='{ship}']")
    expect(composer.locator("details.vms-menu")).to_have_attribute("open", "")
    commit_button = page.locator("form.side-orders button.commit")
    status = page.locator("form.side-orders p.check")
    expect(status).to_contain_text("✓", timeout=TIMEOUT_MS)
    in_view(page, commit_button)
    in_view(page, status)
    # Scrolled down the menu to a plot far below, both are still there; a bad plot's words too.
    far = composer.locator("input[type=radio]").nth(len(now["move_options"][ship]) - 1)
    far.scroll_into_view_if_needed()
    in_view(page, commit_button)
    in_view(page, status)
    page.screenshot(path=str(artefacts / "one-click-vms-1366.png"))
    page.locator("form.side-orders button.type-toggle").click()
    page.locator("form.side-orders input.order-text").fill(f"{ship} nonsense")
    expect(status).to_have_class("check bad", timeout=TIMEOUT_MS)
    in_view(page, status)
    # On a phone nothing scrolls sideways and Commit is reachable.
    page.set_viewport_size({"width": 390, "height": 844})
    commit_button.scroll_into_view_if_needed()
    in_view(page, commit_button)
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    page.screenshot(path=str(artefacts / "one-click-vms-390.png"))
