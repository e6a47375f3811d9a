"""Who may serve a database: a ``vectorwar serve`` claims its database for as long as it runs.

SQLite has one server per database. The service keeps each game in memory
and writes every change through (docs/web.md, "Deployment and limits"), and
only on PostgreSQL does it check a game's version before each use and hear
other servers' changes (web/store.py, web/fanout.py). So on SQLite a second
server refuses to start.

On PostgreSQL any number of servers share the database, provided they run
the same schema: each holds a shared claim, and a server whose migrations
differ from the database's while others serve it refuses to start, since
bringing the schema to its own version would change it under them. A
server that finds nobody serving claims the database alone while it
migrates (:meth:`Claim.settle` then shares it).

The claim is a lock the operating system or the database drops by itself
when the process dies, however it dies, so a server killed with SIGKILL
can be started again at once:

* SQLite: an exclusive ``flock`` on a file beside the database
  (``games.db.serve-lock``), held open for the process's life;
* PostgreSQL: a session-level advisory lock (shared, or exclusive while
  migrating) held on a connection of its own for the process's life.

An in-memory SQLite database belongs to its process anyway and needs no claim.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.pool import NullPool

__all__ = ["ADVISORY_KEY", "Claim", "DatabaseInUse", "claim_database", "lock_path"]

#: The advisory lock's two keys on PostgreSQL: "vwar" and the server's claim.
ADVISORY_KEY = (0x76776172, 1)
#: How long a new server waits for PostgreSQL to notice that the last holder died (its session ends
#: when the server sees the dropped connection, a moment after the process is gone).
POSTGRES_GRACE = 5.0


class DatabaseInUse(RuntimeError):
    """Another server holds the database; this one must not serve it."""

    def __init__(self, database: str, holder: str, why: str = "") -> None:
        self.database = database
        self.holder = holder
        super().__init__(
            f"the database {database} is already served by another vectorwar server ({holder}); "
            + (why or "one SQLite database has one server: stop that one first, or give this one another --db")
        )


@dataclass(eq=False)
class Claim:
    """A database claimed by this process; :meth:`release` gives it up (so does the process's end)."""

    database: str
    _fd: int | None = None
    _connection: Connection | None = None
    #: Held alone (PostgreSQL, to migrate): :meth:`settle` shares it.
    alone: bool = False

    def settle(self) -> None:
        """Share a PostgreSQL database claimed alone to migrate it, now that it is up to date: others may join."""
        if self._connection is None or not self.alone:
            return
        # The session takes the shared lock beside its exclusive one, then lets the exclusive go: never unclaimed.
        self._connection.execute(text(f"SELECT pg_advisory_lock_shared({ADVISORY_KEY[0]}, {ADVISORY_KEY[1]})"))
        self._connection.execute(text(f"SELECT pg_advisory_unlock({ADVISORY_KEY[0]}, {ADVISORY_KEY[1]})"))
        self._connection.commit()
        self.alone = False

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file drops the lock
            self._fd = None
        if self._connection is not None:
            try:
                self._connection.close()  # the session's end drops its advisory locks
            finally:
                self._connection.engine.dispose()
                self._connection = None


def claim_database(url: str, head: str | None = None) -> Claim:
    """Claim ``url``'s database for this process; raises :class:`DatabaseInUse` when it may not serve it.

    ``head``: the migration this server's schema is at (default: the newest it knows; tests give others).
    """
    parsed = make_url(url)
    shown = parsed.render_as_string(hide_password=True)
    if parsed.get_backend_name() == "sqlite":
        path = lock_path(url)
        return Claim(shown) if path is None else _claim_file(shown, path)
    if parsed.get_backend_name() == "postgresql":
        return _claim_postgres(url, shown, head or _newest_migration())
    # Another database (none is supported yet): nothing to lock it with, so no claim.
    return Claim(shown)


def lock_path(url: str) -> Path | None:
    """The file whose lock claims an SQLite database; ``None`` for one in memory."""
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file::memory:"):
        return None
    real = Path(os.path.realpath(database))
    return real.with_name(real.name + ".serve-lock")


def _holder_note() -> str:
    return f"pid {os.getpid()} on {socket.gethostname()}"


def _claim_file(shown: str, path: Path) -> Claim:
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if not _try_lock(fd):
            holder = os.pread(fd, 400, 0).decode("utf-8", "replace").strip() or "its process is not named"
            raise DatabaseInUse(shown, f"{holder}; lock file {path}")
        # Who holds it, for the message a second server gives.
        os.ftruncate(fd, 0)
        os.pwrite(fd, _holder_note().encode(), 0)
    except BaseException:
        os.close(fd)
        raise
    return Claim(shown, _fd=fd)


if sys.platform == "win32":  # pragma: no cover - the servers run on Unix; kept so Windows still starts

    def _try_lock(fd: int) -> bool:
        import msvcrt

        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

else:

    def _try_lock(fd: int) -> bool:
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True


def _newest_migration() -> str:
    from alembic.script import ScriptDirectory

    from vectorwar.web.migrations import alembic_config

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    if head is None:  # pragma: no cover - the package ships its migrations
        raise RuntimeError("the server's migrations have no head")
    return head


def _database_migration(connection: Connection) -> str | None:
    from alembic.runtime.migration import MigrationContext

    found = MigrationContext.configure(connection).get_current_revision()
    connection.commit()
    return found


def _claim_postgres(url: str, shown: str, head: str) -> Claim:
    name = f"vectorwar serve, {_holder_note()}"[:63]  # application_name keeps 63 bytes
    engine = create_engine(url, poolclass=NullPool, connect_args={"application_name": name})
    connection = engine.connect()
    try:
        deadline = time.monotonic() + POSTGRES_GRACE
        while True:
            found = _database_migration(connection)
            # At this server's migration: serve beside any others. Otherwise only alone, to migrate it.
            alone = found != head
            lock = "pg_try_advisory_lock" if alone else "pg_try_advisory_lock_shared"
            taken = connection.execute(text(f"SELECT {lock}({ADVISORY_KEY[0]}, {ADVISORY_KEY[1]})")).scalar()
            connection.commit()  # the lock is the session's, not the transaction's
            if taken:
                if _database_migration(connection) == found:
                    return Claim(shown, _connection=connection, alone=alone)
                # Migrated between the look and the lock: look again.
                connection.execute(text("SELECT pg_advisory_unlock_all()"))
                connection.commit()
                continue
            if time.monotonic() >= deadline:
                holder, exclusive = _postgres_holder(connection)
                why = (
                    "it holds the database alone (to migrate it, or it is of a version that serves alone): "
                    "try again once it is up, or stop it first"
                    if exclusive
                    else f"those servers run the database at migration {found or '(none)'} and this one is at "
                    f"{head}: servers sharing a database must run the same version. Stop them first (this one "
                    "then brings the database to its version), or start this one's version in their place"
                )
                raise DatabaseInUse(shown, holder, why)
            time.sleep(0.2)
    except BaseException:
        connection.close()
        engine.dispose()
        raise


def _postgres_holder(connection: Connection) -> tuple[str, bool]:
    """Who holds the advisory lock, as PostgreSQL knows them, and whether they hold it alone."""
    row: Any = connection.execute(
        text(
            "SELECT a.pid, a.application_name, a.client_addr, l.mode FROM pg_locks l "
            "JOIN pg_stat_activity a ON a.pid = l.pid "
            f"WHERE l.locktype = 'advisory' AND l.classid = {ADVISORY_KEY[0]} AND l.objid = {ADVISORY_KEY[1]} "
            "AND l.objsubid = 2 AND l.granted "
            "AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        )
    ).first()
    connection.commit()
    if row is None:
        return "it let go just now; try again", False
    where = f" from {row.client_addr}" if row.client_addr is not None else ""
    return f"{row.application_name or 'a session'}; PostgreSQL backend {row.pid}{where}", row.mode == "ExclusiveLock"
