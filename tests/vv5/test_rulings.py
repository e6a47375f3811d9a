"""VV5 rulings: one or more tests for each entry of docs/rulings/vv5.md.

Each test names its ruling in the docstring; the ruling says what the text
leaves open and why the code decides as it does.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError, ScenarioError
from vectorwar.events import Damaged, Event, LeftMap, Rolled
from vectorwar.game import Game
from vectorwar.hexes import Arc, Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.play import play_out
from vectorwar.systems.vv5 import turn
from vectorwar.systems.vv5.arcs import GUN_ARCS, MISSILE_ARC, REAR_ARC
from vectorwar.systems.vv5.combat import TRACK_BOTTOM, TRACK_TOP, damage_point, guns_facing, on_track
from vectorwar.systems.vv5.design import Design, GunMount
from vectorwar.systems.vv5.events import BoardShifted, Collided, Deflected, GunsFired, MissileResolved
from vectorwar.systems.vv5.gunfire import fire_shot
from vectorwar.systems.vv5.honour import honour_binds, on_board_plots, plotted_end, reachable, search_plots
from vectorwar.systems.vv5.initiative import roll_initiative
from vectorwar.systems.vv5.movement import move_ships, plan, turn_allowance
from vectorwar.systems.vv5.orders import DeclareOrder, Gunfire, Launches, Manoeuvre, Plot, Shot
from vectorwar.systems.vv5.rules import MANIFEST, system
from vectorwar.systems.vv5.state import Box, VV5State
from vectorwar.systems.vv5.victory import finish, victory_points
from vectorwar.vectors import Velocity

from .conftest import GUNSHIP, LoadedDice, guns_of, make_ship, make_state

CATALOGUE = system.designs()
HARPY = CATALOGUE["harpy"]


def _width(arc: Arc) -> int:
    """Degrees covered by an arc of 30-degree rays (0 to 12 is the full circle)."""
    return ((arc.end - arc.start) % 12 or 12) * 30


# -- VV5 arcs -------------------------------------------------------------------------


def test_ruling_arc_widths() -> None:
    """*VV5 arcs*: missiles 120 degrees, forward guns 60, the 180s and the turret as named."""
    assert _width(MISSILE_ARC) == 120
    assert _width(GUN_ARCS["forward"]) == 60
    assert {name: _width(GUN_ARCS[name]) for name in ("fwd180", "aft180", "left180", "right180")} == dict.fromkeys(
        ("fwd180", "aft180", "left180", "right180"), 180
    )
    assert _width(REAR_ARC) == 60
    assert (REAR_ARC.start, REAR_ARC.end) == ((GUN_ARCS["forward"].start + 6) % 12, (GUN_ARCS["forward"].end + 6) % 12)


def test_ruling_beam_lines_are_in_both_180_degree_fore_and_aft_arcs() -> None:
    """*VV5 arcs*: the hex rows straight out to either beam belong to both fwd and aft turrets."""
    ship = Hex(10, 10)
    beams = [ship.neighbour(Direction.B).neighbour(Direction.C), ship.neighbour(Direction.F).neighbour(Direction.E)]
    from vectorwar.systems.vv5.arcs import in_arc

    for beam in beams:
        assert in_arc(GUN_ARCS["fwd180"], ship, Direction.A, beam)
        assert in_arc(GUN_ARCS["aft180"], ship, Direction.A, beam)


# -- VV5 board ---------------------------------------------------------------------


def test_ruling_board_is_fifteen_sections_of_10_by_8_lettered_a_to_o_in_three_rows() -> None:
    """*VV5 board*: sections A-E, F-J, K-O, each 10 hexes wide and 8 high."""
    board = builtin_scenario("vv5-dogfight").hex_map()
    names = [s.name for s in board.sections]
    assert names == list("ABCDEFGHIJKLMNO")
    assert {(s.width, s.height) for s in board.sections} == {(10, 8)}
    assert board.extent == (0, 0, 49, 23)
    assert board.locate("F@0,0") == Hex.from_offset(0, 8)
    assert board.locate("O@9,7") == Hex.from_offset(49, 23)


# -- VV5 several missile targets --------------------------------------------------


def test_ruling_several_targets_defaults_to_harder() -> None:
    """*VV5 missiles at several targets*: the default option is 'harder'."""
    spec = next(o for o in MANIFEST.options if o.name == "several_targets")
    assert spec.default == "harder"
    assert set(spec.choices) == {"harder", "easier", "ignore"}


def test_ruling_several_missiles_at_one_target_are_not_adjusted() -> None:
    """*VV5 missiles at several targets*: two missiles at one target is not 'more than one target'."""
    shooter = make_ship("X1", "red", at="10,10", facing="A", design=HARPY)
    target = make_ship("Y1", "blue", at="10,6", facing="A")
    state = make_state(shooter, target, phase="missiles", declare_order=("red", "blue"))
    after, _ = system.resolve(state, {"red": Launches.parse("X1 2>Y1", {"x1": "X1"}, {"y1": "Y1"})}, LoadedDice())
    assert [m.to_hit for m in after.incoming] == [7, 7]  # range 4, no change


# -- VV5 incoming-missile track -------------------------------------------------------


def test_ruling_the_track_runs_from_3_to_12() -> None:
    """*VV5 incoming-missile track*: numbers are held to the card's spaces, 3+ to 12."""
    assert (TRACK_TOP, TRACK_BOTTOM) == (3, 12)
    assert [on_track(n) for n in (0, 2, 3, 7, 12, 13, 20)] == [3, 3, 3, 7, 12, 12, 12]


