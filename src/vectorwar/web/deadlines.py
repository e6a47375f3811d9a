"""The deadlines of every paced table, kept by the server: checks, takeovers, reminders (web/clocks.py)."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from vectorwar.autopilot import Standing, standing_order
from vectorwar.players import computer_players
from vectorwar.rules import Bot, Order, RuleSystem
from vectorwar.setup import HUMAN
from vectorwar.web.clock_store import ClockStore
from vectorwar.web.clocks import (
    CLOCK,
    RETRY_AFTER,
    TAKE_BACK_SHARE,
    Contact,
    Pace,
    SideClock,
    TableClock,
    TimeSource,
    WallClock,
    deadline,
    next_due,
    observe,
    owing_people,
    remind_at,
    time_left,
)
from vectorwar.web.referee import GameNotFound, Table
from vectorwar.web.reminders import Note, Sender, Settings, check_email, check_webhook
from vectorwar.web.service import GameService, LiveGame

log = logging.getLogger("vectorwar.web")


class Deadlines:
    """Keeps every paced table's clocks, hands late sides to a computer and sends the reminders.

    Told of every change by the service (:meth:`GameService.on_change`), and of every table
    rebuilt from the store (:meth:`GameService.on_load`), where it puts back the computers
    playing late sides. :meth:`check` does one bounded pass; :meth:`run` repeats it.
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
        """What a viewer sees of the table's clocks: every side's deadline, and its own sides' addresses."""
        live = await self.service.get_cached_or_load(game_id)
        mine = live.sides_of(token)
        clock = await self.clock(game_id)
        now = self.time.now()
        if clock is None:
            return {"pace": None, "now": now.isoformat(), "sides": {}, "events": [], "contacts": {}}
        contacts = await asyncio.to_thread(self.store.contacts, game_id) if mine else {}
        sides = {}
        for side, side_clock in clock.sides.items():
            due = deadline(clock.pace, side_clock)
            sides[side] = {
                "owes": side_clock.since is not None and not side_clock.late,
                "deadline": None if due is None else due.isoformat(),
                "time_left": time_left(clock.pace, side_clock, now),
                "late": side_clock.late,
                "computer": clock.pace.bot if side_clock.late else None,
                "missed": side_clock.missed,
            }
        return {
            "pace": clock.pace.data(),
            "now": now.isoformat(),
            "sides": sides,
            "events": list(clock.events),
            # Only the caller's own sides: an address is never shown to another side or a spectator.
            "contacts": {side: contacts.get(side, Contact()).data() for side in mine if side in clock.sides},
        }

    # -- changing

    async def start(self, game_id: str, pace: Pace) -> None:
        """Give a new table its pace: every person's side starts its time (a clock: the whole of it)."""
        live = await self.service.get_cached_or_load(game_id)
        table = live.table
        pace.check_bot(computer_players(table.game.system))
        bank = float(pace.seconds) if pace.kind == CLOCK else None
        sides = {side: SideClock(bank=bank) for side, c in table.controllers.items() if c == HUMAN}
        async with self._lock:
            await self._update(game_id, table, TableClock(pace, sides), {})

    async def follow(self, finished_id: str, rematch_id: str) -> None:
        """A rematch keeps the finished game's pace (started once, by whoever asks first)."""
        old = await self.clock(finished_id)
        if old is not None and await self.clock(rematch_id) is None:
            await self.start(rematch_id, old.pace)

    async def set_contact(self, game_id: str, token: str | None, side: str, contact: Contact, webhooks: bool) -> None:
        """Keep where ``side``'s player wants reminders (an empty contact: none); raises 403, ContactRefused."""
        live = await self.service.get_cached_or_load(game_id)
        live.table.acting_for(token, side)
        checked = replace(contact, email=check_email(contact.email), webhook=check_webhook(contact.webhook, webhooks))
        await asyncio.to_thread(self.store.set_contact, game_id, side, checked)
        async with self._lock:
            clock = await self.clock(game_id)
            if clock is not None:
                await self._update(game_id, live.table, clock)

    async def take_back(self, game_id: str, token: str | None, side: str) -> None:
        """``side``'s player plays it again (a clock gets a tenth of its starting time); raises 403."""
        live = await self.service.get_cached_or_load(game_id)
        live.table.acting_for(token, side)
        async with self._lock:
            clock = await self.clock(game_id)
            if clock is None or side not in clock.sides or not clock.sides[side].late:
                return
            bank = clock.pace.seconds / TAKE_BACK_SHARE if clock.pace.kind == CLOCK else None
            sides = {**clock.sides, side: SideClock(bank=bank)}
            now = self.time.now()
            said = _event(now, side, f"{side}'s player took the side back from the computer")
            await self._update(game_id, live.table, replace(clock, sides=sides, events=(*clock.events, said)))
        await self.service.play_for(game_id, side, None)

    async def _update(
        self, game_id: str, table: Table, clock: TableClock, contacts: Mapping[str, Contact] | None = None
    ) -> TableClock:
        """Bring ``clock`` up to the game on ``table`` and store it (under the lock)."""
        now = self.time.now()
        sides = observe(clock.pace, clock.sides, len(table.game.history), owing_people(table), now)
        after = replace(clock, sides=sides)
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
        bots = computer_players(table.game.system)
        late = {side: bots[clock.pace.bot]() for side, c in clock.sides.items() if c.late}
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
            sides = dict(clock.sides)
            events = list(clock.events)
            for side, side_clock in clock.sides.items():
                due = deadline(clock.pace, side_clock)
                if due is None:
                    continue
                contact = contacts.get(side)
                bot = clock.pace.bot
                if due <= now and side_clock.missed < clock.pace.misses:
                    missed = side_clock.missed + 1
                    sides[side] = replace(side_clock, since=None, missed=missed)
                    # A forgiven miss is answered as the player left it: their standing orders, or a hold
                    # where the rules have one; the computer only where neither answers this prompt.
                    held = standing_order(table.game, side, table.standing.get(side, Standing()), now=True)
                    by = f"the computer ({bot})" if held is None else f"its standing orders ({held})"
                    said = f"{side} missed its deadline ({missed} of {clock.pace.misses} allowed): {by}"
                    events.append(_event(now, side, f"{said} gave this decision's orders"))
                    system = table.game.system
                    answer = computer_players(system)[bot]() if held is None else _Given(held, system)
                    forgiven.append((side, answer))
                    if contact is not None:
                        yours = f"the computer player {bot}" if held is None else f"your standing orders ({held})"
                        notes.append((_missed_note(table, side, yours, clock.pace.misses - missed), contact))
                elif due <= now:
                    sides[side] = replace(side_clock, late=True, since=None)
                    events.append(_event(now, side, f"{side} missed its deadline: the computer ({bot}) plays it now"))
                    takeovers.append((side, computer_players(table.game.system)[bot]()))
                    if contact is not None:
                        notes.append((_takeover_note(table, side, bot), contact))
                elif (
                    contact is not None and (at := remind_at(clock.pace, side_clock, contact)) is not None and at <= now
                ):
                    sides[side] = replace(side_clock, reminded=True)
                    events.append(_event(now, side, f"a reminder went to {side}'s player"))
                    notes.append((_reminder_note(table, side, due, clock.pace.bot), contact))
            if sides != clock.sides:
                # Marked before anything is sent: a reminder goes once, even if the server stops mid-send.
                changed = replace(clock, sides=sides, events=tuple(events))
                due_next = None if table.game.is_over else next_due(changed, contacts)
                await asyncio.to_thread(self.store.save, game_id, changed, due_next)
                self._keep(game_id, changed)
        for side, computer in forgiven:
            await self.service.answer_once(game_id, side, computer)
        for side, computer in takeovers:
            await self.service.play_for(game_id, side, computer)
        for note, contact in notes:
            await self.sender.send(note, contact.email, contact.webhook)


