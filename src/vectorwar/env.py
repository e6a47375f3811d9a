"""A small environment API for outside tools (in the style of PettingZoo's parallel API).

Agents are seats. At each step only the seats the game is waiting for act;
``step`` takes their orders (objects or text), and returns per-seat
observations (what that seat may see), rewards (+1 win, -1 loss, 0 draw,
given once at the end), terminations and infos (illegal orders are reported
in infos and leave the game unchanged).

>>> env = VectorwarEnv("msc-duel")
>>> obs, infos = env.reset(seed=3)
>>> env.agents
['red', 'blue']
>>> obs, rewards, terminations, truncations, infos = env.step({"red": "Hawk 3", "blue": "Raven 2"})
>>> obs["red"]["state"]["turn"] >= 1
True
"""

from __future__ import annotations

from typing import Any

from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.game import Game
from vectorwar.rules import Order
from vectorwar.setup import find_scenario, set_up, system_of


class VectorwarEnv:
    def __init__(self, scenario: str, options: dict[str, object] | None = None) -> None:
        self.scenario = find_scenario(scenario)
        self.system = system_of(self.scenario)
        self.options = options or {}
        self.possible_agents = [s.id for s in self.scenario.sides]
        self.game: Game | None = None

    @property
    def agents(self) -> list[str]:
        """Seats that must act now (empty once the game is over)."""
        return list(self.game.waiting_for) if self.game else []

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def observe(self, agent: str) -> dict[str, Any]:
        return self._game().view(agent)

    def reset(self, seed: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
        # Every seat is an agent: set up with no computer players.
        self.game = set_up(self.scenario, seed=seed, options=self.options).game
        return {a: self.observe(a) for a in self.possible_agents}, {a: {} for a in self.possible_agents}

    def step(
        self, actions: dict[str, Order | str]
    ) -> tuple[dict[str, Any], dict[str, float], dict[str, bool], dict[str, bool], dict[str, Any]]:
        game = self._game()
        infos: dict[str, Any] = {a: {} for a in self.possible_agents}
        for seat, order in actions.items():
            try:
                game.submit(seat, order)
            except (OrderSyntaxError, IllegalOrderError) as err:
                infos[seat] = {"error": str(err)}
        over = game.is_over
        result = game.result
        rewards = dict.fromkeys(self.possible_agents, 0.0)
        if over and result is not None and result.winners:
            rewards = {a: (1.0 if a in result.winners else -1.0) for a in self.possible_agents}
        observations = {a: self.observe(a) for a in self.possible_agents}
        terminations = dict.fromkeys(self.possible_agents, over)
        truncations = dict.fromkeys(self.possible_agents, False)
        return observations, rewards, terminations, truncations, infos
