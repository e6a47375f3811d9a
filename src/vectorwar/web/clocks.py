"""Deadlines and clocks of a table: a seat never stalls the game (docs/web.md, *Deadlines and clocks*).

A table may be created with a **pace**: a deadline for every decision (so many
seconds from the moment a seat owes its orders), or a chess-like **clock** (each
seat a bank of time that runs only while it owes orders, plus an increment for
each decision). A seat whose time runs out is played by a computer player the
table chose, marked in the table's log, until its player takes it back. Before
the deadline, a seat whose player left an e-mail address or a webhook gets one
reminder, and the notice when the computer takes over (:mod:`vectorwar.web.reminders`).

Everything here is the server's and none of it the rules': the rule code never
reads a clock, and a game replays the same with or without a pace. The time
comes from a :class:`TimeSource` the server is given, so tests move a fake
clock instead of sleeping. A background task (:meth:`Deadlines.run`) checks the
tables whose next deadline or reminder has come, a bounded number a pass; the
table's clock state is stored, so deadlines hold across a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal, Protocol

from sqlalchemy import JSON, DateTime, ForeignKey, Integer, String, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column, sessionmaker

from vectorwar.rules import Bot
from vectorwar.setup import HUMAN, find_scenario, scenario_from_text, system_of
from vectorwar.web.referee import GameNotFound, Table
from vectorwar.web.reminders import Note, Sender, Settings, check_email, check_webhook
from vectorwar.web.service import GameService, LiveGame
from vectorwar.web.store import Base, Store

log = logging.getLogger("vectorwar.web")

DEADLINE: Final = "deadline"
CLOCK: Final = "clock"
#: The shortest and longest time a pace may give (a minute; a year for a whole clock).
LEAST_SECONDS = 60
MOST_SECONDS = 366 * 24 * 3600
#: The clock events a table keeps (the newest); older ones drop off.
EVENTS_KEPT = 200
#: How long a table whose check failed waits before it is checked again.
RETRY_AFTER = timedelta(minutes=5)
#: The most deadlines a pace may let a seat miss before the computer keeps it.
MOST_MISSES = 10
#: The part of a clock's starting time a seat gets back when its player takes it back.
TAKE_BACK_SHARE = 10


class TimeSource(Protocol):
    """Where the server reads the time: the wall clock when serving, a clock the test moves in tests."""

    def now(self) -> datetime: ...


class WallClock:
    def now(self) -> datetime:
        return datetime.now(UTC)


class PaceRefused(ValueError):
    """A pace the server cannot keep: a time out of bounds, or a computer player the game's system lacks."""


