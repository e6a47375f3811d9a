"""How the search bot chooses among its trials: values of rollout ends, regret matching, the paired test
against the fast bot's order (:mod:`vectorwar.search`)."""

from __future__ import annotations

from collections.abc import Sequence
from operator import add, mul

from vectorwar.search.budget import CAUTION, FAST_BONUS, OPEN_WEIGHT, RM_SWEEPS, TRUST, Z

#: A rollout's end: the value of a decided game (else ``None``) and the standing gained over the others.
Outcome = tuple[float | None, float]


def scale_of(outcomes: Sequence[Outcome]) -> float:
    """The largest gain among ``outcomes``: open games are judged against the best and worst seen this decision."""
    return max((abs(gain) for _, gain in outcomes), default=0.0) or 1.0


def value_of(outcome: Outcome, scale: float) -> float:
    """0 (lost) to 1 (won); an open game lies within 0.5 +/- ``OPEN_WEIGHT`` by its share of the largest gain."""
    fixed, gain = outcome
    return fixed if fixed is not None else 0.5 + OPEN_WEIGHT * gain / scale


def pick(
    samples: Sequence[Sequence[Sequence[float]]],
    trust: float | None = None,
    caution: float | None = None,
    z: float | None = None,
    bonus: float | None = None,
) -> int:
    """The row to play: the best against the others' likely mix, if it beats the fast bot's (row 0) clearly.

    ``samples[i][j]`` holds row ``i``'s rollout values against guess ``j``, one per round, every round on
    the same dice for every cell. Regret matching on the mean table (rows maximise) gives the others' most
    damaging mix of guesses; alone it makes the bot timid, since on a few noisy trials the riskiest rows
    look worst somewhere. So the mix is blended with the guesses as drawn (the first, the fast bot's own,
    weighted ``trust``; the rest evenly), ``caution`` of the blend being regret matching's mix, and the row
    best against the blend is played if its paired advantage over row 0, round by round on the same dice,
    is more than ``bonus`` plus ``z`` standard errors; else row 0. An argument left out takes the
    module's setting (``TRUST``, ``CAUTION``, ``Z``, ``FAST_BONUS``).
    """
    trust = TRUST if trust is None else trust
    caution = CAUTION if caution is None else caution
    z = Z if z is None else z
    bonus = FAST_BONUS if bonus is None else bonus
    table = [[sum(cell) / len(cell) for cell in row] for row in samples]
    rows, cols = len(table), len(table[0])
    y = equilibrium(table)
    prior = [1.0] if cols == 1 else [trust, *([(1 - trust) / (cols - 1)] * (cols - 1))]
    blend = [caution * y[j] + (1 - caution) * prior[j] for j in range(cols)]
    values = [sum(table[i][j] * blend[j] for j in range(cols)) for i in range(rows)]
    best = max(range(rows), key=lambda i: (values[i], -i))
    if best == 0:
        return 0
    rounds = min(len(cell) for row in samples for cell in row)
    diffs = [sum(blend[j] * (samples[best][j][r] - samples[0][j][r]) for j in range(cols)) for r in range(rounds)]
    mean = sum(diffs) / rounds
    spread = (sum((d - mean) ** 2 for d in diffs) / (rounds - 1)) ** 0.5 / rounds**0.5 if rounds > 1 else 0.0
    return best if mean > bonus + z * spread else 0


def equilibrium(table: Sequence[Sequence[float]]) -> list[float]:
    """The columns' average strategy from regret matching plus on ``table`` (columns minimise)."""
    rows, cols = len(table), len(table[0])
    # Every sum taken in the same order over the same products as ``sum(table[i][j] * y[j] for j ...)``, by
    # ``map`` over the rows and the columns (a decision's last step: a tenth of a small search's time).
    by_row = [list(row) for row in table]
    by_column = [list(column) for column in zip(*by_row, strict=True)]
    regret_r = [0.0] * rows
    regret_c = [0.0] * cols
    total_c = [0.0] * cols
    for sweep in range(RM_SWEEPS):
        x = strategy(regret_r)
        y = strategy(regret_c)
        row_values = [sum(map(mul, row, y)) for row in by_row]
        col_values = [sum(map(mul, column, x)) for column in by_column]
        mean_r = sum(map(mul, x, row_values))
        mean_c = sum(map(mul, y, col_values))
        # Regret matching plus: a regret below nothing is dropped (``max(0.0, ...)``, spelled out).
        new_r = [g if (g := r + v - mean_r) > 0.0 else 0.0 for r, v in zip(regret_r, row_values, strict=True)]
        new_c = [g if (g := c + mean_c - v) > 0.0 else 0.0 for c, v in zip(regret_c, col_values, strict=True)]
        total_c = list(map(add, total_c, y))
        if new_r == regret_r and new_c == regret_c:
            # A sweep reads nothing but the regrets: unchanged, every sweep left is this one again (a pure
            # equilibrium, found early), so only the column strategy's sum goes on, added up in the same order.
            for _ in range(RM_SWEEPS - sweep - 1):
                total_c = list(map(add, total_c, y))
            break
        regret_r, regret_c = new_r, new_c
    return [t / RM_SWEEPS for t in total_c]


def strategy(regrets: Sequence[float]) -> list[float]:
    positive = sum(regrets)
    if positive <= 0:
        return [1.0 / len(regrets)] * len(regrets)
    return [r / positive for r in regrets]
