"""AV:T's shortcuts held to the long way: the greedy orders a search trial plays unchecked pass the check."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from vectorwar.dice import Dice
from vectorwar.play import bot_rng
from vectorwar.rules import Bot
from vectorwar.setup import set_up
from vectorwar.systems.avt.state import AVTState

from .helpers import AVT

SCENARIOS = ["avt-duel-wasp", "avt-duel-rafik", "avt-damage", "avt-pivot-thrust", "avt-pitch-and-climb", "avt-drift"]


def _vouch(state: AVTState, greedy: Bot, rng: random.Random) -> int:
    """Check greedy's orders for every side at ``state`` where the trial's shortcut plays them unchecked."""
    prompt = AVT.prompt(state)
    if prompt is None or not AVT.greedy_orders_legal(state):
        return 0
    for side in prompt.sides:
        AVT.check_order(state, side, greedy.choose(state, side, rng))
    return len(prompt.sides)


@pytest.mark.parametrize("options", [{}, {"three_d": False}, {"laser_pools": "each"}])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_greedy_orders_a_trial_plays_unchecked_pass_the_check(scenario: str, options: dict[str, object]) -> None:
    greedy = AVT.bots()["greedy"]()
    vouched = 0
    game = set_up(scenario, seed=1, default="greedy", options=options).game
    while not game.is_over:
        state = game.state
        # A held-fire trial's segments: the shots counted and not rolled, so the ships meet what a game does not.
        trial, rng = state, random.Random(0)
        for _ in range(4):
            vouched += _vouch(trial, greedy, rng)
            prompt = AVT.prompt(trial)
            if prompt is None:
                break
            given = {s: greedy.choose(trial, s, rng) for s in prompt.sides}
            done = AVT.resolve_in_prospect(trial, given, Dice(1))
            assert done is not None
            trial = done[0]
        for side in game.waiting_for:
            order = greedy.choose(state, side, bot_rng(1, side, len(game.history)))
            vouched += _vouch(state, greedy, rng)
            game.submit(side, order)
    assert vouched > 5


def test_once_the_game_is_over_no_greedy_order_is_vouched_for() -> None:
    state = set_up("avt-duel-wasp", seed=1, default="greedy").game.state
    assert AVT.greedy_orders_legal(state)
    assert not AVT.greedy_orders_legal(replace(state, phase="over"))
