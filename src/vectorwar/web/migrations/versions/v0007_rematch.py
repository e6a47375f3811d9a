"""The rematch a finished game led to, and the game a rematch was started from (docs/web.md, *Open seats and
rematches*).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # A plain ADD COLUMN (never a batch copy on SQLite: copying the games table would cascade-delete
    # every row that hangs from it). Games stored before it had no rematch.
    op.add_column("games", sa.Column("rematch", sa.String(40), nullable=True))
    op.add_column("games", sa.Column("rematch_of", sa.String(40), nullable=True))


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    op.drop_column("games", "rematch_of")
    op.drop_column("games", "rematch")
