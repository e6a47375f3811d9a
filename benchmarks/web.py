"""Web server benchmark: many concurrent games driven by scripted clients over loopback.

Run with ``.venv/bin/python benchmarks/web.py`` and read the figures.

It starts ``vectorwar serve`` as a real process on a free loopback port with
a throwaway SQLite file, creates GAMES VV5 Dogfights (a person against the
server's greedy bot) and plays each with a scripted client: a WebSocket that
receives every scene, and an order over HTTP after a think time. Each client
keeps a local copy of its game (the server's bot is deterministic) to write
legal orders, and comes from an address of its own on loopback (127.0.x.y),
as players on the network do, so the server's per-address limits count it
alone. A client whose game ends starts another. Target: order round-trip p99
at most 50 ms. The server's memory (resident set, now and at its peak) is
read from /proc.

Three modes:

* ``--attacker off|on|both`` (the default mode): the players alone, then with
  one malicious client that sends a bad request every second, in turn the
  four of issue 15 (the MSC check 'Hawk 99999999', the VMS check 'Tern aft1:A=4
  port1:rot=3 R99999999', a scenario upload with velocity B=99999999999, and an
  order body of a megabyte), each on a fresh server; prints both p99s and their
  ratio. Target: the attacker moves the players' p99 by less than 20 %.
* ``--processes N``: N ``vectorwar serve`` processes on one throwaway
  PostgreSQL (issue 56), every request and socket sent to a process at random
  (a round-robin proxy's worst case: no game kept on one process). Runs with 1,
  2 and N processes, each on a fresh database, and prints each one's order p50
  and p99 and their ratios to one process. Target on a quiet machine: 1,000
  games on 4 processes with order p99 at most 100 ms.
* ``--slowdown``: one server and its players for the whole run, in windows:
  a quiet one before each load, and the loads: a flood of refused inputs
  (several attackers sending bad requests back to back), 300 spectator
  sockets on one game (these two from a process of their own, so that they
  do not slow the players' timing), and two games of ``search:3`` computer
  players against each other. Prints the players' order p99 in each window as a ratio to that
  of every quiet window's orders together (target: at most 1.5; the quiet
  windows' own ratios show how much the machine drifted), and, after each
  attack's last answer and its budget, the server's CPU share next to the
  quiet windows': work a request left running after its answer shows
  there (the computer players' games go on by design: their worker processes'
  CPU is shown apart).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.game import Game
from vectorwar.play import bot_rng, make_bots
from vectorwar.registry import get_system
from vectorwar.rules import Bot

TARGET_P99_MS = 50.0
#: Several processes on one PostgreSQL, on a quiet machine (issue 56).
TARGET_SCALED_P99_MS = 100.0
#: How much one malicious client may move the players' order p99 (issue 15).
TARGET_ATTACK_RATIO = 1.2
#: How much each load of the slowdown benchmark may move the other players' order p99 (issue 56).
TARGET_SLOWDOWN_RATIO = 1.5
ATTACK_EVERY_S = 1.0
SCENARIO = "vv5-dogfight"
SIDES = {"red": "human", "blue": "bot:greedy"}
#: Seconds a server may take to answer after it is started (a loaded machine is slow to import everything).
START_TIMEOUT_S = 300.0
#: The largest budget of the requests the slowdown's attackers send (a set-up, a scene: service.Budgets).
ATTACK_BUDGET_S = 5.0
#: Attackers of the flood, each sending its next refused request as soon as the last is answered.
FLOOD_CLIENTS = 8
SPECTATORS = 300
BOT_GAME_SIDES = {"red": "bot:search:3", "blue": "bot:search:3"}


def client_address(n: int) -> str:
    """The loopback address of the ``n``-th scripted client (the whole of 127.0.0.0/8 is loopback)."""
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


def http_client(address: str, connections: int = 4) -> httpx.AsyncClient:
    """An HTTP client whose connections come from ``address``."""
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    transport = httpx.AsyncHTTPTransport(local_address=address, limits=limits)
    return httpx.AsyncClient(transport=transport, timeout=60)


@dataclass
class Client:
    """One scripted player: its game's id and token, and the local copy it writes orders from."""

    game_id: str
    token: str
    game: Game
    bots: dict[str, Bot]
    me: Bot
    address: str = "127.0.0.1"
    #: (when the order was sent, by the monotonic clock; its round trip in ms)
    orders: list[tuple[float, float]] = field(default_factory=list)
    scenes: int = 0
    retries: int = 0
    games: int = 1

    @property
    def times_ms(self) -> list[float]:
        return [ms for _, ms in self.orders]

    def follow_bots(self) -> None:
        while not self.game.is_over:
            due = [s for s in self.game.waiting_for if s in self.bots]
            if not due:
                return
            for side in due:
                rng = bot_rng(self.game.seed, side, len(self.game.history))
                self.game.submit(side, self.bots[side].choose(self.game.state, side, rng))


