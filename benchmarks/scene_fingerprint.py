"""Fingerprints of scenes, to show a change to the scene builder leaves its JSON the same byte for byte.

``python benchmarks/scene_fingerprint.py`` sets up every built-in scenario with greedy players, and
after each of the first orders (``--orders``) hashes the JSON of the scene each side sees and the
spectator's. Prints one line per scenario (orders given and a hash of all its scenes), then the AV:T
benchmark fleet's scene (``run.avt_fleet_scenario``). Run it on two trees (``PYTHONPATH`` at each
one's ``src``) and diff the outputs: any change of a scene shows as a changed line.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from typing import Any

from run import avt_fleet_scenario  # benchmarks/run.py, beside this script
from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.game import Game
from vectorwar.play import bot_turns
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data
from vectorwar.scene import build_scene
from vectorwar.setup import set_up


def scenes(game: Game) -> str:
    """The JSON of every side's scene and the spectator's, one a line."""
    sides: list[list[str]] = [[side.id] for side in game.scenario.sides] + [[]]
    return "\n".join(json.dumps(build_scene(game, sides_), default=_refuse) for sides_ in sides)


def _refuse(value: Any) -> Any:
    raise TypeError(f"a scene holds {type(value).__name__}, which JSON cannot hold")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--orders", type=int, default=12, help="orders given in each scenario")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in sorted(scenario_paths()):
        scenario = builtin_scenario(name)
        setup = set_up(scenario, {side.id: "greedy" for side in scenario.sides}, seed=args.seed)
        digest = hashlib.sha256(scenes(setup.game).encode())
        orders = 0
        for _ in bot_turns(setup.game, setup.bots):
            orders += 1
            digest.update(scenes(setup.game).encode())
            if orders >= args.orders:
                break
        print(name, orders, digest.hexdigest()[:16], flush=True)
    fleet = Game.new(get_system("avt"), scenario_from_data(avt_fleet_scenario(8), "benchmark"), args.seed)
    print("avt-fleet-8", 0, hashlib.sha256(scenes(fleet).encode()).hexdigest()[:16], flush=True)


if __name__ == "__main__":
    main()
