"""The declare-order prompt names the game's own sides, whatever the scenario calls them.

The Refugees scenario's sides are ``intercept`` and ``refugees``: its help must not offer
'blue first' (an order the game refuses), and each example it quotes must be an order the
initiative side may give now (the browser turns the quoted examples into buttons).
"""

from __future__ import annotations

import re

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import OrderSyntaxError
from vectorwar.game import Game
from vectorwar.play import bot_rng, make_bots
from vectorwar.registry import get_system
from vectorwar.systems.vv5.orders import DeclareOrder

SCENARIO = "vv5-refugees"
MAX_ORDERS = 200


def game_at_declare_order(seed: int = 1) -> Game:
    """A Refugees game played by the greedy bots up to its first declare-order prompt."""
    scenario = builtin_scenario(SCENARIO)
    system = get_system("vv5")
    game = Game.new(system, scenario, seed)
    bots = make_bots(system, {side.id: "greedy" for side in scenario.sides})
    for _ in range(MAX_ORDERS):
        prompt = game.prompt
        assert prompt is not None, "the game ended before anyone chose a declaration order"
        if prompt.kind == "declare-order":
            return game
        side = game.waiting_for[0]
        game.submit(side, bots[side].choose(game.state, side, bot_rng(seed, side, len(game.history))))
    pytest.fail(f"no declare-order prompt within {MAX_ORDERS} orders")


def test_the_declare_order_help_names_the_refugees_sides_and_its_examples_are_legal() -> None:
    game = game_at_declare_order()
    prompt = game.prompt
    assert prompt is not None
    ids = {side.id for side in game.scenario.sides}
    assert ids == {"intercept", "refugees"}
    assert "blue" not in prompt.help
    assert "red" not in prompt.help
    assert "'intercept first'" in prompt.help
    assert "'refugees first'" in prompt.help
    (side,) = prompt.sides
    examples = re.findall(r"'([^']+)'", prompt.help)
    assert len(examples) == 3, prompt.help
    for text in examples:
        order = game.check(side, text)
        assert isinstance(order, DeclareOrder)
        assert set(order.sides) == ids


def test_an_order_naming_no_side_is_told_a_real_side() -> None:
    with pytest.raises(OrderSyntaxError, match=re.escape("e.g. 'intercept first'")):
        DeclareOrder.parse("first", ("intercept", "refugees"))
    game = game_at_declare_order()
    prompt = game.prompt
    assert prompt is not None
    with pytest.raises(OrderSyntaxError) as refused:
        game.parse(prompt.sides[0], "first")
    assert "blue" not in str(refused.value)
    assert re.search(r"'(intercept|refugees) first'", str(refused.value))
