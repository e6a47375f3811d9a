"""MSC 7.0 Combat: range, line of sight, arcs, the to-hit roll, damage and destruction."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import TypeVar

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Damaged, Destroyed, Event, Fired, Note, Rolled
from vectorwar.game import Game
from vectorwar.hexes import Hex
from vectorwar.play import play_out
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.bots import GreedyBot
from vectorwar.systems.msc.combat import (
    apply_hit,
    damage_side,
    fire_weapon,
    line_of_sight,
    range_modifier,
    to_hit_number,
    weapon_bears,
)
from vectorwar.systems.msc.fire import SHIPS_BLOCK, any_legal_shot, legal_shots
from vectorwar.systems.msc.orders import FireOrders, Shot
from vectorwar.systems.msc.state import MSCState, Ship

from .helpers import MSC, dice_rolling, in_fire_phase, new_game, state_of

E = TypeVar("E", bound=Event)


def setup(
    target_at: str = "6,3",
    *,
    shooter_design: str = "ship1",
    target_design: str = "ship1",
    target_facing: str = "D",
    terrain: tuple[str, ...] = (),
    extra: tuple[tuple[str, str, str, str, str, int], ...] = (),
) -> MSCState:
    """Red's Hawk at 6,6 facing A (up); blue's Raven at ``target_at`` facing D (down, toward Hawk)."""
    game = new_game(
        [
            ("red", "Hawk", shooter_design, "6,6", "A", 0),
            ("blue", "Raven", target_design, target_at, target_facing, 0),
            *extra,
        ],
        terrain=terrain,
    )
    return state_of(game)


def of(events: list[Event], kind: type[E]) -> list[E]:
    return [e for e in events if isinstance(e, kind)]


# -- range -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("distance", "modifier"),
    [(0, 2), (1, 1), (2, 1), (3, 0), (4, 0), (5, -1), (6, -1), (7, None), (12, None)],
)
def test_msc_7_0_range_bands(distance: int, modifier: int | None) -> None:
    """Range 0: +2; 1-2: +1; 3-4: no change; 5-6: -1; beyond 6 no shot."""
    assert range_modifier(distance) == modifier


def test_msc_7_0_to_hit_number_is_to_hit_plus_range_modifier() -> None:
    state = setup()
    hawk = state.ship("Hawk")  # TO-HIT 3
    assert [to_hit_number(hawk, d) for d in range(8)] == [5, 4, 4, 3, 3, 2, 2, None]


def test_msc_7_0_weapons_reach_6_hexes() -> None:
    at6 = setup("6,0")
    assert weapon_bears(at6.map, at6.ship("Hawk"), Side.F, at6.ship("Raven")) is None
    far = replace(at6.ship("Raven"), hex=Hex.parse("6,-1"))
    assert weapon_bears(at6.map, at6.ship("Hawk"), Side.F, far) == "Raven is 7 hexes away; weapons reach 6"


# -- line of sight ------------------------------------------------------------------------


def test_ruling_blank_map_line_of_sight_is_always_clear() -> None:
    """docs/rulings/msc.md "Line of sight": nothing blocks on the text's blank map, not even ships."""
    state = setup("6,3", extra=(("blue", "Crow", "ship1", "6,4", "A", 0),))
    assert state.map.hexes_with("blocking") == frozenset()
    assert line_of_sight(state.map, Hex.parse("6,6"), Hex.parse("6,3"))
    assert weapon_bears(state.map, state.ship("Hawk"), Side.F, state.ship("Raven")) is None