def test_ruling_a_missile_at_the_bottom_of_the_track_stays_there_and_still_hits_on_12() -> None:
    """*VV5 incoming-missile track*: range 14 with guns facing (13) starts at 12; thrust cannot push it past 12."""
    shooter = make_ship("X1", "red", at="10,20", facing="A", design=HARPY)
    target = make_ship("Y1", "blue", at="10,6", facing="D")  # 14 hexes, forward guns on the firer
    state = make_state(shooter, target, phase="missiles", declare_order=("red", "blue"))
    after, _ = system.resolve(state, {"red": Launches.parse("X1 1>Y1", {"x1": "X1"}, {"y1": "Y1"})}, LoadedDice())
    assert after.incoming[0].to_hit == 12
    moved = replace(after, ships=tuple(replace(s, accelerated=3) if s.id == "Y1" else s for s in after.ships))
    events: list[Event] = []
    turn.resolve_missiles(moved, LoadedDice(6, 6, 1, 1, 1, 1), events)
    resolved = next(e for e in events if isinstance(e, MissileResolved))
    assert (resolved.to_hit, resolved.hit) == (12, True)


def test_ruling_easier_several_targets_cannot_go_above_3_plus() -> None:
    """*VV5 incoming-missile track*: the 'easier' option stops at the top space, 3+."""
    shooter = make_ship("X1", "red", at="10,10", facing="A", design=HARPY)
    a = make_ship("Y1", "blue", at="10,8", facing="A")
    b = make_ship("Y2", "blue", at="11,8", facing="A")
    state = make_state(
        shooter, a, b, phase="missiles", declare_order=("red", "blue"), options={"several_targets": "easier"}
    )
    order = Launches.parse("X1 2>Y1 2>Y2", {"x1": "X1"}, {"y1": "Y1", "y2": "Y2"})
    after, _ = system.resolve(state, {"red": order}, LoadedDice())
    assert {m.to_hit for m in after.incoming} == {3}  # 6 - 4 would be 2


# -- VV5 guns facing the firer --------------------------------------------------------


def test_ruling_guns_facing_is_any_working_mount_whose_arc_covers_the_firer() -> None:
    """*VV5 guns facing a missile launcher*: a turret counts from any side; a knocked-out mount does not."""
    firer = Hex.parse("10,14")
    harpy = make_ship("Y1", "blue", at="10,10", facing="A", design=HARPY)  # turret360, firer behind
    assert guns_facing(harpy, firer)
    silenced = harpy.with_mount(replace(harpy.mounts[0], guns=Box(0, 0, 1, 0)))
    assert not guns_facing(silenced, firer)
    gunship = make_ship("Y2", "blue", at="10,10", facing="A", design=GUNSHIP)  # forward guns only
    assert not guns_facing(gunship, firer)
    assert guns_facing(gunship, Hex.parse("10,6"))


# -- VV5 gun shots and rapid fire -----------------------------------------------------


def test_ruling_a_mount_splits_its_shots_between_targets_each_gun_twice() -> None:
    """*VV5 gun shots and rapid fire*: groups from one mount, up to twice its guns in all, any targets."""
    shooter = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)  # 2 forward guns
    a = make_ship("Y1", "blue", at="10,8", facing="A")
    b = make_ship("Y2", "blue", at="11,8", facing="A")
    state = make_state(shooter, a, b, phase="guns", declare_order=("red", "blue"))
    split = Gunfire(
        (
            Shot("X1", "forward", 1, "Y1"),
            Shot("X1", "forward", 1, "Y2"),
            Shot("X1", "forward", 2, "Y1"),
        )
    )
    system.check_order(state, "red", split)
    with pytest.raises(IllegalOrderError, match="at most twice"):
        system.check_order(state, "red", Gunfire((*split.shots, Shot("X1", "forward", 1, "Y2"))))
    with pytest.raises(IllegalOrderError, match="2 working gun"):
        system.check_order(state, "red", Gunfire((Shot("X1", "forward", 3, "Y1"),)))


def test_ruling_the_several_guns_bonus_is_per_group() -> None:
    """*VV5 gun shots and rapid fire*: +1 when the group fired has more than one gun."""
    shooter = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    target = make_ship("Y1", "blue", at="10,8", facing="A")
    state = make_state(shooter, target)
    one: list[Event] = []
    fire_shot(state, Shot("X1", "forward", 1, "Y1"), LoadedDice(3, 4), one)
    two: list[Event] = []
    fire_shot(state, Shot("X1", "forward", 2, "Y1"), LoadedDice(3, 4), two)
    fired = [next(e for e in log if isinstance(e, GunsFired)) for log in (one, two)]
    assert [(f.modifier, f.hit) for f in fired] == [(0, False), (1, True)]  # need 8 at range 2


# -- VV5 no automatic gun results ---------------------------------------------------------


def test_ruling_gunfire_has_no_automatic_miss_on_2() -> None:
    """*VV5 no automatic results for gunfire*: a natural 2 hits when the modifiers carry it."""
    shooter = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    hulk = Design(name="Hulk", mass=40, check_budget=False)  # 40 t (+2) and no acceleration (+3)
    target = make_ship("Y1", "blue", at="10,9", facing="A", design=hulk)
    events: list[Event] = []
    after = fire_shot(make_state(shooter, target), Shot("X1", "forward", 2, "Y1"), LoadedDice(1, 1), events)
    fired = next(e for e in events if isinstance(e, GunsFired))
    assert (fired.roll, fired.modifier, fired.need, fired.hit) == (2, 6, 7, True)
    assert after.gun_damage[0].points == 2  # and a double: damage equal to the guns fired


