"""The AV:T ``greedy`` computer player: legal orders only, deterministic, closes and holds range, beats random,
eats the tutorial's chocolates."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tests.avt.helpers import AVT, make_scenario, rafik_game
from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.play import bot_rng, make_bots, play_out
from vectorwar.systems.avt.bots import GreedyBot
from vectorwar.systems.avt.fire import marker_between
from vectorwar.systems.avt.gunnery import later_volleys, segments_left
from vectorwar.systems.avt.laser_odds import eat_chance, expected_damage
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders
from vectorwar.systems.avt.state import AVTState, Repair, Ship
from vectorwar.systems.avt.steering import closing_fuel_cap, needed_change, turn_around

DUELS = ("avt-duel-wasp", "avt-duel-rafik")


def other(side: str) -> str:
    return "red" if side == "blue" else "blue"


def test_greedy_is_registered_with_the_avt_system() -> None:
    assert isinstance(AVT.bots()["greedy"](), GreedyBot)
    assert "random" in AVT.bots()


@pytest.mark.parametrize("scenario", DUELS)
@pytest.mark.parametrize("side", ["blue", "red"])
def test_every_greedy_order_passes_the_order_check_as_given_and_as_text(scenario: str, side: str) -> None:
    checked = 0
    for seed in (0, 1):
        game = Game.new(AVT, builtin_scenario(scenario), seed)
        bots = make_bots(AVT, {side: "greedy", other(side): "random"})
        while not game.is_over:
            for acting in game.waiting_for:
                order = bots[acting].choose(game.state, acting, bot_rng(seed, acting, len(game.history)))
                if acting == side:
                    assert isinstance(order, SegmentOrders)
                    AVT.check_order(game.state, acting, order)
                    again = AVT.parse_order(game.state, acting, str(order))
                    AVT.check_order(game.state, acting, again)
                    assert str(again) == str(order)
                    assert all(o.radiators is None for o in order.ships), "radiators stay in: out is surrender"
                    checked += 1
                game.submit(acting, order)
                if game.is_over:
                    break
    assert checked > 40


@pytest.mark.parametrize("scenario", [*DUELS, "avt-damage", "avt-drift", "avt-pivot-thrust"])
def test_greedy_against_itself_gives_only_legal_orders_in_every_avt_scenario(scenario: str) -> None:
    game = Game.new(AVT, builtin_scenario(scenario), 3)
    bot = GreedyBot()
    steps = 0
    while not game.is_over and steps < 120:
        for side in game.waiting_for:
            order = bot.choose(game.state, side, random.Random(steps))
            AVT.check_order(game.state, side, AVT.parse_order(game.state, side, str(order)))
            game.submit(side, order)
            steps += 1
            if game.is_over:
                break
    assert steps > 0


@pytest.mark.parametrize("three_d", [True, False])
def test_greedy_orders_are_legal_in_the_odd_states_random_play_reaches(three_d: bool) -> None:
    # Random against random pitches, rolls, runs fuel down, extends radiators and takes damage: whatever
    # the state, the greedy player's order for either side passes the check.
    checked = 0
    for seed in range(3):
        game = Game.new(AVT, builtin_scenario("avt-duel-wasp"), seed, {"three_d": three_d})
        bots = make_bots(AVT, {"blue": "random", "red": "random"})
        while not game.is_over:
            for side in game.waiting_for:
                greedy = GreedyBot().choose(game.state, side, random.Random(0))
                AVT.check_order(game.state, side, AVT.parse_order(game.state, side, str(greedy)))
                checked += 1
            for side in game.waiting_for:
                game.submit(side, bots[side].choose(game.state, side, bot_rng(seed, side, len(game.history))))
                if game.is_over:
                    break
    assert checked > 100


def test_greedy_is_deterministic_whatever_its_random_source() -> None:
    game = Game.new(AVT, builtin_scenario("avt-duel-wasp"), 7)
    bot = GreedyBot()
    for _ in range(30):
        state = game.state
        orders = {str(bot.choose(state, "blue", random.Random(seed))) for seed in range(3)}
        assert len(orders) == 1
        game.submit("blue", orders.pop())
        game.submit("red", AVT.random_order(state, "red", random.Random(len(game.history))))


def test_a_greedy_game_replays_exactly_from_its_seed() -> None:
    first = play_out(builtin_scenario("avt-duel-rafik"), {"blue": "greedy", "red": "random"}, 11)
    second = play_out(builtin_scenario("avt-duel-rafik"), {"blue": "greedy", "red": "random"}, 11)
    assert [h.orders for h in first.history] == [h.orders for h in second.history]
    assert first.result == second.result


@pytest.mark.parametrize("side", ["blue", "red"])
def test_greedy_closes_to_point_blank_and_holds_range_against_a_ship_that_sits_still(side: str) -> None:
    game = Game.new(AVT, builtin_scenario("avt-duel-rafik"), 0)
    bot = GreedyBot()
    ranges: list[int] = []
    volleys = 0
    while not game.is_over:
        state: AVTState = game.state
        ranges.append(marker_between(state, state.ships_of(side)[0], state.ships_of(other(side))[0]).range)
        order = bot.choose(state, side, random.Random(0))
        assert isinstance(order, SegmentOrders)
        volleys += any(o.shots for o in order.ships)
        game.submit(side, order)
        if not game.is_over:
            game.submit(other(side), "hold")
    assert ranges[0] == 25
    # In point blank range (0-10) by the start of turn 4, and still there at every segment from turn 5 on:
    # it braked and turned round rather than fly past and away.
    assert ranges[3 * 8] <= 10
    assert max(ranges[4 * 8 :]) <= 10
    assert volleys >= 10


def test_greedy_fires_a_volley_not_a_scatter_of_single_shots() -> None:
    game = Game.new(AVT, builtin_scenario("avt-duel-rafik"), 0)
    bot = GreedyBot()
    sizes: list[int] = []
    while not game.is_over and game.state.turn <= 6:
        order = bot.choose(game.state, "blue", random.Random(0))
        assert isinstance(order, SegmentOrders)
        sizes += [len(o.shots) for o in order.ships if o.shots]
        game.submit("blue", order)
        if not game.is_over:
            game.submit("red", "hold")
    assert sizes
    # Never a lone shot (armour and soak come off every pool), and mostly three lasers or more.
    assert min(sizes) >= 2
    assert sum(sizes) / len(sizes) >= 3


def test_greedy_switches_reactors_off_when_batteries_are_full_and_no_enemy_is_in_reach() -> None:
    far = make_scenario(
        [("blue", "Rafik", "rafik", "20,60", "A", "0", 0), ("red", "Sultan", "rafik", "20,5", "D", "0", 0)],
        height=70,
    )
    game = Game.new(AVT, far, 0)
    order = GreedyBot().choose(game.state, "blue", random.Random(0))
    assert isinstance(order, SegmentOrders)
    entry = order.for_ship("Rafik")
    assert entry is not None
    assert entry.reactors is False
    near = Game.new(AVT, builtin_scenario("avt-duel-rafik"), 0)
    order = GreedyBot().choose(near.state, "blue", random.Random(0))
    assert isinstance(order, SegmentOrders)
    entry = order.for_ship("Rafik")
    assert entry is not None
    assert entry.reactors is None  # on, as they are, with an enemy within the lasers' reach


def test_expected_damage_reads_the_3_mrls_table() -> None:
    assert expected_damage("3 MRLS", 10) == pytest.approx(6.6)
    assert expected_damage("3 MRLS", 12) == pytest.approx(4.17)
    assert expected_damage("3 MRLS", 12, d_chance=False) == pytest.approx(4.1)
    assert expected_damage("3 MRLS", 31) == 0.0


def test_turn_around_time_comes_from_the_pivot_chart() -> None:
    designs = AVT.designs()
    assert turn_around(designs["rafik"]) == pytest.approx(6 / 8)
    assert turn_around(designs["wasp"]) == pytest.approx(5 / 8)


def test_greedy_beats_random_in_the_rafik_wasp_duel() -> None:
    scenario = builtin_scenario("avt-duel-wasp")
    wins = 0
    for seed in range(20):
        result = play_out(scenario, {"blue": "greedy", "red": "random"}, seed).result
        assert result is not None
        wins += result.winners == ("blue",)
    assert wins >= 16


# -- the tutorial's chocolates --------------------------------------------------------------


def test_eat_chance_adds_up_the_3_mrls_table_to_a_targets_toughness() -> None:
    # Point blank (0-10) every roll scores 5 or more, so two lasers always make 10 and one never does.
    assert eat_chance("3 MRLS", 5, 2, 10) == pytest.approx(1.0)
    assert eat_chance("3 MRLS", 5, 1, 10) == 0.0
    # Range 11-13 (2-6 a shot, D7 on a 1): three lasers usually make 10, four nearly always.
    three, four = eat_chance("3 MRLS", 12, 3, 10), eat_chance("3 MRLS", 12, 4, 10)
    assert 0.6 < three < four < 1.0
    assert eat_chance("3 MRLS", 12, 2, 10) < three
    assert eat_chance("3 MRLS", 31, 8, 10) == 0.0


def test_greedy_fires_at_a_chocolate_in_arc_and_in_range_and_eats_it() -> None:
    game = rafik_game(at="20,20", facing="A", targets=(("Ahead", "20,17", 0),))
    order = GreedyBot().choose(game.state, "blue", random.Random(0))
    assert isinstance(order, SegmentOrders)
    entry = order.for_ship("Rafik")
    assert entry is not None
    # Two lasers at point blank always make the chocolate's 10; it keeps the rest for later.
    assert [s.target for s in entry.shots] == ["Ahead", "Ahead"]
    game.submit("blue", order)
    assert not game.state.ship("Ahead").active
    assert game.result is not None
    assert game.result.winners == ("blue",)


def test_greedy_flies_to_a_chocolate_beyond_its_lasers_reach_and_eats_it() -> None:
    game = rafik_game(at="20,60", facing="D", targets=(("Far", "20,5", 0),), height=70, max_turns=12)
    bot = GreedyBot()
    first = bot.choose(game.state, "blue", random.Random(0))
    assert isinstance(first, SegmentOrders)
    entry = first.for_ship("Rafik")
    # Out of range (55 hexes): no shot, and it turns its nose toward the target to burn.
    assert entry is not None
    assert not entry.shots
    assert entry.pivot is not None
    while not game.is_over:  # the chocolates give no orders
        game.submit("blue", bot.choose(game.state, "blue", random.Random(0)))
    assert game.result is not None
    assert game.result.winners == ("blue",)


@pytest.mark.parametrize("scenario", ["avt-drift", "avt-pitch-and-climb", "avt-pivot-thrust"])
def test_greedy_eats_every_chocolate_of_the_tutorials_sample_games(scenario: str) -> None:
    for seed in range(3):
        result = play_out(builtin_scenario(scenario), {"blue": "greedy", "chocolates": "random"}, seed).result
        assert result is not None
        assert result.winners == ("blue",), f"{scenario} seed {seed}: {result}"


def test_greedy_counts_no_wait_past_the_turn_limit() -> None:
    game = Game.new(AVT, builtin_scenario("avt-damage"), 0)
    state: AVTState = game.state
    assert segments_left(state) == 30 * 8 - 1
    last = replace(state, turn=state.max_turns, segment=8)
    assert segments_left(last) == 0
    blue, red = last.ship("Blue"), last.ship("Red")
    design = last.designs[blue.design]
    # Mid-game it weighs volleys 1-3 segments ahead; on the last segment there are none to wait for.
    assert later_volleys(state, design, blue, red, ShipOrders("Blue"), "3 MRLS")
    assert later_volleys(last, design, blue, red, ShipOrders("Blue"), "3 MRLS") == []


def test_greedy_asks_for_no_closing_speed_it_could_not_brake_from() -> None:
    # 80 % of the fuel left, less the drift across the line, pays for reaching the closing speed and for braking.
    game = Game.new(AVT, builtin_scenario("avt-duel-rafik"), 0)
    ship = game.state.ship("Rafik")
    toward = (0.0, 1.0, 0.0)
    assert closing_fuel_cap(replace(ship, fuel=100), (0.0, 0.0, 0.0), toward) == pytest.approx(40.0)
    # Already closing at 10 (the enemy coming down the line): braking from it is paid for either way.
    assert closing_fuel_cap(replace(ship, fuel=20), (0.0, -10.0, 0.0), toward) == pytest.approx(13.0)
    # Dry tanks: it still drifts in at the slowest speed rather than never close.
    assert closing_fuel_cap(replace(ship, fuel=0), (0.0, 0.0, 0.0), toward) == pytest.approx(1.0)
    # Low on fuel 25 hexes off, it does not ask to close faster than it can stop (12 with a full tank).
    low = replace(ship, fuel=10)
    need = needed_change(game.state.designs["rafik"], low, game.state.ship("Sultan"))
    assert abs(need[1]) <= 4.0 + 1e-9


def test_greedy_in_the_enemys_own_space_burns_off_along_its_nose() -> None:
    # No laser bears on a ship in the same space (no AVID window): at rest together, it moves apart.
    game = Game.new(AVT, builtin_scenario("avt-duel-rafik"), 0)
    state: AVTState = game.state
    game.state = state.with_ship(replace(state.ship("Sultan"), position=state.ship("Rafik").position))
    order = GreedyBot().ship_orders(game.state, game.state.ship("Rafik"))
    assert order.thrust is not None
    assert order.thrust > 0
    assert order.pivot is None


def test_a_ship_that_cannot_power_a_laser_sets_a_team_on_its_batteries_then_on_a_destroyed_laser() -> None:
    # Seed 11 of the Rafik duel: both ships' batteries were shot down to hold 1 and 2 (every laser needs 3),
    # and with no repair the two drifted, unable to fire, to the turn limit.
    state = Game.new(AVT, builtin_scenario("avt-duel-rafik"), 1).state
    rafik = state.ship("Rafik")
    design = state.designs[rafik.design]
    assert all(design.mounts[m].power == 3 for m in design.lasers.values())
    greedy = GreedyBot()

    def repair(ship: Ship) -> str | None:
        return greedy.ship_orders(state.with_ship(ship), ship).repair

    assert repair(rafik) is None  # nothing damaged
    drained = rafik.with_marks("batteries", 5)  # the last box: 2 left, under every laser's 3
    assert repair(drained) == "batteries"
    assert repair(rafik.with_marks("batteries", 4)) is None  # 6 left: the lasers fire, the batteries are in use
    wrecked = rafik.with_marks("batteries", 4).with_marks("laser C1", len(design.mounts["C"].hits))
    assert repair(wrecked) == "C1"  # a destroyed laser cannot be used, so nothing spoils the work
    # No free team (three wrenches, three at work): nothing new is started.
    busy = replace(drained, repairs=tuple(Repair("batteries", 9) for _ in range(3)))
    assert repair(busy) is None


def test_reactors_shot_to_their_x_box_are_turned_off_then_repaired() -> None:
    # Seed 34 of the Rafik duel: both ships' reactors were shot down to no power and kept on, making only heat,
    # their batteries never recharging: the two drifted, unable to fire, to the turn limit.
    state = Game.new(AVT, builtin_scenario("avt-duel-rafik"), 1).state
    rafik = state.ship("Rafik").with_marks("reactors", 3)  # the X box: no power
    greedy = GreedyBot()

    def orders(ship: Ship) -> ShipOrders:
        return greedy.ship_orders(state.with_ship(ship), ship)

    assert rafik.reactors_on
    assert orders(rafik).reactors is False  # off for the coming turn
    assert orders(rafik).repair is None  # this turn they are on: the work would fail at the break
    off = replace(rafik, reactors_on=False)
    assert orders(off).repair == "reactors"
    assert orders(off).reactors is None  # left off while they give no power
    # One box mended (power 1): on again in a fight.
    assert orders(replace(off, marks=(("reactors", 2),))).reactors is True