def test_house_rule_ships_block_sight_blocks_shots_past_a_ship_of_either_side() -> None:
    """docs/rulings/msc.md "Line of sight": with option ships_block_sight a ship in the way blocks like terrain."""
    assert MSC.manifest.option(SHIPS_BLOCK).default is False
    for side in ("blue", "red"):
        state = setup("6,3", extra=((side, "Crow", "ship1", "6,4", "A", 0),))
        firing = in_fire_phase(replace(state, options={**state.options, SHIPS_BLOCK: True}))
        with pytest.raises(IllegalOrderError, match="Crow is in the way: no clear line of sight"):
            MSC.check_order(firing, "red", FireOrders((Shot("Hawk", Side.F, "Raven"),)))
        assert Shot("Hawk", Side.F, "Raven") not in legal_shots(firing, "red")
        # The bot and the random player leave the blocked shot out.
        for order in (
            GreedyBot().choose(firing, "red", random.Random(1)),
            MSC.random_order(firing, "red", random.Random(1)),
        ):
            assert isinstance(order, FireOrders)
            assert all((s.ship, s.target) != ("Hawk", "Raven") for s in order.shots)
            MSC.check_order(firing, "red", order)
        # Off by default: the same shot is legal.
        plain = in_fire_phase(state)
        MSC.check_order(plain, "red", FireOrders((Shot("Hawk", Side.F, "Raven"),)))
    # A ship beside the line, or in the target's own hex, is not in the way.
    for crow in ("7,4", "6,3"):
        state = setup("6,3", extra=(("blue", "Crow", "ship1", crow, "A", 0),))
        firing = in_fire_phase(replace(state, options={**state.options, SHIPS_BLOCK: True}))
        MSC.check_order(firing, "red", FireOrders((Shot("Hawk", Side.F, "Raven"),)))


def test_msc_7_0_blocking_terrain_blocks_line_of_sight() -> None:
    state = setup("6,3", terrain=("6,4",))
    assert not line_of_sight(state.map, Hex.parse("6,6"), Hex.parse("6,3"))
    assert weapon_bears(state.map, state.ship("Hawk"), Side.F, state.ship("Raven")) == (
        "no clear line of sight from 6,6 to 6,3"
    )
    aside = setup("6,3", terrain=("7,4",))
    assert line_of_sight(aside.map, Hex.parse("6,6"), Hex.parse("6,3"))


def test_ruling_blocking_terrain_in_the_end_hexes_does_not_block() -> None:
    """docs/rulings/msc.md "Line of sight": only hexes strictly between the ships count."""
    state = setup("6,3", terrain=("6,6", "6,3"))
    assert line_of_sight(state.map, Hex.parse("6,6"), Hex.parse("6,3"))


def test_ruling_line_along_a_hex_edge_is_blocked_only_when_both_hexes_block() -> None:
    """6,6 to 7,4 runs exactly along the edge between 6,5 and 7,5."""
    a, b = Hex.parse("6,6"), Hex.parse("7,4")
    assert set(a.line_candidates(b)[1]) == {Hex.parse("6,5"), Hex.parse("7,5")}
    for blocking, clear in [((), True), (("6,5",), True), (("7,5",), True), (("6,5", "7,5"), False)]:
        state = setup("7,4", terrain=blocking)
        assert line_of_sight(state.map, a, b) is clear, blocking


# -- arcs and weapons --------------------------------------------------------------------------


def test_msc_7_0_target_must_be_in_the_weapons_arc() -> None:
    state = setup("6,3")  # straight ahead: F arc only
    hawk, raven = state.ship("Hawk"), state.ship("Raven")
    assert weapon_bears(state.map, hawk, Side.F, raven) is None
    assert weapon_bears(state.map, hawk, Side.FR, raven) == "Raven is not in the FR arc"
    boundary = setup("7,4")  # on the F/FR corner line: both weapons bear
    assert weapon_bears(boundary.map, boundary.ship("Hawk"), Side.F, boundary.ship("Raven")) is None
    assert weapon_bears(boundary.map, boundary.ship("Hawk"), Side.FR, boundary.ship("Raven")) is None


def test_msc_2_0_only_fitted_working_weapons_fire() -> None:
    state = setup("6,6")  # range 0: every arc
    hawk, raven = state.ship("Hawk"), state.ship("Raven")
    assert weapon_bears(state.map, hawk, Side.RL, raven) == "Hawk has no weapon on its RL side"
    broken = replace(hawk, weapons=(Side.F, Side.FR))
    assert weapon_bears(state.map, broken, Side.FL, raven) == "Hawk's FL weapon is destroyed"