# -- VV5 firing through occupied hexes ---------------------------------------------------


def test_ruling_deflection_checks_each_ship_in_the_way_nearest_first() -> None:
    """*VV5 firing through occupied hexes*: one die per ship in the way, nearest the firer first; a 6 stops there."""
    shooter = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    near = make_ship("Z1", "green", at="10,9", facing="A")
    far = make_ship("Z2", "green", at="10,8", facing="A")
    target = make_ship("Y1", "blue", at="10,6", facing="A")
    state = make_state(shooter, near, far, target)
    events: list[Event] = []
    after = fire_shot(state, Shot("X1", "forward", 1, "Y1"), LoadedDice(6, 6, 5, 6), events)
    checks = [e.purpose for e in events if isinstance(e, Rolled) and "in the way" in e.purpose]
    assert [c.split()[-4] for c in checks] == ["Z1", "Z2"]
    assert after.gun_damage[0].target == "Z2"


def test_ruling_deflection_follows_the_kernel_line_and_its_tie_rule() -> None:
    """*VV5 firing through occupied hexes*: along a hex edge only the hex the kernel's line takes counts."""
    firer = Hex.parse("10,15")
    target_hex = firer.shifted(1, -2)  # on the corner line between A and B: the line runs along an edge
    candidates = firer.line_candidates(target_hex)[1]
    assert len(candidates) == 2
    taken = firer.line_to(target_hex)[1]
    assert taken in candidates
    assert target_hex.line_to(firer)[1] == taken  # the same hex whichever way the shot goes
    shooter = make_ship("X1", "red", at=str(firer), facing="A", design=GUNSHIP)
    friends = [make_ship(f"Z{i}", "red", at=str(h), facing="A") for i, h in enumerate(candidates)]
    target = make_ship("Y1", "blue", at=str(target_hex), facing="A")
    events: list[Event] = []
    after = fire_shot(
        make_state(shooter, *friends, target), Shot("X1", "forward", 1, "Y1"), LoadedDice(6, 6, 6), events
    )
    hit = next(e for e in events if isinstance(e, Deflected))
    assert after.ship(hit.ship).hex == taken
    assert sum(1 for e in events if isinstance(e, Rolled) and "in the way" in e.purpose) == 1


# -- VV5 weapon sub-roll ----------------------------------------------------------------

FOUR_SYSTEMS = Design(
    name="Porcupine",
    mass=20,
    guns=(GunMount(arc="forward", guns=1), GunMount(arc="fwd180", guns=1), GunMount(arc="turret360", guns=1)),
    missiles=2,
    check_budget=False,
)


def test_ruling_weapon_sub_roll_order_is_missiles_then_mounts_last_listed_first() -> None:
    """*VV5 weapon sub-roll*: four systems take 1, 2, 3, 4 on the die: missiles, turret, fwd180, forward."""
    ship = make_ship(design=FOUR_SYSTEMS)
    assert damage_point(ship, LoadedDice(5, 1), [], "t").launchers[:2] == ("destroyed", "destroyed")
    assert guns_of(damage_point(ship, LoadedDice(5, 2), [], "t"), "turret360").boxes == 0
    assert guns_of(damage_point(ship, LoadedDice(5, 3), [], "t"), "fwd180").boxes == 0
    assert guns_of(damage_point(ship, LoadedDice(5, 4), [], "t"), "forward").boxes == 0


def test_ruling_weapon_sub_roll_rerolls_faces_past_the_last_system() -> None:
    """*VV5 weapon sub-roll*: with four systems a 5 or 6 is rolled again, so each has the same chance."""
    events: list[Event] = []
    after = damage_point(make_ship(design=FOUR_SYSTEMS), LoadedDice(5, 6, 5, 4), events, "t")
    assert guns_of(after, "forward").boxes == 0
    assert sum(1 for e in events if isinstance(e, Rolled) and "weapon system" in e.purpose) == 3


def test_ruling_a_weapon_hit_with_no_weapons_left_is_structure_ignoring_its_armour() -> None:
    """*VV5 weapon sub-roll* and *VV5 armour*: nothing left to hit means structure, past its armour."""
    bare = Design(name="Bare", mass=8, guns=(GunMount(arc="forward", guns=1),), check_budget=False)
    ship = make_ship(design=bare)
    ship = replace(ship, structure=Box(8, 2, 8, 2), mounts=(replace(ship.mounts[0], guns=Box(0, 0, 1, 0)),))
    after = damage_point(ship, LoadedDice(5), [], "t")
    assert (after.structure.boxes, after.structure.armour) == (7, 2)


# -- VV5 launcher pairs -----------------------------------------------------------------


def test_ruling_launchers_pair_in_order_and_an_odd_last_one_stands_alone() -> None:
    """*VV5 launcher pairs*: 1-2, then the lone 3rd; no die while nothing has been launched."""
    three = replace(make_ship(design=HARPY), mounts=(), launchers=("ready", "ready", "ready"))
    once = damage_point(three, LoadedDice(5), [], "t")
    assert once.launchers == ("destroyed", "destroyed", "ready")
    twice = damage_point(once, LoadedDice(5), [], "t")
    assert twice.launchers == ("destroyed", "destroyed", "destroyed")
    assert twice.structure.boxes == three.structure.boxes  # only a ship built with one launcher loses SI


