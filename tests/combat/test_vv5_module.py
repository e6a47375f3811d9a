"""The VV5 combat module: VV5's gun table and damage locations through the neutral view."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Unpack

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.support.dice import LoadedDice
from vectorwar.combat.base import CombatView
from vectorwar.dice import Dice
from vectorwar.errors import DesignError, IllegalOrderError
from vectorwar.events import Event, Rolled
from vectorwar.hexes import Direction, Hex
from vectorwar.rules import OptionValue
from vectorwar.systems.vms.modules import module
from vectorwar.systems.vv5.events import GunsFired, MissileLaunched, MissileResolved
from vectorwar.systems.vv5.module import VV5Card, VV5Combat
from vectorwar.systems.vv5.module_card import as_vv5_ship
from vectorwar.systems.vv5.state import Ship
from vectorwar.vectors import Velocity

from .helpers import VV5_TABLE, DuelOptions, duel

MISSILE_TABLE = {**VV5_TABLE, "missiles": 3, "armour": {"missiles": 1}}

VV5 = module("vv5")


def test_card_is_a_vv5_design_with_its_launchers() -> None:
    card = VV5.card("Hawk", VV5_TABLE, "test")
    assert isinstance(card, VV5Card)
    assert (card.structure.boxes, card.acceleration.boxes, card.mounts[0].guns.boxes) == (20, 2, 2)
    assert card.launchers == ()
    armed = VV5.card("Hawk", MISSILE_TABLE, "test")
    assert isinstance(armed, VV5Card)
    assert (armed.launchers, armed.missiles_ready, armed.missile_armour.armour) == (("ready",) * 3, 3, 1)
    with pytest.raises(DesignError, match="over"):
        VV5.card("Hawk", {**VV5_TABLE, "mass": 3}, "test")


def _fired(view_kwargs: DuelOptions, order: str = "Hawk fwd*1>Raven") -> GunsFired:
    view = duel("vv5", VV5_TABLE, **view_kwargs)
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


def _missile_duel(**kwargs: Unpack[DuelOptions]) -> CombatView:
    return duel("vv5", MISSILE_TABLE, **kwargs)


def _launch(view: CombatView, order: str) -> tuple[CombatView, list[Event]]:
    """Hawk's declaration fired, and the view with the cards it changed."""
    events: list[Event] = []
    VV5.check_fire(view, "red", VV5.parse_fire(view, "red", order))
    out = VV5.fire(view, "red", VV5.parse_fire(view, "red", order), Dice(1), events)
    return replace(view, cards={**view.cards, **out.cards}), events


def test_a_launch_marks_the_target_at_the_table_number_plus_guns_facing_and_turning() -> None:
    # Range 3 on the missile table is 6+; Raven's forward guns face Hawk: +1 (VV5 Launch Missiles).
    view, events = _launch(_missile_duel(distance=3), "Hawk 2>Raven")
    launched = [e for e in events if isinstance(e, MissileLaunched)]
    assert [(e.ship, e.target, e.range, e.to_hit) for e in launched] == [("Hawk", "Raven", 3, 7)] * 2
    assert view.cards["Raven"].incoming == (("Hawk", 7), ("Hawk", 7))
    assert view.cards["Hawk"].launchers == ("spent", "spent", "ready")
    # Raven turned away: no guns facing; Hawk turned a hexside this turn: the VMS penalty, 2, raises the number.
    away, _ = _launch(_missile_duel(distance=3, target_facing=Direction.A), "Hawk 1>Raven")
    assert away.cards["Raven"].incoming == (("Hawk", 6),)
    turned, _ = _launch(_missile_duel(distance=3, turned=1), "Hawk 1>Raven")
    assert turned.cards["Raven"].incoming == (("Hawk", 9),)
    # Range 1 is 10+, with no extra for guns facing.
    close, _ = _launch(_missile_duel(distance=1), "Hawk 1>Raven")
    assert close.cards["Raven"].incoming == (("Hawk", 10),)


