from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.helpers import throwaway_postgres
from vectorwar.web.app import create_app


@pytest.fixture(autouse=True)
def _data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Nothing a test does may touch the real user data directory.
    monkeypatch.setenv("VECTORWAR_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as c:
        yield c


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database URL: SQLite, and a throwaway PostgreSQL in the slow suite."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.db'}"
        return
    with throwaway_postgres() as url:
        yield url
