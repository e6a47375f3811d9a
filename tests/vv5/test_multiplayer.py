"""VV5 scenario 1 for three and four players (the text's "Multi-player games").

Set-ups: three players on the left side of section F and in the far corners
of sections E and O; four players in the far corners of A, E, K and O.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import OrderSyntaxError
from vectorwar.events import GameOver
from vectorwar.game import Game
from vectorwar.hexes import Hex
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.systems.vv5.events import InitiativeWon
from vectorwar.systems.vv5.state import VV5State
from vectorwar.systems.vv5.victory import victory_points

SETUPS = {
    "vv5-dogfight-3": {"red": "F", "blue": "E", "green": "O"},
    "vv5-dogfight-4": {"red": "A", "blue": "E", "green": "K", "yellow": "O"},
}
CORNERS = {"A": (0, 0), "E": (49, 0), "K": (0, 23), "O": (49, 23)}


def _state(name: str) -> VV5State:
    game = Game.new(get_system("vv5"), builtin_scenario(name), seed=0)
    assert isinstance(game.state, VV5State)
    return game.state


@pytest.mark.parametrize("name", list(SETUPS))
def test_each_side_starts_in_its_section_with_a_harpy_and_a_dynamo(name: str) -> None:
    state = _state(name)
    assert state.sides == tuple(SETUPS[name])
    for side, section in SETUPS[name].items():
        ships = state.ships_of(side)
        assert sorted(s.design for s in ships) == ["dynamo", "harpy"]
        for ship in ships:
            placed = state.map.section_of(ship.hex)
            assert placed is not None
            assert placed.name == section
            assert ship.velocity.speed == 1
            assert ship.vector_marker == ship.hex.neighbour(ship.facing)  # moving 1 hex the way it faces


def test_three_players_left_side_of_f_and_the_far_corners_of_e_and_o() -> None:
    state = _state("vv5-dogfight-3")
    assert {s.hex.col for s in state.ships_of("red")} == {0}
    for side, corner in (("blue", "E"), ("green", "O")):
        col, row = CORNERS[corner]
        assert min(s.hex.distance(Hex.from_offset(col, row)) for s in state.ships_of(side)) == 0


def test_four_players_start_in_the_far_corners_heading_inward() -> None:
    state = _state("vv5-dogfight-4")
    middle = Hex.from_offset(25, 12)
    for side, section in SETUPS["vv5-dogfight-4"].items():
        col, row = CORNERS[section]
        ships = state.ships_of(side)
        assert min(s.hex.distance(Hex.from_offset(col, row)) for s in ships) == 0
        for ship in ships:
            assert ship.vector_marker.distance(middle) < ship.hex.distance(middle)


@pytest.mark.parametrize("name", list(SETUPS))
@pytest.mark.parametrize("bots", ["greedy", "random", "mixed"])
@pytest.mark.parametrize("seed", [0, 1])
def test_multiplayer_dogfights_play_to_the_end_with_bots(name: str, bots: str, seed: int) -> None:
    sides = list(SETUPS[name])
    controllers = {
        side: (bots if bots != "mixed" else ("greedy" if i % 2 == 0 else "random")) for i, side in enumerate(sides)
    }
    game = play_out(builtin_scenario(name), controllers, seed=seed)
    result = game.result
    state = game.state
    assert result is not None
    assert isinstance(state, VV5State)
    assert game.history[-1].clock.turn <= 15
    scores = {side: int(v) for side, v in result.scores.items()}
    assert scores == victory_points(state)
    assert set(scores) == set(sides)
    over = [e for e in game.events if isinstance(e, GameOver)]
    assert len(over) == 1
    assert "VP" in result.reason
    best = max(scores.values())
    leaders = [s for s in sides if scores[s] == best]
    if result.winners:
        (winner,) = result.winners
        assert winner in leaders
        if len(leaders) > 1:  # a level score: only the one side still holding the field wins it
            assert [s for s in leaders if state.ships_of(s)] == [winner]
    else:
        assert len(leaders) > 1
    assert len(state.sides_in_play()) <= 1 or state.turn == 15
    holders = {e.side for e in game.events if isinstance(e, InitiativeWon)}
    assert holders <= set(sides)


def test_the_declare_order_prompt_names_every_side_in_play() -> None:
    """The initiative side is asked once a turn for the order of all three or four sides."""
    for name, sides in SETUPS.items():
        game = play_out(builtin_scenario(name), dict.fromkeys(sides, "greedy"), seed=2)
        holders = [e.side for e in game.events if isinstance(e, InitiativeWon)]
        batches = [b for b in game.history if b.clock.phase == "declare-order"]
        assert batches, name
        first = next(b for b in batches)
        ((side, text),) = first.orders
        order = [part.strip() for part in text.split(",")]
        assert sorted(order) == sorted(sides)  # every side, once
        assert order[-1] == side  # the greedy holder declares last
        assert side == holders[first.clock.turn - 1]


def test_a_side_knocked_out_of_a_three_way_fight_drops_out_of_the_declare_order() -> None:
    """Only sides still in play are named; naming a side that is gone is refused."""
    state = _state("vv5-dogfight-3")
    gone = tuple(replace(s, status="destroyed") if s.side == "green" else s for s in state.ships)
    state = replace(state, ships=gone, phase="choose-order", initiative="red")
    system = get_system("vv5")
    order = system.parse_order(state, "red", "blue first")
    assert str(order) == "blue, red"
    system.check_order(state, "red", order)
    with pytest.raises(OrderSyntaxError, match="not a side in play"):
        system.parse_order(state, "red", "green first")
