"""Speed of this tree against a git commit, side by side: ``python benchmarks/compare.py BASE``.

The base commit is checked out with ``git worktree add`` into a temporary folder and removed
afterwards. Each round runs this script's measuring code once on this tree's ``src`` and once on
the base's (``PYTHONPATH`` set to each in turn), each figure in a fresh process, interleaved A, B,
A, B ... so that a shared machine's load falls on both alike; every figure is CPU time of the measuring process
(``time.process_time``), and the table shows the median of the rounds (3 unless told) with the
speed-up of this tree over the base (above 1: this tree is faster).

The figures are those of ``benchmarks/run.py`` (greedy games, the full-turn times, the VMS battle's
worst decision, 96-ship turn and growth exponent, the AV:T scene and grid) and the search bot's rollouts
per second from ``benchmarks/search.py``, as per-core rates. ``--figures`` picks
some by name, ``--scale`` multiplies the games played for each. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass(frozen=True)
class Figure:
    name: str
    unit: str
    #: True for rates (games a minute, rollouts a second), False for times (milliseconds).
    higher_is_better: bool
    what: str


FIGURES: tuple[Figure, ...] = (
    Figure("msc-fleet", "games/min", True, "msc-fleet (3v3) greedy v greedy"),
    Figure("msc-duel", "games/min", True, "msc-duel greedy v random"),
    Figure("vv5-dogfight", "games/min", True, "vv5-dogfight greedy v greedy"),
    Figure("avt-duel", "games/min", True, "avt-duel-wasp greedy v greedy"),
    Figure("vms-capital", "games/min", True, "vms-capital-duel-msc greedy v greedy"),
    Figure("vms-capital-vv5", "games/min", True, "vms-capital-duel-vv5 greedy v greedy"),
    Figure("vv5-turn-24", "ms", False, "vv5 full turn, 24 ships (median)"),
    Figure("vms-turn-32", "ms", False, "vms (msc combat) greedy turn, 16 v 16 frigates, bots included (median)"),
    Figure("vms-decision-32", "ms", False, "vms-turn-32's battle: the worst single greedy decision"),
    Figure("vms-turn-96", "ms", False, "vms-turn-32's battle at 48 v 48 frigates (median)"),
    Figure("vms-exponent", "exponent", False, "vms greedy turn's growth, fitted from 16 to 96 ships (vms_scale.py)"),
    Figure("avt-turn-8", "ms", False, "avt full turn, 8 ships, all bearings (median)"),
    Figure(
        "avt-scene-8", "ms", False, "avt player's scene for a side of 8 ships, each build at a new position (median)"
    ),
    Figure("avt-grid", "x peer", True, "avt grid from 10,000 new vectors: times faster than the peer calculator"),
    Figure("search-msc-fleet", "rollouts/s", True, "search rollouts, msc-fleet"),
    Figure("search-vv5-dogfight", "rollouts/s", True, "search rollouts, vv5-dogfight"),
    Figure("search-avt-duel", "rollouts/s", True, "search rollouts, avt-duel-wasp"),
    Figure("search-vms-capital", "rollouts/s", True, "search rollouts, vms-capital-duel-msc"),
    Figure("search-vms-screen", "rollouts/s", True, "search rollouts, vms-fighter-screen-vv5"),
)
BY_NAME = {f.name: f for f in FIGURES}

#: Games each game figure plays at ``--scale 1`` (about a second or two of CPU each).
GAMES = {"msc-fleet": 60, "msc-duel": 60, "vv5-dogfight": 60, "avt-duel": 6, "vms-capital": 20, "vms-capital-vv5": 20}
SCENARIO = {
    "msc-fleet": "msc-fleet",
    "msc-duel": "msc-duel",
    "vv5-dogfight": "vv5-dogfight",
    "avt-duel": "avt-duel-wasp",
    "vms-capital": "vms-capital-duel-msc",
    "vms-capital-vv5": "vms-capital-duel-vv5",
    "search-vms-capital": "vms-capital-duel-msc",
    "search-msc-fleet": "msc-fleet",
    "search-vv5-dogfight": "vv5-dogfight",
    "search-avt-duel": "avt-duel-wasp",
    "search-vms-screen": "vms-fighter-screen-vv5",
}


# --- the pure parts (tested in tests/test_benchmark_compare.py) ---


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", nargs="?", help="the git commit (or branch) to compare against")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each tree; the median is shown")
    parser.add_argument("--scale", type=float, default=1.0, help="multiplies the games each figure plays")
    parser.add_argument(
        "--figures", type=figure_names, default=[f.name for f in FIGURES], help="comma-separated figure names"
    )
    parser.add_argument("--decisions", type=int, default=2, help="search decisions timed per scenario")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.child and not args.base:
        parser.error("name a base commit to compare against")
    if args.rounds < 1 or args.scale <= 0 or args.decisions < 1:
        parser.error("--rounds and --decisions must be at least 1, --scale above 0")
    return args


def figure_names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown figure {', '.join(unknown) or '(none)'}; known: {', '.join(BY_NAME)}"
        )
    return names


def median(values: Sequence[float]) -> float | None:
    return statistics.median(values) if values else None


def speedup(figure: Figure, current: float | None, base: float | None) -> float | None:
    """How many times faster this tree is than the base on ``figure`` (above 1: faster)."""
    if current is None or base is None or current <= 0 or base <= 0:
        return None
    return current / base if figure.higher_is_better else base / current


def format_table(results: dict[str, tuple[list[float], list[float]]], base: str) -> str:
    """One line per figure: this tree's median, the base's, the speed-up, and the rounds run."""
    head = f"{'figure':<20} {'unit':<10} {'this tree':>10} {base[:10]:>10} {'speed-up':>8}  rounds"
    lines = [head, "-" * len(head)]
    for name, (mine, theirs) in results.items():
        figure = BY_NAME[name]
        a, b = median(mine), median(theirs)
        ratio = speedup(figure, a, b)
        lines.append(
            f"{name:<20} {figure.unit:<10} {_number(a):>10} {_number(b):>10} "
            f"{'-' if ratio is None else f'{ratio:.2f}x':>8}  {len(mine)}/{len(theirs)}"
        )
    return "\n".join(lines)


def _number(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2f}" if value < 100 else f"{value:.0f}"


# --- the measuring child (runs on whichever src PYTHONPATH names) ---


def _cpu(work: Callable[[], object]) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def measure(name: str, scale: float, decisions: int) -> float:
    """One figure, measured in this process on the ``vectorwar`` it imports."""
    if name in GAMES:
        from vectorwar.catalogue import builtin_scenario
        from vectorwar.play import simulate

        games = max(1, round(GAMES[name] * scale))
        scenario = builtin_scenario(SCENARIO[name])
        controllers = {side.id: "greedy" for side in scenario.sides}
        if name == "msc-duel":
            controllers["blue"] = "random"  # as benchmarks/run.py plays it
        return games / _cpu(lambda: simulate(scenario, controllers, games)) * 60
    sys.path.insert(0, str(HERE))  # the other benchmark scripts, beside this one
    if name == "vv5-turn-24":
        from run import vv5_turn_times

        return statistics.median(vv5_turn_times(max(2, round(8 * scale))))
    if name.startswith("vms-"):
        return measure_vms(name, scale)
    if name == "avt-turn-8":
        from avt_turn import turn_times

        return statistics.median(turn_times())
    if name == "avt-scene-8":
        from run import avt_fleet_scene_times

        return statistics.median(avt_fleet_scene_times(8, max(3, round(10 * scale))))
    if name == "avt-grid":
        from avt_grid import grid_row

        speedup_cold = grid_row(max(100, round(10_000 * scale)), 1)["speedup_cold"]
        return float(str(speedup_cold))
    from search import decision_figures, positions

    places = positions(SCENARIO[name], max(1, round(decisions * scale)))
    return float(decision_figures(places, 1)["per_second"])


def measure_vms(name: str, scale: float) -> float:
    """The VMS battle's figures (frigates with MSC combat, greedy against greedy)."""
    turns = max(2, round(3 * scale))
    if name == "vms-turn-32":
        return statistics.median(vms_turn_times(16, turns))
    if name == "vms-turn-96":
        return statistics.median(vms_turn_times(48, turns))
    vms_turn_times(4, 1)  # what a process does once (imports, tables) weighs on no decision or size
    if name == "vms-decision-32":
        return max(vms_turn_and_decision_times(16, turns)[1])
    from vms_scale import exponent

    return exponent([(2 * n, statistics.median(vms_turn_times(n, turns))) for n in (8, 16, 32, 48)])


