"""Ratings from games between players: a Bradley-Terry fit on the Elo scale, with 95 % intervals.

Each game gives the first player a score of 1 (a win), 0.5 (a draw) or 0 (a loss). The model says
player ``a`` scores against ``b`` on average ``1 / (1 + 10 ** ((elo_b - elo_a) / 400))``, and the
ratings are the ones under which the games played are likeliest (maximum likelihood, by Newton's
method), centred on a mean of 0. A player who won every game would have no finite rating, so every
pairing that met is also given one virtual draw: a weak pull towards even that more games outweigh
(the practice of BayesElo's prior).

The intervals come from the Fisher information (the curvature of the log-likelihood at the fit):
each rating's and each difference's standard error, times 1.96. Counting a draw as half a win and
half a loss makes them a little wide, never narrow.

Pure Python: the systems are a handful of players, and the fit must run where the lab's extras are
not installed.

>>> fit = fit_ratings([Outcome("greedy", "random", 1.0)] * 9 + [Outcome("greedy", "random", 0.5)])
>>> [r.player for r in fit.ratings]
['greedy', 'random']
>>> round(fit.rating("greedy").elo - fit.rating("random").elo)
400
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from vectorwar.errors import VectorwarError

#: Elo points per unit of the model's natural (log-odds) strength: 400 points is ten to one.
ELO = 400 / math.log(10)
Z95 = 1.959964
#: Virtual draws given to every pairing that met (see the module's docstring).
PRIOR_DRAWS = 1.0


class RatingError(VectorwarError, ValueError):
    """Games that cannot be rated (no games, a player with no path of games to the others, a bad score)."""


@dataclass(frozen=True)
class Outcome:
    """One game (or ``weight`` games alike): ``first`` scored ``score`` against ``second``."""

    first: str
    second: str
    score: float
    weight: float = 1.0

    def __post_init__(self) -> None:
        if self.first == self.second:
            raise RatingError(f"a game of {self.first} against itself cannot be rated")
        if not 0.0 <= self.score <= 1.0:
            raise RatingError(f"score {self.score} of {self.first} against {self.second} is not in 0-1")
        if self.weight <= 0:
            raise RatingError(f"weight {self.weight} of {self.first} against {self.second} is not positive")


@dataclass(frozen=True)
class Rating:
    """One player's rating with its 95 % interval, and the games behind it."""

    player: str
    elo: float
    lo: float
    hi: float
    games: int
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """Its share of the points: a win 1, a draw a half."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


@dataclass(frozen=True)
class Step:
    """How far ``upper`` is rated above ``lower``, with the 95 % interval of the difference."""

    lower: str
    upper: str
    elo: float
    lo: float
    hi: float

    @property
    def clear(self) -> bool:
        """Whether the interval is clear of zero: ``upper`` is the stronger, by these games."""
        return self.lo > 0


@dataclass(frozen=True)
class Fit:
    """Every player's rating, in the order given, and their joint covariance on the Elo scale."""

    ratings: tuple[Rating, ...]
    covariance: tuple[tuple[float, ...], ...]

    def rating(self, player: str) -> Rating:
        for r in self.ratings:
            if r.player == player:
                return r
        raise RatingError(f"no player {player!r} in the fit (players: {', '.join(self.players)})")

    @property
    def players(self) -> list[str]:
        return [r.player for r in self.ratings]

    def step(self, lower: str, upper: str) -> Step:
        """``upper``'s rating less ``lower``'s, with its interval (which counts how the two move together)."""
        i, j = self.players.index(self.rating(lower).player), self.players.index(self.rating(upper).player)
        c = self.covariance
        spread = math.sqrt(max(0.0, c[i][i] + c[j][j] - 2 * c[i][j]))
        diff = self.ratings[j].elo - self.ratings[i].elo
        return Step(lower, upper, diff, diff - Z95 * spread, diff + Z95 * spread)


def fit_ratings(outcomes: Iterable[Outcome], players: Sequence[str] = (), prior: float = PRIOR_DRAWS) -> Fit:
    """The Bradley-Terry ratings of the players in ``outcomes`` (listed in ``players``' order, then as met)."""
    games = list(outcomes)
    order = list(dict.fromkeys([*players, *(p for g in games for p in (g.first, g.second))]))
    if not games:
        raise RatingError("no games to rate")
    index = {p: i for i, p in enumerate(order)}
    n = len(order)
    # Per pairing (i < j): games and i's points, virtual draws included.
    played: dict[tuple[int, int], list[float]] = {}
    for g in games:
        i, j = index[g.first], index[g.second]
        score = g.score if i < j else 1 - g.score
        cell = played.setdefault((min(i, j), max(i, j)), [prior, prior / 2])
        cell[0] += g.weight
        cell[1] += score * g.weight
    _check_connected(order, played)
    theta = _newton(n, played)
    info = _information(n, played, theta)
    cov = _covariance(info)
    tallies = _tallies(order, games)
    ratings = tuple(
        Rating(
            player,
            ELO * theta[i],
            ELO * (theta[i] - Z95 * math.sqrt(max(0.0, cov[i][i]))),
            ELO * (theta[i] + Z95 * math.sqrt(max(0.0, cov[i][i]))),
            *tallies[player],
        )
        for i, player in enumerate(order)
    )
    return Fit(ratings, tuple(tuple(ELO * ELO * v for v in row) for row in cov))


def expected_score(elo_first: float, elo_second: float) -> float:
    """What the model expects the first player to score against the second, a game."""
    return 1 / (1 + 10 ** ((elo_second - elo_first) / 400))


