"""The lab's one door into the game-running kernel (:mod:`vectorwar.setup`, :mod:`vectorwar.play`).

Everything the lab needs from the bot loop goes through here, so that a
change to how games are set up and bots are run touches one small module.
"""

from __future__ import annotations

from collections.abc import Mapping

from vectorwar.game import Game
from vectorwar.play import play_out
from vectorwar.players import computer_players
from vectorwar.registry import get_system
from vectorwar.scenario import Scenario
from vectorwar.setup import set_up


def play_game(scenario: Scenario, controllers: Mapping[str, str], seed: int, options: Mapping[str, object]) -> Game:
    """One whole game between computer players, to its end."""
    return play_out(scenario, controllers, seed, options)


def bot_names(system_name: str) -> list[str]:
    """The computer players a system offers, by name."""
    return sorted(computer_players(get_system(system_name)))


def check_setup(scenario: Scenario, options: Mapping[str, object]) -> None:
    """Set the game up once, so a bad design or option is refused before any worker plays it."""
    set_up(scenario, seed=0, options=options)


def players_of(system_name: str) -> list[str]:
    """The computer players a system offers, in its menu's order (its own first, then the search levels)."""
    return list(computer_players(get_system(system_name)))


def sides_giving_orders(scenario: Scenario, seed: int = 0) -> set[str]:
    """The sides that give orders in a game between random players: a side the engine plays, or whose ships
    never act (the tutorial's targets), gives none, and a game against it measures no player in it."""
    game = play_out(scenario, dict.fromkeys((side.id for side in scenario.sides), "random"), seed, {})
    return {side for batch in game.history for side, _ in batch.orders}
