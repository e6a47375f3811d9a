"""One server per database: a second ``vectorwar serve`` on a database already served refuses to start.

Real server processes, as an operator starts them: the first holds its
claim for its life, a second on the same database exits with an error
naming the database and the first, and once the first is killed with
SIGKILL (no shutdown code runs) a new one starts at once.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.web.helpers import Server, free_port
from vectorwar.web.guard import DatabaseInUse, claim_database, lock_path

SERVE = [sys.executable, "-c", "from vectorwar.cli import app; app()", "serve"]


def second_server(db: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "VECTORWAR_DATA_DIR": str(data_dir)}
    command = [*SERVE, "--port", str(free_port()), "--db", db]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_a_second_server_on_a_served_database_refuses_and_a_killed_ones_database_is_free(
    db: str, tmp_path: Path
) -> None:
    first = Server(db, tmp_path / "data")
    first.start()
    try:
        assert first.process is not None
        gid = httpx.post(f"{first.url}/api/games", json={"scenario": "msc-duel", "seed": 3}).json()["id"]

        refused = second_server(db, tmp_path / "data")
        said = refused.stderr + refused.stdout
        assert refused.returncode != 0
        assert "vectorwar is at" not in said
        assert "is already served by another vectorwar server" in said
        assert db.split("://")[1].split("@")[-1] in said  # the database, named
        assert f"pid {first.process.pid}" in said  # and the server holding it
        # The first server was not disturbed.
        assert httpx.get(f"{first.url}/api/games/{gid}").status_code == 200

        first.kill()
        again = Server(db, tmp_path / "data")
        again.start()
        try:
            assert httpx.get(f"{again.url}/api/games/{gid}").status_code == 200
        finally:
            again.stop()
    finally:
        first.stop()


def test_a_claim_is_exclusive_until_released_and_memory_needs_none(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'games.db'}"
    claim = claim_database(url)
    with pytest.raises(DatabaseInUse) as refused:
        claim_database(f"sqlite:///{tmp_path / '.' / 'games.db'}")  # the same file, spelled otherwise
    assert str(tmp_path / "games.db") in str(refused.value)
    assert f"pid {os.getpid()}" in str(refused.value)
    claim.release()
    claim_database(url).release()
    assert lock_path("sqlite://") is None
    memory = claim_database("sqlite://")
    claim_database("sqlite://").release()
    memory.release()