def test_ruling_after_a_launch_a_die_picks_the_pair_spent_or_not() -> None:
    """*VV5 launcher pairs*: once any missile is gone, 1-3 takes the first pair and 4-6 the second."""
    harpy = replace(make_ship(design=HARPY), mounts=(), launchers=("spent", "spent", "ready", "ready"))
    assert damage_point(harpy, LoadedDice(5, 3), [], "t").launchers == ("destroyed", "destroyed", "ready", "ready")
    assert damage_point(harpy, LoadedDice(5, 4), [], "t").launchers == ("spent", "spent", "destroyed", "destroyed")


# -- VV5 emergency thrusters ---------------------------------------------------------------


def test_ruling_emergency_thrusters_give_one_rotation_and_no_thrust() -> None:
    """*VV5 emergency thrusters*: agility gone, acceleration left: (1 rotation, 0 G)."""
    ship = make_ship()
    assert turn_allowance(replace(ship, agility=Box(0, 0, 2, 0))) == (1, 0)
    assert turn_allowance(replace(ship, agility=Box(0, 0, 2, 0), acceleration=Box(0, 0, 3, 0))) == (0, 0)
    assert turn_allowance(replace(ship, acceleration=Box(0, 0, 3, 0))) == (2, 0)


# -- VV5 collisions --------------------------------------------------------------------


def test_ruling_a_knocked_aside_ship_may_land_on_another_and_contest_again() -> None:
    """*VV5 collisions*: the loser's new hex is contested in turn; its velocity is where it really went."""
    crash = Hex.parse("10,10")
    sitter = make_ship("X1", "red", at=str(crash), facing="A")
    bystander = make_ship("Z1", "green", at=str(crash.neighbour(Direction.C)), facing="A")
    start = crash.neighbour(Direction.D, 2)
    mover = make_ship("Y1", "blue", at=str(start), facing="A", velocity="A=2")
    state = make_state(sitter, mover, bystander)
    events: list[Event] = []
    # X1 6 beats Y1 1; Y1 knocked C (3) onto Z1; Y1 1 loses to Z1 6; knocked C again.
    after = move_ships(state, {}, LoadedDice(6, 1, 3, 1, 6, 3), events)
    collisions = [e for e in events if isinstance(e, Collided)]
    assert [(c.ship, c.winner) for c in collisions] == [("Y1", "X1"), ("Y1", "Z1")]
    end = crash.neighbour(Direction.C, 2)
    y1 = after.ship("Y1")
    assert y1.hex == end
    assert y1.velocity == Velocity(end.q - start.q, end.r - start.r)
    assert y1.facing is Direction.A
    assert (after.ship("X1").hex, after.ship("Z1").hex) == (crash, crash.neighbour(Direction.C))


# -- VV5 leaving the board ------------------------------------------------------------


def test_ruling_a_ship_leaving_the_board_is_out_and_scores_nothing() -> None:
    """*VV5 leaving the board*: the ship is out of the battle; no side scores for it leaving."""
    runner = make_ship("Y1", "blue", at="1,1", facing="A", velocity="A=3")
    stayer = make_ship("X1", "red", at="15,15", facing="A")
    events: list[Event] = []
    after = move_ships(make_state(stayer, runner), {}, LoadedDice(), events)
    assert after.ship("Y1").status == "exited"
    assert after.sides_in_play() == ("red",)
    assert any(isinstance(e, LeftMap) for e in events)
    assert victory_points(after) == {"red": 0, "blue": 0}


SHIFT = {"several_targets": "harder", "board_shift": True}


def test_ruling_the_dogfight_shifts_every_ship_and_marker_to_keep_ships_on_the_board() -> None:
    """*VV5 leaving the board*: the Dogfight's shift by agreement keeps the fight on the board."""
    runner = make_ship("Y1", "blue", at="1,5", facing="A", velocity="F=3")
    other = make_ship("Y2", "blue", at="6,8", facing="A", velocity="A=1")
    stayer = make_ship("X1", "red", at="15,15", facing="B", velocity="B=2")
    state = make_state(stayer, runner, other, options=SHIFT)
    events: list[Event] = []
    after = move_ships(state, {}, LoadedDice(), events)
    assert all(s.active for s in after.ships)
    assert all(after.map.contains(s.hex) for s in after.ships)
    assert not any(isinstance(e, LeftMap) for e in events)
    shifted = [e for e in events if isinstance(e, BoardShifted)]
    assert [e.to_keep for e in shifted] == [("Y1",)]
    # One translation for every ship: distances and vectors are as the move left them.
    plain = move_ships(replace(state, options={"several_targets": "harder"}), {}, LoadedDice(), [])
    offsets = {s.id: after.ship(s.id).hex.minus(plain.ship(s.id).hex) for s in plain.ships}
    assert len(set(offsets.values())) == 1
    assert offsets["Y1"] != (0, 0)
    assert [s.velocity for s in after.ships] == [s.velocity for s in plain.ships]


def test_ruling_a_ship_plotted_to_retreat_leaves_and_nothing_shifts() -> None:
    runner = make_ship("Y1", "blue", at="1,5", facing="A", velocity="F=3")
    stayer = make_ship("X1", "red", at="15,15", facing="B")
    state = make_state(stayer, runner, options=SHIFT)
    plot = Plot.parse("Y1 0 retreat", {"y1": "Y1"})
    assert plot.retreats == ("Y1",)
    assert str(plot) == "Y1 0 retreat"
    system.check_order(state, "blue", plot)
    events: list[Event] = []
    after = move_ships(state, {}, LoadedDice(), events, frozenset(plot.retreats))
    assert after.ship("Y1").status == "exited"
    assert after.ship("X1").hex == stayer.hex
    assert not any(isinstance(e, BoardShifted) for e in events)


