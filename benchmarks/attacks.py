"""The server-side cost of the requests issue 15's attacker sent, each refused on its limits before any work.

Each request goes through the whole app (FastAPI's TestClient, in this process), so the CPU time
measured is an upper bound on what the server spends: it includes the client's own encoding. Target:
well under 50 ms each, and no growth of the process's peak memory. Run with ``python
benchmarks/run.py`` (or this file alone); figures are printed, never asserted in the test suite.
"""

from __future__ import annotations

import resource
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from vectorwar.catalogue import scenario_paths
from vectorwar.web.app import create_app

TARGET_MS = 50.0
REPEATS = 20


def _cpu_ms(send: Any) -> tuple[list[float], int]:
    """CPU milliseconds of each of ``REPEATS`` sends, and the last answer's status."""
    times = []
    status = 0
    for _ in range(REPEATS):
        start = time.process_time()
        answer = send()
        times.append((time.process_time() - start) * 1000)
        status = answer.status_code
    return times, status


def attack_rows() -> list[dict[str, object]]:
    with tempfile.TemporaryDirectory() as tmp, TestClient(create_app(f"sqlite:///{Path(tmp) / 'bench.db'}")) as client:
        sides = {"red": "human", "blue": "human"}
        games = {
            name: client.post("/api/games", json={"scenario": name, "sides": sides}).json()
            for name in ("msc-duel", "vms-capital-duel-msc")
        }

        def order(scenario: str, path: str, text: str) -> Any:
            game = games[scenario]
            token = next(p["token"] for p in game["players"] if "red" in p["sides"])
            body: dict[str, object] = {"side": "red", "text": text}
            if path == "orders":
                body["step"] = 0
            return lambda: client.post(
                f"/api/games/{game['id']}/{path}", json=body, headers={"Authorization": f"Bearer {token}"}
            )

        upload = scenario_paths()["vms-capital-duel-msc"].read_text().replace('"A=1"', '"B=99999999999"')
        requests = [
            ("MSC order 'Hawk 99999999' (POST orders)", order("msc-duel", "orders", "Hawk 99999999")),
            ("MSC order 'Hawk 99999999' (POST check)", order("msc-duel", "check", "Hawk 99999999")),
            (
                "VMS order 'Tern aft1:A=4 port1:rot=3 R99999999' (POST check)",
                order("vms-capital-duel-msc", "check", "Tern aft1:A=4 port1:rot=3 R99999999"),
            ),
            (
                "VMS order 'Tern aft1:A=4 port1:rot=3 R99999999' (POST orders)",
                order("vms-capital-duel-msc", "orders", "Tern aft1:A=4 port1:rot=3 R99999999"),
            ),
            (
                "scenario upload with velocity B=99999999999 (POST games)",
                lambda: client.post("/api/games", json={"scenario_toml": upload}),
            ),
            ("for comparison: a legal MSC check 'Hawk 2'", order("msc-duel", "check", "Hawk 2")),
        ]
        rows: list[dict[str, object]] = []
        for label, send in requests:
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            times, status = _cpu_ms(send)
            grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
            rows.append(
                {
                    "benchmark": f"attack: {label}, server CPU ms ({REPEATS} requests)",
                    "status": status,
                    "median_ms": round(statistics.median(times), 2),
                    "max_ms": round(max(times), 2),
                    "peak_memory_growth_kb": grown,
                    "target_ms": TARGET_MS,
                    "met": max(times) <= TARGET_MS,
                }
            )
        return rows


if __name__ == "__main__":
    for row in attack_rows():
        print(" | ".join(f"{k}={v}" for k, v in row.items()))
