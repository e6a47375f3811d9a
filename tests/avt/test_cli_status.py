"""The command line's status line at an AV:T prompt (and, since the line is shared, at every system's)."""

from __future__ import annotations

import re

import pytest

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.cli.screen import status
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.systems.avt.rules import HELP

from .helpers import AVT


def test_avt_status_names_the_orders_once_and_says_they_are_secret() -> None:
    game = Game.new(AVT, builtin_scenario("avt-drift"), seed=0)
    last = status(game).plain.splitlines()[-1]
    assert last == f"orders, secret until all are in: {HELP}"


@pytest.mark.parametrize("name", sorted(scenario_paths()))
def test_no_prompt_kind_doubles_the_word_orders(name: str) -> None:
    scenario = builtin_scenario(name)
    game = Game.new(get_system(scenario.system), scenario, seed=0)
    text = status(game).plain
    assert game.prompt is not None
    assert game.prompt.kind in text
    assert not re.search(r"\border(s)?\W+orders\b", text), text
