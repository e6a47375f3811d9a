"""Lab throughput: bot games per second on a Dask LocalCluster of 1 and of 2 workers.

Run ``python benchmarks/lab.py [--games 400]`` or ``python benchmarks/run.py --lab``.
Each cluster is started, warmed up (workers import vectorwar on their first
task) and then handed to the lab by its scheduler address, as ``vectorwar
lab --scheduler`` would be, so the figure leaves out start-up. The machine's
other load shows in the figure: it is printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time

from distributed import LocalCluster

from vectorwar.catalogue import builtin_scenario
from vectorwar.lab.games import Job
from vectorwar.lab.runner import run_jobs


def games_per_second(workers: int, games: int, scenario: str = "msc-fleet") -> float:
    job = Job(0, builtin_scenario(scenario).to_data(), {"red": "greedy", "blue": "greedy"}, games=games)
    warm = Job(0, job.scenario, job.controllers, games=workers * 2, first_seed=10**6)
    with (
        tempfile.TemporaryDirectory() as scratch,
        LocalCluster(  # type: ignore[no-untyped-call]  # distributed's constructor carries no annotations
            n_workers=workers,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
            local_directory=scratch,
        ) as cluster,
    ):
        run_jobs([warm], scheduler=cluster.scheduler_address, chunk=1)
        start = time.perf_counter()
        rows = run_jobs([job], scheduler=cluster.scheduler_address, chunk=max(1, games // (workers * 8)))
        spent = time.perf_counter() - start
    return len(rows) / spent


def lab_rows(games: int = 400) -> list[dict[str, object]]:
    one = games_per_second(1, games)
    two = games_per_second(2, games)
    return [
        {
            "benchmark": f"lab msc 3v3 greedy vs greedy, {games} games on Dask",
            "games_per_s_1_worker": round(one, 1),
            "games_per_s_2_workers": round(two, 1),
            "ratio_2_to_1": round(two / one, 2),
        }
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400, help="games per measurement")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a line")
    args = parser.parse_args()
    rows = lab_rows(args.games)
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        print(" | ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
