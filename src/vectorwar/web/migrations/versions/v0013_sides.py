"""One name for a side's id: the tables and columns that called it a seat call it a side.

``seats`` becomes ``sides`` and ``seat_contacts`` ``side_contacts``; every ``seat`` column becomes
``side`` and the JSON columns ``tokens.seats`` and ``table_clocks.seats`` become ``sides``; the
deadlines' events kept in ``table_clocks.events`` name the side under ``side``. Plain ``ALTER TABLE
... RENAME``, which PostgreSQL and SQLite (3.25 and later) both take, keeping every row.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision: str | None = "0012"
branch_labels: str | None = None
depends_on: str | None = None

#: (table, old column, new column), after the tables are renamed.
COLUMNS = (
    ("sides", "seat", "side"),
    ("tokens", "seats", "sides"),
    ("pending_plots", "seat", "side"),
    ("drafts", "seat", "side"),
    ("standing_orders", "seat", "side"),
    ("chat_lines", "seat", "side"),
    ("table_clocks", "seats", "sides"),
    ("side_contacts", "seat", "side"),
)


def upgrade() -> None:
    op.execute("ALTER TABLE seats RENAME TO sides")
    op.execute("ALTER TABLE seat_contacts RENAME TO side_contacts")
    for table, old, new in COLUMNS:
        op.execute(f"ALTER TABLE {table} RENAME COLUMN {old} TO {new}")
    _rename_event_key("seat", "side")


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    _rename_event_key("side", "seat")
    for table, old, new in COLUMNS:
        op.execute(f"ALTER TABLE {table} RENAME COLUMN {new} TO {old}")
    op.execute("ALTER TABLE side_contacts RENAME TO seat_contacts")
    op.execute("ALTER TABLE sides RENAME TO seats")


def _rename_event_key(old: str, new: str) -> None:
    clocks = sa.table("table_clocks", sa.column("game_id", sa.String), sa.column("events", sa.JSON))
    connection = op.get_bind()
    for game_id, events in connection.execute(sa.select(clocks.c.game_id, clocks.c.events)).all():
        stored = json.loads(events) if isinstance(events, str) else events
        renamed = [{(new if k == old else k): v for k, v in event.items()} for event in stored or []]
        if renamed != stored:
            connection.execute(clocks.update().where(clocks.c.game_id == game_id).values(events=renamed))
