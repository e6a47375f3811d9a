"""Live updates across processes: servers sharing one PostgreSQL tell each other of every change.

The store announces each committed change to a game, and each chat line, on
the channel :data:`~vectorwar.web.store.CHANNEL` (PostgreSQL's ``NOTIFY``,
sent in the writing transaction, so only once it commits). Each server
listens on a connection of its own. For a game some of its sockets watch, a
change is read again from the store and every socket is offered its new
scene; a chat line is read and sent to the sides' sockets. A change to one
side's secrets (its plot replaced, its draft, its standing orders) is
announced with the side's place only: a server reads the game again only if
its copy of that side's secrets is older, and only that side's sockets get a
new scene. A server skips
its own announcements: its sockets were told already. Announcements made
while the listening connection was down are lost, so on connecting again
every watched game is read again.

A burst of changes to one game (or to one side's secrets) costs one read and
one round of scenes while the last is being sent, and then one more (never
one each): a socket keeps only the newest scene anyway (web/hub.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from sqlalchemy.engine import make_url

from vectorwar.web.hub import Hub
from vectorwar.web.service import GameService
from vectorwar.web.store import CHANNEL, Store

__all__ = ["Fanout", "fanout_for"]

log = logging.getLogger("vectorwar.web")

#: Seconds between tries to connect the listening connection again after it was lost.
RECONNECT_AFTER = 1.0

Changed = Callable[[str], Awaitable[None]]
Chatted = Callable[[str, int], Awaitable[None]]
#: A game and the place of the side whose secrets alone changed.
SecretChanged = Callable[[str, int], Awaitable[None]]
#: What is read again: a game (place ``None``), or one side's secrets in it.
Key = tuple[str, int | None]


class Fanout:
    """Listens for other processes' announcements and hands each to ``changed`` or ``chatted``."""

    def __init__(
        self,
        url: str,
        origin: str,
        changed: Changed,
        chatted: Chatted,
        watched: Callable[[], Iterable[str]],
        secret_changed: SecretChanged | None = None,
    ):
        # psycopg's own spelling of the SQLAlchemy URL (postgresql+psycopg://...).
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.origin = origin
        self._changed = changed
        self._chatted = chatted
        self._watched = watched
        self._secret_changed = secret_changed
        self._task: asyncio.Task[None] | None = None
        #: Games (or sides' secrets) being read again now, and those changed again meanwhile (read once more after).
        self._reading: set[Key] = set()
        self._again: set[Key] = set()
        self._chat: asyncio.Queue[tuple[str, int]] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()
        #: Set once the listening connection is up (the first time): announcements are heard from then on.
        self.listening = asyncio.Event()

    async def start(self) -> None:
        """Start listening; returns once the first connection listens (or has failed once, logged)."""
        self._task = asyncio.get_running_loop().create_task(self._listen(), name="vectorwar-fanout")
        self._spawn(self._send_chat())
        ready = asyncio.ensure_future(self.listening.wait())
        await asyncio.wait({ready, self._task}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _listen(self) -> None:
        import psycopg

        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as connection:
                    await connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if not first:
                        # What was announced while the connection was down is gone: read every watched game again.
                        for game_id in list(self._watched()):
                            self._game_changed(game_id)
                    first = False
                    async for note in connection.notifies():
                        self._heard(note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                log.warning("listening for other servers' changes failed (%s); connecting again", err)
            await asyncio.sleep(RECONNECT_AFTER)

    def _heard(self, payload: str) -> None:
        """One announcement: ``KIND GAME NUMBER ORIGIN`` (web/store.py, ``Store._announce``)."""
        parts = payload.split(" ")
        if len(parts) != 4 or parts[3] == self.origin or not parts[2].isdigit():
            return
        kind, game_id, number = parts[0], parts[1], int(parts[2])
        if kind == "game":
            self._game_changed(game_id)
        elif kind == "secret" and self._secret_changed is not None:
            self._game_changed(game_id, number)
        elif kind == "chat":
            self._chat.put_nowait((game_id, number))

    def _game_changed(self, game_id: str, position: int | None = None) -> None:
        key = (game_id, position)
        if key in self._reading:
            self._again.add(key)
            return
        self._reading.add(key)
        self._spawn(self._read_again(key))

    async def _read_again(self, key: Key) -> None:
        game_id, position = key
        try:
            while True:
                self._again.discard(key)
                try:
                    if position is None:
                        await self._changed(game_id)
                    elif self._secret_changed is not None:
                        await self._secret_changed(game_id, position)
                except Exception:
                    log.exception("game %s: sending another server's change to this server's sockets failed", game_id)
                if key not in self._again:
                    return
        finally:
            self._reading.discard(key)

    async def _send_chat(self) -> None:
        # One at a time, in the order announced: a game's lines arrive in their order.
        while True:
            game_id, number = await self._chat.get()
            try:
                await self._chatted(game_id, number)
            except Exception:
                log.exception("game %s: sending another server's chat line failed", game_id)

    def _spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


def fanout_for(store: Store, service: GameService, hub: Hub) -> Fanout | None:
    """The fan-out a server on ``store`` needs: one on PostgreSQL, where other servers may share the games."""
    if not store.announces:
        return None

    async def changed(game_id: str) -> None:
        if hub.watching(game_id):
            await service.changed_elsewhere(game_id)

    async def secret_changed(game_id: str, position: int) -> None:
        if hub.watching(game_id):
            await service.changed_elsewhere(game_id, position)

    async def chatted(game_id: str, number: int) -> None:
        if hub.watching(game_id):
            line = await asyncio.to_thread(store.chat_number, game_id, number)
            if line is not None:
                hub.chat_line(game_id, line)

    return Fanout(store.url, store.origin, changed, chatted, hub.games, secret_changed)
