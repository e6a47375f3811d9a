"""``vectorwar serve`` as a player starts it: the printed address is the one it listens on."""

from __future__ import annotations

import inspect
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from typer.testing import CliRunner

from vectorwar.cli import app
from vectorwar.cli.serve import serve_command
from vectorwar.web.ratelimit import RateLimits

SERVE = [sys.executable, "-c", "from vectorwar.cli import app; app()", "serve"]


def test_port_0_prints_the_port_it_got_and_that_address_answers(tmp_path: Path) -> None:
    env = {**os.environ, "VECTORWAR_DATA_DIR": str(tmp_path)}
    process = subprocess.Popen([*SERVE, "--port", "0"], env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.fullmatch(r"vectorwar is at (http://127\.0\.0\.1:(\d+)/)\n", line)
        assert found, line
        assert int(found.group(2)) > 0
        # Printed after binding: the address answers as soon as the app is up.
        for _ in range(100):
            try:
                answer = httpx.get(found.group(1) + "api/systems", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        assert answer.status_code == 200
    finally:
        process.terminate()
        process.wait(10)


def test_a_port_in_use_is_a_clear_error_and_no_address_is_printed(tmp_path: Path) -> None:
    env = {**os.environ, "VECTORWAR_DATA_DIR": str(tmp_path)}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [*SERVE, "--port", str(port)], env=env, capture_output=True, text=True, timeout=60, check=False
        )
    assert done.returncode != 0
    assert "vectorwar is at" not in done.stdout
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr + done.stdout


def test_the_rate_options_default_to_the_servers_own_limits() -> None:
    defaults = {name: p.default for name, p in inspect.signature(serve_command).parameters.items()}
    limits = RateLimits()
    for name in ("games_per_minute", "games_burst", "refusals_per_minute"):
        assert defaults[name] == getattr(limits, name), name


def test_a_rate_of_zero_is_refused_naming_the_option() -> None:
    done = CliRunner().invoke(app, ["serve", "--games-per-minute", "0"])
    assert done.exit_code == 2
    assert "--games-per-minute" in done.output


def test_a_server_started_with_a_burst_of_one_refuses_the_second_game(tmp_path: Path) -> None:
    env = {**os.environ, "VECTORWAR_DATA_DIR": str(tmp_path)}
    command = [*SERVE, "--port", "0", "--bot-workers", "0", "--games-burst", "1", "--games-per-minute", "0.01"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        found = re.fullmatch(r"vectorwar is at (http://127\.0\.0\.1:\d+/)\n", process.stdout.readline())
        assert found
        with httpx.Client(base_url=found.group(1), timeout=60) as client:
            body = {"scenario": "msc-duel", "hotseat": True}
            assert client.post("api/games", json=body).status_code == 201
            refused = client.post("api/games", json=body)
        assert refused.status_code == 429
        assert refused.json()["error"]["type"] == "TooManyGames"
        assert int(refused.headers["Retry-After"]) > 0
    finally:
        process.terminate()
        process.wait(10)
