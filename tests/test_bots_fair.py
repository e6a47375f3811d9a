"""Bots play fair: a greedy decision depends only on what its side may see.

At moments when both sides owe a secret plot, one side's plot is submitted
(two different legal plots, in two copies of the game) and the other side's
greedy bot decides through the one bot loop (``play.bot_order``): it must
decide the same either way, or it has read the pending plot. The same
decision must also come out of a copy of the game with another seed (so other
future dice), and whatever the global ``random`` module's state, so a bot
cannot be reading the game's dice or drawing from a source shared with them.
"""

from __future__ import annotations

import copy
import random

import pytest

from vectorwar.game import Game
from vectorwar.play import bot_order, bot_turns
from vectorwar.rules import Bot
from vectorwar.setup import set_up

SCENARIOS = ["msc-duel", "vv5-dogfight", "vms-capital-duel-msc", "avt-duel-wasp"]
MOMENTS = 3


def _simultaneous_moments(scenario: str, seed: int) -> list[tuple[Game, dict[str, Bot]]]:
    """Copies of a greedy v greedy game at its first moments when two sides both owe an order."""
    setup = set_up(scenario, {"blue": "greedy", "red": "greedy"}, seed=seed)
    game, bots = setup.game, setup.bots
    found: list[tuple[Game, dict[str, Bot]]] = []
    while not game.is_over and len(found) < MOMENTS:
        if len(game.waiting_for) >= 2:
            found.append((copy.deepcopy(game), bots))
        # One order at a time, so every prompt is seen before anyone answers it.
        side = next(bot_turns(game, bots), None)
        if side is None:
            break
    return found


def _two_plots(game: Game, side: str) -> tuple[str, str]:
    """Two different legal orders for ``side`` now."""
    first = str(game.system.random_order(game.state, side, random.Random(1)))
    for n in range(2, 50):
        other = str(game.system.random_order(game.state, side, random.Random(n)))
        if other != first:
            return first, other
    raise AssertionError(f"{side} has only one legal order here: {first}")


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_greedy_ignores_the_other_sides_pending_plot(scenario: str) -> None:
    moments = _simultaneous_moments(scenario, seed=3)
    assert moments, f"{scenario} never had two sides owing an order at once"
    for game, bots in moments:
        mover, decider = game.waiting_for[0], game.waiting_for[1]
        decisions = []
        for plot in _two_plots(game, mover):
            g = copy.deepcopy(game)
            g.submit(mover, plot)
            assert g.pending
            assert decider in g.waiting_for
            decisions.append(str(bot_order(g, decider, bots[decider])))
        assert decisions[0] == decisions[1], f"{decider}'s greedy order changed with {mover}'s secret plot"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_greedy_ignores_the_seed_and_the_global_random_source(scenario: str) -> None:
    for game, bots in _simultaneous_moments(scenario, seed=4):
        side = game.waiting_for[-1]
        decisions = []
        for seed, shared in ((4, 10), (987_654_321, 20)):
            g = copy.deepcopy(game)
            g.seed = seed  # other future dice; the state (what the side sees) is the same
            random.seed(shared)
            view = g.system.side_view(g.state, side)
            decisions.append(str(bots[side].choose(view, side, random.Random(7))))
        assert decisions[0] == decisions[1], f"{side}'s greedy order changed with the game's seed"
