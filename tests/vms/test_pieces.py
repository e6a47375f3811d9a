"""The VMS composer's pieces: burns per thruster, the rotation, the flat turn, each a legal plot."""

from __future__ import annotations

import random

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.registry import get_system


def at_plot(scenario: str, seed: int = 5) -> Game:
    system = get_system("vms")
    game = Game.new(system, builtin_scenario(scenario), seed=seed)
    rng = random.Random(seed)
    while game.prompt is not None and game.prompt.kind != "plot":
        side = game.waiting_for[0]
        game.submit(side, system.random_order(game.state, side, rng))
    return game


def test_every_piece_is_a_legal_plot_of_its_ship_and_groups_name_the_thruster_rating() -> None:
    game = at_plot("vms-capital-duel-msc")
    assert game.prompt is not None
    for side in game.prompt.sides:
        offered = game.system.order_pieces(game.state, side)
        assert offered
        movers = list(game.system.move_options(game.state, side))
        for ship, pieces in offered.items():
            assert ship in movers
            groups = {p.group for p in pieces}
            assert "rotation" in groups
            assert any("rating" in g for g in groups)
            for piece in pieces:
                assert piece.whole
                others = "; ".join(f"{s} drift" for s in movers if s != ship)
                text = f"{ship} {piece.text}" + (f"; {others}" if others else "")
                game.check(side, text)  # raises if the rules refuse it


def test_a_burn_and_a_rotation_together_make_a_menu_plot_with_its_ghost() -> None:
    game = at_plot("vms-capital-duel-msc")
    assert game.prompt is not None
    side = game.prompt.sides[0]
    offered = game.system.order_pieces(game.state, side)
    ship, pieces = next(iter(offered.items()))
    menu = {o.text for o in game.system.move_options(game.state, side)[ship]}
    combos = [
        f"{ship} {burn.text} {turn.text}"
        for burn in pieces
        if "rating" in burn.group
        for turn in pieces
        if turn.group == "rotation"
    ]
    assert any(c in menu for c in combos)


def test_the_pieces_read_back_through_the_order_notation() -> None:
    game = at_plot("vms-fighter-screen-msc")
    assert game.prompt is not None
    for side in game.prompt.sides:
        for ship, pieces in game.system.order_pieces(game.state, side).items():
            for piece in pieces:
                order = game.system.parse_order(game.state, side, f"{ship} {piece.text}")
                assert str(order).split(" ", 1)[1] == piece.text