@dataclass
class Attacker:
    """One malicious client: a bad request every ``ATTACK_EVERY_S``, the four attacks in turn."""

    statuses: dict[str, list[int]] = field(default_factory=dict)
    times_ms: list[float] = field(default_factory=list)

    async def run(self, http: httpx.AsyncClient, url: str, until: float) -> None:
        attacks = await issue_15_attacks(http, url)
        n = 0
        while time.monotonic() < until:
            label, path, body, headers = attacks[n % len(attacks)]
            n += 1
            start = time.perf_counter()
            status = await send_bad(http, f"{url}{path}", body, headers)
            self.times_ms.append((time.perf_counter() - start) * 1000)
            self.statuses.setdefault(label, []).append(status)
            await asyncio.sleep(ATTACK_EVERY_S)


Attack = tuple[str, str, Any, dict[str, str]]


async def issue_15_attacks(http: httpx.AsyncClient, url: str) -> list[Attack]:
    """Issue 15's four bad requests, against two games of the attacker's own."""
    sides = {"red": "human", "blue": "human"}
    games = {}
    for scenario in ("msc-duel", "vms-capital-duel-msc"):
        answer = await http.post(f"{url}/api/games", json={"scenario": scenario, "sides": sides})
        answer.raise_for_status()
        game = answer.json()
        token = next(p["token"] for p in game["players"] if "red" in p["sides"])
        games[scenario] = (game["id"], {"Authorization": f"Bearer {token}"})
    upload = scenario_paths()["vms-capital-duel-msc"].read_text().replace('"A=1"', '"B=99999999999"')
    msc, msc_auth = games["msc-duel"]
    vms, vms_auth = games["vms-capital-duel-msc"]
    vms_check = {"side": "red", "text": "Tern aft1:A=4 port1:rot=3 R99999999"}
    return [
        ("msc-check", f"/api/games/{msc}/check", {"side": "red", "text": "Hawk 99999999"}, msc_auth),
        ("vms-check", f"/api/games/{vms}/check", vms_check, vms_auth),
        ("scenario-upload", "/api/games", {"scenario_toml": upload}, {}),
        ("huge-order", f"/api/games/{msc}/orders", {"side": "red", "text": "Hawk 1 " * 150_000, "step": 0}, msc_auth),
    ]  # fmt: skip


async def flood_attacks(http: httpx.AsyncClient, url: str) -> list[Attack]:
    """Issue 15's four and issue 56's other refused inputs: nested TOML, bad JSON, a stranger's token, no game."""
    attacks = await issue_15_attacks(http, url)
    msc_order = next(a for a in attacks if a[0] == "huge-order")
    nested = "x" + ".x" * 20_000 + " = 1\n"  # some 40 KB of dotted keys, each a table inside the last
    return [
        *attacks,
        ("nested-toml", "/api/games", {"scenario_toml": nested}, {}),
        ("bad-json", msc_order[1], b'{"side": "red", "text": ', {"Content-Type": "application/json"}),
        ("stranger", msc_order[1], {"side": "red", "text": "Hawk 1", "step": 0}, {"Authorization": "Bearer nobody"}),
        ("no-game", "/api/games/g_000000000000/orders", {"side": "red", "text": "x", "step": 0}, {}),
    ]


