"""The Bradley-Terry fit behind the ladder: it recovers known strengths, counts a draw as half, and its
intervals narrow as games accumulate."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.lab.ratings import Outcome, RatingError, expected_score, fit_ratings

#: Known strengths for synthetic games, deliberately listed out of order.
TRUE_ELO = {"b": 0.0, "d": 450.0, "a": -300.0, "c": 200.0}


def synthetic(games_a_pairing: int, seed: int = 1) -> list[Outcome]:
    """Games between every pair of TRUE_ELO's players, each won with the model's chance (no draws)."""
    rng = random.Random(seed)
    out: list[Outcome] = []
    names = sorted(TRUE_ELO)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            p = expected_score(TRUE_ELO[first], TRUE_ELO[second])
            out.extend(Outcome(first, second, 1.0 if rng.random() < p else 0.0) for _ in range(games_a_pairing))
    return out


def test_the_fit_recovers_the_order_of_known_strengths() -> None:
    fit = fit_ratings(synthetic(300))
    by_rating = [r.player for r in sorted(fit.ratings, key=lambda r: r.elo)]
    assert by_rating == sorted(TRUE_ELO, key=TRUE_ELO.__getitem__)
    # Not just the order: each gap is near the true one (the mean is 0, so compare differences).
    for lower, upper in (("a", "b"), ("b", "c"), ("c", "d")):
        step = fit.step(lower, upper)
        assert step.lo < TRUE_ELO[upper] - TRUE_ELO[lower] < step.hi
        assert step.clear
    assert abs(sum(r.elo for r in fit.ratings)) < 1e-6


def test_the_ratings_keep_the_order_they_were_asked_for() -> None:
    fit = fit_ratings(synthetic(10), players=["d", "c", "b", "a"])
    assert fit.players == ["d", "c", "b", "a"]


def test_a_player_who_always_wins_is_above_everyone_and_finite() -> None:
    games = [Outcome("champion", other, 1.0) for other in ("x", "y") for _ in range(20)]
    games += [Outcome("x", "y", s) for s in (1.0, 0.0, 0.5, 1.0, 0.0)]
    fit = fit_ratings(games)
    champion = fit.rating("champion")
    assert all(champion.elo > r.elo for r in fit.ratings if r.player != "champion")
    assert champion.elo < 2000  # the virtual draw keeps a perfect record finite
    assert (champion.wins, champion.draws, champion.losses, champion.games) == (40, 0, 0, 40)
    assert fit.step("x", "champion").clear


def test_a_draw_counts_as_half_a_win_and_half_a_loss() -> None:
    drawn = fit_ratings([Outcome("p", "q", 0.5)] * 10)
    assert drawn.rating("p").elo == pytest.approx(0.0, abs=1e-9)
    split = fit_ratings([Outcome("p", "q", 1.0)] * 5 + [Outcome("p", "q", 0.0)] * 5)
    assert split.rating("p").elo == pytest.approx(drawn.rating("p").elo, abs=1e-9)
    # Three wins and two draws is three and a half won of five: the same rating as seven wins in ten.
    mixed = fit_ratings([Outcome("p", "q", 1.0)] * 6 + [Outcome("p", "q", 0.5)] * 2 + [Outcome("p", "q", 0.0)] * 2)
    plain = fit_ratings([Outcome("p", "q", 1.0)] * 7 + [Outcome("p", "q", 0.0)] * 3)
    assert mixed.rating("p").elo == pytest.approx(plain.rating("p").elo, abs=1e-6)
    assert mixed.rating("p").draws == 2
    # A draw is counted whichever player is named first.
    assert fit_ratings([Outcome("q", "p", 0.5)] * 4 + [Outcome("p", "q", 1.0)]).rating("p").elo > 0


def test_intervals_shrink_with_more_games() -> None:
    widths = []
    for games in (10, 40, 160):
        fit = fit_ratings(synthetic(games))
        step = fit.step("b", "c")
        widths.append(step.hi - step.lo)
        assert all(r.lo < r.elo < r.hi for r in fit.ratings)
    assert widths[0] > widths[1] > widths[2]
    # Four times the games, about half the width (the usual one over the square root).
    assert widths[2] < 0.65 * widths[1]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=1, max_size=30))
def test_the_fitted_gap_matches_the_points_won(scores: list[float]) -> None:
    """Between two players the fit solves expected score = points won (the virtual draw included)."""
    fit = fit_ratings([Outcome("p", "q", s) for s in scores])
    share = (sum(scores) + 0.5) / (len(scores) + 1)
    gap = fit.rating("p").elo - fit.rating("q").elo
    assert expected_score(gap, 0.0) == pytest.approx(share, abs=1e-6)


@pytest.mark.parametrize(
    ("games", "message"),
    [
        ([], "no games"),
        ([Outcome("p", "q", 1.0), Outcome("r", "s", 1.0)], "no games linking them"),
    ],
)
def test_games_that_cannot_be_rated_are_refused(games: list[Outcome], message: str) -> None:
    with pytest.raises(RatingError, match=message):
        fit_ratings(games)


@pytest.mark.parametrize(("first", "second", "score"), [("p", "p", 1.0), ("p", "q", 1.5)])
def test_a_bad_outcome_is_refused(first: str, second: str, score: float) -> None:
    with pytest.raises(RatingError):
        Outcome(first, second, score)