def test_launches_are_checked_against_missiles_left_range_and_the_forward_arc() -> None:
    view = _missile_duel(distance=3)
    with pytest.raises(IllegalOrderError, match="3 missile\\(s\\) left") as err:
        VV5.check_fire(view, "red", VV5.parse_fire(view, "red", "Hawk 2>Raven 2>Raven"))
    assert err.value.rule == "VV5 Launch Missiles"
    spent, _ = _launch(view, "Hawk 3>Raven")
    with pytest.raises(IllegalOrderError, match="0 missile"):
        VV5.check_fire(spent, "red", VV5.parse_fire(spent, "red", "Hawk 1>Raven"))
    assert VV5.shot_options(spent, "Hawk") == [o for o in VV5.shot_options(spent, "Hawk") if o.weapon != "missiles"]
    assert "missiles" not in VV5.arc_hexes(spent, "Hawk")
    # Raven moved behind Hawk: out of its forward arc.
    behind = replace(view, ships=(view.ships[0], replace(view.ship("Raven"), hex=Hex.parse("5,13"))))
    with pytest.raises(IllegalOrderError, match="not in Hawk's forward arc"):
        VV5.check_fire(behind, "red", VV5.parse_fire(behind, "red", "Hawk 1>Raven"))
    with pytest.raises(IllegalOrderError, match="at least one"):
        VV5.check_fire(view, "red", VV5.parse_fire(view, "red", "Hawk 0>Raven"))


def test_a_volley_mixes_launches_and_gunfire_and_reads_back_the_same() -> None:
    view = _missile_duel(distance=2)
    order = VV5.parse_fire(view, "red", "hawk fwd*2>raven 1>raven fwd*1>raven")
    assert str(order) == "Hawk 1>Raven fwd*2>Raven fwd*1>Raven"
    assert str(VV5.parse_fire(view, "red", str(order))) == str(order)
    VV5.check_fire(view, "red", order)
    options = VV5.shot_options(view, "Hawk")
    assert [(o.weapon, o.piece) for o in options if o.weapon == "missiles"] == [
        ("missiles", "1>Raven"),
        ("missiles", "2>Raven"),
        ("missiles", "3>Raven"),
    ]
    assert view.ship("Raven").hex in VV5.arc_hexes(view, "Hawk")["missiles"]
    for o in options:
        VV5.check_fire(view, "red", VV5.parse_fire(view, "red", f"Hawk {o.piece}"))


def test_missiles_roll_after_movement_each_g_of_acceleration_one_space_down() -> None:
    launched, _ = _launch(_missile_duel(distance=3), "Hawk 2>Raven")
    resolved: list[MissileResolved] = []
    for accelerated in (0, 2):
        view = replace(launched, ships=(launched.ships[0], replace(launched.ship("Raven"), accelerated=accelerated)))
        events: list[Event] = []
        out = VV5.after_movement(view, Dice(4), events)
        resolved = [e for e in events if isinstance(e, MissileResolved)]
        assert [e.to_hit for e in resolved] == [7 + accelerated] * 2
        for e in resolved:
            expected = e.roll != 2 and (e.roll == 12 or e.roll >= e.to_hit)
            assert e.hit == expected
        assert out.cards["Raven"].incoming == ()
        hits = sum(e.hit for e in resolved)
        damage_rolls = [e for e in events if isinstance(e, Rolled) and e.purpose.startswith("missile damage")]
        assert len(damage_rolls) == hits


def test_a_missile_always_hits_a_target_that_cannot_accelerate_except_on_a_2() -> None:
    launched, _ = _launch(_missile_duel(distance=9, target_can_thrust=False), "Hawk 3>Raven")
    seen: set[bool] = set()
    for seed in range(40):
        events: list[Event] = []
        VV5.after_movement(launched, Dice(seed), events)
        for e in (e for e in events if isinstance(e, MissileResolved)):
            assert e.hit == (e.roll != 2)
            seen.add(e.hit)
    assert True in seen


def test_a_missile_at_a_ship_already_out_finds_no_target() -> None:
    launched, _ = _launch(_missile_duel(distance=3), "Hawk 1>Raven")
    gone = replace(launched, ships=(launched.ships[0], replace(launched.ship("Raven"), status="destroyed")))
    events: list[Event] = []
    out = VV5.after_movement(gone, Dice(1), events)
    assert not any(isinstance(e, MissileResolved) for e in events)
    assert any("finds no target" in e.describe() for e in events)
    assert out.cards["Raven"].incoming == ()