async def send_bad(http: httpx.AsyncClient, url: str, body: Any, headers: dict[str, str]) -> int:
    """The status a bad request got (0: the server closed the connection, which answers it too)."""
    try:
        if isinstance(body, bytes):
            answer = await http.post(url, content=body, headers=headers)
        else:
            answer = await http.post(url, json=body, headers=headers)
        return answer.status_code
    except httpx.TransportError:
        return 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_s(pid: int) -> float:
    """CPU time the process has used (user + system), which the machine's other load does not inflate."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """The live processes below ``pid`` (a server's computer-player workers, and what starts them)."""
    found = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                for child in (task / "children").read_text().split():
                    found += [int(child), *descendants(int(child))]
    return found


def tree_cpu_s(pid: int) -> tuple[float, float]:
    """CPU time of the process and of the live processes below it, apart."""
    spent = 0.0
    for child in descendants(pid):
        with contextlib.suppress(OSError):
            spent += cpu_s(child)
    return cpu_s(pid), spent


def rss_kib(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


def percentile(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] if ordered else float("nan")


def ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b else float("nan")


# -- servers --------------------------------------------------------------------


class Servers:
    """``count`` ``vectorwar serve`` processes on ``db`` (``None``: a throwaway SQLite file each), on loopback."""

    def __init__(self, count: int = 1, db: str | None = None, args: tuple[str, ...] = ()) -> None:
        self.ports = [free_port() for _ in range(count)]
        self.db = db
        self.args = args
        self.processes: list[subprocess.Popen[bytes]] = []
        self._tmp = tempfile.TemporaryDirectory(prefix="vectorwar-bench-")

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    async def __aenter__(self) -> Servers:
        env = {**os.environ, "VECTORWAR_DATA_DIR": self._tmp.name}

        def start(port: int) -> subprocess.Popen[bytes]:
            command = [sys.executable, "-c", "from vectorwar.cli import app; app()", "serve", "--port", str(port)]
            if self.db is not None:
                command += ["--db", self.db]
            process = subprocess.Popen([*command, *self.args], env=env, stdout=subprocess.DEVNULL)
            self.processes.append(process)
            return process

        try:
            # The first migrates the database; the others then join it, started together.
            await wait_until_up(self.urls[0], start(self.ports[0]))
            rest = [start(port) for port in self.ports[1:]]
            await asyncio.gather(*(wait_until_up(url, p) for url, p in zip(self.urls[1:], rest, strict=True)))
        except BaseException:
            await self.__aexit__()
            raise
        return self

    async def __aexit__(self, *_: object) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        self._tmp.cleanup()

    def cpu(self) -> tuple[float, float]:
        """CPU seconds of the web processes, and of their computer-player workers."""
        web = workers = 0.0
        for pid in self.pids:
            own, kids = tree_cpu_s(pid)
            web += own
            workers += kids
        return web, workers


async def wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient() as http:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with {process.returncode}")
            try:
                (await http.get(f"{url}/api/games")).raise_for_status()
                return
            except httpx.HTTPError:
                await asyncio.sleep(0.2)
    raise RuntimeError(f"the server did not start within {START_TIMEOUT_S:g} s")


def postgres_bin() -> Path | None:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    return found[-1].parent if found else None


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[Callable[[], str]]:
    """A PostgreSQL cluster of our own under /tmp (the recipe of tests/web/helpers.py); yields a maker of
    fresh databases' SQLAlchemy URLs. Exits with the reason when it cannot start one."""
    pgbin = postgres_bin()
    if pgbin is None:
        raise SystemExit(
            "--processes needs PostgreSQL's binaries under /usr/lib/postgresql (apt-get install postgresql)"
        )
    if shutil.which("runuser") is None or os.geteuid() != 0:
        raise SystemExit("--processes starts a throwaway PostgreSQL: that needs root and runuser")
    port = free_port()
    root = Path(f"/tmp/vectorwar-bench-pg-{port}")
    root.mkdir()
    shutil.chown(root, "postgres", "postgres")

    def as_postgres(*args: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True, capture_output=True, timeout=120)

    made = 0

    def fresh() -> str:
        import psycopg

        nonlocal made
        made += 1
        with psycopg.connect(f"host=127.0.0.1 port={port} user=postgres dbname=postgres", autocommit=True) as db:
            db.execute(f"CREATE DATABASE bench{made}")
        return f"postgresql+psycopg://postgres@127.0.0.1:{port}/bench{made}"

    try:
        as_postgres(
            str(pgbin / "initdb"), "-D", f"{root}/data", "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--locale=C.UTF-8", "--no-sync",
        )  # fmt: skip
        # Enough connections for several servers' pools and listeners; no fsync: a benchmark's data is thrown away.
        as_postgres(
            str(pgbin / "pg_ctl"), "-D", f"{root}/data", "-l", f"{root}/log", "-w",
            "-o", f"-h 127.0.0.1 -p {port} -k {root} -F -c max_connections=300", "start",
        )  # fmt: skip
        yield fresh
    finally:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", str(pgbin / "pg_ctl"), "-D", f"{root}/data", "-m", "immediate", "-w",
             "stop"],
            capture_output=True, timeout=120, check=False,
        )  # fmt: skip
        shutil.rmtree(root, ignore_errors=True)


