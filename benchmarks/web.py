"""Web server benchmark: many concurrent games driven by scripted clients over loopback.

Run with ``.venv/bin/python benchmarks/web.py`` and read the figures.

It starts ``vectorwar serve`` as a real process on a free loopback port with
a throwaway SQLite file, creates GAMES VV5 Dogfights (a person against the
server's greedy bot) and plays each with a scripted client: a WebSocket that
receives every scene, and an order over HTTP after a think time. Each client
keeps a local copy of its game (the server's bot is deterministic) to write
legal orders. Target: order round-trip p99 at most 50 ms. The server's
memory (resident set, now and at its peak) is read from /proc.

It runs twice, on a fresh server each time: once with the players alone, once
with one malicious client that sends a bad request every second, in turn the
four of issue 15 (the MSC check 'Hawk 99999999', the VMS check 'Tern aft1:A=4
port1:rot=3 R99999999', a scenario upload with velocity B=99999999999, and an
order body of a megabyte). It prints both p99s and their ratio; target: the
attacker moves the players' p99 by less than 20 %. ``--attacker off|on``
runs one of the two only.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.game import Game
from vectorwar.play import bot_rng, make_bots
from vectorwar.registry import get_system
from vectorwar.rules import Bot

TARGET_P99_MS = 50.0
#: How much one malicious client may move the players' order p99 (issue 15).
TARGET_ATTACK_RATIO = 1.2
ATTACK_EVERY_S = 1.0
SCENARIO = "vv5-dogfight"
SEATS = {"red": "human", "blue": "bot:greedy"}


@dataclass
class Client:
    """One scripted player: its game's id and token, and the local copy it writes orders from."""

    game_id: str
    token: str
    game: Game
    bots: dict[str, Bot]
    me: Bot
    times_ms: list[float] = field(default_factory=list)
    scenes: int = 0
    retries: int = 0

    def follow_bots(self) -> None:
        while not self.game.is_over:
            due = [s for s in self.game.waiting_for if s in self.bots]
            if not due:
                return
            for seat in due:
                rng = bot_rng(self.game.seed, seat, len(self.game.history))
                self.game.submit(seat, self.bots[seat].choose(self.game.state, seat, rng))


