"""Is the search's first order in each scenario worth it? Run ``python benchmarks/openings.py [SCENARIO ...]``.

A scenario's first position is the same in every game, so the search's first order there is too: an opening
mistake repeats in every game. For each scenario and side this sets the game up as greedy would play it (set-up
choices, purchases and placements, made by greedy), finds the first decision where the side's search (``--level``)
runs trials, and compares its order there with greedy's. Where they differ, the game is played on from that
position ``--games`` times with greedy in every side and fresh dice, once with each order, each pair on the same
dice (:func:`departures.played_on`); the opening's worth is the paired mean difference of scores (a win 1, a draw
1/2, a loss 0) with its standard error. Where they agree, no games are played. ``benchmarks/departures.py``
measures every departure of whole searched games; this checks the openings alone, far cheaper, in every scenario.

    python benchmarks/openings.py avt-damage --games 40
    python benchmarks/openings.py --system msc --system avt --system vv5 --games 100
    python benchmarks/openings.py --games 100 --workers 2 --level search:2
    python benchmarks/openings.py vv5-refugees --games 100 --on search

Played on by greedy, an opening whose worth lies in the search's own next orders reads short: the side making a run
searches its next plot in each trial (docs/bots.md), a plan greedy does not follow. ``--on search`` plays the side
on with the search itself (the others still greedy), at many times the cost: the check of a flagged row.

With no scenario named, every built-in two-side scenario where both sides give orders (as ``vectorwar ladder``
plays them), of the ``--system`` named (repeat it; default every system). Prints one markdown table row a
scenario and side: the two orders, the worth and a flag, "worse" or "better" where the worth is below or above
nothing by more than two standard errors; then the CPU time. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from departures import paired, positive  # benchmarks/departures.py, beside this script
from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.lab.ladder import ladder_scenarios
from vectorwar.play import bot_order
from vectorwar.registry import systems as registered
from vectorwar.rules import Bot, Order
from vectorwar.setup import make_bots, set_up

#: One row to measure: (scenario, side, search level, the game's seed, games played on each order, the bot that
#: plays the side on).
Job = tuple[str, str, str, int, int, str]


@dataclass(frozen=True)
class Opening:
    """A side's first searched decision in a scenario: the search's order, greedy's, and what each scored."""

    scenario: str
    side: str
    turn: int | None
    searched: str | None  # None where the side's search never ran trials before the game ended
    greedy: str
    scores: tuple[tuple[float, float], ...]  # (searched, greedy) a game played on, on the same dice

    @property
    def worth(self) -> float:
        """The mean paired difference: what the searched order scored over greedy's."""
        return statistics.fmean(s - g for s, g in self.scores)

    @property
    def error(self) -> float:
        """The standard error of :attr:`worth` (nan with fewer than two games)."""
        if len(self.scores) < 2:
            return float("nan")
        return statistics.stdev(s - g for s, g in self.scores) / math.sqrt(len(self.scores))

    @property
    def flag(self) -> str:
        """``worse`` or ``better`` where the worth is more than two standard errors from nothing."""
        if not self.scores:
            return ""
        if self.worth < -2 * self.error:
            return "worse"
        return "better" if self.worth > 2 * self.error else ""


@dataclass(frozen=True)
class Position:
    """The game at a side's first searched decision, with the search's order and greedy's there."""

    game: Game
    searched: Order
    greedy: Order


def first_searched(scenario: str, side: str, level: str, seed: int) -> Position | None:
    """The first decision of game ``seed`` (greedy in every side) where ``side``'s search runs trials.

    Greedy gives every order up to there, set-up choices included, as in a game greedy plays: the search gives
    the fast bot's order at a set-up menu or a fire declaration in turn without trying anything
    (``SearchBot.choose``), and its rollout count tells where it first tries. None if the game ends first.
    """
    sides = [s.id for s in builtin_scenario(scenario).sides]
    setup = set_up(scenario, dict.fromkeys(sides, "greedy"), seed=seed)
    search = make_bots(setup.game.system, {side: level})[side]
    game = setup.game
    while not game.is_over:
        if side in game.waiting_for:
            # Asked before the others plot: their secret plots wait outside the state the side sees anyway.
            before = _rollouts(search)
            order = bot_order(game, side, search)
            if _rollouts(search) > before:
                return Position(game, order, bot_order(game, side, setup.bots[side]))
        for now in game.waiting_for:
            game.submit(now, bot_order(game, now, setup.bots[now]))
    return None