def vms_battle(per_side: int) -> dict[str, object]:
    """``per_side`` frigates a side on the VMS board with MSC combat, in reach of each other from the start."""
    sides = []
    for side, row, facing in (("red", 17, "A"), ("blue", 11, "D")):
        ships = [
            {"id": f"{side[0].upper()}{i}", "design": "frigate", "at": f"{4 + 2 * (i % 8)},{row + 2 * (i // 8)}"}
            | {"facing": facing}
            for i in range(per_side)
        ]
        sides.append({"id": side, "ships": ships})
    return {
        "id": f"vms-bench-{2 * per_side}",
        "system": "vms",
        "title": f"{2 * per_side}-ship benchmark",
        "max_turns": 10,
        "options": {"combat": "msc"},
        "map": {"width": 24, "height": 30},
        "sides": sides,
    }


def vms_turn_times(per_side: int, turns: int) -> list[float]:
    """CPU milliseconds of each whole VMS turn, greedy against greedy, the bots' choices included."""
    return vms_turn_and_decision_times(per_side, turns)[0]


def vms_turn_and_decision_times(per_side: int, turns: int) -> tuple[list[float], list[float]]:
    """CPU milliseconds of each whole VMS turn (bots included) and of each bot's decision in it."""
    from vectorwar.game import Game
    from vectorwar.play import bot_rng, make_bots
    from vectorwar.registry import get_system
    from vectorwar.scenario import scenario_from_data

    system = get_system("vms")
    game = Game.new(system, scenario_from_data(vms_battle(per_side), "benchmark"), 1)
    bots = make_bots(system, {"red": "greedy", "blue": "greedy"})
    times: list[float] = []
    decisions: list[float] = []
    for _ in range(turns):
        clock = game.clock
        if clock is None:
            break
        start = time.process_time()
        while game.clock is not None and game.clock.turn == clock.turn:
            for side in game.waiting_for:
                began = time.process_time()
                order = bots[side].choose(game.state, side, bot_rng(1, side, len(game.history)))
                decisions.append((time.process_time() - began) * 1000)
                game.submit(side, order)
        times.append((time.process_time() - start) * 1000)
    return times, decisions


