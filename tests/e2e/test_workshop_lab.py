"""The workshop and the lab in the browser (docs/lab.md, *The workshop end to end*): a lab report's sample
game opens in the replay, and a scenario made in the editor is played against the computer and sent to
the lab."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.cli.helpers import run
from tests.e2e.conftest import Server

pytestmark = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)",
)

TIMEOUT_MS = 10_000


def test_a_lab_reports_sample_game_opens_in_the_replay(page: Page, server: Server, tmp_path: Path) -> None:
    results = tmp_path / "duel.parquet"
    code, _out, err = run("lab", "run", "msc-duel", "-n", "2", "--workers", "0", "--out", str(results))
    assert code == 0, err
    code, _out, err = run("lab", "report", str(results), "--out", str(tmp_path / "report"))
    assert code == 0, err
    [sample] = (tmp_path / "report" / "samples").glob("*.json")
    assert "Watch a saved game" in (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    steps = len(json.loads(sample.read_text(encoding="utf-8"))["history"])

    page.goto(server.url + "/workshop")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
    page.set_input_files("#ws-watch", str(sample))
    page.wait_for_url("**/games/**?replay", timeout=TIMEOUT_MS)
    expect(page.locator("body")).to_have_attribute("data-mode", "replay", timeout=TIMEOUT_MS)
    expect(page.locator("#replay-label")).to_contain_text(f"0 / {steps}", timeout=TIMEOUT_MS)
    page.click("#replay-next")
    expect(page.locator("#replay-label")).to_contain_text(f"1 / {steps} · after turn 1", timeout=TIMEOUT_MS)
    page.click("#replay-exit")
    expect(page.locator("#result")).to_contain_text("wins", timeout=TIMEOUT_MS)


def test_a_file_that_is_no_finished_game_is_refused_in_words(page: Page, server: Server, tmp_path: Path) -> None:
    path = tmp_path / "notes.json"
    path.write_text('{"format": "something else"}', encoding="utf-8")
    page.goto(server.url + "/workshop")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
    page.set_input_files("#ws-watch", str(path))
    expect(page.locator("#ws-watch-message")).to_have_text(
        "notes.json: save file: not a vectorwar save file", timeout=TIMEOUT_MS
    )


#: Orders the person gives before the game must be over (a deployment, two turns of plots and fire).
MAX_ORDERS = 40


def test_a_scenario_with_start_zones_and_a_victory_option_goes_to_the_lab_and_is_played_to_its_end(
    page: Page, server: Server
) -> None:
    page.goto(server.url + "/workshop")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
    page.select_option("#sc-system", "msc")
    verdict = page.locator("#sc-verdict")
    expect(verdict).to_contain_text("Ready", timeout=TIMEOUT_MS)
    page.fill("#sc-title", "Zone trial")
    page.fill("#sc-turns", "2")

    # Start zones: each side's columns, checked by the set-up's own reading of them.
    page.check("#sc-zones")
    expect(page.locator("#sc-z1-cols0")).to_have_value("16")
    page.fill("#sc-z1-cols0", "2")
    expect(verdict).to_contain_text("Not ready", timeout=TIMEOUT_MS)
    expect(page.locator("#sc-problem")).to_contain_text("setup.deploy.zone.blue: the zone overlaps another side's")
    page.fill("#sc-z1-cols0", "16")
    expect(verdict).to_contain_text("Ready", timeout=TIMEOUT_MS)
    expect(page.locator("#sc-toml")).to_contain_text("[setup.deploy.zone.red]")

    # How to win: the system's victory options beside the turn limit, checked by the same code as set-up.
    page.select_option("#sc-opt-victory", "shields")
    page.fill("#sc-opt-victory_turns", "0")
    expect(verdict).to_contain_text("Not ready", timeout=TIMEOUT_MS)
    expect(page.locator("#sc-problem")).to_contain_text("victory_turns")
    page.fill("#sc-opt-victory_turns", "1")
    expect(verdict).to_contain_text("Ready", timeout=TIMEOUT_MS)
    expect(page.locator("#sc-toml")).to_contain_text('victory = "shields"')

    # Sent to the lab: a small run on the server, its table with intervals and the full run's command.
    page.fill("#sc-lab-games", "20")
    page.click("#sc-lab")
    table = page.locator("#sc-lab-table")
    expect(table.locator("tbody tr")).to_have_count(2, timeout=60_000)
    expect(page.locator("#sc-lab-summary")).to_contain_text("20 games (seeds 0-19), the greedy computer player")
    expect(table.locator("tr[data-side='red'] td.win")).to_contain_text("%")
    expect(page.locator("#sc-lab-command")).to_contain_text(
        "vectorwar lab run scenario.toml -n 1000 --side red=greedy --side blue=greedy"
    )

    # Played against the computer to its end: the person deploys, then plots and fires until turn 2 is over.
    page.select_option("#sc-bot", "random")
    page.click("#sc-play")
    page.wait_for_url("**/games/**", timeout=TIMEOUT_MS)
    page.wait_for_selector("body[data-socket=open]", timeout=TIMEOUT_MS)
    form = page.locator("form.side-orders[data-side='red']")
    expect(form.locator(".setup-panel.setup-deploy")).to_be_visible(timeout=TIMEOUT_MS)
    for _ in range(MAX_ORDERS):
        page.wait_for_selector("form.side-orders, body[data-over=true]", timeout=TIMEOUT_MS)
        if page.locator("body").get_attribute("data-over") == "true":
            break
        before = page.locator("body").get_attribute("data-step")
        radios = page.locator("form.side-orders input[type=radio]")
        if page.locator("form.side-orders .setup-panel").count() or radios.count():
            if radios.count():
                radios.first.check()
            page.click("form.side-orders button.commit")
        else:
            order = page.locator("form.side-orders input.order-text")
            order.fill("hold")
            order.press("Enter")
        page.wait_for_function(
            "s => document.body.dataset.step !== s || document.body.dataset.over === 'true'",
            arg=before,
            timeout=TIMEOUT_MS,
        )
    else:
        pytest.fail(f"the game did not end within {MAX_ORDERS} orders")
    expect(page.locator("#result")).to_be_visible(timeout=TIMEOUT_MS)


def test_the_lab_runs_first_game_opens_in_the_replay(page: Page, server: Server) -> None:
    page.goto(server.url + "/workshop")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)
    page.select_option("#sc-system", "msc")
    expect(page.locator("#sc-verdict")).to_contain_text("Ready", timeout=TIMEOUT_MS)
    page.fill("#sc-lab-games", "3")
    page.click("#sc-lab")
    expect(page.locator("#sc-lab-summary")).to_contain_text("3 games (seeds 0-2)", timeout=60_000)
    page.click("#sc-lab-watch")
    page.wait_for_url("**/games/**?replay", timeout=TIMEOUT_MS)
    expect(page.locator("body")).to_have_attribute("data-mode", "replay", timeout=TIMEOUT_MS)
    expect(page.locator("#replay-label")).to_contain_text("0 / ", timeout=TIMEOUT_MS)
    expect(page.locator("#title")).to_contain_text("My scenario")