def _takeover_note(table: Table, side: str, bot: str) -> Note:
    title = table.game.scenario.title
    text = (
        f"Your side {side} in {title} missed its deadline, so the computer player {bot} plays it now. "
        'Open your game link and press "Take back my side" to play it again.'
    )
    return Note("takeover", table.id, side, f"vectorwar: {title}: the computer plays {side}", text)


class _Given:
    """A late side's answer from its standing orders: the order they gave, read at the prompt it answers."""

    def __init__(self, text: str, system: RuleSystem[Any]) -> None:
        self.text = text
        self.system = system

    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        del rng  # the standing order is already chosen
        return self.system.parse_order(state, side, self.text)


def _missed_note(table: Table, side: str, by: str, left: int) -> Note:
    title = table.game.scenario.title
    text = (
        f"Your side {side} in {title} missed its deadline, so {by} gave that decision's "
        f"orders. You keep the side; {left} more missed deadline{'s' if left != 1 else ''} and the computer "
        "keeps playing it until you take it back."
    )
    return Note("missed", table.id, side, f"vectorwar: {title}: {side} missed a deadline", text)


def _reminder_note(table: Table, side: str, due: datetime, bot: str) -> Note:
    title = table.game.scenario.title
    text = (
        f"{title}: your side {side} owes its orders by {due:%Y-%m-%d %H:%M} UTC. "
        f"After that the computer player {bot} plays it until you take it back."
    )
    return Note("reminder", table.id, side, f"vectorwar: {title}: your move as {side}", text)


def _event(at: datetime, side: str, text: str) -> dict[str, str]:
    return {"at": at.isoformat(), "side": side, "text": text}


__all__ = ["Deadlines"]
