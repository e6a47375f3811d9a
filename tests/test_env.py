"""The agent APIs: PettingZoo's own conformance tests on every built-in scenario, and the menu contract."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test

from vectorwar.catalogue import scenario_paths
from vectorwar.env import MENU_SIZE, VectorwarParallelEnv, aec_env
from vectorwar.registry import systems

SCENARIOS = sorted(scenario_paths())


def test_every_system_has_scenarios_under_test() -> None:
    assert {name.split("-")[0] for name in SCENARIOS} == set(systems())


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_parallel_api_conformance(scenario: str) -> None:
    parallel_api_test(VectorwarParallelEnv(scenario), num_cycles=6)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_aec_api_conformance(scenario: str) -> None:
    api_test(aec_env(scenario), num_cycles=6)


def play_by_masks(env: VectorwarParallelEnv, seed: int) -> tuple[int, dict[str, float], list[tuple[str, ...]]]:
    """Random legal actions chosen from the masks until the game ends; returns steps, last rewards, orders."""
    obs, _ = env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    rewards: dict[str, float] = {}
    while env.agents:
        actions = {a: rng.choice(np.flatnonzero(obs[a]["action_mask"]).tolist()) for a in env.agents}
        obs, rewards, _, _, infos = env.step(actions)
        assert all("error" not in i for i in infos.values()), infos
        steps += 1
    assert env.game is not None
    return steps, rewards, [tuple(o for _, o in batch.orders) for batch in env.game.history]


@pytest.mark.parametrize("scenario", ["msc-fleet", "vv5-stasis-pod-4", "vms-capital-duel-msc", "avt-duel-wasp"])
def test_masked_random_agents_play_a_game_to_the_end(scenario: str) -> None:
    env = VectorwarParallelEnv(scenario)
    steps, rewards, _ = play_by_masks(env, 8)
    assert steps > 1
    assert env.game is not None
    result = env.game.result
    assert result is not None
    assert env.agents == []
    # Winners +1 and everyone else -1 once decided; all 0 for a draw.
    assert rewards == {
        a: (1.0 if a in result.winners else -1.0 if result.winners else 0.0) for a in env.possible_agents
    }


def test_same_seed_and_actions_give_the_same_game() -> None:
    first = play_by_masks(VectorwarParallelEnv("vv5-dogfight"), 4)
    again = play_by_masks(VectorwarParallelEnv("vv5-dogfight"), 4)
    assert first == again


def test_menu_entries_are_distinct_legal_orders_and_the_mask_matches() -> None:
    env = VectorwarParallelEnv("msc-fleet")
    obs, infos = env.reset(seed=2)
    menu = infos["red"]["legal_orders"]
    assert 1 < len(menu) <= MENU_SIZE
    assert len(set(menu)) == len(menu)
    assert env.game is not None
    for text in menu:
        env.game.check("red", text)
    mask = obs["red"]["action_mask"]
    assert mask[0] == 0
    assert mask.sum() == len(menu)


def test_a_side_not_asked_passes_and_anything_else_is_reported() -> None:
    env = VectorwarParallelEnv("vms-capital-duel-msc")
    obs, _ = env.reset(seed=1)
    # VMS plots movement together, then declares fire one side at a time.
    for _ in range(100):
        assert env.game is not None
        assert not env.game.is_over
        if len(env.game.waiting_for) == 1:
            break
        obs, *_ = env.step({a: 1 if a in env.game.waiting_for else 0 for a in env.agents})
    assert env.game is not None
    idle = next(a for a in env.agents if a not in env.game.waiting_for)
    assert obs[idle]["action_mask"].tolist() == [1] + [0] * MENU_SIZE
    before = len(env.game.history)
    acting = env.game.waiting_for[0]
    _, _, _, _, infos = env.step({acting: 0, idle: 1})
    assert "not on" in infos[acting]["error"]
    assert "only action 0" in infos[idle]["error"]
    assert len(env.game.history) == before


def test_illegal_text_orders_are_reported_not_applied() -> None:
    env = VectorwarParallelEnv("msc-duel")
    env.reset(seed=1)
    _, _, _, _, infos = env.step({"red": "Hawk LL", "blue": 1})
    assert "no two turns" in infos["red"]["error"] or "turn twice" in infos["red"]["error"]
    assert env.game is not None
    assert env.game.pending.keys() == {"blue"}
    assert env.agents == ["red", "blue"]


def test_reset_takes_rule_options_and_max_cycles_truncates() -> None:
    env = VectorwarParallelEnv("vv5-dogfight", max_cycles=2)
    env.reset(seed=0, options={"rules": {"honour_rule": True}})
    assert env.game is not None
    assert env.game.options["honour_rule"] is True
    truncations: dict[str, bool] = {}
    for _ in range(2):
        _, _, _, truncations, _ = env.step(dict.fromkeys(env.agents, 1))
    assert truncations == {"red": True, "blue": True}
    assert env.agents == []
