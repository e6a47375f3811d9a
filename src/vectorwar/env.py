"""Agent APIs: a PettingZoo ParallelEnv (and its AEC form) for outside learning and search tools.

Agents are sides. Every side steps together until the game ends; a side the
game is not waiting for passes. Actions are indices into a menu:

* action ``0`` is *pass*, legal only for a side with nothing to order now;
* actions ``1..MENU_SIZE`` pick from the side's menu of legal orders for the
  current prompt (``infos[side]["legal_orders"]`` spells them out).

The menu is a reproducible sample of distinct legal orders drawn with the
system's ``random_order`` (a whole side's plot joins every ship's choices,
so the full set is far too large to list); the observation's
``action_mask`` marks which indices are legal. ``step`` also takes an order
as text, for scripted agents and people at a prompt.

Observations hold only what the side may see: the map's counters (public in
every system) encoded as numbers, one slot per piece, plus the clock. The
whole side view (:meth:`vectorwar.game.Game.view`) is available from
:meth:`VectorwarParallelEnv.view`. Rewards are +1 for a winner and -1 for the
others once a game is decided, 0 for a draw and on every other step.

>>> env = VectorwarParallelEnv("msc-duel")
>>> obs, infos = env.reset(seed=3)
>>> env.agents
['red', 'blue']
>>> int(obs["red"]["action_mask"][0]), int(obs["red"]["action_mask"][1])
(0, 1)
>>> obs, rewards, terminations, truncations, infos = env.step({"red": 1, "blue": "Raven 2"})
>>> env.game is not None and env.game.history[-1].orders[1]
('blue', 'Raven 2')
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.game import Game
from vectorwar.rules import Order
from vectorwar.scenario import Scenario
from vectorwar.setup import find_scenario, set_up, system_of

#: Most legal orders offered at one prompt (the action space is this plus "pass").
MENU_SIZE = 32
#: Counter slots in an observation; pieces beyond these (a swarm of missiles) are left out.
SLOTS = 24
#: Numbers per slot: present, mine, active, column, row, altitude, facing (0 none, 1-6 A-F).
SLOT_FEATURES = 7
#: Numbers after the slots: turn, orders given so far, is it my turn, menu length.
GLOBAL_FEATURES = 4
OBS_LIMIT = 10_000.0

ObsDict = dict[str, np.ndarray[Any, Any]]
Action = int | np.integer[Any] | str


class VectorwarParallelEnv(ParallelEnv[str, ObsDict, Action]):
    """One built-in (or file) scenario as a PettingZoo parallel environment."""

    metadata: dict[str, Any] = {"name": "vectorwar_v1", "render_modes": []}  # noqa: RUF012 - PettingZoo's convention

    def __init__(
        self,
        scenario: str | Scenario,
        options: Mapping[str, object] | None = None,
        max_cycles: int | None = None,
    ) -> None:
        # The one set-up every front end uses (vectorwar.setup): the same errors as the CLI and the server.
        self.scenario = scenario if isinstance(scenario, Scenario) else find_scenario(scenario)
        self.system = system_of(self.scenario)
        self.options = dict(options or {})
        #: Steps after which every side is truncated (None: play until the rules end the game).
        self.max_cycles = max_cycles
        self.possible_agents: list[str] = [s.id for s in self.scenario.sides]
        self.agents: list[str] = []
        self.game: Game | None = None
        self.render_mode = None
        self._seed = -1
        self._cycles = 0
        self._slots: dict[str, int] = {}
        self._menus: dict[str, list[str]] = {}

    # -- spaces -----------------------------------------------------------------

    @functools.cache  # noqa: B019 - PettingZoo wants the same space object each time
    def observation_space(self, agent: str) -> spaces.Dict:
        size = SLOTS * SLOT_FEATURES + GLOBAL_FEATURES
        return spaces.Dict(
            {
                "observation": spaces.Box(-OBS_LIMIT, OBS_LIMIT, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (MENU_SIZE + 1,), np.int8),
            }
        )

    @functools.cache  # noqa: B019 - as above
    def action_space(self, agent: str) -> spaces.Discrete:
        return spaces.Discrete(MENU_SIZE + 1)

    # -- running ------------------------------------------------------------------

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        """Start a new game.

        ``seed`` is the game's seed (omitted: one more than the last game's, 0
        at first). ``options["rules"]`` overrides rule options for this game;
        other keys are ignored, as Gymnasium lets environments do.
        """
        self._seed = self._seed + 1 if seed is None else seed
        rules = dict(self.options)
        if options is not None and "rules" in options:
            given = options["rules"]
            if not isinstance(given, Mapping):
                raise ScenarioError(f"reset options: 'rules' must be a table of rule options, got {given!r}")
            rules.update(given)
        # Every side is an agent: set up with no computer players.
        self.game = set_up(self.scenario, seed=self._seed, options=rules).game
        self.agents = list(self.possible_agents)
        self._cycles = 0
        self._slots = {}
        self._refresh_menus()
        return self._observations(), self._infos({})

    def step(
        self, actions: Mapping[str, Action]
    ) -> tuple[dict[str, ObsDict], dict[str, float], dict[str, bool], dict[str, bool], dict[str, dict[str, Any]]]:
        """Give each waiting side's order; an illegal or missing one is reported in infos and changes nothing."""
        game = self._game()
        errors: dict[str, str] = {}
        for side in game.waiting_for:
            if side not in actions:
                errors[side] = "no action given while the game waits for this side"
                continue
            try:
                order = self._order_for(side, actions[side])
                game.submit(side, order)
            except (OrderSyntaxError, IllegalOrderError) as err:
                errors[side] = str(err)
        for side, action in actions.items():
            if side not in errors and side not in self._menus and not _is_pass(action):
                errors[side] = f"{side} has nothing to order now; only action 0 (pass) is legal"
        self._cycles += 1
        over = game.is_over
        truncated = not over and self.max_cycles is not None and self._cycles >= self.max_cycles
        rewards = dict.fromkeys(self.agents, 0.0)
        result = game.result
        if over and result is not None and result.winners:
            rewards = {a: (1.0 if a in result.winners else -1.0) for a in self.agents}
        self._refresh_menus()
        observations = self._observations()
        infos = self._infos(errors)
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, truncated)
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def view(self, agent: str) -> dict[str, Any]:
        """Everything ``agent``'s side may see now, as plain data."""
        return self._game().view(agent)

    def legal_orders(self, agent: str) -> list[str]:
        """The menu: action ``i`` (from 1) is ``legal_orders(agent)[i - 1]``."""
        return list(self._menus.get(agent, []))

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None

    def state(self) -> np.ndarray[Any, Any]:
        raise NotImplementedError("a global state would reveal secret plots; use each side's observation")

    # -- helpers ------------------------------------------------------------------

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() first")
        return self.game

    def _order_for(self, side: str, action: Action) -> Order | str:
        if isinstance(action, str):
            return action
        index = int(action)
        menu = self._menus[side]
        if not 1 <= index <= len(menu):
            legal = f"1-{len(menu)}" if menu else "none"
            raise IllegalOrderError(
                str(index), f"action {index} is not on {side}'s menu (legal: {legal}; see the action mask)", "menu"
            )
        return menu[index - 1]

    def _refresh_menus(self) -> None:
        game = self._game()
        self._menus = {side: self._menu(game, side) for side in game.waiting_for}

    def _menu(self, game: Game, side: str) -> list[str]:
        # Seeded by game, side and step so the same game always offers the same menu.
        rng = random.Random(f"env:{game.seed}:{side}:{len(game.history)}")
        menu: list[str] = []
        for _ in range(MENU_SIZE * 2):
            text = str(self.system.random_order(game.state, side, rng))
            if text in menu:
                continue
            try:
                game.check(side, text)
            except (OrderSyntaxError, IllegalOrderError):
                continue
            menu.append(text)
            if len(menu) == MENU_SIZE:
                break
        return menu

    def _observations(self) -> dict[str, ObsDict]:
        game = self._game()
        counters = self.system.counters(game.state)
        for counter in counters:
            if counter.id not in self._slots and len(self._slots) < SLOTS:
                self._slots[counter.id] = len(self._slots)
        clock = game.clock
        out: dict[str, ObsDict] = {}
        for side in self.agents:
            vector = np.zeros(SLOTS * SLOT_FEATURES + GLOBAL_FEATURES, np.float32)
            for counter in counters:
                slot = self._slots.get(counter.id)
                if slot is None:
                    continue
                facing = 0 if counter.facing is None else int(counter.facing) + 1
                vector[slot * SLOT_FEATURES : (slot + 1) * SLOT_FEATURES] = (
                    1.0,
                    float(counter.side == side),
                    float(counter.status == "active"),
                    counter.position.hex.col,
                    counter.position.hex.row,
                    counter.position.altitude,
                    facing,
                )
            menu = self._menus.get(side)
            vector[SLOTS * SLOT_FEATURES :] = (
                0 if clock is None else clock.turn,
                len(game.history),
                float(menu is not None),
                0 if menu is None else len(menu),
            )
            np.clip(vector, -OBS_LIMIT, OBS_LIMIT, out=vector)
            mask = np.zeros(MENU_SIZE + 1, np.int8)
            if menu is None:
                mask[0] = 1
            else:
                mask[1 : len(menu) + 1] = 1
            out[side] = {"observation": vector, "action_mask": mask}
        return out

    def _infos(self, errors: Mapping[str, str]) -> dict[str, dict[str, Any]]:
        prompt = self._game().prompt
        infos: dict[str, dict[str, Any]] = {}
        for side in self.agents:
            info: dict[str, Any] = {
                "legal_orders": list(self._menus.get(side, [])),
                "prompt": None if prompt is None else prompt.kind,
            }
            if side in errors:
                info["error"] = errors[side]
            infos[side] = info
        return infos


def _is_pass(action: Action) -> bool:
    return not isinstance(action, str) and int(action) == 0


def parallel_env(
    scenario: str | Scenario, options: Mapping[str, object] | None = None, max_cycles: int | None = None
) -> VectorwarParallelEnv:
    """PettingZoo's usual constructor name for the parallel form."""
    return VectorwarParallelEnv(scenario, options, max_cycles)


def aec_env(
    scenario: str | Scenario, options: Mapping[str, object] | None = None, max_cycles: int | None = None
) -> AECEnv[str, ObsDict, Action]:
    """The same game as an agent-environment-cycle env: sides act one after another within each step.

    Simultaneous plots stay secret this way too: the parallel env only sees the
    orders once every side has chosen.
    """
    return parallel_to_aec(VectorwarParallelEnv(scenario, options, max_cycles))


#: The old name, kept for callers of the first environment API.
VectorwarEnv = VectorwarParallelEnv