def test_ruling_range_0_every_weapon_bears() -> None:
    """docs/rulings/msc.md "Stacking": ships may share a hex, and then every weapon bears, at +2."""
    state = setup("6,6", shooter_design="cruiser")
    hawk, raven = state.ship("Hawk"), state.ship("Raven")
    assert [s for s in hawk.weapons if weapon_bears(state.map, hawk, s, raven) is None] == list(hawk.weapons)
    assert len(hawk.weapons) == 5
    assert to_hit_number(hawk, 0) == hawk.to_hit + 2


def test_msc_7_0_each_weapon_fires_once_per_turn() -> None:
    state = in_fire_phase(setup("6,3"))
    twice = FireOrders((Shot("Hawk", Side.F, "Raven"), Shot("Hawk", Side.F, "Raven")))
    with pytest.raises(IllegalOrderError, match="each weapon may fire once per turn"):
        MSC.check_order(state, "red", twice)
    with pytest.raises(IllegalOrderError, match="once per turn"):
        MSC.check_order(state, "red", MSC.parse_order(state, "red", "Hawk F>Raven F>Raven"))
    MSC.check_order(state, "red", FireOrders((Shot("Hawk", Side.F, "Raven"),)))


def test_ruling_no_friendly_fire() -> None:
    """docs/rulings/msc.md "Friendly fire": a side may only shoot at other sides' ships."""
    state = in_fire_phase(setup("6,3", extra=(("red", "Kite", "ship1", "6,4", "A", 0),)))
    with pytest.raises(IllegalOrderError, match="Kite is on your own side"):
        MSC.check_order(state, "red", FireOrders((Shot("Hawk", Side.F, "Kite"),)))
    assert all(s.target != "Kite" for s in MSC.legal_shots(state, "red"))


def test_msc_7_0_only_your_own_ships_in_play_fire() -> None:
    state = in_fire_phase(setup("6,3"))
    with pytest.raises(IllegalOrderError, match="Raven is not one of your ships in play"):
        MSC.check_order(state, "red", FireOrders((Shot("Raven", Side.F, "Hawk"),)))
    wrecked = state.with_ship(replace(state.ship("Hawk"), status="destroyed"))
    wrecked = wrecked.with_ship(replace(wrecked.ship("Raven"), status="active"))
    with pytest.raises(IllegalOrderError, match="Hawk is not one of your ships in play"):
        MSC.check_order(wrecked, "red", FireOrders((Shot("Hawk", Side.F, "Raven"),)))


def test_msc_7_0_fire_at_a_ship_out_of_play_is_refused() -> None:
    state = in_fire_phase(setup("6,3"))
    gone = state.with_ship(replace(state.ship("Raven"), status="disengaged"))
    with pytest.raises(IllegalOrderError, match="Raven is disengaged"):
        MSC.check_order(gone, "red", FireOrders((Shot("Hawk", Side.F, "Raven"),)))
    with pytest.raises(IllegalOrderError, match="no ship called 'Ghost'"):
        MSC.check_order(state, "red", FireOrders((Shot("Hawk", Side.F, "Ghost"),)))


# -- the to-hit roll ------------------------------------------------------------------------------


@pytest.mark.parametrize(("target_at", "need"), [("6,6", 5), ("6,5", 4), ("6,3", 3), ("6,1", 2)])
def test_msc_7_0_to_hit_roll_equal_or_under_hits(target_at: str, need: int) -> None:
    """One d6 per weapon; a roll at or under TO-HIT plus the range modifier hits."""
    state = setup(target_at)
    hawk, raven = state.ship("Hawk"), state.ship("Raven")
    events: list[Event] = []
    after = fire_weapon(state.map, hawk, Side.F, raven, dice_rolling(need, 1), events)
    fired = of(events, Fired)[0]
    assert isinstance(fired, Fired)
    assert (fired.need, fired.roll, fired.hit) == (need, need, True)
    assert after.shields == raven.shields - 1  # damage roll 1: one SHIELD
    events = []
    dice = dice_rolling(need + 1)
    after = fire_weapon(state.map, hawk, Side.F, raven, dice, events)
    assert after == raven
    assert [type(e) for e in events] == [Rolled, Fired]
    assert dice.count == 1  # no damage roll on a miss


