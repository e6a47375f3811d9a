"""The bot audit in full: every built-in scenario, every side, every computer player, many seeds.

The test suite's slow part runs the audit (``vectorwar.lab.audit``) over ``random`` and ``greedy``
on seeds 0 and 1 with a list of accepted findings; this runs it as wide as you can afford, on
every core, and prints each finding and a table of findings by player and kind:

    python benchmarks/audit.py                                   # random, greedy, search; seeds 0-3
    python benchmarks/audit.py -n 10 --players greedy vv5-ghost-ship vv5-stasis-pod
    python benchmarks/audit.py -n 2 --players search:2,search:3 msc-duel msc-fleet

A search level plays every side of a scenario, so its games cost seconds to minutes each. The exit
status is 1 when anything was found, so a script can gate on it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections import Counter

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.lab.audit import Finding, audit_game
from vectorwar.players import computer_players
from vectorwar.registry import get_system

DEFAULT_PLAYERS = ("random", "greedy", "search")


def _one(job: tuple[str, str, int]) -> tuple[str, list[Finding], float]:
    scenario_id, player, seed = job
    started = time.process_time()
    found = audit_game(builtin_scenario(scenario_id), player, seed)
    return player, found, time.process_time() - started


def jobs(scenarios: list[str], players: list[str], seeds: range) -> list[tuple[str, str, int]]:
    """Every (scenario, player, seed) to play, leaving out players a scenario's system does not offer."""
    out: list[tuple[str, str, int]] = []
    for scenario_id in scenarios:
        offered = computer_players(get_system(builtin_scenario(scenario_id).system))
        out.extend((scenario_id, player, seed) for player in players if player in offered for seed in seeds)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", help="built-in scenario ids (default: every one)")
    parser.add_argument("-n", "--seeds", type=int, default=4, help="seeds a scenario and player (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument(
        "--players", default=",".join(DEFAULT_PLAYERS), metavar="P,Q", help="computer players, comma-separated"
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    scenarios = list(args.scenarios) or sorted(scenario_paths())
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    todo = jobs(scenarios, players, range(args.seed, args.seed + args.seeds))
    games: Counter[str] = Counter()
    kinds: Counter[tuple[str, str]] = Counter()
    cpu = 0.0
    started = time.perf_counter()
    with multiprocessing.Pool(args.workers) as pool:
        for player, found, seconds in pool.imap_unordered(_one, todo):
            games[player] += 1
            cpu += seconds
            for finding in found:
                kinds[(player, finding.kind)] += 1
                print(finding, flush=True)
    print()
    print("| player | games | findings by kind |")
    print("| --- | --- | --- |")
    for player in players:
        if games[player]:
            said = ", ".join(f"{kind} {n}" for (who, kind), n in sorted(kinds.items()) if who == player) or "none"
            print(f"| `{player}` | {games[player]} | {said} |")
    wall = time.perf_counter() - started
    print(
        f"{sum(games.values())} games, {cpu:.0f} s of CPU, {wall:.0f} s wall on {args.workers} workers", file=sys.stderr
    )
    return 1 if kinds else 0


if __name__ == "__main__":
    sys.exit(main())