def test_ruling_ships_spread_wider_than_the_board_leave_as_usual() -> None:
    top = make_ship("X1", "red", at="5,0", facing="A", velocity="A=2")
    bottom = make_ship("Y1", "blue", at="5,29", facing="D", velocity="D=2")
    events: list[Event] = []
    after = move_ships(make_state(top, bottom, options=SHIFT), {}, LoadedDice(), events)
    assert [s.status for s in after.ships] == ["exited", "exited"]
    assert "the starships are spread wider than the board: no shift keeps them all on it" in [
        e.describe() for e in events
    ]


def test_house_rule_honour_forbids_a_retreat_while_it_binds_under_the_shift() -> None:
    runner = make_ship("Y1", "blue", at="1,5", facing="A", velocity="F=3")
    stayer = make_ship("X1", "red", at="15,15", facing="B")
    state = make_state(stayer, runner, options={**SHIFT, "honour_rule": True})
    assert not honour_binds(state)  # a plot off the board is shifted back, so honour has nothing to refuse
    system.check_order(state, "blue", Plot.parse("Y1 0", {"y1": "Y1"}))
    with pytest.raises(IllegalOrderError, match="honour forbids retreat"):
        system.check_order(state, "blue", Plot.parse("Y1 0 retreat", {"y1": "Y1"}))
    later = replace(state, turn=16)
    system.check_order(later, "blue", Plot.parse("Y1 0 retreat", {"y1": "Y1"}))


def test_ruling_the_dogfight_scenarios_play_with_the_shift_and_honour() -> None:
    for name in ("vv5-dogfight", "vv5-dogfight-purchase", "vv5-dogfight-draw", "vv5-dogfight-3", "vv5-dogfight-4"):
        options = builtin_scenario(name).options
        assert (options.get("board_shift"), options.get("honour_rule")) == (True, True), name
    assert MANIFEST.option("board_shift").default is False  # the other scenarios: "this is not possible"
    with pytest.raises(ScenarioError, match="board_shift"):
        Game.new(system, builtin_scenario("vv5-pirates"), 1, {"board_shift": True})


# -- VV5 initiative with more than two sides ------------------------------------------


def _three(counts: tuple[int, int, int], holder: str = "") -> VV5State:
    ships = []
    for side, n, row in zip(("red", "blue", "green"), counts, (2, 10, 18), strict=True):
        ships += [make_ship(f"{side[0].upper()}{i}", side, at=f"{2 + 2 * i},{row}") for i in range(n)]
    return make_state(*ships, initiative=holder)


def test_ruling_plus_two_goes_to_every_side_tied_for_fewest() -> None:
    """*VV5 initiative with three or four sides*: blue and green (1 ship each) both get +2."""
    events: list[Event] = []
    holder, _ = roll_initiative(_three((2, 1, 1)), LoadedDice(6, 3, 5), events)
    assert holder == "green"  # 6 / 3+2 / 5+2
    bonus = [e.purpose for e in events if isinstance(e, Rolled) and "+2" in e.purpose]
    assert [p.split()[2] for p in bonus] == ["blue", "green"]


def test_ruling_no_plus_two_when_every_side_has_as_many_ships() -> None:
    """*VV5 initiative with three or four sides*: all level on ships, nobody gets the +2."""
    events: list[Event] = []
    holder, _ = roll_initiative(_three((1, 1, 1)), LoadedDice(2, 6, 5), events)
    assert holder == "blue"
    assert not any("+2" in e.purpose for e in events if isinstance(e, Rolled))


def test_ruling_a_top_tie_keeps_the_holder_if_it_is_among_the_tied() -> None:
    """*VV5 initiative with three or four sides*: red holds and ties for the top: red keeps it."""
    assert roll_initiative(_three((1, 1, 1), holder="red"), LoadedDice(4, 4, 1), []) == ("red", True)


def test_ruling_a_top_tie_without_the_holder_is_rerolled_by_the_tied_only() -> None:
    """*VV5 initiative with three or four sides*: green holds but red and blue tie on top: they re-roll."""
    events: list[Event] = []
    state = _three((1, 1, 1), holder="green")
    assert roll_initiative(state, LoadedDice(5, 5, 2, 1, 6), events) == ("blue", False)
    rolls = [e.purpose.split()[2] for e in events if isinstance(e, Rolled)]
    assert rolls == ["red", "blue", "green", "red", "blue"]


# -- VV5 declaration order ------------------------------------------------------------------


def test_ruling_the_declaration_order_is_chosen_once_for_missiles_and_guns() -> None:
    """*VV5 declaration order*: one choice, used for the launch step and again for the gun step."""
    red = make_ship("X1", "red", at="10,10", facing="A", design=HARPY)
    blue = make_ship("Y1", "blue", at="10,6", facing="D", design=HARPY)
    green = make_ship("Z1", "green", at="12,9", facing="F", design=HARPY)
    state = make_state(red, blue, green, phase="choose-order", initiative="blue")
    prompt = system.prompt(state)
    assert prompt is not None
    assert (prompt.kind, prompt.sides) == ("declare-order", ("blue",))
    order = system.parse_order(state, "blue", "green first")
    assert order == DeclareOrder(("green", "red", "blue"))
    state, _ = system.resolve(state, {"blue": order}, LoadedDice())
    asked: list[tuple[str, str]] = []
    while state.phase in ("missiles", "guns"):
        prompt = system.prompt(state)
        assert prompt is not None
        side = prompt.sides[0]
        asked.append((state.phase, side))
        state, _ = system.resolve(state, {side: system.parse_order(state, side, "hold")}, LoadedDice())
    assert asked == [(phase, who) for phase in ("missiles", "guns") for who in ("green", "red", "blue")]


