"""The multi-turn rendezvous planner (vv5.planner), checked against the movement rules themselves."""

from __future__ import annotations

import pytest

from vectorwar.hexes import Direction, Hex
from vectorwar.systems.vv5.movement import plan as apply_plot
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.systems.vv5.planner import Inside, estimate, plot_options, rendezvous, ring
from vectorwar.vectors import Velocity

GHOST_BODY = frozenset({(0, 0), Direction.C.delta})
GHOST_DRIFT = Velocity.toward(Direction.D, 2)


def fly(
    ship: Hex,
    velocity: Velocity,
    facing: Direction,
    target: Hex,
    target_velocity: Velocity,
    body: frozenset[tuple[int, int]],
    turns: int,
    inside: Inside | None = None,
    horizon: int = 8,
) -> tuple[int | None, list[Hex]]:
    """Replan every turn and move by the real plot rules; the turn of rendezvous (None: never) and the track."""
    goal = ring(body)
    track = []
    for turn in range(1, turns + 1):
        chosen = rendezvous(
            ship, velocity, facing, 1, 1, target, target_velocity, goal, body=body, inside=inside, horizon=horizon
        )
        facing, velocity = apply_plot(facing, velocity, chosen.move)
        ship = ship.shifted(velocity.dq, velocity.dr)
        target = target.shifted(target_velocity.dq, target_velocity.dr)
        track.append(ship)
        offset = (ship.q - target.q, ship.r - target.r)
        assert offset not in body, "the planner flew into the target"
        if velocity == target_velocity and offset in goal:
            return turn, track
    return None, track


def test_a_one_g_one_hexside_ship_has_eight_distinct_plots() -> None:
    options = plot_options(Direction.A, 1, 1)
    outcomes = {(o.facing, o.thrust) for o in options}
    assert len(options) == len(outcomes) == 8
    moves = {str(o.move): o for o in options}
    # Burning before turning pushes along the old heading and still leaves the new one.
    assert moves["1R"].facing == Direction.B
    assert moves["1R"].thrust == Direction.A.delta
    assert moves["R1"].facing == Direction.B
    assert moves["R1"].thrust == Direction.B.delta
    assert moves["0"].thrust == (0, 0)
    assert moves["0"].facing == Direction.A
    assert str(options[0].move) == "0"  # shortest first: the search keeps the cheapest equal plot


def test_plot_options_agree_with_the_plot_rules() -> None:
    for facing in Direction:
        for option in plot_options(facing, 2, 3):
            after, velocity = apply_plot(facing, Velocity(), option.move)
            assert after == option.facing
            assert (velocity.dq, velocity.dr) == option.thrust
            assert option.move.turns <= 2
            assert option.move.thrust <= 3
    # No two plots with the same outcome; no plot longer than needed.
    options = plot_options(Direction.C, 2, 3)
    assert len({(o.facing, o.thrust) for o in options}) == len(options)
    assert all(str(o.move) != "LR" for o in options)


def test_the_ring_round_a_body() -> None:
    assert ring([(0, 0)]) == frozenset(d.delta for d in Direction)
    two = ring(GHOST_BODY)
    assert len(two) == 8
    assert not (two & GHOST_BODY)


def test_already_there_means_drift_on() -> None:
    chosen = rendezvous(Hex(0, 1), GHOST_DRIFT, Direction.A, 1, 1, Hex(0, 0), GHOST_DRIFT, ring(GHOST_BODY))
    assert (str(chosen.move), chosen.turns) == ("0", 0)


def test_the_last_turn_is_a_brake_in_place() -> None:
    # Moving away from the target at 1 hex a turn from a hex next to it: burning back stops the ship there.
    chosen = rendezvous(
        Hex(0, 1), Velocity.toward(Direction.D), Direction.A, 1, 1, Hex(0, 0), Velocity(), ring([(0, 0)])
    )
    assert (str(chosen.move), chosen.turns) == ("1", 1)


