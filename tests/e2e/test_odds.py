"""Odds before a shot, weapons in words, queues the rules refuse, and plots that leave the board.

A game is driven over the API to the first moment the person has shots to choose (the person's
plots fly at the nearest enemy; a bot plays the other side), then the browser takes over: the
fire panel must show the odds the rule system gives, and after the shot resolves the log line
must show the same number (and modifier) the odds named.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Locator, Page, Route, expect

from tests.e2e.conftest import Server, doc_screenshot
from vectorwar.hexes import Hex

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 15_000

MSC_CLOSE = """
title = "Close duel"
system = "msc"
max_turns = 10
[map]
width = 16
height = 12
[[sides]]
id = "red"
[[sides.ships]]
id = "Hawk"
design = "ship1"
at = "6,6"
facing = "B"
speed = 1
[[sides]]
id = "blue"
[[sides.ships]]
id = "Raven"
design = "ship3"
at = "10,5"
facing = "E"
speed = 1
"""


def create(server: Server, sides: dict[str, str], seed: int, **what: Any) -> dict[str, Any]:
    created: dict[str, Any] = httpx.post(
        f"{server.url}/api/games", json={"sides": sides, "seed": seed, **what}, timeout=60
    ).json()
    return created


def scene(server: Server, created: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = httpx.get(server.url + "/api" + created["players"][0]["url"], timeout=60).json()
    return found


def order_for(scene_data: dict[str, Any], side: str) -> str:
    """A plot flying every ship of `side` at the nearest enemy (a plot the list warns about, such as one
    leaving the board, last; the slower of two equal ends), or the other answers a prompt wants."""
    if not scene_data["move_options"]:
        # VV5's initiative winner names who declares first.
        return f"{side} first"
    enemies = [Hex.parse(c["hex"]) for c in scene_data["counters"] if c["side"] != side and c["status"] == "active"]
    parts = []
    for options in scene_data["move_options"].values():
        best = min(
            options,
            key=lambda o: (
                bool(o["warnings"]),
                min(Hex.parse(o["end"]["hex"]).distance(e) for e in enemies),
                len(o["path"]),
            ),
        )
        parts.append(best["text"])
    return "; ".join(parts)


def drive_to_fire(
    server: Server, created: dict[str, Any], side: str, turns: int = 40, guns: bool = False
) -> dict[str, Any]:
    """Give the person's orders over the API until the scene offers them shots (``guns``: gun shots); that scene.

    Shots not wanted are held.
    """
    game = created["id"]
    token = created["players"][0]["token"]
    for _ in range(turns):
        now = scene(server, created)
        if now["result"] is not None:
            break
        shots = [o for options in now["fire_options"].values() for o in options]
        if shots and side in now["my_turn"] and (not guns or any(o["weapon"] != "msl" for o in shots)):
            return now
        if side in now["my_turn"]:
            text = "hold" if shots else order_for(now, side)
            res = httpx.post(
                f"{server.url}/api/games/{game}/orders",
                json={"side": side, "text": text, "step": now["step"]},
                headers={"Authorization": f"Bearer {token}"},
                timeout=60,
            )
            assert res.status_code < 300, res.text
    raise AssertionError("no shot came up")


def open_page(page: Page, server: Server, created: dict[str, Any]) -> None:
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    page.wait_for_selector("button.helper.weapon", timeout=TIMEOUT_MS)


def fire_first_shot(page: Page, now: dict[str, Any], guns: bool = False) -> dict[str, Any]:
    """Press the first weapon (``guns``: the first gun) and its first target; the odds the scene gave that shot."""
    ship, option = next(
        (ship, o) for ship, options in now["fire_options"].items() for o in options if not guns or o["weapon"] != "msl"
    )
    weapon = page.locator(f"button.helper.weapon[data-ship='{ship}'][data-weapon='{option['weapon']}']")
    expect(weapon).to_contain_text(option["label"])
    weapon.click()
    target = page.locator(f"button.helper.target[data-piece='{option['piece']}']")
    expect(target).to_contain_text(option["odds"]["percent"])
    target.hover()
    detail = page.locator(".odds-detail")
    expect(detail).to_contain_text(option["odds"]["summary"])
    for modifier in option["odds"]["modifiers"]:
        expect(detail).to_contain_text(modifier["name"])
    target.click()
    odds: dict[str, Any] = option["odds"]
    return odds


def commit_and_read_log(page: Page, odds: dict[str, Any]) -> str:
    step = int(page.locator("body").get_attribute("data-step") or "0")
    page.locator("form.side-orders button.commit").first.click()
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=step, timeout=TIMEOUT_MS)
    line = page.locator("#log li", has_text=re.compile(rf"^{odds['ship']} (fires|launches)")).last
    expect(line).to_be_attached(timeout=TIMEOUT_MS)
    return line.inner_text()


def test_msc_odds_shown_before_the_shot_are_the_number_rolled_against(
    page: Page, server: Server, artefacts: Path
) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 4, scenario_toml=MSC_CLOSE)
    now = drive_to_fire(server, created, "red")
    open_page(page, server, created)
    odds = fire_first_shot(page, now)
    assert odds["dice"] == "d6"
    assert any(m["name"].startswith("range") for m in odds["modifiers"])
    page.set_viewport_size({"width": 1366, "height": 768})
    page.screenshot(path=str(artefacts / "fire-odds-msc.png"))
    text = commit_and_read_log(page, odds)
    assert f"needs {odds['need']} or less" in text, text


def test_vv5_gun_odds_name_every_modifier_and_the_log_agrees(page: Page, server: Server, artefacts: Path) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 3, scenario="vv5-dogfight")
    now = drive_to_fire(server, created, "red")
    open_page(page, server, created)
    page.set_viewport_size({"width": 1366, "height": 768})
    odds = fire_first_shot(page, now)
    assert odds["dice"] == "2d6"
    doc_screenshot(page, "fire-odds-1366.png")
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator(".odds-detail").scroll_into_view_if_needed()
    doc_screenshot(page, "fire-odds-390.png")
    page.set_viewport_size({"width": 1366, "height": 768})
    text = commit_and_read_log(page, odds)
    if odds["weapon"] == "msl":
        assert f"it will need {odds['need']}+" in text, text
    else:
        assert f"needs {odds['need']}+" in text, text
        modifier = f"{odds['modifier']:+d}" if odds["modifier"] else ""
        assert re.search(rf"rolls \d+{re.escape(modifier)}:", text), text


def test_vv5_missile_odds_show_the_range_the_targets_burn_leaves(page: Page, server: Server) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 3, scenario="vv5-dogfight")
    now = drive_to_fire(server, created, "red")
    ship, option = next(
        (ship, o)
        for ship, options in now["fire_options"].items()
        for o in options
        if o["weapon"] == "msl" and o["odds"]["range_of_chance"]
    )
    ends = option["odds"]["range_of_chance"]
    assert option["odds"]["percent"] == f"{ends['worst_percent']}–{ends['best_percent']}"
    open_page(page, server, created)
    page.locator(f"button.helper.weapon[data-ship='{ship}'][data-weapon='msl']").click()
    target = page.locator(f"button.helper.target[data-piece='{option['piece']}']")
    expect(target).to_contain_text(option["odds"]["percent"])
    target.hover()
    detail = page.locator(".odds-detail")
    expect(detail).to_contain_text(f"{ends['best_percent']} {ends['best_if']}")
    expect(detail).to_contain_text(f"{ends['worst_percent']} {ends['worst_if']}")


def test_vv5_gun_odds_shown_before_the_shot_are_the_number_and_modifier_rolled(page: Page, server: Server) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 3, scenario="vv5-dogfight")
    now = drive_to_fire(server, created, "red", guns=True)
    open_page(page, server, created)
    odds = fire_first_shot(page, now, guns=True)
    assert odds["dice"] == "2d6"
    assert odds["weapon"] != "msl"
    text = commit_and_read_log(page, odds)
    assert f"needs {odds['need']}+" in text, text
    modifier = f"{odds['modifier']:+d}" if odds["modifier"] else ""
    assert re.search(rf"rolls \d+{re.escape(modifier)}:", text), text


def test_a_third_burst_from_one_gun_is_not_queued(page: Page, server: Server) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 3, scenario="vv5-dogfight")
    now = drive_to_fire(server, created, "red", guns=True)
    ship, option = next(
        (ship, o) for ship, options in now["fire_options"].items() for o in options if o["weapon"] != "msl"
    )
    open_page(page, server, created)
    page.locator(f"button.helper.weapon[data-ship='{ship}'][data-weapon='{option['weapon']}']").click()
    target = page.locator(f"button.helper.target[data-piece='{option['piece']}']")
    for _ in range(option["limit"] // option["uses"]):
        target.click()
    expect(target).to_be_disabled()
    chips = page.locator(f".fire-chosen button.piece[data-ship='{ship}']")
    expect(chips).to_have_count(option["limit"] // option["uses"])


def test_holding_fire_with_a_target_in_arc_asks_once(page: Page, server: Server) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 4, scenario_toml=MSC_CLOSE)
    drive_to_fire(server, created, "red")
    open_page(page, server, created)
    asked: list[str] = []

    def dismiss(dialog: Any) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", dismiss)
    step = int(page.locator("body").get_attribute("data-step") or "0")
    page.locator("form.side-orders button.commit").first.click()
    expect(page.locator("form.side-orders p.check")).to_contain_text("Not sent")
    assert len(asked) == 1
    assert "Hold fire?" in asked[0]
    assert int(page.locator("body").get_attribute("data-step") or "0") == step
    # Asked once: committing the hold again sends it without a second question.
    page.locator("form.side-orders button.commit").first.click()
    page.wait_for_function("n => Number(document.body.dataset.step) > n", arg=step, timeout=TIMEOUT_MS)
    assert len(asked) == 1


def decline_to_hold_fire(page: Page) -> Locator:
    """Commit the untouched fire line (a hold) and say no when asked to hold fire; the status line, saying
    "Not sent"."""
    page.once("dialog", lambda dialog: dialog.dismiss())
    status = page.locator("form.side-orders p.check")
    page.locator("form.side-orders button.commit").first.click()
    expect(status).to_contain_text("Not sent")
    return status


def test_a_live_check_answered_late_does_not_hide_the_not_sent_line(page: Page, server: Server) -> None:
    # On a slow link the line's live check ("hold" is legal) can come back after the player has said no
    # to holding fire: its answer must not write "✓ hold" over "Not sent".
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 4, scenario_toml=MSC_CLOSE)
    drive_to_fire(server, created, "red")
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route("**/check", hold)
    open_page(page, server, created)
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the order line was never checked"
    status = decline_to_hold_fire(page)
    with page.expect_response("**/check"):
        for route in held:
            route.continue_()
    # One more turn of the page's event loop, so the answer has been handled.
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")
    expect(status).to_contain_text("Not sent")


def test_a_live_check_still_waiting_when_commit_is_pressed_is_not_sent(page: Page, server: Server) -> None:
    # The line's live check waits a moment after each change before it asks; if the player commits
    # (and says no to holding fire) inside that moment, the check must not go out and write "✓ hold"
    # over "Not sent". The page's clock is held so the check is still waiting when commit is pressed.
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 4, scenario_toml=MSC_CLOSE)
    drive_to_fire(server, created, "red")
    # Installed, the page's clock still runs; paused, a timer fires only when the test runs the clock on.
    page.clock.install(time=0)
    page.clock.pause_at(1000)
    checks: list[str] = []
    page.on("request", lambda request: checks.append(request.url) if request.url.endswith("/check") else None)
    open_page(page, server, created)
    status = decline_to_hold_fire(page)
    page.clock.run_for(2000)
    page.wait_for_timeout(500)
    expect(status).to_contain_text("Not sent")
    assert checks == [], checks


def test_a_plot_that_leaves_the_board_is_marked_in_the_list_and_on_the_map(page: Page, server: Server) -> None:
    edge = MSC_CLOSE.replace('at = "6,6"', 'at = "1,6"').replace('facing = "B"', 'facing = "E"', 1)
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 4, scenario_toml=edge)
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    now = scene(server, created)
    leaving = [o for o in now["move_options"]["Hawk"] if o["warnings"]]
    assert leaving, now["move_options"]["Hawk"]
    assert "leaves the board" in leaving[0]["warnings"][0]["reason"]
    warned = page.locator("label.option.warned")
    expect(warned.first).to_contain_text("leaves the board")
    warned.first.locator("input").check()
    expect(page.locator("#ghost.warned")).to_be_attached()
    fine = page.locator("label.option:not(.warned)").first
    fine.locator("input").check()
    expect(page.locator("#ghost.warned")).to_have_count(0)


def test_the_vms_composer_writes_a_legal_plot_from_thrusters_and_rotation(page: Page, server: Server) -> None:
    created = create(server, {"red": "human", "blue": "bot:greedy"}, 5, scenario="vms-capital-duel-msc")
    now = scene(server, created)
    assert now["prompt"]["kind"] == "plot", now["prompt"]
    ship = next(iter(now["order_pieces"]))
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(server.url + created["players"][0]["url"])
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    composer = page.locator(f"fieldset.vms-composer[data-ship='{ship}']")
    expect(composer).to_be_visible(timeout=TIMEOUT_MS)
    groups = [p["group"] for p in now["order_pieces"][ship]]
    burn_group = next(g for g in groups if g.startswith("aft"))
    burn = next(p["text"] for p in now["order_pieces"][ship] if p["group"] == burn_group)
    rotation = next(p["text"] for p in now["order_pieces"][ship] if p["group"] == "rotation")
    composer.locator(f"select[data-group='{burn_group}']").select_option(burn)
    composer.locator("select[data-group='rotation']").select_option(rotation)
    wanted = f"{ship} {burn} {rotation}"
    expect(page.locator(".order-preview code")).to_have_text(wanted)
    expect(page.locator("form.side-orders p.check")).to_contain_text("✓", timeout=TIMEOUT_MS)
    menu = [o["text"] for o in now["move_options"][ship]]
    if wanted in menu:
        expect(page.locator(f"#ghost[data-text='{wanted}']")).to_be_attached()
    doc_screenshot(page, "vms-composer-1366.png")
    # On a phone the composer stacks under the map and nothing scrolls sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    composer.scroll_into_view_if_needed()
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 390
    doc_screenshot(page, "vms-composer-390.png")
    page.set_viewport_size({"width": 1366, "height": 768})
    # A whole plot from the menu is the order as picked, whether or not the selects can show it.
    for option in (now["move_options"][ship][-1], now["move_options"][ship][1]):
        composer.locator(f"input[type=radio][value='{option['text']}']").dispatch_event("click")
        expect(page.locator(".order-preview code")).to_have_text(option["text"])
    expect(page.locator("form.side-orders p.check")).to_contain_text("✓", timeout=TIMEOUT_MS)
    step = int(page.locator("body").get_attribute("data-step") or "0")
    page.locator("form.side-orders button.commit").first.click()
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=step, timeout=TIMEOUT_MS)
    expect(page.locator("#log li", has_text=ship).first).to_be_attached()
