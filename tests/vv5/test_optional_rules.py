"""VV5 optional rules Experienced Crews and Shock (text pages 20-21)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.conformance import check_game, play_random_game
from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError, ScenarioError
from vectorwar.events import Destroyed, Event, Moved
from vectorwar.game import Game
from vectorwar.hexes import Direction, Hex
from vectorwar.play import bot_rng
from vectorwar.registry import get_system
from vectorwar.scenario import Scenario
from vectorwar.systems.vv5 import crews, shock, turn
from vectorwar.systems.vv5.events import Collided, GunsFired, MissileLaunched
from vectorwar.systems.vv5.gunfire import fire_shot
from vectorwar.systems.vv5.orders import Launch, Launches, Manoeuvre, Plot, Shot
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import Box, Ship, VV5State

from .conftest import LoadedDice, make_ship, make_state

BOTH = {"experienced_crews": True, "shock": True}


def crewed(points: int, ship_id: str = "X1", side: str = "red", **where: Any) -> Ship:
    return replace(make_ship(ship_id, side, **where), crew=f"crew-{ship_id}", experience=points)


def opts(**extra: object) -> dict[str, Any]:
    return {"several_targets": "harder", **BOTH, **extra}


def with_crews(scenario: Scenario, points: tuple[int, ...], options: Mapping[str, object]) -> Scenario:
    """The scenario with a named crew on every ship, experience taken in turn from ``points``."""
    sides = []
    k = 0
    for side in scenario.sides:
        ships = []
        for placed in side.ships:
            tag = crews.crew_tag(f"C{k}", points[k % len(points)])
            ships.append(placed.model_copy(update={"loadout": [*placed.loadout, tag]}))
            k += 1
        sides.append(side.model_copy(update={"ships": ships}))
    return scenario.model_copy(update={"sides": sides, "options": {**scenario.options, **options}})


# -- Experienced Crews: ratings and tags ----------------------------------------------


@pytest.mark.parametrize(
    ("points", "name", "level"),
    [
        (0, "Rookie", 0),
        (1, "Regular", 0),
        (4, "Regular", 0),
        (5, "Veteran", 0),
        (9, "Veteran", 0),
        (10, "Ace", 1),
        (20, "Ace(2)", 2),
        (39, "Ace(3)", 3),
        (40, "Ace(4)", 4),
        (50, "Ace(5)", 5),
        (90, "Ace(5)", 5),
    ],
)
def test_experience_table(points: int, name: str, level: int) -> None:
    assert crews.rating(points) == name
    assert crews.ace_level(points) == level


def test_crew_tag_in_a_scenario_puts_the_crew_aboard() -> None:
    scenario = with_crews(builtin_scenario("vv5-dogfight"), (12, 0), {"experienced_crews": True})
    game = Game.new(get_system("vv5"), scenario, seed=3)
    ships = game.state.ships
    assert (ships[0].crew, ships[0].experience) == ("C0", 12)
    assert (ships[1].crew, ships[1].experience) == ("C1", 0)


@pytest.mark.parametrize("tag", ["crew:Ivanova", "crew::3", "crew:Ivanova:x", "crew:Ivanova:-2"])
def test_bad_crew_tags_are_refused(tag: str) -> None:
    with pytest.raises(ScenarioError, match="crew:NAME:POINTS"):
        crews.fit_crew(make_ship(), (tag,), "scenario t: sides.0.ships.0.loadout")


def test_two_crews_on_one_ship_are_refused() -> None:
    with pytest.raises(ScenarioError, match="2 crew tags"):
        crews.fit_crew(make_ship(), ("crew:A:1", "crew:B:2"), "t")


@pytest.mark.parametrize(
    ("points", "panicked", "bonus"), [(0, False, -1), (1, False, 0), (5, False, 1), (30, False, 1), (30, True, 0)]
)
def test_attack_bonus(points: int, panicked: bool, bonus: int) -> None:
    ship = replace(crewed(points), panicked=panicked)
    assert crews.attack_bonus(make_state(ship, options=opts()), ship) == bonus
    assert crews.attack_bonus(make_state(ship), ship) == 0  # option off: every crew is plain


def test_a_panicked_rookie_keeps_its_penalty() -> None:
    ship = replace(crewed(0), panicked=True)
    assert crews.attack_bonus(make_state(ship, options=opts()), ship) == -1


@pytest.mark.parametrize(("points", "hit"), [(0, False), (1, True)])
def test_rookie_gun_needs_one_more(points: int, hit: bool) -> None:
    # Range 1 needs 7+; a single gun, a 10 t target: no other modifier. A roll of 7 misses for a Rookie.
    shooter = crewed(points, "X1", "red", at="10,10", facing="A")
    target = crewed(3, "Y1", "blue", at="10,9", facing="A")
    assert shooter.hex.distance(target.hex) == 1
    state = make_state(shooter, target, options=opts(), phase="guns")
    events: list[Event] = []
    fire_shot(state, Shot("X1", "forward", 1, "Y1"), LoadedDice(3, 4, 6), events)
    fired = next(e for e in events if isinstance(e, GunsFired))
    assert fired.hit is hit
    assert fired.modifier == (-1 if points == 0 else 0)


def test_veteran_gun_gets_plus_one() -> None:
    shooter = crewed(5, "X1", "red", at="10,10", facing="A")
    target = crewed(3, "Y1", "blue", at="10,9", facing="A")
    events: list[Event] = []
    fire_shot(make_state(shooter, target, options=opts()), Shot("X1", "forward", 1, "Y1"), LoadedDice(2, 4), events)
    fired = next(e for e in events if isinstance(e, GunsFired))
    assert (fired.modifier, fired.roll, fired.hit) == (1, 6, True)


@pytest.mark.parametrize(("points", "to_hit"), [(0, 8), (1, 7), (5, 6)])
def test_missile_to_hit_number_by_crew(points: int, to_hit: int) -> None:
    # Range 4 is 7+; a Dynamo target facing away has no guns on the shooter.
    shooter = crewed(points, "X1", "red", at="10,10", facing="A")
    target = crewed(3, "Y1", "blue", at="10,6", facing="A")
    state = make_state(shooter, target, options=opts(), phase="missiles", declare_order=("red", "blue"))
    after = turn.launch(state, Launches((Launch("X1", 1, "Y1"),)), [])
    assert after.incoming[0].to_hit == to_hit


# -- Ace Moments -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "roll", "mode", "moment"),
    [
        (1, 1, "table", True),
        (1, 2, "table", False),
        (3, 3, "table", True),
        (5, 6, "table", False),
        (1, 6, "six", True),
        (5, 5, "six", False),
    ],
)
def test_ace_moment_chance(level: int, roll: int, mode: str, moment: bool) -> None:
    assert crews.has_moment(level, roll, mode) is moment


def ace_duel(ace_points: int = 20, **changes: Any) -> VV5State:
    ace = crewed(ace_points, "X1", "red", at="10,10", facing="A")
    other = crewed(1, "Y1", "blue", at="14,10", facing="D")
    return make_state(ace, other, options=opts(), **changes)


def test_an_ace_moment_moves_the_others_first_then_asks_for_a_new_plot() -> None:
    state = ace_duel()
    orders = {"red": Plot((("X1", Manoeuvre.parse("1")),)), "blue": Plot((("Y1", Manoeuvre.parse("2")),))}
    state, events = system.resolve(state, orders, LoadedDice(2))  # Ace(2) rolls 2: a moment
    assert state.phase == "ace-replot"
    assert state.ace_replot == ("X1",)
    assert state.ship("Y1").hex != Hex.parse("14,10")  # the other ship has moved
    assert state.ship("X1").hex == Hex.parse("10,10")  # the ace has not
    assert not any(isinstance(e, Moved) and e.ship == "X1" for e in events)
    prompt = system.prompt(state)
    assert prompt is not None
    assert (prompt.kind, prompt.sides) == ("ace-replot", ("red",))
    with pytest.raises(IllegalOrderError, match="no Ace Moment"):
        system.check_order(state, "blue", Plot((("Y1", Manoeuvre.parse("0")),)))
    replot = system.parse_order(state, "red", "X1 R")
    system.check_order(state, "red", replot)
    state, events = system.resolve(state, {"red": replot}, LoadedDice(*[4, 3, 5, 2, 6, 1] * 5))
    moved = [e for e in events if isinstance(e, Moved)]
    assert [m.ship for m in moved][:1] == ["X1"]
    assert moved[0].plot == "R"  # the new plot, not the one written first
    assert state.ship("X1").record[-1].plot == "R"


def test_no_moment_moves_everyone_at_once() -> None:
    state = ace_duel()
    orders = {"red": Plot((("X1", Manoeuvre.parse("1")),)), "blue": Plot((("Y1", Manoeuvre.parse("0")),))}
    state, _ = system.resolve(state, orders, LoadedDice(3, *[4, 3, 5, 2, 6, 1] * 5))  # Ace(2) rolls 3: no moment
    assert state.phase != "ace-replot"
    assert state.ship("X1").record[-1].plot == "1"


def test_a_panicked_ace_rolls_for_no_moment() -> None:
    state = ace_duel(50)
    state = state.with_ship(replace(state.ship("X1"), panicked=True, panic_move="0"))
    events: list[Event] = []
    assert crews.roll_ace_moments(state, LoadedDice(), events) == ()
    assert not events


def test_an_ace_cannot_replot_into_a_hex_already_taken() -> None:
    # Y1 has moved to 11,9 (drifting); the ace re-plots onto it and is knocked aside, Y1 stays.
    ace = crewed(20, "X1", "red", at="10,10", facing="A")
    placed = crewed(1, "Y1", "blue", at="10,9", facing="A")
    state = make_state(ace, placed, options=opts(), phase="ace-replot", ace_replot=("X1",))
    events: list[Event] = []
    after = crews.move_aces(state, {"X1": Manoeuvre.parse("1")}, LoadedDice(4), events)
    assert after.ship("Y1") == placed
    assert after.ship("X1").hex == Hex.parse("10,9").neighbour(Direction(3))  # knocked aside by a 4
    assert any(isinstance(e, Collided) and e.ship == "X1" and e.winner == "Y1" for e in events)
    assert not any(isinstance(e, Moved) and e.ship == "Y1" for e in events)


# -- escapes and the roster -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("won", "roll", "ace", "fate"),
    [
        (True, 4, False, "escaped"),
        (True, 3, False, "killed"),
        (True, 3, True, "escaped"),
        (False, 5, False, "escaped"),
        (False, 4, False, "captured"),
        (False, 3, False, "killed"),
        (False, 3, True, "captured"),
        (False, 4, True, "escaped"),
    ],
)
def test_escape_tables(won: bool, roll: int, ace: bool, fate: str) -> None:
    assert crews.escape_fate(won, roll, ace) == fate


def test_crews_of_lost_ships_roll_at_the_end() -> None:
    lost = replace(crewed(10, "X1", "red"), status="knocked-out")
    gone = replace(crewed(1, "X2", "red", at="12,12"), status="exited")
    winner = crewed(1, "Y1", "blue", at="14,14")
    state = make_state(lost, gone, winner, options=opts(), phase="over", winners=("blue",))
    after = crews.roll_escapes(state, LoadedDice(3), [])
    assert after.ship("X1").crew_fate == "captured"  # lost side: 3 + 1 (ace) = 4
    assert after.ship("X2").crew_fate == ""


def test_a_crew_may_escape_voluntarily_in_place_of_its_plot() -> None:
    """Experienced Crews: "Crews may voluntarily attempt to escape from a starship" (*VV5 voluntary escapes*)."""
    x1, x2 = crewed(3, "X1", "red", velocity="A=2"), crewed(1, "X2", "red", at="12,12")
    y1 = crewed(1, "Y1", "blue", at="20,20")
    state = make_state(x1, x2, y1, options=opts())
    plot = Plot.parse("X1 escape; X2 0", {"x1": "X1", "x2": "X2"})
    assert plot == Plot((("X2", Manoeuvre(())),), ("X1",))
    assert Plot.parse(str(plot), {"x1": "X1", "x2": "X2"}) == plot
    system.check_order(state, "red", plot)
    prompt = system.prompt(state)
    assert prompt is not None
    assert "'X1 escape'" in prompt.help
    after, events = system.resolve(state, {"red": plot, "blue": Plot.parse("Y1 0", {"y1": "Y1"})}, Dice(1))
    ship = after.ship("X1")
    assert (ship.status, ship.hex) == ("abandoned", x1.hex)  # left where it was, out of the battle
    assert "crew-X1 abandon X1: a voluntary escape; the ship is out of the battle" in [e.describe() for e in events]
    assert not any(isinstance(e, Moved) and e.ship == "X1" for e in events)
    assert [s.id for s in after.ships_of("red")] == ["X2"]


def test_voluntary_escapes_need_the_option_and_a_crew() -> None:
    state = make_state(crewed(1, "X1", "red"), crewed(1, "Y1", "blue", at="20,20"))
    with pytest.raises(IllegalOrderError, match="optional rule Experienced Crews"):
        system.check_order(state, "red", Plot((), ("X1",)))


def test_ruling_a_voluntary_escape_always_works_but_losers_are_captured_on_1_or_2() -> None:
    """*VV5 voluntary escapes*: no roll for the winners; 1-2 captures on the other side; no escape point."""
    red = replace(crewed(1, "X1", "red"), status="abandoned")
    red2 = replace(crewed(1, "X2", "red", at="12,12"), status="abandoned")
    blue = replace(crewed(1, "Y1", "blue", at="14,14"), status="abandoned")
    state = make_state(red, red2, blue, options=opts(), phase="over", winners=("blue",))
    events: list[Event] = []
    after = crews.roll_escapes(state, LoadedDice(2, 3), events)  # X1 rolls 2, X2 rolls 3, Y1 no roll
    assert [after.ship(s).crew_fate for s in ("X1", "X2", "Y1")] == ["captured", "escaped", "escaped"]
    assert "crew-Y1 (Y1), escaped voluntarily on the winning side: escaped" in [e.describe() for e in events]
    # Escaping an intact ship is not "escaping from a destroyed starship": no point for it.
    assert crews.experience_gained(after, after.ship("X2")) == 0
    assert crews.experience_gained(after, after.ship("Y1")) == 1  # the win only


def test_a_side_whose_crews_all_escape_is_out_of_the_battle() -> None:
    x1, y1 = crewed(1, "X1", "red"), crewed(1, "Y1", "blue", at="20,20")
    state = make_state(x1, y1, options=opts())
    after, _ = system.resolve(state, {"red": Plot((), ("X1",)), "blue": Plot.parse("Y1 0", {"y1": "Y1"})}, Dice(1))
    assert after.phase == "over"
    assert after.winners == ("blue",)
    assert after.ship("X1").crew_fate in ("escaped", "captured")


def finished_game(seed: int = 0) -> Game:
    scenario = with_crews(builtin_scenario("vv5-dogfight"), (12, 0, 5, 1), BOTH)
    return play_random_game(get_system("vv5"), scenario, seed)


def test_update_roster_counts_wins_kills_and_escapes(tmp_path: Path) -> None:
    game = finished_game()
    state: VV5State = game.state
    roster = crews.update_roster(crews.CrewRoster(), game)
    assert state.winners  # seed 0 has a winner, so some crews gained for winning
    for ship in state.ships:
        record = roster.crew(ship.crew)
        assert record is not None
        kills = sum(
            1
            for e in state.ships
            if e.side != ship.side and e.status in ("destroyed", "knocked-out") and ship.id in e.hit_by
        )
        expected = int(ship.side in state.winners) + kills + int(ship.crew_fate == "escaped")
        if ship.crew_fate in ("killed", "captured"):
            expected = 0  # a lost crew gains nothing
        assert record.experience == ship.experience + expected, ship
        assert record.status == (ship.crew_fate if ship.crew_fate in ("killed", "captured") else "active")
    with pytest.raises(ValueError, match="already counts"):
        crews.update_roster(roster, game)
    path = tmp_path / "crews.json"
    assert crews.load_roster(path) == crews.CrewRoster()
    crews.save_roster(roster, path)
    assert crews.load_roster(path) == roster
    assert roster.tag("C0").startswith("crew:C0:")


def test_ruling_untagged_crews_join_the_roster_under_their_side_and_ship() -> None:
    """*VV5 crews without a name*: a dogfight with experienced crews and no crew tags still feeds the roster."""
    scenario = builtin_scenario("vv5-dogfight")
    scenario = scenario.model_copy(update={"options": {**scenario.options, **BOTH}})
    game = play_random_game(get_system("vv5"), scenario, 0)
    state: VV5State = game.state
    assert all(not ship.crew for ship in state.ships)
    roster = crews.update_roster(crews.CrewRoster(), game)
    assert sorted(c.name for c in roster.crews) == sorted(f"{s.side} {s.id}" for s in state.ships)
    for ship in state.ships:
        record = roster.crew(f"{ship.side} {ship.id}")
        assert record is not None
        gained = crews.experience_gained(state, ship)
        assert record.experience == gained
        assert record.status == (ship.crew_fate if ship.crew_fate in ("killed", "captured") else "active")
    assert any(c.experience for c in roster.crews)  # the winners at least gained a point
    # The roster's tag puts the crew aboard again next game.
    first = roster.crews[0]
    assert roster.tag(first.name) == f"crew:{first.name}:{first.experience}"


def test_kill_credit_goes_to_every_ship_that_hit() -> None:
    a, b = crewed(1, "X1", "red"), crewed(1, "X2", "red", at="12,12")
    dead = replace(crewed(1, "Y1", "blue", at="14,14"), status="destroyed", hit_by=("X1", "X2"))
    state = make_state(a, b, dead, options=opts(), phase="over", winners=("red",))
    assert crews.experience_gained(state, a) == 2
    assert crews.experience_gained(state, b) == 2


# -- Shock -----------------------------------------------------------------------------


def test_the_texts_shock_example_gives_four_points() -> None:
    # Three enemies shoot at X1 (two from its rear arc) and all hit; two friends are destroyed.
    x1 = crewed(1, "X1", "red", at="10,10", facing="A")
    front = crewed(1, "Y1", "blue", at="10,7")
    rear1, rear2 = crewed(1, "Y2", "blue", at="10,13"), crewed(1, "Y3", "blue", at="10,12")
    f1, f2 = crewed(1, "X2", "red", at="2,2"), crewed(1, "X3", "red", at="4,2")
    state = make_state(x1, front, rear1, rear2, f1, f2, options=opts())
    events: list[Event] = [GunsFired(s, "forward", 1, "X1", 3, 9, 0, 10, True, 1) for s in ("Y1", "Y2", "Y3")]
    state = state.with_ship(replace(f1, status="destroyed")).with_ship(replace(f2, status="destroyed"))
    events += [Destroyed("X2"), Destroyed("X3")]
    after = shock.absorb(state, events)
    assert shock.points(after.ship("X1")) == 4
    assert sorted(after.ship("X1").shock) == sorted(
        [shock.REAR, shock.GUN_DAMAGE, shock.FRIEND_LOST + "X2", shock.FRIEND_LOST + "X3"]
    )


def test_missiles_incoming_count_once() -> None:
    x1 = crewed(1, "X1", "red", at="10,10", facing="A")
    y1 = crewed(1, "Y1", "blue", at="10,6", facing="D")
    state = make_state(x1, y1, options=opts())
    after = shock.absorb(state, [MissileLaunched("Y1", "X1", 4, 7), MissileLaunched("Y1", "X1", 4, 7)])
    assert after.ship("X1").shock == (shock.INCOMING,)
    assert shock.absorb(make_state(x1, y1), [MissileLaunched("Y1", "X1", 4, 7)]).ship("X1").shock == ()


@pytest.mark.parametrize(("points", "shock_points", "need"), [(0, 2, 3), (1, 2, 2), (20, 2, 0), (10, 3, 2)])
def test_panic_number(points: int, shock_points: int, need: int) -> None:
    ship = replace(crewed(points), shock=tuple(f"s{i}" for i in range(shock_points)))
    assert shock.panic_need(make_state(ship, options=opts()), ship) == need


def test_panic_check_forces_the_table_move() -> None:
    rookie = replace(crewed(0, "X1", "red"), shock=(shock.REAR, shock.GUN_DAMAGE))  # 2 + 1 (rookie) = 3
    calm = replace(crewed(20, "Y1", "blue", at="14,14"), shock=(shock.REAR,))  # 1 - 2: no roll
    state = make_state(rookie, calm, options=opts())
    events: list[Event] = []
    state = shock.panic_check(state, LoadedDice(3, 4), events)  # panic on 3; the table gives 4: L then 1G
    x1 = state.ship("X1")
    assert x1.panicked
    assert x1.panic_move == "L1"
    assert not state.ship("Y1").panicked
    assert all(s.shock == () for s in state.ships)
    with pytest.raises(IllegalOrderError, match="panic move L1"):
        system.check_order(state, "red", Plot((("X1", Manoeuvre.parse("R")),)))
    system.check_order(state, "red", Plot((("X1", Manoeuvre.parse("L1")),)))
    system.check_order(state, "red", Plot(()))  # left out: the engine flies the panic move
    assert shock.fill_panic_moves(state, {})["X1"] == Manoeuvre.parse("L1")
    assert crews.attack_bonus(state, x1) == -1


def test_no_panic_above_the_number() -> None:
    ship = replace(crewed(1), shock=(shock.REAR,))
    state = shock.panic_check(make_state(ship, options=opts()), LoadedDice(2), [])
    assert not state.ship("X1").panicked
    assert state.ship("X1").shock == ()


def test_a_crippled_ship_flies_what_it_can_of_the_panic_move() -> None:
    ship = replace(make_ship(), agility=Box(0, 0, 2, 0))  # emergency thrusters: one rotation, no thrust
    assert str(shock.panic_move(ship, 4)) == "L"
    assert str(shock.panic_move(ship, 6)) == "0"
    assert str(shock.panic_move(make_ship(), 5)) == "R1"


def test_panic_lasts_until_the_next_check() -> None:
    vet = replace(crewed(5), panicked=True, panic_move="R")
    state = shock.panic_check(make_state(vet, options=opts()), LoadedDice(), [])
    assert not state.ship("X1").panicked
    assert crews.attack_bonus(state, state.ship("X1")) == 1


# -- whole games with both options on ---------------------------------------------------


@pytest.mark.parametrize("name", ["vv5-dogfight-3", "vv5-alien-starship"])
def test_random_games_conform_with_both_options(name: str) -> None:
    scenario = with_crews(builtin_scenario(name), (0, 12, 55, 5), BOTH)
    kinds: set[str] = set()
    for seed in (0, 1):
        game = play_random_game(get_system("vv5"), scenario, seed)
        check_game(game)
        kinds |= {e.kind for e in game.events}
        kinds |= {b.clock.phase for b in game.history}
    assert {"vv5-ace-moment", "vv5-panic-check", "ace-replot"} <= kinds


def test_greedy_stays_legal_with_both_options() -> None:
    vv5 = get_system("vv5")
    scenario = with_crews(builtin_scenario("vv5-dogfight-3"), (0, 12, 55, 5), BOTH)
    for seed in (0, 1):
        game = Game.new(vv5, scenario, seed, options=BOTH)
        bots = {"red": vv5.bots()["greedy"](), "blue": vv5.bots()["random"]()}
        step = 0
        while not game.is_over and step < 3000:
            side = game.waiting_for[0]
            game.submit(side, bots.get(side, bots["blue"]).choose(game.state, side, bot_rng(seed, side, step)))
            step += 1
        assert game.is_over
        check_game(game)


def test_options_off_leave_the_game_alone() -> None:
    game = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), 0)
    rng = random.Random(0)
    for _ in range(12):
        if game.is_over:
            break
        side = game.waiting_for[0]
        game.submit(side, system.random_order(game.state, side, rng))
    assert not any(e.kind.startswith(("vv5-panic", "vv5-ace", "vv5-crew")) for e in game.events)


def test_the_card_shows_crew_shock_and_panic_only_with_the_options() -> None:
    from vectorwar.systems.vv5.display import ship_card

    ace = replace(crewed(12), shock=(shock.REAR, shock.INCOMING), panicked=True, panic_move="LL")
    rows = dict(ship_card(make_state(ace, crewed(0, "Y1", "blue"), options=opts()), ace).rows)
    assert rows["CREW"] == "crew-X1, Ace (12 points)"
    # Two shock points, less the Ace's level 1: panics on 1 only.
    assert rows["SHOCK"].startswith("2 (")
    assert rows["SHOCK"].endswith("panics on 1D6 <= 1")
    assert rows["PANIC"] == "must fly LL"
    plain = dict(ship_card(make_state(ace, crewed(0, "Y1", "blue")), ace).rows)
    assert not {"CREW", "SHOCK", "PANIC"} & set(plain)
