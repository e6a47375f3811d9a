"""Per-address token buckets kept in the database, so that servers sharing one PostgreSQL share the limits
(docs/web.md, *Deployment and limits*).

One row a kind of limit and client address: the tokens left and when they were counted, the wait
the last check answered, and the end of the address's cool-down. Each check is one
``INSERT ... ON CONFLICT DO UPDATE ... RETURNING`` (web/ratelimit.py, ``SharedBuckets``); rows idle
long enough to be full again are deleted. SQLite (one server) keeps its buckets in memory and
leaves the table empty.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision: str | None = "0011"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "rate_buckets",
        sa.Column("kind", sa.String(20), primary_key=True),
        sa.Column("address", sa.String(100), primary_key=True),
        # Seconds on the database's clock (or the clock a test hands in), as floats.
        sa.Column("tokens", sa.Float(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("wait", sa.Float(), nullable=False, server_default="0"),
        sa.Column("cool_until", sa.Float(), nullable=False, server_default="0"),
    )
    # The sweep deletes by age.
    op.create_index("ix_rate_buckets_at", "rate_buckets", ["at"])


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    op.drop_index("ix_rate_buckets_at", table_name="rate_buckets")
    op.drop_table("rate_buckets")
