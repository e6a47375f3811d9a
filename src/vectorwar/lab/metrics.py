"""The figures designers ask of a cell (one set-up played over many seeds), from its rows.

Per seat: wins, draws and losses with 95% Wilson intervals, damage dealt per
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

#: The columns of the cells table (one row per cell and seat), in order; docs/lab.md describes each.
CELL_COLUMNS = (
    "job",
    "label",
    "params",
    "scenario",
    "bots",
    "seeds",
    "seat",
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
    """One row per cell (set-up) and seat, columns :data:`CELL_COLUMNS`; cell-wide figures repeat on each seat's row."""
    cells: dict[int, list[int]] = {}
    for i, job in enumerate(frame["job"]):
        cells.setdefault(int(job), []).append(i)
    out: list[dict[str, Any]] = []
    for job, rows in sorted(cells.items()):
        out.extend(_cell(frame, job, rows))
    return out


def _cell(frame: Any, job: int, rows: list[int]) -> list[dict[str, Any]]:
    first = rows[0]
    seats: list[str] = json.loads(frame["seats"][first])
    winners = [set(str(frame["winner"][i]).split(",")) - {""} for i in rows]
    turns = [int(frame["turns"][i]) for i in rows]
    decided = [bool(frame["decided"][i]) for i in rows]
    damage = [json.loads(frame["damage"][i]) for i in rows]
    luck = [json.loads(frame["luck"][i]) for i in rows]
    seeds = sorted(int(frame["seed"][i]) for i in rows)
    n = len(rows)
    draws = sum(not w for w in winners)
    movers = [(str(frame["initiative"][i]), w) for i, w in zip(rows, winners, strict=True) if frame["initiative"][i]]
    # The first mover's score: 1 for a win, a half for a draw, 0 for a loss; 0.5 is no advantage.
    scores = [1.0 if m in w else 0.5 if not w else 0.0 for m, w in movers]
    mover_win = wilson(sum(m in w for m, w in movers), len(movers))
    mover_score = mean_interval(scores)
    completion = wilson(sum(decided), n)
    cell = {
        "job": job,
        "label": str(frame["label"][first]),
        "params": str(frame["params"][first]),
        "scenario": str(frame["scenario"][first]),
        "bots": str(frame["bots"][first]),
        "seeds": f"{seeds[0]}-{seeds[-1]}" if n > 1 else str(seeds[0]),
        "games": n,
        "draws": draws,
        "completion": completion[0],
        "completion_lo": completion[1],
        "completion_hi": completion[2],
        "turns_mean": statistics.fmean(turns),
        "turns_sd": statistics.stdev(turns) if n > 1 else 0.0,
        "turns_min": min(turns),
        "turns_max": max(turns),
        "first_mover_games": len(movers),
        "first_mover_win": mover_win[0] if movers else None,
        "first_mover_win_lo": mover_win[1] if movers else None,
        "first_mover_win_hi": mover_win[2] if movers else None,
        "first_mover_score": mover_score[0] if movers else None,
        "first_mover_score_lo": mover_score[1] if movers else None,
        "first_mover_score_hi": mover_score[2] if movers else None,
        "sample_seed": seeds[0],
    }
    draw = wilson(draws, n)
    out = []
    for seat in seats:
        wins = sum(seat in w for w in winners)
        losses = n - wins - draws
        win, loss = wilson(wins, n), wilson(losses, n)
        per_turn = [d.get(seat, 0) / t for d, t in zip(damage, turns, strict=True) if t > 0]
        lucks = [float(g[seat]["luck"]) for g in luck if seat in g and g[seat]["luck"] is not None]
        row = {
            **cell,
            "seat": seat,
            "wins": wins,
            "losses": losses,
            "win": win[0],
            "win_lo": win[1],
            "win_hi": win[2],
            "draw": draw[0],
            "draw_lo": draw[1],
            "draw_hi": draw[2],
            "loss": loss[0],
            "loss_lo": loss[1],
            "loss_hi": loss[2],
            "damage_per_turn": statistics.fmean(per_turn) if per_turn else 0.0,
            "luck": statistics.fmean(lucks) if lucks else None,
            "luck_sd": statistics.stdev(lucks) if len(lucks) > 1 else None,
            "luck_games": len(lucks),
        }
        out.append({column: row[column] for column in CELL_COLUMNS})
    return out
