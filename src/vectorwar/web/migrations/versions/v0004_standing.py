"""Standing orders: how far the game may go on for a seat before it asks its player again.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision: str | None = "0003"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "standing_orders",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(100), primary_key=True),
        sa.Column("data", sa.JSON, nullable=False),
    )


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    op.drop_table("standing_orders")
