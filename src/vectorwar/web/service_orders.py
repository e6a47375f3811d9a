"""Changing a game: orders, drafts, standing orders and the computers that cover a side."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Mapping

from vectorwar.autopilot import Standing, standing_order
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.game import Game
from vectorwar.play import bot_order
from vectorwar.rules import Bot
from vectorwar.web import referee
from vectorwar.web.referee import StalePrompt
from vectorwar.web.service_bots import BotDriving
from vectorwar.web.service_core import LiveGame, OverBudget, R, Submitted, decided_again, token_sides

log = logging.getLogger("vectorwar.web")


class Changing(BotDriving):
    """A side's orders and what else its player changes, each ruled on, stored and then told."""

    @decided_again
    async def submit(self, game_id: str, token: str | None, side: str, text: str, step: int) -> Submitted:
        """Take ``side``'s order written for the prompt at ``step``; raises order errors, 403, 409, over budget."""
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, side)
            before = table.game
            ruling = await self._give(live, before, side, text, step, viewer)
            if ruling.game is None:
                scene = await self.viewer_scene(live, viewer, limited=False)
                return Submitted(resolved=ruling.resolved, duplicate=True, scene_text=scene)
            # The order is in: its answer carries the scene, however long that takes.
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return Submitted(resolved=len(table.game.history) > len(before.history), duplicate=False, scene_text=scene)

    async def _give(
        self, live: LiveGame, before: Game, side: str, text: str, step: int, viewer: tuple[str, ...]
    ) -> referee.Ruling:
        """Rule on ``side``'s order and, unless it repeats one already taken, store it with the answers it drew."""
        ruling, after, base = await self._order(live, before, side, text, step, viewer)
        if ruling.game is not None:
            await self._persist(live, before, after, cleared_drafts=(side,))
            live.table.drafts.pop(side, None)
            if base is not None:
                live.table.keep_scene(after, viewer, base)
        return ruling

    async def check(self, game_id: str, token: str | None, side: str, text: str) -> str:
        """The canonical text of ``text`` as ``side``'s order now; nothing is stored."""
        # Read for the caller's sides only: another side's secrets play no part in this side's check.
        async with self.locked(game_id, functools.partial(token_sides, token)) as live:
            live.table.acting_for(token, side)
            game = live.table.game
        return await self._work("checking the order", self.budgets.check, referee.check_order, game, side, text)

    async def inspect(self, game_id: str, token: str | None, side: str | None, what: str, fn: Callable[[Game], R]) -> R:
        """``fn(game)`` on a worker within the check's budget, the caller acting for ``side`` (none:
        anyone may ask); nothing is changed or stored (the tutorials' checks use it)."""
        async with self.locked(game_id) as live:
            if side is not None:
                live.table.acting_for(token, side)
            game = live.table.game
        return await self._work(what, self.budgets.check, fn, game)

    @decided_again
    async def withdraw(self, game_id: str, token: str | None, side: str) -> None:
        async with self.locked(game_id) as live:
            live.table.acting_for(token, side)
            before = live.table.game
            after = referee.withdrawn(before, side)
            if after is None:
                return
            await self._persist(live, before, after)
        await self._notify(live)

    @decided_again
    async def set_draft(self, game_id: str, token: str | None, side: str, text: str, step: int | None = None) -> None:
        """Keep what ``side`` is editing; a draft written at a ``step`` that has passed is dropped.

        A browser saves drafts a moment after each edit, so the last save can
        arrive after the order it became (which cleared the draft): kept, it
        would come back as a stale draft at the next prompt.
        """
        async with self.locked(game_id) as live:
            live.table.acting_for(token, side)
            if not referee.draft_applies(live.table.game, step):
                return
            table = live.table
            secret = await asyncio.to_thread(
                self.store.set_draft, game_id, side, text, table.version, table.secret_version
            )
            # Only the side's own scene shows its draft: every other scene kept stays good.
            table.keep_secret(secret, (side,))
            if text:
                live.table.drafts[side] = text
            else:
                live.table.drafts.pop(side, None)

    @decided_again
    async def set_standing(
        self, game_id: str, token: str | None, side: str, standing: Standing, *, now: bool = False
    ) -> Submitted:
        """Keep ``side``'s standing orders, then let them (and the bots) answer what they may.

        ``now`` also answers the prompt ``side`` owes now with the standing
        orders (a skip button); refused with :class:`IllegalOrderError` when no
        standing answer is legal here. Raises 403, 404, over budget.
        """
        async with self.locked(game_id) as live:
            table = live.table
            viewer = table.acting_for(token, side)
            before = table.game
            answer = None
            if now and side in before.waiting_for:
                answer = await self._work(
                    "the standing orders", self.budgets.check, _standing_answer, before, side, standing
                )
            secret = await asyncio.to_thread(
                self.store.set_standing, game_id, side, standing.to_data(), table.version, table.secret_version
            )
            table.keep_secret(secret, (side,))
            table.standing[side] = standing
            if answer is not None:
                await self._give(live, before, side, answer, len(before.history), viewer)
            else:
                await self._bots_move(live)
            scene = await self.viewer_scene(live, viewer, limited=False)
        await self._notify(live)
        return Submitted(resolved=len(live.table.game.history) > len(before.history), duplicate=False, scene_text=scene)

    @decided_again
    async def play_for(self, game_id: str, side: str, bot: Bot | None) -> None:
        """Have ``bot`` play ``side`` from now on, its controller unchanged (``None``: its player again).

        The clocks (web/clocks.py) call it when a side misses its deadline and when
        its player takes it back; they keep who covers which side, and put it back
        on a table rebuilt from the store (:meth:`on_load`).
        """
        async with self.locked(game_id) as live:
            table = live.table
            bots = {s: b for s, b in table.bots.items() if s != side}
            # A new dict rather than a change in place: the table's bots are read off the loop.
            table.bots = bots if bot is None else {**bots, side: bot}
            await self._bots_move(live)
        await self._notify(live)

    @decided_again
    async def answer_once(self, game_id: str, side: str, bot: Bot) -> bool:
        """Have ``bot`` give ``side``'s orders for the prompt it owes now, and only that one.

        The clocks call it for a side that missed a deadline the table forgives (its player
        keeps the side). Answers whether an order went in; a bot that fails leaves the side waiting.
        """
        async with self.locked(game_id) as live:
            before = live.table.game
            if before.is_over or side not in before.waiting_for:
                return False
            try:
                order = await self._work(
                    "the computer players' orders", self.budgets.bots, bot_order, before, side, bot
                )
                after = await self._work(
                    "the computer players' orders", self.budgets.order, referee.with_bot_order, before, side, order
                )
            except Exception:  # a bot's bug, or over budget: the side waits, as any bot's would
                log.exception("game %s: the computer's orders for %s, late, could not be given", game_id, side)
                return False
            await self._persist(live, before, after)
            await self._bots_move(live)
        await self._notify(live)
        return True

    async def _order(
        self, live: LiveGame, before: Game, side: str, text: str, step: int, viewer: tuple[str, ...]
    ) -> tuple[referee.Ruling, Game, str | None]:
        """Rule on an order, then the bots' answers and the answer's scene: one trip to a worker thread.

        The ruling must come within the order budget (else :class:`OverBudget`,
        nothing taken); the rest then has the bots' budget, past which the order
        stands without the bots' answers. One trip rather than three keeps an
        order's round trip short on a busy machine, where every hand-over
        between threads waits for the scheduler. Returns the ruling, the game
        after it (and the bots), and that game's scene for ``viewer`` if built.
        """
        progress = _Progress()
        table = live.table
        pooled = self.bot_pool is not None
        work = functools.partial(
            _play_order, progress, live.id, before, side, text, step, table.bots, viewer, table.standing, pooled
        )
        running = asyncio.get_running_loop().run_in_executor(self._pool, work)
        # A result nobody waits for any more is still collected, so a late error is not reported as lost.
        running.add_done_callback(lambda done: done.cancelled() or done.exception())
        try:
            ruling, answer, base = await asyncio.wait_for(asyncio.shield(running), self.budgets.order)
        except TimeoutError:
            if progress.ruling is None:
                raise OverBudget(f"{side}'s order", self.budgets.order) from None
            try:
                ruling, answer, base = await asyncio.wait_for(asyncio.shield(running), self.budgets.bots)
            except TimeoutError:
                log.warning("game %s: %s", live.id, OverBudget("the computer players' orders", self.budgets.bots))
                return progress.ruling, progress.ruling.game or before, None
        if answer is not None and answer.failure is not None:
            log.error("game %s: a bot failed", live.id, exc_info=answer.failure)
        after = answer.game if answer is not None and answer.game is not None else ruling.game
        if pooled and ruling.game is not None:
            answered = await self._pooled_bots_answer(live, ruling.game)
            if answered is not None:
                after, base = answered, None
        return ruling, after or before, base