def test_the_card_shows_missiles_left_and_incoming_markers() -> None:
    launched, _ = _launch(_missile_duel(distance=3), "Hawk 2>Raven")
    hawk = dict(VV5.card_rows(launched.cards["Hawk"]))
    raven = dict(VV5.card_rows(launched.cards["Raven"]))
    assert hawk["missiles"] == "1 ready of 3, 2 spent (+1 armour)"
    assert raven["incoming missiles"].startswith("from Hawk at 7+, from Hawk at 7+")


def test_launching_at_two_targets_follows_the_several_targets_option() -> None:
    base = _missile_duel(distance=3)
    kite = replace(base.ship("Raven"), id="Kite", name="Kite", hex=Hex.parse("6,7"))
    view = replace(base, ships=(*base.ships, kite), cards={**base.cards, "Kite": base.cards["Raven"]})
    numbers = {}
    for mode in ("harder", "easier", "ignore"):
        spread = replace(view, options={"several_targets": mode})
        after, _ = _launch(spread, "Hawk 1>Raven 1>Kite")
        numbers[mode] = after.cards["Raven"].incoming[0][1]
    assert numbers == {"harder": 9, "easier": 5, "ignore": 7}


def test_the_module_refuses_a_volley_with_vv5s_own_checks() -> None:
    # An order object may name anything: each refusal is VV5's own (legality.py), word for word.
    from vectorwar.systems.vv5.module import Volley
    from vectorwar.systems.vv5.orders import Gunfire, Launch, Launches, Shot

    view = _missile_duel(distance=2)
    cases = {
        "Raven is not a ship of red's": Volley(Launches(()), Gunfire((Shot("Raven", "forward", 1, "Hawk"),))),
        "there is no ship called 'Z9'": Volley(Launches((Launch("Hawk", 1, "Z9"),)), Gunfire(())),
        "Hawk is on your own side": Volley(Launches(()), Gunfire((Shot("Hawk", "forward", 1, "Hawk"),))),
        "Hawk has no aft180 guns": Volley(Launches(()), Gunfire((Shot("Hawk", "aft180", 1, "Raven"),))),
    }
    for words, order in cases.items():
        with pytest.raises(IllegalOrderError, match=words):
            VV5.check_fire(view, "red", order)
    out = replace(view, ships=(replace(view.ship("Hawk"), status="destroyed"), view.ship("Raven")))
    with pytest.raises(IllegalOrderError, match="Hawk is destroyed"):
        VV5.check_fire(out, "red", Volley(Launches((Launch("Hawk", 1, "Raven"),)), Gunfire(())))
    gone = replace(view, ships=(view.ship("Hawk"), replace(view.ship("Raven"), status="disabled")))
    with pytest.raises(IllegalOrderError, match="Raven is disabled"):
        VV5.check_fire(gone, "red", Volley(Launches((Launch("Hawk", 1, "Raven"),)), Gunfire(())))


def test_the_vv5_combat_module_raises_no_refusal_of_a_shot_of_its_own() -> None:
    import ast
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "src" / "vectorwar" / "systems" / "vv5" / "module.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    raised = [n for n in ast.walk(tree) if isinstance(n, ast.Raise) and "IllegalOrderError" in ast.unparse(n)]
    # The one refusal of its own: an order that is not a volley at all.
    assert [ast.unparse(n) for n in raised] == [
        "raise IllegalOrderError(str(order), 'missile launches and gunfire are due now', RULE_GUNS)"
    ], "module.py refuses shots itself: call VV5's checks (legality.py) through a Board"


# -- VV5's initiative and deflection under VMS (issue 53) ------------------------------------------


def _three(kite_at: int = 1, kite_side: str = "blue", **options: OptionValue) -> CombatView:
    """Hawk (red) and Raven (blue) three hexes apart as in ``duel``, and Kite ``kite_at`` hexes ahead of Hawk."""
    view = duel("vv5", VV5_TABLE, distance=3)
    kite = replace(view.ship("Raven"), id="Kite", name="Kite", side=kite_side)
    kite = replace(kite, hex=view.ship("Hawk").hex.neighbour(Direction.A, kite_at))
    cards = {**view.cards, "Kite": VV5.card("Kite", VV5_TABLE, "test")}
    return replace(view, ships=(*view.ships, kite), cards=cards, options=options)


