"""AV:T ``order_pieces``: the other actions a ship may add to its entry, each legal on its own.

The sample games are played by the random bot, in 3-D and with the 2-D
option; at every orders prompt the offers are checked against the kernel's
own order check both ways: every offered piece is accepted alone (and after a
move option, joined with spaces as a front end joins them), and every pivot
and roll the check accepts alone is offered.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from tests.support.orders import accepted
from vectorwar.catalogue import builtin_scenario
from vectorwar.display import OrderPiece
from vectorwar.game import Game
from vectorwar.hexes import Direction
from vectorwar.registry import get_system
from vectorwar.scene import build_scene
from vectorwar.systems.avt.avid import ALL_WINDOWS
from vectorwar.systems.avt.orders import SegmentOrders
from vectorwar.systems.avt.pieces import candidates
from vectorwar.systems.avt.state import AVTState

from .helpers import AVT, play_checking_offers, rafik_game, with_ship

GROUPS = ("bias", "pivot", "roll", "repair", "electronics", "reactors", "radiators")
GAMES = [
    ("avt-drift", True),
    ("avt-pivot-thrust", True),
    ("avt-pitch-and-climb", True),
    ("avt-drift", False),
]


def texts(pieces: Mapping[str, Sequence[OrderPiece]], ship: str, group: str | None = None) -> list[str]:
    return [p.text for p in pieces.get(ship, ()) if group is None or p.group == group]


def check_offers(game: Game, side: str) -> int:
    state = game.state
    assert isinstance(state, AVTState)
    offers = AVT.order_pieces(state, side)
    moves = AVT.move_options(state, side)
    for ship_id, pieces in offers.items():
        ship = state.ship(ship_id)
        assert (ship.side, ship.active, ship.kind) == (side, True, "ship")
        groups = [p.group for p in pieces]
        # Groups come together, in a fixed order.
        assert groups == sorted(groups, key=GROUPS.index)
        assert len({p.text for p in pieces}) == len(pieces)
        for piece in pieces:
            assert piece.text.split()[0] == piece.group
            assert accepted(game, side, f"{ship_id} {piece.text}"), f"{ship_id} {piece.text}"
        # A front end's composition: the move option's body, then a piece, separated by spaces.
        thrust = moves[ship_id][-1].text
        for piece in pieces[:: max(1, len(pieces) // 7)]:
            assert accepted(game, side, f"{thrust} {piece.text}"), f"{thrust} {piece.text}"
        # Complete: every pivot and roll the check accepts alone is offered.
        offered = {p.text for p in pieces}
        for window in ALL_WINDOWS:
            text = f"pivot {window}"
            assert accepted(game, side, f"{ship_id} {text}") == (text in offered), f"{ship_id} {text}"
        for wing in ("stbd", "port"):
            for n in range(1, 9):
                text = f"roll {wing} {n}"
                assert accepted(game, side, f"{ship_id} {text}") == (text in offered), f"{ship_id} {text}"
        for d in Direction:
            assert (f"bias {d}" in offered) == (d != ship.bias)
        # A piece that carries its entry (checked as it stands, not read back) carries what its text reads as.
        for piece, entry in candidates(state, ship):
            if entry is not None:
                assert AVT.parse_order(state, side, f"{ship_id} {piece.text}") == SegmentOrders((entry,)), piece.text
    return sum(len(p) for p in offers.values())


@pytest.mark.parametrize(("scenario", "three_d"), GAMES)
def test_every_offered_piece_is_accepted_alone_and_every_legal_pivot_and_roll_offered(
    scenario: str, three_d: bool
) -> None:
    offered = play_checking_offers(scenario, three_d, 2, AVT.order_pieces, check_offers)
    assert offered


def test_pieces_at_the_start_of_sample_game_one() -> None:
    game = Game.new(AVT, builtin_scenario("avt-drift"), 1)
    pieces = AVT.order_pieces(game.state, "blue")
    assert list(pieces) == ["Rafik"]
    assert texts(pieces, "Rafik", "bias") == [f"bias {d}" for d in "ABCDEF"]
    pivots = texts(pieces, "Rafik", "pivot")
    assert "pivot A" not in pivots  # the nose is already there
    assert pivots[:3] == ["pivot A/B", "pivot B", "pivot B/C"]
    assert {"pivot B/C", "pivot C+", "pivot up", "pivot down"} <= set(pivots)
    assert texts(pieces, "Rafik", "roll") == [f"roll {s} {n}" for s in ("stbd", "port") for n in range(1, 7)]
    assert texts(pieces, "Rafik", "reactors") == ["reactors off"]
    assert texts(pieces, "Rafik", "radiators") == ["radiators out"]
    assert AVT.order_pieces(game.state, "chocolates") == {}  # targets take no orders


def test_no_facing_change_is_offered_while_one_is_under_way() -> None:
    game = rafik_game()
    game.submit("blue", "Rafik pivot D")
    pieces = AVT.order_pieces(game.state, "blue")
    assert texts(pieces, "Rafik", "pivot") == texts(pieces, "Rafik", "roll") == []
    assert texts(pieces, "Rafik", "bias")


def test_the_2d_option_offers_amber_pivots_and_no_rolls() -> None:
    game = rafik_game(options={"three_d": False})
    pieces = AVT.order_pieces(game.state, "blue")
    assert texts(pieces, "Rafik", "roll") == []
    assert texts(pieces, "Rafik", "pivot") == [f"pivot {w}" for w in ("A/B", "B", "B/C", "C", "C/D", "D")] + [
        f"pivot {w}" for w in ("D/E", "E", "E/F", "F", "F/A")
    ]


def test_reactor_and_radiator_pieces_offer_the_change_from_what_comes_next() -> None:
    game = rafik_game()
    game.submit("blue", "Rafik reactors off, radiators out")
    pieces = AVT.order_pieces(game.state, "blue")
    # Ordered for the turn's end: the piece offered takes the order back.
    assert texts(pieces, "Rafik", "reactors") == ["reactors on"]
    assert texts(pieces, "Rafik", "radiators") == ["radiators in"]
    with_ship(game, "Rafik", radiators="extending", radiators_next=None)
    assert texts(AVT.order_pieces(game.state, "blue"), "Rafik", "radiators") == []
    with_ship(game, "Rafik", radiators="out", reactors_on=False, reactors_next=None)
    pieces = AVT.order_pieces(game.state, "blue")
    assert texts(pieces, "Rafik", "radiators") == ["radiators in"]
    assert texts(pieces, "Rafik", "reactors") == ["reactors on"]


def test_a_destroyed_ship_is_offered_nothing() -> None:
    game = rafik_game()
    with_ship(game, "Rafik", status="destroyed")
    assert AVT.order_pieces(game.state, "blue") == {}


# VMS offers pieces too, but whole-plot ones for its composer (tests/vms/test_pieces.py).
@pytest.mark.parametrize("scenario", ["msc-duel", "vv5-dogfight"])
def test_other_systems_offer_no_pieces(scenario: str) -> None:
    found = builtin_scenario(scenario)
    game = Game.new(get_system(found.system), found, 1)
    for side in game.waiting_for:
        assert game.system.order_pieces(game.state, side) == {}
    assert build_scene(game, list(game.waiting_for))["order_pieces"] == {}


def test_the_scene_carries_pieces_for_the_acting_sides_only() -> None:
    game = Game.new(AVT, builtin_scenario("avt-drift"), 1)
    scene = build_scene(game, ["blue"])
    assert scene["order_pieces"]["Rafik"][0] == {"group": "bias", "text": "bias A"}
    assert {"group": "pivot", "text": "pivot B/C"} in scene["order_pieces"]["Rafik"]
    assert build_scene(game, ["chocolates"])["order_pieces"] == {}
    assert build_scene(game, [])["order_pieces"] == {}


def test_repair_and_electronics_pieces_follow_the_damage_and_the_defenders_choice() -> None:
    game = Game.new(AVT, builtin_scenario("avt-duel-rafik"), 1)
    assert texts(AVT.order_pieces(game.state, "blue"), "Rafik", "repair") == []
    assert texts(AVT.order_pieces(game.state, "blue"), "Rafik", "electronics") == [
        "electronics sensors",
        "electronics fire control",
        "electronics communications",
        "electronics navigation",
    ]
    with_ship(game, "Rafik", marks=(("laser A1", 1), ("reactors", 1)), electronics_order=("sensors",))
    pieces = AVT.order_pieces(game.state, "blue")
    assert texts(pieces, "Rafik", "repair") == ["repair A1", "repair reactors"]
    assert "electronics sensors" not in texts(pieces, "Rafik", "electronics")
