"""The designer's workshop: each fleet's saved ship designs (docs/web.md, *The designer's workshop*).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision: str | None = "0009"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # A new table only: a fleet belongs to no game, and the key is the fleet token's hash.
    op.create_table(
        "fleet_designs",
        sa.Column("fleet", sa.String(64), primary_key=True),
        sa.Column("system", sa.String(40), primary_key=True),
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("design", sa.JSON(), nullable=False),
        sa.Column("saved", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    op.drop_table("fleet_designs")
