"""The VMS rule system: the turn, the notation, the record, and the pairing with a combat module."""

from __future__ import annotations

import pytest

from vectorwar.combat.base import Effect, Outcome
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.events import Damaged, Event, Fired, LeftMap, Rolled
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.systems.msc.module import MSCCard
from vectorwar.systems.vms.events import SubphaseSet, ThrustLost
from vectorwar.systems.vms.initiative import CAPITAL, FIGHTERS, MEDIUM, REMAINING
from vectorwar.systems.vms.movement import Plot
from vectorwar.systems.vms.orders import MovePlot, SubphaseChoice, parse_ship_plot
from vectorwar.systems.vms.state import VMSState
from vectorwar.systems.vms.thrust import Burn
from vectorwar.systems.vv5.events import GunsFired
from vectorwar.vectors import Velocity

from .game_helpers import DESIGNS, VMS, design, make_scenario, new_game

DUEL = [("red", "Hyperion", "hyperion", "10,20", "B", "A=4, B=2"), ("blue", "Hulk", "target", "25,3", "D", "0")]
# A fighter that always moves in its own subphase after the medium ships, so the turn waits for it.
LATE = [*DUEL, ("blue", "Fury", "late-fighter", "28,28", "A", "0")]
LATE_DESIGNS = {**DESIGNS, "late-fighter": {**DESIGNS["fighter"], "initiative": 0}}
FURY_AND_HULK = [("red", "Fury", "fighter", "5,25", "A", "0"), ("blue", "Hulk", "target", "20,5", "D", "0")]


def state_of(game: Game) -> VMSState:
    assert isinstance(game.state, VMSState)
    return game.state


def turn_of(game: Game) -> int:
    return state_of(game).turn


def plot(game: Game, side: str, text: str) -> None:
    """Submit ``text`` for ``side`` and let every other side due now drift."""
    for other in game.waiting_for:
        if other != side:
            game.submit(other, "; ".join(f"{s.id} drift" for s in VMS.movers(state_of(game), other)))
    game.submit(side, text)


# -- notation -------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["aft1:B=4 port1:rot=1 R1", "drift", "port1:rot=2 L2", "aft1:A=6 aft1:A=6 flat:R1", "flat:L2", "forward1:D=2"],
)
def test_plot_notation_prints_what_it_reads(text: str) -> None:
    plot = parse_ship_plot(text)
    assert str(plot) == text
    assert parse_ship_plot(str(plot)) == plot


def test_plot_notation_is_case_blind_and_refuses_nonsense() -> None:
    assert parse_ship_plot("AFT1:b=4 Port1:ROT=1 r1") == Plot((Burn("aft1", 4, Direction.B), Burn("port1", 1)), 1)
    for bad in ("aft1:G=4", "R1 R1", "drift R1", "aft1:B=0", "spin", "R0", ""):
        with pytest.raises(OrderSyntaxError):
            parse_ship_plot(bad)
    ships = {"hawk": "Hawk"}
    assert str(MovePlot.parse("hawk aft1:B=4; ", ships)) == "Hawk aft1:B=4"
    with pytest.raises(OrderSyntaxError, match="no ship of yours moving now"):
        MovePlot.parse("Kite drift", ships)
    assert str(SubphaseChoice.parse("hawk REMAINING", ships)) == "Hawk remaining"


# -- the turn ---------------------------------------------------------------------


def test_movement_example_turn_as_a_game_order_and_its_record() -> None:
    """The text's movement example (A=4, B=2 facing B; 2 hexes toward B, start rotating right), played."""
    game = new_game(LATE, designs=LATE_DESIGNS)
    assert game.clock is not None
    assert game.clock.subphase == MEDIUM
    plot(game, "red", "Hyperion aft1:B=4 port1:rot=1 R1")
    assert game.clock.subphase == FIGHTERS
    ship = state_of(game).ship("Hyperion")
    assert ship.velocity == Velocity.parse("A=4, B=4")
    assert (ship.facing, ship.rotation, ship.hexsides_turned) == (Direction.C, 1, 1)
    assert ship.hex == Hex.parse("10,20").shifted(4, -8)  # moved on the new vector, A=4 B=4
    card = next(c for c in VMS.ship_cards(state_of(game)) if c.title.startswith("Hyperion"))
    assert card.table is not None
    current, upcoming = card.table.rows
    assert current[0] == "Odd (current)"
    assert (current[1], current[2]) == ("4|", "2|2")  # A: course 4; B: course 2, thrust 2
    assert current[9] == "1"  # Right This: rotational thrust 1 clockwise
    assert upcoming[0] == "Even (next)"
    assert (upcoming[1], upcoming[2], upcoming[10], upcoming[11]) == ("4|", "4|", "1", "C")
    assert dict(card.rows)["thrust this turn"] == "B=2"
    counter = next(c for c in VMS.counters(state_of(game)) if c.id == "Hyperion")
    assert counter.velocity == "A=4, B=4"


