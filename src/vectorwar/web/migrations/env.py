"""Alembic environment: migrate the connection :func:`vectorwar.web.migrations.upgrade` passes in."""

from __future__ import annotations

from alembic import context

from vectorwar.web.store import Base


def run() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through vectorwar.web.migrations.upgrade(engine)")
    # SQLite cannot ALTER most things in place; batch mode rebuilds the table instead.
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


# Test collection imports every module; only run when Alembic has set up its context.
if getattr(context, "_proxy", None) is not None:
    run()
