"""Live updates: each WebSocket viewer gets its own scene after every change to its game.

A viewer's scene is built for the sides its token holds, so what one
connection receives never depends on who else is watching. Each connection
has its own outbox holding only the newest scene: a slow client skips
scenes it has not read yet instead of slowing the game down.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import WebSocket

from vectorwar.web.chat import ChatLine
from vectorwar.web.service import LiveGame, OverBudget

log = logging.getLogger("vectorwar.web")

#: Builds the scenes sets of sides see of a game now, as JSON text (:meth:`GameService.viewer_scenes`).
ScenesOf = Callable[[LiveGame, list[tuple[str, ...]]], Awaitable[list[str]]]


#: Chat lines queued for one viewer. The chat's rate limit keeps a live client far below it; a
#: client that stops reading loses the oldest, and reads them from GET .../chat when it reloads.
NOTES_MAX = 256

#: Live sockets watching one game, and open from one client address (every game together). A
#: table has a few sides and some spectators; a client opens one socket a page it shows.
SOCKETS_PER_GAME = 64
SOCKETS_PER_CLIENT = 32
#: The close code of a socket refused for being one too many (WebSocket's "policy violation").
POLICY_VIOLATION = 1008


class TooManySockets(Exception):
    """A socket over :data:`SOCKETS_PER_GAME` or :data:`SOCKETS_PER_CLIENT`; the message says which."""


@dataclass(eq=False)
class Viewer:
    websocket: WebSocket
    sides: tuple[str, ...]
    #: The client's address, whose sockets are counted together ("" when unknown).
    client: str = ""
    outbox: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=1))
    #: The last scene offered: the same scene again is not sent (see :meth:`offer_scene`).
    last_scene: str | None = None
    #: Chat lines not sent yet: every one is sent, in order (unlike scenes, none replaces another).
    notes: asyncio.Queue[str] = field(default_factory=lambda: asyncio.Queue(maxsize=NOTES_MAX))
    _sending: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, message: dict[str, Any] | str) -> None:
        """Send a message: data, or JSON text already encoded."""
        text = message if isinstance(message, str) else json.dumps(message)
        # Scenes and pongs go out from two tasks; one frame at a time.
        async with self._sending:
            await self.websocket.send_text(text)

    def offer_scene(self, scene_text: str) -> None:
        """Queue a scene (JSON text) in place of any scene the client has not been sent yet.

        A scene equal to the last one offered is dropped: otherwise a message with
        nothing new would still tell the viewer that something changed out of its
        sight, such as another side replacing its secret plot.
        """
        if scene_text == self.last_scene:
            return
        self.last_scene = scene_text
        if self.outbox.full():
            self.outbox.get_nowait()
        self.outbox.put_nowait(scene_message(scene_text))


def scene_message(scene_text: str) -> str:
    """The socket message carrying a scene: ``{"type": "scene", "scene": ...}``."""
    return '{"type":"scene","scene":' + scene_text + "}"


class Hub:
    def __init__(
        self, scenes_of: ScenesOf, per_game: int = SOCKETS_PER_GAME, per_client: int = SOCKETS_PER_CLIENT
    ) -> None:
        self._viewers: dict[str, set[Viewer]] = {}
        #: Places held by :meth:`admit` for sockets not joined yet, by game.
        self._held: dict[str, int] = {}
        self._by_client: dict[str, int] = {}
        self._scenes_of = scenes_of
        self.per_game = per_game
        self.per_client = per_client

    def room_problem(self, game_id: str, client: str) -> str:
        """Why one more socket of ``client`` watching ``game_id`` would be one too many ("" if it would not)."""
        if len(self._viewers.get(game_id, ())) + self._held.get(game_id, 0) >= self.per_game:
            return f"this game already has {self.per_game} live sockets, the most it may have"
        if client and self._by_client.get(client, 0) >= self.per_client:
            return f"this address already has {self.per_client} live sockets open, the most it may have"
        return ""

    def admit(self, game_id: str, client: str) -> str:
        """Hold a place for a socket about to open, or say why it would be one too many ("" when held).

        The place counts from now, not from :meth:`join`: sockets opened at once each find the
        others' places taken, though none of them has loaded its game and joined yet.
        """
        problem = self.room_problem(game_id, client)
        if not problem:
            _count(self._held, game_id, 1)
            if client:
                _count(self._by_client, client, 1)
        return problem

    def release(self, game_id: str, client: str) -> None:
        """Give back a place :meth:`admit` held for a socket that will not join."""
        _count(self._held, game_id, -1)
        if client:
            _count(self._by_client, client, -1)

    def join(self, game_id: str, viewer: Viewer, *, admitted: bool = False) -> None:
        """Add a viewer, in the place :meth:`admit` held for it if ``admitted``.

        Raises :class:`TooManySockets` if there is no room (checked and counted in one step: no
        await between); a viewer admitted always has room, since its place was counted.
        """
        if admitted:
            self.release(game_id, viewer.client)
        problem = self.room_problem(game_id, viewer.client)
        if problem:
            raise TooManySockets(problem)
        self._viewers.setdefault(game_id, set()).add(viewer)
        if viewer.client:
            _count(self._by_client, viewer.client, 1)

    def leave(self, game_id: str, viewer: Viewer) -> None:
        viewers = self._viewers.get(game_id)
        if viewers is None or viewer not in viewers:
            return
        viewers.discard(viewer)
        if not viewers:
            del self._viewers[game_id]
        if viewer.client:
            _count(self._by_client, viewer.client, -1)

    def watching(self, game_id: str) -> int:
        return len(self._viewers.get(game_id, ()))

    async def publish(self, live: LiveGame) -> None:
        async with live.lock:
            # Built under the lock so that every viewer sees the same moment of the game.
            viewers = list(self._viewers.get(live.id, ()))
            if not viewers:
                return
            try:
                scenes = await self._scenes_of(live, [viewer.sides for viewer in viewers])
            except OverBudget as err:
                # The viewers keep their last scene; the next change offers a new one.
                log.warning("game %s: %s", live.id, err)
                return
            for viewer, scene in zip(viewers, scenes, strict=True):
                viewer.offer_scene(scene)

    def games(self) -> list[str]:
        """The games some socket watches now."""
        return list(self._viewers)

    def chat(self, live: LiveGame, line: ChatLine) -> None:
        """Queue a chat line for the viewers of its game that hold a side there; spectators get none."""
        self.chat_line(live.id, line)

    def chat_line(self, game_id: str, line: ChatLine) -> None:
        """Queue a chat line of ``game_id`` for its viewers that hold a side there."""
        text = json.dumps({"type": "chat", "line": line.data()})
        for viewer in self._viewers.get(game_id, ()):
            if not viewer.sides:
                continue
            if viewer.notes.full():
                viewer.notes.get_nowait()
            viewer.notes.put_nowait(text)

    async def pump(self, viewer: Viewer) -> None:
        """Send the viewer's outbox and chat lines until the connection closes."""

        async def drain(queue: asyncio.Queue[str]) -> None:
            while True:
                await viewer.send(await queue.get())

        await asyncio.gather(drain(viewer.outbox), drain(viewer.notes))


def _count(counts: dict[str, int], key: str, change: int) -> None:
    """Add ``change`` to ``counts[key]``, dropping the key at zero (so idle games and addresses cost nothing)."""
    left = counts.get(key, 0) + change
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)
