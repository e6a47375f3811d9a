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

Beating its old self is not beating everyone: ``--gauntlet greedy`` also plays NEW and OLD each
against ``greedy`` on every pair's seed from both sides, and tests that NEW's score against it does
not fall: a pair's difference (NEW's mean score there less OLD's) has mean 0 (H1: holds) rather
than ``-margin`` (H0: falls; ``--gauntlet-margin``, 0.05 of a game), by the same normal
approximation. Each test stops counting when it crosses a bound; the run stops when one rejects or
all accept, and NEW is taken only if every test accepts.

    python benchmarks/sprt.py search@22f12a8 search avt-damage --gauntlet greedy
"""

from __future__ import annotations

import argparse
import functools
import math
import multiprocessing
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from remote_bot import RemoteBot, tree_at
from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.rules import Bot, Result, RuleSystem
from vectorwar.search import LEVELS, SearchBot, level_name
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

    >>> llr([1.0, 1.0, 1.0], 0, 10)
    0.0
    >>> llr([1.0, 0.75, 1.0, 0.75], 0, 10) > 0 > llr([0.0, 0.25, 0.0, 0.25], 0, 10)
    True
    """
    return mean_llr(scores, expected_score(elo0), expected_score(elo1))


def mean_llr(values: Sequence[float], mean0: float, mean1: float) -> float:
    """The log-likelihood ratio of a mean ``mean1`` against ``mean0`` given values drawn independently.

    The normal approximation: with the values' mean m and variance v over N, LLR = N (m1 - m0) (2m - m0 - m1) /
    (2v). No variance yet (every value alike) gives no evidence: 0.

    >>> mean_llr([0.0, 0.25, -0.25, 0.0], -0.05, 0.0) > 0 > mean_llr([-0.25, 0.0, -0.5, -0.25], -0.05, 0.0)
    True
    """
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / n
    if variance <= 0.0:
        return 0.0
    return n * (mean1 - mean0) * (2.0 * mean - mean0 - mean1) / (2.0 * variance)


#: What a test that has crossed neither bound says.
UNDECIDED = "no verdict yet"


def outcome(value: float, lower: float, upper: float) -> int:
    """A sequential test's state from its LLR ``value``: 1 H1 accepted (at or over ``upper``), -1 H0 accepted (at or
    under ``lower``), 0 neither yet."""
    return 1 if value >= upper else -1 if value <= lower else 0


@dataclass(frozen=True, slots=True)
class Verdict:
    """The head-to-head test: NEW's games against OLD and the LLR of elo1 against elo0."""

    games: int
    wins: int
    draws: int
    losses: int
    llr: float
    lower: float
    upper: float
    elo0: float
    elo1: float

    @property
    def outcome(self) -> int:
        return outcome(self.llr, self.lower, self.upper)

    @property
    def decision(self) -> str:
        """The hypothesis accepted, named by its Elo (a no-weaker test's H1 is NEW level with OLD).

        >>> verdict([(1.0, 1.0)] * 20, -10, 0, 0.05, 0.05).decision
        'H1 accepted: NEW plays at +0 Elo against OLD rather than -10'
        """
        if self.outcome == 0:
            return UNDECIDED
        accepted, other = (self.elo1, self.elo0) if self.outcome > 0 else (self.elo0, self.elo1)
        name = "H1" if self.outcome > 0 else "H0"
        return f"{name} accepted: NEW plays at {accepted:+g} Elo against OLD rather than {other:+g}"


@dataclass(frozen=True, slots=True)
class Holding:
    """A gauntlet's test: NEW's and OLD's points against ``opponent`` on the same seeds and sides, and the LLR of
    NEW's score there holding (the pairs' mean difference 0) against falling (``-margin``)."""

    opponent: str
    games: int
    new_points: float
    old_points: float
    llr: float
    lower: float
    upper: float

    @property
    def difference(self) -> float:
        """NEW's score a game against the opponent less OLD's."""
        return (self.new_points - self.old_points) / self.games if self.games else 0.0

    @property
    def outcome(self) -> int:
        return outcome(self.llr, self.lower, self.upper)

    @property
    def decision(self) -> str:
        against = f"NEW's score against {self.opponent}"
        return (f"H0 accepted: {against} falls", UNDECIDED, f"H1 accepted: {against} holds")[self.outcome + 1]


@dataclass(frozen=True, slots=True)
class Gate:
    """Every test of a run: NEW is taken when all accept H1, and refused as soon as one accepts H0."""

    head: Verdict
    holdings: tuple[Holding, ...] = ()

    @property
    def games(self) -> int:
        """Every game played: the head-to-head's and, for each gauntlet, NEW's and OLD's."""
        return self.head.games + sum(2 * h.games for h in self.holdings)

    @property
    def decision(self) -> str:
        outcomes = [self.head.outcome, *(h.outcome for h in self.holdings)]
        if min(outcomes) < 0:
            return "refused"
        return "accepted" if min(outcomes) > 0 else UNDECIDED


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


