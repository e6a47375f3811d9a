"""The MSC combat module: MSC's own rules, reached through the neutral view."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from vectorwar.combat.base import CombatView, roll_off
from vectorwar.dice import Dice
from vectorwar.errors import DesignError, IllegalOrderError
from vectorwar.events import Event, Fired, Rolled
from vectorwar.hexes import Direction, Hex
from vectorwar.systems.msc.arcs import Side, sides_seeing
from vectorwar.systems.msc.combat import to_hit_number
from vectorwar.systems.msc.module import _MOST_ARCS, MSCCard, as_msc_ship
from vectorwar.systems.vms.modules import module

from .helpers import MSC_TABLE, duel

MSC = module("msc")


def test_card_is_checked_by_msc_design_rules() -> None:
    card = MSC.card("Hawk", MSC_TABLE, "test")
    assert card == MSCCard("msc", 3, 3, 3, (Side.F, Side.FL, Side.FR), 3, 3, (Side.F, Side.FL, Side.FR))
    with pytest.raises(DesignError, match=r"combat\.msc\.weapons"):
        MSC.card("Hog", {**MSC_TABLE, "weapons": ["R"]}, "test")


def test_to_hit_is_msc_s_own_number_less_the_turning_penalty() -> None:
    view = duel("msc", MSC_TABLE, distance=3, turned=1)
    plain = to_hit_number(as_msc_ship(view, "Hawk"), 3)
    assert plain == 3  # TO-HIT 3, range 3-4: +0
    events: list[Event] = []
    MSC.fire(view, "red", MSC.parse_fire(view, "red", "Hawk F>Raven"), Dice(1), events)
    fired = next(e for e in events if isinstance(e, Fired))
    assert fired.need == plain - 2  # one hexside turned: -2


def test_fire_order_notation_and_checks() -> None:
    view = duel("msc", MSC_TABLE)
    order = MSC.parse_fire(view, "red", "hawk f>raven fl>raven")
    assert str(order) == "Hawk F>Raven FL>Raven"
    assert MSC.parse_fire(view, "red", str(order)) == order
    with pytest.raises(IllegalOrderError, match="not in the FL arc"):
        MSC.check_fire(view, "red", order)  # dead ahead is the F arc only
    MSC.check_fire(view, "red", MSC.parse_fire(view, "red", "Hawk F>Raven"))
    with pytest.raises(IllegalOrderError, match="no weapon on its RL side"):
        MSC.check_fire(view, "red", MSC.parse_fire(view, "red", "Hawk RL>Raven"))
    with pytest.raises(IllegalOrderError, match="once per turn"):
        MSC.check_fire(view, "red", MSC.parse_fire(view, "red", "Hawk F>Raven F>Raven"))
    far = duel("msc", MSC_TABLE, distance=7)
    assert MSC.legal_shots(far, "red") == []


def test_engine_hits_come_back_as_thrust_lost_and_the_last_shield_as_destroyed() -> None:
    view = duel("msc", MSC_TABLE, distance=1)
    found = set()
    for seed in range(200):
        events: list[Event] = []
        out = MSC.fire(view, "red", MSC.parse_fire(view, "red", "Hawk F>Raven"), Dice(seed), events)
        kinds = {e.kind for e in out.effects}
        found |= kinds
        if "thrust lost" in kinds:
            effect = next(e for e in out.effects if e.kind == "thrust lost")
            assert (effect.parts, effect.of) == (1, 3)
            assert out.cards["Raven"].engine == 2
        assert sum(isinstance(e, Rolled) for e in events) >= 1
    assert "thrust lost" in found
    weak = CombatView(view.ships, {**view.cards, "Raven": replace(view.cards["Raven"], shields=1)}, view.map, 2)
    seen_destroyed = False
    for seed in range(100):
        out = MSC.fire(weak, "red", MSC.parse_fire(weak, "red", "Hawk F>Raven"), Dice(seed), [])
        if out.cards.get("Raven") is not None and out.cards["Raven"].shields == 0:
            assert any(e.kind == "destroyed" for e in out.effects)
            seen_destroyed = True
    assert seen_destroyed


def test_structure_damage_takes_one_shield_per_die() -> None:
    view = duel("msc", MSC_TABLE)
    out = MSC.structure_damage(view, "Raven", 2, 13, [])
    assert out.cards["Raven"].shields == 1
    assert out.effects == ()
    out = MSC.structure_damage(view, "Raven", 3, 20, [])
    assert [e.kind for e in out.effects] == ["destroyed"]


def test_bots_fire_only_legal_shots() -> None:
    view = duel("msc", MSC_TABLE, distance=2)
    for seed in range(20):
        MSC.check_fire(view, "red", MSC.random_fire(view, "red", random.Random(seed)))
    greedy = MSC.greedy_fire(view, "red")
    MSC.check_fire(view, "red", greedy)
    assert str(greedy) == "Hawk F>Raven"


def test_roll_off_reroll_ties_among_the_tied() -> None:
    events: list[Event] = []
    order = roll_off(("a", "b", "c"), Dice(3), events)
    assert sorted(order) == ["a", "b", "c"]
    rolls = [e for e in events if isinstance(e, Rolled)]
    first = {r.purpose.rsplit(" ", 1)[1]: r.total for r in rolls[:3]}
    assert [first[s] for s in order] == sorted(first.values(), reverse=True) or len(rolls) > 3


def test_shot_options_are_the_weapons_that_bear_named_as_their_arcs() -> None:
    view = duel("msc", MSC_TABLE, distance=2)
    options = MSC.shot_options(view, "Hawk")
    # Raven is dead ahead: only the F weapon bears (FL and FR cover the forward corners, not the nose).
    assert [(o.weapon, o.target, o.piece) for o in options] == [("F weapon", "Raven", "F>Raven")]
    assert {o.weapon for o in options} <= set(MSC.arc_hexes(view, "Hawk"))
    for o in options:
        MSC.check_fire(view, "red", MSC.parse_fire(view, "red", f"Hawk {o.piece}"))
    assert MSC.shot_options(duel("msc", MSC_TABLE, distance=9), "Hawk") == []


def test_the_ships_and_shots_kept_for_a_view_are_those_of_the_view_asked_about() -> None:
    near = duel("msc", MSC_TABLE, distance=2)
    far = duel("msc", MSC_TABLE, distance=9)
    hurt = replace(near, cards={**near.cards, "Hawk": replace(near.cards["Hawk"], shields=1)})
    # Views asked about in turn, each again after another: every answer is its own view's.
    for view, shields, shots in ((near, 3, 1), (far, 3, 0), (near, 3, 1), (hurt, 1, 1), (near, 3, 1)):
        hawk = as_msc_ship(view, "Hawk")
        assert hawk.shields == shields
        assert as_msc_ship(view, "Hawk", 2).to_hit == hawk.to_hit - 2  # kept apart by the penalty too
        assert len(MSC.legal_shots(view, "red")) == shots


def test_no_hex_but_the_ship_s_own_is_held_by_more_than_two_arcs() -> None:
    origin = Hex(0, 0)
    most = max(len(sides_seeing(origin, facing, h)) for facing in Direction for h in origin.within(5) if h != origin)
    assert most == _MOST_ARCS == 2  # most_bearing_from counts two weapons at most for each target
