"""The AV:T speed figure (issue: one turn for 8 ships under thrust and pivoting, all bearings, <= 5 ms).

Eight Rafiks in two groups of four fly a turn: every ship sets thrust, the
first group pivots twice and the second rolls, and before each segment every
ship shoots a bearing on every other ship and maps it to its firing arc
diagram. :func:`turn_times` gives the milliseconds each whole turn took,
orders checked and resolved through the kernel's :class:`~vectorwar.game.Game`.
``benchmarks/run.py`` prints the median. It lives here, outside the product
package, because timing is no part of the rules; the test suite only plays
its turn (tests/avt/test_rules.py) and asserts no time.
"""

from __future__ import annotations

import time

from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.scenario import Scenario, scenario_from_data
from vectorwar.systems.avt.arcs import map_to_arc
from vectorwar.systems.avt.avid import shoot_bearing
from vectorwar.systems.avt.state import AVTState

TARGET_MS = 5.0


def eight_ships() -> Scenario:
    red = [
        {"id": f"R{i}", "design": "rafik", "at": f"{5 + 2 * i},25", "facing": "A", "velocity": "A=3, B=1"}
        for i in range(4)
    ]
    blue = [
        {"id": f"B{i}", "design": "rafik", "at": f"{5 + 2 * i},5", "facing": "D", "velocity": "D=2, up=1"}
        for i in range(4)
    ]
    data = {
        "id": "avt-bench-8",
        "system": "avt",
        "title": "8-ship benchmark",
        "max_turns": 10,
        "map": {"width": 30, "height": 30},
        "sides": [{"id": "red", "ships": red}, {"id": "blue", "ships": blue}],
    }
    return scenario_from_data(data, "avt benchmark")


_RED = {1: "thrust 5, pivot A/B+", 4: "pivot B", 6: "thrust 3"}
_BLUE = {1: "thrust 4, roll stbd 2", 5: "thrust 0"}


def _all_bearings(state: AVTState) -> int:
    mapped = 0
    for a in state.ships:
        for b in state.ships:
            if a is not b:
                marker = shoot_bearing(a.position, b.position)
                if marker.window is not None:
                    mapped += len(map_to_arc(a.orientation, marker.window))
    return mapped


def turn_times(repeats: int = 30) -> list[float]:
    """Milliseconds per turn over ``repeats`` fresh games (orders parsed beforehand)."""
    system = get_system("avt")
    scenario = eight_ships()
    times: list[float] = []
    for seed in range(repeats):
        game = Game.new(system, scenario, seed)
        orders = {
            seg: {
                "red": game.parse("red", "; ".join(f"R{i} {_RED[seg]}" for i in range(4)) if seg in _RED else "hold"),
                "blue": game.parse(
                    "blue", "; ".join(f"B{i} {_BLUE[seg]}" for i in range(4)) if seg in _BLUE else "hold"
                ),
            }
            for seg in range(1, 9)
        }
        start = time.perf_counter()
        for seg in range(1, 9):
            _all_bearings(game.state)
            game.submit("red", orders[seg]["red"])
            game.submit("blue", orders[seg]["blue"])
        times.append((time.perf_counter() - start) * 1000)
    return times
