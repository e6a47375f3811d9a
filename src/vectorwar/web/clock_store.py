"""Where a table's clocks and its players' reminder contacts are stored (web/clocks.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from vectorwar.web.clocks import (
    EVENTS_KEPT,
    Contact,
    Pace,
    SideClock,
    TableClock,
)
from vectorwar.web.store import Base, Store


class ClockRow(Base):
    __tablename__ = "table_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    pace: Mapped[dict[str, Any]] = mapped_column(JSON)
    sides: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[dict[str, str]]] = mapped_column(JSON)
    #: The next deadline or reminder (none: nothing is due); the background check reads the earliest.
    due: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)


class ContactRow(Base):
    __tablename__ = "side_contacts"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    side: Mapped[str] = mapped_column(String(100), primary_key=True)
    email: Mapped[str] = mapped_column(String(320), default="")
    webhook: Mapped[str] = mapped_column(String(2000), default="")
    remind_before: Mapped[int | None] = mapped_column(Integer, nullable=True)


def _aware(at: datetime) -> datetime:
    # SQLite hands back naive datetimes; every time stored is UTC.
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


class ClockStore:
    """The clocks' rows, on the server's database (each method one transaction)."""

    def __init__(self, store: Store) -> None:
        self._sessions = sessionmaker(store.engine, expire_on_commit=False)

    def load(self, game_id: str) -> TableClock | None:
        with self._sessions() as db:
            row = db.get(ClockRow, game_id)
            if row is None:
                return None
            sides = {side: SideClock.from_data(data) for side, data in row.sides.items()}
            return TableClock(Pace.from_data(row.pace), sides, tuple(row.events))

    def save(self, game_id: str, clock: TableClock, due: datetime | None) -> None:
        with self._sessions.begin() as db:
            db.merge(
                ClockRow(
                    game_id=game_id,
                    pace=clock.pace.data(),
                    sides={side: c.data() for side, c in clock.sides.items()},
                    events=list(clock.events[-EVENTS_KEPT:]),
                    due=due,
                )
            )

    def due(self, now: datetime, limit: int) -> list[str]:
        """The games whose next deadline or reminder has come, the longest overdue first."""
        with self._sessions() as db:
            rows = db.scalars(
                select(ClockRow.game_id)
                .where(ClockRow.due <= now)
                .order_by(ClockRow.due, ClockRow.game_id)
                .limit(limit)
            )
            return list(rows)

    def postpone(self, game_id: str, until: datetime) -> None:
        with self._sessions.begin() as db:
            db.execute(update(ClockRow).where(ClockRow.game_id == game_id).values(due=until))

    def paces(self, game_ids: list[str]) -> dict[str, Pace]:
        if not game_ids:
            return {}
        with self._sessions() as db:
            rows = db.execute(select(ClockRow.game_id, ClockRow.pace).where(ClockRow.game_id.in_(game_ids)))
            return {game_id: Pace.from_data(pace) for game_id, pace in rows}

    def contacts(self, game_id: str) -> dict[str, Contact]:
        with self._sessions() as db:
            rows = db.scalars(select(ContactRow).where(ContactRow.game_id == game_id))
            return {r.side: Contact(r.email, r.webhook, r.remind_before) for r in rows}

    def set_contact(self, game_id: str, side: str, contact: Contact) -> None:
        with self._sessions.begin() as db:
            if not (contact.email or contact.webhook):
                db.execute(delete(ContactRow).where(ContactRow.game_id == game_id, ContactRow.side == side))
                return
            db.merge(
                ContactRow(
                    game_id=game_id,
                    side=side,
                    email=contact.email,
                    webhook=contact.webhook,
                    remind_before=contact.remind_before,
                )
            )


# -- the server's side ------------------------------------------------------------------------


__all__ = ["ClockStore"]