#: How far from the hypotheses' midpoint the two virtual pairs of a gauntlet's differences lie (:func:`holding`):
#: half a game.
VIRTUAL_SPREAD = 0.5


def verdict(results: Iterable[tuple[float, float]], elo0: float, elo1: float, alpha: float, beta: float) -> Verdict:
    """The head-to-head test from NEW's pair scores against OLD.

    >>> [verdict([(1.0, 1.0)] * n, 0, 10, 0.05, 0.05).decision[:2] for n in (5, 20)]
    ['no', 'H1']
    """
    games = [score for pair in results for score in pair]
    pairs = [(a + b) / 2.0 for a, b in zip(games[::2], games[1::2], strict=True)]
    # As in the gauntlet (:func:`holding`), two virtual pairs either side of the hypotheses' midpoint floor the
    # variance, so that NEW winning (or losing) every game decides; a pair's score spans half a difference's range.
    middle = (expected_score(elo0) + expected_score(elo1)) / 2.0
    virtual = [middle - VIRTUAL_SPREAD / 2.0, middle + VIRTUAL_SPREAD / 2.0] if pairs else []
    lower, upper = bounds(alpha, beta)
    return Verdict(
        games=len(games),
        wins=sum(1 for g in games if g == 1.0),
        draws=sum(1 for g in games if g == 0.5),
        losses=sum(1 for g in games if g == 0.0),
        llr=llr(pairs + virtual, elo0, elo1),
        lower=lower,
        upper=upper,
        elo0=elo0,
        elo1=elo1,
    )