# -- players ----------------------------------------------------------------------


async def new_client(
    http: httpx.AsyncClient, url: str, seed: int, scenario_id: str, address: str = "127.0.0.1"
) -> Client:
    answer = await http.post(f"{url}/api/games", json={"scenario": scenario_id, "sides": SIDES, "seed": seed})
    answer.raise_for_status()
    created = answer.json()
    scenario = builtin_scenario(scenario_id)
    system = get_system(scenario.system)
    client = Client(
        created["id"],
        created["players"][0]["token"],
        Game.new(system, scenario, seed),
        make_bots(system, {"blue": "greedy"}),
        make_bots(system, {"red": "random"})["red"],
        address,
    )
    client.follow_bots()
    return client


async def next_game(client: Client, http: httpx.AsyncClient, url: str, scenario_id: str) -> None:
    """Start the client on a new game once its last is over (a seed it has not played)."""
    fresh = await new_client(http, url, random.Random(client.game_id).randrange(10**9), scenario_id, client.address)
    client.game_id, client.token, client.game = fresh.game_id, fresh.token, fresh.game
    client.games += 1


async def play(
    client: Client, http: httpx.AsyncClient, urls: list[str], think: float, until: float, scenario: str = SCENARIO
) -> None:
    """Order after each think time until ``until``; each order and each socket goes to one of ``urls`` at random."""
    rng = random.Random(client.game_id)
    while time.monotonic() < until:
        if client.game.is_over:
            await next_game(client, http, rng.choice(urls), scenario)
        url = rng.choice(urls)
        ws_url = url.replace("http://", "ws://") + f"/ws/games/{client.game_id}?token={client.token}"
        async with connect(ws_url, max_size=None, local_addr=(client.address, 0)) as ws:
            watcher = asyncio.create_task(watch(client, ws))
            try:
                await play_game(client, http, urls, rng, think, until)
            finally:
                watcher.cancel()


async def watch(client: Client, ws: ClientConnection) -> None:
    # A socket the server closes (one over a limit) ends the watch; the player goes on over HTTP.
    with contextlib.suppress(Exception):
        async for _message in ws:
            client.scenes += 1


async def play_game(
    client: Client, http: httpx.AsyncClient, urls: list[str], rng: random.Random, think: float, until: float
) -> None:
    while not client.game.is_over and time.monotonic() < until:
        await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
        game = client.game
        rng_order = bot_rng(game.seed, "red", len(game.history))
        text = str(client.me.choose(game.state, "red", rng_order))
        body = {"side": "red", "text": text, "step": len(game.history)}
        sent = time.monotonic()
        start = time.perf_counter()
        for attempt in range(5):
            try:
                answer = await http.post(
                    f"{rng.choice(urls)}/api/games/{client.game_id}/orders",
                    json=body,
                    headers={"Authorization": f"Bearer {client.token}"},
                )
            except httpx.TransportError:
                # A kept-alive connection closed under us: the step makes the retry harmless.
                client.retries += 1
                if attempt == 4:
                    raise
                continue
            if answer.status_code == 503 and attempt < 4:
                # GameChanged: other processes kept changing the game; the answer says when to try again.
                client.retries += 1
                await asyncio.sleep(float(answer.headers.get("Retry-After", "1")))
                continue
            break
        client.orders.append((sent, (time.perf_counter() - start) * 1000))
        answer.raise_for_status()
        game.submit("red", text)
        client.follow_bots()


