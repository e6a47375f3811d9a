"""A held-fire segment played ship by ship (``held_segment.resolve_held``) held to the long way: the shots at ships
held (``prospects.held``) and the whole segment played (``segment.resolve_segment``), the same state after."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import fields

import pytest

from vectorwar.dice import Dice
from vectorwar.roster import replace_fields
from vectorwar.setup import set_up
from vectorwar.systems.avt import held_segment, prospects
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.held_segment import resolve_held
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders
from vectorwar.systems.avt.segment import resolve_segment
from vectorwar.systems.avt.state import AVTState

from .helpers import AVT

SCENARIOS = ["avt-duel-wasp", "avt-duel-rafik", "avt-damage", "avt-pivot-thrust", "avt-pitch-and-climb", "avt-drift"]


def _long_way(state: AVTState, orders: Mapping[str, SegmentOrders]) -> AVTState:
    before, kept = prospects.held(state, orders)
    return resolve_segment(before, kept, Dice(7), record=False)[0]


def _compare(state: AVTState, orders: Mapping[str, SegmentOrders]) -> AVTState | None:
    """The state after ``orders`` both ways, checked equal; ``None`` where the shortcut declines."""
    dice = Dice(7)
    short = resolve_held(state, orders, dice)
    if short is None:
        return None
    # Nothing of the held segment throws a die but a repair's, rolled at the turn's break as the long way rolls it.
    assert all(" repair of " in roll.purpose for roll in dice.log)
    again = resolve_held(state, orders, Dice(7))
    assert again is not None
    assert again.ships == short.ships
    if state.segment < SEGMENTS:  # (the turn's end copies every ship)
        assert again is short  # the kept state itself, its ships those kept
    assert AVT.state_to_data(short) == AVT.state_to_data(_long_way(state, orders))
    return short


@pytest.mark.parametrize("options", [{}, {"three_d": False}])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_held_segment_ship_by_ship_ends_where_the_whole_segment_does(
    scenario: str, options: dict[str, object]
) -> None:
    greedy = AVT.bots()["greedy"]()
    game = set_up(scenario, seed=2, default="greedy", options=options).game
    compared = 0
    rng = random.Random(3)
    while not game.is_over and compared < 400:
        state = game.state
        # Greedy's trial segments and the menu's random orders (rolls, radiators, repairs, reactors) from here on.
        trial = state
        for step in range(10):
            prompt = AVT.prompt(trial)
            if prompt is None:
                break
            pick = greedy if step % 3 else None
            orders = {
                s: greedy.choose(trial, s, rng) if pick else AVT.random_order(trial, s, rng) for s in prompt.sides
            }
            plots = {s: o for s, o in orders.items() if isinstance(o, SegmentOrders)}
            after = _compare(trial, plots)
            if after is None:
                trial = _long_way(trial, plots)
                continue
            compared += 1
            trial = after
        for side in game.waiting_for:
            game.submit(side, greedy.choose(state, side, rng))
    assert compared > 40 or scenario not in ("avt-duel-wasp", "avt-duel-rafik")


def test_a_target_on_the_map_or_a_ship_given_two_entries_is_played_whole() -> None:
    state = set_up("avt-duel-wasp", seed=1, default="greedy").game.state
    ship = state.ships[0]
    entry = ShipOrders(ship.id, thrust=1)
    orders = {ship.side: SegmentOrders((entry,))}
    assert _compare(state, orders) is not None
    assert resolve_held(state, {ship.side: SegmentOrders((entry, entry))}, Dice(1)) is None
    chocolate = replace_fields(ship, id="chocolate", name="chocolate", kind="target", side=state.ships[1].side)
    with_target = replace_fields(state, ships=(*state.ships, chocolate))
    assert resolve_held(with_target, orders, Dice(1)) is None


def test_the_next_state_is_kept_by_every_field_of_a_state() -> None:
    named = {"ships", *held_segment.NEXT_BY_VALUE, *held_segment.NEXT_BY_IDENTITY}
    assert named == {f.name for f in fields(AVTState)}
