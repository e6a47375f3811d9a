"""Sides: creating a game, joining one, and the rematch of a finished game."""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import secrets
from collections.abc import Mapping

from vectorwar.scenario import Scenario
from vectorwar.setup import new_seed
from vectorwar.web import imports, referee
from vectorwar.web.referee import SideForbidden
from vectorwar.web.service_bots import BotDriving
from vectorwar.web.service_core import Created, LiveGame, Player, decided_again
from vectorwar.web.store import OpenGame, SideTaken, token_hash


class PracticeGame(ValueError):
    """A side of a practice game (a creator's fixed seed) was claimed without the joiner's consent to it."""


class RematchRefused(ValueError):
    """A rematch asked of a game that is not over."""


def rematch_token(token: str, rematch_id: str) -> str:
    """A player's token for the rematch, worked out from their token for the finished game.

    The server keeps only tokens' hashes, so it cannot hand a link to a player who was
    not there when the rematch started; this way each side holder gets theirs whenever
    they ask with their old token, and nobody without it can.
    """
    digest = hashlib.sha256(f"vectorwar rematch {rematch_id} {token}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


class SideKeeping(BotDriving):
    """New games and who holds their sides."""

    async def create(
        self,
        scenario_id: str | Scenario,
        sides: Mapping[str, str],
        hotseat: bool = False,
        seed: int | None = None,
        options: Mapping[str, object] | None = None,
        scenario_toml: str | None = None,
        client: str | None = None,
    ) -> Created:
        """A new game of a built-in scenario (by id), a :class:`Scenario`, or a scenario file's text.

        ``client``: who asks (an address), whose games of computer players only are
        counted against :attr:`bot_games_per_client` (:class:`TooManyBotGames`).
        """
        opening = await self._work(
            "setting up the game",
            self.budgets.setup,
            functools.partial(referee.open_game, scenario_toml=scenario_toml),
            scenario_id,
            sides,
            hotseat,
            new_seed() if seed is None else seed,
            options,
        )
        players = tuple(Player(group, secrets.token_urlsafe(24)) for group in opening.groups)
        game_id = "g_" + secrets.token_hex(6)
        tokens = {token_hash(p.token): p.sides for p in players}
        self._admit_bot_game(game_id, opening, client)
        try:
            record = referee.record_of(game_id, opening, tokens, practice=seed is not None)
            await asyncio.to_thread(self.store.create, record)
        except BaseException:
            self._bot_games.pop(game_id, None)
            raise
        self._remember(LiveGame(referee.new_table(game_id, opening, tokens, practice=seed is not None)))
        async with self.locked(game_id) as live:
            await self._bots_move(live)
        return Created(game_id, players)

    async def import_game(self, body: bytes) -> str:
        """A finished game from a save file, replayed within the replay budget and stored to be watched; its id.

        Raises :class:`imports.ImportRefused` for a file that is no finished game or does not replay exactly.
        """
        imported = await self._work("replaying the save file", self.budgets.replay, imports.read_save, body)
        game_id = "g_" + secrets.token_hex(6)
        await asyncio.to_thread(self.store.create, imports.record_of(game_id, imported))
        self._remember(LiveGame(imports.table_of(game_id, imported)))
        return game_id

    async def open_games(self) -> list[OpenGame]:
        return await asyncio.to_thread(self.store.open_games)

    @decided_again
    async def join(self, game_id: str, side: str, *, practice: bool = False) -> Player:
        """Claim an open side of ``game_id``: a new token for it, given once; :class:`SideTaken` if it is not free.

        A practice game (its creator fixed the dice seed) is joined only with ``practice``, the joiner's
        consent to dice the creator can foresee; :class:`PracticeGame` otherwise.
        """
        async with self.locked(game_id) as live:
            table = live.table
            if table.practice and not practice:
                raise PracticeGame(
                    f"game {game_id} is a practice game: its creator fixed the dice seed and can foresee every "
                    "roll; join with practice set to agree to that"
                )
            if side not in table.controllers:
                raise SideTaken(f"game {game_id} has no side {side!r} (its sides: {', '.join(table.controllers)})")
            if table.rematch_of is not None:
                raise SideTaken(
                    f"game {game_id} is a rematch: its sides are kept for the players of {table.rematch_of}"
                )
            if side not in table.free_sides():
                raise SideTaken(f"side {side!r} of game {game_id} is already taken")
            token = secrets.token_urlsafe(24)
            await self._claim(live, (side,), token)
        await self._notify(live)
        return Player((side,), token)

    async def _claim(self, live: LiveGame, sides: tuple[str, ...], token: str) -> None:
        """Give ``sides`` to ``token`` (under the game's lock): stored, then on the table."""
        digest = token_hash(token)
        version = await asyncio.to_thread(self.store.claim_sides, live.id, sides, digest, live.table.version)
        live.table.version = version
        # A new dict rather than a change in place: the table's dict is read off the loop.
        live.table.tokens = {**live.table.tokens, digest: sides}

    @decided_again
    async def rematch(self, game_id: str, token: str | None, side: str) -> tuple[str, Player]:
        """The finished game's rematch for the caller holding ``side``: started by the first to ask.

        The same scenario and options, a fresh seed, every player moved on to the next side
        (two sides: swapped), bots with them. Returns the rematch's id and the caller's sides
        and token there; asking again gives the same. Raises 403, :class:`RematchRefused`.
        """
        async with self.locked(game_id) as live:
            table = live.table
            sides = table.acting_for(token, side)
            if not table.game.is_over:
                raise RematchRefused(f"game {game_id} is not over: a rematch starts once it has a result")
            if token is None:  # pragma: no cover - acting_for refuses no token
                raise SideForbidden(side)
            moved = referee.rematch_sides(table.controllers, sides)
            new_id = table.rematch
            if new_id is None:
                new_id = "g_" + secrets.token_hex(6)
                await self._start_rematch(live, new_id, moved, rematch_token(token, new_id))
                changed = live
            else:
                # The other players' sides wait for them: each claims theirs with the old token.
                new_token = rematch_token(token, new_id)
                async with self.locked(new_id) as fresh:
                    if token_hash(new_token) not in fresh.table.tokens:
                        await self._claim(fresh, moved, new_token)
                changed = fresh
        await self._notify(changed)
        return new_id, Player(moved, rematch_token(token, new_id))

    async def _start_rematch(self, live: LiveGame, new_id: str, sides: tuple[str, ...], token: str) -> None:
        table = live.table
        game = table.game
        opening = await self._work(
            "setting up the game",
            self.budgets.setup,
            referee.open_game,
            game.scenario,
            referee.rematch_controllers(table.controllers),
            False,
            new_seed(),
            dict(game.options),
        )
        tokens = {token_hash(token): sides}
        record = referee.record_of(new_id, opening, tokens, rematch_of=live.id)
        version = await asyncio.to_thread(self.store.create, record, table.version)
        table.rematch = new_id
        if version is not None:
            table.version = version
        fresh = referee.new_table(new_id, opening, tokens)
        fresh.rematch_of = live.id
        self._remember(LiveGame(fresh))
        async with self.locked(new_id) as started:
            await self._bots_move(started)
