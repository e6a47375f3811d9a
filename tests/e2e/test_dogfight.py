"""A newcomer plays the quick-start VV5 Dogfight against the computer to the end, through the UI only.

The quick start picks its own seed, so the game differs from run to run; the player's rule of
thumb (plot towards the nearest enemy without overshooting, fire whenever a target is offered)
ends every seed tried within the scenario's 15 turns.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import Server
from vectorwar.hexes import Hex

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

#: Plot, initiative, missiles and guns for 15 turns, with room to spare.
MAX_ORDERS = 80
TIMEOUT_MS = 10_000
SIDE = "red"
SHOT = re.compile(r"^X\d\b.* at Y\d\b.*rolls \d+[-+\d]*: (hit|miss)")
HIT_WORDS = re.compile(r"hit for \d+|takes the hit|loses \d+|is destroyed|knocked out")

PLOTS_JS = """els => els.map(e => ({ship: e.dataset.ship, end: e.dataset.end, value: e.value}))"""
COUNTERS_JS = """els => els.map(e => ({id: e.dataset.id, hex: e.dataset.hex, side: e.dataset.side,
  active: e.classList.contains('status-active')}))"""


def step_of(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-step") or "0")


def best_plots(page: Page, form: Locator) -> list[str]:
    """For each ship, the legal plot that closes with the nearest enemy now and after coasting a turn.

    In VV5 the move is the new velocity, so `end + (end - start)` is where the ship drifts next;
    weighing that keeps the ship from racing past the enemy and off the map.
    """
    counters: list[dict[str, Any]] = page.eval_on_selector_all("#map .counter", COUNTERS_JS)
    enemies = [Hex.parse(c["hex"]) for c in counters if c["side"] != SIDE and c["active"]]
    where = {c["id"]: Hex.parse(c["hex"]) for c in counters}
    plots: list[dict[str, str]] = form.locator("input[type=radio]").evaluate_all(PLOTS_JS)
    chosen: dict[str, tuple[int, str]] = {}
    for plot in plots:
        start, end = where[plot["ship"]], Hex.parse(plot["end"])
        dq, dr = end.minus(start)
        drift = end.shifted(dq, dr)
        score = min((end.distance(e) + drift.distance(e) for e in enemies), default=0)
        if plot["ship"] not in chosen or score < chosen[plot["ship"]][0]:
            chosen[plot["ship"]] = (score, plot["value"])
    return [value for _, value in chosen.values()]


def fire_everything(page: Page, form: Locator, first_volley: bool, artefacts: Path) -> None:
    """Each ship fires its first weapon at a legal target: by the map the first time, else by button."""
    order = form.locator("input.order-text")
    expect(order).to_have_value("hold")
    for group in form.locator("fieldset.ship-fire").all():
        ship = group.get_attribute("data-ship") or ""
        weapon = group.locator("button.weapon").first
        targets = (weapon.get_attribute("data-targets") or "").split(",")
        weapon.click()
        expect(weapon).to_have_attribute("aria-pressed", "true")
        # Only the weapon's legal targets are offered, on the map and as buttons.
        ringed = page.locator("#map .counter.targetable")
        expect(ringed).to_have_count(len(targets))
        assert {c.get_attribute("data-id") for c in ringed.all()} == set(targets)
        buttons = group.locator("button.target")
        assert {b.get_attribute("data-target") for b in buttons.all()} == set(targets)
        piece = buttons.first.get_attribute("data-piece") or ""
        if first_volley:
            page.locator(f"#map .counter.targetable[data-id='{targets[0]}']").click()
            # A second shot by button, then taken back with its chip: the order is one shot again.
            buttons.first.click()
            expect(form.locator(f"button.piece[data-ship='{ship}']")).to_have_count(2)
            shoot(page, artefacts / "dogfight-03-aiming.png")
            form.locator(f"button.piece[data-ship='{ship}']").last.click()
        else:
            buttons.first.click()
            if "*" in piece and not (artefacts / "dogfight-03-guns.png").exists():
                shoot(page, artefacts / "dogfight-03-guns.png")
        expect(form.locator(f"button.piece[data-ship='{ship}'][data-piece='{piece}']")).to_have_count(1)
    expect(form.locator(".check.ok")).to_be_visible(timeout=TIMEOUT_MS)
    assert (order.input_value()) != "hold"


def shoot(page: Page, path: Path) -> None:
    page.screenshot(path=str(path))


def test_newcomer_plays_the_quick_start_dogfight_to_the_end(page: Page, server: Server, artefacts: Path) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=TIMEOUT_MS)
    page.get_by_role("button", name="Play a VV5 Dogfight against the computer").click()
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    expect(page.locator("#title")).to_have_text("Dogfight")
    shoot(page, artefacts / "dogfight-01-start.png")

    volleys = 0
    checked_removal = False
    for n in range(MAX_ORDERS):
        page.wait_for_selector("form.side-orders, body[data-over=true]", timeout=TIMEOUT_MS)
        if page.locator("body").get_attribute("data-over") == "true":
            break
        before = step_of(page)
        form = page.locator(f"form.side-orders[data-side='{SIDE}']")
        if form.locator("input[type=radio]").count():
            for value in best_plots(page, form):
                form.locator(f"input[type=radio][value='{value}']").check()
            if n == 0:
                shoot(page, artefacts / "dogfight-02-plotting.png")
            form.locator("button.commit").click()
        elif form.locator("fieldset.ship-fire").count():
            fire_everything(page, form, not checked_removal, artefacts)
            checked_removal = True
            volleys += 1
            form.locator("input.order-text").press("Enter")
        else:
            # Nothing to fire at, or whose declarations come first: the checked examples answer.
            example = form.locator("button.example").first
            example.click()
            expect(form.locator(".check.ok")).to_be_visible(timeout=TIMEOUT_MS)
            form.locator("input.order-text").press("Enter")
        page.wait_for_function(
            "s => Number(document.body.dataset.step) > s || document.body.dataset.over === 'true'",
            arg=before,
            timeout=TIMEOUT_MS,
        )
    else:
        pytest.fail(f"the game did not end within {MAX_ORDERS} orders")

    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result.locator(".winners")).to_have_text(re.compile(r"wins?$|^A draw$"))
    expect(result.locator(".reason")).not_to_be_empty()
    assert volleys > 0, "red never had a target to fire at"
    log = [t.strip() for t in page.locator("#log li").all_inner_texts()]
    shots = [line for line in log if SHOT.search(line)]
    assert shots, "the log tells no shot of red's in words"
    if any(line.endswith("hit") or ": hit for" in line for line in log):
        assert any(HIT_WORDS.search(line) for line in log), "a hit without its damage in words"
    shoot(page, artefacts / "dogfight-04-result.png")
