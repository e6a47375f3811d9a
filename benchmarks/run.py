"""vectorwar benchmarks: run with ``python benchmarks/run.py`` and read the figures.

Targets (issue 2): 1,000 greedy-vs-greedy 3 v 3 MSC games in at most 60 s on
one core. Figures are printed, never asserted in the test suite.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from collections.abc import Callable

from vectorwar.catalogue import builtin_scenario
from vectorwar.play import simulate


def timed(label: str, target_s: float | None, work: Callable[[], object]) -> dict[str, object]:
    start = time.process_time()
    wall = time.perf_counter()
    outcome = work()
    cpu = time.process_time() - start
    row: dict[str, object] = {
        "benchmark": label,
        "cpu_s": round(cpu, 2),
        "wall_s": round(time.perf_counter() - wall, 2),
        "target_s": target_s,
        "met": None if target_s is None else cpu <= target_s,
        "outcome": outcome,
    }
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games per simulation benchmark")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    n = args.games
    scale = n / 1000

    fleet = builtin_scenario("msc-fleet")
    duel = builtin_scenario("msc-duel")
    rows = [
        timed(
            f"msc 3v3 greedy vs greedy, {n} games",
            60.0 * scale,
            lambda: simulate(fleet, {"red": "greedy", "blue": "greedy"}, n).to_data(["red", "blue"]),
        ),
        timed(
            f"msc duel greedy vs random, {n} games",
            None,
            lambda: simulate(duel, {"red": "greedy", "blue": "random"}, n).to_data(["red", "blue"]),
        ),
    ]
    per_game = []
    for seed in range(50):
        t = time.perf_counter()
        simulate(fleet, {"red": "greedy", "blue": "greedy"}, 1, first_seed=seed)
        per_game.append((time.perf_counter() - t) * 1000)
    rows.append(
        {
            "benchmark": "msc 3v3 greedy game, median ms (50 games)",
            "median_ms": round(statistics.median(per_game), 2),
            "p90_ms": round(sorted(per_game)[44], 2),
        }
    )
    rows.append({"benchmark": "peak memory", "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024})
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        print(" | ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
