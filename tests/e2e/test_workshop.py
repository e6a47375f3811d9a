"""The designer's workshop in the browser (docs/web.md, *The designer's workshop*).

A ship built with an illegal field shows the rule that forbids it; made legal it is saved to the
fleet and exported as a TOML file that `vectorwar design` accepts.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.cli.helpers import run
from tests.e2e.conftest import Server, doc_screenshot

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000


def test_an_illegal_field_shows_its_rule_then_a_legal_ship_is_saved_and_exported(
    page: Page, server: Server, tmp_path: Path
) -> None:
    page.goto(server.url + "/")
    page.click("#workshop-link")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
    page.select_option("#ws-system", "msc")
    page.select_option("#ws-start", "ship1")
    expect(page.locator("#ws-verdict")).to_have_text("Legal: this design follows the rules.", timeout=TIMEOUT_MS)
    expect(page.locator("#ws-card .card")).to_contain_text("BUILD POINTS", timeout=TIMEOUT_MS)

    page.fill("#ws-key", "lancer")
    page.fill("#f-name", "Lancer")
    page.fill("#f-engine", "9")
    verdict = page.locator("#ws-verdict")
    expect(verdict).to_contain_text("Illegal", timeout=TIMEOUT_MS)
    problem = page.locator("#ws-problems li[data-field='engine']")
    expect(problem).to_contain_text("less than or equal to 5")
    expect(problem.locator(".rule")).to_have_text("Rule: MSC 3.0")
    expect(page.locator(".design-form [data-field='engine']")).to_have_class("field broken")
    expect(page.locator("#ws-save")).to_be_disabled()

    page.fill("#f-engine", "4")
    expect(verdict).to_contain_text("Legal", timeout=TIMEOUT_MS)
    expect(page.locator("#ws-problems li")).to_have_count(0)
    expect(page.locator("#ws-card .card-rows")).to_contain_text("16 (ENGINE 4")
    page.click("#ws-save")
    expect(page.locator("#ws-message")).to_have_text("Saved lancer to your fleet.", timeout=TIMEOUT_MS)
    expect(page.locator("#ws-fleet li[data-key='lancer']")).to_contain_text("Lancer")
    doc_screenshot(page, "workshop.png")

    with page.expect_download() as info:
        page.click("#ws-export")
    path = tmp_path / "fleet.toml"
    info.value.save_as(path)
    code, out, err = run("design", "msc", str(path))
    assert code == 0, err
    assert "lancer: Lancer" in out
    assert "16 (ENGINE 4" in out


def test_lists_of_tables_are_edited_in_rows_and_a_read_only_system_shows_its_data(
    page: Page, server: Server, tmp_path: Path
) -> None:
    page.goto(server.url + "/workshop")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
    page.select_option("#ws-system", "vv5")
    page.select_option("#ws-start", "ghost")
    verdict = page.locator("#ws-verdict")
    expect(verdict).to_contain_text("Legal", timeout=TIMEOUT_MS)
    # A second gun mount does not fit in the Ghost's 5 t: the design rules say by how much.
    page.get_by_role("button", name="Add guns").click()
    page.select_option("#f-guns-1-arc", "aft180")
    page.fill("#f-guns-1-guns", "3")
    expect(verdict).to_contain_text("Illegal", timeout=TIMEOUT_MS)
    expect(page.locator("#ws-problems li").first).to_contain_text("Rule: VV5 Starship Design")
    page.locator("fieldset.item").nth(1).get_by_role("button", name="Remove").click()
    expect(verdict).to_contain_text("Legal", timeout=TIMEOUT_MS)

    # Imported designs open in the form, checked by the same rules.
    path = tmp_path / "mine.toml"
    path.write_text('[wasp]\nname = "Wasp"\nmass = 6\nacceleration = 3\nagility = 2\n', encoding="utf-8")
    page.set_input_files("#ws-import", str(path))
    expect(page.locator("#ws-message")).to_contain_text("Read 1 designs from mine.toml (1 legal)", timeout=TIMEOUT_MS)
    expect(page.locator("#ws-key")).to_have_value("wasp")
    expect(page.locator("#f-name")).to_have_value("Wasp")
    expect(verdict).to_contain_text("Legal", timeout=TIMEOUT_MS)

    page.select_option("#ws-system", "avt")
    expect(verdict).to_contain_text("Read only", timeout=TIMEOUT_MS)
    expect(page.locator("#ws-readonly")).to_contain_text("Rafik Mk. 1")
    expect(page.locator("#ws-form")).to_be_hidden()
    expect(page.locator("#ws-save")).to_be_hidden()


def test_a_scenario_made_in_the_editor_with_a_fleet_ship_is_played_to_its_end_against_the_computer(
    page: Page, server: Server
) -> None:
    page.goto(server.url + "/workshop")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
    # A design of the player's own, saved to the fleet, for the scenario to use.
    page.select_option("#ws-system", "msc")
    page.select_option("#ws-start", "ship2")
    page.fill("#ws-key", "brick")
    expect(page.locator("#ws-verdict")).to_contain_text("Legal", timeout=TIMEOUT_MS)
    page.click("#ws-save")
    expect(page.locator("#ws-fleet li[data-key='brick']")).to_be_visible(timeout=TIMEOUT_MS)

    page.select_option("#sc-system", "msc")
    verdict = page.locator("#sc-verdict")
    expect(verdict).to_contain_text("Ready", timeout=TIMEOUT_MS)
    page.fill("#sc-title", "Brick trial")
    page.fill("#sc-turns", "3")
    page.select_option("#sc-s0-0-design", "fleet:brick")
    page.fill("#sc-s1-0-at", "30,7")
    expect(verdict).to_contain_text("Not ready", timeout=TIMEOUT_MS)
    expect(page.locator("#sc-problem")).to_contain_text("sides.1.ships.0.at: hex 30,7 is not on the map")
    expect(page.locator("#sc-play")).to_be_disabled()
    page.fill("#sc-s1-0-at", "16,7")
    expect(verdict).to_contain_text("Ready", timeout=TIMEOUT_MS)
    expect(page.locator("#sc-toml")).to_contain_text("[designs.brick]")
    page.get_by_role("button", name="Add terrain").click()
    page.fill("#sc-t0-at", "10,3")
    page.fill("#sc-t0-kind", "nebula")
    expect(page.locator("#sc-warnings li")).to_contain_text("'nebula' is no kind", timeout=TIMEOUT_MS)
    page.fill("#sc-t0-kind", "blocking")
    expect(page.locator("#sc-warnings li")).to_have_count(0, timeout=TIMEOUT_MS)
    expect(page.locator("#sc-toml")).to_contain_text('kind = "blocking"')
    page.select_option("#sc-bot", "random")

    page.click("#sc-play")
    page.wait_for_url("**/games/**", timeout=TIMEOUT_MS)
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    expect(page.locator("#cards")).to_contain_text("brick", timeout=TIMEOUT_MS)
    ending = page.locator("#ending")
    ending.locator("summary").click()
    ending.get_by_role("button", name="Concede…").click()
    ending.get_by_role("button", name="Yes, concede").click()
    expect(page.locator("#result .winners")).to_have_text("blue wins", timeout=TIMEOUT_MS)


def test_the_workshop_fits_a_phone(page: Page, server: Server) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "/workshop")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
    expect(page.locator("#sc-verdict")).to_contain_text("Ready", timeout=TIMEOUT_MS)
    for system in ("msc", "vv5", "vms", "avt"):
        page.select_option("#ws-system", system)
        expect(page.locator("body")).to_have_attribute("data-system", system)
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= 390, system


def test_a_fleet_key_opens_the_same_fleet_in_another_browser(page: Page, server: Server) -> None:
    page.goto(server.url + "/workshop")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
    page.select_option("#ws-system", "msc")
    page.select_option("#ws-start", "scout")
    page.fill("#ws-key", "dart")
    expect(page.locator("#ws-verdict")).to_contain_text("Legal", timeout=TIMEOUT_MS)
    page.click("#ws-save")
    expect(page.locator("#ws-fleet li[data-key='dart']")).to_be_visible(timeout=TIMEOUT_MS)
    page.locator(".fleet-key summary").click()
    key = page.input_value("#ws-fleet-key")

    # A page of a new browser context: storage of its own, as another browser has.
    browser = page.context.browser
    assert browser is not None
    other = browser.new_page()
    try:
        other.goto(server.url + "/workshop")
        expect(other.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
        expect(other.locator("#ws-fleet li[data-key='dart']")).to_have_count(0)
        other.locator(".fleet-key summary").click()
        other.fill("#ws-fleet-key", "short")
        other.click("#ws-fleet-use")
        expect(other.locator("#ws-message")).to_contain_text("20 to 100 letters")
        other.fill("#ws-fleet-key", key)
        other.click("#ws-fleet-use")
        expect(other.locator("#ws-fleet li[data-key='dart']")).to_contain_text("Scout", timeout=TIMEOUT_MS)
    finally:
        other.close()
