"""AV:T's fire in prospect (the search bot's judge of a trial) against the fire the game rolls."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from vectorwar.dice import Dice
from vectorwar.game import Game
from vectorwar.search import Judging, SearchBot
from vectorwar.setup import SetUp, set_up
from vectorwar.systems.avt import prospects
from vectorwar.systems.avt.fire import aim_choices, aimed, full_volley, marker_between
from vectorwar.systems.avt.lasers import column_odds, column_of
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders, Shot
from vectorwar.systems.avt.prospects import (
    BOX,
    NEXT_VOLLEY,
    expected_losses,
    next_volleys,
    pool_loss,
    shot_points,
    structure_worth,
)
from vectorwar.systems.avt.ssd import ssd_of
from vectorwar.systems.avt.state import AVTState, Ship


def _greedy_orders(s: SetUp) -> dict[str, SegmentOrders]:
    """The segment orders the set-up's bots give for every side the game waits for."""
    orders = {}
    for side in s.game.waiting_for:
        order = s.bots[side].choose(s.game.state, side, random.Random(0))
        assert isinstance(order, SegmentOrders)
        orders[side] = order
    return orders


def _first_volley(scenario: str, seed: int = 3) -> tuple[Game, dict[str, SegmentOrders]]:
    """A greedy game of ``scenario`` stopped at the first segment whose greedy orders fire at a ship."""
    s = set_up(scenario, seed=seed, default="greedy")
    game = s.game
    for _ in range(400):
        orders = _greedy_orders(s)
        if any(o.shots for order in orders.values() for o in order.ships):
            return game, orders
        for side, order in orders.items():
            game.submit(side, order)
    raise AssertionError(f"{scenario}: no volley in 400 orders")


def _loss(before: Ship, after: Ship, state: AVTState) -> float:
    """The judge's own measure of what a ship lost: its boxes and its structure's share of the ship."""
    boxes = sum(n for _, n in after.marks) + len(after.electronics_lost)
    boxes -= sum(n for _, n in before.marks) + len(before.electronics_lost)
    structure = after.marked("structure") - before.marked("structure")
    return BOX * boxes + structure_worth(state.designs[before.design]) * structure


def _emptied(state: AVTState) -> AVTState:
    """Every ship's batteries and heat sinks empty, as the judge takes them (no full one to explode)."""
    for ship in state.ships:
        state = state.with_ship(replace(ship, battery=0, heat_tenths=0))
    return state


@pytest.mark.parametrize("scenario", ["avt-duel-wasp", "avt-duel-rafik"])
def test_a_volleys_expected_loss_is_the_mean_of_what_its_rolled_fire_takes(scenario: str) -> None:
    game, orders = _first_volley(scenario)
    system, state = game.system, game.state
    done = system.resolve_in_prospect(state, orders, Dice(0))
    assert done is not None
    _, expected = done
    assert sum(expected.values()) > 0
    # The same fire rolled 1,500 times, every ship's batteries empty as the judge takes them (only the fire
    # step reads them: the lasers' power was spent before the orders were checked).
    emptied = _emptied(state)
    runs = 1500
    lost = dict.fromkeys(expected, 0.0)
    for seed in range(runs):
        after, _ = system.resolve(emptied, orders, Dice(seed))
        for ship in emptied.ships:
            if ship.kind == "ship":
                lost[ship.side] += _loss(ship, after.ship(ship.id), state) / runs
    for side, value in expected.items():
        assert value == pytest.approx(lost[side], rel=0.12, abs=0.02), (side, value, lost[side])


def test_held_fire_spends_power_and_cooling_as_fire_does_and_marks_nothing() -> None:
    game, orders = _first_volley("avt-duel-wasp")
    system, state = game.system, game.state
    done = system.resolve_in_prospect(state, orders, Dice(0))
    assert done is not None
    held, _ = done
    rolled, _ = system.resolve(state, orders, Dice(0))
    for ship in state.ships:
        h, r = held.ship(ship.id), rolled.ship(ship.id)
        assert (h.battery, h.cooling, h.used) == (r.battery, r.cooling, r.used)
        assert (h.position, h.velocity, h.orientation) == (r.position, r.velocity, r.orientation)
        assert h.marks == ship.marks
    assert held.now == rolled.now


def test_a_volley_in_prospect_throws_none_of_the_games_dice() -> None:
    game, orders = _first_volley("avt-duel-rafik")
    dice = Dice(5)
    done = game.system.resolve_in_prospect(game.state, orders, dice)
    assert done is not None
    assert dice.count == 0


