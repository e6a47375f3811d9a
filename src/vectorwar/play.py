"""Running games with computer players: one game, or many for designers.

>>> from vectorwar.catalogue import builtin_scenario
>>> game = play_out(builtin_scenario("msc-duel"), {"red": "greedy", "blue": "random"}, seed=5)
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from vectorwar.errors import ScenarioError
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.rules import Bot, RuleSystem
from vectorwar.scenario import Scenario


def make_bots(system: RuleSystem[Any], controllers: Mapping[str, str]) -> dict[str, Bot]:
    """Bots for every seat whose controller names a bot (``human`` seats are skipped)."""
    available = system.bots()
    bots: dict[str, Bot] = {}
    for seat, name in controllers.items():
        if name == "human":
            continue
        if name not in available:
            raise ScenarioError(f"seat {seat}: no computer player {name!r} (known: {', '.join(available)}, human)")
        bots[seat] = available[name]()
    return bots


def bot_rng(seed: int, seat: str, step: int) -> random.Random:
    """A bot's own random source: apart from the game's dice, yet reproducible."""
    return random.Random(f"bot:{seed}:{seat}:{step}")


def bot_turns(game: Game, bots: Mapping[str, Bot]) -> Iterator[str]:
    """Let bots give every order they owe now, until a human must act or the game ends.

    Yields the seat of each order given.
    """
    while not game.is_over:
        due = [s for s in game.waiting_for if s in bots]
        if not due:
            return
        for seat in due:
            order = bots[seat].choose(game.state, seat, bot_rng(game.seed, seat, len(game.history)))
            game.submit(seat, order)
            yield seat


def play_out(
    scenario: Scenario,
    controllers: Mapping[str, str],
    seed: int,
    options: Mapping[str, object] | None = None,
) -> Game:
    """Play a whole game between bots."""
    system = get_system(scenario.system)
    seats = [s.id for s in scenario.sides]
    missing = [s for s in seats if controllers.get(s, "human") == "human"]
    if missing:
        raise ScenarioError(f"every seat needs a computer player to play out; none for {', '.join(missing)}")
    game = Game.new(system, scenario, seed, options)
    bots = make_bots(system, controllers)
    for _ in bot_turns(game, bots):
        pass
    return game


@dataclass
class Summary:
    """What many games came to."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    turns: list[int] = field(default_factory=list)

    def add(self, game: Game) -> None:
        result = game.result
        self.games += 1
        self.turns.append(game.history[-1].clock.turn if game.history else 0)
        if result is None or not result.winners:
            self.draws += 1
        else:
            for w in result.winners:
                self.wins[w] += 1

    @property
    def average_turns(self) -> float:
        return sum(self.turns) / len(self.turns) if self.turns else 0.0

    def to_data(self, seats: list[str]) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": {s: self.wins.get(s, 0) for s in seats},
            "draws": self.draws,
            "average_turns": round(self.average_turns, 3),
        }


def simulate(
    scenario: Scenario,
    controllers: Mapping[str, str],
    games: int,
    first_seed: int = 0,
    options: Mapping[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` bot games with seeds ``first_seed, first_seed + 1, ...``."""
    summary = Summary()
    for i in range(games):
        summary.add(play_out(scenario, controllers, first_seed + i, options))
        if progress is not None:
            progress(i + 1)
    return summary
