"""VMS with VV5 combat: VV5's initiative orders fire, its holder picking the side that declares first
([VMS with VV5 combat: initiative](../../docs/rulings/vms.md#vms-with-vv5-combat-initiative))."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.game import Game
from vectorwar.systems.vv5.api import DeclareOrder
from vectorwar.systems.vv5.events import InitiativeWon

from .game_helpers import new_game
from .test_plugin import state_of

# Red's Hyperion and blue's face each other three hexes apart; blue's Hulk (no guns) sits out of the way.
FACING = [
    ("red", "Hyperion", "hyperion", "10,20", "A", "0"),
    ("blue", "Vesper", "hyperion", "10,17", "D", "0"),
    ("blue", "Hulk", "target", "25,3", "A", "0"),
]


def _moved(options: Mapping[str, object], seed: int = 0) -> Game:
    """Both sides drift through the first movement; the game then waits on the fire."""
    game = new_game(FACING, seed=seed, options=options)
    game.submit("red", "Hyperion drift")
    game.submit("blue", "Vesper drift; Hulk drift")
    return game


@pytest.mark.parametrize("seed", range(4))
def test_the_holder_of_vv5_initiative_picks_the_side_that_declares_first(seed: int) -> None:
    game = _moved({"combat": "vv5"}, seed)
    state = state_of(game)
    prompt = game.prompt
    assert prompt is not None
    assert prompt.kind == "fire-order"
    (holder,) = prompt.sides
    assert holder == state.initiative
    assert [e.side for e in game.events if isinstance(e, InitiativeWon)] == [holder]
    other = next(s for s in state.sides if s != holder)
    game.submit(holder, f"{other} first")
    assert state_of(game).fire_order == (other, holder)
    assert game.waiting_for == (other,)


def test_the_smaller_side_has_2_added_to_its_initiative_roll() -> None:
    # Red has one ship in play to blue's two: its die is rolled "+2, fewest ships".
    game = _moved({"combat": "vv5"})
    purposes = [e.describe() for e in game.events if e.kind == "rolled" and "initiative" in e.describe()]
    assert any("red" in p and "+2" in p for p in purposes), purposes
    assert not any("blue" in p and "+2" in p for p in purposes), purposes


def test_a_fire_order_naming_a_side_twice_or_leaving_one_out_is_refused() -> None:
    game = _moved({"combat": "vv5"})
    holder = state_of(game).initiative
    with pytest.raises(IllegalOrderError, match="list every side in play once"):
        game.submit(holder, DeclareOrder((holder,)))
    with pytest.raises(OrderSyntaxError, match="not a side in play"):
        game.submit(holder, "gold first")
    assert state_of(game).phase == "fire-order"


def test_the_roll_off_option_and_msc_combat_ask_no_one() -> None:
    for options in ({"combat": "vv5", "vv5_fire_initiative": "roll-off"}, {"combat": "msc"}):
        game = _moved(options)
        prompt = game.prompt
        assert prompt is not None
        assert prompt.kind == "fire", options
        assert state_of(game).initiative == ""
        assert not any(isinstance(e, InitiativeWon) for e in game.events)


def test_no_choice_is_asked_when_only_one_side_has_anything_to_fire() -> None:
    # Vesper turned away: only red's forward guns bear, so the order changes nothing.
    away = [FACING[0], ("blue", "Vesper", "hyperion", "10,17", "A", "0"), FACING[2]]
    game = new_game(away, options={"combat": "vv5"})
    game.submit("red", "Hyperion drift")
    game.submit("blue", "Vesper drift; Hulk drift")
    prompt = game.prompt
    assert prompt is not None
    assert prompt.kind == "fire"
    assert any(isinstance(e, InitiativeWon) for e in game.events)
