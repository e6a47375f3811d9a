"""VV5 movement: plots, vector markers, the text's RR1 and gravity examples, collisions."""

from __future__ import annotations

from typing import Any

import pytest

from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.events import Event, LeftMap
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.systems.vv5.events import Collided, Crashed
from vectorwar.systems.vv5.movement import check_manoeuvre, gravity_pull, move_ships, plan
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.state import Box, Ship
from vectorwar.vectors import Velocity

from .conftest import make_ship, make_state


def test_the_rr1_example() -> None:
    """VV5 Plotting Movement: "RR1" turns right twice then moves the marker 1 hex the new way.

    The ship points up (A) and drifts 2 hexes a turn that way. Plain 1G would put the
    marker one hex further up, 2G two further; RR1 turns the nose to C and moves the
    marker one hex in C instead.
    """
    ship = make_ship(facing="A", velocity="A=2")
    start_marker = ship.vector_marker
    facing, velocity = plan(ship.facing, ship.velocity, Manoeuvre.parse("RR1"))
    assert facing is Direction.C
    assert ship.hex.shifted(velocity.dq, velocity.dr) == start_marker.neighbour(Direction.C)
    _, one_g = plan(ship.facing, ship.velocity, Manoeuvre.parse("1"))
    _, two_g = plan(ship.facing, ship.velocity, Manoeuvre.parse("2"))
    assert ship.hex.shifted(one_g.dq, one_g.dr) == start_marker.neighbour(Direction.A)
    assert ship.hex.shifted(two_g.dq, two_g.dr) == start_marker.neighbour(Direction.A, 2)


@pytest.mark.parametrize(("text", "steps"), [("RR1", ("R", "R", "1")), ("1L1", ("1", "L", "1")), ("0", ())])
def test_plot_notation_reads_and_prints(text: str, steps: tuple[str, ...]) -> None:
    move = Manoeuvre.parse(text)
    assert move.steps == steps
    assert str(move) == text
    assert Manoeuvre.parse(str(move)) == move


def test_bad_plot_text_is_refused() -> None:
    with pytest.raises(OrderSyntaxError, match="L/R"):
        Manoeuvre.parse("RX1")


def test_agility_and_acceleration_limit_the_plot() -> None:
    ship = make_ship()  # Dynamo: agility 2, acceleration 3
    check_manoeuvre(ship, Manoeuvre.parse("L2R1"))
    with pytest.raises(IllegalOrderError, match="3 rotations but Agility is 2"):
        check_manoeuvre(ship, Manoeuvre.parse("LLL"))
    with pytest.raises(IllegalOrderError, match="4G of thrust but Acceleration is 3"):
        check_manoeuvre(ship, Manoeuvre.parse("2R2"))


def test_emergency_thrusters_allow_one_turn_and_no_thrust() -> None:
    ship = make_ship()
    crippled = ship.__class__(**{**_fields(ship), "agility": Box(0, 0, 2, 0)})
    check_manoeuvre(crippled, Manoeuvre.parse("L"))
    with pytest.raises(IllegalOrderError, match="emergency thrusters"):
        check_manoeuvre(crippled, Manoeuvre.parse("L1"))
    with pytest.raises(IllegalOrderError, match="emergency thrusters"):
        check_manoeuvre(crippled, Manoeuvre.parse("LL"))
    dead = crippled.__class__(**{**_fields(crippled), "acceleration": Box(0, 0, 3, 0)})
    check_manoeuvre(dead, Manoeuvre.parse("0"))
    with pytest.raises(IllegalOrderError, match="cannot rotate"):
        check_manoeuvre(dead, Manoeuvre.parse("R"))


def _fields(ship: Ship) -> dict[str, Any]:
    return {f: getattr(ship, f) for f in ship.__dataclass_fields__}


