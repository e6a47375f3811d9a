"""Retake docs/lab.md's screenshots of the workshop end to end (docs/img/workshop-*.png).

Run from the repository root with the test tools installed (Playwright and Debian's Chromium)::

    PYTHONPATH=src .venv/bin/python tools/workshop_screenshots.py [--out docs/img]

It starts ``vectorwar serve`` on a free loopback port with a throwaway data directory, then drives
the workshop as a designer would: a ship with an illegal field and the rule that forbids it, the
same ship made legal and saved to the fleet, a scenario with start zones and a victory option that
uses it, the scenario sent to the lab, and the lab's first game in the replay. Each picture is one
part of the page, reduced to a 256-colour palette so the PNGs stay small.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from playwright.sync_api import Locator, Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_MS = 60_000
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def wait_up(url: str, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"vectorwar serve exited with {server.returncode}")
        try:
            with urllib.request.urlopen(url + "/api/systems", timeout=1) as answer:
                if answer.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(0.2)
    raise SystemExit("vectorwar serve did not answer within 120 s")


def small_png(path: Path) -> None:
    """The screenshot as a palette PNG: a page of flat colours loses nothing a reader sees."""
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow comes with the lab's matplotlib
        return
    with Image.open(path) as image:
        image.convert("RGB").quantize(256).save(path, optimize=True)


def shoot(target: Page | Locator, path: Path) -> None:
    # The field last typed in would show its focus ring.
    (target if isinstance(target, Page) else target.page).evaluate("document.activeElement.blur()")
    target.screenshot(path=str(path))
    small_png(path)
    print(f"{path} ({path.stat().st_size // 1024} KB)")


def take(page: Page, url: str, out: Path) -> None:
    page.goto(url + "/workshop")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=TIMEOUT_MS)

    # The designer: an illegal field shows the rule that forbids it.
    page.select_option("#ws-system", "msc")
    page.select_option("#ws-start", "ship1")
    page.fill("#ws-key", "lancer")
    page.fill("#f-name", "Lancer")
    page.fill("#f-engine", "9")
    expect(page.locator("#ws-verdict")).to_contain_text("Illegal", timeout=TIMEOUT_MS)
    shoot(page.locator(".verdict-panel"), out / "workshop-illegal.png")
    page.fill("#f-engine", "4")
    expect(page.locator("#ws-verdict")).to_contain_text("Legal", timeout=TIMEOUT_MS)
    page.click("#ws-save")
    expect(page.locator("#ws-fleet li[data-key='lancer']")).to_be_visible(timeout=TIMEOUT_MS)

    # The scenario editor: a fleet ship, start zones and how to win, checked as a new game would be.
    page.select_option("#sc-system", "msc")
    expect(page.locator("#sc-verdict")).to_contain_text("Ready", timeout=TIMEOUT_MS)
    page.fill("#sc-title", "Lancer trial")
    page.fill("#sc-turns", "12")
    page.select_option("#sc-s0-0-design", "fleet:lancer")
    page.check("#sc-zones")
    page.select_option("#sc-opt-victory", "shields")
    page.fill("#sc-opt-victory_turns", "8")
    expect(page.locator("#sc-toml")).to_contain_text('victory = "shields"', timeout=TIMEOUT_MS)
    expect(page.locator("#sc-verdict")).to_contain_text("Ready", timeout=TIMEOUT_MS)
    shoot(page.locator("#sc-editor"), out / "workshop-scenario.png")

    # Sent to the lab: a hundred games on the server.
    page.click("#sc-lab")
    expect(page.locator("#sc-lab-table tbody tr")).to_have_count(2, timeout=TIMEOUT_MS)
    shoot(page.locator(".lab-run"), out / "workshop-lab.png")

    # The run's first game in the replay, at its last turn.
    page.click("#sc-lab-watch")
    page.wait_for_url("**/games/**?replay", timeout=TIMEOUT_MS)
    expect(page.locator("body")).to_have_attribute("data-mode", "replay", timeout=TIMEOUT_MS)
    last = page.locator("#replay-step").get_attribute("max") or "0"
    page.locator("#replay-step").fill(last)
    expect(page.locator("body")).to_have_attribute("data-replay-step", last, timeout=TIMEOUT_MS)
    shoot(page, out / "workshop-replay.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img", help="where the PNGs go")
    args = parser.parse_args()
    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("chromium is not installed: run scripts/install-test-tools")
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        command = Path(sys.executable).with_name("vectorwar")
        env = {**os.environ, "VECTORWAR_DATA_DIR": str(Path(tmp) / "data")}
        serve = [str(command) if command.exists() else "vectorwar", "serve", "--host", "127.0.0.1"]
        serve += ["--port", str(port), "--db", f"sqlite:///{Path(tmp) / 'games.db'}"]
        server = subprocess.Popen(serve, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_up(url, server)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": 1200, "height": 800})
                take(page, url, args.out)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
