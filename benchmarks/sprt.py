"""A sequential probability ratio test (SPRT) of two computer players, on paired games.

Is NEW stronger than OLD by ``--elo1`` rather than by ``--elo0``? Each pair is one seed of one
scenario played twice with the sides swapped (NEW in the first side, then in the second), so the
luck of the deal and the side cancel out; pairs go on, a round of every scenario at a time, until
the test accepts one hypothesis or ``--max-pairs`` runs out.

    python benchmarks/sprt.py greedy search msc-duel
    python benchmarks/sprt.py search search:2 --two-side --max-pairs 400
    python benchmarks/sprt.py greedy@d432991 greedy avt-duel-wasp avt-duel-rafik
    python benchmarks/sprt.py search@4bfac2d search vv5-alien-starship

``NAME@COMMIT`` is the computer player ``NAME`` as it was at a commit, deciding in a process of its
own on that commit's code (``remote_bot.py``), so a change to a bot, or to the search every level
shares, is judged against the bot before it. ``LEVEL/FAST`` is a search level whose trials the
system's fast bot ``FAST`` plays (one of its ``rollout_bots``), at that bot's ``rollout_cost``: so a
system's new trial bot can be judged against the one before it.

    python benchmarks/sprt.py search/greedy search vms-capital-duel-msc --workers 1

The test is the usual one for engine testing: the log-likelihood ratio of the pair scores (0,
1/4, 1/2, 3/4 or 1 for NEW) under the two Elo differences, in the normal approximation (the
pentanomial model), against the bounds ``log(beta / (1 - alpha))`` and ``log((1 - beta) / alpha)``.
It prints the games played, NEW's wins, draws and losses, the LLR and the verdict.
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from remote_bot import RemoteBot, tree_at
from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.rules import Bot, Result, RuleSystem
from vectorwar.search import LEVELS, SearchBot
from vectorwar.search.budget import ROLLED_LEVELS

#: One pair to play: (scenario, seed, OLD, NEW).
Pair = tuple[str, int, str, str]


def expected_score(elo: float) -> float:
    """The score a player ``elo`` points stronger expects in one game (draws counted as half)."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR at or under which elo0 is accepted, and at or over which elo1 is."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def llr(scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of elo1 against elo0 given pair scores (each the mean of a pair's two games).

    The normal approximation: with the scores' mean m and variance v over N pairs, and s0, s1 the
    expected scores under the two hypotheses, LLR = N (s1 - s0) (2m - s0 - s1) / (2v). No variance
    yet (every pair alike) gives no evidence: 0.

    >>> llr([1.0, 1.0, 1.0], 0, 10)
    0.0
    >>> llr([1.0, 0.75, 1.0, 0.75], 0, 10) > 0 > llr([0.0, 0.25, 0.0, 0.25], 0, 10)
    True
    """
    n = len(scores)
    if n < 2:
        return 0.0
    mean = sum(scores) / n
    variance = sum((s - mean) ** 2 for s in scores) / n
    if variance <= 0.0:
        return 0.0
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


@dataclass(frozen=True, slots=True)
class Verdict:
    games: int
    wins: int
    draws: int
    losses: int
    llr: float
    lower: float
    upper: float

    @property
    def decision(self) -> str:
        if self.llr >= self.upper:
            return "H1 accepted: NEW is stronger"
        if self.llr <= self.lower:
            return "H0 accepted: NEW is not stronger"
        return "no verdict yet"


def game_score(scenario_id: str, seed: int, sides: dict[str, str], new_side: str) -> float:
    """NEW's score in one game: 1 won, 0.5 drawn (or shared), 0 lost."""
    return side_score(play_out(builtin_scenario(scenario_id), sides, seed).result, new_side)


def side_score(result: Result | None, side: str) -> float:
    """``side``'s score of a game that ended with ``result``: 1 won, 0.5 drawn (or shared), 0 lost."""
    winners = result.winners if result is not None else ()
    if not winners:
        return 0.5
    return 1.0 if winners == (side,) else 0.5 if side in winners else 0.0


def play_pair(pair: Pair) -> tuple[float, float]:
    """Both games of one pair: NEW's score in the first side, then in the second."""
    scenario_id, seed, old, new = pair
    first, second = (s.id for s in builtin_scenario(scenario_id).sides)
    return (
        game_score(scenario_id, seed, {first: new, second: old}, first),
        game_score(scenario_id, seed, {first: old, second: new}, second),
    )


def verdict(results: Iterable[tuple[float, float]], elo0: float, elo1: float, alpha: float, beta: float) -> Verdict:
    games = [score for pair in results for score in pair]
    pairs = [(a + b) / 2.0 for a, b in zip(games[::2], games[1::2], strict=True)]
    lower, upper = bounds(alpha, beta)
    return Verdict(
        games=len(games),
        wins=sum(1 for g in games if g == 1.0),
        draws=sum(1 for g in games if g == 0.5),
        losses=sum(1 for g in games if g == 0.0),
        llr=llr(pairs, elo0, elo1),
        lower=lower,
        upper=upper,
    )


def add_old_bot(spec: str, scenario_ids: Sequence[str]) -> None:
    """Offer ``NAME@COMMIT`` in the scenarios' systems: the computer player ``NAME`` as it was at ``COMMIT``.

    It decides in a process of its own on that commit's code (``remote_bot.py``), and is added to each
    system's menu in this process; worker processes started by fork inherit it. The commit's tree is checked out
    here, before the workers start: they share it, and this process removes it when it exits (a pool's workers
    end without running exit handlers, so a tree each checked out would be left behind).
    """
    name, _, commit = spec.partition("@")
    if not name or not commit:
        raise SystemExit(f"{spec}: a computer player at a commit is NAME@COMMIT")
    tree_at(commit)
    for system_name in sorted({builtin_scenario(s).system for s in scenario_ids}):
        system = get_system(system_name)
        _offer(system, spec.lower(), functools.partial(RemoteBot, system, name, commit))  # names are read in any case


def add_search_trials(spec: str, scenario_ids: Sequence[str]) -> None:
    """Offer ``LEVEL/FAST`` (``search/greedy``) in the scenarios' systems: the search level ``LEVEL`` with its trials
    played by the fast bot ``FAST``. The bot is added to each system's menu in this process (as
    :func:`add_old_bot`'s)."""
    level_name, _, fast = spec.partition("/")
    levels = {("search" if n == 1 else f"search:{n}"): n for n in LEVELS}
    if level_name not in levels or not fast:
        raise SystemExit(f"{spec}: only LEVEL/FAST, a search level and a fast bot (search/greedy)")
    budget = LEVELS[levels[level_name]]
    rolled = ROLLED_LEVELS.get(levels[level_name], budget)
    for system_name in sorted({builtin_scenario(s).system for s in scenario_ids}):
        system = get_system(system_name)
        if fast not in system.rollout_bots():
            raise SystemExit(
                f"{spec}: {system_name} has no fast bot {fast} ({', '.join(sorted(system.rollout_bots()))})"
            )
        _offer(system, spec.lower(), functools.partial(SearchBot, system, budget, rolled=rolled, trials=fast))


def _offer(system: RuleSystem[Any], name: str, make: Callable[[], Bot]) -> None:
    """``make`` offered as ``name`` beside the system's own bots, in this process (worker processes started by fork
    inherit it)."""
    menu = type(system).bots

    def bots(self: RuleSystem[Any]) -> Mapping[str, Callable[[], Bot]]:
        return {**menu(self), name: make}

    type(system).bots = bots  # type: ignore[method-assign]


def two_side_ids() -> list[str]:
    return sorted(i for i in scenario_paths() if len(builtin_scenario(i).sides) == 2)


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", help="the computer player as it is (a bot name: greedy, search, search:2 ...)")
    parser.add_argument("new", help="the computer player that may be stronger")
    parser.add_argument("scenarios", nargs="*", help="two-side scenarios to pair games on")
    parser.add_argument("--two-side", action="store_true", help="every built-in scenario with two sides")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=10.0)
    parser.add_argument("--alpha", type=float, default=0.05)
    parser.add_argument("--beta", type=float, default=0.05)
    parser.add_argument("--max-pairs", type=int, default=2000, help="stop with no verdict after this many pairs")
    parser.add_argument("--seed", type=int, default=0, help="the first seed")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--progress", type=int, default=0, help="print the standing every this many pairs")
    args = parser.parse_args(argv)
    args.scenarios = list(args.scenarios) + (two_side_ids() if args.two_side else [])
    if not args.scenarios:
        parser.error("name at least one scenario, or --two-side")
    for scenario_id in args.scenarios:
        if len(builtin_scenario(scenario_id).sides) != 2:
            parser.error(f"{scenario_id} does not have two sides")
    if not (0 < args.alpha < 1 and 0 < args.beta < 1) or args.elo1 <= args.elo0 or args.max_pairs < 1:
        parser.error("need 0 < alpha, beta < 1, elo0 < elo1 and at least one pair")
    return args


def main(argv: Sequence[str] | None = None) -> Verdict:
    args = parse_args(argv)
    for spec in (args.old, args.new):
        if "@" in spec:
            add_old_bot(spec, args.scenarios)
        elif "/" in spec:
            add_search_trials(spec, args.scenarios)
    results: list[tuple[float, float]] = []
    seed = args.seed
    # A round: the next seeds of every scenario, so each scenario weighs the same whenever the test stops; enough
    # seeds that every worker has a pair to play (one scenario alone would otherwise keep one worker busy).
    seeds_a_round = max(1, -(-args.workers // len(args.scenarios)))
    with multiprocessing.Pool(args.workers) as pool:
        while len(results) < args.max_pairs:
            round_ = [(s, seed + k, args.old, args.new) for k in range(seeds_a_round) for s in args.scenarios][
                : args.max_pairs - len(results)
            ]
            results.extend(pool.map(play_pair, round_))
            seed += seeds_a_round
            found = verdict(results, args.elo0, args.elo1, args.alpha, args.beta)
            if args.progress and len(results) // args.progress > (len(results) - len(round_)) // args.progress:
                print(
                    f"{len(results)} pairs: {found.wins}-{found.draws}-{found.losses}, LLR {found.llr:.2f}", flush=True
                )
            if found.decision != "no verdict yet":
                break
    found = verdict(results, args.elo0, args.elo1, args.alpha, args.beta)
    print(
        f"{args.new} against {args.old} on {', '.join(args.scenarios)}: {found.games} games "
        f"({found.wins} won, {found.draws} drawn, {found.losses} lost by {args.new}), seeds {args.seed}-{seed - 1}; "
        f"LLR {found.llr:.2f} in [{found.lower:.2f}, {found.upper:.2f}] "
        f"(elo0 {args.elo0:g}, elo1 {args.elo1:g}, alpha {args.alpha:g}, beta {args.beta:g}): {found.decision}"
    )
    return found


if __name__ == "__main__":
    main()
