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