def test_shot_points_are_the_weapon_tables_average() -> None:
    for range_ in (0, 12, 15, 17, 20, 30):
        column, _ = column_of("3 MRLS", range_)
        points = shot_points("3 MRLS", range_, "chance")
        assert sum(points) == pytest.approx(1.0)
        average = float(column_odds("3 MRLS", column, "chance")[1])
        assert sum(n * p for n, p in enumerate(points)) == pytest.approx(average)


def test_search_in_avt_judges_its_trials_with_the_fire_held() -> None:
    game, _ = _first_volley("avt-duel-wasp")
    bot = SearchBot(game.system)
    side = game.waiting_for[0]
    order = bot.choose(game.system.side_view(game.state, side), side, random.Random(0))
    game.system.check_order(game.state, side, order)
    assert bot.judging(game.system.side_view(game.state, side)) is Judging.HELD
    assert bot.rollouts > 0


def test_without_shots_at_ships_a_segment_in_prospect_is_the_segment_itself() -> None:
    s = set_up("avt-duel-rafik", seed=4, default="greedy")
    game = s.game
    for _ in range(40):
        orders = _greedy_orders(s)
        quiet = {
            side: SegmentOrders(tuple(replace(o, shots=(), aim=None) for o in order.ships))
            for side, order in orders.items()
        }
        done = game.system.resolve_in_prospect(game.state, quiet, Dice(0))
        assert done is not None
        assert done[0] == game.system.resolve(game.state, quiet, Dice(0))[0]
        assert set(done[1].values()) == {0.0}
        for side, order in orders.items():
            game.submit(side, order)


def test_the_next_volleys_count_every_ready_laser_and_a_volley_fired_leaves_its_lasers_out_of_them() -> None:
    # Where a search trial ends, what each side's lasers ready and bearing would take off the other counts at half
    # weight: a volley fired late in a trial leaves its lasers cooling, and the judge sees the threat it gave up.
    game, orders = _first_volley("avt-duel-wasp")
    system, state = game.system, game.state
    threat = next_volleys(state)
    fired = expected_losses(state, orders)
    for side, loss in fired.items():
        if loss:  # greedy fires every laser ready, bearing and powered, as the next volleys take each side to
            assert threat[side] == pytest.approx(loss)
    done = system.resolve_in_prospect(state, orders, Dice(0))
    assert done is not None
    after = next_volleys(done[0])
    struck = [side for side, loss in fired.items() if loss]
    assert struck
    assert all(after[side] < threat[side] for side in struck)
    # No battery power, no volley.
    assert set(next_volleys(_emptied(state)).values()) == {0.0}


def test_the_avt_standing_counts_the_next_volleys_at_half_weight() -> None:
    game, _ = _first_volley("avt-duel-rafik")
    state = game.state
    standing = game.system.standing(state)
    threat = next_volleys(state)
    assert NEXT_VOLLEY == 0.5
    for side, value in standing.items():
        ships = [s for s in state.ships_of(side) if s.kind == "ship"]
        boxes = sum(n for s in ships for _, n in s.marks)
        assert value == pytest.approx(10.0 * len(ships) - BOX * boxes - NEXT_VOLLEY * threat[side])
    assert any(threat.values())


def test_regions_alike_in_what_the_hull_losses_read_share_one_table_with_the_same_answers() -> None:
    """Regions with the same hit location table, hull depth and far-side armour lose alike (issue 51: speed, the
    same numbers): each gives exactly what its own recursion gives."""
    from vectorwar.systems.avt import catalogue, prospects

    design = catalogue.designs()["rafik"]
    assert design.ssd is not None
    by_reads: dict[tuple[str, int, int], list[str]] = {}
    for region in design.ssd.armour:
        by_reads.setdefault(prospects._reads(design, region), []).append(region)
    alike = next(regions for regions in by_reads.values() if len(regions) > 1)
    for region in alike:
        own = prospects._losses_inside(design, region, "boxes")
        assert [prospects.inside(design, region, "boxes", left) for left in range(1, 25)] == [
            own(left, 0, 0) for left in range(1, 25)
        ]
    assert len({id(prospects._INSIDE[(id(design), region, "boxes")]) for region in alike}) == 1


def test_the_hull_tables_kept_ahead_are_the_recursions_own_numbers() -> None:
    """src/vectorwar/systems/avt/hull_tables.py holds exactly what the recursion works out for the built-in designs
    today (rebuild it with tools/avt_hull_tables.py), every float the same."""
    from vectorwar.systems.avt import catalogue, hull_tables, prospects

    worked_out = prospects.hull_tables_for(catalogue.designs())
    assert set(hull_tables._TEXT) == set(worked_out)
    for key, losses in worked_out.items():
        assert hull_tables.table(key) == losses, key
    assert hull_tables.table("not a key") is None


