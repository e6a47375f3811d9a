"""How a batch ended the game, if it did: a concession or an end by agreement (docs/web.md, *Ending a game*).

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
    # Every batch stored before this column was one the rules resolved: "".
    with op.batch_alter_table("order_batches") as batch:
        batch.add_column(sa.Column("ending", sa.String(20), nullable=False, server_default=""))


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    with op.batch_alter_table("order_batches") as batch:
        batch.drop_column("ending")
