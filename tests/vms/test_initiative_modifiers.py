"""Scenario initiative modifiers ([[special.initiative]]): race, launched this turn, and their checks."""

from __future__ import annotations

import random
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import ScenarioError
from vectorwar.game import Game
from vectorwar.systems.vms.events import SubphaseSet
from vectorwar.systems.vms.initiative import FIGHTERS, MEDIUM
from vectorwar.systems.vms.state import VMSState

from .game_helpers import VMS, make_scenario, new_game

SHIPS = [("red", "Hyperion", "hyperion", "10,20", "A", "0"), ("blue", "Wasp", "fighter", "10,5", "D", "0")]
# Initiative Example #2: a light fighter (+4 on its sheet), +1 for its race, launched this turn (-10).
EXAMPLE_2: dict[str, Any] = {
    "initiative": [
        {"side": "blue", "modifier": 1, "reason": "race"},
        {"ships": ["Wasp"], "modifier": -10, "reason": "launched this turn", "turns": [1]},
    ]
}


def state_of(game: Game) -> VMSState:
    assert isinstance(game.state, VMSState)
    return game.state


def wasp_initiative(game: Game, turn: int) -> SubphaseSet:
    """The Wasp's initiative event of ``turn`` (events are logged in order, one TurnBegan per turn)."""
    rolls = [e for e in game.events if isinstance(e, SubphaseSet) and e.ship == "Wasp"]
    return rolls[turn - 1]


def test_initiative_example_2_played_with_scenario_modifiers() -> None:
    """Total -5 on turn 1: a roll of 5 or less forces the fighter into the medium warships' subphase."""
    forced = normal = None
    for seed in range(60):
        game = new_game(SHIPS, seed=seed, special=EXAMPLE_2)
        event = wasp_initiative(game, 1)
        assert event.total == -5
        if event.roll <= 5 and forced is None:
            forced = game
        elif event.roll > 5 and normal is None:
            normal = game
    assert forced is not None
    assert normal is not None
    state = state_of(forced)
    assert state.ship("Wasp").subphase == MEDIUM
    # No choice to make: the fighter plots with the medium warship, in the first prompt.
    assert state.phase == "plot"
    assert state.subphase == MEDIUM
    assert set(forced.waiting_for) == {"red", "blue"}
    assert state_of(normal).ship("Wasp").subphase == FIGHTERS
    card = next(c for c in VMS.ship_cards(state) if c.title.startswith("Wasp:"))
    assert dict(card.rows)["initiative"].startswith("-5 (sheet +4, race +1, launched this turn -10 (turn 1)), rolled")


def test_a_modifier_for_some_turns_ends_and_one_for_every_turn_stays() -> None:
    game = new_game(SHIPS, seed=1, special=EXAMPLE_2)
    rng = random.Random(0)
    while state_of(game).turn == 1:
        side = game.waiting_for[0]
        game.submit(side, VMS.random_order(state_of(game), side, rng))
    assert wasp_initiative(game, 2).total == 5  # launched only on turn 1; the race bonus stays
    hyperion = [e for e in game.events if isinstance(e, SubphaseSet) and e.ship == "Hyperion"]
    assert [e.total for e in hyperion] == [0, 0]  # red is not blue's race


@pytest.mark.parametrize(
    ("special", "problem"),
    [
        ({"initiative": [{"ships": ["Nobody"], "modifier": 1, "reason": "race"}]}, "no ship Nobody"),
        ({"initiative": [{"side": "green", "modifier": 1, "reason": "race"}]}, "no side 'green'"),
        ({"initiative": [{"side": "blue", "ships": ["Wasp"], "modifier": 1, "reason": "x"}]}, "either ships or side"),
        ({"initiative": [{"side": "blue", "modifier": 1}]}, "reason"),
        ({"initative": []}, "initative"),
    ],
)
def test_scenario_modifiers_are_checked(special: dict[str, Any], problem: str) -> None:
    with pytest.raises(ScenarioError, match=problem):
        Game.new(VMS, make_scenario(SHIPS, special=special), 0)


@pytest.mark.parametrize("combat", ["msc", "vv5"])
def test_the_fighter_screen_scenario_gives_its_pilots_plus_1(combat: str) -> None:
    game = Game.new(VMS, builtin_scenario(f"vms-fighter-screen-{combat}"), 0)
    totals = {e.ship: e.total for e in game.events if isinstance(e, SubphaseSet)}
    assert totals["Wasp1"] == 5  # the light fighter's +4 and the veterans' +1, as in Initiative Example #1
    assert totals["Lance"] == state_of(game).ship("Lance").spec.initiative  # red has no scenario modifier
