"""How much the search bot's later rounds of trials tell it: run ``python benchmarks/search_rounds.py``.

A decision meets each of its own orders with each guess of the others' ("a cell") in ``rounds`` trials, each
round on its own dice. Where a system counts the fire in expectation (VV5, VMS) the dice of a trial decide
little (initiative, a collision), so a cell's rounds often end the same; where the shots are rolled (MSC)
they seldom do. For decisions at positions of a greedy game (``benchmarks/search.py``'s), this prints how
the trials were judged, the cells, the trials in them and, of the cells played in more than one round, those
whose rounds all gave one value: the share of a decision's matrix that a wider search could spend elsewhere.

    python benchmarks/search_rounds.py
    python benchmarks/search_rounds.py --level 3 vv5-dogfight

Figures are printed, never asserted.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from search import _side_view, decisions_parser, positions  # benchmarks/search.py, beside this script
from vectorwar.search import LEVELS, SearchBot
from vectorwar.search.budget import Judging


class CountingBot(SearchBot):
    """The search bot, counting its matrix's cells and those whose rounds all agree; it plays the same."""

    tally: Counter[str]

    def _matrix(
        self,
        state: Any,
        side: str,
        mine: Sequence[Any],
        profiles: Sequence[dict[str, Any]],
        root: Mapping[str, float],
        rounds: int,
        rng: random.Random,
        judging: Judging,
    ) -> list[list[list[float]]]:
        table = super()._matrix(state, side, mine, profiles, root, rounds, rng, judging)
        self.tally[judging.value] += 1
        for cell in (cell for row in table for cell in row):
            self.tally["cells"] += 1
            self.tally["trials"] += len(cell)
            if len(cell) > 1:  # a held-fire decision plays one round: nothing to agree
                self.tally["repeated"] += 1
                self.tally["agreeing"] += len(set(cell)) == 1
        return table


def main(argv: list[str] | None = None) -> None:
    args = decisions_parser(__doc__.splitlines()[0]).parse_args(argv)
    print(f"{'scenario':<24} {'judged':<16} {'cells':>6} {'trials':>7} {'rounds agree':>15}")
    for scenario in args.scenarios:
        tally: Counter[str] = Counter()
        for game, side in positions(scenario, args.decisions):
            bot = CountingBot(game.system, LEVELS[args.level])
            bot.tally = tally
            bot.choose(_side_view(game, side), side, random.Random(0))
        judged = ", ".join(f"{j.value} {tally[j.value]}" for j in Judging if tally[j.value])
        repeated = tally["repeated"]
        share = f"{tally['agreeing']} of {repeated} ({tally['agreeing'] / repeated:.0%})" if repeated else "-"
        print(f"{scenario:<24} {judged:<16} {tally['cells']:>6} {tally['trials']:>7} {share:>15}", flush=True)


if __name__ == "__main__":
    main()