def test_ruling_to_hit_above_6_always_hits() -> None:
    """docs/rulings/msc.md "To-hit numbers past the die": TO-HIT 5 at range 0 needs 7, so even a 6 hits."""
    state = setup("6,6", shooter_design="ship3")
    hawk, raven = state.ship("Hawk"), state.ship("Raven")
    events: list[Event] = []
    fire_weapon(state.map, hawk, Side.F, raven, dice_rolling(6, 1), events)
    fired = of(events, Fired)[0]
    assert isinstance(fired, Fired)
    assert (fired.need, fired.roll, fired.hit) == (7, 6, True)


def test_ruling_no_automatic_hit_or_miss() -> None:
    """A need of 6 hits on a 6; a need below 1 misses even on a 1."""
    sure = setup("6,5", shooter_design="ship3")  # TO-HIT 5, range 1: 6
    events: list[Event] = []
    fire_weapon(sure.map, sure.ship("Hawk"), Side.F, sure.ship("Raven"), dice_rolling(6, 1), events)
    assert [e.hit for e in of(events, Fired)] == [True]
    never = setup("6,1")
    blind = replace(never.ship("Hawk"), to_hit=0)  # TO-HIT 0 at range 5: need -1
    events = []
    fire_weapon(never.map, blind, Side.F, never.ship("Raven"), dice_rolling(1), events)
    fired = of(events, Fired)[0]
    assert isinstance(fired, Fired)
    assert (fired.need, fired.roll, fired.hit) == (-1, 1, False)


# -- damage ----------------------------------------------------------------------------------------


def hit(target: Ship, face: int, attacker: str = "6,6") -> tuple[Ship, list[Event]]:
    events: list[Event] = []
    return apply_hit(target, Hex.parse(attacker), dice_rolling(face), events), events


@pytest.mark.parametrize("face", [1, 2, 3, 4])
def test_msc_7_0_damage_1_to_4_marks_off_a_shield(face: int) -> None:
    raven = setup().ship("Raven")
    after, events = hit(raven, face)
    assert (after.shields, after.engine, after.weapons) == (raven.shields - 1, raven.engine, raven.weapons)
    assert Damaged("Raven", "SHIELD", 1, raven.shields - 1) in events


def test_msc_7_0_damage_5_marks_off_engine() -> None:
    raven = setup().ship("Raven")
    after, events = hit(raven, 5)
    assert (after.shields, after.engine) == (raven.shields, raven.engine - 1)
    assert Damaged("Raven", "ENGINE", 1, raven.engine - 1) in events


def test_msc_7_0_damage_5_with_no_engine_left_marks_off_a_shield() -> None:
    raven = replace(setup().ship("Raven"), engine=0)
    after, _ = hit(raven, 5)
    assert (after.shields, after.engine) == (raven.shields - 1, 0)


def test_msc_7_0_damage_6_destroys_the_weapon_facing_the_attacker() -> None:
    """Raven faces D (down); Hawk below it at 6,6 is off Raven's front: the F weapon goes."""
    raven = setup("6,3").ship("Raven")
    after, events = hit(raven, 6)
    assert after.weapons == (Side.FL, Side.FR)
    assert after.weapons_fitted == raven.weapons_fitted  # the record still shows it was fitted
    assert after.shields == raven.shields
    assert Damaged("Raven", "F weapon", 1, 0) in events


def test_msc_7_0_damage_6_with_no_weapon_on_that_side_marks_off_a_shield() -> None:
    """Raven facing A has its back to Hawk: no weapon in the rear, so a SHIELD goes."""
    raven = setup("6,3", target_facing="A").ship("Raven")
    after, _ = hit(raven, 6)
    assert (after.weapons, after.shields) == (raven.weapons, raven.shields - 1)


