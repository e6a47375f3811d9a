"""Are the search bot's departures from greedy worth it? Run ``python benchmarks/departures.py SCENARIO``.

A search plays greedy's order unless its trials find a better one. This plays the search in one side against
greedy, and at every decision where the search's order differs from greedy's (a *departure*), plays the game
on from that very position ``--games`` times with greedy in every side and fresh dice: once with the search's
order in the side, once with greedy's, each pair of games on the same dice. A departure is worth its paired
difference of scores (a win 1, a draw 1/2, a loss 0). Trials that judge well give departures worth more than
nothing on average; a mean below nothing says the trials misjudge what they change, whatever the search's
share against greedy.

    python benchmarks/departures.py avt-damage --side blue --seeds 4 --games 40
    python benchmarks/departures.py msc-duel --side red --level 2

Prints one line a departure (seed, turn, the two orders, both scores) and the mean with its standard error.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, replace

from sprt import side_score  # benchmarks/sprt.py, beside this script
from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.play import bot_order
from vectorwar.rules import Order
from vectorwar.setup import make_bots, set_up

#: Seeds of the games played on from a departure start here, apart from the seeds of the searched games.
ON_SEEDS = 1_000_000


def continuation_seeds(seed: int, games: int) -> range:
    """The dice of the ``games`` played on from each departure of searched game ``seed``: a range of its own.

    A scenario's first position is the same in every game, and so is the search's first order there: were
    every game's continuations on the same dice, that one departure would be measured once and counted once a
    game, its error understated. Apart, each game's copy of it is a measurement of its own.

    >>> continuation_seeds(0, 40), continuation_seeds(1, 40)
    (range(1000000, 1000040), range(1000040, 1000080))
    """
    return range(ON_SEEDS + seed * games, ON_SEEDS + (seed + 1) * games)


@dataclass(frozen=True)
class Departure:
    """One decision where the search's order was not greedy's, and what each scored played on."""

    seed: int
    turn: int | None
    searched: str
    greedy: str
    scores: tuple[tuple[float, float], ...]  # (searched, greedy) a continuation, on the same dice

    @property
    def worth(self) -> float:
        """The mean paired difference: what the searched order scored over greedy's."""
        return statistics.fmean(s - g for s, g in self.scores)


def played_on(game: Game, side: str, order: Order, seed: int, on: str = "greedy") -> float:
    """``side``'s score of ``game`` played on from its position with new dice, ``order`` first; after it the side
    played by ``on`` (a computer player's name) and every other side by greedy."""
    sides = [s.id for s in game.scenario.sides]
    bots = make_bots(game.system, {s: on if s == side else "greedy" for s in sides})
    later = replace(game, seed=seed, dice_count=0, events=[], history=[], pending={}, ended=None)
    first = True
    while not later.is_over:
        for other in later.waiting_for:
            given = order if other == side and first else bot_order(later, other, bots[other])
            first = first and other != side
            later.submit(other, given)
    return side_score(later.result, side)


def paired(
    game: Game, side: str, orders: tuple[Order, Order], seed: int, games: int, on: str = "greedy"
) -> tuple[tuple[float, float], ...]:
    """``side``'s scores of ``game`` played on ``games`` times with each of ``orders`` first, each pair on the same
    dice (the continuations of game ``seed``, :func:`continuation_seeds`), the side by ``on`` after."""
    first, second = orders
    return tuple(
        (played_on(game, side, first, k, on), played_on(game, side, second, k, on))
        for k in continuation_seeds(seed, games)
    )


def departures(scenario: str, side: str, level: str, seed: int, games: int) -> Iterator[Departure]:
    """The departures of the search (``level``) in ``side`` against greedy in game ``seed``, each played on."""
    sides = [s.id for s in builtin_scenario(scenario).sides]
    setup = set_up(scenario, {s: level if s == side else "greedy" for s in sides}, seed=seed)
    greedy = make_bots(setup.game.system, {side: "greedy"})[side]
    game = setup.game
    while not game.is_over:
        for now in game.waiting_for:
            order = bot_order(game, now, setup.bots[now])
            if now == side:
                plain = bot_order(game, now, greedy)
                if str(plain) != str(order):
                    pairs = paired(game, side, (order, plain), seed, games)
                    turn = game.clock.turn if game.clock else None
                    yield Departure(seed, turn, str(order), str(plain), pairs)
            game.submit(now, order)


def positive(text: str) -> int:
    """A count of one or more, from the command line."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a count of one or more")
    return value


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scenario")
    parser.add_argument("--side", required=True, help="the side the search plays")
    parser.add_argument("--level", default="search", help="the search level (search, search:2, search:3)")
    parser.add_argument("--seeds", type=positive, default=2, help="searched games, seeds from --seed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=positive, default=20, help="games played on from each departure, each order")
    args = parser.parse_args(argv)
    found: list[Departure] = []
    for seed in range(args.seed, args.seed + args.seeds):
        for d in departures(args.scenario, args.side, args.level, seed, args.games):
            found.append(d)
            mean_s = statistics.fmean(s for s, _ in d.scores)
            mean_g = statistics.fmean(g for _, g in d.scores)
            print(f"seed {d.seed} turn {d.turn}: {d.searched!r} {mean_s:.2f} | greedy {d.greedy!r} {mean_g:.2f}")
    print(summary(found, args.games))


def summary(found: list[Departure], games: int) -> str:
    """The mean worth of the departures with its standard error (departures taken as the sample)."""
    if not found:
        return "no departures"
    worths = [d.worth for d in found]
    error = statistics.stdev(worths) / len(worths) ** 0.5 if len(worths) > 1 else float("nan")
    return (
        f"{len(found)} departures, {games} games each order: worth {statistics.fmean(worths):+.3f} "
        f"+/- {error:.3f} a game (better than greedy's order in {sum(w > 0 for w in worths)}, "
        f"worse in {sum(w < 0 for w in worths)})"
    )


if __name__ == "__main__":
    main()