def test_subphases_run_in_the_ruled_order_each_plotted_by_its_own_ships() -> None:
    game = new_game(
        [
            ("red", "Omega", "capital", "5,25", "A", "0"),
            ("red", "Fury", "fighter", "7,25", "A", "0"),
            ("blue", "Hyperion", "hyperion", "20,5", "D", "0"),
        ],
        designs={**DESIGNS, "fighter": {**DESIGNS["fighter"], "initiative": 0}},
    )
    seen = []
    while game.clock is not None and game.clock.phase == "plot" and turn_of(game) == 1:
        seen.append((game.clock.subphase, game.waiting_for))
        side = game.waiting_for[0]
        game.submit(side, "; ".join(f"{s.id} drift" for s in VMS.movers(state_of(game), side)))
    assert seen == [(CAPITAL, ("red",)), (MEDIUM, ("blue",)), (FIGHTERS, ("red",))]


def test_ruling_shuttles_after_capital_option_changes_the_order() -> None:
    ships = [("red", "Omega", "capital", "5,25", "A", "0"), ("blue", "Mule", "shuttle", "20,5", "D", "0")]
    designs = {**DESIGNS, "shuttle": design(name="Mule", ship_class="shuttle", pivot_cost=None)}
    first = new_game(ships, designs=designs)
    assert first.clock is not None
    assert first.clock.subphase == "shuttles"
    later = new_game(ships, designs=designs, options={"vms_subphase_order": "shuttles-after-capital"})
    assert later.clock is not None
    assert later.clock.subphase == CAPITAL


def test_initiative_choice_is_asked_for_and_checked() -> None:
    """A +20 total always comes up: the owner picks the fighter subphase or one either side."""
    designs = {**DESIGNS, "fighter": {**DESIGNS["fighter"], "initiative": 20}}
    game = new_game(
        [("red", "Fury", "fighter", "5,25", "A", "0"), ("blue", "Hulk", "target", "20,5", "D", "0")], designs=designs
    )
    assert game.clock is not None
    assert game.clock.phase == "initiative"
    assert game.waiting_for == ("red",)
    assert state_of(game).ship("Fury").choices == (FIGHTERS, MEDIUM, REMAINING)
    with pytest.raises(IllegalOrderError, match="may move in"):
        game.submit("red", "Fury capital")
    game.submit("red", "Fury remaining")
    assert game.clock.subphase == MEDIUM  # the Hulk moves first now
    assert state_of(game).ship("Fury").subphase == REMAINING


def test_negative_initiative_forces_an_earlier_subphase_without_asking() -> None:
    designs = {**DESIGNS, "fighter": {**DESIGNS["fighter"], "initiative": -20}}
    game = new_game(
        [("red", "Fury", "fighter", "5,25", "A", "0"), ("blue", "Hulk", "target", "20,5", "D", "0")], designs=designs
    )
    assert state_of(game).ship("Fury").subphase == MEDIUM
    assert game.clock is not None
    assert game.clock.phase == "plot"
    event = next(e for e in game.events if isinstance(e, SubphaseSet) and e.ship == "Fury")
    assert "must move early" in event.describe()


def test_every_ship_of_the_subphase_must_be_plotted_and_a_refused_plot_changes_nothing() -> None:
    game = new_game([*DUEL, ("red", "Kite", "hyperion", "14,20", "A", "0")])
    before = game.state
    with pytest.raises(IllegalOrderError, match="nothing for Kite"):
        game.submit("red", "Hyperion drift")
    with pytest.raises(IllegalOrderError, match="Thruster Firing Arcs"):
        game.submit("red", "Hyperion forward1:B=2; Kite drift")
    with pytest.raises(IllegalOrderError, match="rated 6"):
        game.submit("red", "Hyperion aft1:B=8; Kite drift")
    assert game.state == before
    assert not game.pending


