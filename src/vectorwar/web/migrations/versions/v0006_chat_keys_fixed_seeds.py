"""A chat line's idempotency key, unique within its game, so that a retried line is stored once; and
whether a game's seed was fixed by its creator (a practice game) rather than drawn by the server.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision: str | None = "0005"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Plain ADD COLUMN and CREATE INDEX, never a batch (copy and rename) on SQLite: copying the
    # games table would drop the old one, and with foreign keys on that deletes every row that
    # cascades from it.
    # Lines stored before keys existed have none; NULLs never collide in a unique index.
    op.add_column("chat_lines", sa.Column("key", sa.String(64), nullable=True))
    op.create_index("uq_chat_lines_game_key", "chat_lines", ["game_id", "key"], unique=True)
    # Games stored before this column had their seeds drawn unless a request fixed one, which
    # cannot be told now: they are shown as drawn.
    op.add_column("games", sa.Column("seed_fixed", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    op.drop_column("games", "seed_fixed")
    op.drop_index("uq_chat_lines_game_key", "chat_lines")
    op.drop_column("chat_lines", "key")
