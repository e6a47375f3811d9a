"""The rules pages as a player reads them (issue 49): each rule in a player's words, the code and
the tests folded away until asked for, every prompt's rule link landing on the rule it names, the
rulings opening at the ruling linked, and every page readable on a 390 px phone."""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import Server, doc_screenshot
from tests.e2e.test_avt_view import create_game, open_game
from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.registry import systems
from vectorwar.web import rulebook

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000
#: A code path (``rules:prompt``, ``combat.py``, ``src/...``) or a test name (``file::test_x``).
CODE_OR_TEST = re.compile(r"\btest_[a-z0-9_]+|\w\.py\b|::|\bsrc/|\b[a-z_]+:[a-z_][\w.]*[a-z]")
SYSTEM_PAGES = ["avt", "msc", "vms", "vv5"]


def visible_text(page: Page) -> str:
    """What a reader sees: the rendered text (``innerText`` leaves out what is not displayed)."""
    text: str = page.evaluate("document.querySelector('main').innerText")
    return text


def prompt_hrefs() -> list[str]:
    """Every link any prompt of any built-in scenario (or a scenario of the player's own) offers."""
    hrefs: set[str] = set()
    for system in systems():
        scenarios = ["", *(sid for sid in scenario_paths() if builtin_scenario(sid).system == system)]
        for scenario in scenarios:
            words = [w for w, _, _ in rulebook.prompt_rules(system, scenario)]
            for phase in [p.name for p in systems()[system].manifest.phases] + words:
                hrefs |= {link["href"] for link in rulebook.prompt_links(system, f"turn 1, {phase}", scenario)}
    return sorted(hrefs)


def test_the_avt_rules_show_no_code_or_test_until_asked(page: Page, server: Server) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(server.url + "/rules/avt#rule-a5-431")
    toggle = page.locator("button.show-code")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(page.locator(".rule-say").first).to_be_visible()
    assert page.locator(".rule-say").count() > 100
    text = visible_text(page)
    assert "On a boundary between two regions the attacker chooses." in text
    found = CODE_OR_TEST.findall(text)
    assert not found, f"code or tests shown to a player: {found[:10]}"
    expect(page.locator(".rule-code").first).to_be_hidden()
    doc_screenshot(page, "rules-page.png")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(page.locator(".rule-code").first).to_be_visible()
    shown = visible_text(page)
    assert "test_avt_a5_431_aim_is_only_the_attackers_choice_on_a_boundary" in shown
    assert "fire:aim_choices" in shown
    toggle.click()
    expect(page.locator(".rule-code").first).to_be_hidden()


@pytest.mark.parametrize("name", [p for p in SYSTEM_PAGES if p != "avt"])
def test_no_system_page_shows_code_by_default(page: Page, server: Server, name: str) -> None:
    page.goto(server.url + f"/rules/{name}")
    expect(page.locator(".rule-say").first).to_be_visible()
    found = CODE_OR_TEST.findall(visible_text(page))
    assert not found, f"{name}: code or tests shown to a player: {found[:10]}"


def test_every_prompts_rule_link_lands_on_a_players_statement(page: Page, server: Server) -> None:
    hrefs = prompt_hrefs()
    assert any("avt#rule-" in h for h in hrefs)
    for href in hrefs:
        page.goto(server.url + href)
        anchor = href.partition("#")[2]
        if href == "/rules/rulings":
            # A system with no rulings of its own (the test fixture) links the index of rulings at the top.
            expect(page.locator("main h1").first).to_be_in_viewport()
            expect(page.locator("main a[href^='/rules/rulings-']").first).to_be_visible()
            continue
        if href.startswith("/rules/rulings-") and not anchor:
            # A system's rulings open at the top: its heading, its first ruling shown.
            expect(page.locator("main h1").first).to_be_in_viewport()
            expect(page.locator("section.rb-section h2").first).to_be_visible()
            continue
        if not anchor:
            # A phase with no rows of its own opens its system's rules at the top.
            expect(page.locator(".rule-say").first).to_be_in_viewport()
            continue
        target = page.locator(f"[id='{anchor}']")
        expect(target).to_be_visible()
        expect(target).to_be_in_viewport()
        assert target.evaluate("e => e.matches(':target')"), href
        if anchor.startswith("rule-"):
            # The rule as a player reads it, and nothing of the code.
            statement = target.locator(".rule-say")
            expect(statement).to_be_visible()
            expect(statement).to_have_text(re.compile(r"\w{3}.*\w"))
            assert not CODE_OR_TEST.search(target.inner_text()), href
        else:
            # A ruling: its section, its heading shown.
            expect(target.locator("h2")).to_be_visible()


