"""``vectorwar serve`` as a player starts it: the printed address is the one it listens on."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

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
