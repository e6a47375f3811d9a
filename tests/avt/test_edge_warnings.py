"""AV:T's maps are geomorphic (docs/rulings/avt.md, *AV:T geomorphic map*): no plot is warned of the frame's edge."""

from __future__ import annotations

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.hexes import Position
from vectorwar.play import bot_order
from vectorwar.scene import build_scene
from vectorwar.systems.avt.state import AVTState
from vectorwar.vectors import Velocity

from .helpers import AVT, with_ship


@pytest.mark.parametrize("scenario", ["avt-duel-rafik", "avt-duel-wasp"])
def test_no_avt_plot_carries_an_edge_warning_even_with_ships_past_the_frame(scenario: str) -> None:
    game = Game.new(AVT, builtin_scenario(scenario), seed=3)
    bots = {side.id: AVT.bots()["random"]() for side in game.scenario.sides}
    while game.state.turn < 3:
        for side in list(game.waiting_for):
            game.submit(side, bot_order(game, side, bots[side]))
    state: AVTState = game.state
    board = game.board
    # Put every ship past the frame's left edge, flying further out fast.
    for ship in state.ships:
        outside = ship.position.hex.shifted(-(board.extent[2] - board.extent[0]) - 20, 0)
        with_ship(game, ship.id, position=Position(outside, ship.position.altitude), velocity=Velocity(-6, 0))
    state = game.state
    offered = [o for side in game.waiting_for for opts in AVT.move_options(state, side).values() for o in opts]
    assert offered
    assert all(not board.contains(p.hex) for o in offered for p in o.path)  # every plot flies past the frame
    assert [w for o in offered for w in AVT.plot_warnings(state, o, board)] == []
    scene = build_scene(game, list(game.waiting_for))
    assert [w for opts in scene["move_options"].values() for o in opts for w in o["warnings"]] == []
