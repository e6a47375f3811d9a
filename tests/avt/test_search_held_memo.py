"""The held-fire trials' memo (``vectorwar.search.trials.HeldMemo``): a segment or a fast order played again
in one decision is taken from the memo only where playing it drew no dice and no random numbers, so a trial
ends exactly where it would without the memo."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.dice import Dice
from vectorwar.search import Judging, SearchBot
from vectorwar.search.trials import CountedRandom, HeldMemo
from vectorwar.setup import set_up


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 5), max_size=12))
def test_counted_random_draws_the_same_numbers_and_counts_them(seed: int, picks: list[int]) -> None:
    plain, counted = random.Random(seed), CountedRandom(seed)
    assert counted.draws == 0
    for pick in picks:
        calls = {
            0: lambda r: r.random(),
            1: lambda r: r.randint(1, 6),
            2: lambda r: r.choice("abcdefg"),
            3: lambda r: r.sample(range(50), 5),
            4: lambda r: r.getrandbits(70),
            5: lambda r: r.uniform(-1.0, 1.0),
        }
        assert calls[pick](counted) == calls[pick](plain)
    assert counted.getstate() == plain.getstate()
    assert (counted.draws > 0) == bool(picks)


def _wasp_trial() -> tuple[SearchBot, Any, dict[str, Any]]:
    game = set_up("avt-duel-wasp", seed=3, default="greedy").game
    bot = SearchBot(game.system)
    orders = {s: bot.policy.choose(game.state, s, random.Random(0)) for s in game.waiting_for}
    assert bot.judging(game.state) is Judging.HELD
    return bot, game.state, orders


def test_a_trial_played_again_ends_where_it_did_and_resolves_nothing_again(monkeypatch: pytest.MonkeyPatch) -> None:
    bot, state, orders = _wasp_trial()
    system = bot.system
    first = bot._rollout(state, orders, 5, Judging.HELD)
    resolved: list[int] = []
    real = system.resolve_in_prospect

    def counting(s: Any, o: Mapping[str, Any], dice: Dice) -> Any:
        resolved.append(1)
        return real(s, o, dice)

    monkeypatch.setattr(system, "resolve_in_prospect", counting)
    judged: list[int] = []
    real_standing = system.standing

    def judging(s: Any) -> Any:
        judged.append(1)
        return real_standing(s)

    monkeypatch.setattr(system, "standing", judging)
    again = bot._rollout(state, orders, 9, Judging.HELD)
    assert not resolved  # every segment found in the memo
    assert not judged  # and the end's standing
    fresh = SearchBot(system)._rollout(state, orders, 9, Judging.HELD)
    assert resolved  # a bot without the memo resolved its segments
    assert again[0] is first[0]  # the very same end
    assert dict(again[1]) == dict(first[1]) == dict(fresh[1])
    assert system.state_to_data(fresh[0]) == system.state_to_data(first[0])
    bot.held.clear()
    count = len(resolved)
    bot._rollout(state, orders, 9, Judging.HELD)
    assert len(resolved) == 2 * count  # a new decision remembers nothing


class _Throws:
    """A stand-in system whose segment throws a die."""

    def __init__(self) -> None:
        self.resolved = 0

    def resolve_in_prospect(self, state: Any, orders: Mapping[str, Any], dice: Dice) -> tuple[Any, dict[str, float]]:
        self.resolved += 1
        dice.roll("d6", "luck")
        return object(), {}

    def prompt(self, state: Any) -> None:
        return None


def test_a_segment_that_throws_dice_or_an_order_that_draws_is_played_again() -> None:
    memo, system, state, given_orders = HeldMemo(), _Throws(), object(), {"blue": object()}
    for _ in range(2):
        memo.segment(system, state, given_orders, Dice(1))  # type: ignore[arg-type]
    assert system.resolved == 2
    chosen: list[int] = []

    def drawing(s: Any, side: str, rng: random.Random) -> int:
        chosen.append(rng.randint(1, 6))
        return chosen[-1]

    def steady(s: Any, side: str, rng: random.Random) -> int:
        chosen.append(0)
        return 0

    rng = CountedRandom(4)
    for _ in range(2):
        memo.order(state, "blue", rng, drawing)
    assert len(chosen) == 2
    for _ in range(2):
        memo.order(state, "red", rng, steady)
    assert len(chosen) == 3  # drawing nothing, it was kept
