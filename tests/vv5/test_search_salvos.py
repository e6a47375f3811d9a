"""The search bot's launches: greedy's targets, every missile ready (``RuleSystem.search_declaration``)."""

from __future__ import annotations

import random

import pytest

from vectorwar.game import Game
from vectorwar.play import bot_order
from vectorwar.search import SearchBot
from vectorwar.setup import set_up
from vectorwar.systems.vv5.bots import GreedyBot, full_salvos
from vectorwar.systems.vv5.orders import Gunfire, Launch, Launches


def first_small_launch(scenario: str, seed: int) -> tuple[Game, str, Launches]:
    """A greedy game of ``scenario`` played on to the first launch greedy makes with missiles left over."""
    setup = set_up(scenario, seed=seed, default="greedy")
    game = setup.game
    while game.system.result(game.state) is None:
        for side in list(game.waiting_for):
            order = setup.bots[side].choose(game.system.side_view(game.state, side), side, random.Random(0))
            if isinstance(order, Launches) and any(
                x.missiles < game.state.ship(x.ship).missiles_ready for x in order.launches
            ):
                return game, side, order
            game.submit(side, order)
    raise AssertionError(f"no launch with missiles kept back in {scenario} on seed {seed}")


def test_search_launches_every_missile_ready_at_the_targets_greedy_chose() -> None:
    game, side, greedy = first_small_launch("vv5-dogfight", 0)
    searched = bot_order(game, side, SearchBot(game.system))
    assert isinstance(searched, Launches)
    assert [(x.ship, x.target) for x in searched.launches] == [(x.ship, x.target) for x in greedy.launches]
    assert [x.missiles for x in searched.launches] == [game.state.ship(x.ship).missiles_ready for x in greedy.launches]
    assert sum(x.missiles for x in searched.launches) > sum(x.missiles for x in greedy.launches)
    # The fuller salvo is a legal order of the same side.
    game.submit(side, searched)


def test_only_launches_are_filled_and_invasion_keeps_its_own_salvo_sizes() -> None:
    dogfight = set_up("vv5-dogfight", seed=0).game.state
    guns = Gunfire(())
    assert full_salvos(dogfight, guns) is guns
    assert full_salvos(dogfight, Launches(())) == Launches(())
    invasion = set_up("vv5-invasion", seed=1).game.state
    fighter = next(s for s in invasion.ships if s.missiles_ready > 1)
    platform = next(s for s in invasion.ships if s.side != fighter.side)
    kept = Launches((Launch(fighter.id, 1, platform.id),))
    assert full_salvos(invasion, kept) is kept
    mine = Launches((Launch(dogfight.ships[0].id, 1, dogfight.ships[-1].id),))
    filled = full_salvos(dogfight, mine)
    assert isinstance(filled, Launches)
    assert filled.launches[0].missiles == dogfight.ships[0].missiles_ready > 1


def test_a_declaration_the_system_would_fill_illegally_falls_back_to_greedys(monkeypatch: pytest.MonkeyPatch) -> None:
    game, side, greedy = first_small_launch("vv5-dogfight", 0)
    system = game.system
    # More missiles than the ship has ready: the bot must not give it.
    launch = greedy.launches[0]
    too_many = Launches((Launch(launch.ship, 9, launch.target),))
    monkeypatch.setattr(system, "search_declaration", lambda state, s, order: too_many)
    assert str(bot_order(game, side, SearchBot(system))) == str(greedy)
    assert str(GreedyBot().choose(system.side_view(game.state, side), side, random.Random(0))) == str(greedy)