def test_the_duels_prompt_links_land_on_the_duels_rules(page: Page, server: Server) -> None:
    created = create_game(server, "avt-duel-wasp", {"blue": "human", "red": "bot:random"})
    open_game(page, server, created)
    links = page.locator("#rule-links a.rule-link")
    expect(links.first).to_be_visible(timeout=TIMEOUT_MS)
    hrefs = [links.nth(k).get_attribute("href") for k in range(links.count())]
    expected = rulebook.prompt_links("avt", "orders", "avt-duel-wasp")
    assert hrefs == [link["href"] for link in expected]
    assert "/rules/avt#rule-a5-166" not in hrefs
    # Followed as a player does: a new tab, open at the rule, highlighted.
    with page.context.expect_page() as opened:
        links.first.click()
    rules = opened.value
    rules.wait_for_load_state()
    anchor = expected[0]["href"].partition("#")[2]
    target = rules.locator(f"[id='{anchor}']")
    expect(target).to_be_in_viewport()
    assert target.evaluate("e => e.matches(':target')")
    expect(target.locator(".rule-say")).to_contain_text("Thrust")
    assert target.evaluate("e => getComputedStyle(e).borderLeftColor") != rules.locator(".rule").nth(1).evaluate(
        "e => getComputedStyle(e).borderLeftColor"
    )


def test_a_ruling_link_opens_at_the_ruling_and_highlights_it(page: Page, server: Server) -> None:
    page.goto(server.url + "/rules/avt#rule-a5-431")
    page.locator("[id='rule-a5-431'] .rule-note a", has_text="AV:T attacker's choice").click()
    expect(page).to_have_url(re.compile(r"/rules/rulings-avt#avt-attackers-choice$"))
    ruling = page.locator("[id='avt-attackers-choice']")
    expect(ruling).to_be_in_viewport()
    expect(ruling.locator("h2")).to_have_text("AV:T attacker's choice")
    assert ruling.evaluate("e => e.matches(':target')")
    assert ruling.evaluate("e => getComputedStyle(e).outlineStyle") != "none"
    # Its code and tests stay folded away like the rules pages'.
    expect(ruling.locator("li.tech").first).to_be_hidden()


@pytest.mark.parametrize("name", sorted(rulebook.pages()))
def test_no_rules_page_scrolls_sideways_on_a_phone(page: Page, server: Server, name: str) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + f"/rules/{name}")
    expect(page.locator("main.rulebook")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # With the code and tests shown too (long test names wrap).
    page.locator("button.show-code").click()
    expect(page.locator("body.show-code")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_rules_index_lists_every_page(page: Page, server: Server) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "/rules")
    for name in rulebook.pages():
        expect(page.locator(f".rulebook-index a[href='/rules/{name}']")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_the_rulings_index_opens_a_ruling_on_its_systems_page(page: Page, server: Server) -> None:
    """The index of rulings lists them all; a title opens the system's page of rulings at that ruling."""
    page.goto(server.url + "/rules/rulings")
    links = page.locator("main a[href^='/rules/rulings-'][href*='#']")
    assert links.count() > 150
    page.locator("main").get_by_role("link", name="AV:T attacker's choice", exact=True).click()
    expect(page).to_have_url(re.compile(r"/rules/rulings-avt#avt-attackers-choice$"))
    ruling = page.locator("[id='avt-attackers-choice']")
    expect(ruling).to_be_in_viewport()
    assert ruling.evaluate("e => e.matches(':target')")
    expect(page.locator("main h1")).to_have_text("AV:T rulings")
