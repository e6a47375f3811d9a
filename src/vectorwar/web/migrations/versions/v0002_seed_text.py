"""Seeds as decimal text: a drawn seed has 128 bits, more than a BIGINT holds.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.BigInteger,
            type_=sa.String(80),
            existing_nullable=False,
            postgresql_using="seed::text",
        )


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    with op.batch_alter_table("games") as batch:
        batch.alter_column(
            "seed",
            existing_type=sa.String(80),
            type_=sa.BigInteger,
            existing_nullable=False,
            postgresql_using="seed::bigint",
        )
