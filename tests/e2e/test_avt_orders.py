"""Giving AV:T orders in the browser: the composer joins a thrust setting, a pivot and shots.

AV:T's one entry per ship carries movement, facing changes, fire and more, so the orders panel
builds it from the move radios, a select per order-piece group and the shot picker, previews the
composed text and checks it live. Every system's move picker also lets the player type the
order instead (checked the same way), shown here on a VV5 Dogfight.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server
from tests.e2e.test_avt_view import create_game, open_game, scene_of

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
AVT_SIDES = {"blue": "human", "chocolates": "bot:random"}


def step_of(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-step") or "0")


def wait_step_after(page: Page, step: int) -> None:
    page.wait_for_function("s => Number(document.body.dataset.step) > s", arg=step, timeout=TIMEOUT_MS)


def card_rows(scene: dict[str, object], title_start: str) -> dict[str, str]:
    cards = scene["cards"]
    assert isinstance(cards, list)
    card = next(c for c in cards if c["title"].startswith(title_start))
    return dict(card["rows"])


def test_avt_composer_thrust_pivot_and_lasers_in_one_entry(page: Page, server: Server, artefacts: Path) -> None:
    created = create_game(server, "avt-drift", AVT_SIDES)
    open_game(page, server, created)
    scene = scene_of(server, created)
    assert {"group": "pivot", "text": "pivot B/C"} in scene["order_pieces"]["Rafik"]

    form = page.locator("form.side-orders[data-side='blue']")
    composer = form.locator("fieldset.composer[data-ship='Rafik']")
    expect(composer).to_be_visible()
    preview = form.locator(".order-preview code")
    status = form.locator(".check")
    commit = form.locator("button.commit")
    expect(commit).to_be_disabled()

    # The thrust setting, with its ghost on the map.
    thrust = composer.locator("input[type=radio][value='Rafik thrust 2']")
    thrust.check()
    expect(page.locator("#ghost")).to_have_attribute("data-end", thrust.get_attribute("data-end") or "")
    expect(preview).to_have_attribute("data-order", "Rafik thrust 2")
    expect(status).to_have_text("✓ Rafik thrust 2", timeout=TIMEOUT_MS)

    # A pivot from its select.
    pivot = composer.locator("select[data-group='pivot']")
    expect(pivot.locator("option").first).to_have_text("—")
    pivot.select_option("pivot B/C")
    expect(preview).to_have_attribute("data-order", "Rafik thrust 2 pivot B/C")

    # A laser and its target: the weapon's arc shaded and its targets ringed on the map.
    composer.locator("button.weapon[data-weapon='A']").click()
    expect(page.locator("#map .counter.targetable[data-id='Square']")).to_have_count(1)
    composer.locator("button.target[data-piece='fire A1>Square']").click()
    # A ringed counter clicked on the map takes the mount's next laser.
    page.locator("#map .counter[data-id='Square']").click()
    expect(composer.locator("button.piece")).to_have_count(2)
    composed = "Rafik thrust 2 pivot B/C fire A1>Square fire A2>Square"
    expect(preview).to_have_attribute("data-order", composed)
    canonical = "Rafik thrust 2, pivot B/C, fire A1>Square A2>Square"
    expect(status).to_have_text(f"✓ {canonical}", timeout=TIMEOUT_MS)
    expect(status).to_have_class("check ok")

    # What is illegal only together shows the server's words: a pivot and a roll at once.
    roll = composer.locator("select[data-group='roll']")
    roll.select_option("roll stbd 1")
    expect(status).to_contain_text("pivot or roll, not both", timeout=TIMEOUT_MS)
    expect(status).to_have_class("check bad")
    roll.select_option("")
    expect(status).to_have_text(f"✓ {canonical}", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artefacts / "avt-orders-01-composer.png"))

    # Enter on a select commits, like a radio.
    before = step_of(page)
    pivot.focus()
    page.keyboard.press("Enter")
    wait_step_after(page, before)

    after = scene_of(server, created)
    rows = card_rows(after, "Rafik")
    assert rows["thrust"].startswith("2"), rows
    assert rows["pivot"].startswith("pivot B/C:"), rows
    texts = [e["text"] for e in after["events"]]
    assert any("thrust 2, pivot B/C, fire A1>Square A2>Square" in t for t in texts), texts[-12:]
    assert sum(1 for e in after["events"] if e["kind"] == "LaserFired") == 2
    # A pivot under way: the next segment offers no other facing change.
    groups = {p["group"] for p in after["order_pieces"]["Rafik"]}
    assert not groups & {"pivot", "roll"}
    expect(
        page.locator("form.side-orders fieldset.composer[data-ship='Rafik'] select[data-group='pivot']")
    ).to_have_count(0)
    page.screenshot(path=str(artefacts / "avt-orders-02-committed.png"))


def test_avt_composer_keeps_a_draft_and_types_what_it_cannot_show(page: Page, server: Server) -> None:
    created = create_game(server, "avt-drift", AVT_SIDES)
    open_game(page, server, created)
    form = page.locator("form.side-orders[data-side='blue']")
    composer = form.locator("fieldset.composer[data-ship='Rafik']")
    composer.locator("input[type=radio][value='Rafik hold']").check()
    with page.expect_response(lambda r: "/drafts/" in r.url and r.request.method == "PUT", timeout=TIMEOUT_MS):
        composer.locator("select[data-group='bias']").select_option("bias C")
    expect(form.locator(".order-preview code")).to_have_attribute("data-order", "Rafik bias C")

    # Back again: the draft is shown in the controls.
    page.reload()
    open_game(page, server, created)
    composer = page.locator("form.side-orders fieldset.composer[data-ship='Rafik']")
    expect(composer.locator("input[type=radio][value='Rafik hold']")).to_be_checked()
    expect(composer.locator("select[data-group='bias']")).to_have_value("bias C")

    # Typed in a form the controls cannot show (commas), it reopens as typed text.
    toggle = page.locator("form.side-orders button.type-toggle")
    toggle.click()
    typed = page.locator("form.side-orders input.order-text")
    expect(typed).to_have_value("Rafik bias C")
    with page.expect_response(lambda r: "/drafts/" in r.url and r.request.method == "PUT", timeout=TIMEOUT_MS):
        typed.fill("Rafik bias C, thrust 1")
    expect(page.locator("form.side-orders .check")).to_have_text("✓ Rafik thrust 1, bias C", timeout=TIMEOUT_MS)
    page.reload()
    open_game(page, server, created)
    typed = page.locator("form.side-orders input.order-text")
    expect(typed).to_be_visible()
    expect(typed).to_have_value("Rafik bias C, thrust 1")
    expect(page.locator("form.side-orders fieldset.composer")).to_be_hidden()


def test_vv5_move_picker_can_type_the_order_instead(page: Page, server: Server, artefacts: Path) -> None:
    created = create_game(server, "vv5-dogfight", {"red": "human", "blue": "bot:greedy"}, seed=5)
    open_game(page, server, created)
    scene = scene_of(server, created)
    x2 = scene["move_options"]["X2"][0]["text"]
    form = page.locator("form.side-orders[data-side='red']")
    # VV5 plots stay a plain list: no composer without fire options or pieces at the same prompt.
    expect(form.locator("fieldset.composer")).to_have_count(0)
    form.locator("input[type=radio][value='X1 1']").check()

    toggle = form.locator("button.type-toggle")
    expect(toggle).to_have_text("Type the order instead")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    typed = form.locator("input.order-text")
    expect(typed).to_be_visible()
    expect(typed).to_be_focused()
    expect(typed).to_have_value("X1 1")
    expect(form.locator("fieldset.ship-plot").first).to_be_hidden()

    typed.fill("X1 1; X9 2")
    expect(form.locator(".check.bad")).not_to_be_empty(timeout=TIMEOUT_MS)
    typed.fill(f"X1 1; {x2}")
    expect(form.locator(".check.ok")).to_contain_text("✓", timeout=TIMEOUT_MS)
    page.screenshot(path=str(artefacts / "vv5-typed-order.png"))

    # Back to the lists: the typed plot shows in them.
    toggle.click()
    expect(form.locator(f"input[type=radio][data-ship='X2'][value='{x2}']")).to_be_checked()
    expect(form.locator("input[type=radio][value='X1 1']")).to_be_checked()
    expect(typed).to_be_hidden()

    toggle.click()
    expect(typed).to_have_value(f"X1 1; {x2}")
    before = step_of(page)
    typed.press("Enter")
    wait_step_after(page, before)
    expect(page.locator("#log li", has_text="X1 plots 1").first).to_be_attached()