# -- VV5 victory ---------------------------------------------------------------------------


def test_ruling_turn_limit_of_the_dogfights_is_one_plot_sheet() -> None:
    """*VV5 victory and the turn limit*: each built-in dogfight lasts at most 15 turns."""
    for name in ("vv5-dogfight", "vv5-dogfight-3", "vv5-dogfight-4"):
        assert builtin_scenario(name).max_turns == 15


def test_ruling_the_game_ends_in_the_gun_damage_step_when_one_side_is_left() -> None:
    """*VV5 victory and the turn limit*: a side wiped out by gun damage ends the game before plotting."""
    x = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    y = make_ship("Y1", "blue", at="10,8", facing="A")  # its guns point away from X1
    state = make_state(x, y, phase="guns", declare_order=("red", "blue"))
    # 3 + 5 = 8 hits at range 2 for 1 point; location 6 knocks out Y1's life support.
    after, _ = system.resolve(state, {"red": Gunfire((Shot("X1", "forward", 1, "Y1"),))}, LoadedDice(3, 5, 6))
    assert after.phase == "over"
    assert after.winners == ("red",)
    assert "only one side" in after.end_reason


def test_ruling_a_level_score_goes_to_the_side_holding_the_field() -> None:
    """*VV5 victory and the turn limit*: level on VPs, the side still on the board wins."""
    red = make_ship("X1", "red", at="10,10")
    gone = replace(make_ship("Y1", "blue", at="5,5"), status="exited")
    over = finish(make_state(red, gone), "test", [])
    assert over.winners == ("red",)
    both = finish(make_state(red, make_ship("Y1", "blue", at="5,5")), "test", [])
    assert both.winners == ()  # both still fighting and level: a draw


def test_ruling_knocked_out_counts_as_destroyed_for_victory_points() -> None:
    """*VV5 victory points*: losing life support scores 3 per ton for the side that did it."""
    x = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    y = make_ship("Y1", "blue", at="10,8", facing="A")  # Dynamo, 6 t, one life support box
    state = make_state(x, y, phase="guns", declare_order=("red", "blue"))
    state, _ = system.resolve(state, {"red": Gunfire((Shot("X1", "forward", 1, "Y1"),))}, LoadedDice(3, 5, 6))
    assert state.ship("Y1").status == "knocked-out"
    assert state.ship("Y1").destroyed_by == "red"
    assert victory_points(state) == {"red": 18, "blue": 0}


def test_ruling_damage_scores_for_each_side_that_did_it_but_the_destroyer_takes_the_kill_only() -> None:
    """*VV5 victory points*: 1 a point to other sides that damaged it; 3 a ton to the destroyer."""
    y = replace(make_ship("Y1", "blue"), status="destroyed", destroyed_by="red", damage_by=(("green", 2), ("red", 4)))
    others = (make_ship("X1", "red", at="1,1"), make_ship("Z1", "green", at="3,3"))
    assert victory_points(make_state(y, *others)) == {"blue": 0, "red": 18, "green": 2}


# -- VV5 friendly fire ---------------------------------------------------------------------


def test_ruling_no_aiming_at_friends() -> None:
    """*VV5 friendly fire*: a launch or a shot at one's own side is refused."""
    x = make_ship("X1", "red", at="10,10", facing="A", design=HARPY)
    friend = make_ship("X2", "red", at="10,8", facing="A")
    enemy = make_ship("Y1", "blue", at="20,20", facing="A")
    state = make_state(x, friend, enemy, phase="guns", declare_order=("red", "blue"))
    with pytest.raises(IllegalOrderError, match="own side"):
        system.check_order(state, "red", Gunfire((Shot("X1", "turret360", 1, "X2"),)))
    with pytest.raises(IllegalOrderError, match="own side"):
        system.check_order(replace(state, phase="missiles"), "red", Launches.parse("X1 1>X2", {"x1": "X1"}, {}))


def test_ruling_a_deflected_shot_may_hit_a_friend_but_scores_nothing() -> None:
    """*VV5 friendly fire*: the friend in the way takes the damage; its own side gets no VPs for it."""
    shooter = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    friend = make_ship("X2", "red", at="10,9", facing="A")
    enemy = make_ship("Y1", "blue", at="10,7", facing="A")
    state = make_state(shooter, friend, enemy, phase="guns", declare_order=("red", "blue"))
    # hit on a double 6, deflection 6 onto X2, location 1 (structure).
    state, events = system.resolve(state, {"red": Gunfire((Shot("X1", "forward", 1, "Y1"),))}, LoadedDice(6, 6, 6, 1))
    assert state.ship("X2").structure.boxes == friend.structure.boxes - 1
    assert any(isinstance(e, Damaged) and e.ship == "X2" for e in events)
    assert victory_points(state) == {"red": 0, "blue": 0}


# -- VV5 designs --------------------------------------------------------------------------


def test_ruling_designs_may_leave_tonnage_spare() -> None:
    """*VV5 spare tonnage*: a design under its mass is legal; the spare does nothing."""
    ghost = CATALOGUE["ghost"]
    assert ghost.spare_tenths == 1  # 4.9 of 5 t
    light = Design(name="Light", mass=10, acceleration=1, agility=1)
    assert light.spare_tenths == 10 * 10 - (10 + 20 + 10)