def holding(
    opponent: str,
    new: Sequence[tuple[float, float]],
    old: Sequence[tuple[float, float]],
    margin: float,
    alpha: float,
    beta: float,
) -> Holding:
    """The gauntlet test against ``opponent`` from NEW's and OLD's pair scores against it, pair by pair on the same
    seeds.

    >>> holding("greedy", [(1.0, 1.0)] * 2, [(1.0, 0.0)] * 2, 0.05, 0.05, 0.05).difference
    0.5
    >>> [holding("random", [(1.0, 1.0)] * n, [(1.0, 1.0)] * n, 0.05, 0.05, 0.05).decision[:2] for n in (20, 40)]
    ['no', 'H1']
    """
    differences = [(a + b) / 2.0 - (c + d) / 2.0 for (a, b), (c, d) in zip(new, old, strict=True)]
    # Two players that score alike against the opponent in every pair (both win every game against a weak one) give
    # no variance, and the normal approximation no evidence: two virtual pairs, half a game either side of the point
    # between the hypotheses, give the variance a floor and the mean no lean.
    middle = -margin / 2.0
    virtual = [middle - VIRTUAL_SPREAD, middle + VIRTUAL_SPREAD] if differences else []
    lower, upper = bounds(alpha, beta)
    return Holding(
        opponent=opponent,
        games=2 * len(new),
        new_points=sum(a + b for a, b in new),
        old_points=sum(c + d for c, d in old),
        llr=mean_llr(differences + virtual, -margin, 0.0),
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
    named, _, fast = spec.partition("/")
    levels = {level_name(n): n for n in LEVELS}
    if named not in levels or not fast:
        raise SystemExit(f"{spec}: only LEVEL/FAST, a search level and a fast bot (search/greedy)")
    budget = LEVELS[levels[named]]
    rolled = ROLLED_LEVELS.get(levels[named], budget)
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


def offer(spec: str, scenario_ids: Sequence[str]) -> None:
    """A player named beyond the systems' own menus, offered in the scenarios' systems: ``NAME@COMMIT`` or
    ``LEVEL/FAST``."""
    if "@" in spec:
        add_old_bot(spec, scenario_ids)
    elif "/" in spec:
        add_search_trials(spec, scenario_ids)


#: The head-to-head test's name among a record's settled tests (a gauntlet's is its opponent's).
HEAD = "head to head"


@dataclass
class Record:
    """The pair scores so far, in the order of the seeds played: NEW's against OLD, and by gauntlet opponent NEW's
    and OLD's against it; the tests that have crossed a bound (whose games are played no more); the pairs played."""

    head: list[tuple[float, float]] = field(default_factory=list)
    against: dict[str, tuple[list[tuple[float, float]], list[tuple[float, float]]]] = field(default_factory=dict)
    settled: set[str] = field(default_factory=set)
    pairs: int = 0

    def judge(self, args: argparse.Namespace) -> Gate:
        """Every test over the pairs it counts, and each that has now crossed a bound settled."""
        gate = Gate(
            verdict(self.head, args.elo0, args.elo1, args.alpha, args.beta),
            tuple(
                holding(g, *self.against.get(g, ([], [])), args.gauntlet_margin, args.alpha, args.beta)
                for g in args.gauntlet
            ),
        )
        for name, settled in ((HEAD, gate.head.outcome), *((h.opponent, h.outcome) for h in gate.holdings)):
            if settled:
                self.settled.add(name)
        return gate


def play_round(pool: Any, record: Record, scenario_seeds: Sequence[tuple[str, int]], args: argparse.Namespace) -> None:
    """The pairs of ``scenario_seeds`` for every test not yet settled: head to head, and NEW and OLD each against a
    gauntlet opponent; added to ``record``."""
    head = [] if HEAD in record.settled else [(args.old, args.new)]
    gauntlet = [g for g in args.gauntlet if g not in record.settled]
    matches = [*head, *((g, p) for g in gauntlet for p in (args.new, args.old))]
    scores = iter(pool.map(play_pair, [(s, seed, a, b) for s, seed in scenario_seeds for a, b in matches]))
    for _ in scenario_seeds:
        if head:
            record.head.append(next(scores))
        for opponent in gauntlet:
            new, old = record.against.setdefault(opponent, ([], []))
            new.append(next(scores))
            old.append(next(scores))
    record.pairs += len(scenario_seeds)


def report(gate: Gate, args: argparse.Namespace, last_seed: int) -> None:
    head = gate.head
    print(
        f"{args.new} against {args.old} on {', '.join(args.scenarios)}: {head.games} games "
        f"({head.wins} won, {head.draws} drawn, {head.losses} lost by {args.new}), seeds {args.seed}-{last_seed}; "
        f"LLR {head.llr:.2f} in [{head.lower:.2f}, {head.upper:.2f}] "
        f"(elo0 {args.elo0:g}, elo1 {args.elo1:g}, alpha {args.alpha:g}, beta {args.beta:g}): {head.decision}"
    )
    for h in gate.holdings:
        print(
            f"against {h.opponent}, {h.games} games each: {args.new} {h.new_points:g} points, {args.old} "
            f"{h.old_points:g} ({h.difference:+.3f} a game); LLR {h.llr:.2f} in [{h.lower:.2f}, {h.upper:.2f}] "
            f"(margin {args.gauntlet_margin:g}): {h.decision}"
        )
    if gate.holdings:
        print(f"{args.new}: {gate.decision}")


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
    parser.add_argument(
        "--gauntlet",
        action="append",
        default=[],
        metavar="PLAYER",
        help="also play NEW and OLD against PLAYER on the same seeds, and test that NEW's score there does not fall",
    )
    parser.add_argument(
        "--gauntlet-margin", type=float, default=0.05, help="the fall in score a game that a gauntlet's H0 stands for"
    )
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
    if not 0 < args.gauntlet_margin <= 1:
        parser.error("a gauntlet's margin is a fall in score a game, over 0 and at most 1")
    if len(set(args.gauntlet)) != len(args.gauntlet) or {args.old, args.new} & set(args.gauntlet):
        parser.error("name each gauntlet player once, and neither OLD nor NEW")
    return args


def main(argv: Sequence[str] | None = None) -> Gate:
    args = parse_args(argv)
    for spec in (args.old, args.new, *args.gauntlet):
        offer(spec, args.scenarios)
    record = Record()
    seed = args.seed
    # A round: the next seeds of every scenario, so each scenario weighs the same whenever the test stops; enough
    # seeds that every worker has a pair to play (one scenario alone would otherwise keep one worker busy).
    seeds_a_round = max(1, -(-args.workers // len(args.scenarios)))
    gate = record.judge(args)
    with multiprocessing.Pool(args.workers) as pool:
        while record.pairs < args.max_pairs:
            round_ = [(s, seed + k) for k in range(seeds_a_round) for s in args.scenarios]
            round_ = round_[: args.max_pairs - record.pairs]
            before = record.pairs
            play_round(pool, record, round_, args)
            seed += seeds_a_round
            gate = record.judge(args)
            if args.progress and record.pairs // args.progress > before // args.progress:
                standing = ", ".join(f"{h.opponent} {h.difference:+.3f} LLR {h.llr:.2f}" for h in gate.holdings)
                head = gate.head
                print(
                    f"{record.pairs} pairs: {head.wins}-{head.draws}-{head.losses}, LLR {head.llr:.2f}"
                    + (f"; against {standing}" if standing else ""),
                    flush=True,
                )
            if gate.decision != UNDECIDED:
                break
    report(gate, args, seed - 1)
    return gate


if __name__ == "__main__":
    main()