def _check_connected(order: list[str], played: dict[tuple[int, int], list[float]]) -> None:
    """Refuse players with no chain of games to the first: their ratings would mean nothing against it."""
    reached = {0}
    frontier = [0]
    while frontier:
        k = frontier.pop()
        for i, j in played:
            for a, b in ((i, j), (j, i)):
                if a == k and b not in reached:
                    reached.add(b)
                    frontier.append(b)
    apart = [p for i, p in enumerate(order) if i not in reached]
    if apart:
        raise RatingError(f"{', '.join(apart)}: no games linking them to {order[0]}; they cannot be rated together")


def _log_likelihood(played: dict[tuple[int, int], list[float]], theta: list[float]) -> float:
    total = 0.0
    for (i, j), (games, points) in played.items():
        d = theta[i] - theta[j]
        # log p = -log(1 + e^-d), log(1 - p) = -log(1 + e^d), written to stay finite for large |d|
        total -= points * _softplus(-d) + (games - points) * _softplus(d)
    return total


def _softplus(x: float) -> float:
    return x + math.log1p(math.exp(-x)) if x > 0 else math.log1p(math.exp(x))


def _p(d: float) -> float:
    return 1 / (1 + math.exp(-d)) if d >= 0 else math.exp(d) / (1 + math.exp(d))


def _information(n: int, played: dict[tuple[int, int], list[float]], theta: list[float]) -> list[list[float]]:
    info = [[0.0] * n for _ in range(n)]
    for (i, j), (games, _) in played.items():
        p = _p(theta[i] - theta[j])
        w = games * p * (1 - p)
        info[i][i] += w
        info[j][j] += w
        info[i][j] -= w
        info[j][i] -= w
    return info


def _newton(n: int, played: dict[tuple[int, int], list[float]]) -> list[float]:
    """The strengths (log-odds scale, mean 0) that make the games likeliest."""
    theta = [0.0] * n
    best = _log_likelihood(played, theta)
    for _ in range(200):
        grad = [0.0] * n
        for (i, j), (games, points) in played.items():
            r = points - games * _p(theta[i] - theta[j])
            grad[i] += r
            grad[j] -= r
        cov = _covariance(_information(n, played, theta))
        delta = [sum(cov[i][k] * grad[k] for k in range(n)) for i in range(n)]
        # Halve a step that would lower the likelihood (Newton's method can overshoot far from the fit).
        step = 1.0
        while step > 1e-6:
            trial = [t + step * d for t, d in zip(theta, delta, strict=True)]
            value = _log_likelihood(played, trial)
            if value >= best - 1e-12:
                break
            step /= 2
        mean = sum(trial) / n
        theta = [t - mean for t in trial]
        best = value
        if max(abs(step * d) for d in delta) < 1e-10:
            break
    return theta


def _covariance(info: list[list[float]]) -> list[list[float]]:
    """The pseudo-inverse of the information matrix: the covariance of the strengths, centred on a mean of 0.

    The information of a connected set of games has the one null direction of moving every strength
    together, so adding ``1/n`` to every entry makes it invertible, and taking ``1/n`` off again after
    gives the pseudo-inverse."""
    n = len(info)
    shifted = [[v + 1 / n for v in row] for row in info]
    inverse = _invert(shifted)
    return [[v - 1 / n for v in row] for row in inverse]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan elimination with partial pivoting (the matrices here are a handful of rows)."""
    n = len(matrix)
    work = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(work[r][col]))
        if abs(work[pivot][col]) < 1e-300:
            raise RatingError("the games do not pin the ratings down (a singular information matrix)")
        work[col], work[pivot] = work[pivot], work[col]
        scale = work[col][col]
        work[col] = [v / scale for v in work[col]]
        for r in range(n):
            if r != col and work[r][col] != 0.0:
                factor = work[r][col]
                work[r] = [a - factor * b for a, b in zip(work[r], work[col], strict=True)]
    return [row[n:] for row in work]


def _tallies(order: list[str], games: list[Outcome]) -> dict[str, tuple[int, int, int, int]]:
    """Per player: games, wins, draws and losses (weights rounded: a weight is a count of like games)."""
    counts = {p: [0, 0, 0, 0] for p in order}
    for g in games:
        w = round(g.weight)
        for player, score in ((g.first, g.score), (g.second, 1 - g.score)):
            c = counts[player]
            c[0] += w
            c[1 if score > 0.5 else 2 if score == 0.5 else 3] += w
    return {p: (c[0], c[1], c[2], c[3]) for p, c in counts.items()}


def outcomes_of(frame: Any) -> list[Outcome]:
    """The rated games of a lab results table: two-side games between different entrants, a draw half.

    A side's entrant is its fleet's design where a plan set one for every side (``fleet.SIDE``), else its
    bot, as in the lab's tournament table."""
    out: list[Outcome] = []
    rows = zip(frame["bots"], frame["sides"], frame["params"], frame["winner"], strict=True)
    for bots_text, sides_text, params_text, winner in rows:
        bots, sides, params = json.loads(bots_text), json.loads(sides_text), json.loads(params_text)
        if len(sides) != 2:
            continue
        by_fleet = all(f"fleet.{side}" in params for side in sides)
        first, second = (str(params[f"fleet.{side}"] if by_fleet else bots[side]) for side in sides)
        if first == second:
            continue
        winners = set(str(winner).split(",")) - {""}
        score = 0.5 if not winners else 1.0 if sides[0] in winners else 0.0
        out.append(Outcome(first, second, score))
    return out