def test_a_design_of_its_own_and_a_pool_beyond_the_tables_get_the_recursions_answers() -> None:
    """A scenario's own design (here a Wasp with a deeper hull) is not in the tables and is worked out when asked;
    so is a pool larger than the design's lasers score."""
    from vectorwar.systems.avt import catalogue, hull_tables, prospects

    wasp = catalogue.designs()["wasp"]
    deeper = wasp.model_copy(update={"hull_depth": {k: v + 5 for k, v in wasp.hull_depth.items()}})
    beyond = prospects.most_points(wasp) + 6
    for design, lefts in ((deeper, range(-2, 30)), (wasp, range(beyond - 3, beyond + 1))):
        for region in ("nose", "port-top"):
            for count in ("boxes", "points"):
                own = prospects._losses_inside(design, region, count)
                assert [prospects.inside(design, region, count, left) for left in lefts] == [
                    own(left, 0, 0) for left in lefts
                ]
    assert hull_tables.table(prospects.hull_key(deeper, "nose", "boxes")) is None
    assert hull_tables.table(prospects.hull_key(wasp, "nose", "boxes")) is not None
    assert prospects.most_points(wasp) == 6 * 7


def test_a_segment_resolved_unrecorded_ends_the_same_and_leaves_out_only_the_events_of_words() -> None:
    """A search trial and a move option's flight resolve segments without the events that are only words
    (``segment.Unrecorded``): every state is the one the recorded segment gives, and every other event is kept."""
    from vectorwar.systems.avt.events import OrdersGiven, ShipMoved, ThrustBurned
    from vectorwar.systems.avt.segment import resolve_segment

    s = set_up("avt-duel-wasp", seed=5, default="greedy")
    game = s.game
    left_out = 0
    for _ in range(24):
        orders = _greedy_orders(s)
        recorded = resolve_segment(game.state, orders, Dice(5, game.dice_count))
        unrecorded = resolve_segment(game.state, orders, Dice(5, game.dice_count), record=False)
        assert unrecorded[0] == recorded[0]
        words = (OrdersGiven, ThrustBurned, ShipMoved)
        assert unrecorded[1] == [e for e in recorded[1] if not isinstance(e, words)]
        left_out += len(recorded[1]) - len(unrecorded[1])
        for side, order in orders.items():
            game.submit(side, order)
    assert left_out > 0


@pytest.mark.parametrize("pools", ["ship", "each"])
def test_a_volleys_loss_kept_is_the_pools_loss_worked_out(pools: str) -> None:
    game, orders = _first_volley("avt-duel-wasp")
    state = replace(game.state, options={**game.state.options, "laser_pools": pools})
    prospects._VOLLEYS.clear()
    first = expected_losses(state, orders)
    assert prospects._VOLLEYS  # kept
    assert expected_losses(state, orders) == first  # and read again
    # The long way: each shot's points from where the ships are, pooled by ship or not, through pool_loss.
    worked = dict.fromkeys(state.sides, 0.0)
    for order in orders.values():
        for o in order.ships:
            shooter = state.ship(o.ship)
            design = state.designs[shooter.design]
            for target_id in dict.fromkeys(s.target for s in o.shots):
                target = state.ship(target_id)
                range_ = marker_between(state, shooter, target).range
                points = [
                    shot_points(design.mounts[design.lasers[s.laser]].weapon, range_, "chance")
                    for s in o.shots
                    if s.target == target_id
                ]
                pooled = [prospects._sum(points)] if pools == "ship" else points
                choices = aim_choices(state, shooter, target)
                region = aimed(choices, o.aim, ssd_of(state.designs[target.design]).armour)
                worked[target.side] += sum(pool_loss(state, target, region, p) for p in pooled)
    assert first == worked
    assert sum(first.values()) > 0


def test_the_next_volleys_are_the_expected_losses_of_every_ships_full_volley_as_orders() -> None:
    s = set_up("avt-duel-rafik", seed=2, default="greedy")
    game, compared = s.game, 0
    for _ in range(120):
        state = game.state
        orders: dict[str, SegmentOrders] = {}
        for side in state.sides:
            enemies = [e for e in state.enemies_of(side) if e.kind == "ship" and e.active]
            entries = []
            for ship in state.ships_of(side):
                if ship.kind == "ship" and ship.active and enemies:
                    enemy = min(enemies, key=lambda e: (marker_between(state, ship, e).range, e.id))
                    volley = full_volley(state, state.designs[ship.design], ship, enemy)
                    if volley:
                        entries.append(ShipOrders(ship.id, shots=tuple(Shot(laser, enemy.id) for laser in volley)))
            orders[side] = SegmentOrders(tuple(entries))
        assert next_volleys(state) == expected_losses(state, orders)
        compared += any(order.ships for order in orders.values())
        if game.is_over:
            break
        for side, order in _greedy_orders(s).items():
            game.submit(side, order)
    assert compared > 5
