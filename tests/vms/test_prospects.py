"""VMS's fire in prospect (the search bot's judge of a position) against the fire the combat modules roll."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.dice import Dice
from vectorwar.game import Game
from vectorwar.search import Judging, SearchBot
from vectorwar.setup import SetUp, set_up
from vectorwar.systems.vms.braking import stops_on_map
from vectorwar.systems.vms.rules import LEAVING, VectorMovement
from vectorwar.systems.vms.state import VMSState
from vectorwar.vectors import Velocity


def _greedy(scenario: str, seed: int = 1) -> SetUp:
    return set_up(scenario, {side.id: "greedy" for side in builtin_scenario(scenario).sides}, seed=seed)


def _vms(game: Game) -> VectorMovement:
    system = game.system
    assert isinstance(system, VectorMovement)
    return system


def _greedy_until(
    scenario: str, wanted: Callable[[Game, VMSState], bool], what: str, limit: int, seed: int = 1
) -> Game:
    """A greedy game of ``scenario`` stopped at the first state ``wanted``, within ``limit`` orders (fails, never
    hangs)."""
    s = _greedy(scenario, seed)
    game = s.game
    for _ in range(limit):
        state = game.state
        if isinstance(state, VMSState) and wanted(game, state):
            return game
        for side in game.waiting_for:
            game.submit(side, s.bots[side].choose(game.system.side_view(state, side), side, random.Random(0)))
    raise AssertionError(f"{scenario}: no {what} in {limit} orders")


def _shot_to_make(game: Game, state: VMSState) -> bool:
    if state.phase != "fire":
        return False
    side = state.fire_order[state.firing]
    combat, view = _vms(game).combat(state), _vms(game).view(state)
    order = combat.greedy_fire(view, side)
    return str(order) != "hold" and bool(combat.expected_losses(view, side, order))


def _first_fire(scenario: str, seed: int = 1) -> Game:
    """A greedy game of ``scenario`` stopped at its first fire declaration with a shot to make."""
    return _greedy_until(scenario, _shot_to_make, "shot", 400, seed)


def _dodge(state: VMSState, ship_id: str) -> int:
    card = state.ship(ship_id).card
    return int(getattr(getattr(card, "acceleration", None), "boxes", 0)) // 2


@pytest.mark.parametrize("scenario", ["vms-capital-duel-msc", "vms-capital-duel-vv5", "vms-fighter-screen-vv5"])
def test_a_declarations_expected_losses_are_the_mean_of_the_strength_its_rolled_fire_takes(scenario: str) -> None:
    game = _first_fire(scenario)
    system, state = _vms(game), game.state
    combat, view = system.combat(state), system.view(state)
    side = state.fire_order[state.firing]
    order = combat.greedy_fire(view, side)
    expected = combat.expected_losses(view, side, order)
    assert expected
    assert all(v > 0 for v in expected.values())
    runs = 2000
    lost = dict.fromkeys(expected, 0.0)
    for seed in range(runs):
        dice = Dice(seed)
        after = system.apply_outcome(state, combat.fire(view, side, order, dice, []), [])
        # VV5 gun damage is noted as it hits and rolled for once every side has fired; its missiles fly
        # through the next movement, their targets taken to burn half their acceleration to dodge them.
        after = system.apply_outcome(after, combat.after_fire(system.view(after), dice, []), [])
        dodging = system.view(after)
        dodging = replace(dodging, ships=tuple(replace(c, accelerated=_dodge(after, c.id)) for c in dodging.ships))
        after = system.apply_outcome(after, combat.after_movement(dodging, dice, []), [])
        for ship_id in expected:
            was, now = state.ship(ship_id), after.ship(ship_id)
            lost[ship_id] += combat.strength(was.card) - (combat.strength(now.card) if now.active else 0.0)
    # Within a quarter: the judge takes a ship's systems to stay as they are while the points land, where a
    # missile's many points use some up and pass more on to structure (the fighter screen: 2.33 rolled,
    # 1.90 judged). The capital duels' gunfire is within a tenth.
    for ship_id, value in expected.items():
        assert lost[ship_id] / runs == pytest.approx(value, rel=0.25, abs=0.05), ship_id


def test_the_prospect_is_the_targets_sides_loss_and_counts_in_the_standing_only_in_the_fire_phase() -> None:
    game = _first_fire("vms-capital-duel-msc")
    system, state = _vms(game), game.state
    prospect = system.fire_in_prospect(state)
    assert prospect is not None
    assert min(prospect.values()) < 0  # a loss to whoever is shot at
    combat = system.combat(state)
    held = {
        s: sum(combat.strength(x.card) * (1.0 if stops_on_map(state, x) else LEAVING) for x in state.ships_of(s))
        for s in state.sides
    }
    assert dict(system.standing(state)) == pytest.approx({s: held[s] + prospect[s] for s in state.sides})
    start = set_up("vms-capital-duel-msc", seed=1).game.state
    at_start = system.fire_in_prospect(start)
    assert at_start is not None
    assert set(at_start.values()) == {0.0}


def test_a_vms_search_trial_stops_at_the_fire_phase_of_the_turn_after_and_rolls_no_shot() -> None:
    s = _greedy("vms-capital-duel-msc")
    game = s.game
    # Played by greedy to the second turn's plots (bounded: a game that ended first fails here, not hangs).
    for _ in range(400):
        if game.state.phase == "plot" and game.state.turn == 2:
            break
        for side in game.waiting_for:
            game.submit(side, s.bots[side].choose(game.system.side_view(game.state, side), side, random.Random(0)))
    state = game.state
    assert isinstance(state, VMSState)
    assert (state.phase, state.turn) == ("plot", 2)
    side = game.waiting_for[0]
    bot = SearchBot(game.system)
    assert bot.judging(state) is Judging.PROSPECT
    order = bot.policy.choose(state, side, random.Random(0))
    end, judged = bot._rollout(state, {side: order}, 7, Judging.PROSPECT)
    # The first stop is this turn's fire, counted in expectation and held; the second the next turn's.
    assert end.turn == state.turn + 1
    assert end.phase == "fire" or end.phase == "over"
    combat = _vms(game).combat(state)
    assert [combat.strength(x.card) for x in end.ships] == [combat.strength(x.card) for x in state.ships]
    assert set(judged) == set(state.sides)


def test_a_ship_that_can_no_longer_stop_on_the_map_counts_for_part_of_its_strength() -> None:
    s = _greedy("vms-capital-duel-msc")
    state = s.game.state
    system = _vms(s.game)
    ship = state.ships[0]
    assert stops_on_map(state, ship)
    before = system.standing(state)[ship.side]
    # Heading for the nearest edge far faster than its thrust can take off before it gets there.
    fast = replace(ship, velocity=Velocity(0, -40))
    assert not stops_on_map(state, fast)
    after = system.standing(state.with_ship(fast))[ship.side]
    strength = system.combat(state).strength(ship.card)
    assert after == pytest.approx(before - (1 - LEAVING) * strength)


def _missiles_in_flight(scenario: str) -> Game:
    """A greedy game of ``scenario`` stopped at a plot with a missile flying at some ship."""

    def flying(game: Game, state: VMSState) -> bool:
        return state.phase == "plot" and any(getattr(x.card, "incoming", ()) for x in state.ships if x.active)

    return _greedy_until(scenario, flying, "missile in flight", 600)


def test_missiles_in_flight_are_counted_in_expectation_where_a_trial_moves_and_no_die_is_thrown() -> None:
    # VV5 combat's missiles are rolled once every ship has moved: a search trial's moves count them at what
    # they are expected to take (``resolve_in_prospect``), as the fire to come, instead of throwing its dice.
    game = _missiles_in_flight("vms-fighter-screen-vv5")
    system, start = _vms(game), game.state
    assert isinstance(start, VMSState)
    policy = SearchBot(system).policy
    plots: list[dict[str, object]] = []
    state, lost, dice = start, dict.fromkeys(start.sides, 0.0), Dice(0)
    while state.phase == "plot":
        prompt = system.prompt(state)
        assert prompt is not None
        orders = {side: policy.choose(state, side, random.Random(0)) for side in prompt.sides}
        plots.append(orders)
        done = system.resolve_in_prospect(state, orders, dice)
        assert done is not None
        state, losses = done
        for who, v in losses.items():
            lost[who] += v
    assert state.phase in ("fire-order", "fire")  # every ship has moved (VV5's initiative may ask first)
    assert not any(getattr(x.card, "incoming", ()) for x in state.ships)
    assert not [r for r in dice.log if "missile" in r.purpose]
    combat = system.combat(start)
    assert [combat.strength(x.card) for x in state.ships] == [combat.strength(x.card) for x in start.ships]
    assert max(lost.values()) > 0
    # The same moves with the missiles rolled, on many dice: the strength lost on average, side by side.
    runs = 1500
    rolled = dict.fromkeys(start.sides, 0.0)
    for seed in range(runs):
        after = start
        for orders in plots:
            after, _ = system.resolve(after, orders, Dice(seed))
        for was, now in zip(start.ships, after.ships, strict=True):
            rolled[was.side] += combat.strength(was.card) - (combat.strength(now.card) if now.active else 0.0)
    # Within a quarter, as the fire's (the judge takes a ship's systems to stay as they are while points land).
    for who, v in lost.items():
        assert rolled[who] / runs == pytest.approx(v, rel=0.25, abs=0.05), who
    # Outside the moves the system offers nothing: the fire is declared and rolled as ever.
    assert system.resolve_in_prospect(state, {}, Dice(0)) is None
