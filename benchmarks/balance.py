"""Greedy against greedy in every built-in scenario: the balance table of docs/bots.md.

Each row is what ``vectorwar simulate SCENARIO -n N --json`` counts (every side played by the
system's greedy bot, the command's default; seeds ``0 .. N-1``, or from ``--seed``): the same games, split over
worker processes. It prints the table as Markdown, one row per scenario, every side's share of
the N games and the draws, each with its 95 % Wilson interval, N, the flags (``uneven``: a side's
points share, a draw counted half, is outside 35-65 %; ``drawish``: over 20 % drawn), and
what the rule text itself makes uneven (``TEXT`` below).

    python benchmarks/balance.py -n 100 > table.md          # every built-in scenario
    python benchmarks/balance.py -n 200 msc-duel vv5-ghost-ship
    python benchmarks/balance.py --bot search -n 10 msc-duel     # every side played by ``search``
    python benchmarks/balance.py --bot search -n 20 --seed 6 avt-duel-wasp   # seeds 6 .. 25

A scenario's row is printed once all its games are in; the wall time goes to stderr.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections import Counter, defaultdict

from bots import one_game  # benchmarks/ runs as a folder of scripts: its modules import each other by name
from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.lab.metrics import wilson

#: Whether the text makes the scenario uneven between its sides, and how; the rest of a
#: scenario's set-up is vectorwar's and should play even between equal bots.
TEXT: dict[str, str] = {
    "msc-duel": "no: the text leaves forces to the players; Ship 1 against Ship 1",
    "msc-fleet": "no: the text's three example designs a side",
    "msc-build": "no: each side builds to the same BP",
    "msc-deploy": "no: the fleets of `msc-fleet`, each placed by its player in a zone of the same size",
    "vv5-dogfight": "no",
    "vv5-dogfight-draw": "no: each side rolls its own points and draws its types in turn",
    "vv5-dogfight-purchase": "no: each side rolls its own points",
    "vv5-dogfight-3": "yes, by its start places: red on the left edge of F, blue and green in the far corners",
    "vv5-dogfight-4": "no: the four corners",
    "vv5-strike-force": "yes: bombers crossing the board against interceptors",
    "vv5-strike-force-place": "yes: bombers crossing the board against interceptors, who choose their entry edge",
    "vv5-strike-force-purchase": "yes: bombers crossing the board against interceptors",
    "vv5-assault-force": "yes: a transport and escort crossing against interceptors",
    "vv5-assault-force-purchase": "yes: a transport and escort crossing against interceptors",
    "vv5-stasis-pod": "no: opposite corners, the same forces",
    "vv5-stasis-pod-place": "no: opposite corners, the same forces (red places the body, blue the pod)",
    "vv5-stasis-pod-3": "the text places two sides; vectorwar's third corner (top right) is not alike",
    "vv5-stasis-pod-4": "no: four corners",
    "vv5-pirates": "yes: one pirate running for the field against two chasers",
    "vv5-pirates-purchase": "yes: one pirate running for the field against 2D6 + 8 points of chasers",
    "vv5-alien-starship": "no: each side a transport and 17 points of fighters",
    "vv5-alien-starship-purchase": "no: each side a transport and 2D6 + 10 points of fighters",
    "vv5-alien-starship-3": "the text places two sides; vectorwar's third corner (top right) is not alike",
    "vv5-ghost-ship": "no: each side a flight and a transport",
    "vv5-ghost-ship-3": "the text places two sides; vectorwar's third starts behind the Ghost Ship (top left)",
    "vv5-refugees": "yes: a transport and a flight running from an equal flight, which places first",
    "vv5-refugees-place": "yes: as `vv5-refugees`, the interceptors placed ten hexes or more from the asteroid",
    "vv5-invasion": "yes: the human flight against automated invaders",
    "vv5-invasion-purchase": "yes: the human flight against automated invaders",
    "vv5-invasion-2": "yes: two allied human flights (they win together) against automated invaders",
    "vms-capital-duel-msc": "vectorwar's designs: Tern (flat turn) against Bastion",
    "vms-capital-duel-vv5": "vectorwar's designs: Tern against Bastion",
    "vms-fighter-screen-msc": "vectorwar's set-up: destroyer and frigate against four fighters",
    "vms-fighter-screen-vv5": "vectorwar's set-up: destroyer and frigate against three fighters and a shuttle",
    "vms-mixed-fleet-msc": "vectorwar's set-up: mixed fleets of our designs",
    "vms-mixed-fleet-vv5": "vectorwar's set-up: mixed fleets of our designs",
    "avt-duel-wasp": "vectorwar's Wasp against the text's Rafik",
    "avt-duel-rafik": "no: Rafik against Rafik",
    "avt-damage": "the tutorial's fourth sample game: the text's placing (blue above red's nose), fought on as a duel",
    "avt-drift": "a tutorial sample game: one Rafik and three chocolates to eat",
    "avt-pitch-and-climb": "a tutorial sample game: one Rafik and three chocolates to eat",
    "avt-pivot-thrust": "a tutorial sample game: one Rafik and three chocolates to eat",
}


def _one(job: tuple[str, int, str]) -> tuple[str, int, tuple[str, ...], float]:
    scenario_id, seed, bot = job
    first = builtin_scenario(scenario_id).sides[0].id
    played = one_game((scenario_id, first, bot, bot, seed))  # every side the same bot
    return scenario_id, seed, tuple(played["winners"]), float(played["cpu_s"])


#: Between equal players a two-side scenario is even when each side's points share (a draw is half) can
#: lie in this range, and drawish when more games than this end drawn (issue 52).
EVEN = (0.35, 0.65)
DRAWISH = 0.20


def percent(rate: tuple[float, float, float]) -> str:
    """A rate and its 95 % Wilson interval, in whole percent: ``43 (33-53)``."""
    p, lo, hi = rate
    return f"{100 * p:.0f} ({100 * lo:.0f}-{100 * hi:.0f})"


def flags(sides: list[str], wins: Counter[str], draws: int, n: int) -> str:
    """``uneven`` when a side's points share (a draw is half) is outside 35-65 %, ``drawish`` when over 20 % of
    the games are drawn: the measured shares, as issue 52 states the bounds (the intervals beside them say how
    sure each is)."""
    out = []
    if len(sides) == 2 and n:
        points = (wins[sides[0]] + draws / 2) / n
        if not EVEN[0] <= points <= EVEN[1]:
            out.append("uneven")
    if n and draws / n > DRAWISH:
        out.append("drawish")
    return ", ".join(out) or "-"


def row(scenario_id: str, results: list[tuple[str, ...]]) -> str:
    sides = [s.id for s in builtin_scenario(scenario_id).sides]
    n = len(results)
    wins: Counter[str] = Counter(side for winners in results for side in winners)
    draws = sum(1 for winners in results if not winners)
    shares = " / ".join(f"{side} {percent(wilson(wins[side], n))}" for side in sides)
    note = TEXT.get(scenario_id, "?")
    return (
        f"| `{scenario_id}` | {shares} | {percent(wilson(draws, n))} | {n} | {flags(sides, wins, draws, n)} | {note} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("scenarios", nargs="*", help="built-in scenario ids (default: every one)")
    parser.add_argument("-n", "--games", type=int, default=100)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed (default: 0)")
    parser.add_argument("--bot", default="greedy", help="the computer player of every side (default: greedy)")
    args = parser.parse_args()
    ids = list(args.scenarios) or sorted(scenario_paths())
    seeds = range(args.seed, args.seed + args.games)
    jobs = [(scenario_id, seed, args.bot) for scenario_id in ids for seed in seeds]
    started = time.perf_counter()
    got: dict[str, list[tuple[str, ...]]] = defaultdict(list)
    cpu: dict[str, float] = defaultdict(float)
    print("| scenario | wins by side, % of all games (95 % interval) | draws % | N | flags | uneven by the text? |")
    print("| --- | --- | --- | --- | --- | --- |")
    with multiprocessing.Pool(args.workers) as pool:
        for scenario_id, _, winners, seconds in pool.imap(_one, jobs, chunksize=4):
            got[scenario_id].append(winners)
            cpu[scenario_id] += seconds
            if len(got[scenario_id]) == args.games:
                print(row(scenario_id, got[scenario_id]), flush=True)
                print(f"{scenario_id}: {cpu[scenario_id] / args.games:.2f} cpu s a game", file=sys.stderr)
    print(f"wall {time.perf_counter() - started:.0f} s on {args.workers} workers", file=sys.stderr)


if __name__ == "__main__":
    main()
