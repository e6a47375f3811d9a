"""The fan-out between servers sharing a PostgreSQL: what a server does with other servers' announcements."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from tests.web.helpers import run_async, throwaway_postgres
from vectorwar.web.fanout import Fanout
from vectorwar.web.store import CHANNEL

URL = "postgresql+psycopg://postgres@127.0.0.1:5/none"


class Heard:
    def __init__(self) -> None:
        self.games: list[str] = []
        self.lines: list[tuple[str, int]] = []
        self.release = asyncio.Event()
        self.release.set()
        self.changed_event = asyncio.Event()

    async def changed(self, game_id: str) -> None:
        self.games.append(game_id)
        self.changed_event.set()
        await self.release.wait()

    async def chatted(self, game_id: str, number: int) -> None:
        self.lines.append((game_id, number))


def test_announcements_are_read_skipped_when_its_own_and_coalesced_per_game() -> None:
    async def main() -> None:
        heard = Heard()
        fanout = Fanout(URL, "me", heard.changed, heard.chatted, list)
        assert fanout.dsn == "postgresql://postgres@127.0.0.1:5/none"
        heard.release.clear()
        fanout._heard("game g_a 3 other")
        await heard.changed_event.wait()  # the first read of g_a is under way and waits
        for version in (4, 5, 6):
            fanout._heard(f"game g_a {version} other")  # three more changes meanwhile
        fanout._heard("game g_b 1 me")  # its own: its sockets were told already
        fanout._heard("chat g_a 1 other")
        fanout._heard("chat g_a 2 other")
        fanout._heard("nonsense")
        fanout._heard("game g_a x other")
        heard.release.set()
        chat = asyncio.ensure_future(fanout._send_chat())
        for _ in range(10_000):  # turns of the loop, not time: each hands the other tasks a turn
            if len(heard.lines) == 2 and not fanout._reading:
                break
            await asyncio.sleep(0)
        chat.cancel()
        # The burst of three came to one more read, not three; g_b was never read.
        assert heard.games == ["g_a", "g_a"]
        assert heard.lines == [("g_a", 1), ("g_a", 2)]

    run_async(main)


def test_a_sides_secret_change_is_read_for_that_side_only_and_coalesced() -> None:
    async def main() -> None:
        heard = Heard()
        secrets: list[tuple[str, int]] = []
        release, started = asyncio.Event(), asyncio.Event()

        async def secret_changed(game_id: str, position: int) -> None:
            secrets.append((game_id, position))
            started.set()
            await release.wait()

        fanout = Fanout(URL, "me", heard.changed, heard.chatted, list, secret_changed)
        fanout._heard("secret g_a 1 other")
        await started.wait()  # the first read of red's secrets is under way and waits
        for _ in range(3):
            fanout._heard("secret g_a 1 other")  # a burst of draft saves meanwhile
        fanout._heard("secret g_a 0 other")
        fanout._heard("secret g_a 0 me")
        release.set()
        for _ in range(10_000):
            if not fanout._reading:
                break
            await asyncio.sleep(0)
        # Never read as a change to the game (which would rebuild every side's scene).
        assert heard.games == []
        assert sorted(secrets) == [("g_a", 0), ("g_a", 1), ("g_a", 1)]
        # A server that does not follow secrets (none given) ignores them.
        deaf = Fanout(URL, "me", heard.changed, heard.chatted, list)
        deaf._heard("secret g_a 1 other")
        assert not deaf._reading

    run_async(main)


@pytest.mark.slow
def test_a_lost_listening_connection_is_made_again_and_every_watched_game_read_again() -> None:
    with throwaway_postgres() as url:

        async def main() -> None:
            heard = Heard()
            fanout = Fanout(url, "me", heard.changed, heard.chatted, lambda: ["g_watched"])
            await fanout.start()
            assert fanout.listening.is_set()
            dsn = fanout.dsn
            async with await psycopg.AsyncConnection.connect(dsn, autocommit=True) as other:
                await other.execute(f"SELECT pg_notify('{CHANNEL}', 'game g_x 1 other')")
                await asyncio.wait_for(heard.changed_event.wait(), 60)
                assert heard.games == ["g_x"]
                heard.changed_event.clear()
                # The listening connection is cut, as by a restart of the database's backend.
                await other.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
                )
                await asyncio.wait_for(heard.changed_event.wait(), 60)
                assert heard.games[-1] == "g_watched"
            await fanout.stop()

        run_async(main)