def test_it_recovers_from_sliding_past_nose_sideways() -> None:
    # Sliding past a still target with the nose pointing sideways: it swings round, brakes and settles beside it.
    turns, _ = fly(Hex(3, 0), Velocity.toward(Direction.E), Direction.C, Hex(0, 0), Velocity(), frozenset({(0, 0)}), 10)
    assert turns is not None
    assert turns <= 6


@pytest.mark.parametrize(
    ("start", "velocity", "facing"),
    [
        (Hex(-24, 35), Velocity.toward(Direction.B), Direction.B),  # the Ghost Ship scenario's red corner
        (Hex(-12, 20), Velocity(), Direction.D),
        (Hex(8, 14), Velocity.toward(Direction.F, 2), Direction.A),
        (Hex(-5, 6), Velocity.toward(Direction.C, 1), Direction.E),
    ],
)
def test_a_transport_catches_the_drifting_ghost_ship(start: Hex, velocity: Velocity, facing: Direction) -> None:
    turns, _ = fly(start, velocity, facing, Hex(0, 0), GHOST_DRIFT, GHOST_BODY, 16)
    assert turns is not None
    assert turns <= 12


def test_it_stops_beside_a_still_starship() -> None:
    turns, track = fly(
        Hex(-20, 10), Velocity.toward(Direction.C), Direction.C, Hex(0, 0), Velocity(), frozenset({(0, 0)}), 20
    )
    assert turns is not None
    assert track[-1].distance(Hex(0, 0)) == 1


def test_it_never_plans_off_the_allowed_area() -> None:
    # Rushing at a target beside a wall: left alone the ship would swing past the wall's line to brake.
    start, velocity, target = Hex(8, -4), Velocity.toward(Direction.E, 3), Hex(-2, 0)
    free, free_track = fly(start, velocity, Direction.D, target, Velocity(), frozenset({(0, 0)}), 20)
    assert free is not None
    assert min(h.q for h in free_track) < -2

    def inside(h: Hex) -> bool:
        return h.q >= -2

    walled, track = fly(start, velocity, Direction.D, target, Velocity(), frozenset({(0, 0)}), 20, inside)
    assert walled is not None
    assert all(h.q >= -2 for h in track)


def test_beyond_the_horizon_it_still_closes_in() -> None:
    far = Hex(-30, 10)
    chosen = rendezvous(far, Velocity(), Direction.B, 1, 1, Hex(0, 0), Velocity(), ring([(0, 0)]), horizon=2)
    assert chosen.turns is None
    assert chosen.estimate < float("inf")
    # Two turns of look-ahead at a time still bring the ship most of the way in.
    _, track = fly(far, Velocity(), Direction.B, Hex(0, 0), Velocity(), frozenset({(0, 0)}), 12, horizon=2)
    assert track[-1].distance(Hex(0, 0)) < far.distance(Hex(0, 0)) // 2


def test_no_room_to_move_gives_no_plan() -> None:
    chosen = rendezvous(
        Hex(5, 5), Velocity(), Direction.A, 1, 1, Hex(0, 0), Velocity(), ring([(0, 0)]), inside=lambda h: False
    )
    assert chosen.estimate == float("inf")
    assert chosen.move == Manoeuvre(())
    with pytest.raises(ValueError, match="goal"):
        rendezvous(Hex(5, 5), Velocity(), Direction.A, 1, 1, Hex(0, 0), Velocity(), frozenset())


def test_the_estimate_ranks_states_sensibly() -> None:
    goal = ring([(0, 0)])
    assert estimate((0, 1), (0, 0), Direction.A, goal, 1) == 0
    # Rushing at the target too fast to stop beats standing still far off, but not the right speed...
    at_rest_far = estimate((0, 12), (0, 0), Direction.A, goal, 1)
    braking = estimate((0, 6), (0, -2), Direction.D, goal, 1)
    rushing = estimate((0, 6), (0, -5), Direction.D, goal, 1)
    assert braking < rushing
    assert braking < at_rest_far
    # ...and a nose pointing the wrong way for the braking burn costs turns.
    assert braking < estimate((0, 6), (0, -2), Direction.A, goal, 1)
