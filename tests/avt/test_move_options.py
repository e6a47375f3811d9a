"""What AV:T gives a front end: counters with vectors and altitude, and move options with their paths."""

from __future__ import annotations

import pytest

from vectorwar.errors import OrderSyntaxError
from vectorwar.game import Game
from vectorwar.hexes import Direction, Position
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.state import AVTState

from .helpers import AVT, make_scenario, rafik_game, with_ship


def finish_turn(game: Game, first: str) -> None:
    state: AVTState = game.state
    game.submit("blue", first)
    for _ in range(state.segment + 1, 9):
        game.submit("blue", "hold")


def test_avt_counters_carry_vectors_as_players_write_them_and_altitude() -> None:
    game = rafik_game(velocity="A=2, B=4, up=1")
    with_ship(game, "Rafik", position=Position(game.state.ship("Rafik").position.hex, 3))
    rafik, far = AVT.counters(game.state)
    assert rafik.velocity == "2 A, 4 B, 1 up"
    assert rafik.position.altitude == 3
    assert rafik.markers == ()
    assert far.velocity == ""  # a target has no vectors to show


def test_avt_move_options_are_hold_and_every_other_thrust_setting() -> None:
    game = rafik_game(velocity="A=6, B=3, up=1")
    options = AVT.move_options(game.state, "blue")
    assert list(options) == ["Rafik"]
    assert [o.text for o in options["Rafik"]] == ["Rafik hold", *(f"Rafik thrust {t}" for t in range(1, 6))]
    hold = options["Rafik"][0]
    assert len(hold.path) == 9  # where it is, then after each of the 8 segments
    assert hold.path[0] == game.state.ship("Rafik").position
    assert hold.end.altitude == 1  # 1 up a turn
    assert hold.facing is Direction.A
    assert AVT.move_options(game.state, "chocolates") == {}  # no ship to give orders to


def test_avt_move_options_offer_no_thrust_with_radiators_out_or_no_fuel() -> None:
    game = rafik_game()
    with_ship(game, "Rafik", radiators="out")
    assert [o.text for o in AVT.move_options(game.state, "blue")["Rafik"]] == ["Rafik hold"]
    with_ship(game, "Rafik", radiators="in", fuel=0)
    assert [o.text for o in AVT.move_options(game.state, "blue")["Rafik"]] == ["Rafik hold"]


@pytest.mark.parametrize("segment_orders", [(), ("Rafik thrust 3, pivot B", "hold")])
def test_avt_every_move_option_is_legal_and_its_path_ends_where_the_ship_ends(segment_orders: tuple[str, ...]) -> None:
    base = rafik_game(velocity="A=4, B=2")
    for text in segment_orders:
        base.submit("blue", text)
    state: AVTState = base.state
    options = AVT.move_options(state, "blue")["Rafik"]
    assert len(options) >= 2
    for option in options:
        order = AVT.parse_order(state, "blue", option.text)
        AVT.check_order(state, "blue", order)
        assert str(AVT.parse_order(state, "blue", str(order))) == str(order)
        game = rafik_game(velocity="A=4, B=2")
        for text in segment_orders:
            game.submit("blue", text)
        seen = [game.state.ship("Rafik").position]
        game.submit("blue", option.text)
        seen.append(game.state.ship("Rafik").position)
        while game.state.segment != 1:
            game.submit("blue", "hold")
            seen.append(game.state.ship("Rafik").position)
        assert tuple(seen) == option.path, option.text
        assert option.end == game.state.ship("Rafik").position


def test_avt_a_side_joins_ship_entries_and_a_hold_entry_reads_as_no_change() -> None:
    scenario = make_scenario(
        [
            ("blue", "Rafik", "rafik", "10,10", "A", "0", 0),
            ("blue", "Kite", "rafik", "12,10", "A", "0", 0),
            ("red", "Far", "chocolate", "0,0", "A", "0", 0),
        ]
    )
    game = Game.new(AVT, scenario, 1)
    options = AVT.move_options(game.state, "blue")
    assert set(options) == {"Rafik", "Kite"}
    text = "; ".join([options["Rafik"][0].text, options["Kite"][-1].text])
    assert text == "Rafik hold; Kite thrust 5"
    order = game.parse("blue", text)
    assert str(order) == "Kite thrust 5"
    finish_turn(game, text)
    assert game.state.ship("Kite").position == options["Kite"][-1].end
    assert game.state.ship("Rafik").position == options["Rafik"][0].end


