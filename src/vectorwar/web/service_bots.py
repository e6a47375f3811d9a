"""The computer players' turns: on the service's worker threads, or decided in worker processes.

Given a :class:`~vectorwar.web.botpool.BotPool`, the computer players think
in its worker processes, a decision at a time: one over its budget is
stopped with its process and asked again later, people's games are served
first, and games of computer players only are played on in the background
(:meth:`BotDriving._drive`), so many per client address at once.
"""

from __future__ import annotations

import asyncio
import logging

from vectorwar.game import Game
from vectorwar.play import bot_order
from vectorwar.rules import Order
from vectorwar.web import referee
from vectorwar.web.botpool import BOTS_ONLY, PEOPLE, BotFailed, BotOverBudget, Decision
from vectorwar.web.referee import GameNotFound, Table
from vectorwar.web.service_core import LiveGame, OverBudget, ServiceCore, TooManyBotGames
from vectorwar.web.store import StaleGame

log = logging.getLogger("vectorwar.web")


class BotDriving(ServiceCore):
    """The bots' answers after every change, and the games of computer players only played on."""

    async def _bots_answer(self, live: LiveGame, game: Game) -> Game | None:
        """The game after the bots' orders (``None``: none given); a failing or slow bot's side waits."""
        if self.bot_pool is not None:
            return await self._pooled_bots_answer(live, game)
        try:
            answer = await self._work(
                "the computer players' orders",
                self.budgets.bots,
                referee.bots_answer,
                game,
                live.table.bots,
                live.table.standing,
            )
        except OverBudget as err:
            log.warning("game %s: %s", live.id, err)
            return None
        if answer.failure is not None:
            log.error("game %s: a bot failed", live.id, exc_info=answer.failure)
        return answer.game

    async def _bots_move(self, live: LiveGame) -> bool:
        """Let the bots give every order they owe now and store them; returns whether any did.

        With worker processes, a game of computer players only is played on in the
        background instead, a stored order at a time (:meth:`_drive`), and this returns at once.
        """
        if self.bot_pool is not None and not referee.has_people(live.table.controllers):
            if referee.next_bot_side(live.table.game, live.table.bots) is not None:
                self._start_driving(live.id)
            return False
        before = live.table.game
        after = await self._bots_answer(live, before)
        if after is None:
            return False
        try:
            await self._persist(live, before, after)
        except StaleGame as err:
            # Another process changed the game first: the bots answer the game it left, at once.
            log.info("%s; the computer players are asked again", err)
            self._soon(self._ask_again(live.id, 0.0))
            return False
        return True

    # -- computer players in worker processes (docs/web.md, "Deployment and limits") ----------

    async def _decide(self, table: Table, game: Game, side: str) -> Order:
        """``side``'s bot's next order: in a worker process when there is a pool and the bot has a name there.

        Raises :class:`BotOverBudget` or :class:`OverBudget` past the bots' budget, :class:`BotFailed`.
        """
        controller = table.controllers.get(side, "")
        if self.bot_pool is None or not controller.startswith(referee.BOT_PREFIX):
            return await self._work(
                "the computer players' orders", self.budgets.bots, bot_order, game, side, table.bots[side]
            )
        decision = Decision(
            system=game.system.manifest.name,
            state=game.state,
            seed=game.seed,
            step=len(game.history),
            side=side,
            bot=controller.removeprefix(referee.BOT_PREFIX),
        )
        lane = PEOPLE if referee.has_people(table.controllers) else BOTS_ONLY
        return await self.bot_pool.decide(decision, lane=lane, budget=self.budgets.bots)

    async def _next_bot_order(self, live: LiveGame, game: Game) -> Game | None:
        """The game after the next bot's order; ``None`` when no bot owes one, or its side must wait (logged)."""
        side = referee.next_bot_side(game, live.table.bots)
        if side is None:
            return None
        try:
            order = await self._decide(live.table, game, side)
            after = await self._work(
                "the computer players' orders", self.budgets.order, referee.with_bot_order, game, side, order
            )
        except (BotOverBudget, OverBudget) as err:
            log.warning("game %s: %s's computer player: %s; it is asked again later", live.id, side, err)
            self._ask_again_later(live.id)
            return None
        except BotFailed as err:
            log.error("game %s: %s's computer player failed; its side waits\n%s", live.id, side, err.details)
            return None
        except Exception:  # a bot's illegal order, or a rule system's bug resolving it: that side waits
            log.exception("game %s: %s's computer player's order could not be given; its side waits", live.id, side)
            return None
        self._retries.pop(live.id, None)
        return after

    async def _pooled_bots_answer(self, live: LiveGame, game: Game) -> Game | None:
        """Every order the bots and the standing orders owe now (``None``: none given).

        The bots decide a decision at a time in the worker processes; the
        standing orders (cheap: a hold, or the shots the rules list) are given
        here, before each bot's, so the game is the one the kernel's bot loop plays.
        """
        current = game
        while True:
            # The kernel's bot loop with no bots: only the standing orders answer here.
            standing = await self._work(
                "the standing orders", self.budgets.check, referee.bots_answer, current, {}, live.table.standing
            )
            if standing.failure is not None:
                log.error("game %s: a standing order failed", live.id, exc_info=standing.failure)
            after = standing.game or await self._next_bot_order(live, current)
            if after is None:
                break
            current = after
        return None if current is game else current

    def _admit_bot_game(self, game_id: str, opening: referee.Opening, client: str | None) -> None:
        """Count a new game of computer players only against its client; raises :class:`TooManyBotGames`."""
        if self.bot_pool is None or referee.has_people(opening.controllers):
            return
        if client is not None:
            running = sum(1 for owner in self._bot_games.values() if owner == client)
            if running >= self.bot_games_per_client:
                raise TooManyBotGames(self.bot_games_per_client, self.ask_again_after)
        self._bot_games[game_id] = client or ""

    def _start_driving(self, game_id: str) -> None:
        if game_id in self._drivers:
            return
        task = asyncio.get_running_loop().create_task(self._drive(game_id), name=f"vectorwar-bots-{game_id}")
        self._drivers[game_id] = task
        task.add_done_callback(lambda _done: self._drivers.pop(game_id, None))

    async def _drive(self, game_id: str) -> None:
        """Play a game of computer players only on, a stored order at a time, until it is over or a bot must wait.

        The game's lock is held only to read and to store, not while a bot thinks:
        spectators' scenes are answered meanwhile.
        """
        try:
            while True:
                async with self.locked(game_id) as live:
                    before = live.table.game
                if referee.next_bot_side(before, live.table.bots) is None:
                    break
                after = await self._next_bot_order(live, before)
                if after is None:
                    if game_id not in self._asking_again:
                        break  # failed for good: the game waits where it is
                    return  # asked again later, still counted against its client
                async with self.locked(game_id) as live:
                    if live.table.game is not before:
                        continue  # changed meanwhile (rebuilt from the store): decide again
                    try:
                        await self._persist(live, before, after)
                    except StaleGame:
                        continue  # changed by another process: decide again on its game
                await self._notify(live)
        except GameNotFound:
            pass
        except Exception:
            log.exception("game %s: playing the computer players on failed; they are asked again later", game_id)
            self._ask_again_later(game_id)
            return
        self._bot_games.pop(game_id, None)
        self._retries.pop(game_id, None)

    def _ask_again_later(self, game_id: str) -> None:
        """Ask the game's bots again after a while, longer each time in a row; a game that keeps failing waits."""
        if game_id in self._asking_again:
            return
        tries = self._retries.get(game_id, 0)
        if tries >= ASK_AGAIN_TIMES:
            log.error(
                "game %s: its computer players ran over their budget %d times in a row; the game waits "
                "until it is next loaded",
                game_id,
                tries,
            )
            self._retries.pop(game_id, None)
            self._bot_games.pop(game_id, None)
            return
        self._retries[game_id] = tries + 1
        delay = self.ask_again_after * 2**tries
        task = asyncio.get_running_loop().create_task(self._ask_again(game_id, delay))
        self._asking_again[game_id] = task
        task.add_done_callback(lambda _done: self._asking_again.pop(game_id, None))

    async def _ask_again(self, game_id: str, delay: float) -> None:
        await asyncio.sleep(delay)
        self._asking_again.pop(game_id, None)
        try:
            async with self.locked(game_id) as live:
                moved = await self._bots_move(live)
            if moved:
                await self._notify(live)
        except GameNotFound:
            self._bot_games.pop(game_id, None)
        except Exception:
            log.exception("game %s: asking the computer players again failed", game_id)


#: Times in a row a game's bots are asked again after running over their budget, before the game waits.
ASK_AGAIN_TIMES = 5
