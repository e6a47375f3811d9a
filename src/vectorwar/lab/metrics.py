"""The figures designers ask of a cell (one set-up played over many seeds), from its rows.

Per side: wins, draws and losses with 95% Wilson intervals, damage dealt per
turn and luck. Per cell: drawishness (the share of draws), completion (the
share decided before the turn limit), duration (turns: mean, standard
deviation, least and most) and, where the system rolls initiative, the first
mover's results. docs/lab.md defines each.
"""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Sequence
from typing import Any

Z95 = 1.959964

#: The columns of the cells table (one row per cell and side), in order; docs/lab.md describes each.
CELL_COLUMNS = (
    "job",
    "label",
    "params",
    "scenario",
    "bots",
    "seeds",
    "side",
    "games",
    "wins",
    "draws",
    "losses",
    "win",
    "win_lo",
    "win_hi",
    "draw",
    "draw_lo",
    "draw_hi",
    "loss",
    "loss_lo",
    "loss_hi",
    "damage_per_turn",
    "luck",
    "luck_sd",
    "luck_games",
    "completion",
    "completion_lo",
    "completion_hi",
    "turns_mean",
    "turns_sd",
    "turns_min",
    "turns_max",
    "first_mover_games",
    "first_mover_win",
    "first_mover_win_lo",
    "first_mover_win_hi",
    "first_mover_score",
    "first_mover_score_lo",
    "first_mover_score_hi",
    "sample_seed",
)


def wilson(wins: int, games: int) -> tuple[float, float, float]:
    """Win rate and its 95% Wilson score interval (honest at small counts and at 0 or 1)."""
    if games == 0:
        return 0.0, 0.0, 0.0
    p = wins / games
    denom = 1 + Z95**2 / games
    centre = (p + Z95**2 / (2 * games)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95**2 / (4 * games**2)) / denom
    # Rounding can leave the bounds a hair inside the rate at 0% or 100%; error bars need lo <= p <= hi.
    lo = 0.0 if wins == 0 else min(p, max(0.0, centre - half))
    hi = 1.0 if wins == games else max(p, min(1.0, centre + half))
    return p, lo, hi


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% normal interval (the mean alone for fewer than two), kept in [0, 1]."""
    if not values:
        return 0.0, 0.0, 0.0
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def cell_metrics(frame: Any) -> list[dict[str, Any]]:
    """One row per cell (set-up) and side, columns :data:`CELL_COLUMNS`; cell-wide figures repeat on each side's row."""
    cells: dict[int, list[int]] = {}
    for i, job in enumerate(frame["job"]):
        cells.setdefault(int(job), []).append(i)
    out: list[dict[str, Any]] = []
    for job, rows in sorted(cells.items()):
        out.extend(_cell(frame, job, rows))
    return out


def _cell(frame: Any, job: int, rows: list[int]) -> list[dict[str, Any]]:
    first = rows[0]
    sides: list[str] = json.loads(frame["sides"][first])
    winners = [set(str(frame["winner"][i]).split(",")) - {""} for i in rows]
    turns = [int(frame["turns"][i]) for i in rows]
    cell = {
        "job": job,
        **{key: str(frame[key][first]) for key in ("label", "params", "scenario", "bots")},
        **_outcomes(frame, rows, winners, turns),
        **_first_mover(frame, rows, winners),
    }
    damage = [json.loads(frame["damage"][i]) for i in rows]
    luck = [json.loads(frame["luck"][i]) for i in rows]
    out = []
    for side in sides:
        row = {**cell, **_side(side, winners, turns, damage, luck)}
        out.append({column: row[column] for column in CELL_COLUMNS})
    return out


def _interval(name: str, figures: tuple[float, float, float]) -> dict[str, float]:
    """A rate and its interval as the columns ``name``, ``name_lo`` and ``name_hi``."""
    rate, lo, hi = figures
    return {name: rate, f"{name}_lo": lo, f"{name}_hi": hi}


def _outcomes(frame: Any, rows: list[int], winners: list[set[str]], turns: list[int]) -> dict[str, Any]:
    """The cell-wide figures: its seeds, games, draws, completion and duration."""
    seeds = sorted(int(frame["seed"][i]) for i in rows)
    decided = [bool(frame["decided"][i]) for i in rows]
    n = len(rows)
    draws = sum(not w for w in winners)
    return {
        "seeds": f"{seeds[0]}-{seeds[-1]}" if n > 1 else str(seeds[0]),
        "games": n,
        "draws": draws,
        **_interval("draw", wilson(draws, n)),
        **_interval("completion", wilson(sum(decided), n)),
        "turns_mean": statistics.fmean(turns),
        "turns_sd": statistics.stdev(turns) if n > 1 else 0.0,
        "turns_min": min(turns),
        "turns_max": max(turns),
        # The first game's seed is the one the report's sample replays.
        "sample_seed": seeds[0],
    }


#: The first mover's columns that have no value when no game rolled initiative.
_FIRST_MOVER_FIGURES = tuple(c for c in CELL_COLUMNS if c.startswith(("first_mover_win", "first_mover_score")))


def _first_mover(frame: Any, rows: list[int], winners: list[set[str]]) -> dict[str, Any]:
    """How the side that won initiative fared; ``None`` figures where the system rolls none."""
    movers = [(str(frame["initiative"][i]), w) for i, w in zip(rows, winners, strict=True) if frame["initiative"][i]]
    if not movers:
        return {"first_mover_games": 0, **dict.fromkeys(_FIRST_MOVER_FIGURES)}
    # The first mover's score: 1 for a win, a half for a draw, 0 for a loss; 0.5 is no advantage.
    scores = [1.0 if m in w else 0.5 if not w else 0.0 for m, w in movers]
    return {
        "first_mover_games": len(movers),
        **_interval("first_mover_win", wilson(sum(m in w for m, w in movers), len(movers))),
        **_interval("first_mover_score", mean_interval(scores)),
    }


def _side(
    side: str, winners: list[set[str]], turns: list[int], damage: list[dict[str, Any]], luck: list[dict[str, Any]]
) -> dict[str, Any]:
    """One side's results, damage dealt per turn and luck over the cell's games."""
    n = len(winners)
    wins = sum(side in w for w in winners)
    losses = n - wins - sum(not w for w in winners)
    per_turn = [d.get(side, 0) / t for d, t in zip(damage, turns, strict=True) if t > 0]
    lucks = [float(g[side]["luck"]) for g in luck if side in g and g[side]["luck"] is not None]
    return {
        "side": side,
        "wins": wins,
        "losses": losses,
        **_interval("win", wilson(wins, n)),
        **_interval("loss", wilson(losses, n)),
        "damage_per_turn": statistics.fmean(per_turn) if per_turn else 0.0,
        "luck": statistics.fmean(lucks) if lucks else None,
        "luck_sd": statistics.stdev(lucks) if len(lucks) > 1 else None,
        "luck_games": len(lucks),
    }
