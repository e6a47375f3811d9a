"""MSC's shortcuts held to the long way: the greedy orders a search trial plays unchecked, the sides kept in reach."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.play import bot_rng
from vectorwar.setup import set_up
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.combat import sides_in_reach
from vectorwar.systems.msc.fire import reach_of

from .helpers import MSC, state_of

OPTIONS = [{}, {"strict_turn_spacing": True, "ships_block_sight": True}]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("scenario", ["msc-fleet", "msc-duel"])
def test_the_greedy_orders_a_trial_plays_unchecked_pass_the_check(scenario: str, options: dict[str, object]) -> None:
    greedy = MSC.bots()["greedy"]()
    vouched = 0
    for seed in range(3):
        game = set_up(builtin_scenario(scenario), {"red": "greedy", "blue": "greedy"}, seed=seed, options=options).game
        while not game.is_over:
            for side in game.waiting_for:
                order = greedy.choose(game.state, side, bot_rng(seed, side, len(game.history)))
                if MSC.greedy_orders_legal(game.state):
                    MSC.check_order(game.state, side, order)  # raises if the trial's shortcut were wrong
                    vouched += 1
                game.submit(side, order)
    assert vouched > 50


def test_under_map_edge_forbid_a_trial_checks_the_greedy_orders() -> None:
    game = set_up(builtin_scenario("msc-duel"), {"red": "greedy", "blue": "greedy"}, options={"map_edge": "forbid"})
    assert not MSC.greedy_orders_legal(game.game.state)


def test_the_sides_kept_in_reach_are_sides_in_reach_for_those_very_ships() -> None:
    game = set_up(builtin_scenario("msc-fleet"), {"red": "greedy", "blue": "greedy"}, seed=4).game
    state = state_of(game)
    for shooter in state.ships:
        for target in state.ships:
            if shooter is not target:
                expected = sides_in_reach(state.map, shooter.hex, shooter.facing, target.hex)
                assert reach_of(state, shooter, target) == expected
    # Another ship of the same id (here right behind the target, facing the way it does, so the target lies
    # dead ahead) is worked out for itself, not given the answer kept for the ship in the state.
    shooter, target = state.ships[0], state.ships[-1]
    assert Side.F not in reach_of(state, shooter, target)  # the fleets start out of range
    moved = replace(shooter, hex=target.hex.neighbour(target.facing.turned(3)), facing=target.facing)
    assert Side.F in reach_of(state, moved, target)
    assert reach_of(state, moved, target) == sides_in_reach(state.map, moved.hex, moved.facing, target.hex)