async def start_players(
    urls: list[str], games: int, scenario: str, first_address: int = 0
) -> tuple[list[Client], list[httpx.AsyncClient]]:
    https = [http_client(client_address(first_address + n)) for n in range(games)]
    clients = await asyncio.gather(
        *(
            new_client(http, random.Random(seed).choice(urls), seed, scenario, client_address(first_address + seed))
            for seed, http in enumerate(https)
        )
    )
    return list(clients), https


def order_figures(times: list[float]) -> dict[str, Any]:
    return {
        "orders": len(times),
        "p50_ms": round(statistics.median(times), 2) if times else None,
        "p99_ms": round(percentile(times, 0.99), 2),
        "max_ms": round(max(times), 2) if times else None,
    }


# -- the players alone, and with issue 15's attacker --------------------------------


async def bench(
    games: int, seconds: float, think: float, scenario: str = SCENARIO, attacker: bool = False
) -> dict[str, Any]:
    async with Servers() as servers:
        urls, pid = servers.urls, servers.pids[0]
        idle = rss_kib(pid)
        clients, https = await start_players(urls, games, scenario)
        try:
            started = time.monotonic()
            web_before, workers_before = servers.cpu()
            client_before = time.process_time()
            players = [
                play(c, h, urls, think, started + seconds, scenario) for c, h in zip(clients, https, strict=True)
            ]
            bad = Attacker()
            # The attacker has a connection and an address of its own, as a separate client would.
            async with http_client("127.0.9.1") as evil:
                extra = [bad.run(evil, urls[0], started + seconds)] if attacker else []
                await asyncio.gather(*players, *extra)
            elapsed = time.monotonic() - started
            web, workers = servers.cpu()
            cpu = web - web_before
            client_cpu = time.process_time() - client_before
            memory = rss_kib(pid)
        finally:
            await asyncio.gather(*(h.aclose() for h in https))
    times = [t for c in clients for t in c.times_ms]
    figures = order_figures(times)
    attacked = ", one attacker sending a bad request a second" if attacker else ", no attacker"
    return {
        "benchmark": f"web: {games} concurrent {scenario} games vs greedy, scripted clients, think {think} s{attacked}",
        **figures,
        "orders_per_s": round(len(times) / elapsed, 1),
        "games_played": sum(c.games for c in clients),
        "finished_games": sum(c.game.is_over for c in clients),
        "scenes_pushed": sum(c.scenes for c in clients),
        "retries": sum(c.retries for c in clients),
        "target_p99_ms": TARGET_P99_MS,
        "server_cpu_ms_per_order": round(cpu * 1000 / len(times), 2) if times else None,
        "met": figures["p99_ms"] <= TARGET_P99_MS,
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "server_cpu_share": round(cpu / elapsed, 2),
        "bot_workers_cpu_share": round((workers - workers_before) / elapsed, 2),
        "server_rss_mb_idle": round(idle["VmRSS"] / 1024, 1),
        "server_rss_mb": round(memory["VmRSS"] / 1024, 1),
        "server_peak_rss_mb": round(memory["VmHWM"] / 1024, 1),
        **(
            {
                "attacks": {k: sorted(set(v)) for k, v in bad.statuses.items()},
                "attack_requests": len(bad.times_ms),
                "attack_max_ms": round(max(bad.times_ms), 2) if bad.times_ms else None,
            }
            if attacker
            else {}
        ),
    }


# -- several processes on one PostgreSQL (issue 56) ------------------------------------


