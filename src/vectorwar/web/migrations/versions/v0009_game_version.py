"""Each game's version, which every change to the game moves on by one (docs/web.md, *Several processes*).

Revision ID: 0009
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # A plain ADD COLUMN, as in 0007 (a batch copy on SQLite would cascade-delete the rows hanging from games).
    op.add_column("games", sa.Column("version", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    op.drop_column("games", "version")
