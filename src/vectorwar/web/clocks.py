"""Deadlines and clocks of a table as values: paces, side clocks, when reminders and deadlines fall.

A table may be created with a **pace**: a deadline for every decision (so many
seconds from the moment a side owes its orders), or a chess-like **clock** (each
side a bank of time that runs only while it owes orders, plus an increment for
each decision). A side whose time runs out is played by a computer player the
table chose, marked in the table's log, until its player takes it back. Before
the deadline, a side whose player left an e-mail address or a webhook gets one
reminder, and the notice when the computer takes over (:mod:`vectorwar.web.reminders`).

Everything here is the server's and none of it the rules': the rule code never
reads a clock, and a game replays the same with or without a pace. The time
comes from a :class:`TimeSource` the server is given, so tests move a fake
clock instead of sleeping. A background task (:meth:`Deadlines.run`) checks the
tables whose next deadline or reminder has come, a bounded number a pass; the
table's clock state is stored, so deadlines hold across a restart.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Final, Literal, Protocol

from vectorwar.players import computer_players
from vectorwar.setup import find_scenario, scenario_from_text, system_of
from vectorwar.web.referee import Table

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
#: The most deadlines a pace may let a side miss before the computer keeps it.
MOST_MISSES = 10
#: The part of a clock's starting time a side gets back when its player takes it back.
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
    """How long a side may take over its orders, and who plays it when it is late."""

    kind: Literal["deadline", "clock"]
    #: ``deadline``: seconds for each decision; ``clock``: each side's starting time.
    seconds: int
    #: ``clock``: seconds added to a side's time after each decision it makes.
    increment: int = 0
    #: The computer player that takes a late side (by name, as the lobby lists the system's bots).
    bot: str = "greedy"
    #: Seconds before the deadline the reminder goes out, unless the player chose otherwise; 0: none.
    remind_before: int = 0
    #: Deadlines a side may miss and keep: at each, the computer gives that decision's orders only.
    misses: int = 0

    def __post_init__(self) -> None:
        if self.kind not in (DEADLINE, CLOCK):
            raise PaceRefused(f"a pace is {DEADLINE!r} (a time per decision) or {CLOCK!r} (a clock per side)")
        if not LEAST_SECONDS <= self.seconds <= MOST_SECONDS:
            raise PaceRefused(f"a pace's time is {LEAST_SECONDS} s to {MOST_SECONDS} s, not {self.seconds} s")
        if not 0 <= self.increment <= MOST_SECONDS or (self.kind == DEADLINE and self.increment):
            raise PaceRefused("only a clock has an increment, of 0 s or more")
        if not 0 <= self.remind_before < MOST_SECONDS:
            raise PaceRefused("remind_before is 0 s (no reminder) or more")
        if not 0 <= self.misses <= MOST_MISSES:
            raise PaceRefused(f"a side may miss 0 to {MOST_MISSES} deadlines before the computer keeps it")

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
            raise PaceRefused(f"no computer player {self.bot!r} to take a late side (this game's: {', '.join(bots)})")


def bots_of(scenario: str, scenario_toml: str | None) -> Mapping[str, object]:
    """The computer players of the system a new game's scenario is for (by id, or a file's text).

    Read before the game is created, so a pace naming a computer the system lacks is refused
    with nothing stored; a scenario that cannot be read is left for the set-up to refuse.
    """
    chosen = scenario_from_text(scenario_toml) if scenario_toml is not None else find_scenario(scenario)
    return computer_players(system_of(chosen))


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
class SideClock:
    """One side's time: when it began to owe the prompt it owes, and (a clock) how much time it has left."""

    #: The prompt (resolved batches before it) the side last began to owe; -1: none yet.
    step: int = -1
    #: When the side first owed that prompt (a deadline counts from here: taking back a plot does not reset it).
    first: datetime | None = None
    #: When the side's current wait began; ``None``: it owes nothing now.
    since: datetime | None = None
    #: A clock's seconds left, not counting the wait running now.
    bank: float | None = None
    reminded: bool = False
    #: The side missed its deadline: a computer plays it until its player takes it back.
    late: bool = False
    #: Deadlines it missed and kept the side (the pace's ``misses``).
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
    def from_data(cls, data: Mapping[str, Any]) -> SideClock:
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
    sides: dict[str, SideClock]
    #: What the deadlines did, oldest first: {"at": ISO time, "side": side, "text": words}.
    events: tuple[dict[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Contact:
    """Where a side's player is reminded. Never shown to anyone but the side's holder."""

    email: str = ""
    webhook: str = ""
    #: Seconds before the deadline the player wants the reminder; ``None``: the table's choice.
    remind_before: int | None = None

    def data(self) -> dict[str, Any]:
        return {"email": self.email, "webhook": self.webhook, "remind_before": self.remind_before}


# -- the rules of the clock: pure functions of the state and the time ------------------------


def observe(
    pace: Pace, sides: Mapping[str, SideClock], step: int, owing: frozenset[str], now: datetime
) -> dict[str, SideClock]:
    """The sides' clocks after looking at the game: ``owing`` sides owe the prompt after ``step`` batches.

    A wait that ended (the side answered, or the game moved on) is charged to a
    clock, with its increment; a side that begins to owe a new prompt starts a
    new wait. A late side's clock stands still: the computer answers for it.
    """
    out = {}
    for side, clock in sides.items():
        if clock.late:
            out[side] = clock
            continue
        owes = side in owing
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
        out[side] = clock
    return out


def deadline(pace: Pace, clock: SideClock) -> datetime | None:
    """When ``clock``'s side runs out of time; ``None`` while it owes nothing (or a computer plays it)."""
    if clock.late or clock.since is None:
        return None
    if pace.kind == DEADLINE:
        return (clock.first or clock.since) + timedelta(seconds=pace.seconds)
    return clock.since + timedelta(seconds=clock.bank or 0.0)


def remind_at(pace: Pace, clock: SideClock, contact: Contact | None) -> datetime | None:
    """When the side's one reminder is due; ``None``: none is (no address, none wanted, or sent already)."""
    due = deadline(pace, clock)
    if due is None or clock.reminded or contact is None or not (contact.email or contact.webhook):
        return None
    before = pace.remind_before if contact.remind_before is None else contact.remind_before
    return None if before <= 0 else due - timedelta(seconds=before)


def next_due(clock: TableClock, contacts: Mapping[str, Contact]) -> datetime | None:
    """The next time a deadline or a reminder of the table falls due, for the background check."""
    times = [
        t
        for side, side_clock in clock.sides.items()
        for t in (deadline(clock.pace, side_clock), remind_at(clock.pace, side_clock, contacts.get(side)))
        if t is not None
    ]
    return min(times, default=None)


def time_left(pace: Pace, clock: SideClock, now: datetime) -> float | None:
    """A clock's seconds left now (counting the wait running); ``None`` for a deadline pace."""
    if pace.kind != CLOCK or clock.bank is None:
        return None
    running = 0.0 if clock.since is None or clock.late else (now - clock.since).total_seconds()
    return max(0.0, clock.bank - running)


def owing_people(table: Table) -> frozenset[str]:
    """The sides whose time runs: those the prompt waits for, but for open sides nobody has taken yet."""
    game = table.game
    if game.is_over:
        return frozenset()
    return frozenset(game.waiting_for) - set(table.free_sides())


# -- the store --------------------------------------------------------------------------------


__all__ = [
    "CLOCK",
    "DEADLINE",
    "Contact",
    "Pace",
    "PaceRefused",
    "SideClock",
    "TableClock",
    "TimeSource",
    "WallClock",
    "deadline",
    "next_due",
    "observe",
    "remind_at",
]
