"""Each game's version, which every change to the game moves on by one, and its open offer to end the game
(docs/web.md, *Several processes*, *Ending a game*).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision: str | None = "0008"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # A plain ADD COLUMN, as in 0007 (a batch copy on SQLite would cascade-delete the rows hanging from games).
    op.add_column("games", sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("games", sa.Column("end_offer", sa.JSON(), nullable=True))
    op.add_column("games", sa.Column("end_note", sa.Text(), nullable=False, server_default=""))
    op.add_column("games", sa.Column("end_note_step", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    op.drop_column("games", "end_note_step")
    op.drop_column("games", "end_note")
    op.drop_column("games", "end_offer")
    op.drop_column("games", "version")