class _Progress:
    """How far an order's worker has got, for the event loop to read if the worker runs late."""

    ruling: referee.Ruling | None = None


def _play_order(
    progress: _Progress,
    game_id: str,
    game: Game,
    side: str,
    text: str,
    step: int,
    bots: Mapping[str, Bot],
    viewer: tuple[str, ...],
    standing: Mapping[str, Standing],
    pooled: bool = False,
) -> tuple[referee.Ruling, referee.BotAnswer | None, str | None]:
    """The ruling, the bots' answers and the scene (``pooled``: the bots answer in worker processes later)."""
    ruling = _rule(game_id, game, side, text, step)
    progress.ruling = ruling
    if ruling.game is None:
        return ruling, None, None
    if pooled:
        # A scene the bots' orders are about to change is not worth building.
        due = referee.next_bot_side(ruling.game, bots) is not None
        return ruling, None, None if due else referee.scene_base(ruling.game, viewer)
    answer = referee.bots_answer(ruling.game, bots, standing)
    return ruling, answer, referee.scene_base(answer.game or ruling.game, viewer)


def _standing_answer(game: Game, side: str, standing: Standing) -> str:
    """The order ``standing`` gives for ``side`` now, whatever is new; refused when none is legal here."""
    answer = standing_order(game, side, standing, now=True)
    if answer is None:
        raise IllegalOrderError(
            "skip",
            "no standing order answers this prompt (hold is not an order here): give your orders",
            "standing orders",
        )
    return answer


def _rule(game_id: str, game: Game, side: str, text: str, step: int) -> referee.Ruling:
    """The referee's ruling on an order, with a rule system's bug logged (the table is untouched)."""
    try:
        return referee.rule_on_order(game, side, text, step)
    except (OrderSyntaxError, IllegalOrderError, StalePrompt):
        raise
    except Exception:
        log.exception("game %s: resolving %s's order failed; the game stays as stored", game_id, side)
        raise