def _rollouts(bot: Bot) -> int:
    """The trials ``bot`` has played so far (a search counts them; other bots play none)."""
    return int(getattr(bot, "rollouts", 0))


def opening(job: Job) -> Opening:
    """One row: the side's first searched decision, played on with each order where the two differ."""
    scenario, side, level, seed, games, on = job
    found = first_searched(scenario, side, level, seed)
    if found is None:
        return Opening(scenario, side, None, None, "-", ())
    searched, greedy = str(found.searched), str(found.greedy)
    scores = paired(found.game, side, (found.searched, found.greedy), seed, games, on) if searched != greedy else ()
    clock = found.game.clock
    return Opening(scenario, side, clock.turn if clock else None, searched, greedy, scores)


def contested(systems: Sequence[str] = ()) -> list[str]:
    """The built-in two-side scenarios where both sides give orders (``vectorwar ladder``'s), of ``systems``
    in that order (every system's, by name, where none is named)."""
    return [i for system in (systems or sorted(registered())) for i in ladder_scenarios(system)]


def jobs(scenarios: Iterable[str], level: str, seed: int, games: int, on: str = "greedy") -> list[Job]:
    """A row for every side of every scenario, in the scenario's order of sides."""
    return [(s, side.id, level, seed, games, on) for s in scenarios for side in builtin_scenario(s).sides]


def measured(work: Sequence[Job], workers: int) -> Iterator[Opening]:
    """The rows of ``work`` in order, over ``workers`` processes (in this one for a single worker)."""
    if workers == 1:
        yield from map(opening, work)
        return
    with multiprocessing.Pool(workers) as pool:
        yield from pool.imap(opening, work)


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|") + "`"


def row(found: Opening) -> str:
    """The opening's markdown table row."""
    if found.searched is None:
        cells = ["never searched", "-", "no games", ""]
    elif not found.scores:
        cells = [_cell(found.searched), _cell(found.greedy), "the same order, no games", ""]
    else:
        worth = f"{found.worth:+.3f} +/- {found.error:.3f}"
        cells = [_cell(found.searched), _cell(found.greedy), worth, found.flag]
    turn = "-" if found.turn is None else str(found.turn)
    return "| " + " | ".join([found.scenario, found.side, turn, *cells]) + " |"


HEADER = (
    "| scenario | side | turn | search's order | greedy's order | worth (games) | flag |\n|---|---|---|---|---|---|---|"
)


def cpu_seconds() -> float:
    """CPU time of this process and its finished workers, user and system."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenarios", nargs="*", help="default: every two-side scenario where both sides give orders")
    parser.add_argument("--system", action="append", default=[], help="with no scenario named: this system's (repeat)")
    parser.add_argument("--level", default="search", help="the search level (search, search:2, search:3)")
    parser.add_argument("--games", type=positive, default=100, help="games played on from each opening, each order")
    parser.add_argument("--seed", type=int, default=0, help="the game's seed (its continuations' dice are apart)")
    parser.add_argument("--workers", type=positive, default=1)
    parser.add_argument(
        "--on", default="greedy", help="the bot that plays the side on after the opening (the others: greedy)"
    )
    args = parser.parse_args(argv)
    started = cpu_seconds()
    scenarios = list(args.scenarios) or contested(args.system)
    print(
        f"{args.level} against greedy's order, {args.games} games each order, the side played on by {args.on} and "
        f"the others by greedy, seed {args.seed}"
    )
    print(HEADER, flush=True)
    for found in measured(jobs(scenarios, args.level, args.seed, args.games, args.on), args.workers):
        print(row(found), flush=True)
    print(f"cpu {cpu_seconds() - started:.0f} s on {args.workers} workers")


if __name__ == "__main__":
    main()