@dataclass(frozen=True, slots=True)
class Pace:
    """How long a seat may take over its orders, and who plays it when it is late."""

    kind: Literal["deadline", "clock"]
    #: ``deadline``: seconds for each decision; ``clock``: each seat's starting time.
    seconds: int
    #: ``clock``: seconds added to a seat's time after each decision it makes.
    increment: int = 0
    #: The computer player that takes a late seat (by name, as the lobby lists the system's bots).
    bot: str = "greedy"
    #: Seconds before the deadline the reminder goes out, unless the player chose otherwise; 0: none.
    remind_before: int = 0
    #: Deadlines a seat may miss and keep: at each, the computer gives that decision's orders only.
    misses: int = 0

    def __post_init__(self) -> None:
        if self.kind not in (DEADLINE, CLOCK):
            raise PaceRefused(f"a pace is {DEADLINE!r} (a time per decision) or {CLOCK!r} (a clock per seat)")
        if not LEAST_SECONDS <= self.seconds <= MOST_SECONDS:
            raise PaceRefused(f"a pace's time is {LEAST_SECONDS} s to {MOST_SECONDS} s, not {self.seconds} s")
        if not 0 <= self.increment <= MOST_SECONDS or (self.kind == DEADLINE and self.increment):
            raise PaceRefused("only a clock has an increment, of 0 s or more")
        if not 0 <= self.remind_before < MOST_SECONDS:
            raise PaceRefused("remind_before is 0 s (no reminder) or more")
        if not 0 <= self.misses <= MOST_MISSES:
            raise PaceRefused(f"a seat may miss 0 to {MOST_MISSES} deadlines before the computer keeps it")

    def data(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seconds": self.seconds,
            "increment": self.increment,
            "bot": self.bot,
            "remind_before": self.remind_before,
            "misses": self.misses,
            "words": self.words(),
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Pace:
        return cls(
            data["kind"],
            int(data["seconds"]),
            int(data["increment"]),
            str(data["bot"]),
            int(data["remind_before"]),
            int(data.get("misses", 0)),
        )

    def words(self) -> str:
        """The pace as the lobby says it: "1 day a decision", "3 days each + 1 hour a decision"."""
        forgiven = f", {self.misses} missed allowed" if self.misses else ""
        if self.kind == DEADLINE:
            return f"{span(self.seconds)} a decision{forgiven}"
        extra = f" + {span(self.increment)} a decision" if self.increment else ""
        return f"clock: {span(self.seconds)} each{extra}{forgiven}"

    def check_bot(self, bots: Mapping[str, object]) -> None:
        if self.bot not in bots:
            raise PaceRefused(f"no computer player {self.bot!r} to take a late seat (this game's: {', '.join(bots)})")


def bots_of(scenario: str, scenario_toml: str | None) -> Mapping[str, object]:
    """The computer players of the system a new game's scenario is for (by id, or a file's text).

    Read before the game is created, so a pace naming a computer the system lacks is refused
    with nothing stored; a scenario that cannot be read is left for the set-up to refuse.
    """
    chosen = scenario_from_text(scenario_toml) if scenario_toml is not None else find_scenario(scenario)
    return system_of(chosen).bots()


def span(seconds: float) -> str:
    """A length of time in the largest whole unit that fits: "90 minutes", "1 day", "2 hours"."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size and seconds % size == 0:
            n = int(seconds // size)
            return f"{n} {unit}{'s' if n != 1 else ''}"
    whole = int(seconds)
    if whole >= 60:
        return f"{whole // 60} minute{'s' if whole // 60 != 1 else ''}"
    return f"{whole} second{'s' if whole != 1 else ''}"


@dataclass(frozen=True, slots=True)
class SeatClock:
    """One seat's time: when it began to owe the prompt it owes, and (a clock) how much time it has left."""

    #: The prompt (resolved batches before it) the seat last began to owe; -1: none yet.
    step: int = -1
    #: When the seat first owed that prompt (a deadline counts from here: taking back a plot does not reset it).
    first: datetime | None = None
    #: When the seat's current wait began; ``None``: it owes nothing now.
    since: datetime | None = None
    #: A clock's seconds left, not counting the wait running now.
    bank: float | None = None
    reminded: bool = False
    #: The seat missed its deadline: a computer plays it until its player takes it back.
    late: bool = False
    #: Deadlines it missed and kept the seat (the pace's ``misses``).
    missed: int = 0

    def data(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "first": None if self.first is None else self.first.isoformat(),
            "since": None if self.since is None else self.since.isoformat(),
            "bank": self.bank,
            "reminded": self.reminded,
            "late": self.late,
            "missed": self.missed,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> SeatClock:
        def at(key: str) -> datetime | None:
            text = data.get(key)
            return None if text is None else datetime.fromisoformat(text)

        bank = data.get("bank")
        return cls(
            int(data["step"]),
            at("first"),
            at("since"),
            None if bank is None else float(bank),
            bool(data["reminded"]),
            bool(data["late"]),
            int(data.get("missed", 0)),
        )


@dataclass(frozen=True, slots=True)
class TableClock:
    pace: Pace
    seats: dict[str, SeatClock]
    #: What the deadlines did, oldest first: {"at": ISO time, "seat": seat, "text": words}.
    events: tuple[dict[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Contact:
    """Where a seat's player is reminded. Never shown to anyone but the seat's holder."""

    email: str = ""
    webhook: str = ""
    #: Seconds before the deadline the player wants the reminder; ``None``: the table's choice.
    remind_before: int | None = None

    def data(self) -> dict[str, Any]:
        return {"email": self.email, "webhook": self.webhook, "remind_before": self.remind_before}


# -- the rules of the clock: pure functions of the state and the time ------------------------


def observe(
    pace: Pace, seats: Mapping[str, SeatClock], step: int, owing: frozenset[str], now: datetime
) -> dict[str, SeatClock]:
    """The seats' clocks after looking at the game: ``owing`` seats owe the prompt after ``step`` batches.

    A wait that ended (the seat answered, or the game moved on) is charged to a
    clock, with its increment; a seat that begins to owe a new prompt starts a
    new wait. A late seat's clock stands still: the computer answers for it.
    """
    out = {}
    for seat, clock in seats.items():
        if clock.late:
            out[seat] = clock
            continue
        owes = seat in owing
        new_prompt = clock.step != step
        if clock.since is not None and (not owes or new_prompt):
            bank = clock.bank
            if pace.kind == CLOCK and bank is not None:
                bank = max(0.0, bank - (now - clock.since).total_seconds()) + pace.increment
            clock = replace(clock, since=None, bank=bank)
        if owes and new_prompt:
            clock = replace(clock, step=step, first=now, since=now, reminded=False)
        elif owes and clock.since is None:
            # It took back its plot: it owes again, and its deadline stands where it was.
            clock = replace(clock, since=now)
        out[seat] = clock
    return out


def deadline(pace: Pace, clock: SeatClock) -> datetime | None:
    """When ``clock``'s seat runs out of time; ``None`` while it owes nothing (or a computer plays it)."""
    if clock.late or clock.since is None:
        return None
    if pace.kind == DEADLINE:
        return (clock.first or clock.since) + timedelta(seconds=pace.seconds)
    return clock.since + timedelta(seconds=clock.bank or 0.0)


def remind_at(pace: Pace, clock: SeatClock, contact: Contact | None) -> datetime | None:
    """When the seat's one reminder is due; ``None``: none is (no address, none wanted, or sent already)."""
    due = deadline(pace, clock)
    if due is None or clock.reminded or contact is None or not (contact.email or contact.webhook):
        return None
    before = pace.remind_before if contact.remind_before is None else contact.remind_before
    return None if before <= 0 else due - timedelta(seconds=before)


def next_due(clock: TableClock, contacts: Mapping[str, Contact]) -> datetime | None:
    """The next time a deadline or a reminder of the table falls due, for the background check."""
    times = [
        t
        for seat, seat_clock in clock.seats.items()
        for t in (deadline(clock.pace, seat_clock), remind_at(clock.pace, seat_clock, contacts.get(seat)))
        if t is not None
    ]
    return min(times, default=None)


def time_left(pace: Pace, clock: SeatClock, now: datetime) -> float | None:
    """A clock's seconds left now (counting the wait running); ``None`` for a deadline pace."""
    if pace.kind != CLOCK or clock.bank is None:
        return None
    running = 0.0 if clock.since is None or clock.late else (now - clock.since).total_seconds()
    return max(0.0, clock.bank - running)


def owing_people(table: Table) -> frozenset[str]:
    """The seats whose time runs: those the prompt waits for, but for open seats nobody has taken yet."""
    game = table.game
    if game.is_over:
        return frozenset()
    return frozenset(game.waiting_for) - set(table.free_seats())


# -- the store --------------------------------------------------------------------------------


class ClockRow(Base):
    __tablename__ = "table_clocks"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    pace: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[dict[str, str]]] = mapped_column(JSON)
    #: The next deadline or reminder (none: nothing is due); the background check reads the earliest.
    due: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True, index=True)


class ContactRow(Base):
    __tablename__ = "seat_contacts"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(100), primary_key=True)
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
            seats = {seat: SeatClock.from_data(data) for seat, data in row.seats.items()}
            return TableClock(Pace.from_data(row.pace), seats, tuple(row.events))

    def save(self, game_id: str, clock: TableClock, due: datetime | None) -> None:
        with self._sessions.begin() as db:
            db.merge(
                ClockRow(
                    game_id=game_id,
                    pace=clock.pace.data(),
                    seats={seat: c.data() for seat, c in clock.seats.items()},
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
            return {r.seat: Contact(r.email, r.webhook, r.remind_before) for r in rows}

    def set_contact(self, game_id: str, seat: str, contact: Contact) -> None:
        with self._sessions.begin() as db:
            if not (contact.email or contact.webhook):
                db.execute(delete(ContactRow).where(ContactRow.game_id == game_id, ContactRow.seat == seat))
                return
            db.merge(
                ContactRow(
                    game_id=game_id,
                    seat=seat,
                    email=contact.email,
                    webhook=contact.webhook,
                    remind_before=contact.remind_before,
                )
            )


# -- the server's side ------------------------------------------------------------------------


class Deadlines:
    """Keeps every paced table's clocks, hands late seats to a computer and sends the reminders.

    Told of every change by the service (:meth:`GameService.on_change`), and of every table
    rebuilt from the store (:meth:`GameService.on_load`), where it puts back the computers
    playing late seats. :meth:`check` does one bounded pass; :meth:`run` repeats it.
    """

    def __init__(
        self,
        service: GameService,
        time: TimeSource | None = None,
        sender: Sender | None = None,
        *,
        batch: int = 20,
        cache: int = 2000,
    ) -> None:
        self.service = service
        self.time: TimeSource = time or WallClock()
        self.sender = sender or Sender(Settings())
        self.batch = batch
        self.store = ClockStore(service.store)
        # Held only around reading, changing and storing a clock, never while a computer plays or mail goes.
        self._lock = asyncio.Lock()
        self._cache: OrderedDict[str, TableClock | None] = OrderedDict()
        self._cache_size = cache
        service.on_change(self._changed)
        service.on_load(self._loaded)

    # -- reading

    async def clock(self, game_id: str) -> TableClock | None:
        if game_id in self._cache:
            self._cache.move_to_end(game_id)
            return self._cache[game_id]
        found = await asyncio.to_thread(self.store.load, game_id)
        self._keep(game_id, found)
        return found

    def _keep(self, game_id: str, clock: TableClock | None) -> None:
        self._cache[game_id] = clock
        self._cache.move_to_end(game_id)
        while len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)

    async def paces(self, game_ids: list[str]) -> dict[str, Pace]:
        return await asyncio.to_thread(self.store.paces, game_ids)

    async def view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """What a viewer sees of the table's clocks: every seat's deadline, and its own seats' addresses."""
        live = await self.service.get_cached_or_load(game_id)
        mine = live.seats_of(token)
        clock = await self.clock(game_id)
        now = self.time.now()
        if clock is None:
            return {"pace": None, "now": now.isoformat(), "seats": {}, "events": [], "contacts": {}}
        contacts = await asyncio.to_thread(self.store.contacts, game_id) if mine else {}
        seats = {}
        for seat, seat_clock in clock.seats.items():
            due = deadline(clock.pace, seat_clock)
            seats[seat] = {
                "owes": seat_clock.since is not None and not seat_clock.late,
                "deadline": None if due is None else due.isoformat(),
                "time_left": time_left(clock.pace, seat_clock, now),
                "late": seat_clock.late,
                "computer": clock.pace.bot if seat_clock.late else None,
                "missed": seat_clock.missed,
            }
        return {
            "pace": clock.pace.data(),
            "now": now.isoformat(),
            "seats": seats,
            "events": list(clock.events),
            # Only the caller's own seats: an address is never shown to another seat or a spectator.
            "contacts": {seat: contacts.get(seat, Contact()).data() for seat in mine if seat in clock.seats},
        }

    # -- changing

    async def start(self, game_id: str, pace: Pace) -> None:
        """Give a new table its pace: every person's seat starts its time (a clock: the whole of it)."""
        live = await self.service.get_cached_or_load(game_id)
        table = live.table
        pace.check_bot(table.game.system.bots())
        bank = float(pace.seconds) if pace.kind == CLOCK else None
        seats = {seat: SeatClock(bank=bank) for seat, c in table.controllers.items() if c == HUMAN}
        async with self._lock:
            await self._update(game_id, table, TableClock(pace, seats), {})

    async def follow(self, finished_id: str, rematch_id: str) -> None:
        """A rematch keeps the finished game's pace (started once, by whoever asks first)."""
        old = await self.clock(finished_id)
        if old is not None and await self.clock(rematch_id) is None:
            await self.start(rematch_id, old.pace)

    async def set_contact(self, game_id: str, token: str | None, seat: str, contact: Contact, webhooks: bool) -> None:
        """Keep where ``seat``'s player wants reminders (an empty contact: none); raises 403, ContactRefused."""
        live = await self.service.get_cached_or_load(game_id)
        live.table.acting_for(token, seat)
        checked = replace(contact, email=check_email(contact.email), webhook=check_webhook(contact.webhook, webhooks))
        await asyncio.to_thread(self.store.set_contact, game_id, seat, checked)
        async with self._lock:
            clock = await self.clock(game_id)
            if clock is not None:
                await self._update(game_id, live.table, clock)

    async def take_back(self, game_id: str, token: str | None, seat: str) -> None:
        """``seat``'s player plays it again (a clock gets a tenth of its starting time); raises 403."""
        live = await self.service.get_cached_or_load(game_id)
        live.table.acting_for(token, seat)
        async with self._lock:
            clock = await self.clock(game_id)
            if clock is None or seat not in clock.seats or not clock.seats[seat].late:
                return
            bank = clock.pace.seconds / TAKE_BACK_SHARE if clock.pace.kind == CLOCK else None
            seats = {**clock.seats, seat: SeatClock(bank=bank)}
            now = self.time.now()
            said = _event(now, seat, f"{seat}'s player took the seat back from the computer")
            await self._update(game_id, live.table, replace(clock, seats=seats, events=(*clock.events, said)))
        await self.service.play_for(game_id, seat, None)

    async def _update(
        self, game_id: str, table: Table, clock: TableClock, contacts: Mapping[str, Contact] | None = None
    ) -> TableClock:
        """Bring ``clock`` up to the game on ``table`` and store it (under the lock)."""
        now = self.time.now()
        seats = observe(clock.pace, clock.seats, len(table.game.history), owing_people(table), now)
        after = replace(clock, seats=seats)
        if contacts is None:
            contacts = await asyncio.to_thread(self.store.contacts, game_id)
        due = None if table.game.is_over else next_due(after, contacts)
        await asyncio.to_thread(self.store.save, game_id, after, due)
        self._keep(game_id, after)
        return after

    async def _changed(self, live: LiveGame) -> None:
        if await self.clock(live.id) is None:
            return
        async with self._lock:
            clock = await self.clock(live.id)
            if clock is not None:
                await self._update(live.id, live.table, clock)

    async def _loaded(self, table: Table) -> None:
        clock = await self.clock(table.id)
        if clock is None:
            return
        bots = table.game.system.bots()
        late = {seat: bots[clock.pace.bot]() for seat, c in clock.seats.items() if c.late}
        if late:
            table.bots = {**table.bots, **late}

    # -- the background check

    async def check(self) -> int:
        """One pass: every table whose deadline or reminder has come (at most :attr:`batch`); answers how many."""
        now = self.time.now()
        due = await asyncio.to_thread(self.store.due, now, self.batch)
        for game_id in due:
            try:
                await self._check_table(game_id, now)
            except GameNotFound:
                continue
            except Exception:
                # One table's failure must not stop the others' deadlines, nor keep them waiting behind it.
                log.exception("game %s: checking its deadlines failed; it is checked again later", game_id)
                await asyncio.to_thread(self.store.postpone, game_id, now + RETRY_AFTER)
        return len(due)

    async def run(self, every: float = 30.0) -> None:
        """Check the deadlines every ``every`` seconds, for the server's life (straight on while a pass was full)."""
        while True:
            try:
                done = await self.check()
            except Exception:
                log.exception("checking the tables' deadlines failed")
                done = 0
            # A full pass may have left more due: go on soon, yet never spin.
            await asyncio.sleep(min(every, 1.0) if done >= self.batch else every)

    async def _check_table(self, game_id: str, now: datetime) -> None:
        live = await self.service.get_cached_or_load(game_id)
        table = live.table
        notes: list[tuple[Note, Contact]] = []
        takeovers: list[tuple[str, Bot]] = []
        forgiven: list[tuple[str, Bot]] = []
        async with self._lock:
            clock = await self.clock(game_id)
            if clock is None:
                return
            contacts = await asyncio.to_thread(self.store.contacts, game_id)
            clock = await self._update(game_id, table, clock, contacts)
            seats = dict(clock.seats)
            events = list(clock.events)
            for seat, seat_clock in clock.seats.items():
                due = deadline(clock.pace, seat_clock)
                if due is None:
                    continue
                contact = contacts.get(seat)
                bot = clock.pace.bot
                if due <= now and seat_clock.missed < clock.pace.misses:
                    missed = seat_clock.missed + 1
                    seats[seat] = replace(seat_clock, since=None, missed=missed)
                    said = f"{seat} missed its deadline ({missed} of {clock.pace.misses} allowed): the computer ({bot})"
                    events.append(_event(now, seat, f"{said} gave this decision's orders"))
                    forgiven.append((seat, table.game.system.bots()[bot]()))
                    if contact is not None:
                        notes.append((_missed_note(table, seat, bot, clock.pace.misses - missed), contact))
                elif due <= now:
                    seats[seat] = replace(seat_clock, late=True, since=None)
                    events.append(_event(now, seat, f"{seat} missed its deadline: the computer ({bot}) plays it now"))
                    takeovers.append((seat, table.game.system.bots()[bot]()))
                    if contact is not None:
                        notes.append((_takeover_note(table, seat, bot), contact))
                elif (
                    contact is not None and (at := remind_at(clock.pace, seat_clock, contact)) is not None and at <= now
                ):
                    seats[seat] = replace(seat_clock, reminded=True)
                    events.append(_event(now, seat, f"a reminder went to {seat}'s player"))
                    notes.append((_reminder_note(table, seat, due, clock.pace.bot), contact))
            if seats != clock.seats:
                # Marked before anything is sent: a reminder goes once, even if the server stops mid-send.
                changed = replace(clock, seats=seats, events=tuple(events))
                due_next = None if table.game.is_over else next_due(changed, contacts)
                await asyncio.to_thread(self.store.save, game_id, changed, due_next)
                self._keep(game_id, changed)
        for seat, computer in forgiven:
            await self.service.answer_once(game_id, seat, computer)
        for seat, computer in takeovers:
            await self.service.play_for(game_id, seat, computer)
        for note, contact in notes:
            await self.sender.send(note, contact.email, contact.webhook)


def _takeover_note(table: Table, seat: str, bot: str) -> Note:
    title = table.game.scenario.title
    text = (
        f"Your seat {seat} in {title} missed its deadline, so the computer player {bot} plays it now. "
        'Open your game link and press "Take back my seat" to play it again.'
    )
    return Note("takeover", table.id, seat, f"vectorwar: {title}: the computer plays {seat}", text)


def _missed_note(table: Table, seat: str, bot: str, left: int) -> Note:
    title = table.game.scenario.title
    text = (
        f"Your seat {seat} in {title} missed its deadline, so the computer player {bot} gave that decision's "
        f"orders. You keep the seat; {left} more missed deadline{'s' if left != 1 else ''} and the computer "
        "keeps playing it until you take it back."
    )
    return Note("missed", table.id, seat, f"vectorwar: {title}: {seat} missed a deadline", text)


def _reminder_note(table: Table, seat: str, due: datetime, bot: str) -> Note:
    title = table.game.scenario.title
    text = (
        f"{title}: your seat {seat} owes its orders by {due:%Y-%m-%d %H:%M} UTC. "
        f"After that the computer player {bot} plays it until you take it back."
    )
    return Note("reminder", table.id, seat, f"vectorwar: {title}: your move as {seat}", text)


def _event(at: datetime, seat: str, text: str) -> dict[str, str]:
    return {"at": at.isoformat(), "seat": seat, "text": text}


__all__ = [
    "CLOCK",
    "DEADLINE",
    "ClockStore",
    "Contact",
    "Deadlines",
    "Pace",
    "PaceRefused",
    "SeatClock",
    "TableClock",
    "TimeSource",
    "WallClock",
    "deadline",
    "next_due",
    "observe",
    "remind_at",
]
