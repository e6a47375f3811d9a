"""AV:T ``fire_options``: each laser shot a ship may order this segment, as a ``fire LASER>TARGET`` piece.

The sample games are played by the random bot, in 3-D and with the 2-D
option; at every orders prompt the offers are checked against the kernel's
own order check both ways (each offered piece is accepted, alone, with the
ship's other offered pieces and after a movement entry; every laser at every
ship is accepted only if offered) and against the geometry (range, arc).
"""

from __future__ import annotations

import pytest

from tests.support.orders import accepted
from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import OrderSyntaxError
from vectorwar.game import Game
from vectorwar.play import bot_rng, make_bots
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.fire import arc_windows, laser_targets, marker_between, targets_by_laser
from vectorwar.systems.avt.lasers import max_range
from vectorwar.systems.avt.state import AVTState

from .helpers import AVT, play_checking_offers

GAMES = [
    ("avt-drift", True),
    ("avt-pivot-thrust", True),
    ("avt-pitch-and-climb", True),
    ("avt-drift", False),
    ("avt-pivot-thrust", False),
]


def check_offers(game: Game, side: str) -> int:
    state = game.state
    if not isinstance(state, AVTState):
        raise TypeError("an AV:T game expected")
    options = AVT.fire_options(state, side)
    moves = AVT.move_options(state, side) if options else {}
    for ship_id, shots in options.items():
        ship = state.ship(ship_id)
        design = state.designs[ship.design]
        assert (ship.side, ship.active, ship.kind) == (side, True, "ship")
        arcs = AVT.arc_hexes(state, ship_id)
        for shot in shots:
            target = state.ship(shot.target)
            assert target.id != ship_id
            assert target.side != side
            assert target.active
            spec = design.mounts[shot.weapon]
            marker = marker_between(state, ship, target)
            assert marker.range <= max_range(spec.weapon)
            assert ship.position.hex.distance(target.position.hex) <= max_range(spec.weapon)
            assert any(w in {str(a) for a in design.arcs[shot.weapon]} for w in arc_windows(state, ship, marker))
            if target.position.altitude == ship.position.altitude:
                # arc_hexes shades the ship's own level, so only there can the two be compared hex for hex.
                assert target.position.hex in arcs[shot.weapon], f"{ship_id} {shot.piece}"
            assert accepted(game, side, f"{ship_id} {shot.piece}"), f"{ship_id} {shot.piece}"
        # One shot per laser, as the UI appends pieces, while the batteries can pay for them.
        pieces: dict[str, str] = {}
        power = 0
        for shot in shots:
            laser = shot.piece.split()[1].split(">")[0]
            cost = design.mounts[shot.weapon].power
            if laser not in pieces and power + cost <= ship.battery:
                pieces[laser] = shot.piece
                power += cost
        together = " ".join(pieces.values())
        assert accepted(game, side, f"{ship_id} {together}"), together
        # The order needs no movement entry, but shots may follow one as another action (after the hold).
        for move in moves[ship_id][1:2]:
            assert accepted(game, side, f"{move.text}, {together}"), f"{move.text}, {together}"
    # Complete as well as legal: every laser at every ship is accepted only if offered.
    for ship in state.ships_of(side):
        if ship.kind != "ship":
            continue
        offered = {s.piece for s in options.get(ship.id, ())}
        design = state.designs[ship.design]
        # The menu's targets for all the lasers at once are each laser's own.
        assert targets_by_laser(state, design, ship) == {
            laser: laser_targets(state, design, ship, laser) for laser in design.lasers
        }
        for laser in state.designs[ship.design].lasers:
            for other in state.ships:
                piece = f"fire {laser}>{other.id}"
                assert accepted(game, side, f"{ship.id} {piece}") == (piece in offered), f"{ship.id} {piece}"
    return sum(len(shots) for shots in options.values())


@pytest.mark.parametrize(("scenario", "three_d"), GAMES)
def test_every_offered_shot_is_accepted_and_every_legal_shot_offered(scenario: str, three_d: bool) -> None:
    offered = play_checking_offers(scenario, three_d, 3, AVT.fire_options, check_offers)
    assert offered, "no shot was ever offered"


def test_the_random_bot_fires_only_offered_shots() -> None:
    """The bot and the front end read one enumeration of legal shots (segment.laser_targets)."""
    fired = 0
    for seed in range(4):
        game = Game.new(AVT, builtin_scenario("avt-drift"), seed)
        bot = make_bots(AVT, {"blue": "random"})["blue"]
        while not game.is_over:
            offers = {(ship, s.piece) for ship, shots in AVT.fire_options(game.state, "blue").items() for s in shots}
            order = bot.choose(game.state, "blue", bot_rng(seed, "blue", len(game.history)))
            for entry in str(order).split(";"):
                ship, _, actions = entry.strip().partition(" ")
                for action in actions.split(", "):
                    if action.startswith("fire "):
                        shots = {(ship, f"fire {s}") for s in action.split()[1:]}
                        assert shots <= offers, entry
                        fired += len(shots)
            game.submit("blue", order)
    assert fired


def test_several_shots_may_each_carry_the_word_fire() -> None:
    state = Game.new(AVT, builtin_scenario("avt-drift"), 1).state
    order = AVT.parse_order(state, "blue", "Rafik thrust 2, fire A1>Square fire A2>Triangle")
    assert str(order) == "Rafik thrust 2, fire A1>Square A2>Triangle"
    with pytest.raises(OrderSyntaxError, match="LASER>TARGET"):
        AVT.parse_order(state, "blue", "Rafik fire fire")


def test_fire_options_kept_for_a_state_are_that_states_and_lists_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """The options are kept by the state's identity (a scene asks them for its menus and its news): asked again of
    the same state they are what working them out gives, whatever a caller did to the lists handed out before, and
    a state the table no longer holds, or an equal copy, is worked out again."""
    from vectorwar.systems.avt import display

    state = Game.new(AVT, builtin_scenario("avt-drift"), 1).state
    fresh = display._fire_options(state, "blue")
    assert fresh, "the drift starts with shots to offer"
    first = display.fire_options(state, "blue")
    assert first == fresh
    for shots in first.values():
        shots.clear()
    with monkeypatch.context() as patched:  # the same state: looked up, nothing worked out
        patched.setattr(display, "_fire_options", lambda *_: pytest.fail("worked out again"))
        assert display.fire_options(state, "blue") == fresh
    copy = replace_fields(state)
    assert display.fire_options(copy, "blue") == fresh
    assert display.fire_options(copy, "red") == display._fire_options(copy, "red")
    for segment in range(display._FIRE_KEPT + 1):  # more states than the table holds: it starts again
        display.fire_options(replace_fields(state, segment=segment + 1), "blue")
    assert len(display._FIRE) <= display._FIRE_KEPT
