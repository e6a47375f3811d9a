"""How a batch ended the game, if it did: a concession or an end by agreement (docs/web.md, *Ending a game*).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision: str | None = "0004"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Every batch stored before this column was one the rules resolved: "".
    with op.batch_alter_table("order_batches") as batch:
        batch.add_column(sa.Column("ending", sa.String(20), nullable=False, server_default=""))


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    with op.batch_alter_table("order_batches") as batch:
        batch.drop_column("ending")
