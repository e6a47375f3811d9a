"""A person plays through the browser: lobby, plotting with ghosts, firing, the result, replay.

Every test drives the real UI in Chromium against a real `vectorwar serve` process and saves
screenshots into the artefact directory printed at the start of the run.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import Server
from vectorwar.hexes import Hex

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

#: A fixed seed keeps the computer's moves, and so the whole game, the same on every run.
SEED = 5
MAX_HUMAN_ORDERS = 40
TIMEOUT_MS = 10_000


def wait_live(page: Page) -> None:
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)


def step_of(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-step") or "0")


def wait_step_after(page: Page, step: int) -> None:
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=step, timeout=TIMEOUT_MS)


def counter(page: Page, ship: str) -> Locator:
    return page.locator(f"#map .counter[data-id='{ship}']")


def hex_of(page: Page, ship: str) -> str:
    value = counter(page, ship).get_attribute("data-hex")
    if value is None:
        raise AssertionError(f"{ship} has no hex on the map")
    return value


def closest_option(page: Page, ship: str, target_hex: str) -> Locator:
    """The legal plot for `ship` that ends nearest `target_hex`, as its radio button."""
    radios = page.locator(f"form.side-orders input[type=radio][data-ship='{ship}']")
    target = Hex.parse(target_hex)
    ends = [radios.nth(i).get_attribute("data-end") or "" for i in range(radios.count())]
    best = min(range(len(ends)), key=lambda i: Hex.parse(ends[i]).distance(target))
    return radios.nth(best)


def shoot(page: Page, path: Path) -> None:
    page.screenshot(path=str(path))


def create_msc_duel_from_lobby(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
    page.select_option("#system", "msc")
    page.select_option("#scenario", "msc-duel")
    page.select_option("#side-red", "human")
    page.select_option("#side-blue", "bot:greedy")
    page.fill("#seed", str(SEED))
    page.click("#create")
    join = page.locator("#created li.player-link[data-sides='red'] a.join")
    expect(join).to_be_visible(timeout=TIMEOUT_MS)
    expect(page.locator("#created a.spectate")).to_be_visible()
    join.click()
    wait_live(page)


def test_msc_duel_against_greedy_from_lobby_to_replay(page: Page, server: Server, artefacts: Path) -> None:
    create_msc_duel_from_lobby(page, server)
    start_hex = hex_of(page, "Hawk")
    expect(page.locator(".status .your-turn")).to_be_visible()
    shoot(page, artefacts / "msc-01-start.png")

    # Plot: the ghost follows the chosen legal plot and ends on its end hex.
    choice = closest_option(page, "Hawk", hex_of(page, "Raven"))
    choice.check()
    end = choice.get_attribute("data-end")
    ghost = page.locator("#ghost")
    expect(ghost).to_have_attribute("data-end", end or "")
    expect(ghost).to_have_attribute("data-text", choice.get_attribute("value") or "")
    assert page.locator(".layer-reach polygon.reach").count() > 1
    assert end in {p.get_attribute("data-hex") for p in page.locator(".layer-reach polygon.reach").all()}
    shoot(page, artefacts / "msc-02-ghost.png")

    # Commit with the keyboard; the Hawk's counter moves to where the ghost was.
    before = step_of(page)
    choice.focus()
    page.keyboard.press("Enter")
    wait_step_after(page, before)
    expect(counter(page, "Hawk")).to_have_attribute("data-hex", end or "")
    assert end != start_hex
    shoot(page, artefacts / "msc-03-moved.png")

    fired = 0
    checked_a_bad_order = False
    for _ in range(MAX_HUMAN_ORDERS):
        page.wait_for_selector("form.side-orders, body[data-over=true]", timeout=TIMEOUT_MS)
        if page.locator("body").get_attribute("data-over") == "true":
            break
        before = step_of(page)
        if page.locator("form.side-orders input[type=radio][data-ship='Hawk']").count():
            closest_option(page, "Hawk", hex_of(page, "Raven")).check()
            page.click("form.side-orders button.commit")
        else:
            order = page.locator("form.side-orders input.order-text")
            if not checked_a_bad_order:
                # Live validation: a wrong order is refused with the rule's words before committing.
                order.fill("Hawk Q>Nobody")
                expect(page.locator("form.side-orders .check.bad")).not_to_be_empty(timeout=TIMEOUT_MS)
                order.fill("")
                checked_a_bad_order = True
            weapon = page.locator("form.side-orders button.weapon:not([data-targets=''])").first
            if weapon.count():
                weapon.click()
                expect(page.locator(".layer-arc polygon.arc").first).to_be_attached()
                counter(page, "Raven").click()
                expect(order).to_have_value(f"Hawk {weapon.get_attribute('data-weapon')}>Raven")
                expect(page.locator("form.side-orders .check.ok")).to_be_visible(timeout=TIMEOUT_MS)
                if not fired:
                    shoot(page, artefacts / "msc-04-aim.png")
                fired += 1
            else:
                order.fill("hold")
            order.press("Enter")
        page.wait_for_function(
            "s => Number(document.body.dataset.step) > s || document.body.dataset.over === 'true'",
            arg=before,
            timeout=TIMEOUT_MS,
        )
    else:
        pytest.fail(f"the game did not end within {MAX_HUMAN_ORDERS} orders")

    assert fired > 0, "the Hawk never fired through the weapon and target helpers"
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result.locator(".winners")).to_have_text(re.compile(r"wins?$|^A draw$"))
    expect(result.locator(".reason")).not_to_be_empty()
    expect(page.locator("#log li", has_text="Hawk fires").first).to_be_attached()
    shoot(page, artefacts / "msc-05-result.png")

    # Replay: the scrubber runs from the start to the last step.
    final_step = step_of(page)
    final_hex = hex_of(page, "Hawk")
    page.click("#replay-toggle")
    page.wait_for_selector("body[data-replay-step='0']", timeout=TIMEOUT_MS)
    expect(counter(page, "Hawk")).to_have_attribute("data-hex", start_hex)
    expect(page.locator("#orders form.side-orders")).to_have_count(0)
    expect(page.locator(".status .replaying")).to_have_text("replay: step 0")
    shoot(page, artefacts / "msc-06-replay-start.png")
    slider = page.locator("#replay-step")
    slider.focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("body[data-replay-step='1']", timeout=TIMEOUT_MS)
    expect(counter(page, "Hawk")).to_have_attribute("data-hex", end or "")
    # Page Down and Page Up move a turn at a time; the label says which moment is shown.
    game_id = page.evaluate("location.pathname.split('/').pop()")
    timeline = httpx.get(f"{server.url}/api/games/{game_id}/timeline").json()["steps"]
    # A turn starts at its first batch; from step 1 (turn 1 resolved) the next start is a later turn's.
    starts = [s["step"] for i, s in enumerate(timeline) if i == 0 or s["turn"] != timeline[i - 1]["turn"]]
    later = next(step for step in starts if step > 1)
    expect(page.locator("#replay-label")).to_contain_text(f"after {timeline[0]['clock']}")
    page.keyboard.press("PageDown")
    page.wait_for_selector(f"body[data-replay-step='{later}']", timeout=TIMEOUT_MS)
    expect(page.locator("#replay-label")).to_contain_text(f"after {timeline[later - 1]['clock']}")
    page.keyboard.press("PageUp")
    back = max(step for step in starts if step < later)
    page.wait_for_selector(f"body[data-replay-step='{back}']", timeout=TIMEOUT_MS)
    page.click("#replay-prev-turn")
    page.wait_for_selector("body[data-replay-step='0']", timeout=TIMEOUT_MS)
    expect(page.locator("#replay-label")).to_contain_text("before the first order")
    page.click("#replay-next-turn")
    page.wait_for_selector(f"body[data-replay-step='{starts[1]}']", timeout=TIMEOUT_MS)
    slider.focus()
    page.keyboard.press("End")
    page.wait_for_selector(f"body[data-replay-step='{final_step}']", timeout=TIMEOUT_MS)
    expect(counter(page, "Hawk")).to_have_attribute("data-hex", final_hex)
    expect(page.locator("#result")).to_be_visible()
    shoot(page, artefacts / "msc-07-replay-end.png")
    page.click("#replay-exit")
    expect(page.locator("body")).to_have_attribute("data-mode", "live")


def test_quick_start_vv5_dogfight_keeps_drafts_and_moves(page: Page, server: Server, artefacts: Path) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
    page.click("#quick-start")
    wait_live(page)
    expect(page.locator("#title")).to_have_text("Dogfight")
    # VV5 shows velocity as a vector marker tied to its ship, and in words.
    expect(page.locator("#map .vector-marker[data-ship='X1']")).to_have_count(1)
    expect(page.locator("#velocity-legend li[data-ship='X1'] .velocity")).not_to_be_empty()
    # The ship cards are a tab away from the orders.
    page.click("#tab-ships")
    expect(page.locator("#cards .card").first).to_be_visible()
    page.click("#tab-orders")

    x1 = page.locator("form.side-orders input[type=radio][data-ship='X1'][value='X1 1']")
    x2 = page.locator("form.side-orders input[type=radio][data-ship='X2']").first
    with page.expect_response(lambda r: "/drafts/" in r.url and r.request.method == "PUT", timeout=TIMEOUT_MS):
        x1.check()
    expect(page.locator("#ghost")).to_have_attribute("data-end", x1.get_attribute("data-end") or "")
    shoot(page, artefacts / "vv5-01-plotting.png")

    # A player who leaves and comes back finds the plot they were editing.
    page.reload()
    wait_live(page)
    expect(x1).to_be_checked()
    expect(page.locator("form.side-orders button.commit")).to_be_disabled()

    x2.check()
    x1_end = x1.get_attribute("data-end")
    x2_end = x2.get_attribute("data-end")
    before = step_of(page)
    page.click("form.side-orders button.commit")
    wait_step_after(page, before)
    expect(counter(page, "X1")).to_have_attribute("data-hex", x1_end or "")
    expect(counter(page, "X2")).to_have_attribute("data-hex", x2_end or "")
    expect(page.locator("#log li", has_text="X1 plots 1").first).to_be_attached()
    shoot(page, artefacts / "vv5-02-moved.png")


def test_spectator_sees_the_game_but_cannot_order(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
    page.click("#quick-start")
    wait_live(page)
    game_url = page.url.split("?")[0]
    page.goto(game_url + "?spectate=1")
    wait_live(page)
    expect(page.locator(".status .viewer")).to_have_text("spectating")
    expect(page.locator("form.side-orders")).to_have_count(0)
    expect(page.locator("#map .counter")).to_have_count(4)


def test_hot_seat_plot_taken_back_and_both_sides_plot(page: Page, server: Server, artefacts: Path) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
    page.select_option("#system", "vv5")
    page.select_option("#scenario", "vv5-dogfight")
    page.select_option("#side-red", "human")
    page.select_option("#side-blue", "human")
    page.check("#hotseat")
    page.click("#create")
    join = page.locator("#created li.player-link[data-sides='red,blue'] a.join")
    expect(join).to_be_visible(timeout=TIMEOUT_MS)
    join.click()
    wait_live(page)
    red = page.locator("form.side-orders[data-side='red']")
    blue = page.locator("form.side-orders[data-side='blue']")
    handover = page.locator("#handover")

    def ready_for(side: str) -> None:
        expect(handover).to_be_visible(timeout=TIMEOUT_MS)
        expect(handover).to_have_attribute("data-side", side)
        page.click("#handover-ready")
        expect(handover).to_be_hidden()

    def plot(form: Locator, ships: list[str]) -> None:
        for ship in ships:
            form.locator(f"input[type=radio][data-ship='{ship}']").first.check()

    # One side at a time: red first, blue's orders wait behind the hand-over.
    ready_for("red")
    expect(red).to_be_visible()
    expect(blue).to_be_hidden()
    plot(red, ["X1", "X2"])
    red.locator("button.commit").click()
    pending = page.locator("section.pending[data-side='red']")
    ready_for("blue")
    expect(pending).to_be_visible(timeout=TIMEOUT_MS)
    expect(blue).to_be_visible()
    shoot(page, artefacts / "hotseat-01-red-sent.png")

    # Taken back (red asks for it): the screen goes back to red, and red plots again.
    pending.get_by_role("button", name="Take it back").click()
    ready_for("red")
    expect(red).to_be_visible(timeout=TIMEOUT_MS)
    expect(pending).to_have_count(0)
    plot(red, ["X1", "X2"])
    red.locator("button.commit").click()
    ready_for("blue")
    expect(pending).to_be_visible(timeout=TIMEOUT_MS)
    before = step_of(page)
    plot(blue, ["Y1", "Y2"])
    blue.locator("button.commit").click()
    wait_step_after(page, before)
    expect(page.locator(".status .phase")).to_contain_text("turn 2")


def test_lobby_offers_the_systems_rule_options_and_the_game_gets_them(page: Page, server: Server) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
    page.select_option("#system", "vv5")
    page.select_option("#scenario", "vv5-dogfight")
    expect(page.locator("#options")).not_to_be_visible()
    page.click("#options-box summary")
    expect(page.locator("#options")).to_be_visible()
    honour = page.locator("#option-honour_rule")
    # The Dogfight plays Scenario 1 as written: honour and the shift by agreement start on.
    expect(honour).to_be_checked()
    expect(page.locator("#option-board_shift")).to_be_checked()
    honour.uncheck()
    page.select_option("#option-several_targets", "easier")
    page.click("#create")
    join = page.locator("#created li.player-link a.join").first
    expect(join).to_be_visible(timeout=TIMEOUT_MS)
    game_id = (join.get_attribute("href") or "").split("?")[0].rsplit("/", 1)[-1]
    chosen = httpx.get(f"{server.url}/api/games/{game_id}").json()["options"]
    assert chosen["honour_rule"] is False
    assert chosen["board_shift"] is True
    assert chosen["several_targets"] == "easier"
    assert chosen["shock"] is False
    # A scenario's own settings are the starting point: this VMS duel is fought with VV5 combat.
    page.select_option("#system", "vms")
    page.select_option("#scenario", "vms-capital-duel-vv5")
    expect(page.locator("#option-combat")).to_have_value("vv5")
    page.select_option("#scenario", "vms-capital-duel-msc")
    expect(page.locator("#option-combat")).to_have_value("msc")