async def bench_processes(
    count: int, db: str, games: int, seconds: float, think: float, scenario: str, bot_workers: int
) -> dict[str, Any]:
    """``count`` servers on ``db``; each client sends each order, and opens each socket, to one at random."""
    async with Servers(count, db, ("--bot-workers", str(bot_workers))) as servers:
        urls = servers.urls
        clients, https = await start_players(urls, games, scenario)
        try:
            started = time.monotonic()
            web_before, workers_before = servers.cpu()
            await asyncio.gather(
                *(play(c, h, urls, think, started + seconds, scenario) for c, h in zip(clients, https, strict=True))
            )
            elapsed = time.monotonic() - started
            web, workers = servers.cpu()
        finally:
            await asyncio.gather(*(h.aclose() for h in https))
    times = [t for c in clients for t in c.times_ms]
    figures = order_figures(times)
    return {
        "benchmark": f"web: {count} process{'es' if count > 1 else ''} on one PostgreSQL, {games} concurrent "
        f"{scenario} games vs greedy, each request to a process at random, think {think} s",
        "processes": count,
        **figures,
        "orders_per_s": round(len(times) / elapsed, 1),
        "games_played": sum(c.games for c in clients),
        "scenes_pushed": sum(c.scenes for c in clients),
        "retries": sum(c.retries for c in clients),
        "server_cpu_ms_per_order": round((web - web_before) * 1000 / len(times), 2) if times else None,
        "bot_workers_cpu_ms_per_order": round((workers - workers_before) * 1000 / len(times), 2) if times else None,
        "target_p99_ms": TARGET_SCALED_P99_MS,
        "met": figures["p99_ms"] <= TARGET_SCALED_P99_MS,
    }


def processes_rows(
    processes: int, games: int, seconds: float, think: float, scenario: str = SCENARIO, bot_workers: int = 1
) -> list[dict[str, Any]]:
    """The players on 1, 2 and ``processes`` servers sharing one PostgreSQL (a fresh database each), and ratios."""
    rows = []
    with throwaway_postgres() as fresh:
        for count in sorted({1, 2, processes}):
            rows.append(asyncio.run(bench_processes(count, fresh(), games, seconds, think, scenario, bot_workers)))
            print(" | ".join(f"{k}={v}" for k, v in rows[-1].items()), file=sys.stderr, flush=True)
    one = rows[0]
    for row in rows[1:]:
        rows.append(
            {
                "benchmark": f"web: {row['processes']} processes / 1 on one PostgreSQL",
                "p50_ratio": ratio(row["p50_ms"], one["p50_ms"]),
                "p99_ratio": ratio(row["p99_ms"], one["p99_ms"]),
                "orders_per_s_ratio": ratio(row["orders_per_s"], one["orders_per_s"]),
            }
        )
    return rows


# -- the slowdown: other players' orders under each load (issue 56) ------------------------


@dataclass
class Window:
    name: str
    start: float = 0.0
    end: float = 0.0
    #: Server CPU seconds (web processes, workers) over the window.
    cpu: tuple[float, float] = (0.0, 0.0)
    #: After the load's last answer and its budget: (seconds measured, web CPU, workers' CPU).
    after: tuple[float, float, float] | None = None
    notes: dict[str, Any] = field(default_factory=dict)


async def flood(url: str, until: float, notes: dict[str, Any]) -> None:
    """``FLOOD_CLIENTS`` attackers, one address, each sending its next refused request when the last is answered."""
    statuses: dict[str, set[int]] = {}
    times: list[float] = []
    async with http_client("127.0.9.2", FLOOD_CLIENTS) as http:
        attacks = await flood_attacks(http, url)

        async def attacker(n: int) -> None:
            while time.monotonic() < until:
                label, path, body, headers = attacks[n % len(attacks)]
                n += FLOOD_CLIENTS
                start = time.perf_counter()
                status = await send_bad(http, f"{url}{path}", body, headers)
                times.append((time.perf_counter() - start) * 1000)
                statuses.setdefault(label, set()).add(status)

        await asyncio.gather(*(attacker(n) for n in range(FLOOD_CLIENTS)))
    notes.update(
        requests=len(times),
        statuses={k: sorted(v) for k, v in statuses.items()},
        # The refused requests' own round trip, not the players' (the row's p99_ms).
        refused_p99_ms=round(percentile(times, 0.99), 1),
    )


async def spectators(url: str, game_id: str, until: float, notes: dict[str, Any]) -> None:
    """``SPECTATORS`` sockets on one game from one address, each read until ``until``."""
    received = [0, 0]  # messages, bytes
    refused: dict[str, int] = {}

    async def spectator() -> None:
        try:
            async with connect(
                f"{url.replace('http://', 'ws://')}/ws/games/{game_id}", max_size=None, local_addr=("127.0.9.3", 0)
            ) as ws:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, until - time.monotonic())):
                        async for message in ws:
                            received[0] += 1
                            received[1] += len(message)
                if ws.close_code is not None:
                    refused[str(ws.close_code)] = refused.get(str(ws.close_code), 0) + 1
        except Exception as err:  # refused at the handshake, or dropped: counted, not fatal
            refused[type(err).__name__] = refused.get(type(err).__name__, 0) + 1

    await asyncio.gather(*(spectator() for _ in range(SPECTATORS)))
    notes.update(sockets=SPECTATORS, closed_by_server=refused, messages=received[0], kib=round(received[1] / 1024))


