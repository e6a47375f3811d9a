"""VV5's order kinds as objects (systems/vv5/kinds.py): each kind of decision answered in one place."""

from __future__ import annotations

import random
from pathlib import Path
from typing import get_args

import pytest

from tests.msc.test_kinds import MOST_PHASE_TESTS, phase_tests
from tests.support.dice import LoadedDice
from tests.support.kinds import play_checking_kinds
from vectorwar.catalogue import builtin_scenario
from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.game import Game
from vectorwar.systems.vv5 import kinds
from vectorwar.systems.vv5.orders import Gunfire, Launches, Manoeuvre, Plot
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import Phase, VV5State
from vectorwar.web import rulebook

from .test_optional_rules import ace_duel

SRC = Path(__file__).resolve().parents[2] / "src" / "vectorwar"
#: Prompts a game is played for: enough for the set-up, a fight and (in the Dogfight) the end.
MOST_PROMPTS = 40


def test_vv5_rules_test_the_phase_at_most_three_times() -> None:
    found = phase_tests((SRC / "systems" / "vv5" / "rules.py").read_text(encoding="utf-8"))
    assert len(found) <= MOST_PHASE_TESTS, f"systems/vv5/rules.py tests the phase on lines {found}: ask kinds.due"


def test_every_phase_with_orders_is_answered_by_the_kind_it_names() -> None:
    ordered = [p for p in system.manifest.phases if p.orders]
    assert [p.orders for p in ordered] == list(kinds.KINDS)
    # Every state phase but the end has its kind; only the declaration order's differs from its name.
    assert set(kinds.BY_PHASE) == set(get_args(Phase)) - {"over"}
    assert {k.name for k in kinds.BY_PHASE.values() if k.name != k.phase} == {"declare-order"}
    assert {p.name for p in ordered if p.simultaneous} == {"plot", "ace-replot"}


def _play(scenario: str, seed: int = 1) -> tuple[Game, list[tuple[str, str]]]:
    """Greedy plays ``scenario``; each prompt is checked against the kind due, and (kind, clock) kept."""
    game = Game.new(system, builtin_scenario(scenario), seed)
    rng = random.Random(seed)
    greedy = system.bots()["greedy"]()
    played = play_checking_kinds(game, kinds.due, greedy, rng, MOST_PROMPTS)
    asked = [(kind.name, clock) for kind, clock in played]
    return game, asked


@pytest.mark.parametrize(
    ("scenario", "setup"), [("vv5-dogfight-purchase", "purchase"), ("vv5-stasis-pod-place", "place")]
)
def test_each_prompt_names_the_kind_that_answers_it_and_its_rows_are_linked(scenario: str, setup: str) -> None:
    _, asked = _play(scenario)
    assert {name for name, _ in asked} == {setup, "declare-order", "missiles", "guns", "plot"}
    document = (SRC.parents[1] / "docs" / "rules" / "vv5.md").read_text(encoding="utf-8")
    for name, clock in dict(asked).items():
        labels = [link["label"] for link in rulebook.prompt_links("vv5", clock, scenario)]
        for row in kinds.KINDS[name].rules:
            assert row.page == "vv5"
            assert f"\n| {row.row} |" in document, row
            assert row.row in labels, (name, clock)


def test_the_ace_replot_kind_is_due_after_an_ace_moment() -> None:
    orders = {"red": Plot((("X1", Manoeuvre.parse("1")),)), "blue": Plot((("Y1", Manoeuvre.parse("2")),))}
    state, _ = system.resolve(ace_duel(), orders, LoadedDice(2))  # Ace(2) rolls 2: a moment
    assert kinds.due(state) is kinds.ACE_REPLOT
    prompt = system.prompt(state)
    assert prompt is not None
    assert prompt == kinds.ACE_REPLOT.prompt(state)
    assert set(system.move_options(state, "red")) == {"X1"}
    assert system.move_options(state, "blue") == {} == system.fire_options(state, "red")
    labels = [link["label"] for link in rulebook.prompt_links("vv5", str(prompt.clock))]
    assert [r.row for r in kinds.ACE_REPLOT.rules] == labels[:-1]
    with pytest.raises(IllegalOrderError, match="ace-replot orders are due now"):
        system.check_order(state, "red", Launches(()))


def test_once_over_no_kind_is_due_and_the_contract_says_so() -> None:
    game, _ = _play("vv5-dogfight-purchase")
    state = game.state
    assert isinstance(state, VV5State)
    assert state.phase == "over"
    assert kinds.due(state) is None
    assert system.prompt(state) is None
    rng = random.Random(1)
    with pytest.raises(IllegalOrderError, match="the game is over"):
        system.random_order(state, "red", rng)
    with pytest.raises(IllegalOrderError, match="the game is over"):
        system.check_order(state, "red", Gunfire(()))
    with pytest.raises(OrderSyntaxError, match="the game is over"):
        system.parse_order(state, "red", "hold")
    assert system.resolve(state, {}, Dice(1)) == (state, [])
    assert system.move_options(state, "red") == {} == system.fire_options(state, "red")
    assert system.setup_menu(state, "red") is None


def test_menus_come_from_the_kind_due() -> None:
    state = ace_duel()
    assert set(system.move_options(state, "red")) == {"X1"}
    assert system.fire_options(state, "red") == {}
    assert system.setup_menu(state, "red") is None
    assert kinds.PLOT.fire_options(state, "red") == {} == kinds.GUNS.move_options(state, "red")
    assert kinds.DECLARE_ORDER.setup_menu(state, "red") is None
    with pytest.raises(IllegalOrderError, match="plot orders are due now"):
        system.check_order(state, "red", Gunfire(()))


def test_the_kinds_are_frozen_values() -> None:
    assert kinds.PlotKind() == kinds.PLOT
    assert kinds.DECLARE_ORDER.phase == "choose-order"
    with pytest.raises(AttributeError):
        kinds.PLOT.name = "move"  # type: ignore[misc]
