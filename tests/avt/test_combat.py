"""AV:T combat in play (A5.4-A5.48): lasers at ships, pools, aim, boxes, repairs, surrender, the duel."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.support.dice import LoadedDice
from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.events import Event, GameOver
from vectorwar.game import Game
from vectorwar.systems.avt.events import DamageStruck, LaserFired, ShipDestroyed
from vectorwar.systems.avt.lasers import damage
from vectorwar.systems.avt.repairs import HEAT_SINK_USE, repair_step
from vectorwar.systems.avt.ssd import battery_capacity, radiator_tenths, repair_teams, thrust_limit
from vectorwar.systems.avt.state import AVTState, Repair
from vectorwar.systems.avt.turn_end import end_of_turn

from .helpers import AVT, make_scenario, with_ship

FACE_OFF = [("blue", "Rafik", "rafik", "20,20", "A", "0", 0), ("red", "Raven", "rafik", "20,17", "D", "0", 0)]


def duel(seed: int = 0, **options: object) -> Game:
    return Game.new(AVT, make_scenario(FACE_OFF, options=options), seed)


def fire(game: Game, blue: str, red: str = "hold") -> list[Event]:
    game.submit("blue", blue)
    return game.submit("red", red)


def test_ruling_each_laser_its_own_pool_when_the_option_says_so() -> None:
    game = duel(laser_pools="each")
    events = fire(game, "Rafik fire A1>Raven A2>Raven")
    hits = [e for e in events if isinstance(e, LaserFired) and e.damage]
    struck = [e for e in events if isinstance(e, DamageStruck)]
    assert len(struck) == len(hits) == 2
    assert [s.points for s in struck] == [h.damage for h in hits]


def test_ruling_d_entries_score_one_point_on_a_second_d10_of_n_or_less() -> None:
    # Range 23-30, roll 1 is D1; range 14-15, roll 1 is D5.
    assert damage("3 MRLS", 25, 1, "chance", 1) == 1
    assert damage("3 MRLS", 25, 1, "chance", 2) == 0
    assert damage("3 MRLS", 14, 1, "chance", 5) == 1
    assert damage("3 MRLS", 14, 1, "none", 1) == 0
    assert damage("3 MRLS", 10, 2, "chance", 10) == 6  # D entries only where the table prints them


def test_avt_a5_47_a_destroyed_laser_cannot_fire_and_the_game_is_unchanged() -> None:
    game = duel()
    with_ship(game, "Rafik", marks=(("laser A1", 3),))
    before = game.state
    with pytest.raises(IllegalOrderError, match=r"A1 is destroyed \(A5.47\)"):
        game.submit("blue", "Rafik fire A1>Raven")
    assert game.state == before


def test_avt_firing_at_a_destroyed_ship_is_refused() -> None:
    game = duel()
    with_ship(game, "Raven", status="destroyed")
    with pytest.raises(IllegalOrderError, match="already destroyed"):
        game.submit("blue", "Rafik fire A1>Raven")


def test_avt_a5_431_aim_is_only_the_attackers_choice_on_a_boundary() -> None:
    game = duel()  # the Raven faces the Rafik: its fire comes in dead on the nose, no boundary
    with pytest.raises(IllegalOrderError, match=r"not the attacker's to choose.*A5.431"):
        game.submit("blue", "Rafik fire A1>Raven, aim nose-top")
    sample = Game.new(AVT, builtin_scenario("avt-damage"), 1)
    sample.submit("blue", "Blue fire A1>Red A2>Red, aim nose-port")
    events = sample.submit("red", "hold")
    struck = [e for e in events if isinstance(e, DamageStruck)]
    if struck:  # both lasers may miss only by scoring D entries at point blank, which they cannot
        assert struck[0].choices == ("nose-top", "nose-port")
        assert struck[0].region == "nose-port"


def test_avt_a5_431_without_an_aim_the_thinner_armour_is_struck() -> None:
    sample = Game.new(AVT, builtin_scenario("avt-damage"), 2)
    sample.submit("blue", "Blue fire A1>Red A2>Red")
    events = sample.submit("red", "hold")
    struck = [e for e in events if isinstance(e, DamageStruck)]
    assert len(struck) == 1
    assert struck[0].incoming == "A+"
    assert struck[0].region == "nose-top"  # armour 4 rather than 5, as the text's attacker chose


def test_avt_a5_457_the_defender_names_the_electronics_box_and_not_someone_elses() -> None:
    game = duel()
    with pytest.raises(IllegalOrderError, match="no electronics box 'radar'"):
        game.submit("red", "Raven electronics radar")
    with pytest.raises(OrderSyntaxError, match="no ship of yours called 'Raven'"):
        game.submit("blue", "Raven electronics communications")
    game.submit("red", "Raven electronics communications")
    game.submit("blue", "hold")
    assert game.state.ship("Raven").electronics_order[0] == "communications"


def test_avt_a5_452_damage_lowers_capacity_power_and_thrust() -> None:
    game = duel()
    rafik = with_ship(game, "Rafik", marks=(("batteries", 2), ("radiators", 1), ("thrust", 2)))
    design = game.state.designs["rafik"]
    assert battery_capacity(design, 2) == 14
    assert radiator_tenths(design, rafik) == 8  # two of three radiators: 0.8 a turn
    assert thrust_limit(design, rafik) == 3
    with pytest.raises(IllegalOrderError, match="thrust 4 is above"):
        game.submit("blue", "Rafik thrust 4")


def test_avt_a5_48_a_repair_takes_two_turns_and_needs_6_on_a_d10() -> None:
    game = duel()
    with_ship(game, "Rafik", marks=(("reactors", 1),), reactors_on=False)
    design = game.state.designs["rafik"]
    assert repair_teams(design, game.state.ship("Rafik")) == 3
    fire(game, "Rafik repair reactors")
    rafik = game.state.ship("Rafik")
    assert rafik.repairs == (Repair("reactors", 3),)
    assert repair_teams(design, rafik) == 2
    # Not due at the first turn break; rolled at the second: 6 clears the box, 5 does not.
    events: list[Event] = []
    assert repair_step(rafik, design, 2, LoadedDice(), events).repairs == rafik.repairs
    fixed = repair_step(rafik, design, 3, LoadedDice(6), events)
    assert (fixed.marked("reactors"), fixed.repairs) == (0, ())
    failed = repair_step(rafik, design, 3, LoadedDice(5), events)
    assert (failed.marked("reactors"), failed.repairs) == (1, ())


@pytest.mark.parametrize(
    ("written", "printed"),
    [("repair laser a1", "repair A1"), ("repair A1", "repair A1"), ("repair Reactors", "repair reactors")],
)
def test_a_repair_order_prints_a_laser_by_its_ssd_name_and_reads_back_the_same(written: str, printed: str) -> None:
    game = duel()
    with_ship(game, "Rafik", marks=(("laser A1", 1), ("reactors", 1)))
    order = AVT.parse_order(game.state, "blue", f"Rafik {written}")
    assert str(order) == f"Rafik {printed}"
    assert AVT.parse_order(game.state, "blue", str(order)) == order
    AVT.check_order(game.state, "blue", order)


def test_avt_a5_48_a_repair_fails_if_the_system_is_used() -> None:
    game = duel()
    rafik = with_ship(game, "Rafik", marks=(("laser A1", 1),), repairs=(Repair("laser A1", 3),))
    fire(game, "Rafik fire A1>Raven")
    rafik = game.state.ship("Rafik")
    assert "laser A1" in rafik.used
    events: list[Event] = []
    after = repair_step(rafik, game.state.designs["rafik"], 2, LoadedDice(), events)
    assert after.repairs == ()
    assert after.marked("laser A1") >= 1
    assert "fails: the system was used" in events[0].describe()


def heat_sink_repair_after_a_turn(reactors_on: bool, use: str = "takes-heat") -> tuple[AVTState, list[Event]]:
    """Rafik, its heat sinks damaged and under repair (due now), holding heat, at the end of turn 2."""
    game = duel(heat_sink_use=use)
    with_ship(
        game,
        "Rafik",
        marks=(("heat sinks", 1),),
        repairs=(Repair("heat sinks", 3),),
        heat_tenths=20,
        reactors_on=reactors_on,
    )
    events: list[Event] = []
    state = end_of_turn(replace(game.state, turn=2), events, LoadedDice(6, 6, 6, 6))
    return state, events


def test_avt_a5_48_heat_sinks_holding_heat_are_not_used_unless_heat_goes_in() -> None:
    """docs/rulings/avt.md, AV:T repairs: the sinks are used in a turn that puts heat into them."""
    assert AVT.manifest.option(HEAT_SINK_USE).default == "takes-heat"
    state, _ = heat_sink_repair_after_a_turn(reactors_on=False)
    assert state.ship("Rafik").marked("heat sinks") == 0  # repaired on the 6
    state, events = heat_sink_repair_after_a_turn(reactors_on=True)  # the reactors' heat goes in
    assert state.ship("Rafik").marked("heat sinks") == 1
    assert any("repair of heat sinks fails: the system was used" in e.describe() for e in events)


def test_avt_heat_sink_use_option_holds_heat_counts_any_heat_held() -> None:
    state, events = heat_sink_repair_after_a_turn(reactors_on=False, use="holds-heat")
    assert state.ship("Rafik").marked("heat sinks") == 1
    assert any("repair of heat sinks fails: the system was used" in e.describe() for e in events)


def test_avt_a5_48_no_repair_without_damage_or_a_team() -> None:
    game = duel()
    with pytest.raises(IllegalOrderError, match=r"no damage to reactors.*A5.48"):
        game.submit("blue", "Rafik repair reactors")
    with_ship(game, "Rafik", marks=(("quarters", 6), ("reactors", 1)))
    with pytest.raises(IllegalOrderError, match="no free repair team"):
        game.submit("blue", "Rafik repair reactors")


def test_avt_a5_391_extending_radiators_surrenders_and_the_game_ends() -> None:
    game = duel()
    fire(game, "hold", "Raven radiators out")
    events: list[Event] = []
    for _ in range(7):
        events += fire(game, "hold")
    assert game.is_over
    over = [e for e in events if isinstance(e, GameOver)]
    assert over[0].winners == ("blue",)
    assert "red surrendered" in over[0].reason


def test_avt_surrender_option_play_on_keeps_the_game_going() -> None:
    game = duel(surrender="play-on")
    fire(game, "hold", "Raven radiators out")
    for _ in range(7):
        fire(game, "hold")
    assert not game.is_over


def test_avt_a5_454_a_ship_destroyed_ends_the_duel() -> None:
    game = duel()
    state: AVTState = game.state
    raven = state.ship("Raven")
    game.state = state.with_ship(replace(raven, marks=(("structure", 12),)))
    events: list[Event] = []
    for seed in range(40):  # point-blank fire until a Structural Integrity hit lands on the full track
        events = fire(game, "Rafik fire A1>Raven A2>Raven" if seed % 5 == 0 else "hold")
        if game.is_over:
            break
    assert game.is_over
    assert any(isinstance(e, ShipDestroyed) for e in events)
    assert game.result is not None
    assert game.result.winners == ("blue",)
