"""VMS greedy: its shortcut (plots whose ceiling cannot beat the best are never fully scored, and nothing
changes), and civilian ships kept out of the fight."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario
from vectorwar.hexes import Hex, nearest_hex
from vectorwar.play import bot_order
from vectorwar.setup import set_up
from vectorwar.systems.msc.module import MSCCard
from vectorwar.systems.vms.bots import IDEAL_RANGE, SLACK, UNARMED_RANGE, Scorer, _Course, _guns, spoiled_share
from vectorwar.systems.vms.braking import _TOO_CLOSE as TOO_CLOSE
from vectorwar.systems.vms.braking import _stopping_run, run_hexes, stop
from vectorwar.systems.vms.courses import grouped
from vectorwar.systems.vms.greedy_kept import predict as _predict
from vectorwar.systems.vms.greedy_kept import stays_on
from vectorwar.systems.vms.state import VMSShip, VMSState

from .game_helpers import VMS

SCENARIOS = [f"vms-{kind}-{combat}" for kind in ("capital-duel", "fighter-screen") for combat in ("msc", "vv5")]


def _plots(scenario: str, seed: int, wanted: int) -> list[tuple[VMSState, str]]:
    """Up to ``wanted`` plot prompts of a greedy game against random, each with a side that plots there."""
    setup = set_up(builtin_scenario(scenario), {"red": "greedy", "blue": "random"}, seed=seed)
    game, bots = setup.game, setup.bots
    found: list[tuple[VMSState, str]] = []
    while not game.is_over and len(found) < wanted:
        for side in game.waiting_for:
            state = game.state
            if isinstance(state, VMSState) and state.phase == "plot":
                found.append((state, side))
            game.submit(side, bot_order(game, side, bots[side]))
    return found


@pytest.mark.parametrize("scenario", [*SCENARIOS, "vms-mixed-fleet-msc"])
def test_the_best_plots_are_the_plots_that_score_best_when_every_plot_is_scored(scenario: str) -> None:
    pruned = 0
    for state, side in _plots(scenario, seed=7, wanted=10):
        enemies = _predict(state, side)
        for ship in VMS.movers(state, side):
            options = VMS.plots_for(state, ship)
            scorer = Scorer(state, ship, enemies, VMS)
            scored = [(scorer.score(r), p) for p, r in options]
            top = max(score for score, _ in scored)
            quick = Scorer(state, ship, enemies, VMS)
            assert quick.best(options) == [p for score, p in scored if score == top]
            # The shortcut is taken: fewer ends fully scored than plots offered, most of the time.
            pruned += len(quick.cache) < len(options)
    assert pruned > 0


@pytest.mark.parametrize("scenario", [*SCENARIOS, "vms-mixed-fleet-msc"])
def test_the_threat_at_an_end_is_every_enemys_whole_bearing_with_the_ship_moved_there(scenario: str) -> None:
    """The scorer's threat (each enemy's weapons on the other ships worked out once a side, its entries on the
    ship moved asked alone) is exactly the sum of every enemy's guns on the view with the ship at the end."""
    for state, side in _plots(scenario, seed=3, wanted=4):
        enemies = _predict(state, side)
        for ship in VMS.movers(state, side):
            scorer = Scorer(state, ship, enemies, VMS)
            for _, result in VMS.plots_for(state, ship)[:40]:
                end = result.motion.hex
                distance_to = scorer._end(end).distance_to
                me = replace(scorer.base.ship(ship.id), hex=end)
                view = replace(scorer.base, ships=tuple(me if c.id == me.id else c for c in scorer.others))
                whole = sum(_guns(scorer.combat, view, e.id, {ship.id: distance_to[e.id]}) for e in enemies)
                assert scorer._threat(end) == whole