def test_ruling_catalogue_starships_are_vectorwars_own_designs() -> None:
    """*VV5 catalogue*: the text names ships but gives no statistics; each entry says it is ours."""
    for key in ("ghost", "dynamo", "harpy", "defender", "courier", "hauler"):
        assert "vectorwar design" in CATALOGUE[key].notes, key


# -- VV5 honour rule ------------------------------------------------------------------------


def _edge_state(**changes: Any) -> VV5State:
    runner = make_ship("X1", "red", at="5,1", facing="A", velocity="A=1")  # marker 5,0, still on the board
    enemy = make_ship("Y1", "blue", at="20,20", facing="A")
    state = make_state(runner, enemy, options={"several_targets": "harder", "honour_rule": True})
    return replace(state, **changes)


def _plot(state: VV5State, text: str) -> None:
    system.check_order(state, "red", Plot.parse(text, {"x1": "X1"}))


def test_house_rule_honour_is_off_by_default() -> None:
    """*VV5 honour rule*: option ``honour_rule``, default False; then running off the board is allowed."""
    spec = next(o for o in MANIFEST.options if o.name == "honour_rule")
    assert spec.default is False
    state = replace(_edge_state(), options={"several_targets": "harder"})
    assert not honour_binds(state)
    _plot(state, "X1 1")


def test_house_rule_honour_refuses_a_plot_off_the_board() -> None:
    """*VV5 honour rule*: with the option on, a plot ending off the board is refused, the others pass."""
    state = _edge_state()
    with pytest.raises(IllegalOrderError, match="honour") as err:
        _plot(state, "X1 1")
    assert err.value.rule.startswith("VV5 Scenario 1")
    _plot(state, "X1 0")
    _plot(state, "X1 RR1")


def test_house_rule_honour_lapses_once_a_starship_is_destroyed() -> None:
    """*VV5 honour rule*: a player's ship destroyed, knocked out or wrecked ends it; fled ships, platforms do not."""
    for status in ("destroyed", "knocked-out", "crashed"):
        wreck = replace(make_ship("Y2", "blue", at="25,25"), status=status)
        state = _edge_state()
        _plot(replace(state, ships=(*state.ships, wreck)), "X1 1")
    fled = replace(make_ship("Y2", "blue", at="25,25"), status="exited")
    state = _edge_state()
    with pytest.raises(IllegalOrderError, match="honour"):
        _plot(replace(state, ships=(*state.ships, fled)), "X1 1")
    platform = replace(make_ship("P1", "defences", at="25,25"), status="destroyed")  # engine-played, not a side
    with pytest.raises(IllegalOrderError, match="honour"):
        _plot(
            replace(state, ships=(*state.ships, platform), automated=("defences",)),
            "X1 1",
        )


def test_house_rule_honour_lapses_after_one_plot_sheet() -> None:
    """*VV5 honour rule*: turn 15 is the last line of the plot sheet; from turn 16 a ship may leave."""
    with pytest.raises(IllegalOrderError, match="honour"):
        _plot(_edge_state(turn=15), "X1 1")
    _plot(_edge_state(turn=16), "X1 1")


def test_house_rule_honour_allows_leaving_when_every_plot_leaves() -> None:
    """*VV5 honour rule*: a ship too fast to stay on the board may plot anything legal."""
    fast = make_ship("X1", "red", at="5,0", facing="A", velocity="A=5")  # marker 5 hexes off the top
    state = replace(_edge_state(), ships=(fast, make_ship("Y1", "blue", at="20,20")))
    assert on_board_plots(state, fast) == []
    _plot(state, "X1 2")


def test_house_rule_honour_search_covers_split_thrust() -> None:
    """*VV5 honour rule*: the search for a plot that stays on includes plots such as 1L1."""
    found = reachable(Direction.A, 1, 2)
    split = Velocity.toward(Direction.A) + Velocity.toward(Direction.F)
    assert (split.dq, split.dr) in found
    move = found[(split.dq, split.dr)]
    assert move.thrust == 2
    assert move.turns == 1
    assert plotted_end(make_ship(facing="A"), move) == make_ship().hex.shifted(split.dq, split.dr)


def _every_outcome_by_brute_force(facing: Direction, rotations: int, thrust: int) -> dict[tuple[str, int, int], int]:
    """Each (heading, velocity change) any step order within the allowance reaches, with its fewest steps."""
    best: dict[tuple[str, int, int], int] = {}
    frontier = [(facing, 0, 0, 0, 0)]
    for length in range(rotations + thrust + 1):
        for f, dq, dr, _, _ in frontier:
            best.setdefault((f.name, dq, dr), length)
        nxt = []
        for f, dq, dr, t, g in frontier:
            if t < rotations:
                nxt += [(f.turned(-1), dq, dr, t + 1, g), (f.turned(1), dq, dr, t + 1, g)]
            if g < thrust:
                push = Velocity.toward(f, 1)
                nxt.append((f, dq + push.dq, dr + push.dr, t, g + 1))
        frontier = nxt
    return best


@pytest.mark.parametrize(("rotations", "thrust"), [(1, 1), (2, 2), (1, 3), (3, 2), (2, 4)])
def test_plot_search_finds_every_outcome_once_by_its_shortest_plot(rotations: int, thrust: int) -> None:
    """The pruned, cached search behind previews, bots and the honour rule misses nothing."""
    expected = _every_outcome_by_brute_force(Direction.C, rotations, thrust)
    found = [(f.name, dq, dr, move) for f, dq, dr, move in search_plots(Direction.C, rotations, thrust)]
    assert len({(f, dq, dr) for f, dq, dr, _ in found}) == len(found)
    assert {(f, dq, dr) for f, dq, dr, _ in found} | {("C", 0, 0)} == set(expected)
    for f, dq, dr, move in found:
        assert move.turns + move.thrust == expected[(f, dq, dr)]
        assert plan(Direction.C, Velocity(), move) == (Direction[f], Velocity(dq, dr))


