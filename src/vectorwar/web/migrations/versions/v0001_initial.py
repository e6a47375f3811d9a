"""The first schema: games, seats, tokens, order batches, pending plots and drafts.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("system", sa.String(40), nullable=False),
        sa.Column("scenario_id", sa.String(200), nullable=False),
        sa.Column("title", sa.String(400), nullable=False),
        sa.Column("scenario", sa.JSON, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(100), primary_key=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("controller", sa.String(100), nullable=False),
    )
    op.create_table(
        "tokens",
        sa.Column("hash", sa.String(64), primary_key=True),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
    )
    op.create_index("ix_tokens_game_id", "tokens", ["game_id"])
    op.create_table(
        "order_batches",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("step", sa.Integer, primary_key=True),
        sa.Column("clock", sa.JSON, nullable=False),
        sa.Column("orders", sa.JSON, nullable=False),
    )
    op.create_table(
        "pending_plots",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(100), primary_key=True),
        sa.Column("clock", sa.String(200), nullable=False),
        sa.Column("text", sa.Text, nullable=False),
    )
    op.create_table(
        "drafts",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(100), primary_key=True),
        sa.Column("text", sa.Text, nullable=False),
    )


def downgrade() -> None:
    for table in ("drafts", "pending_plots", "order_batches", "tokens", "seats", "games"):
        op.drop_table(table)
