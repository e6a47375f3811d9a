"""Fingerprints of whole games, to show a speed change leaves every game the same: ``python benchmarks/fingerprint.py``.

Prints one line per greedy game (greedy against greedy on even seeds, against random on odd ones) of a
scenario of every system, with the number of events and a hash of the whole event log and history, and with
``--search`` one line per search decision (a hash of the order chosen and the rollouts run). Run it on two
trees (``PYTHONPATH`` at each one's ``src``) and diff the outputs: any change of play shows as a changed line.
"""

from __future__ import annotations

import argparse
import hashlib
import random

from search import positions  # benchmarks/search.py, beside this script
from vectorwar.catalogue import builtin_scenario
from vectorwar.play import play_out
from vectorwar.search import LEVELS, SearchBot

SCENARIOS = (
    "msc-fleet",
    "msc-duel",
    "vv5-dogfight",
    "avt-duel-wasp",
    "vms-capital-duel-msc",
    "vms-fighter-screen-vv5",
    "vms-mixed-fleet-msc",
)
SEARCHED = ("msc-fleet", "vv5-dogfight", "avt-duel-wasp", "vms-fighter-screen-vv5")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4, help="games per scenario")
    parser.add_argument("--search", action="store_true", help="also fingerprint two search decisions a scenario")
    args = parser.parse_args(argv)
    for name in SCENARIOS:
        scenario = builtin_scenario(name)
        for seed in range(args.seeds):
            controllers = {side.id: "greedy" for side in scenario.sides}
            if seed % 2:
                controllers[scenario.sides[1].id] = "random"
            game = play_out(scenario, controllers, seed)
            log = "\n".join(repr(e) for e in game.events) + "\n" + "\n".join(repr(h) for h in game.history)
            print(name, seed, len(game.events), digest(log), flush=True)
    if args.search:
        for name in SEARCHED:
            for i, (game, side) in enumerate(positions(name, 2)):
                bot = SearchBot(game.system, LEVELS[1])
                order = bot.choose(game.system.side_view(game.state, side), side, random.Random(0))
                print("search", name, i, digest(repr(order)), bot.rollouts, flush=True)


if __name__ == "__main__":
    main()
