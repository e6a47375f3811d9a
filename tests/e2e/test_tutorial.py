"""The guided tutorials in a real Chromium, played as a learner plays them: started from the lobby's
"Learn to play" list, each step's ringed controls clicked in turn until the tutorial says it is
complete; a wrong move and an illegal one are explained and not sent."""

from __future__ import annotations

import os
import shutil

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.conftest import Server, doc_screenshot
from vectorwar.tutorial import Step, builtin_tutorial, tutorial_paths

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 15_000


def start_from_lobby(page: Page, server: Server, tutorial_id: str) -> None:
    page.goto(server.url + "/")
    page.locator(f"button.learn[data-tutorial='{tutorial_id}']").click(timeout=TIMEOUT_MS)
    try:
        page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    except PlaywrightTimeoutError:
        pytest.fail(f"the tutorial's game page never went live: {page_state(page)}")
    page.wait_for_selector("#tutorial[data-index='0']", timeout=TIMEOUT_MS)


def page_state(page: Page) -> str:
    """Where the page is and what it says, for a failure: which page, its socket's state, the lobby's tutorial status
    line and the game page's error box (a start the server refused, a socket it turned away)."""
    found = {
        "url": page.url,
        "socket": page.evaluate("document.body.dataset.socket || ''"),
        "learn-status": page.evaluate("document.getElementById('learn-status')?.textContent || ''"),
        "error": page.evaluate("document.getElementById('error')?.textContent || ''"),
    }
    return "; ".join(f"{key} {value!r}" for key, value in found.items())


def use_ringed_controls(page: Page, step: Step) -> None:
    """Each control the step names, once the panel has ringed it: a plot or option chosen, the
    order line typed, a button pressed."""
    for selector in step.highlight:
        ringed = page.locator(f"{selector}.tutorial-spot").first
        ringed.wait_for(state="attached", timeout=TIMEOUT_MS)
        tag, kind = ringed.evaluate("e => [e.tagName, e.type || '']")
        if tag == "OPTION":
            ringed.locator("xpath=..").select_option(ringed.get_attribute("value"))
        elif tag == "INPUT" and kind == "radio":
            # A plain click, as a player's: the VMS composer redraws its menu on a pick, which check() reads
            # as the box not changing state.
            ringed.click()
        elif tag == "INPUT":
            ringed.fill(step.example)
        else:
            ringed.click()


def play_tutorial(page: Page, tutorial_id: str, shot_at: int | None = None) -> None:
    tutorial = builtin_tutorial(tutorial_id)
    panel = page.locator("#tutorial")
    for number, step in enumerate(tutorial.steps):
        expect(panel.locator(".tutorial-step")).to_have_text(step.text, timeout=TIMEOUT_MS)
        if number == shot_at:
            page.locator(f"{step.highlight[0]}.tutorial-spot").first.wait_for(state="attached", timeout=TIMEOUT_MS)
            doc_screenshot(page, "tutorial-step.png")
        use_ringed_controls(page, step)
        page.wait_for_function(
            "n => Number(document.querySelector('#tutorial').dataset.index) > n", arg=number, timeout=TIMEOUT_MS
        )
        # What the step's order did is told before the next step.
        expect(panel.locator(".tutorial-happened")).to_contain_text(step.after, timeout=TIMEOUT_MS)
    expect(panel).to_have_attribute("data-finished", "true", timeout=TIMEOUT_MS)
    expect(panel.locator(".tutorial-done")).to_contain_text(tutorial.done)


def test_avt_sample_game_one_played_through_by_its_ringed_controls(page: Page, server: Server) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    start_from_lobby(page, server, "avt-sample-1")
    # The fire step is the one pictured in the README (kept current with VECTORWAR_UPDATE_SCREENSHOTS=1).
    shot = 4 if os.environ.get("VECTORWAR_UPDATE_SCREENSHOTS") else None
    play_tutorial(page, "avt-sample-1", shot_at=shot)
    # The Triangle and the Square were eaten on the way, as the text's game goes.
    log = page.locator("#log")
    expect(log).to_contain_text("Square is destroyed")
    expect(log).to_contain_text("Triangle is destroyed")


@pytest.mark.slow
@pytest.mark.parametrize("tutorial_id", sorted(set(tutorial_paths()) - {"avt-sample-1"}))
def test_every_other_tutorial_is_completed_by_its_ringed_controls(page: Page, server: Server, tutorial_id: str) -> None:
    start_from_lobby(page, server, tutorial_id)
    play_tutorial(page, tutorial_id)


def test_a_wrong_move_and_an_illegal_one_are_explained_and_not_sent(page: Page, server: Server) -> None:
    start_from_lobby(page, server, "avt-sample-1")
    tutorial = builtin_tutorial("avt-sample-1")
    step_before = page.locator("body").get_attribute("data-step")
    form = page.locator("form.side-orders[data-side='blue']")
    explain = page.locator("#tutorial .tutorial-explain")
    # Legal, but not what the step asks: the step's own explanation.
    form.locator("input[type=radio][value='Rafik thrust 3']").check()
    form.locator("button.commit").click()
    expect(explain).to_be_visible(timeout=TIMEOUT_MS)
    expect(explain).to_contain_text(tutorial.steps[0].wrong)
    expect(form.locator(".check")).to_contain_text(tutorial.steps[0].wrong)
    # Illegal: the rules' own words (the same as play's refusal), naming the rule.
    form.locator("button.type-toggle").click()
    form.locator(".typed-order input").fill("Rafik thrust 9")
    form.locator("button.commit").click()
    expect(explain).to_contain_text("The rules refuse that", timeout=TIMEOUT_MS)
    expect(explain).to_contain_text("thrust 9")
    # Neither was sent: the game is where it was, the tutorial still on its first step.
    assert page.locator("body").get_attribute("data-step") == step_before
    expect(page.locator("#tutorial")).to_have_attribute("data-index", "0")
    # The controls the step names are ringed.
    expect(form.locator("button.commit.tutorial-spot")).to_have_count(1)
    # Rules at hand: the prompt links to the rule rows that apply, on pages served by the app.
    link = page.locator("#rule-links a[href='/rules/avt#rule-a5-166']")
    expect(link).to_have_count(1, timeout=TIMEOUT_MS)