def test_msc_7_0_damage_6_on_an_already_destroyed_weapon_marks_off_a_shield() -> None:
    raven = replace(setup("6,3").ship("Raven"), weapons=(Side.FL, Side.FR))
    after, _ = hit(raven, 6)
    assert (after.weapons, after.shields) == ((Side.FL, Side.FR), raven.shields - 1)


def test_ruling_damage_6_from_a_boundary_takes_the_first_side_in_text_order() -> None:
    """docs/rulings/msc.md "Weapon hit from a boundary or range 0": F before FL, FR, RL, RR.

    Raven at 6,3 faces D (down the page), so its right side is the map's left;
    an attacker at 4,6 lies on Raven's F/FR corner line.
    """
    raven = setup("6,3").ship("Raven")
    attacker = Hex.parse("4,6")
    assert damage_side(raven, attacker) is Side.F
    after, _ = hit(raven, 6, attacker="4,6")
    assert after.weapons == (Side.FL, Side.FR)
    assert damage_side(after, attacker) is Side.FR  # F gone: the other side facing the attacker
    after2, _ = hit(after, 6, attacker="4,6")
    assert after2.weapons == (Side.FL,)
    assert damage_side(after2, attacker) is None  # FL does not face the attacker: SHIELD


def test_ruling_damage_6_at_range_0_takes_the_first_working_weapon() -> None:
    raven = replace(setup("6,6", target_design="cruiser").ship("Raven"), weapons=(Side.RL, Side.RR))
    assert damage_side(raven, Hex.parse("6,6")) is Side.RL


def test_msc_7_0_destroyed_at_0_shields() -> None:
    raven = replace(setup().ship("Raven"), shields=1)
    after, events = hit(raven, 2)
    assert (after.shields, after.status, after.active) == (0, "destroyed", False)
    assert events[-1] == Destroyed("Raven")
    still, _ = hit(replace(raven, shields=2), 2)
    assert (still.shields, still.status) == (1, "active")


def test_msc_7_0_every_damage_roll_is_logged() -> None:
    raven = setup().ship("Raven")
    _, events = hit(raven, 3)
    rolls = of(events, Rolled)
    assert len(rolls) == 1
    assert rolls[0] == Rolled("damage to Raven", "d6", (3,), 3)


# -- a whole declaration ----------------------------------------------------------------------------


def test_msc_7_0_damage_applies_at_once_within_a_declaration() -> None:
    """Two weapons at one ship with 1 SHIELD left: the first kills it, the second shot is lost.

    docs/rulings/msc.md "Shots at a ship already destroyed": no roll is made for it.
    """
    state = setup("7,4")  # F/FR boundary: F and FR both bear
    state = in_fire_phase(state.with_ship(replace(state.ship("Raven"), shields=1)))
    orders = FireOrders((Shot("Hawk", Side.F, "Raven"), Shot("Hawk", Side.FR, "Raven")))
    MSC.check_order(state, "red", orders)
    dice = dice_rolling(1, 1)  # to-hit 1, damage 1 (SHIELD)
    after, events = MSC.resolve(state, {"red": orders}, dice)
    assert after.ship("Raven").status == "destroyed"
    assert dice.count == 2
    notes = [e.describe() for e in of(events, Note)]
    assert "Hawk's FR shot is lost: Raven is already destroyed" in notes
    assert after.phase == "over"
    assert after.winners == ("red",)


@pytest.mark.parametrize("scenario", ["msc-fleet", "msc-duel"])
def test_any_legal_shot_answers_as_the_list_of_legal_shots(scenario: str) -> None:
    found = {True: 0, False: 0}
    for seed in range(3):
        game = play_out(builtin_scenario(scenario), {"red": "greedy", "blue": "random"}, seed)
        replayed = Game.new(game.system, game.scenario, game.seed, game.options)
        for batch in game.history:
            replayed.replay_batch(batch)
            state = replayed.state
            assert isinstance(state, MSCState)
            for side in state.sides:
                answer = any_legal_shot(state, side)
                assert answer == bool(legal_shots(state, side))
                found[answer] += 1
    assert found[True] > 0  # both answers were asked for
    assert found[False] > 0