def test_vv5_initiative_gives_2_to_the_side_with_fewer_ships_and_only_then() -> None:
    # Red has one ship to blue's two: red's 3 is a 5 and beats blue's 4.
    events: list[Event] = []
    assert VV5.fire_initiative(_three(), ("red", "blue"), "", LoadedDice(3, 4), events) == "red"
    assert [e.describe() for e in events if e.kind == "vv5-initiative"] == ["red has the initiative"]
    # One ship each: no bonus, so the 4 wins.
    assert VV5.fire_initiative(duel("vv5", VV5_TABLE), ("red", "blue"), "", LoadedDice(3, 4), []) == "blue"


def test_vv5_initiative_tie_keeps_last_turns_holder_and_rerolls_without_one() -> None:
    view = duel("vv5", VV5_TABLE)
    events: list[Event] = []
    assert VV5.fire_initiative(view, ("red", "blue"), "red", LoadedDice(4, 4), events) == "red"
    assert "a tie" in next(e.describe() for e in events if e.kind == "vv5-initiative")
    assert VV5.fire_initiative(view, ("red", "blue"), "", LoadedDice(4, 4, 2, 5), []) == "blue"


def test_the_roll_off_option_leaves_the_fire_order_to_the_roll_off() -> None:
    view = replace(duel("vv5", VV5_TABLE), options={"vv5_fire_initiative": "roll-off"})
    assert VV5.fire_initiative(view, ("red", "blue"), "red", LoadedDice(), []) is None


def _hit_on(view: CombatView, *faces: int) -> tuple[str, list[Event]]:
    """Hawk's one-gun shot at Raven with scripted dice: the ship its damage is noted on, and the events."""
    events: list[Event] = []
    out = VV5.fire(view, "red", VV5.parse_fire(view, "red", "Hawk fwd*1>Raven"), LoadedDice(*faces), events)
    (victim,) = [ship_id for ship_id, card in out.cards.items() if card.noted]
    return victim, events


def test_a_gun_hit_may_land_on_a_ship_in_the_way_on_a_6() -> None:
    # 6+5 hits at range 3 (9+); Kite sits in the first hex of the line: a 6 moves the hit to it, a 5 does not.
    victim, events = _hit_on(_three(), 6, 5, 6)
    assert victim == "Kite"
    assert [e.describe() for e in events if e.kind == "vv5-deflected"]
    assert _hit_on(_three(), 6, 5, 5)[0] == "Raven"
    # Friend or foe: a red ship in the way takes the hit as well.
    assert _hit_on(_three(kite_side="red"), 6, 5, 6)[0] == "Kite"


def test_a_ship_off_the_line_or_the_option_off_rolls_no_deflection() -> None:
    beside = _three()
    beside = replace(beside, ships=(*beside.ships[:2], replace(beside.ship("Kite"), hex=Hex.parse("1,1"))))
    assert _hit_on(beside, 6, 5)[0] == "Raven"  # no die is rolled: LoadedDice would run out
    assert _hit_on(_three(vv5_deflection=False), 6, 5)[0] == "Raven"
    # A miss rolls no deflection die either.
    missed = VV5.fire(_three(), "red", VV5.parse_fire(_three(), "red", "Hawk fwd*1>Raven"), LoadedDice(1, 2), [])
    assert not any(card.noted for card in missed.cards.values())


def test_no_side_in_play_holds_no_initiative() -> None:
    assert VV5.fire_initiative(duel("vv5", VV5_TABLE), (), "red", LoadedDice(), []) is None


