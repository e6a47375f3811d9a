"""A game's secret version apart from its public one, and each seat's mark of its last secret change
(docs/web.md, *Several processes*).

A seat's secrets (its plot replaced before the prompt resolves, its draft, its standing orders)
move ``games.secret_version`` on and set that seat's ``seats.secret`` to it; everything else moves
``games.version`` on. A process checks the public version and the viewer's own marks before a view,
so nothing another seat's view is read from changes when a seat replaces a secret plot.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision: str | None = "0010"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    # Plain ADD COLUMNs, as in 0009 (a batch copy on SQLite would cascade-delete the rows hanging from games).
    op.add_column("games", sa.Column("secret_version", sa.Integer(), nullable=False, server_default="0"))
    op.add_column("seats", sa.Column("secret", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:  # pragma: no cover - the server only moves forward
    op.drop_column("seats", "secret")
    op.drop_column("games", "secret_version")