def test_a_ceiling_and_a_bound_are_never_below_the_score_and_the_terms_are_the_scores() -> None:
    """Each plot's ceiling (every weapon bearing at the nearest enemy's range, no enemy weapon on it but those on the
    side's other ships) bounds its score, its course's bound (the plots of its end hex and vector, the best of their
    turning and brakes) bounds that, and the terms worked out course by course are :meth:`Scorer._terms`' own."""
    for scenario in [*SCENARIOS, "vms-mixed-fleet-msc", "vms-mixed-fleet-vv5"]:
        for state, side in _plots(scenario, seed=11, wanted=4):
            enemies = _predict(state, side)
            for ship in VMS.movers(state, side):
                scorer = Scorer(state, ship, enemies, VMS)
                if scorer.most is None or not enemies:
                    continue
                options = VMS.plots_for(state, ship)
                spoils = {
                    r.hexsides_turned: spoiled_share(r.hexsides_turned, scorer.base.penalty_per_hexside)
                    for _, r in options
                }
                for plots in grouped(options).courses:
                    course = _Course(scorer, options[plots.numbers[0]][1])
                    bound = course.bound(plots, spoils)
                    course.open()  # as best() opens a course before its plots' ceilings
                    for i in plots.numbers:
                        result = options[i][1]
                        ceiling = course.ceiling(result, spoils)
                        assert course.terms(result) == scorer._terms(result)
                        assert scorer.score(result) <= ceiling + SLACK <= bound + 2 * SLACK


def _hauler_plots(scenario: str, seed: int) -> tuple[VMSState, list[int]]:
    """Greedy blue against random red for six turns: the state where blue's freighter, the Hauler, first
    plots, and its speed after each turn's move."""
    setup = set_up(builtin_scenario(scenario), {"red": "random", "blue": "greedy"}, seed=seed)
    game = setup.game
    first: VMSState | None = None
    speeds: list[int] = []
    for _ in range(600):
        state = game.state
        if game.is_over or not isinstance(state, VMSState) or state.turn > 6:
            break
        plots = state.phase == "plot" and any(s.id == "Hauler" for s in VMS.movers(state, "blue"))
        first = state if first is None and plots else first
        for side in game.waiting_for:
            game.submit(side, bot_order(game, side, setup.bots[side]))
        if plots and isinstance(game.state, VMSState) and game.state.ship("Hauler").active:
            speeds.append(game.state.ship("Hauler").velocity.speed)
    assert first is not None
    return first, speeds


@pytest.mark.parametrize("scenario", ["vms-mixed-fleet-msc", "vms-mixed-fleet-vv5"])
def test_a_civilian_ship_keeps_out_of_the_fight_at_rest_where_a_warship_of_its_hull_would_close(
    scenario: str,
) -> None:
    start, speeds = _hauler_plots(scenario, seed=3)
    assert len(speeds) >= 4
    assert set(speeds) == {0}
    hauler = start.ship("Hauler")
    assert hauler.spec.ship_class == "civilian"
    enemies = _predict(start, "blue")

    def best_speeds(ship: VMSShip) -> set[int]:
        options = VMS.plots_for(start, ship)
        ends = dict(options)
        return {ends[p].motion.velocity.speed for p in Scorer(start, ship, enemies, VMS).best(options)}

    assert best_speeds(hauler) == {0}
    # The same hull as a warship: greedy burns toward the enemy.
    warship = replace(hauler, spec=hauler.spec.model_copy(update={"ship_class": "medium"}))
    assert min(best_speeds(warship)) > 0


def _alone(state: VMSState, ship_id: str) -> VMSState:
    """``state`` with every other ship of ``ship_id``'s side destroyed."""
    side = state.ship(ship_id).side
    ships = tuple(replace(s, status="destroyed") if s.side == side and s.id != ship_id else s for s in state.ships)
    return replace(state, ships=ships)


def _best_ends(state: VMSState, ship: VMSShip) -> list[tuple[int, int]]:
    """Greedy's best plots for ``ship``: each one's speed and range to the nearest enemy where it ends."""
    enemies = _predict(state, ship.side)
    options = VMS.plots_for(state, ship)
    ends = dict(options)
    out = []
    for plot in Scorer(state, ship, enemies, VMS).best(options):
        motion = ends[plot].motion
        out.append((motion.velocity.speed, min(motion.hex.distance(e.hex) for e in enemies)))
    return out


def test_a_civilian_ship_left_without_warships_fights_with_its_gun_instead_of_waiting_at_rest() -> None:
    start, _ = _hauler_plots("vms-mixed-fleet-msc", seed=3)
    alone = _alone(start, "Hauler")
    hauler = alone.ship("Hauler")
    assert hauler.velocity.speed == 0
    range_now = min(hauler.hex.distance(e.hex) for e in _predict(alone, "blue"))
    best = _best_ends(alone, hauler)
    assert all(speed > 0 for speed, _ in best)  # it burns toward the enemy
    assert all(reach < range_now for _, reach in best)