def test_rotation_keeps_turning_the_ship_every_turn_until_stopped() -> None:
    game = new_game(LATE, designs=LATE_DESIGNS, max_turns=5)
    plot(game, "red", "Hyperion port1:rot=1 R1")
    assert state_of(game).ship("Hyperion").facing == Direction.C
    _finish_turn(game)
    plot(game, "red", "Hyperion drift")
    ship = state_of(game).ship("Hyperion")
    assert (ship.facing, ship.hexsides_turned) == (Direction.D, 1)  # momentum: one more hexside, penalty again
    _finish_turn(game)
    plot(game, "red", "Hyperion port1:rot=1 L1")  # stop costs the stop half
    ship = state_of(game).ship("Hyperion")
    assert (ship.rotation, ship.facing, ship.hexsides_turned) == (0, Direction.D, 0)


def _finish_turn(game: Game) -> None:
    turn = turn_of(game)
    while not game.is_over and turn_of(game) == turn:
        side = game.waiting_for[0]
        if state_of(game).phase == "fire":
            game.submit(side, "hold")
        else:
            game.submit(side, "; ".join(f"{s.id} drift" for s in VMS.movers(state_of(game), side)))


def test_turning_penalty_reaches_the_combat_module() -> None:
    """Rotational System 4: a ship that turned 1 hexside fires at -2 (MSC: TO-HIT 3 at range 3 needs 1)."""
    game = new_game([("red", "Hyperion", "hyperion", "10,20", "F", "0"), ("blue", "Hulk", "target", "10,17", "D", "0")])
    plot(game, "red", "Hyperion port1:rot=1 R1")
    assert VMS.view(state_of(game)).ship("Hyperion").hexsides_turned == 1
    assert game.waiting_for == ("red",)
    game.submit("red", "Hyperion F>Hulk")
    fired = next(e for e in game.events if isinstance(e, Fired))
    assert (fired.range, fired.need) == (3, 3 - 2)


def test_overspeed_rolls_xd10_and_the_combat_module_applies_it() -> None:
    game = new_game([("red", "Omega", "capital", "10,20", "A", "0"), ("blue", "Hulk", "target", "25,3", "D", "0")])
    game.submit("red", "Omega port1:rot=3 R3")  # pivot 1+1: three starts, one over the limit of 2
    assert state_of(game).ship("Omega").overspeed == 1
    while turn_of(game) == 1:
        side = game.waiting_for[0]
        game.submit(side, "Hulk drift")
    rolled = next(e for e in game.events if isinstance(e, Rolled) and "rotating 1 over" in e.purpose)
    assert rolled.dice == "1d10"
    assert any(isinstance(e, Damaged) and e.ship == "Omega" and e.location == "SHIELD" for e in game.events)
    card = state_of(game).ship("Omega").card
    assert isinstance(card, MSCCard)
    assert card.shields == 2


def test_thrust_lost_effects_cut_the_thrust_a_plot_may_spend() -> None:
    state = state_of(new_game(DUEL))
    events: list[Event] = []
    state = VMS.apply_outcome(state, Outcome({}, (Effect("Hyperion", "thrust lost", 1, 3),)), events)
    assert state.ship("Hyperion").thrust_lost == 4
    assert isinstance(events[0], ThrustLost)
    with pytest.raises(IllegalOrderError, match="has 8 thrust"):
        VMS.check_order(state, "red", MovePlot((("Hyperion", parse_ship_plot("aft1:B=6 port1:C=4")),)))
    state = VMS.apply_outcome(state, Outcome({}, (Effect("Hyperion", "thrust lost", 2, 3),)), [])
    assert not VMS.view(state).ship("Hyperion").can_thrust