def load_apart(kind: str, url: str, game_id: str, until: float) -> dict[str, Any]:
    """Run the flood or the spectators in a process of its own, and hand back its notes.

    The players' round trips are timed on this process's event loop: an attack on the same loop
    (300 handshakes at once, thousands of refused requests) would delay the timing itself and be
    counted as the server's slowness. ``until`` is on the monotonic clock, which processes share.
    """
    notes: dict[str, Any] = {}
    if kind == "flood":
        asyncio.run(flood(url, until, notes))
    else:
        asyncio.run(spectators(url, game_id, until, notes))
    return notes


async def run_apart(
    pool: ProcessPoolExecutor, kind: str, url: str, game_id: str, until: float, notes: dict[str, Any]
) -> None:
    notes.update(await asyncio.get_running_loop().run_in_executor(pool, load_apart, kind, url, game_id, until))


async def bot_games(url: str, notes: dict[str, Any]) -> None:
    """Two games of ``search:3`` against ``search:3`` (and a third, which the per-address limit refuses)."""
    statuses = []
    async with http_client("127.0.9.4") as http:
        for _ in range(3):
            answer = await http.post(f"{url}/api/games", json={"scenario": "msc-duel", "sides": BOT_GAME_SIDES})
            statuses.append(answer.status_code)
    notes.update(created=statuses)


async def slowdown(games: int, window: float, think: float, scenario: str = SCENARIO) -> list[dict[str, Any]]:
    # A quiet window before each load: the machine's own load drifts over a run, so each load is read
    # against every quiet window together, and the quiet windows' spread shows that drift.
    loads = ["flood of refused inputs", "300 spectator sockets", "two search:3 bot-only games"]
    windows = [w for n, load in enumerate(loads, 1) for w in (Window(f"quiet {n}"), Window(load))]
    apart = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    async with Servers() as servers:
        urls = servers.urls
        clients, https = await start_players(urls, games, scenario)
        until = time.monotonic() + 1e9
        try:
            players = [
                asyncio.create_task(play(c, h, urls, think, until, scenario))
                for c, h in zip(clients, https, strict=True)
            ]
            await asyncio.sleep(think * 2)  # every player under way before the quiet window opens
            for w in windows:
                w.start = time.monotonic()
                before = servers.cpu()
                end = w.start + window
                load: asyncio.Future[Any]
                if w.name.startswith(("flood", "300")):
                    kind = "flood" if w.name.startswith("flood") else "spectators"
                    load = asyncio.ensure_future(run_apart(apart, kind, urls[0], clients[0].game_id, end, w.notes))
                elif w.name.startswith("two"):
                    load = asyncio.ensure_future(bot_games(urls[0], w.notes))
                else:
                    load = asyncio.ensure_future(asyncio.sleep(0))
                await asyncio.sleep(max(0.0, end - time.monotonic()))
                await load  # every attack answered (or its socket closed)
                w.end = time.monotonic()
                after = servers.cpu()
                w.cpu = (after[0] - before[0], after[1] - before[1])
                if not w.name.startswith("quiet"):
                    # Past the load's last answer and the largest budget of its requests, no work of
                    # theirs may still run: the server's CPU then is the players' alone.
                    await asyncio.sleep(ATTACK_BUDGET_S)
                    first = servers.cpu()
                    t0 = time.monotonic()
                    await asyncio.sleep(window / 2)
                    last = servers.cpu()
                    w.after = (time.monotonic() - t0, last[0] - first[0], last[1] - first[1])
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
        finally:
            await asyncio.gather(*(h.aclose() for h in https))
            apart.shutdown()
    rows = []
    quiets = [w for w in windows if w.name.startswith("quiet")]
    quiet_times = [ms for c in clients for sent, ms in c.orders for q in quiets if q.start <= sent < q.end]
    quiet_p99 = percentile(quiet_times, 0.99)
    quiet_share = sum(q.cpu[0] for q in quiets) / sum(q.end - q.start for q in quiets)
    for w in windows:
        times = [ms for c in clients for sent, ms in c.orders if w.start <= sent < w.end]
        p99 = percentile(times, 0.99)
        row: dict[str, Any] = {
            "benchmark": f"web slowdown: {games} players of {scenario}, think {think} s; window: {w.name}",
            **order_figures(times),
            "p99_ratio_to_quiet": ratio(p99, quiet_p99),
            "web_cpu_share": round(w.cpu[0] / (w.end - w.start), 2),
            "bot_workers_cpu_share": round(w.cpu[1] / (w.end - w.start), 2),
        }
        if not w.name.startswith("quiet"):
            row["target_ratio"] = TARGET_SLOWDOWN_RATIO
            row["met"] = row["p99_ratio_to_quiet"] <= TARGET_SLOWDOWN_RATIO
        if w.after is not None:
            seconds, web, workers = w.after
            row["web_cpu_share_after"] = round(web / seconds, 2)
            row["bot_workers_cpu_share_after"] = round(workers / seconds, 2)
            # Left-over work would show as the web process busier after the load than in the quiet window.
            row["work_outlived_its_answer"] = web / seconds > quiet_share * 1.5 + 0.05
        rows.append({**row, **w.notes})
    return rows


