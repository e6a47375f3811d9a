"""Browser tests: Debian's Chromium driven by Playwright against a real `vectorwar serve` process.

`playwright install` cannot download browsers here, so the launch points at the system's
Chromium (see /work/shared/recipes/README.md). The server runs as a subprocess on a free
loopback port with its own data directory and SQLite file, exactly as a player starts it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORT = {"width": 1280, "height": 800}
#: A liveness bound, not a timing check: a loaded machine may take a minute to start a server.
SERVER_START_TIMEOUT_S = 120.0


#: Where the README's and the docs' screenshots live. A test run writes them only when asked
#: (``VECTORWAR_DOC_SCREENSHOTS=1``): running the suite must not rewrite tracked files.
DOCS_IMG = Path(__file__).resolve().parents[2] / "docs" / "img"


def doc_screenshot(page: Any, name: str) -> None:
    """Save ``page`` as docs/img/``name`` when ``VECTORWAR_DOC_SCREENSHOTS`` is set; otherwise nothing."""
    if os.environ.get("VECTORWAR_DOC_SCREENSHOTS"):
        DOCS_IMG.mkdir(exist_ok=True)
        page.screenshot(path=str(DOCS_IMG / name))


@dataclass(frozen=True)
class Server:
    url: str
    data_dir: Path
    log: Path


@pytest.fixture(scope="session")
def browser_type_launch_args(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if CHROMIUM is None:
        pytest.skip(
            "chromium is not installed: run scripts/install-test-tools (Debian packages chromium, chromium-driver)"
        )
    home = tmp_path_factory.mktemp("chromium-home")
    env = dict(os.environ)
    # Chromium would otherwise write its profile and caches into the real home directory.
    env.update({"HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache")})
    return {"executable_path": CHROMIUM, "args": CHROMIUM_ARGS, "env": env}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {**browser_context_args, "viewport": VIEWPORT}


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as res:
            return bool(res.status == 200)
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`vectorwar serve` as a real process on a free loopback port; stopped when the session ends."""
    root = tmp_path_factory.mktemp("server")
    data_dir = root / "data"
    data_dir.mkdir()
    port = _free_port()
    log = root / "server.log"
    env = {**os.environ, "VECTORWAR_DATA_DIR": str(data_dir)}
    # The console script next to this interpreter: the same command a player types.
    command = Path(sys.executable).with_name("vectorwar")
    cmd = [
        str(command) if command.exists() else "vectorwar",
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--db",
        f"sqlite:///{root / 'games.db'}",
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT_S
        while not _answers(f"{url}/api/systems"):
            if proc.poll() is not None:
                pytest.fail(f"vectorwar serve exited with {proc.returncode}:\n{log.read_text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"vectorwar serve did not answer within {SERVER_START_TIMEOUT_S} s:\n{log.read_text()}")
            time.sleep(0.1)
        yield Server(url, data_dir, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(autouse=True)
def no_script_errors(request: pytest.FixtureRequest) -> Iterator[None]:
    """Any uncaught error in the page's scripts fails the test that caused it."""
    if "page" not in request.fixturenames:
        yield
        return
    page = request.getfixturevalue("page")
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield
    if errors:
        pytest.fail("the page raised: " + "; ".join(errors))


@pytest.fixture(scope="session")
def artefacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go (printed so a failing run can be looked at)."""
    path = tmp_path_factory.getbasetemp() / "e2e-artefacts"
    path.mkdir(parents=True, exist_ok=True)
    print(f"\ne2e screenshots: {path}")
    return path
