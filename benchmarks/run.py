"""vectorwar benchmarks: run with ``python benchmarks/run.py`` and read the figures.

Targets: 1,000 greedy-vs-greedy 3 v 3 MSC games in at most 60 s on one core;
1,000 greedy-vs-greedy VV5 Dogfights in at most 60 s; 2,000 AV:T duels and
4,000 VMS capital duels a minute; a VMS battle's worst greedy decision at 32
ships in at most 50 ms, its 96-ship turn in at most 0.5 s and a growth
exponent from 16 to 96 ships of at most 1.5; 1,000 search rollout-turns a second
in every system; one full VV5 turn with
24 ships resolved in at most 20 ms median; an AV:T player's browser scene (order
pieces included) built in at most 50 ms median, 25 ms for a side of 8 ships; an AV:T duel turn with fire and
damage allocation in at most 5 ms median and a 71-point allocation in at most
1 ms median (benchmarks/avt_combat.py); each request of issue 15's attacker (huge
numbers in orders and scenarios) refused in well under 50 ms of server CPU
(benchmarks/attacks.py). ``--lab`` adds the lab's games per second on 1 and 2
Dask workers and their ratio (benchmarks/lab.py). Figures are printed, never
asserted in the test suite.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import time
from collections.abc import Callable

import avt_combat  # benchmarks/ runs as a folder of scripts: its modules import each other by name
from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.play import bot_rng, make_bots, simulate
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data


def vv5_big_battle() -> dict[str, object]:
    """12 against 12 on the VV5 board, ships close enough to fight at once."""
    sides = []
    for side, col, facing in (("red", 18, "B"), ("blue", 30, "E")):
        ships = [
            {
                "id": f"{side[0].upper()}{i}",
                "design": "harpy" if i % 2 else "dynamo",
                "at": f"{col + (i % 3) * 2},{4 + 2 * (i // 3)}",
                "facing": facing,
                "velocity": f"{facing}=1",
            }
            for i in range(12)
        ]
        sides.append({"id": side, "ships": ships})
    return {
        "id": "bench-24",
        "system": "vv5",
        "title": "24-ship benchmark",
        "max_turns": 15,
        "map": {"grid": ["A B C D E", "F G H I J", "K L M N O"], "width": 10, "height": 8},
        "sides": sides,
    }


def vv5_turn_times(turns: int = 8) -> list[float]:
    """Milliseconds to resolve each whole turn (bots' thinking excluded)."""
    system = get_system("vv5")
    scenario = scenario_from_data(vv5_big_battle(), "benchmark")
    times = []
    for seed in range(3):
        game = Game.new(system, scenario, seed)
        bots = make_bots(system, {"red": "greedy", "blue": "greedy"})
        for _ in range(turns):
            spent = 0.0
            clock = game.clock
            if clock is None:
                break
            while game.clock is not None and game.clock.turn == clock.turn:
                for side in game.waiting_for:
                    order = bots[side].choose(game.state, side, bot_rng(seed, side, len(game.history)))
                    t = time.perf_counter()
                    game.submit(side, order)
                    spent += time.perf_counter() - t
            times.append(spent * 1000)
            if game.is_over:
                break
    return times


def avt_scene_row() -> dict[str, object]:
    """An AV:T player's browser scene (built on every push), order pieces included; target 50 ms."""
    from vectorwar.catalogue import builtin_scenario
    from vectorwar.game import Game
    from vectorwar.registry import get_system
    from vectorwar.scene import build_scene

    game = Game.new(get_system("avt"), builtin_scenario("avt-drift"), 1)
    times = []
    for _ in range(20):
        t = time.perf_counter()
        build_scene(game, ["blue"])
        times.append((time.perf_counter() - t) * 1000)
    return {
        "benchmark": "avt player's scene with order pieces, median ms (20 builds)",
        "median_ms": round(statistics.median(times), 2),
        "target_ms": 50.0,
        "met": statistics.median(times) <= 50.0,
    }


def avt_fleet_scenario(per_side: int) -> dict[str, object]:
    """The beams-only duel's map with ``per_side`` Rafiks against as many Wasps, in range of each other."""
    ships = [
        {"id": f"Rafik{i + 1}", "design": "rafik", "at": f"{4 + 3 * i},24", "facing": "A"} for i in range(per_side)
    ]
    wasps = [{"id": f"Wasp{i + 1}", "design": "wasp", "at": f"{4 + 3 * i},14", "facing": "D"} for i in range(per_side)]
    return {
        "title": f"benchmark: {per_side} Rafiks against {per_side} Wasps",
        "system": "avt",
        "id": f"avt-fleet-{per_side}",
        "map": {"width": 30, "height": 40},
        "sides": [{"id": "blue", "ships": ships}, {"id": "red", "ships": wasps}],
    }


def avt_fleet_scene_times(per_side: int = 8, builds: int = 10) -> list[float]:
    """Milliseconds of each build of an AV:T player's scene for a side of ``per_side`` ships in range of as many.

    Each build is the first at its position, as after every change a server pushes: between builds
    the greedy bots play one more batch (not timed), so nothing a build keeps for a position (arcs,
    flights) is found again by the next.
    """
    from vectorwar.scene import build_scene

    system = get_system("avt")
    scenario = scenario_from_data(avt_fleet_scenario(per_side), "benchmark")
    game = Game.new(system, scenario, 1)
    bots = make_bots(system, {"blue": "greedy", "red": "greedy"})
    times = []
    for _ in range(builds):
        t = time.perf_counter()
        build_scene(game, ["blue"])
        times.append((time.perf_counter() - t) * 1000)
        if game.is_over:
            break
        for side in game.waiting_for:
            game.submit(side, bots[side].choose(game.state, side, bot_rng(1, side, len(game.history))))
    return times


def avt_fleet_scene_row(per_side: int = 8) -> dict[str, object]:
    """An AV:T player's scene for a side of 8 ships in range of 8 enemies (arcs, shots with odds), each build at a
    new position; target 25 ms."""
    times = avt_fleet_scene_times(per_side)
    return {
        "benchmark": f"avt scene for a side of {per_side} ships, median ms ({len(times)} builds)",
        "median_ms": round(statistics.median(times), 2),
        "target_ms": 25.0,
        "met": statistics.median(times) <= 25.0,
    }


def vms_rows() -> list[dict[str, object]]:
    """The VMS battle of ``compare.py`` (frigates with MSC combat, greedy v greedy, bots included, CPU time):
    the worst decision at 32 ships (target 50 ms), the turn at 16 to 96 ships, the 96-ship turn (target
    0.5 s) and the fitted growth exponent (target 1.5)."""
    from compare import vms_turn_and_decision_times, vms_turn_times
    from vms_scale import exponent

    vms_turn_times(4, 1)  # what a process does once (imports, tables) weighs on no figure
    turns, decisions = vms_turn_and_decision_times(16, 3)
    rows: list[dict[str, object]] = [
        {
            "benchmark": f"vms greedy decision at 32 ships, ms CPU ({len(decisions)} decisions, 3 turns)",
            "median_ms": round(statistics.median(decisions), 2),
            "max_ms": round(max(decisions), 2),
            "target_ms": 50.0,
            "met": max(decisions) <= 50.0,
        }
    ]
    points = [(32, statistics.median(turns))]
    points += [(2 * n, statistics.median(vms_turn_times(n, 3))) for n in (8, 32, 48)]
    points.sort()
    slope = exponent(points)
    rows.append(
        {
            "benchmark": "vms greedy turn, median ms CPU at 16/32/64/96 ships; fitted exponent",
            "turn_ms": "/".join(f"{t:.0f}" for _, t in points),
            "target_96_ms": 500.0,
            "exponent": round(slope, 2),
            "target_exponent": 1.5,
            "met": points[-1][1] <= 500.0 and slope <= 1.5,
        }
    )
    return rows


def search_rows(decisions: int = 2) -> list[dict[str, object]]:
    """The search bot's rollouts a second in a scenario of every system (benchmarks/search.py); target 1,000."""
    from search import decision_figures, positions

    rows: list[dict[str, object]] = []
    for scenario in ("msc-fleet", "vv5-dogfight", "avt-duel-wasp", "vms-capital-duel-msc", "vms-fighter-screen-vv5"):
        per_second = decision_figures(positions(scenario, decisions), 1)["per_second"]
        rows.append(
            {
                "benchmark": f"search rollout-turns a second, {scenario} ({decisions} decisions)",
                "per_second": round(per_second),
                "target": 1000,
                "met": per_second >= 1000,
            }
        )
    return rows


def avt_greedy_row(games: int = 12) -> dict[str, object]:
    """Milliseconds per decision of the AV:T greedy player in the Rafik v Wasp duel against random; target 100 ms."""
    from vectorwar.catalogue import builtin_scenario
    from vectorwar.game import Game
    from vectorwar.play import bot_rng, make_bots
    from vectorwar.registry import get_system

    system = get_system("avt")
    times = []
    for seed in range(games):
        side = "blue" if seed % 2 == 0 else "red"
        game = Game.new(system, builtin_scenario("avt-duel-wasp"), seed)
        bots = make_bots(system, {side: "greedy", "red" if side == "blue" else "blue": "random"})
        while not game.is_over:
            for acting in game.waiting_for:
                t = time.perf_counter()
                order = bots[acting].choose(game.state, acting, bot_rng(seed, acting, len(game.history)))
                if acting == side:
                    times.append((time.perf_counter() - t) * 1000)
                game.submit(acting, order)
                if game.is_over:
                    break
    times.sort()
    p99 = times[int(0.99 * (len(times) - 1))]
    return {
        "benchmark": f"avt greedy decision, ms ({len(times)} decisions, {games} duel games)",
        "median_ms": round(statistics.median(times), 2),
        "mean_ms": round(statistics.fmean(times), 2),
        "p99_ms": round(p99, 2),
        "max_ms": round(times[-1], 2),
        "target_ms": 100.0,
        "met": p99 <= 100.0,
    }


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


def games_row(scenario: str, games: int, per_minute: float) -> dict[str, object]:
    """Greedy against greedy ``games`` times; the target is ``per_minute`` games a minute of CPU."""
    chosen = builtin_scenario(scenario)
    sides = [side.id for side in chosen.sides]
    start = time.process_time()
    row = timed(
        f"{scenario} greedy vs greedy, {games} games",
        games / per_minute * 60,
        lambda: simulate(chosen, dict.fromkeys(sides, "greedy"), games).to_data(sides),
    )
    return {"games_per_min": round(games / (time.process_time() - start) * 60)} | row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=1000, help="games per simulation benchmark")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--web", action="store_true", help="also run the web server benchmark (benchmarks/web.py)")
    parser.add_argument(
        "--lab", action="store_true", help="also run the lab's 1- and 2-worker benchmark (benchmarks/lab.py)"
    )
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
    dogfight = builtin_scenario("vv5-dogfight")
    rows.append(
        timed(
            f"vv5 dogfight greedy vs greedy, {n} games",
            60.0 * scale,
            lambda: simulate(dogfight, {"red": "greedy", "blue": "greedy"}, n).to_data(["red", "blue"]),
        )
    )
    turn_ms = vv5_turn_times()
    rows.append(
        {
            "benchmark": f"vv5 full turn, 24 ships, median ms ({len(turn_ms)} turns)",
            "median_ms": round(statistics.median(turn_ms), 2),
            "max_ms": round(max(turn_ms), 2),
            "target_ms": 20.0,
            "met": statistics.median(turn_ms) <= 20.0,
        }
    )
    from avt_turn import TARGET_MS, turn_times  # benchmarks/avt_turn.py, beside this script

    avt_ms = turn_times()
    rows.append(
        {
            "benchmark": f"avt full turn, 8 ships thrusting and pivoting, all bearings, median ms ({len(avt_ms)})",
            "median_ms": round(statistics.median(avt_ms), 2),
            "max_ms": round(max(avt_ms), 2),
            "target_ms": TARGET_MS,
            "met": statistics.median(avt_ms) <= TARGET_MS,
        }
    )
    rows.append(avt_scene_row())
    rows.append(avt_fleet_scene_row())
    rows.extend(avt_combat.rows())
    from avt_grid import grid_row  # benchmarks/avt_grid.py: the movement grid beside the peer's

    rows.append(grid_row())
    from attacks import attack_rows  # benchmarks/attacks.py, beside this script

    rows.extend(attack_rows())
    rows.append(avt_greedy_row())
    rows.append(games_row("avt-duel-wasp", max(1, n // 20), 2000))
    rows.append(games_row("vms-capital-duel-msc", max(1, n // 5), 4000))
    rows.append(games_row("vms-capital-duel-vv5", max(1, n // 5), 4000))
    rows.extend(vms_rows())
    rows.extend(search_rows())
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
    if args.web:
        from web import web_rows  # benchmarks/web.py, beside this script

        rows.extend(web_rows())
    if args.lab:
        from lab import lab_rows  # benchmarks/lab.py, beside this script

        rows.extend(lab_rows())
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    for row in rows:
        print(" | ".join(f"{k}={v}" for k, v in row.items()))


if __name__ == "__main__":
    main()
