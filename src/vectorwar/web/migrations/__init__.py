"""Alembic migrations of the server's database, applied when the server starts.

They run from code with a Config built here, so no ``alembic.ini`` is needed;
``env.py`` takes the connection handed over in ``config.attributes``.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

HERE = Path(__file__).resolve().parent


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(HERE))
    return config


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database up to ``revision`` (by default the newest)."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)