def slowdown_rows(
    games: int = 100, window: float = 20.0, think: float = 5.0, scenario: str = SCENARIO
) -> list[dict[str, Any]]:
    return asyncio.run(slowdown(games, window, think, scenario))


# -- running ----------------------------------------------------------------------------


def web_rows(
    games: int = 100, seconds: float = 30.0, think: float = 5.0, scenario: str = SCENARIO, attacker: str = "both"
) -> list[dict[str, Any]]:
    """The benchmark's figures as rows for ``benchmarks/run.py``: without and/or with the attacker."""
    rows = []
    if attacker in ("off", "both"):
        rows.append(asyncio.run(bench(games, seconds, think, scenario, attacker=False)))
    if attacker in ("on", "both"):
        rows.append(asyncio.run(bench(games, seconds, think, scenario, attacker=True)))
    if len(rows) == 2:
        calm, attacked = rows[0]["p99_ms"], rows[1]["p99_ms"]
        r = attacked / calm if calm else float("nan")
        rows.append(
            {
                "benchmark": "web: order p99 with one attacker / without",
                "p99_ms_without": calm,
                "p99_ms_with": attacked,
                "ratio": round(r, 2),
                "target_ratio": TARGET_ATTACK_RATIO,
                "met": r < TARGET_ATTACK_RATIO,
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the clients play (default 30)")
    parser.add_argument(
        "--think", type=float, default=5.0, help="mean seconds a client waits between orders (default 5)"
    )
    parser.add_argument(
        "--scenario", default=SCENARIO, help=f"built-in scenario, red human vs blue greedy ({SCENARIO})"
    )
    parser.add_argument(
        "--attacker",
        choices=("off", "on", "both"),
        default="both",
        help="run without the malicious client, with it, or both and their ratio (default both)",
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="N servers on one throwaway PostgreSQL, requests to either at random; runs 1, 2 and N, with ratios",
    )
    parser.add_argument(
        "--bot-workers", type=int, default=1, help="with --processes: each server's computer-player workers (1)"
    )
    parser.add_argument(
        "--slowdown",
        action="store_true",
        help="a quiet window before each of a flood of refused inputs, 300 spectator sockets and two search:3 "
        "bot-only games, each window SECONDS long: the players' p99 in each as a ratio to the quiet ones'",
    )
    parser.add_argument("--json", action="store_true", help="print JSON instead of a line")
    args = parser.parse_args()
    if args.processes:
        rows = processes_rows(args.processes, args.games, args.seconds, args.think, args.scenario, args.bot_workers)
    elif args.slowdown:
        rows = slowdown_rows(args.games, args.seconds, args.think, args.scenario)
    else:
        rows = web_rows(args.games, args.seconds, args.think, args.scenario, args.attacker)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        print(" | ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
