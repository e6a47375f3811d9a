"""The environment API that outside tools drive."""

from __future__ import annotations

import random

from vectorwar.env import VectorwarEnv
from vectorwar.registry import get_system


def test_random_agents_play_a_game_to_the_end_through_the_env() -> None:
    env = VectorwarEnv("msc-duel")
    env.reset(seed=8)
    system = get_system("msc")
    rng = random.Random(0)
    steps = 0
    rewards: dict[str, float] = {}
    terminations = {"red": False}
    while env.agents:
        assert env.game is not None
        actions = {a: str(system.random_order(env.game.state, a, rng)) for a in env.agents}
        _, rewards, terminations, _, infos = env.step(actions)
        assert all("error" not in i for i in infos.values())
        steps += 1
    assert terminations["red"]
    assert steps > 1
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_illegal_orders_are_reported_not_applied() -> None:
    env = VectorwarEnv("msc-duel")
    env.reset(seed=1)
    _, _, _, _, infos = env.step({"red": "Hawk LL"})
    assert "no two turns" in infos["red"]["error"] or "turn twice" in infos["red"]["error"]
    assert env.agents == ["red", "blue"]
