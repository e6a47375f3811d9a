"""Bot against bot, from every side, on every core: the tables of docs/bots.md.

Each cell is what ``vectorwar simulate SCENARIO -n N --side SIDE=CHALLENGER`` (the other sides
played by DEFENDER) counts, seeds ``0 .. N-1``: the same games, split over worker processes.

    python benchmarks/bots.py --challenger search --defender greedy -n 20 msc-duel vv5-dogfight
    python benchmarks/bots.py --challenger greedy --defender random -n 50 --two-side

Prints one row per scenario and side: the challenger's wins, losses and draws and its share of
the decisive games, then the wall time. ``--jsonl FILE`` also keeps every game's result.

``--paired`` also plays each seed with the defender in the side (every side the defender's) and
compares the two results seed by seed (a win over a draw over a loss): the challenger's share of
the seeds where they differ. That is the measure where the other sides give no orders (VV5's
Invasion, whose aliens the engine plays): there the defender is no opponent, and the question is
whether the challenger does better in the side than the defender would (docs/bots.md).

    python benchmarks/bots.py --challenger greedy --defender random -n 200 --paired --sides humans vv5-invasion-purchase
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import time
from collections import defaultdict
from typing import TypedDict

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.play import play_out

#: One game to play: (scenario, side, the side's bot, every other side's bot, seed).
Job = tuple[str, str, str, str, int]


class GameRow(TypedDict):
    """One game's result as plain data (a line of ``--jsonl``)."""

    scenario: str
    side: str
    seed: int
    winners: list[str]
    turns: int
    cpu_s: float


def one_game(job: Job) -> GameRow:
    """One game: (scenario, side, the side's bot, every other side's bot, seed) -> its result as plain data."""
    scenario_id, side, challenger, defender, seed = job
    scenario = builtin_scenario(scenario_id)
    controllers = {s.id: (challenger if s.id == side else defender) for s in scenario.sides}
    started = time.process_time()
    game = play_out(scenario, controllers, seed)
    result = game.result
    winners = sorted(result.winners) if result is not None else []
    return {
        "scenario": scenario_id,
        "side": side,
        "seed": seed,
        "winners": winners,
        "turns": game.history[-1].clock.turn if game.history else 0,
        "cpu_s": round(time.process_time() - started, 3),
    }


def _rank(row: GameRow) -> int:
    """The game's result for the side named in ``row``: 2 won, 1 drawn, 0 lost."""
    winners = row["winners"]
    if not winners:
        return 1
    return 2 if row["side"] in winners else 0


def two_side_ids() -> list[str]:
    return sorted(i for i in scenario_paths() if len(builtin_scenario(i).sides) == 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*")
    parser.add_argument("--two-side", action="store_true", help="every built-in scenario with two sides")
    parser.add_argument("--challenger", default="search")
    parser.add_argument("--defender", default="greedy")
    parser.add_argument("-n", "--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sides", default="", help="comma-separated sides (default: every side)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--jsonl", default="")
    parser.add_argument("--paired", action="store_true", help="also the defender in the side, seed by seed")
    args = parser.parse_args()
    ids = list(args.scenarios) + (two_side_ids() if args.two_side else [])
    jobs: list[Job] = []
    for scenario_id in ids:
        sides = [s.id for s in builtin_scenario(scenario_id).sides]
        wanted = [s for s in args.sides.split(",") if s] or sides
        for side in sides:
            if side in wanted:
                jobs.extend(
                    (scenario_id, side, args.challenger, args.defender, args.seed + i) for i in range(args.games)
                )
                if args.paired:
                    jobs.extend(
                        (scenario_id, side, args.defender, args.defender, args.seed + i) for i in range(args.games)
                    )
    started = time.perf_counter()
    rows: dict[tuple[str, str], list[GameRow]] = defaultdict(list)
    own: dict[tuple[str, str], dict[int, int]] = defaultdict(dict)  # --paired: the defender's result by seed
    sink = open(args.jsonl, "a", encoding="utf-8") if args.jsonl else None  # noqa: SIM115 - kept open for the run
    with multiprocessing.Pool(args.workers) as pool:
        for job, row in zip(jobs, pool.imap(one_game, jobs), strict=True):
            key = (str(row["scenario"]), str(row["side"]))
            if args.paired and job[2] == args.defender and job[2] != args.challenger:
                own[key][int(row["seed"])] = _rank(row)
                continue
            rows[key].append(row)
            if sink is not None:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
    if sink is not None:
        sink.close()
    print(
        f"{args.challenger} (in the side named) against {args.defender},"
        f" seeds {args.seed}..{args.seed + args.games - 1}"
    )
    paired = f" {'better':>6} {'worse':>5} {'paired':>6}" if args.paired else ""
    print(f"{'scenario':28} {'side':13} {'won':>4} {'lost':>4} {'drawn':>5} {'share':>6} {'cpu s/game':>10}{paired}")
    for (scenario_id, side), games in rows.items():
        won = sum(1 for g in games if side in g["winners"])
        drawn = sum(1 for g in games if not g["winners"])
        lost = len(games) - won - drawn
        share = f"{100 * won / (won + lost):.0f} %" if won + lost else "-"
        cpu = sum(float(g["cpu_s"]) for g in games) / len(games)
        line = f"{scenario_id:28} {side:13} {won:>4} {lost:>4} {drawn:>5} {share:>6} {cpu:>10.2f}"
        if args.paired:
            theirs = own[(scenario_id, side)]
            better = sum(1 for g in games if _rank(g) > theirs[int(g["seed"])])
            worse = sum(1 for g in games if _rank(g) < theirs[int(g["seed"])])
            ahead = f"{100 * better / (better + worse):.0f} %" if better + worse else "-"
            line += f" {better:>6} {worse:>5} {ahead:>6}"
        print(line)
    print(f"wall {time.perf_counter() - started:.0f} s on {args.workers} workers")


if __name__ == "__main__":
    main()