def test_avt_a_hold_entry_stands_alone() -> None:
    game = rafik_game()
    with pytest.raises(OrderSyntaxError, match="two entries"):
        game.parse("blue", "Rafik hold; Rafik thrust 3")
    with pytest.raises(OrderSyntaxError, match="an action is"):
        game.parse("blue", "Rafik hold, thrust 3")
    assert str(game.parse("blue", "rafik HOLD")) == "hold"


def test_with_move_changes_only_the_burn_keeping_pivot_and_shots() -> None:
    # The search bot's variants of the fast bot's order: another thrust setting, the same pivot and fire.
    game = rafik_game(velocity="A=6, B=3, up=1")
    options = {o.text: o for o in AVT.move_options(game.state, "blue")["Rafik"]}
    order = AVT.parse_order(game.state, "blue", "Rafik thrust 1, pivot D, fire A1>Far")
    burned = AVT.with_move(game.state, "blue", order, "Rafik", options["Rafik thrust 2"])
    assert str(burned) == "Rafik thrust 2, pivot D, fire A1>Far"
    held = AVT.with_move(game.state, "blue", order, "Rafik", options["Rafik hold"])
    assert str(held) == "Rafik pivot D, fire A1>Far"
    from_nothing = AVT.with_move(
        game.state, "blue", AVT.parse_order(game.state, "blue", "hold"), "Rafik", options["Rafik thrust 3"]
    )
    assert str(from_nothing) == "Rafik thrust 3"


def test_avt_ships_alike_but_for_place_are_offered_the_paths_each_flies_alone() -> None:
    """A fleet in formation shares its flights (:func:`.ghosts.move_options`): each ship's options are still
    exactly the paths it flies by itself, moved to where it is."""
    from vectorwar.systems.avt import ghosts
    from vectorwar.systems.avt.display import counter_facing

    base = rafik_game(velocity="A=4, B=2")
    base.submit("blue", "Rafik thrust 3, pivot B")
    state: AVTState = base.state
    rafik = state.ship("Rafik")
    twin = replace_fields(rafik, id="Twin", name="Twin", position=Position(rafik.position.hex.shifted(3, -2), 2))
    other = replace_fields(rafik, id="Other", name="Other", position=twin.position, fuel=rafik.fuel - 1)
    fleet = replace_fields(state, ships=(*state.ships, twin, other))
    options = ghosts.move_options(fleet, "blue")
    assert list(options) == ["Rafik", "Twin", "Other"]
    for ship in (rafik, twin, other):
        alone = [ghosts.fly(fleet, ship, entry) for entry in ghosts.entries(fleet, ship)]
        assert [(o.path, o.facing) for o in options[ship.id]] == [(path, counter_facing(end)) for path, end in alone]
        assert all(o.text.startswith(f"{ship.id} ") for o in options[ship.id])
    assert options["Twin"][0].path[0] == twin.position != rafik.position


def test_avt_flights_kept_are_flown_again_for_a_changed_ship_turn_or_option() -> None:
    """Move options are kept by all a flight reads (:func:`.ghosts._kept_flights`): asked again they are the same,
    and a ship changed in anything but its place, another segment or other options fly afresh, each exactly as
    flying it alone gives."""
    from vectorwar.systems.avt import ghosts
    from vectorwar.systems.avt.display import counter_facing

    game = rafik_game(velocity="A=4, B=2")
    state: AVTState = game.state
    rafik = state.ship("Rafik")
    first = ghosts.move_options(state, "blue")
    assert ghosts.move_options(state, "blue") == first
    variants = (
        replace_fields(state, ships=(replace_fields(rafik, fuel=rafik.fuel - 3), *state.ships[1:])),
        replace_fields(state, segment=state.segment + 1),
        replace_fields(state, options={**state.options, "three_d": False}),
    )
    for changed in variants:
        ship = changed.ship("Rafik")
        alone = [ghosts.fly(changed, ship, entry) for entry in ghosts.entries(changed, ship)]
        options = ghosts.move_options(changed, "blue")["Rafik"]
        assert [(o.path, o.facing) for o in options] == [(path, counter_facing(end)) for path, end in alone]
    assert ghosts.move_options(variants[1], "blue") != first
