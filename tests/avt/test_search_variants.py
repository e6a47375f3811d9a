"""What AV:T's search bot tries beside the burns: the pivots greedy ranks best for the fight (``order_variants``)."""

from __future__ import annotations

import random

from vectorwar.search import SearchBot
from vectorwar.setup import set_up
from vectorwar.systems.avt.bots import GreedyBot
from vectorwar.systems.avt.orders import SegmentOrders
from vectorwar.systems.avt.rules import PIVOT_VARIANTS
from vectorwar.systems.avt.steering import facings


def test_pivot_variants_are_legal_and_change_one_ships_pivot_only() -> None:
    s = set_up("avt-duel-wasp", seed=2, default="greedy")
    game, tried = s.game, 0
    for _ in range(60):
        for side in game.waiting_for:
            view = game.system.side_view(game.state, side)
            base = s.bots[side].choose(view, side, random.Random(0))
            assert isinstance(base, SegmentOrders)
            variants = game.system.order_variants(view, side, base)
            (ship,) = [x for x in view.ships_of(side) if x.kind == "ship"]
            if ship.turning is not None:
                assert not variants  # one facing change at a time (A5.222): nothing to vary until it is done
            assert len(variants) <= PIVOT_VARIANTS
            given = base.for_ship(ship.id)
            for order in variants:
                assert isinstance(order, SegmentOrders)
                game.system.check_order(game.state, side, order)
                entry = order.for_ship(ship.id)
                assert entry is not None
                assert entry.pivot != (given.pivot if given else None)
                if given is not None:
                    assert (entry.thrust, entry.shots, entry.roll) == (given.thrust, given.shots, given.roll)
            tried += len(variants)
            game.submit(side, base)
    assert tried > 60


def test_pivot_variants_are_greedys_best_facings_for_the_fight() -> None:
    s = set_up("avt-duel-rafik", seed=0, default="greedy")
    state = s.game.state
    ship = next(x for x in state.ships_of("blue") if x.kind == "ship")
    (enemy,) = [x for x in state.enemies_of("blue") if x.kind == "ship"]
    bot = GreedyBot()
    ranked = sorted(facings(state, state.designs[ship.design], ship, enemy), key=lambda f: -f[0])
    choices = bot.pivot_choices(state, ship, 5)
    assert choices == [None if n == 0 else window for _, window, n in ranked[:5]]
    assert len(set(choices)) == 5  # five different facings, staying put at most once
    assert ranked[0][0] > 0  # the best facing brings lasers or armour to bear on the enemy


def test_search_tries_the_pivot_variants() -> None:
    s = set_up("avt-duel-wasp", seed=0, default="greedy")
    game = s.game
    side = game.waiting_for[0]
    view = game.system.side_view(game.state, side)
    bot = SearchBot(game.system)
    base = bot.policy.choose(view, side, random.Random(0))
    pivots = {str(v) for v in game.system.order_variants(view, side, base)}
    assert pivots
    tried = {
        str(o)
        for o in bot._candidates(view, side, 500, random.Random(0), game.system.move_options(view, side), sweep=True)
    }
    assert pivots <= tried
    # The variants come on top of however many burns the sweep was asked for: with room for greedy's order
    # alone, every pivot is still tried.
    narrow = bot._candidates(view, side, 1, random.Random(0), game.system.move_options(view, side), sweep=True)
    assert [str(o) for o in narrow[1:]] == [str(v) for v in game.system.order_variants(view, side, base)]
    assert len(narrow) == 1 + len(pivots)
