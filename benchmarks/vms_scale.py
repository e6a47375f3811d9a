"""How a VMS battle's greedy turn grows with its ships: ``python benchmarks/vms_scale.py``.

Plays ``compare.py``'s VMS battle (frigates with MSC combat, both sides greedy, in reach of each other from
the start) at each size, times its first turns in CPU time (the bots' choices included, after one untimed
turn of a small battle) and prints each size's median with the exponent of a least-squares fit of log time
on log ships (1: twice the ships, twice the time). Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import statistics

from compare import vms_turn_times  # benchmarks/ runs as a folder of scripts


def exponent(points: list[tuple[int, float]]) -> float:
    """The slope of log(time) against log(ships), least squares.

    >>> round(exponent([(16, 1.0), (32, 4.0), (64, 16.0)]), 6)
    2.0
    """
    xs = [math.log(n) for n, _ in points]
    ys = [math.log(t) for _, t in points]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ships", default="16,32,64,96", help="comma-separated battle sizes (even: two sides)")
    parser.add_argument("--turns", type=int, default=3, help="turns timed at each size; the median is shown")
    args = parser.parse_args(argv)
    vms_turn_times(4, 1)  # what a process does once (imports, tables) weighs on no size
    points = []
    for ships in (int(n) for n in args.ships.split(",")):
        median = statistics.median(vms_turn_times(ships // 2, args.turns))
        points.append((ships, median))
        print(f"{ships:>4} ships: {median:8.1f} ms CPU a greedy turn", flush=True)
    if len(points) > 1:
        print(f"exponent {exponent(points):.2f} ({points[0][0]}-{points[-1][0]} ships)")


if __name__ == "__main__":
    main()
