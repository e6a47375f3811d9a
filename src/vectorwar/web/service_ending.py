"""Ending a game outside the rules (docs/web.md, *Ending a game*) and the players' chat."""

from __future__ import annotations

import asyncio

from sqlalchemy.exc import IntegrityError

from vectorwar.web import referee
from vectorwar.web.chat import ChatForbidden, ChatKeyReused, ChatLine, check_text
from vectorwar.web.service_core import LiveGame, ServiceCore, decided_again


class Ending(ServiceCore):
    """Conceding, offering and declining to end a game, and the chat."""

    @decided_again
    async def concede(self, game_id: str, token: str | None, side: str) -> str:
        """``side`` concedes; returns the caller's scene. Raises 403, or :class:`IllegalOrderError` once over."""
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, side)
            before = table.game
            after = await self._work("conceding", self.budgets.order, referee.conceded, before, side)
            await self._persist(live, before, after)
            await self._note_ending(live, None, f"{side} conceded")
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return scene

    @decided_again
    async def offer_end(self, game_id: str, token: str | None, side: str) -> str:
        """``side`` offers to end the game as a draw, or accepts the open offer; returns the caller's scene.

        The computer players answer at once; the game ends when every side has agreed.
        """
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, side)
            before = table.game
            answer = await self._work(
                "asking the computer players",
                self.budgets.bots,
                referee.agree_to_end,
                before,
                table.end_offer,
                (side,),
                table.bots,
            )
            if answer.game is not None:
                await self._persist(live, before, answer.game)
            await self._note_ending(live, answer.offer, answer.note)
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return scene

    @decided_again
    async def decline_end(self, game_id: str, token: str | None, side: str) -> str:
        """``side`` declines the open offer to end the game, which is then withdrawn; returns the caller's scene."""
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, side)
            await self._note_ending(live, None, referee.decline_end(table.game, table.end_offer, side))
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return scene

    async def _note_ending(self, live: LiveGame, offer: referee.EndOffer | None, note: str) -> None:
        """Store the open offer and the note (every process shows them), then keep them on the table."""
        table = live.table
        agreed = None if offer is None else offer.agreed
        step = len(table.game.history)
        table.version = await asyncio.to_thread(self.store.set_ending, live.id, agreed, note, step, table.version)
        table.note_ending(offer, note)

    # -- chat ---------------------------------------------------------------

    async def say(
        self, game_id: str, token: str | None, side: str, text: str, key: str | None = None
    ) -> tuple[ChatLine, bool]:
        """Store ``side``'s chat line and hand it to the chat listeners; raises ChatRefused, 403, 404.

        Answers the line and whether it is new. ``key``: the client's idempotency key; a
        retry with a key already stored answers the stored line and stores nothing, sends
        nothing and counts against no rate limit (a key reused for other words is refused).
        """
        line_text = check_text(text)
        async with self.locked(game_id) as live:
            live.table.acting_for(token, side)
            if key is not None:
                stored = await asyncio.to_thread(self.store.chat_line, game_id, key)
                if stored is not None:
                    if (stored.side, stored.text) != (side, line_text):
                        raise ChatKeyReused(key)
                    return stored, False
            self.chat_gate.admit(game_id, side)
            # Under the lock: the store numbers a game's lines one after another.
            try:
                line = await asyncio.to_thread(self.store.add_chat, game_id, side, line_text, key)
            except IntegrityError:
                # The same key stored meanwhile by another process (a retry sent to both): that line stands.
                if key is None:
                    raise
                stored = await asyncio.to_thread(self.store.chat_line, game_id, key)
                if stored is None:
                    raise
                if (stored.side, stored.text) != (side, line_text):
                    raise ChatKeyReused(key) from None
                return stored, False
        for listener in self._chat_listeners:
            await listener(live, line)
        return line, True

    async def chat(self, game_id: str, token: str | None) -> list[ChatLine]:
        """The game's chat so far, for a token holding one of its sides; a spectator gets :class:`ChatForbidden`."""
        async with self.locked(game_id) as live:
            if not live.sides_of(token):
                raise ChatForbidden()
        return await asyncio.to_thread(self.store.chat, game_id)