@settings(max_examples=200, deadline=None)
@given(
    q=st.integers(-15, 15),
    r=st.integers(-15, 15),
    facing=st.sampled_from(list(Direction)),
    turned=st.integers(0, 3),
    adjust=st.integers(0, 2),
    aft=st.booleans(),
)
def test_the_launch_number_is_the_launch_odds_number(
    q: int, r: int, facing: Direction, turned: int, adjust: int, aft: bool
) -> None:
    """The marker's space greedy fire, the search's estimates and the launch itself read is the number the
    launch's odds show: the table, the target's guns facing, several targets and the turning penalty."""
    table = {**MISSILE_TABLE, "guns": [{"arc": "aft180" if aft else "forward", "guns": 2}]}
    view = duel("vv5", table, turned=turned)
    hawk = view.ship("Hawk")
    at = Hex(hawk.hex.q + q, hawk.hex.r + r)
    assume(1 <= hawk.hex.distance(at) <= 15)
    view = replace(view, ships=(hawk, replace(view.ship("Raven"), hex=at, facing=facing)))
    vv5 = VV5Combat()
    need = vv5.launch_odds(view, "Hawk", "Raven", adjust).need
    assert vv5._launch_number(view, "Hawk", "Raven", adjust) == need


@settings(max_examples=200, deadline=None)
@given(
    distance=st.integers(1, 6),
    turned=st.integers(0, 3),
    guns=st.integers(1, 2),
    mass=st.sampled_from([10, 20, 40]),
    can_thrust=st.booleans(),
    acceleration=st.integers(0, 2),
)
def test_the_gun_number_is_the_gun_odds_numbers(
    distance: int, turned: int, guns: int, mass: int, can_thrust: bool, acceleration: int
) -> None:
    """The range, number and modifier a shot fired and the search's estimates read are the ones the shot's odds
    show: the table, several guns, the target's tons, a target unable to accelerate, the turning penalty."""
    table = {**VV5_TABLE, "mass": mass, "acceleration": 2}
    view = duel("vv5", table, distance=distance, turned=turned, target_can_thrust=can_thrust)
    raven = view.cards["Raven"]
    assert isinstance(raven, VV5Card)
    raven = replace(raven, acceleration=replace(raven.acceleration, boxes=acceleration))
    view = replace(view, cards={**view.cards, "Raven": raven})
    vv5 = VV5Combat()
    shot = vv5.parse_fire(view, "red", f"Hawk fwd*{guns}>Raven").gunfire.shots[0]
    odds = vv5.gun_odds(view, shot)
    assert vv5._gun_number(view, shot) == (odds.range, odds.need, odds.modifier)


def test_the_vv5_ship_read_off_a_card_is_the_ship_built_field_by_field() -> None:
    """``as_vv5_ship`` copies a blank ship with the card's and the combatant's fields: every other field is the
    ship's default, as a ship built from them would have it."""
    view = duel("vv5", MISSILE_TABLE, target_can_thrust=False)
    for ship_id in ("Hawk", "Raven"):
        for to_be_shot in (False, True):
            made = as_vv5_ship(view, ship_id, to_be_shot)
            c, card = view.ship(ship_id), view.cards[ship_id]
            assert isinstance(card, VV5Card)
            cut = to_be_shot and not c.can_thrust
            assert made == Ship(
                id=c.id,
                side=c.side,
                design=c.name,
                name=c.name,
                mass=card.mass,
                kind=card.kind,
                hex=c.hex,
                facing=c.facing,
                velocity=Velocity(),
                structure=card.structure,
                cargo=card.cargo,
                agility=card.agility,
                acceleration=replace(card.acceleration, boxes=0) if cut else card.acceleration,
                life_support=card.life_support,
                mounts=card.mounts,
                launchers=card.launchers,
                missile_armour=card.missile_armour,
            )


def test_the_points_of_a_fire_are_its_throws_added_in_order_however_many_and_whatever_was_kept() -> None:
    from functools import reduce

    from vectorwar.systems.vv5 import damage_odds, module_card

    # More throws than Python's recursion limit: a fleet's fire at one target is worked out by a loop.
    throws = tuple((module_card.GUN, 6 + k % 4, 1, False) for k in range(1100))
    shots = [damage_odds.gun_shot(need, guns) for _kind, need, guns, _thrust in throws]
    fold = reduce(damage_odds.add, shots, damage_odds.NONE)
    assert module_card._points(throws) == fold
    more = (*throws, (module_card.GUN, 8, 2, False))  # goes on from the 1,100 kept: the same numbers to the bit
    assert module_card._points(more) == damage_odds.add(fold, damage_odds.gun_shot(8, 2))
    assert module_card._points(()) == damage_odds.NONE