def test_house_rule_honour_random_plots_are_always_honourable() -> None:
    """*VV5 honour rule*: the random player never offers a plot honour forbids."""
    state = _edge_state()
    for seed in range(60):
        order = system.random_order(state, "red", random.Random(seed))
        system.check_order(state, "red", order)


def test_house_rule_honour_bots_play_whole_dogfights_legally() -> None:
    """*VV5 honour rule*: greedy and random bots give only honourable plots through whole games."""
    for seed in range(3):
        game = play_out(
            builtin_scenario("vv5-dogfight"), {"red": "greedy", "blue": "random"}, seed, {"honour_rule": True}
        )
        assert game.is_over
        assert game.options["honour_rule"] is True


def test_house_rule_honour_cornered_plot_still_goes_through_the_game() -> None:
    """*VV5 honour rule*: the engine accepts a plot off the board when nothing else is possible."""
    fast = make_ship("X1", "red", at="5,0", facing="A", velocity="A=5")
    enemy = make_ship("Y1", "blue", at="20,20")
    state = make_state(fast, enemy, options={"several_targets": "harder", "honour_rule": True})
    plots = {"red": Plot((("X1", Manoeuvre.parse("0")),)), "blue": Plot((("Y1", Manoeuvre.parse("0")),))}
    for side, plot in plots.items():
        system.check_order(state, side, plot)
    after, events = system.resolve(state, plots, LoadedDice(*([3] * 10)))
    assert after.ship("X1").status == "exited"
    assert any(isinstance(e, LeftMap) for e in events)


def test_house_rule_honour_uses_the_plotted_end_not_the_current_marker() -> None:
    """*VV5 honour rule*: a ship whose marker is off the board may thrust back onto it and must."""
    ship = make_ship("X1", "red", at="5,1", facing="D", velocity="A=2")  # marker 5,-1: off the board
    state = replace(_edge_state(), ships=(ship, make_ship("Y1", "blue", at="20,20")))
    with pytest.raises(IllegalOrderError, match="honour"):
        _plot(state, "X1 0")
    _plot(state, "X1 1")  # 1G back toward D puts the marker on 5,0
    assert HexMap.single(30, 30).contains(plotted_end(ship, Manoeuvre.parse("1")))


def test_house_rule_honour_greedy_finds_the_split_thrust_that_stays_on() -> None:
    """*VV5 honour rule*: the greedy player widens its search when its usual plots all leave the board."""
    from vectorwar.systems.vv5.bots import GreedyBot

    nimble = Design(name="T", mass=10, acceleration=2, agility=1, guns=(GunMount(arc="forward", guns=1),))
    corner = make_ship("X1", "red", at="0,0", facing="C", velocity="A=1, F=1", design=nimble)
    state = make_state(
        corner,
        make_ship("Y1", "blue", at="9,9"),
        hex_map=HexMap.single(12, 12),
        options={"several_targets": "harder", "honour_rule": True},
    )
    assert [str(m) for m in on_board_plots(state, corner)] == ["1R1"]
    order = GreedyBot().choose(state, "red", random.Random(0))
    assert str(order) == "X1 1R1"
    system.check_order(state, "red", order)


# -- VV5 missiles in flight -------------------------------------------------------------


def test_ruling_a_missile_in_flight_arrives_even_if_its_launcher_is_gone() -> None:
    """*VV5 missiles in flight*: the launcher's fate does not matter; a target out of play is not rolled for."""
    from vectorwar.systems.vv5.state import Missile

    gone = replace(make_ship("X1", "red", at="10,10"), status="knocked-out")
    target = make_ship("Y1", "blue", at="10,6")
    other = replace(make_ship("Y2", "blue", at="12,6"), status="exited")
    state = make_state(gone, target, other, incoming=(Missile("X1", "Y1", 7), Missile("X1", "Y2", 7)))
    events: list[Event] = []
    after = turn.resolve_missiles(state, LoadedDice(4, 4, 1, 1, 1, 1), events)
    resolved = [e for e in events if isinstance(e, MissileResolved)]
    assert [(r.target, r.hit) for r in resolved] == [("Y1", True)]
    assert after.ship("Y1").structure.boxes == target.structure.boxes - 2  # 2D6 = 2, both on location 1
    assert after.incoming == ()
    assert sum(1 for e in events if isinstance(e, Rolled)) == 4  # nothing rolled for Y2


def test_ruling_a_lone_launchers_extra_structure_point_meets_structure_armour_first() -> None:
    """*VV5 launcher pairs*: the lone launcher's extra SI point is an ordinary structure hit."""
    dynamo = replace(make_ship(), mounts=())  # one launcher
    armoured = replace(dynamo, structure=Box(6, 1, 6, 1))
    after = damage_point(armoured, LoadedDice(5), [], "t")
    assert after.launchers == ("destroyed",)
    assert (after.structure.boxes, after.structure.armour) == (6, 0)
    assert after.damage_taken == 1
    bare = damage_point(dynamo, LoadedDice(5), [], "t")
    assert (bare.structure.boxes, bare.damage_taken) == (5, 2)
