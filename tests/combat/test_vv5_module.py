"""The VV5 combat module: VV5's gun table and damage locations through the neutral view."""

from __future__ import annotations

import random

import pytest

from vectorwar.combat import module
from vectorwar.combat.vv5 import VV5Card
from vectorwar.dice import Dice
from vectorwar.errors import DesignError, IllegalOrderError
from vectorwar.events import Event
from vectorwar.systems.vv5.events import GunsFired

from .helpers import VV5_TABLE, duel

VV5 = module("vv5")


def test_card_is_a_vv5_design_without_missiles() -> None:
    card = VV5.card("Hawk", VV5_TABLE, "test")
    assert isinstance(card, VV5Card)
    assert (card.structure.boxes, card.acceleration.boxes, card.mounts[0].guns.boxes) == (20, 2, 2)
    with pytest.raises(DesignError, match="missiles"):
        VV5.card("Hawk", {**VV5_TABLE, "missiles": 2}, "test")
    with pytest.raises(DesignError, match="over"):
        VV5.card("Hawk", {**VV5_TABLE, "mass": 3}, "test")


def _fired(view_kwargs: dict[str, object], order: str = "Hawk fwd*1>Raven") -> GunsFired:
    view = duel("vv5", VV5_TABLE, **view_kwargs)  # type: ignore[arg-type]
    events: list[Event] = []
    VV5.fire(view, "red", VV5.parse_fire(view, "red", order), Dice(5), events)
    return next(e for e in events if isinstance(e, GunsFired))


def test_gun_modifiers_take_the_turn_penalty_and_a_target_that_cannot_thrust() -> None:
    plain = _fired({"distance": 2})
    assert plain.need == 8  # range 2 on the gun table
    assert plain.modifier == 1  # target 20 t
    assert _fired({"distance": 2, "turned": 2}).modifier == 1 - 4
    assert _fired({"distance": 2, "target_can_thrust": False}).modifier == 1 + 3


def test_gun_damage_is_noted_then_rolled_after_every_side_fired() -> None:
    view = duel("vv5", VV5_TABLE, distance=1)
    for seed in range(50):
        out = VV5.fire(view, "red", VV5.parse_fire(view, "red", "Hawk fwd*2>Raven fwd*2>Raven"), Dice(seed), [])
        if "Raven" in out.cards:
            break
    noted = out.cards["Raven"]
    assert noted.noted
    assert noted.structure == view.cards["Raven"].structure
    after_view = type(view)(view.ships, {**view.cards, "Raven": noted}, view.map, 2)
    events: list[Event] = []
    done = VV5.after_fire(after_view, Dice(99), events)
    assert done.cards["Raven"].noted == ()
    assert any(e.kind in ("damaged", "vv5-armour") for e in events)


def test_rapid_fire_and_arcs_are_checked() -> None:
    view = duel("vv5", VV5_TABLE, distance=2)
    with pytest.raises(IllegalOrderError, match="twice"):
        VV5.check_fire(view, "red", VV5.parse_fire(view, "red", "Hawk fwd*2>Raven fwd*2>Raven fwd*1>Raven"))
    order = VV5.parse_fire(view, "red", "hawk fwd>raven")
    assert str(order) == "Hawk fwd*2>Raven"
    VV5.check_fire(view, "red", order)
    far = duel("vv5", VV5_TABLE, distance=7)
    with pytest.raises(IllegalOrderError, match="guns reach 6"):
        VV5.check_fire(far, "red", VV5.parse_fire(far, "red", "Hawk fwd*1>Raven"))


def test_acceleration_hits_are_thrust_lost_and_structure_gone_is_destroyed() -> None:
    view = duel("vv5", VV5_TABLE)
    out = VV5.structure_damage(view, "Raven", 3, 25, [])
    assert out.cards["Raven"].structure.boxes == 0
    assert [e.kind for e in out.effects] == ["destroyed"]
    seen = False
    for seed in range(60):
        noted = VV5.card("Raven", VV5_TABLE, "test")
        from dataclasses import replace

        hit = type(view)(view.ships, {**view.cards, "Raven": replace(noted, noted=(("Hawk", 3),))}, view.map, 2)
        effects = VV5.after_fire(hit, Dice(seed), []).effects
        for e in effects:
            if e.kind == "thrust lost":
                assert e.of == 2
                seen = True
    assert seen


def test_bots_fire_only_legal_shots() -> None:
    view = duel("vv5", VV5_TABLE, distance=3)
    for seed in range(20):
        VV5.check_fire(view, "red", VV5.random_fire(view, "red", random.Random(seed)))
    greedy = VV5.greedy_fire(view, "red")
    VV5.check_fire(view, "red", greedy)
    assert str(greedy) == "Hawk fwd*2>Raven fwd*2>Raven"


def test_shot_options_offer_each_gun_count_named_as_the_arcs() -> None:
    view = duel("vv5", VV5_TABLE, distance=3)
    options = VV5.shot_options(view, "Hawk")
    assert [(o.weapon, o.target, o.piece) for o in options] == [
        ("forward guns", "Raven", "fwd*1>Raven"),
        ("forward guns", "Raven", "fwd*2>Raven"),
    ]
    assert {o.weapon for o in options} <= set(VV5.arc_hexes(view, "Hawk"))
    for o in options:
        VV5.check_fire(view, "red", VV5.parse_fire(view, "red", f"Hawk {o.piece}"))
    # Raven faces Hawk, so its guns answer; out of gun range nobody is offered anything.
    assert [o.target for o in VV5.shot_options(view, "Raven")] == ["Hawk", "Hawk"]
    assert VV5.shot_options(duel("vv5", VV5_TABLE, distance=8), "Hawk") == []