@dataclass
class Attacker:
    """One malicious client: a bad request every ``ATTACK_EVERY_S``, the four attacks in turn."""

    statuses: dict[str, list[int]] = field(default_factory=dict)
    times_ms: list[float] = field(default_factory=list)

    async def run(self, http: httpx.AsyncClient, url: str, until: float) -> None:
        seats = {"red": "human", "blue": "human"}
        games = {}
        for scenario in ("msc-duel", "vms-capital-duel-msc"):
            answer = await http.post(f"{url}/api/games", json={"scenario": scenario, "seats": seats})
            answer.raise_for_status()
            game = answer.json()
            token = next(p["token"] for p in game["players"] if "red" in p["seats"])
            games[scenario] = (game["id"], {"Authorization": f"Bearer {token}"})
        upload = scenario_paths()["vms-capital-duel-msc"].read_text().replace('"A=1"', '"B=99999999999"')
        msc, msc_auth = games["msc-duel"]
        vms, vms_auth = games["vms-capital-duel-msc"]
        attacks: list[tuple[str, str, dict[str, Any], dict[str, str]]] = [
            ("msc-check", f"/api/games/{msc}/check", {"seat": "red", "text": "Hawk 99999999"}, msc_auth),
            (
                "vms-check",
                f"/api/games/{vms}/check",
                {"seat": "red", "text": "Tern aft1:A=4 port1:rot=3 R99999999"},
                vms_auth,
            ),
            ("scenario-upload", "/api/games", {"scenario_toml": upload}, {}),
            (
                "huge-order",
                f"/api/games/{msc}/orders",
                {"seat": "red", "text": "Hawk 1 " * 150_000, "step": 0},
                msc_auth,
            ),
        ]
        n = 0
        while time.monotonic() < until:
            label, path, body, headers = attacks[n % len(attacks)]
            n += 1
            start = time.perf_counter()
            try:
                answer = await http.post(f"{url}{path}", json=body, headers=headers)
                status = answer.status_code
            except httpx.TransportError:
                # The server may close the connection on a refused huge body: still an answer.
                status = 0
            self.times_ms.append((time.perf_counter() - start) * 1000)
            self.statuses.setdefault(label, []).append(status)
            await asyncio.sleep(ATTACK_EVERY_S)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_s(pid: int) -> float:
    """CPU time the process has used (user + system), which the machine's other load does not inflate."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


async def wait_until_up(url: str, process: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient() as http:
        for _ in range(300):
            if process.poll() is not None:
                raise RuntimeError(f"the server exited with {process.returncode}")
            try:
                (await http.get(f"{url}/api/games")).raise_for_status()
                return
            except httpx.HTTPError:
                await asyncio.sleep(0.1)
    raise RuntimeError("the server did not start within 30 s")


async def new_client(http: httpx.AsyncClient, url: str, seed: int, scenario_id: str) -> Client:
    answer = await http.post(f"{url}/api/games", json={"scenario": scenario_id, "seats": SEATS, "seed": seed})
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
    )
    client.follow_bots()
    return client


async def play(client: Client, http: httpx.AsyncClient, url: str, think: float, until: float) -> None:
    ws_url = url.replace("http://", "ws://") + f"/ws/games/{client.game_id}?token={client.token}"
    rng = random.Random(client.game_id)
    async with connect(ws_url, max_size=None) as ws:

        async def watch() -> None:
            async for _message in ws:
                client.scenes += 1

        watcher = asyncio.create_task(watch())
        try:
            while not client.game.is_over and time.monotonic() < until:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                game = client.game
                rng_order = bot_rng(game.seed, "red", len(game.history))
                text = str(client.me.choose(game.state, "red", rng_order))
                body = {"seat": "red", "text": text, "step": len(game.history)}
                start = time.perf_counter()
                for attempt in range(3):
                    try:
                        answer = await http.post(
                            f"{url}/api/games/{client.game_id}/orders",
                            json=body,
                            headers={"Authorization": f"Bearer {client.token}"},
                        )
                        break
                    except httpx.TransportError:
                        # A kept-alive connection closed under us: the step makes the retry harmless.
                        client.retries += 1
                        if attempt == 2:
                            raise
                client.times_ms.append((time.perf_counter() - start) * 1000)
                answer.raise_for_status()
                game.submit("red", text)
                client.follow_bots()
        finally:
            watcher.cancel()


async def bench(
    games: int, seconds: float, think: float, scenario: str = SCENARIO, attacker: bool = False
) -> dict[str, Any]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="vectorwar-bench-") as tmp:
        env = {**os.environ, "VECTORWAR_DATA_DIR": tmp}
        command = [sys.executable, "-c", "from vectorwar.cli import app; app()", "serve", "--port", str(port)]
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
        try:
            await wait_until_up(url, server)
            idle = rss_kib(server.pid)
            limits = httpx.Limits(max_connections=games + 10, max_keepalive_connections=games + 10)
            async with httpx.AsyncClient(limits=limits, timeout=30) as http:
                clients = await asyncio.gather(*(new_client(http, url, seed, scenario) for seed in range(games)))
                started = time.monotonic()
                cpu_before = cpu_s(server.pid)
                client_before = time.process_time()
                players = [play(c, http, url, think, started + seconds) for c in clients]
                bad = Attacker()
                # The attacker has a connection of its own, as a separate client would.
                async with httpx.AsyncClient(timeout=30) as evil:
                    extra = [bad.run(evil, url, started + seconds)] if attacker else []
                    await asyncio.gather(*players, *extra)
                elapsed = time.monotonic() - started
                cpu = cpu_s(server.pid) - cpu_before
                client_cpu = time.process_time() - client_before
            memory = rss_kib(server.pid)
        finally:
            server.terminate()
            server.wait(10)
    times = sorted(t for c in clients for t in c.times_ms)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))] if times else float("nan")
    attacked = ", one attacker sending a bad request a second" if attacker else ", no attacker"
    return {
        "benchmark": f"web: {games} concurrent {scenario} games vs greedy, scripted clients, think {think} s{attacked}",
        "orders": len(times),
        "orders_per_s": round(len(times) / elapsed, 1),
        "finished_games": sum(c.game.is_over for c in clients),
        "scenes_pushed": sum(c.scenes for c in clients),
        "retries": sum(c.retries for c in clients),
        "p50_ms": round(statistics.median(times), 2) if times else None,
        "p99_ms": round(p99, 2),
        "max_ms": round(times[-1], 2) if times else None,
        "target_p99_ms": TARGET_P99_MS,
        "server_cpu_ms_per_order": round(cpu * 1000 / len(times), 2) if times else None,
        "met": p99 <= TARGET_P99_MS,
        "client_cpu_share": round(client_cpu / elapsed, 2),
        "server_cpu_share": round(cpu / elapsed, 2),
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
        ratio = attacked / calm if calm else float("nan")
        rows.append(
            {
                "benchmark": "web: order p99 with one attacker / without",
                "p99_ms_without": calm,
                "p99_ms_with": attacked,
                "ratio": round(ratio, 2),
                "target_ratio": TARGET_ATTACK_RATIO,
                "met": ratio < TARGET_ATTACK_RATIO,
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
    parser.add_argument("--json", action="store_true", help="print JSON instead of a line")
    args = parser.parse_args()
    rows = web_rows(args.games, args.seconds, args.think, args.scenario, args.attacker)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        print(" | ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
