"""AV:T movement grid speed, side by side with the peer calculator (issue 18).

Both tools are handed the same vectors as text, possibly on more than two
arrows (so consolidation is part of the work), and each builds the movement
grid: vectorwar with :func:`~vectorwar.systems.avt.grid.grid_from_text`, the
peer (KwirkyJ/attack-vector-pytools, vendored under benchmarks/vendor/ for
this benchmark only, MIT) with ``Vector(text).movement_grid()``.

Three figures, microseconds of CPU per grid over 10,000 distinct vectors (the
best of a few runs): the peer; vectorwar *cold* (every table emptied before each
run, so each grid is worked out from the rule, as on a vector's first
appearance in a game); vectorwar *warm* (the grids looked up, as on every later
appearance: a game meets the same few velocities again and again). The target
is the cold figure at least 2x faster than the peer. Run with
``python benchmarks/avt_grid.py``; ``benchmarks/run.py`` prints the same row.
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from vectorwar.systems.avt import grid
from vectorwar.systems.avt.grid import grid_from_text

SPEEDUP_TARGET = 2.0
_PEER_DIR = Path(__file__).parent / "vendor" / "attack_vector_pytools"
_LETTERS = "ABCDEF"


def vectors(count: int = 10_000, seed: int = 18) -> list[tuple[str, str]]:
    """``count`` distinct vectors as (vectorwar text, peer text): one to three arrows and perhaps a vertical term."""
    rng = random.Random(seed)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    while len(out) < count:
        arrows = rng.sample(_LETTERS, rng.randint(1, 3))
        terms = [(a, rng.randint(1, 15)) for a in arrows]
        ours = [f"{a}={n}" for a, n in terms]
        peer = [f"{n}{a}" for a, n in terms]
        if rng.random() < 0.5:
            up, n = rng.choice((("up", "+"), ("down", "-"))), rng.randint(1, 9)
            ours.append(f"{up[0]}={n}")
            peer.append(f"{n}{up[1]}")
        text = ", ".join(ours)
        if text not in seen:
            seen.add(text)
            out.append((text, " ".join(peer)))
    return out


def _per_grid_us(work: Callable[[], object], grids: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best / grids * 1e6


def _peer() -> Callable[[str], object]:
    sys.path.insert(0, str(_PEER_DIR))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)  # its `is` comparisons with literals
        import avt_gameplay_utils as peer  # type: ignore[import-not-found]
    return lambda text: peer.Vector(text).movement_grid()


def _clear() -> None:
    # Every table the grid module keeps, whatever the commit measured names them (``compare.py`` runs this script
    # against older trees).
    for value in vars(grid).values():
        clear = getattr(value, "cache_clear", None)
        if callable(clear):
            clear()


def grid_row(count: int = 10_000, repeats: int = 3) -> dict[str, object]:
    texts = vectors(count)
    peer_grid = _peer()
    peer_us = _per_grid_us(lambda: [peer_grid(p) for _, p in texts], count, repeats)

    def cold() -> None:
        _clear()
        for ours, _ in texts:
            grid_from_text(ours)

    cold_us = _per_grid_us(cold, count, repeats)
    warm_us = _per_grid_us(lambda: [grid_from_text(o) for o, _ in texts], count, repeats * 5)
    return {
        "benchmark": f"avt movement grid from a vector's text, CPU us a grid ({count} new vectors, best of {repeats})",
        "peer_us": round(peer_us, 2),
        "vectorwar_cold_us": round(cold_us, 2),
        "vectorwar_warm_us": round(warm_us, 3),
        "speedup_cold": round(peer_us / cold_us, 2),
        "speedup_warm": round(peer_us / warm_us, 1),
        "target_speedup_cold": SPEEDUP_TARGET,
        "met": peer_us / cold_us >= SPEEDUP_TARGET,
    }


if __name__ == "__main__":
    for key, value in grid_row().items():
        print(f"{key}: {value}")
