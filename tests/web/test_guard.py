"""Who may serve a database: one server per SQLite database; on PostgreSQL, servers of one schema.

Real server processes, as an operator starts them: the first holds its
claim for its life, a second on the same SQLite database exits with an
error naming the database and the first, and once the first is killed with
SIGKILL (no shutdown code runs) a new one starts at once. On PostgreSQL a
second server of the same version joins, and one of another is refused.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from tests.web.helpers import Server, free_port, throwaway_postgres
from vectorwar.web import guard
from vectorwar.web.guard import DatabaseInUse, claim_database, lock_path
from vectorwar.web.store import Store

SERVE = [sys.executable, "-c", "from vectorwar.cli import app; app()", "serve"]


def second_server(db: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "VECTORWAR_DATA_DIR": str(data_dir)}
    command = [*SERVE, "--port", str(free_port()), "--db", db]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)


def test_a_second_server_on_a_served_database_refuses_and_a_killed_ones_database_is_free(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
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
        assert str(tmp_path / "games.db") in said  # the database, named
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


@pytest.mark.slow
def test_postgres_is_shared_by_servers_of_one_schema_and_refused_to_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(guard, "POSTGRES_GRACE", 0.5)
    with throwaway_postgres() as url:
        # Nobody serves an empty database: the first claims it alone, to migrate it.
        first = claim_database(url)
        assert first.alone
        with pytest.raises(DatabaseInUse, match="holds the database alone"):
            claim_database(url)
        Store(url).close()
        first.settle()
        second = claim_database(url)  # the same version joins
        assert not second.alone
        with pytest.raises(DatabaseInUse) as refused:
            claim_database(url, head="0001")
        said = str(refused.value)
        assert f"migration {guard._newest_migration()} and this one is at 0001" in said
        assert f"pid {os.getpid()}" in said  # a server holding it, named
        first.release()
        second.release()
        # Nobody serves it now: a server of another version may take it (and migrate it).
        other = claim_database(url, head="0001")
        assert other.alone
        other.release()

        # Real processes: the second server of one version starts beside the first.
        one, two = Server(url, tmp_path / "one"), Server(url, tmp_path / "two")
        one.start()
        try:
            two.start()
            gid = httpx.post(f"{one.url}/api/games", json={"scenario": "msc-duel", "seed": 3}).json()["id"]
            assert httpx.get(f"{two.url}/api/games/{gid}").status_code == 200
        finally:
            two.stop()
            one.stop()