@pytest.mark.parametrize("advanced", [False, True])
def test_thrust_lost_cuts_rotation_as_well_as_acceleration_end_to_end(advanced: bool) -> None:
    """Rotational System 6: after an engine hit rotational thrust is short too, in orders and in the menu."""
    game = new_game(DUEL, options={"vms_advanced_rotation": advanced})
    state = VMS.apply_outcome(state_of(game), Outcome({}, (Effect("Hyperion", "thrust lost", 5, 6),)), [])
    assert state.ship("Hyperion").thrust_lost == 10  # 2 of 12 left
    # R3 costs 3 points either way: three starts at 1+1, or three points of the variant.
    with pytest.raises(IllegalOrderError, match="has 2 thrust"):
        VMS.check_order(state, "red", MovePlot((("Hyperion", parse_ship_plot("port1:rot=3 R3")),)))
    VMS.check_order(state, "red", MovePlot((("Hyperion", parse_ship_plot("port1:rot=2 R2")),)))
    offered = VMS.plots_for(state, state.ship("Hyperion"))
    assert offered
    assert max(result.thrust_spent for _, result in offered) == 2
    assert any(plot.rotation for plot, _ in offered)
    # Every thrust point gone: the rotation can be neither started nor stopped, only drifted.
    state = VMS.apply_outcome(state, Outcome({}, (Effect("Hyperion", "thrust lost", 1, 6),)), [])
    assert [str(plot) for plot, _ in VMS.plots_for(state, state.ship("Hyperion"))] == ["drift"]
    with pytest.raises(IllegalOrderError, match="has 0 thrust"):
        VMS.check_order(state, "red", MovePlot((("Hyperion", parse_ship_plot("port1:rot=1 R1")),)))


def test_leaving_the_map_disengages_the_ship() -> None:
    game = new_game([("red", "Hyperion", "hyperion", "2,2", "A", "A=3"), ("blue", "Hulk", "target", "20,20", "D", "0")])
    plot(game, "red", "Hyperion drift")
    assert state_of(game).ship("Hyperion").status == "disengaged"
    assert any(isinstance(e, LeftMap) for e in game.events)
    assert game.result is not None
    assert game.result.winners == ("blue",)


# -- the pairing --------------------------------------------------------------------


@pytest.mark.parametrize("combat", ["msc", "vv5"])
def test_the_same_scenario_plays_with_either_module(combat: str) -> None:
    game = new_game(
        [("red", "Hyperion", "hyperion", "10,20", "A", "0"), ("blue", "Hulk", "target", "10,17", "D", "0")],
        options={"combat": combat},
    )
    assert type(state_of(game).ship("Hyperion").card).__name__ == f"{combat.upper()}Card"
    plot(game, "red", "Hyperion drift")
    prompt = game.prompt
    assert prompt is not None
    assert (prompt.kind, prompt.sides, prompt.help) == ("fire", ("red",), VMS.combat(state_of(game)).fire_help)
    shot = {"msc": "Hyperion F>Hulk", "vv5": "Hyperion fwd*2>Hulk"}[combat]
    game.submit("red", shot)
    assert any(isinstance(e, (Fired, GunsFired)) for e in game.events)


def test_a_design_without_data_for_the_module_is_refused() -> None:
    designs = {**DESIGNS, "hyperion": design(combat={"msc": DESIGNS["hyperion"]["combat"]["msc"]})}
    with pytest.raises(ScenarioError, match=r"no \[combat.vv5\] data"):
        Game.new(VMS, make_scenario(DUEL, designs=designs, options={"combat": "vv5"}), 0)


# -- menus ----------------------------------------------------------------------------


def test_move_options_are_legal_plots_with_their_paths() -> None:
    game = new_game(LATE, designs=LATE_DESIGNS)
    options = VMS.move_options(state_of(game), "red")["Hyperion"]
    assert len(options) > 20
    texts = {o.text for o in options}
    assert "Hyperion drift" in texts
    assert "Hyperion aft1:B=4 port1:rot=1 R1" in texts
    for option in options:
        order = VMS.parse_order(state_of(game), "red", option.text)
        VMS.check_order(state_of(game), "red", order)
        assert option.path[0].hex == Hex.parse("10,20")
    drift = next(o for o in options if o.text == "Hyperion drift")
    assert drift.end.hex == Hex.parse("10,20").shifted(2, -6)
    assert set(VMS.move_options(state_of(game), "blue")) == {"Hulk"}  # Fury moves later
    plot(game, "red", "Hyperion drift")
    assert VMS.move_options(state_of(game), "red") == {}
    fury = VMS.move_options(state_of(game), "blue")["Fury"]
    assert {o.facing for o in fury} == set(Direction)  # a fighter turns at will


