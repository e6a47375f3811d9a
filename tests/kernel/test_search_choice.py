"""The search bot's regret matching: its shortcuts give the very floats of the plain sweeps."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from vectorwar.search.budget import RM_SWEEPS
from vectorwar.search.choice import equilibrium, strategy


def plain_equilibrium(table: Sequence[Sequence[float]]) -> list[float]:
    """Regret matching plus written the long way: every sweep, every sum a generator over the indices."""
    rows, cols = len(table), len(table[0])
    regret_r = [0.0] * rows
    regret_c = [0.0] * cols
    total_c = [0.0] * cols
    for _ in range(RM_SWEEPS):
        x = strategy(regret_r)
        y = strategy(regret_c)
        row_values = [sum(table[i][j] * y[j] for j in range(cols)) for i in range(rows)]
        col_values = [sum(table[i][j] * x[i] for i in range(rows)) for j in range(cols)]
        mean_r = sum(x[i] * row_values[i] for i in range(rows))
        mean_c = sum(y[j] * col_values[j] for j in range(cols))
        for i in range(rows):
            regret_r[i] = max(0.0, regret_r[i] + row_values[i] - mean_r)
        for j in range(cols):
            regret_c[j] = max(0.0, regret_c[j] + mean_c - col_values[j])
            total_c[j] += y[j]
    return [t / RM_SWEEPS for t in total_c]


values = st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]) | st.floats(0.0, 1.0)


@given(st.integers(1, 8).flatmap(lambda cols: st.lists(st.lists(values, min_size=cols, max_size=cols), min_size=1)))
def test_equilibrium_is_the_plain_sweeps_float_for_float(table: list[list[float]]) -> None:
    assert equilibrium(table) == plain_equilibrium(table)


def test_a_pure_equilibrium_found_early_still_counts_every_sweep() -> None:
    # Row 0 beats row 1 against both columns, and column 1 is the cheaper for the rows: the regrets settle at
    # once, and the sweeps left are added up, not skipped.
    table = [[0.9, 0.2], [0.1, 0.1]]
    assert equilibrium(table) == plain_equilibrium(table)
    assert equilibrium(table)[1] > 0.99