def child(args: argparse.Namespace) -> None:
    # The full-turn figures (run.py, avt_turn.py) time with ``time.perf_counter``: here it reads this process's
    # CPU time instead, so that other work on a shared machine does not count.
    time.perf_counter = time.process_time
    print(json.dumps({name: measure(name, args.scale, args.decisions) for name in args.figures}))


# --- the parent ---


def run_child(src: Path, name: str, args: argparse.Namespace) -> float:
    """One figure measured in a fresh process: what one figure leaves behind (caches, a grown heap) never
    weighs on the next."""
    env = dict(os.environ, PYTHONPATH=str(src))
    command = [sys.executable, str(Path(__file__).resolve()), "--child"]
    command += ["--figures", name, "--scale", str(args.scale), "--decisions", str(args.decisions)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"measuring {src} failed:\n{done.stderr}")
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures[name]


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    if args.child:
        child(args)
        return
    # Stopped with a signal, still remove the base's checkout (``finally``) and end the running child (``run``).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("stopped"))
    results: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in args.figures}
    with tempfile.TemporaryDirectory(prefix="vectorwar-base-") as tmp:
        base_tree = Path(tmp) / "base"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", "--quiet", str(base_tree), args.base], check=True
        )
        try:
            for round_ in range(args.rounds):
                for name in args.figures:
                    pair = []
                    for src, slot in ((ROOT / "src", 0), (base_tree / "src", 1)):
                        value = run_child(src, name, args)
                        results[name][slot].append(value)
                        pair.append(f"{value:.2f}")
                    print(f"round {round_ + 1}, {name}: {' against '.join(pair)}", file=sys.stderr, flush=True)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base_tree)], check=False)
    print(f"CPU time, medians of {args.rounds}; speed-up = this tree over {args.base}")
    print(format_table(results, args.base))


if __name__ == "__main__":
    main()
