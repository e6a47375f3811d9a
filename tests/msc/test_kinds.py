"""MSC's order kinds as objects (systems/msc/kinds.py): one kind of decision answered in one place."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest

from tests.combat.helpers import MSC_TABLE, duel
from tests.support.kinds import play_checking_kinds
from vectorwar.catalogue import builtin_scenario
from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.orderkinds import OrderKind, RuleRow, kind_table
from vectorwar.systems.msc import kinds
from vectorwar.systems.msc.orders import FireOrders
from vectorwar.systems.msc.state import MSCState
from vectorwar.systems.vms.modules import module
from vectorwar.web import rulebook

from .helpers import MSC, in_fire_phase, make_scenario

SRC = Path(__file__).resolve().parents[2] / "src" / "vectorwar"
#: How many times the system's rules.py may test the phase: the kinds answer for each phase.
MOST_PHASE_TESTS = 3


def phase_tests(source: str) -> list[int]:
    """The lines of every comparison with a ``.phase`` (``state.phase == "plot"``, ``!=``, ``in``)."""
    return sorted(
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Compare)
        and any(isinstance(side, ast.Attribute) and side.attr == "phase" for side in (node.left, *node.comparators))
    )


def test_the_phase_test_counter_sees_a_ladder() -> None:
    ladder = 'if state.phase == "plot":\n    pass\nelif "fire" != s.phase:\n    pass\nx = state.phase in ("a",)\n'
    assert phase_tests(ladder) == [1, 3, 5]
    assert phase_tests("kind = KINDS.get(state.phase)\n") == []


def test_msc_rules_test_the_phase_at_most_three_times() -> None:
    found = phase_tests((SRC / "systems" / "msc" / "rules.py").read_text(encoding="utf-8"))
    assert len(found) <= MOST_PHASE_TESTS, f"systems/msc/rules.py tests the phase on lines {found}: ask kinds.due"


def test_every_phase_with_orders_is_answered_by_the_kind_of_its_name() -> None:
    ordered = [p for p in MSC.manifest.phases if p.orders]
    assert [p.orders for p in ordered] == list(kinds.KINDS)
    # kinds.due looks the kind up by the state's phase, so a phase with orders is named for its kind.
    assert all(p.name == p.orders for p in ordered)
    assert {p.simultaneous for p in ordered if p.name in ("build", "plot")} == {True}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_each_prompt_names_the_kind_that_answers_it(seed: int) -> None:
    # msc-build asks for every kind but the deployment, which msc-deploy asks for first.
    assert play_kinds("msc-deploy", seed) == {"deploy", "plot", "fire"}
    assert play_kinds("msc-build", seed) | {"deploy"} == set(kinds.KINDS)


def play_kinds(scenario: str, seed: int) -> set[str]:
    game = Game.new(MSC, builtin_scenario(scenario), seed)
    rng = random.Random(seed)
    greedy = MSC.bots()["greedy"]()  # it closes and fires, so every kind is asked for
    seen = {kind.name for kind, _ in play_checking_kinds(game, kinds.due, greedy, rng)}
    state = game.state
    assert isinstance(state, MSCState)
    assert kinds.due(state) is None
    with pytest.raises(IllegalOrderError, match="the game is over"):
        MSC.random_order(state, "red", rng)
    with pytest.raises(IllegalOrderError, match="the game is over"):
        MSC.check_order(state, "red", FireOrders(()))
    assert MSC.resolve(state, {}, Dice(seed)) == (state, [])
    with pytest.raises(OrderSyntaxError, match="the game is over"):
        MSC.parse_order(state, "red", "hold")
    return seen


@pytest.mark.parametrize("name", list(kinds.KINDS))
def test_each_kind_names_rule_rows_of_the_msc_document_and_the_rulebook_links_them(name: str) -> None:
    kind = kinds.KINDS[name]
    document = (SRC.parents[1] / "docs" / "rules" / "msc.md").read_text(encoding="utf-8")
    assert kind.rules
    for row in kind.rules:
        assert row.page == "msc"
        assert f"\n| {row.row} |" in document, row
    phase = {"build": "build", "deploy": "deploy", "plot": "turn 1, plot", "fire": "turn 1, combat, player 1"}[name]
    links = [link for link in rulebook.prompt_links("msc", phase) if link["label"] != "rulings"]
    expected = [{"label": r.row, "href": f"/rules/{r.page}#{rulebook.row_anchor(r.row)}"} for r in kind.rules]
    assert links == expected


def test_menus_come_from_the_kind_due_and_are_empty_for_the_others() -> None:
    ships = [("red", "Hawk", "ship1", "5,10", "A", 0), ("blue", "Raven", "ship1", "5,7", "D", 0)]
    state = MSC.new_state(make_scenario(ships), {})
    assert set(MSC.move_options(state, "red")) == {"Hawk"}
    assert MSC.fire_options(state, "red") == {} == kinds.FIRE.fire_options(in_fire_phase(state), "blue")
    firing = in_fire_phase(state)
    assert MSC.move_options(firing, "red") == {}
    assert [o.piece for o in MSC.fire_options(firing, "red")["Hawk"]] == ["F>Raven"]
    assert MSC.setup_menu(state, "red") is None


# -- legality in one place: VMS's MSC combat refuses what MSC refuses, in MSC's words ---------------


@pytest.mark.parametrize("distance", [3, 7])
@pytest.mark.parametrize(
    "text",
    [
        "Hawk F>Raven",
        "Hawk F>Raven FL>Raven",
        "Hawk RL>Raven",
        "Hawk F>Raven F>Raven",
        "Raven F>Hawk",
        "Hawk F>Hawk",
        "Hawk F>Nobody",
        "hold",
    ],
)
def test_the_msc_combat_module_judges_a_declaration_as_msc_does(distance: int, text: str) -> None:
    view = duel("msc", MSC_TABLE, distance=distance)
    raven_at = str(Hex.parse("5,10").neighbour(Direction.A, distance))
    ships = [("red", "Hawk", "ship1", "5,10", "A", 0), ("blue", "Raven", "ship1", raven_at, "D", 0)]
    state = in_fire_phase(MSC.new_state(make_scenario(ships, width=12, height=14), {}))
    combat = module("msc")

    def verdict(check: object) -> str:
        try:
            if check == "msc":
                MSC.check_order(state, "red", MSC.parse_order(state, "red", text))
            else:
                combat.check_fire(view, "red", combat.parse_fire(view, "red", text))
        except (IllegalOrderError, OrderSyntaxError) as err:
            return f"{type(err).__name__}: {err}"
        return "legal"

    assert verdict("msc") == verdict("combat")
    assert [FireOrders((s,)) for s in MSC.legal_shots(state, "red")] == combat.legal_shots(view, "red")


def test_the_msc_combat_module_raises_no_refusal_of_its_own() -> None:
    tree = ast.parse((SRC / "systems" / "msc" / "module.py").read_text(encoding="utf-8"))
    raised = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "IllegalOrderError"]
    assert raised == [], "systems/msc/module.py refuses orders itself: call MSC's check (fire.py)"


# -- the kernel's protocol ------------------------------------------------------------------------


def test_a_kind_table_refuses_two_kinds_of_one_name() -> None:
    assert list(kind_table([kinds.PLOT, kinds.FIRE])) == ["plot", "fire"]
    with pytest.raises(ValueError, match="two order kinds are called 'plot'"):
        kind_table([kinds.PLOT, kinds.PlotKind()])


def test_a_kind_inherits_empty_menus_and_is_a_frozen_value() -> None:
    kind: OrderKind[MSCState] = kinds.BUILD
    ships = [("red", "Hawk", "ship1", "5,10", "A", 0), ("blue", "Raven", "ship1", "5,7", "D", 0)]
    state = MSC.new_state(make_scenario(ships), {})
    assert kind.move_options(state, "red") == {}
    assert kind.fire_options(state, "red") == {}
    assert kinds.FIRE.setup_menu(state, "red") is None
    assert kinds.PlotKind() == kinds.PLOT
    assert kinds.PLOT.rules[0] == RuleRow("msc", "6.0 SPEED")
    with pytest.raises(AttributeError):
        kinds.PLOT.name = "move"  # type: ignore[misc]
