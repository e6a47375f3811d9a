"""Shared helpers for the web server tests: a local mirror of a server game, a real server process."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from vectorwar.game import Game
from vectorwar.play import bot_rng, bot_turns, make_bots
from vectorwar.rules import Bot
from vectorwar.setup import set_up

#: How long a server subprocess may take to answer its first request.
START_TIMEOUT_S = 120.0


@dataclass
class Mirror:
    """The same game played locally: the server's bots are deterministic, so the mirror tracks it exactly.

    It also chooses the people's orders (the ``random`` bot's legal choices),
    so a test can play any system without knowing its notation.
    """

    game: Game
    server_bots: dict[str, Bot]
    people: dict[str, Bot] = field(default_factory=dict)

    @classmethod
    def of(cls, scenario: str, seed: int, sides: Mapping[str, str], people: str = "random") -> Mirror:
        setup = set_up(scenario, {s: c.removeprefix("bot:") for s, c in sides.items()}, seed=seed)
        humans = {s: people for s, player in setup.players.items() if player == "human"}
        mirror = cls(setup.game, setup.bots, make_bots(setup.game.system, humans))
        mirror.run_bots()
        return mirror

    def run_bots(self) -> None:
        # The kernel's bot loop, as the server runs it.
        for _ in bot_turns(self.game, self.server_bots):
            pass

    def rng(self, side: str) -> Any:
        return bot_rng(self.game.seed, side, len(self.game.history))

    def order_for(self, side: str) -> str:
        """A legal order for ``side`` now, as text."""
        return str(self.people[side].choose(self.game.state, side, self.rng(side)))

    def give(self, side: str, text: str) -> None:
        self.game.submit(side, text)
        self.run_bots()

    @property
    def clock(self) -> str:
        return str(self.game.clock)

    @property
    def step(self) -> int:
        """The prompt's number, which an order names (the scene's ``step``)."""
        return len(self.game.history)

    def due(self) -> list[str]:
        return [s for s in self.game.waiting_for if s in self.people]


def run_async(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run(main())`` in a thread of its own.

    Playwright's sync API leaves an event loop running in the test worker's
    main thread, where ``asyncio.run`` refuses to start.
    """
    failure: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as err:
            failure.append(err)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class Server:
    """``vectorwar serve`` as a real process on a loopback port."""

    db: str
    data_dir: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[str] | None = None
    #: More options for ``vectorwar serve``.
    args: tuple[str, ...] = ()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> str:
        """Start and wait until the API answers; returns what the server printed first."""
        env = {**os.environ, "VECTORWAR_DATA_DIR": str(self.data_dir)}
        command = [sys.executable, "-c", "from vectorwar.cli import app; app()", "serve", "--port", str(self.port)]
        if self.db:
            command += ["--db", self.db]
        command += self.args
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        # A liveness bound, not a timing check: a loaded machine may take a minute to start a server.
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                out = self.process.stdout.read() if self.process.stdout else ""
                raise RuntimeError(f"server exited with {self.process.returncode}: {out}")
            try:
                httpx.get(f"{self.url}/api/games", timeout=1).raise_for_status()
            except httpx.HTTPError:
                time.sleep(0.1)
                continue
            return self.process.stdout.readline() if self.process.stdout else ""
        raise RuntimeError(f"server did not answer within {START_TIMEOUT_S} s")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.process = None


@contextmanager
def running(db: str, data_dir: Path) -> Iterator[Server]:
    server = Server(db, data_dir)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def postgres_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    return found[-1].parent if found else None


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """A PostgreSQL cluster of our own under /tmp; yields its SQLAlchemy URL. Skips if impossible."""
    import pytest

    pgbin = postgres_bin()
    if pgbin is None:
        pytest.skip("no PostgreSQL binaries under /usr/lib/postgresql (apt-get install postgresql)")
    if shutil.which("runuser") is None or os.geteuid() != 0:
        pytest.skip("starting a throwaway PostgreSQL needs root and runuser (initdb refuses root itself)")
    port = free_port()
    root = Path(f"/tmp/vectorwar-pg-{port}")
    root.mkdir()
    shutil.chown(root, "postgres", "postgres")

    def as_postgres(*args: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True, capture_output=True, timeout=60)

    try:
        as_postgres(
            str(pgbin / "initdb"), "-D", f"{root}/data", "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--locale=C.UTF-8", "--no-sync",
        )  # fmt: skip
        as_postgres(
            str(pgbin / "pg_ctl"), "-D", f"{root}/data", "-l", f"{root}/log", "-w",
            "-o", f"-h 127.0.0.1 -p {port} -k {root} -F", "start",
        )  # fmt: skip
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname=postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE vectorwar")
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/vectorwar"
    finally:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(pgbin / "pg_ctl"), "-D", f"{root}/data", "-m", "immediate", "-w",
             "stop"],
            capture_output=True, timeout=60, check=False,
        )  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)
