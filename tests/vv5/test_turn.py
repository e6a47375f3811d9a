"""VV5 Sequence of Play and Initiative."""

from __future__ import annotations

from dataclasses import replace

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.events import Event, Rolled
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.systems.vv5.events import InitiativeWon
from vectorwar.systems.vv5.initiative import roll_initiative
from vectorwar.systems.vv5.orders import DeclareOrder, Gunfire, Launch, Launches, Plot, Shot
from vectorwar.systems.vv5.rules import VectorV5

from .conftest import GUNSHIP, LoadedDice, make_ship, make_state


def test_the_side_with_fewest_ships_gets_plus_two() -> None:
    state = make_state(make_ship("X1", "red"), make_ship("X2", "red", at="1,1"), make_ship("Y1", "blue", at="5,5"))
    events: list[Event] = []
    holder, kept = roll_initiative(state, LoadedDice(5, 4), events)
    assert (holder, kept) == ("blue", False)  # 5 against 4 + 2
    rolls = [e for e in events if isinstance(e, Rolled)]
    assert "+2, fewest ships" in rolls[1].purpose


def test_a_tie_keeps_last_turns_holder() -> None:
    state = make_state(make_ship("X1", "red"), make_ship("Y1", "blue", at="5,5"), initiative="blue")
    assert roll_initiative(state, LoadedDice(3, 3), []) == ("blue", True)


def test_on_turn_one_a_tie_is_rolled_again() -> None:
    state = make_state(make_ship("X1", "red"), make_ship("Y1", "blue", at="5,5"))
    assert roll_initiative(state, LoadedDice(3, 3, 2, 6), []) == ("blue", False)


def test_declare_order_notation() -> None:
    assert DeclareOrder.parse("blue first", ("red", "blue")) == DeclareOrder(("blue", "red"))
    assert str(DeclareOrder(("blue", "red"))) == "blue, red"
    with pytest.raises(OrderSyntaxError, match="not a side in play"):
        DeclareOrder.parse("green", ("red", "blue"))


def test_a_turn_runs_in_the_texts_order() -> None:
    """Initiative, declaration order, missiles, guns, gun damage, plot, move, missiles resolve."""
    system = get_system("vv5")
    assert isinstance(system, VectorV5)
    x = make_ship("X1", "red", at="10,10", facing="A", design=system.designs()["harpy"])
    y = make_ship("Y1", "blue", at="10,6", facing="D", design=GUNSHIP)
    state = make_state(x, y, phase="choose-order", initiative="red")
    prompt = system.prompt(state)
    assert prompt is not None
    assert (prompt.kind, prompt.sides) == ("declare-order", ("red",))
    state, _ = system.resolve(state, {"red": DeclareOrder(("blue", "red"))}, LoadedDice())
    assert state.phase == "missiles"
    assert state.declare_order == ("blue", "red")
    # blue (a gunship) has no missiles, so red is asked first for launches.
    prompt = system.prompt(state)
    assert prompt is not None
    assert (prompt.kind, prompt.sides) == ("missiles", ("red",))
    state, _ = system.resolve(state, {"red": system.parse_order(state, "red", "X1 1>Y1")}, LoadedDice())
    assert state.phase == "guns"
    assert len(state.incoming) == 1
    prompt = system.prompt(state)
    assert prompt is not None
    assert prompt.sides == ("blue",)


def test_a_side_cannot_order_out_of_turn_and_the_state_is_untouched() -> None:
    game = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), seed=4)
    before = game.system.state_to_data(game.state)
    waiting = game.waiting_for
    with pytest.raises(IllegalOrderError):
        game.submit(waiting[0], "X1 LLLLLL; X2 0" if waiting[0] == "red" else "Y1 LLLLLL; Y2 0")
    assert game.system.state_to_data(game.state) == before


def test_an_order_object_may_name_only_the_sides_own_ships_and_the_state_is_untouched() -> None:
    # Text is checked by the parser ("no ship of yours"); an order object handed to submit is checked here.
    game = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), seed=4)
    side = game.waiting_for[0]
    other = next(s for s in game.state.sides if s != side)
    mine = [s.id for s in game.state.ships_of(side)]
    theirs = game.state.ships_of(other)[0].id
    before = game.system.state_to_data(game.state)
    plot = game.system.parse_order(game.state, side, "; ".join(f"{ship} 0" for ship in mine))
    assert isinstance(plot, Plot)
    stolen = Plot(((theirs, plot.moves[0][1]), *plot.moves[1:]))
    with pytest.raises(IllegalOrderError, match=f"{theirs} is not a ship of {side}'s"):
        game.submit(side, stolen)
    with pytest.raises(IllegalOrderError, match="there is no ship called 'Z9'"):
        game.submit(side, Plot((*plot.moves, ("Z9", plot.moves[0][1]))))
    assert game.system.state_to_data(game.state) == before
    assert game.pending == {}
    system, state = game.system, game.state
    for order in (Launches((Launch(theirs, 1, mine[0]),)), Gunfire((Shot(theirs, "turret360", 1, mine[0]),))):
        phase = "missiles" if isinstance(order, Launches) else "guns"
        with pytest.raises(IllegalOrderError, match=f"{theirs} is not a ship of {side}'s"):
            system.check_order(replace(state, phase=phase), side, order)


def test_the_dogfight_plays_to_its_end_with_victory_points() -> None:
    from vectorwar.play import play_out

    game = play_out(builtin_scenario("vv5-dogfight"), {"red": "greedy", "blue": "greedy"}, seed=11)
    result = game.result
    assert result is not None
    assert set(result.scores) == {"red", "blue"}
    assert "VP" in result.reason
    assert game.history[-1].clock.turn <= 15
    assert any(isinstance(e, InitiativeWon) for e in game.events)


def test_turn_limit_ends_the_game() -> None:
    state = make_state(make_ship("X1", "red"), make_ship("Y1", "blue", at="5,5"), max_turns=1)
    system = get_system("vv5")
    plots = {
        "red": system.parse_order(state, "red", "X1 0"),
        "blue": system.parse_order(state, "blue", "Y1 0"),
    }
    after, _ = system.resolve(state, plots, LoadedDice())
    assert after.phase == "over"
    assert "turn limit 1" in after.end_reason
