"""How a VMS battle's greedy turn grows with its ships: ``python benchmarks/vms_scale.py``.

Plays ``compare.py``'s VMS battle (frigates with MSC combat, both sides greedy, in reach of each other from
the start) at each size, times its first turns in CPU time (the bots' choices included, after one untimed
turn of a small battle) and prints each size's median with the exponent of a least-squares fit of log time
on log ships (1: twice the ships, twice the time), then the worst single bot decision (one side's whole order,
CPU time) over the timed turns of the battle of ``--worst`` ships. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

from compare import vms_battle, vms_turn_times  # benchmarks/ runs as a folder of scripts


def exponent(points: list[tuple[int, float]]) -> float:
    """The slope of log(time) against log(ships), least squares.

    >>> round(exponent([(16, 1.0), (32, 4.0), (64, 16.0)]), 6)
    2.0
    """
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def decision_times(per_side: int, turns: int) -> list[float]:
    """CPU milliseconds of each bot decision (a side's whole order) in ``turns`` turns of ``compare.py``'s battle,
    played as :func:`compare.vms_turn_times` plays it."""
    from vectorwar.game import Game
    from vectorwar.play import bot_rng, make_bots
    from vectorwar.registry import get_system
    from vectorwar.scenario import scenario_from_data

    system = get_system("vms")
    game = Game.new(system, scenario_from_data(vms_battle(per_side), "benchmark"), 1)
    bots = make_bots(system, {"red": "greedy", "blue": "greedy"})
    times = []
    for _ in range(turns):
        clock = game.clock
        if clock is None:
            break
        while game.clock is not None and game.clock.turn == clock.turn:
            for side in game.waiting_for:
                start = time.process_time()
                order = bots[side].choose(game.state, side, bot_rng(1, side, len(game.history)))
                times.append((time.process_time() - start) * 1000)
                game.submit(side, order)
    return times


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ships", default="16,32,64,96", help="comma-separated battle sizes (even: two sides)")
    parser.add_argument("--turns", type=int, default=3, help="turns timed at each size; the median is shown")
    parser.add_argument("--worst", type=int, default=32, help="the battle size whose worst decision is shown (0: none)")
    args = parser.parse_args(argv)
    vms_turn_times(4, 1)  # what a process does once (imports, tables) weighs on no size
    points = []
    for ships in (int(n) for n in args.ships.split(",")):
        median = statistics.median(vms_turn_times(ships // 2, args.turns))
        points.append((ships, median))
        print(f"{ships:>4} ships: {median:8.1f} ms CPU a greedy turn", flush=True)
    if len(points) > 1:
        print(f"exponent {exponent(points):.2f} ({points[0][0]}-{points[-1][0]} ships)")
    if args.worst:
        worst = max(decision_times(args.worst // 2, args.turns))
        print(f"worst decision at {args.worst} ships: {worst:.1f} ms CPU")


if __name__ == "__main__":
    main()