def test_ships_move_onto_their_marker_and_the_marker_is_mirrored() -> None:
    ship = make_ship(at="10,10", facing="B", velocity="B=2")
    state = make_state(ship)
    events: list[Event] = []
    after = move_ships(state, {"X1": Manoeuvre.parse("1")}, Dice(1), events).ship("X1")
    assert after.hex == Hex.parse("10,10").neighbour(Direction.B, 3)
    assert str(after.velocity) == "B=3"  # the old marker, mirrored through the ship
    assert after.vector_marker == after.hex.neighbour(Direction.B, 3)
    assert after.accelerated == 1
    assert after.record[-1].plot == "1"


def test_the_gravity_example() -> None:
    """Strangely dense body: a ship passing three hexes next to a 1g body.

    The hexes lie to the body's lower left, below it and to its lower right, so
    the pulls are toward upper right (B), straight up (A) and upper left (F):
    together two hexes straight up (A).
    """
    body = Hex.parse("10,10")
    lower_left, below, lower_right = (
        body.neighbour(Direction.E),
        body.neighbour(Direction.D),
        body.neighbour(Direction.C),
    )
    path = [lower_left.neighbour(Direction.F), lower_left, below, lower_right]
    hex_map = HexMap.single(30, 30, ((body, "dense-1"),))
    assert gravity_pull(hex_map, path) == Velocity.toward(Direction.A, 2)
    heavy = HexMap.single(30, 30, ((body, "dense-3"),))
    assert gravity_pull(heavy, path) == Velocity.toward(Direction.A, 6)


def test_gravity_bends_the_next_move_of_a_ship_flying_past() -> None:
    body = Hex.parse("10,10")
    start = body.shifted(-2, 1)  # flying C passes the body's lower-left, then lower neighbour
    ship = make_ship(at=str(start), facing="C", velocity="C=4")
    state = make_state(ship, hex_map=HexMap.single(30, 30, ((body, "dense-1"),)))
    after = move_ships(state, {"X1": Manoeuvre(())}, Dice(1), []).ship("X1")
    assert after.hex == start.neighbour(Direction.C, 4)  # this move is as plotted
    expected = Velocity.toward(Direction.C, 4) + Velocity.toward(Direction.B) + Velocity.toward(Direction.A)
    assert after.velocity == expected  # the next one is bent toward the body


def test_ending_on_an_asteroid_wrecks_the_ship() -> None:
    ship = make_ship(at="10,10", facing="A", velocity="A=2")
    rock = Hex.parse("10,8")
    state = make_state(ship, hex_map=HexMap.single(30, 30, ((rock, "asteroid"),)))
    events: list[Event] = []
    after = move_ships(state, {"X1": Manoeuvre(())}, Dice(1), events).ship("X1")
    assert after.status == "crashed"
    assert any(isinstance(e, Crashed) for e in events)


def test_flying_through_an_asteroid_is_safe() -> None:
    ship = make_ship(at="10,10", facing="A", velocity="A=2")
    state = make_state(ship, hex_map=HexMap.single(30, 30, ((Hex.parse("10,9"), "asteroid"),)))
    assert move_ships(state, {"X1": Manoeuvre(())}, Dice(1), []).ship("X1").active


def test_two_ships_plotted_to_one_hex_collide_and_the_loser_is_knocked_aside() -> None:
    a = make_ship("X1", "red", at="10,10", facing="A", velocity="A=2")
    b = make_ship("Y1", "blue", at="10,6", facing="D", velocity="D=2")
    state = make_state(a, b)
    events: list[Event] = []
    after = move_ships(state, {}, Dice(3), events)
    crash = [e for e in events if isinstance(e, Collided)]
    assert len(crash) == 1
    loser, winner = after.ship(crash[0].ship), after.ship(crash[0].winner)
    assert winner.hex == Hex.parse("10,8")
    assert loser.hex.distance(Hex.parse("10,8")) == 1
    assert loser.facing == state.ship(loser.id).facing  # headings are kept


def test_leaving_the_board_takes_the_ship_out_of_play() -> None:
    ship = make_ship(at="1,1", facing="A", velocity="A=3")
    events: list[Event] = []
    after = move_ships(make_state(ship), {}, Dice(1), events).ship("X1")
    assert after.status == "exited"
    assert any(isinstance(e, LeftMap) for e in events)
