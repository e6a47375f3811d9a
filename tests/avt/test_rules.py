"""The AV:T plug-in: orders, the segment sequence, thrust breaks, fire, the 2-D option, the kit."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario
from vectorwar.conformance import check_system
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.game import Game
from vectorwar.hexes import Hex, Position
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.events import (
    AllocationRow,
    DamageStruck,
    LaserFired,
    ShipMoved,
    TargetDestroyed,
    ThrustBurned,
    VectorsResolved,
)
from vectorwar.systems.avt.lasers import max_range
from vectorwar.systems.avt.orders import SegmentOrders
from vectorwar.systems.avt.rules import EXAMPLE, HELP, ROLL_EXAMPLE
from vectorwar.systems.avt.state import AVTState
from vectorwar.vectors import Velocity

from .helpers import AVT, make_scenario, offset, rafik_game, with_ship

HOME = Hex.from_offset(20, 20)
BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def run(game: Game, *orders: str) -> list[object]:
    events: list[object] = []
    for text in orders:
        events.extend(game.submit("blue", text))
    return events


def test_avt_a2_0_a_turn_is_eight_segments_of_simultaneous_orders() -> None:
    assert AVT.manifest.segments_per_turn == 8
    assert [p.name for p in AVT.manifest.phases] == ["plotting", "orders", "fire", "thrust", "movement", "break"]
    game = rafik_game()
    clocks = []
    for _ in range(9):
        prompt = game.prompt
        assert prompt is not None
        assert prompt.simultaneous
        assert prompt.sides == ("blue",)
        clocks.append((prompt.clock.turn, prompt.clock.segment))
        game.submit("blue", "hold")
    assert clocks == [(1, s) for s in range(1, 9)] + [(2, 1)]


def test_avt_orders_read_back_and_name_ships_case_blind() -> None:
    game = rafik_game()
    order = game.parse("blue", "rafik ROLL Starboard 2, bias c, thrust 3")
    assert str(order) == "Rafik thrust 3, bias C, roll stbd 2"
    assert game.parse("blue", str(order)) == order
    assert str(game.parse("blue", "hold")) == "hold"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "hold"),
        ("Raven thrust 2", "no ship of yours"),
        ("Rafik thrust", "whole number"),
        ("Rafik thrust 2, thrust 3", "given twice"),
        ("Rafik roll up 2", "stbd or port"),
        ("Rafik fire A>Far", "mount letter and row"),
        ("Rafik dance", "an action is"),
        ("Rafik pivot A/C", "not a hex corner"),
        ("Rafik thrust 1; Rafik bias A", "two entries"),
    ],
)
def test_avt_order_syntax_errors_hold_the_input(text: str, problem: str) -> None:
    with pytest.raises(OrderSyntaxError, match=problem) as err:
        rafik_game().parse("blue", text)
    assert repr(text) in str(err.value)


def test_avt_the_helps_sample_orders_are_legal_in_sample_game_one() -> None:
    game = Game.new(AVT, builtin_scenario("avt-drift"), seed=0)
    assert EXAMPLE in HELP
    assert ROLL_EXAMPLE in HELP
    with_roll = EXAMPLE.replace("pivot B/C", ROLL_EXAMPLE)
    assert with_roll != EXAMPLE
    for text in (EXAMPLE, with_roll):
        order = game.check("blue", text)
        assert str(order) == text
    # The help shows the pivot and the roll apart: together they are refused.
    with pytest.raises(IllegalOrderError, match="one facing change at a time"):
        game.check("blue", f"{EXAMPLE}, {ROLL_EXAMPLE}")


def test_avt_shots_listed_with_commas_read_as_one_fire_order() -> None:
    state = Game.new(AVT, builtin_scenario("avt-drift"), 1).state
    spaced = AVT.parse_order(state, "blue", "Rafik fire A1>Square A2>Square")
    assert AVT.parse_order(state, "blue", "Rafik fire A1>Square, A2>Square") == spaced
    assert AVT.parse_order(state, "blue", "Rafik fire A1>Square, fire A2>Square") == spaced
    assert str(AVT.parse_order(state, "blue", "Rafik fire A1>Square, A2>Square, thrust 2")) == (
        "Rafik thrust 2, fire A1>Square A2>Square"
    )


@pytest.mark.parametrize(
    "spaced",
    [
        "Rafik thrust 3 pivot B/C fire A1>Square fire A2>Square",
        "Rafik thrust 3 pivot B/C fire A1>Square A2>Square",
        "rafik THRUST 3, pivot b/c fire A1>square, A2>Square",
        "Rafik fire A1>Square pivot B/C, thrust 3 fire A2>Square",
    ],
)
def test_avt_actions_may_be_separated_by_spaces(spaced: str) -> None:
    """docs/rulings/avt.md, *AV:T actions separated by spaces*: the canonical text keeps the commas."""
    state = Game.new(AVT, builtin_scenario("avt-drift"), 1).state
    canonical = "Rafik thrust 3, pivot B/C, fire A1>Square A2>Square"
    order = AVT.parse_order(state, "blue", spaced)
    assert order == AVT.parse_order(state, "blue", canonical)
    assert str(order) == canonical
    AVT.check_order(state, "blue", order)


def test_avt_spaced_actions_read_every_action_word() -> None:
    game = rafik_game()
    spaced = game.parse("blue", "Rafik thrust 2 bias C roll port 1 reactors off radiators out")
    assert str(spaced) == "Rafik thrust 2, bias C, roll port 1, reactors off, radiators out"
    # A window written in colour words is one action even though it is two words.
    assert str(game.parse("blue", "Rafik pivot F/A blue- thrust 1")) == "Rafik thrust 1, pivot F/A-"
    assert str(game.parse("blue", "Rafik reactor on radiator in")) == "Rafik reactors on, radiators in"
    with pytest.raises(OrderSyntaxError, match="given twice"):
        game.parse("blue", "Rafik thrust 2 thrust 3")
    with pytest.raises(OrderSyntaxError, match="new window"):
        game.parse("blue", "Rafik pivot thrust 2")
    with pytest.raises(OrderSyntaxError, match="whole number"):
        game.parse("blue", "Rafik thrust 2 A1>Far")


@pytest.mark.parametrize(
    "text", ["Rafik A1>Square", "Rafik thrust 2, A1>Square", "Rafik fire A1>Square, thrust 2, A2>Square"]
)
def test_avt_a_shot_without_fire_before_it_says_how_to_list_shots(text: str) -> None:
    with pytest.raises(OrderSyntaxError, match="after the word fire, shots separated by spaces") as err:
        rafik_game(targets=[("Square", "0,0", 0)]).parse("blue", text)
    assert repr(text) in str(err.value)


def test_avt_a5_24_thrust_is_limited_to_the_thrust_matrix() -> None:
    game = rafik_game()
    with pytest.raises(IllegalOrderError, match=r"thrust 6 is above Rafik Mk. 1's 5.*A5.242"):
        game.submit("blue", "Rafik thrust 6")


def test_avt_one_facing_change_at_a_time() -> None:
    game = rafik_game()
    game.submit("blue", "Rafik pivot B/C")
    with pytest.raises(IllegalOrderError, match="still carrying out 'pivot B/C'"):
        game.submit("blue", "Rafik roll port 1")
    with pytest.raises(IllegalOrderError, match="pivot or roll, not both"):
        rafik_game().submit("blue", "Rafik pivot B, roll stbd 1")
    with pytest.raises(IllegalOrderError, match="already at A"):
        rafik_game().submit("blue", "Rafik pivot A")


def test_avt_a5_222_a_pivot_beyond_the_caterpillar_chart_is_refused() -> None:
    game = rafik_game()
    state: AVTState = game.state
    short = state.designs["rafik"].model_copy(update={"pivot_chart": [[0], [0, 1], [0, 1, 2]]})
    game.state = replace(state, designs={**state.designs, "rafik": short})
    with pytest.raises(IllegalOrderError, match=r"quickest pivot to C is 120 degrees, beyond .* \(90\)"):
        game.submit("blue", "Rafik pivot C")
    game.submit("blue", "Rafik pivot B/C")


def test_avt_a5_2431_thrust_stays_on_until_changed_and_starts_from_the_top() -> None:
    game = rafik_game()
    events = run(game, "Rafik thrust 5", "hold", "hold")
    cells = [e.cell for e in events if isinstance(e, ThrustBurned)]
    assert cells == [1, 2, 3]


def test_avt_a5_245_off_the_bottom_of_the_chart_breaks_the_burn_and_restarts() -> None:
    game = rafik_game()
    events = run(game, "Rafik thrust 5", *["hold"] * 8)
    resolved = [e for e in events if isinstance(e, VectorsResolved)]
    assert [r.reason for r in resolved] == ["off the bottom of the thrust chart"]
    assert str(resolved[0].velocity) == "A=10"
    assert resolved[0].fuel == 10
    cells = [e.cell for e in events if isinstance(e, ThrustBurned)]
    assert cells == [1, 2, 3, 4, 5, 6, 7, 8, 1]
    # Displacement over the full column: 5 hexes, half the 10 dots (A2.4); then the new vector moves on.
    shifted = sum(len(e.displacement.split()) for e in events if isinstance(e, ThrustBurned))
    assert shifted == 5


def test_ruling_changing_thrust_resolves_the_burn_so_far() -> None:
    game = rafik_game()
    events = run(game, "Rafik thrust 5", "hold", "Rafik thrust 2")
    (resolved,) = [e for e in events if isinstance(e, VectorsResolved)]
    assert resolved.reason == "thrust changed to 2"
    assert str(resolved.velocity) == "A=2"
    burns = [(e.thrust, e.cell) for e in events if isinstance(e, ThrustBurned)]
    assert burns == [(5, 1), (5, 2), (2, 1)]


def test_ruling_out_of_fuel_the_engine_cuts_out() -> None:
    game = rafik_game()
    with_ship(game, "Rafik", fuel=2)
    events = run(game, "Rafik thrust 5", "hold", "hold")
    assert [e.cell for e in events if isinstance(e, ThrustBurned)] == [1, 2]
    rafik = game.state.ship("Rafik")
    assert rafik.fuel == 0
    assert rafik.chart.setting == 0
    assert str(rafik.velocity) == "A=2"
    with pytest.raises(IllegalOrderError, match="no fuel left"):
        game.submit("blue", "Rafik thrust 1")


def test_avt_a5_166_two_lasers_at_point_blank_eat_a_chocolate_in_one_segment() -> None:
    target = offset(HOME, ("A", 3))
    for seed in range(4):
        game = rafik_game(targets=[("Square", str(target), 0)], seed=seed)
        events = game.submit("blue", "Rafik fire A1>Square A2>Square")
        fired = [e for e in events if isinstance(e, LaserFired)]
        assert [(e.marker, e.arc_window) for e in fired] == [("A 3", "12")] * 2
        assert sum(e.damage for e in fired) >= 10
        assert [e.target for e in events if isinstance(e, TargetDestroyed)] == ["Square"]
        # A5.372: two lasers spend 6 of the 22 in the batteries; the reactor then puts 3 back.
        assert game.state.ship("Rafik").battery == 22 - 6 + 3


def test_avt_a5_113_one_laser_alone_never_does_ten_points() -> None:
    target = offset(HOME, ("A", 3))
    game = rafik_game(targets=[("Square", str(target), 0)])
    events = game.submit("blue", "Rafik fire A1>Square")
    assert not any(isinstance(e, TargetDestroyed) for e in events)
    assert game.state.ship("Square").active


def test_avt_a5_371_a_laser_cools_for_five_segments() -> None:
    target = offset(HOME, ("A", 20))
    game = rafik_game(targets=[("Far", str(target), 0)])
    run(game, "hold", "hold", "hold", "hold", "hold", "Rafik fire A1>Far")
    rafik = game.state.ship("Rafik")
    assert rafik.ready_at("A1") == 11  # fired on segment 6: ready on segment 3 of the next turn
    with pytest.raises(IllegalOrderError, match="cooling until turn 2 segment 3"):
        game.submit("blue", "Rafik fire A1>Far")


def test_avt_firing_needs_arc_range_power_and_a_target() -> None:
    behind = offset(HOME, ("D", 3))
    game = rafik_game(targets=[("Aft", str(behind), 0), ("Gone", str(offset(HOME, ("A", 40))), 0)])
    with pytest.raises(IllegalOrderError, match="arc window 6, outside mount A's arc"):
        game.submit("blue", "Rafik fire A1>Aft")
    with pytest.raises(IllegalOrderError, match="range 40, beyond 3 MRLS's 30"):
        game.submit("blue", "Rafik fire A1>Gone")
    with pytest.raises(IllegalOrderError, match="no laser H1"):
        game.submit("blue", "Rafik fire H1>Aft")
    with_ship(game, "Rafik", battery=5)
    with pytest.raises(IllegalOrderError, match="need 6 power but the batteries hold 5"):
        game.submit("blue", "Rafik fire D1>Aft E1>Aft")


def test_avt_a5_4_lasers_fire_at_ships_and_damage_is_allocated() -> None:
    ships = [
        ("blue", "Rafik", "rafik", "20,20", "A", "0", 0),
        ("red", "Raven", "rafik", "20,17", "D", "0", 0),
    ]
    game = Game.new(AVT, make_scenario(ships), 0)
    game.submit("blue", "Rafik fire A1>Raven A2>Raven")
    events = game.submit("red", "hold")
    fired = [e for e in events if isinstance(e, LaserFired)]
    struck = [e for e in events if isinstance(e, DamageStruck)]
    assert len(fired) == 2
    # One ship's lasers at one target in one segment are one pool, striking the Raven's nose (it faces the Rafik).
    assert len(struck) == 1
    assert struck[0].points == sum(e.damage for e in fired)
    assert (struck[0].incoming, struck[0].region) == ("D", "nose")
    assert any(isinstance(e, AllocationRow) for e in events)
    assert game.state.ship("Raven").incoming == "D"


def test_avt_game_ends_when_every_target_is_eaten() -> None:
    game = rafik_game(velocity="A=8", targets=[("Square", str(offset(HOME, ("A", 2))), 0)])
    events = run(game, "hold", "hold")
    assert game.is_over
    assert game.result is not None
    assert game.result.winners == ("blue",)
    assert any(isinstance(e, TargetDestroyed) and e.how == "flown through: eaten" for e in events)


def test_avt_turn_limit_is_a_draw() -> None:
    game = rafik_game(max_turns=1)
    run(game, *["hold"] * 8)
    assert game.is_over
    assert game.result is not None
    assert game.result.winners == ()


def test_avt_design_note_2d_option_drops_altitude_pivots_only_in_amber_and_no_rolls() -> None:
    ships = [
        ("blue", "Rafik", "rafik", "20,20", "A", "A=2, up=3", 4),
        ("chocolates", "Up", "chocolate", "20,14", "A", "0", 5),
    ]
    game = Game.new(AVT, make_scenario(ships, options={"three_d": False}), 0)
    rafik = game.state.ship("Rafik")
    assert rafik.position == Position(HOME, 0)
    assert rafik.velocity == Velocity.parse("A=2")
    with pytest.raises(IllegalOrderError, match="amber ring"):
        game.submit("blue", "Rafik pivot A+")
    with pytest.raises(IllegalOrderError, match="altitude, which is switched off"):
        game.submit("blue", "Rafik roll stbd 1")
    card = AVT.ship_cards(game.state)[0]
    assert ("-> Up", "A 6, arc window 12") in card.rows


def test_avt_scenario_errors_name_the_key() -> None:
    bad_velocity = [("blue", "Rafik", "rafik", "20,20", "A", "A=x", 0), ("c", "T", "chocolate", "1,1", "A", "0", 0)]
    with pytest.raises(ScenarioError, match=r"sides.0.ships.0.velocity: .*DIRECTION=COUNT"):
        Game.new(AVT, make_scenario(bad_velocity), 0)
    moving_target = [("blue", "Rafik", "rafik", "20,20", "A", "0", 0), ("c", "T", "chocolate", "1,1", "A", "A=1", 0)]
    with pytest.raises(ScenarioError, match=r"sides\.1\.ships\.0\.velocity: a target does not move"):
        Game.new(AVT, make_scenario(moving_target), 0)
    unknown = [("blue", "Rafik", "hornet", "20,20", "A", "0", 0), ("c", "T", "chocolate", "1,1", "A", "0", 0)]
    with pytest.raises(ScenarioError, match="no design 'hornet'"):
        Game.new(AVT, make_scenario(unknown), 0)


def test_avt_ship_card_shows_grid_vectors_thrust_and_avid() -> None:
    game = rafik_game(velocity="A=4, B=2", targets=[("Square", str(offset(HOME, ("A", 1), ("B", 1))), 0)])
    game.submit("blue", "Rafik thrust 5")
    (card,) = AVT.ship_cards(game.state)
    rows = dict(card.rows)
    # Vectors, grid columns and dots as counts on the AVID's arrows, as the counters write them.
    assert rows["vectors"] == "4 A, 2 B"
    assert rows["thrust"] == "5, cell 1/8"
    assert rows["thrust matrix"] == "row 1 of 1: max 5"
    assert rows["pending dots"] == "1 A"
    assert rows["Nose"] == "A"
    assert rows["Top"] == "up"
    assert rows["-> Square"].startswith("A/B 2")
    assert card.table is not None
    assert card.table.headers[:4] == ("seg", "4 A", "2 B", "-")
    (still,) = AVT.ship_cards(rafik_game().state)
    assert dict(still.rows)["vectors"] == "none"
    assert [r[0] for r in card.table.rows if r[-1] == "<"] == ["2"]


def test_avt_arc_hexes_follow_the_mount_arcs() -> None:
    game = rafik_game()
    hexes = AVT.arc_hexes(game.state, "Rafik")
    ahead, behind = offset(HOME, ("A", 5)), offset(HOME, ("D", 5))
    assert ahead in hexes["A"]
    assert behind not in hexes["A"]
    assert behind in hexes["D"]
    assert behind in hexes["E"]
    # Only the board: what a viewer can see and aim at.
    assert all(game.state.map.contains(h) for covered in hexes.values() for h in covered)
    reach = max(len(covered) for covered in hexes.values())
    assert reach > 0
    assert any(not game.state.map.contains(h) for h in HOME.within(max_range("3 MRLS")))


def test_avt_arc_hexes_kept_are_worked_out_again_for_a_turned_or_moved_ship_or_another_map() -> None:
    """Arcs are kept by the hex, design, orientation and altitude option on one map (``display._kept_arcs``): each
    answer is what working it out afresh gives, and a ship turned or moved gets its own."""
    from vectorwar.maps import HexMap
    from vectorwar.systems.avt import display
    from vectorwar.systems.avt.orientation import Orientation

    game = rafik_game()
    state = game.state
    rafik = state.ship("Rafik")
    design = state.designs[rafik.design]
    turned = replace_fields(state, ships=(replace_fields(rafik, orientation=Orientation(0, 3)), *state.ships[1:]))
    moved = replace_fields(
        state, ships=(replace_fields(rafik, position=Position(offset(HOME, ("A", 2)), 0)), *state.ships[1:])
    )
    smaller = replace_fields(state, map=HexMap.single(24, 24))
    answers = []
    for s in (state, turned, moved, state, smaller):
        ship = s.ship("Rafik")
        fresh = display._arcs(s.map, ship.position.hex, design, ship.orientation, s.three_d)
        assert AVT.arc_hexes(s, "Rafik") == fresh
        answers.append(fresh)
    assert all(answers[0] != answers[i] for i in (1, 2, 4))
    assert answers[3] == answers[0]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.builds(Velocity, st.integers(-12, 12), st.integers(-12, 12), st.integers(-6, 6)),
    st.lists(
        st.sampled_from(["hold", "Rafik pivot B", "Rafik pivot C+", "Rafik roll port 2", "Rafik bias B"]),
        min_size=8,
        max_size=8,
    ),
)
def test_property_without_thrust_vectors_never_change_and_a_turn_moves_exactly_the_vector(
    velocity: Velocity, orders: list[str]
) -> None:
    game = rafik_game(velocity=str(velocity), targets=[("Far", "0,0", 40)])
    start = game.state.ship("Rafik").position
    for text in orders:
        try:
            game.submit("blue", text)
        except IllegalOrderError:
            game.submit("blue", "hold")
        assert game.state.ship("Rafik").velocity == velocity
    assert game.state.ship("Rafik").position == velocity.moved(start)


def test_avt_random_orders_are_legal_and_read_back() -> None:
    import random

    game = rafik_game(velocity="A=2")
    rng = random.Random(3)
    for _ in range(24):
        order = AVT.random_order(game.state, "blue", rng)
        assert isinstance(order, SegmentOrders)
        assert game.parse("blue", str(order)) == order
        game.submit("blue", order)


def test_avt_passes_the_conformance_kit() -> None:
    reports = check_system("avt", seeds=(0, 1))
    assert {r.scenario for r in reports} == {
        "avt-drift",
        "avt-pivot-thrust",
        "avt-pitch-and-climb",
        "avt-damage",
        "avt-duel-wasp",
        "avt-duel-rafik",
    }
    assert all(r.orders > 0 and r.rolls > 0 for r in reports)


def test_avt_a2_4_markers_future_position_and_end_of_turn() -> None:
    game = rafik_game(velocity="A=6, B=3, up=1")
    rows = dict(AVT.ship_cards(game.state)[0].rows)
    assert rows["future position"] == str(Position(offset(HOME, ("A", 1)), 0))
    assert rows["end of turn"] == str(Position(offset(HOME, ("A", 6), ("B", 3)), 1))


def test_ruling_markers_leave_out_thrust_still_to_come() -> None:
    # docs/rulings/avt.md, AV:T markers leave out thrust to come: three cells of thrust 5 leave three dots
    # pending and the fourth cell will displace the ship a hex in A, yet both markers stay on the ship.
    game = rafik_game()
    run(game, "Rafik thrust 5", "hold", "hold")
    here = game.state.ship("Rafik").position
    assert game.state.ship("Rafik").chart.pending_dots()
    rows = dict(AVT.ship_cards(game.state)[0].rows)
    assert (rows["future position"], rows["end of turn"]) == (str(here), str(here))
    events = run(game, "hold")
    assert [e.steps for e in events if isinstance(e, ShipMoved)] == ["A"]


@pytest.mark.parametrize(("facing_change", "displaced"), [("Rafik roll stbd 2", ["A"]), ("Rafik pivot B", [])])
def test_ruling_rolls_do_not_stop_displacement(facing_change: str, displaced: list[str]) -> None:
    # docs/rulings/avt.md, AV:T rolls do not stop displacement: thrust 5's fourth cell has a displacement
    # arrow (A5.274); a roll begun that segment leaves it alone, a pivot (A5.274) cancels it.
    game = rafik_game()
    run(game, "Rafik thrust 5", "hold", "hold")
    events = run(game, facing_change)
    assert game.state.ship("Rafik").turning is not None
    (burn,) = [e for e in events if isinstance(e, ThrustBurned)]
    assert burn.cell == 4
    assert burn.displacement.split() == displaced
    assert [e.steps for e in events if isinstance(e, ShipMoved)] == displaced


def test_avt_a5_243_thrust_is_public() -> None:
    ships = [("blue", "Rafik", "rafik", "20,20", "A", "0", 0), ("red", "Raven", "rafik", "10,10", "D", "0", 0)]
    game = Game.new(AVT, make_scenario(ships), 0)
    game.submit("blue", "Rafik thrust 5")
    # Orders are secret until every side's are in (A5.212) ...
    waiting = game.view("red")
    assert waiting["my_pending_order"] is None
    assert [s["chart"]["setting"] for s in waiting["state"]["ships"]] == [0, 0]
    assert not [e for e in waiting["events"] if e["kind"] == "avt-orders"]
    game.submit("red", "hold")
    # ... but once the segment is resolved the other side sees the thrust setting, the burn and the card.
    for side in ("red", None):
        seen = game.view(side)
        (rafik,) = [s for s in seen["state"]["ships"] if s["id"] == "Rafik"]
        assert rafik["chart"]["setting"] == 5
        assert {"kind": "avt-thrust", "ship": "Rafik", "thrust": 5} in [
            {k: e[k] for k in ("kind", "ship", "thrust") if k in e} for e in seen["events"]
        ]
    cards = {c.title.split(":")[0]: dict(c.rows) for c in AVT.ship_cards(game.state)}
    assert cards["Rafik"]["thrust"] == "5, cell 1/8"


def test_avt_benchmark_turn_thrusts_pivots_and_rolls_every_ship(monkeypatch: pytest.MonkeyPatch) -> None:
    # benchmarks/ is a folder of scripts that import each other by name (benchmarks/run.py imports this one so):
    # imported the same way here, it is one module to mypy, which checks the benchmarks too.
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    from avt_turn import eight_ships, turn_times

    game = Game.new(AVT, eight_ships(), 0)
    assert len(game.state.ships) == 8
    assert len(turn_times(repeats=2)) == 2
    events = []
    for segment in range(1, 9):
        red = "; ".join(f"R{i} thrust 5, pivot A/B+" for i in range(4)) if segment == 1 else "hold"
        blue = "; ".join(f"B{i} thrust 4, roll stbd 2" for i in range(4)) if segment == 1 else "hold"
        game.submit("red", red)
        events += game.submit("blue", blue)
    assert {e.ship for e in events if isinstance(e, ThrustBurned)} == {s.id for s in game.state.ships}
    assert all(str(s.orientation) in ("A/B+", "D roll +2") for s in game.state.ships)


def test_ruling_avt_duels_and_sample_game_four_run_to_the_kernels_thirty_turn_limit() -> None:
    # A5.5 sets no length for the duel; 20 turns ended a crippled-but-alive enemy as a draw (avt-bots.md).
    # Sample game four (A5.4) sets none either; 4 turns drew most games with both Rafiks still fighting.
    for key in ("avt-duel-wasp", "avt-duel-rafik", "avt-damage"):
        assert builtin_scenario(key).max_turns == 30
