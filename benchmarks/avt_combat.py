"""AV:T combat figures (issue 14): a duel turn with fire and damage, and one 71-point allocation.

Targets: one turn (8 segments) of the Rafik-Wasp duel at point-blank range with
every ready laser firing and every hit allocated, at most 5 ms median; the
tutorial's 71-point allocation, at most 1 ms median. Printed by
``python benchmarks/run.py``; never asserted in the test suite.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import replace

from vectorwar.catalogue import builtin_scenario
from vectorwar.dice import Dice
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.hexes import Hex, Position
from vectorwar.registry import get_system
from vectorwar.rules import Order
from vectorwar.systems.avt.damage import allocate
from vectorwar.systems.avt.state import AVTState

TURN_TARGET_MS = 5.0
ALLOCATION_TARGET_MS = 1.0


def _close_duel(seed: int) -> AVTState:
    """The duel with the Wasp moved to 4 hexes from the Rafik, noses on each other."""
    game = Game.new(get_system("avt"), builtin_scenario("avt-duel-wasp"), seed)
    state: AVTState = game.state
    wasp = state.ship("Wasp")
    return state.with_ship(replace(wasp, position=Position(Hex.from_offset(15, 28), 0)))


def _volley(state: AVTState, side: str) -> Order:
    """Every laser of the side's ship that may fire now, at the enemy, checked as a player's order is."""
    system = get_system("avt")
    entries = []
    for ship_id, shots in system.fire_options(state, side).items():
        ship = state.ship(ship_id)
        design = state.designs[ship.design]
        affordable, power = [], ship.battery
        for shot in shots:
            laser = shot.piece.split()[-1].partition(">")[0]  # the piece reads "fire A1>Wasp"
            cost = design.mounts[design.lasers[laser]].power
            if cost <= power:
                affordable.append(shot.piece)
                power -= cost
        if affordable:
            entries.append(f"{ship_id} {' '.join(affordable)}")
    order = system.parse_order(state, side, "; ".join(entries) or "hold")
    system.check_order(state, side, order)
    return order


def duel_turn_times(turns: int = 20) -> list[float]:
    """Milliseconds to resolve one turn (8 segments) of close-range fire; orders are built outside the timing."""
    system = get_system("avt")
    times: list[float] = []
    seed = 0
    while len(times) < turns:
        state = _close_duel(seed)
        dice = Dice(seed)
        seed += 1
        spent = 0.0
        for _ in range(8):
            if state.phase == "over":
                break
            orders = {side: _volley(state, side) for side in ("blue", "red")}
            start = time.perf_counter()
            state, _ = system.resolve(state, orders, dice)
            spent += time.perf_counter() - start
        if state.phase != "over":
            times.append(spent * 1000)
    return times


def allocation_times(runs: int = 200) -> list[float]:
    """Milliseconds for a 71-point allocation one window below a Rafik's nose (fresh dice each run)."""
    system = get_system("avt")
    game = Game.new(system, builtin_scenario("avt-duel-rafik"), 0)
    rafik = game.state.ship("Rafik")
    design = game.state.designs["rafik"]
    times = []
    for seed in range(runs):
        events: list[Event] = []
        start = time.perf_counter()
        allocate(rafik, design, 71, "nose-bottom", Dice(seed), events)
        times.append((time.perf_counter() - start) * 1000)
    return times


def rows() -> list[dict[str, object]]:
    turn = duel_turn_times()
    alloc = allocation_times()
    return [
        {
            "benchmark": f"avt duel turn at point blank, every ready laser firing, median ms ({len(turn)})",
            "median_ms": round(statistics.median(turn), 2),
            "max_ms": round(max(turn), 2),
            "target_ms": TURN_TARGET_MS,
            "met": statistics.median(turn) <= TURN_TARGET_MS,
        },
        {
            "benchmark": f"avt 71-point damage allocation, median ms ({len(alloc)})",
            "median_ms": round(statistics.median(alloc), 3),
            "max_ms": round(max(alloc), 3),
            "target_ms": ALLOCATION_TARGET_MS,
            "met": statistics.median(alloc) <= ALLOCATION_TARGET_MS,
        },
    ]


if __name__ == "__main__":
    for row in rows():
        print(row)
