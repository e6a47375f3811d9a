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
    # Lines stored before keys existed have none; NULLs never collide in a unique constraint.
    with op.batch_alter_table("chat_lines") as batch:
        batch.add_column(sa.Column("key", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_chat_lines_game_key", ["game_id", "key"])
    # Games stored before this column had their seeds drawn unless a request fixed one, which
    # cannot be told now: they are shown as drawn.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("seed_fixed", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_fixed")
    with op.batch_alter_table("chat_lines") as batch:
        batch.drop_constraint("uq_chat_lines_game_key", type_="unique")
        batch.drop_column("key")
