"""VMS's order kinds as objects (systems/vms/kinds.py): one kind of decision answered in one place."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.msc.test_kinds import MOST_PHASE_TESTS, phase_tests
from tests.support.kinds import play_checking_kinds
from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.systems.vms import kinds
from vectorwar.systems.vms.movement import Plot
from vectorwar.systems.vms.orders import MovePlot
from vectorwar.systems.vms.state import VMSState
from vectorwar.web import rulebook

from .game_helpers import DESIGNS, VMS, new_game

SRC = Path(__file__).resolve().parents[2] / "src" / "vectorwar"
DOCS = SRC.parents[1] / "docs" / "rules"

#: A fighter whose +20 initiative always gives its owner a choice, close enough to a gunship to fight.
EAGER = {**DESIGNS, "fighter": {**DESIGNS["fighter"], "initiative": 20}}
SHIPS = [("red", "Fury", "fighter", "10,14", "A", "0"), ("blue", "Kite", "hyperion", "10,10", "D", "0")]


def test_vms_rules_test_the_phase_at_most_three_times() -> None:
    found = phase_tests((SRC / "systems" / "vms" / "rules.py").read_text(encoding="utf-8"))
    assert len(found) <= MOST_PHASE_TESTS, f"systems/vms/rules.py tests the phase on lines {found}: ask kinds.due"


def test_every_phase_with_orders_is_answered_by_the_kind_of_its_name() -> None:
    ordered = [p for p in VMS.manifest.phases if p.orders]
    assert [p.orders for p in ordered] == list(kinds.KINDS)
    # kinds.due looks the kind up by the state's phase, so a phase with orders is named for its kind.
    assert all(p.name == p.orders for p in ordered)
    assert {p.name: p.simultaneous for p in ordered} == {
        "initiative": True,
        "plot": True,
        "fire-order": False,
        "fire": False,
    }


@pytest.mark.parametrize("combat", ["msc", "vv5"])
def test_each_prompt_names_the_kind_that_answers_it(combat: str) -> None:
    game = new_game(SHIPS, seed=3, designs=EAGER, options={"combat": combat}, max_turns=3)
    rng = random.Random(3)
    greedy = VMS.bots()["greedy"]()
    seen = {kind.name for kind, _ in play_checking_kinds(game, kinds.due, greedy, rng)}
    # Only VV5 combat gives a side the fire initiative to pick who declares first.
    assert seen == set(kinds.KINDS) - ({"fire-order"} if combat == "msc" else set())
    state = game.state
    assert isinstance(state, VMSState)
    assert kinds.due(state) is None
    assert VMS.prompt(state) is None
    with pytest.raises(IllegalOrderError, match="the game is over"):
        VMS.random_order(state, "red", rng)
    with pytest.raises(IllegalOrderError, match="the game is over"):
        VMS.check_order(state, "red", MovePlot(()))
    with pytest.raises(OrderSyntaxError, match="the game is over"):
        VMS.parse_order(state, "red", "Fury drift")
    assert VMS.resolve(state, {}, Dice(3)) == (state, [])
    assert VMS.resolve_in_prospect(state, {}, Dice(3)) is None
    assert VMS.fire_in_prospect(state) == dict.fromkeys(state.sides, 0.0)
    assert not VMS.move_options(state, "red")
    assert not VMS.order_pieces(state, "red")
    assert not VMS.fire_options(state, "red")


@pytest.mark.parametrize("name", list(kinds.KINDS))
def test_each_kind_names_rule_rows_that_exist(name: str) -> None:
    kind = kinds.KINDS[name]
    assert kind.rules
    for row in kind.rules:
        document = (DOCS / f"{row.page}.md").read_text(encoding="utf-8")
        assert f"\n| {row.row} |" in document, row


def test_the_prompts_link_the_kinds_rows() -> None:
    def linked(phase: str) -> list[str]:
        return [link["label"] for link in rulebook.prompt_links("vms", phase) if link["label"] != "rulings"]

    assert linked("turn 1, initiative") == [r.row for r in kinds.INITIATIVE.rules]
    assert linked("turn 1, plot") == [r.row for r in kinds.PLOT.rules]
    assert linked("turn 1, combat, player 1") == ["7.0 To-Hit Roll", "7.0 Damage"]


def test_menus_come_from_the_kind_due_and_are_empty_for_the_others() -> None:
    game = new_game(SHIPS, designs=EAGER)
    state = game.state
    assert isinstance(state, VMSState)
    assert state.phase == "initiative"
    assert not VMS.move_options(state, "red")
    assert not VMS.order_pieces(state, "red")
    assert not VMS.fire_options(state, "red")
    assert VMS.resolve_in_prospect(state, {}, Dice(0)) is None
    game.submit("red", "Fury fighters")
    state = game.state
    assert isinstance(state, VMSState)
    movers = {s.id for s in state.movers("blue")}
    assert set(VMS.move_options(state, "blue")) == movers == set(kinds.PLOT.order_pieces(state, "blue"))
    assert not kinds.INITIATIVE.order_pieces(state, "blue")
    assert not kinds.FIRE.move_options(state, "blue")
    assert kinds.PLOT.fire_in_prospect(state) == dict.fromkeys(state.sides, 0.0)


def test_a_plot_naming_a_ship_twice_or_leaving_one_out_is_refused_in_its_own_words() -> None:
    """The plot check writes the order out only to refuse it: the refusal still quotes the whole order."""
    game = new_game(SHIPS, seed=3, options={"combat": "msc"}, max_turns=3)
    while game.state.phase != "plot":
        for side in game.waiting_for:
            game.submit(side, VMS.random_order(game.state, side, random.Random(1)))
    state = game.state
    assert isinstance(state, VMSState)
    side = next(s for s in ("red", "blue") if state.movers(s))
    mover = state.movers(side)[0].id
    twice = MovePlot(((mover, Plot()), (mover, Plot(rotation=1))))
    with pytest.raises(IllegalOrderError, match=f"{mover} is named twice") as refused:
        VMS.check_order(state, side, twice)
    assert refused.value.order == str(twice)
    short = MovePlot(())
    with pytest.raises(IllegalOrderError, match=f"nothing for {mover}") as refused:
        VMS.check_order(state, side, short)
    assert refused.value.order == str(short)
