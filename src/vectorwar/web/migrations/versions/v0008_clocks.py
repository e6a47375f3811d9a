"""Tables' paces and clocks, and the seats' reminder addresses (docs/web.md, *Deadlines and clocks*).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision: str | None = "0007"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # New tables only: games stored before them have no pace, so nothing ever hurries them.
    op.create_table(
        "table_clocks",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("pace", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        sa.Column("due", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_table_clocks_due", "table_clocks", ["due"])
    op.create_table(
        "seat_contacts",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(100), primary_key=True),
        sa.Column("email", sa.String(320), nullable=False, server_default=""),
        sa.Column("webhook", sa.String(2000), nullable=False, server_default=""),
        sa.Column("remind_before", sa.Integer(), nullable=True),
    )


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    op.drop_table("seat_contacts")
    op.drop_index("ix_table_clocks_due", "table_clocks")
    op.drop_table("table_clocks")