def test_flat_turn_example_as_a_game_order() -> None:
    """Minbari Movement's example: A=5, 5 points to reach 6, 6 for one hexside of flat turn."""
    sharlin = design(
        name="Sharlin",
        ship_class="capital",
        thrust=24,
        accel_cost=5,
        pivot_cost="3+3",
        flat_turn_cost="1",
        thrusters=[{"side": s, "rating": 12} for s in ("forward", "aft", "port", "starboard")],
    )
    game = new_game(
        [("red", "Sharlin", "sharlin", "10,25", "A", "A=5"), ("blue", "Hulk", "target", "25,3", "D", "0")],
        designs={**DESIGNS, "sharlin": sharlin},
    )
    plot(game, "red", "Sharlin aft1:A=5 flat:R1")
    ship = state_of(game).ship("Sharlin")
    assert (str(ship.velocity), ship.facing) == ("B=6", Direction.B)
    assert ship.hex == Hex.parse("10,19")  # six hexes along A first
    with pytest.raises(IllegalOrderError, match="no flat turn ability"):
        VMS.check_order(state_of(game), "blue", MovePlot((("Hulk", parse_ship_plot("flat:R1")),)))


@pytest.mark.parametrize(("combat", "dice", "total"), [("msc", 2, 2), ("vv5", 1, 10)])
def test_ruling_rotation_limits_fall_with_the_hull_left(combat: str, dice: int, total: int) -> None:
    """Rotational System 5, "unless degraded by damage": a hull at half strength takes half the rotation."""
    game = new_game(DUEL, options={"combat": combat})
    state = state_of(game)
    two = MovePlot((("Hyperion", parse_ship_plot("port1:rot=2 R2")),))
    assert VMS.work_out(state, state.ship("Hyperion"), two.moves[0][1]).overspeed == 0
    events: list[Event] = []
    outcome = VMS.combat(state).structure_damage(VMS.view(state), "Hyperion", dice, total, events)
    state = VMS.apply_outcome(state, outcome, events)
    ship = state.ship("Hyperion")
    assert ship.rotation_limit_lost == 1
    assert "Hyperion's damaged hull now takes at most 1 hexside(s) a turn of rotation (was 2)" in [
        e.describe() for e in events
    ]
    # Rotating 2 a turn is still legal for a large ship, but now over its limit: Xd10 at the end of the turn.
    VMS.check_order(state, "red", two)
    assert VMS.work_out(state, ship, two.moves[0][1]).overspeed == 1
    # The menu offers no rotation over the limit.
    assert max(abs(p.rotation) for p, _ in VMS.plots_for(state, ship)) == 1
    assert ("rotation limit", "1 a turn (hull damage)") in VMS.ship_cards(state)[0].rows


def test_house_rule_rotation_limits_never_degrade_when_switched_off() -> None:
    game = new_game(DUEL, options={"vms_damaged_rotation_limits": False})
    state = state_of(game)
    events: list[Event] = []
    outcome = VMS.combat(state).structure_damage(VMS.view(state), "Hyperion", 2, 2, events)
    state = VMS.apply_outcome(state, outcome, events)
    assert state.ship("Hyperion").rotation_limit_lost == 0
    assert VMS.work_out(state, state.ship("Hyperion"), parse_ship_plot("port1:rot=2 R2")).overspeed == 0


def test_ruling_a_damaged_shuttle_may_not_turn_past_its_cut_limit() -> None:
    """Small craft limits are absolute, so a shuttle's plot over its damaged limit is refused."""
    designs = {**DESIGNS, "shuttle": design(name="Mule", ship_class="shuttle", thrust=8, accel_cost=1, pivot_cost=None)}
    game = new_game(
        [("red", "Mule", "shuttle", "10,20", "A", "0"), ("blue", "Hulk", "target", "25,3", "D", "0")], designs=designs
    )
    state = state_of(game)
    VMS.work_out(state, state.ship("Mule"), parse_ship_plot("port1:rot=3 R3"))
    events: list[Event] = []
    outcome = VMS.combat(state).structure_damage(VMS.view(state), "Mule", 2, 2, events)
    state = VMS.apply_outcome(state, outcome, events)  # 1 SHIELD of 3 left: 3 x 1/3 = 1 hexside
    assert state.ship("Mule").rotation_limit_lost == 2
    with pytest.raises(IllegalOrderError, match="turns at most 1 hexsides a turn"):
        VMS.work_out(state, state.ship("Mule"), parse_ship_plot("port1:rot=2 R2"))