def test_a_civilian_ship_with_no_weapon_keeps_its_distance_where_a_warship_would_close() -> None:
    start, _ = _hauler_plots("vms-mixed-fleet-msc", seed=3)
    alone = _alone(start, "Hauler")
    # The Hauler three hexes from the nearest enemy, at rest: armed, it stays to fight; unarmed, it opens the range.
    enemy = min(_predict(alone, "blue"), key=lambda e: e.hex.distance(alone.ship("Hauler").hex))
    hauler = replace(alone.ship("Hauler"), hex=enemy.hex.shifted(0, -3))
    assert alone.map.contains(hauler.hex)
    assert isinstance(hauler.card, MSCCard)
    unarmed = replace(hauler, card=replace(hauler.card, weapons_fitted=()))

    def placed(ship: VMSShip) -> VMSState:
        return replace(alone, ships=tuple(ship if s.id == "Hauler" else s for s in alone.ships))

    assert Scorer(placed(unarmed), unarmed, _predict(alone, "blue"), VMS).ideal == UNARMED_RANGE
    assert all(reach <= 3 for _, reach in _best_ends(placed(hauler), hauler))
    assert all(reach > 3 for _, reach in _best_ends(placed(unarmed), unarmed))
    # A warship left without weapons still closes.
    warship = replace(unarmed, spec=unarmed.spec.model_copy(update={"ship_class": "medium"}))
    assert Scorer(placed(warship), warship, _predict(alone, "blue"), VMS).ideal == IDEAL_RANGE


@given(
    st.integers(-30, 30),
    st.integers(-30, 30),
    st.integers(-12, 12),
    st.integers(-12, 12),
    st.integers(1, 6),
    st.integers(0, 2),
)
def test_a_stop_is_the_hex_nearest_the_end_of_its_braking_run(
    q: int, r: int, dq: int, dr: int, brake: int, margin: int
) -> None:
    """Where a braking ship stops (worked out in numbers and kept by them) is the hex ``hexes.nearest_hex`` names
    at the end of its braking run, one hex object for every stop there."""
    if dq == 0 and dr == 0:
        assert stop(Hex(q, r), dq, dr, brake, margin) == Hex(q, r)
        return
    run_q, run_r = _stopping_run(dq, dr, brake, margin)
    found = stop(Hex(q, r), dq, dr, brake, margin)
    assert found == nearest_hex(q + run_q, r + run_r)
    assert stop(Hex(q, r), dq, dr, brake, margin) is found


def test_a_stop_is_its_run_from_zero_moved_to_the_start_except_where_that_rounding_turns_on_the_start() -> None:
    """``braking.run_hexes`` keeps a run's hexes rounded from zero, and a stop is them moved to the ship, except where
    a half or a tie in that rounding could turn on the start: every vector to 8 hexes, brake to 6 and margin, from
    starts all over a board, stops where rounding from the start itself says (both kinds of run met)."""
    kinds = set()
    for dq, dr in itertools.product(range(-8, 9), repeat=2):
        if dq == 0 and dr == 0:
            continue
        for brake, margin in itertools.product(range(7), range(2)):
            run_q, run_r = _stopping_run(dq, dr, brake, margin)
            kinds.add(run_hexes(dq, dr, brake, margin) is TOO_CLOSE)
            for q, r in itertools.product(range(-9, 10, 3), range(-9, 10, 2)):
                assert stop(Hex(q, r), dq, dr, brake, margin) == nearest_hex(q + run_q, r + run_r)
    assert kinds == {True, False}


@settings(max_examples=200, deadline=None)
@given(
    start=st.tuples(st.integers(-4, 28), st.integers(-20, 28)),
    offset=st.tuples(st.integers(-14, 14), st.integers(-14, 14)),
)
def test_whether_a_path_stays_on_the_map_is_every_hex_of_it_on_the_map(
    start: tuple[int, int], offset: tuple[int, int]
) -> None:
    """The greedy bot's test of a path (a line no longer than its first hex's clear radius stays on without a hex
    looked at) says what walking every hex of the line says, on the capital duel's map."""
    board = builtin_scenario("vms-capital-duel-vv5").map.build()
    first = Hex(*start)
    path = tuple(first.line_to(first.shifted(*offset)))
    assert stays_on(board, {}, path) == all(board.contains(h) for h in path)
