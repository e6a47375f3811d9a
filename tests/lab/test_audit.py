"""The bot audit: it catches a crash, a refused order, a ship flown off the map, a side that stalls and a
game that drifts to its turn limit after the sides have met, and (slow) the built-in bots pass it in every
scenario and side but for the findings listed here."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.lab.audit import CRASH, DRIFTED, LEFT_MAP, REFUSED, STALLED, _Watch, audit, audit_game
from vectorwar.play import play_out
from vectorwar.players import computer_players
from vectorwar.registry import get_system
from vectorwar.rules import Order, RuleSystem

MSC: RuleSystem[Any] = get_system("msc")


class Crashes:
    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        raise RuntimeError("out of ideas")


class Babbles:
    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        return MSC.parse_order(state, side, "Hawk 9" if side == "red" else "Raven 9")


class Greedy:
    """MSC's greedy, except where a subclass says how to move."""

    def __init__(self) -> None:
        self.greedy = MSC.bots()["greedy"]()

    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        options = MSC.move_options(state, side)
        if not options:
            return self.greedy.choose(state, side, rng)
        return MSC.parse_order(state, side, "; ".join(self.move(state, ship, o) for ship, o in options.items()))

    def move(self, state: Any, ship: str, options: Any) -> str:
        raise NotImplementedError


class SitsStill(Greedy):
    """Slows down and stays where it is, facing as it was."""

    def move(self, state: Any, ship: str, options: Any) -> str:
        return str(min(options, key=lambda o: (o.path[0].hex.distance(o.end.hex), len(o.path), o.text)).text)


class FliesOff(Greedy):
    """Off the map at the first plot that can, else as near its edge as it can get."""

    def move(self, state: Any, ship: str, options: Any) -> str:
        board = builtin_scenario("msc-duel").hex_map()
        leaving = [o for o in options if MSC.edge_warning(state, o, board) is not None]
        if leaving:
            return str(leaving[0].text)
        return str(min(options, key=lambda o: board.distance_to_edge(o.end.hex)).text)


class Parts(Greedy):
    """Greedy for its first turns, then as far from the enemy as it can get without leaving the map."""

    FIGHTS = 6

    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        if state.turn <= self.FIGHTS:
            return self.greedy.choose(state, side, rng)
        return super().choose(state, side, rng)

    def move(self, state: Any, ship: str, options: Any) -> str:
        board = builtin_scenario("msc-duel").hex_map()
        pieces = MSC.counters(state)
        side = next(c.side for c in pieces if c.id == ship)
        enemies = [c.position.hex for c in pieces if c.side != side and c.status == "active"]
        stay = [o for o in options if MSC.edge_warning(state, o, board) is None] or list(options)
        return str(max(stay, key=lambda o: (min(o.end.hex.distance(e) for e in enemies), o.text)).text)


def kinds(bot: type) -> set[str]:
    return {f.kind for f in audit_game(builtin_scenario("msc-duel"), "test", 0, bot=bot)}


def test_a_bot_that_raises_is_a_crash() -> None:
    (finding,) = audit_game(builtin_scenario("msc-duel"), "test", 0, bot=Crashes)
    assert (finding.kind, finding.side, finding.turn) == (CRASH, "red", 1)
    assert "out of ideas" in finding.detail


def test_an_order_the_rules_refuse_is_found() -> None:
    (finding,) = audit_game(builtin_scenario("msc-duel"), "test", 0, bot=Babbles)
    assert finding.kind == REFUSED
    assert "Hawk 9" in finding.detail


def test_sitting_still_with_an_enemy_on_the_map_is_a_stall() -> None:
    found = audit_game(builtin_scenario("msc-duel"), "test", 0, bot=SitsStill)
    assert {(f.kind, f.side) for f in found} == {(STALLED, "red"), (STALLED, "blue")}
    # Once a game a side, after five still turns (the first turns slow the ship to a stop).
    assert all(f.turn >= 6 for f in found)


def test_a_side_sitting_out_the_clock_on_a_winning_lead_is_no_stall() -> None:
    # Seed 3 of the bought Alien Starship: red's transport, 53 VP to 4 up from turn 17, waits out the last turns
    # where it is, and wins on points.
    alien = builtin_scenario("vv5-alien-starship-purchase")
    game = play_out(alien, {"red": "greedy", "blue": "greedy"}, seed=3)
    assert game.result is not None
    assert game.result.winners == ("red",)
    assert STALLED not in {f.kind for f in audit_game(alien, "greedy", 3)}
    # The loser's stall in the same game would stand.
    watch = _Watch(game, alien.id, "greedy", 3)
    watch.found = [watch.finding(side, STALLED, 22, "still") for side in ("red", "blue")]
    watch.pardon_winners()
    assert [(f.side, f.kind) for f in watch.found] == [("blue", STALLED)]


def test_a_side_whose_ships_have_no_other_plot_is_no_stall() -> None:
    # Seed 27 of the MSC fleet: blue's last ship, Crow, loses its engine on turn 7 and can only drift at SPEED 0
    # to the end, red's unarmed Falcon keeping out of its arcs (the game is drawn at the turn limit).
    fleet = builtin_scenario("msc-fleet")
    game = play_out(fleet, {"red": "greedy", "blue": "greedy"}, seed=27)
    crow = game.state.ship("Crow")
    assert (crow.engine, crow.speed) == (0, 0)
    assert [c.id for c in MSC.counters(game.state) if c.side == "blue" and c.status == "active"] == ["Crow"]
    assert STALLED not in {f.kind for f in audit_game(fleet, "greedy", 27)}


def test_a_stalemate_at_the_turn_limit_is_no_drift() -> None:
    # The same game: red's last ship, Falcon, has no weapon left and blue's, Crow, no engine, so neither can bring
    # a weapon to bear on the other by its own moves; the game runs to turn 30 undecided.
    fleet = builtin_scenario("msc-fleet")
    game = play_out(fleet, {"red": "greedy", "blue": "greedy"}, seed=27)
    assert game.result is not None
    assert game.result.winners == ()
    falcon = game.state.ship("Falcon")
    assert (falcon.weapons, falcon.engine > 0) == ((), True)
    assert (MSC.can_attack(game.state, "red"), MSC.can_attack(game.state, "blue")) == (False, False)
    assert DRIFTED not in {f.kind for f in audit_game(fleet, "greedy", 27)}
    # Either ship whole again (a weapon for Falcon, an engine for Crow) and the same end would be a drift.
    armed = game.state.with_ship(replace(falcon, weapons=falcon.weapons_fitted))
    assert MSC.can_attack(armed, "red") is True


def test_flying_off_the_map_when_a_plot_stays_on_is_found() -> None:
    found = audit_game(builtin_scenario("msc-duel"), "test", 0, bot=FliesOff)
    assert LEFT_MAP in {f.kind for f in found}
    assert any("left from" in f.detail for f in found if f.kind == LEFT_MAP)


def test_flying_off_the_map_to_win_is_no_finding() -> None:
    # Seed 0 of the Stasis Pod: red's tug carries the pod off the board by its home corner, which wins the
    # game though the standing (victory points) does not move.
    pod = builtin_scenario("vv5-stasis-pod")
    game = play_out(pod, {"red": "greedy", "blue": "greedy"}, seed=0)
    assert game.result is not None
    assert game.result.winners == ("red",)
    assert "took the stasis pod home" in game.result.reason
    assert LEFT_MAP not in {f.kind for f in audit_game(pod, "greedy", 0)}


def test_carrying_a_bomb_off_its_edge_is_no_finding_though_the_roll_misses() -> None:
    # Seed 2 of the bought Strike Force: greedy's bombers X2 and X3 fly off the left edge on turn 5, as the run
    # asks, and their bombs miss (nothing scored). Played again with other throws they score as the rule says.
    run = builtin_scenario("vv5-strike-force-purchase")
    game = play_out(run, {"strike": "greedy", "intercept": "greedy"}, seed=2)
    misses = [e.describe() for e in game.events if "bomb 1: target missed" in e.describe()]
    assert {m.split("'")[0] for m in misses} >= {"X2", "X3"}
    assert LEFT_MAP not in {f.kind for f in audit_game(run, "greedy", 2)}


def test_meeting_then_drifting_apart_to_the_turn_limit_is_a_drift() -> None:
    duel = builtin_scenario("msc-duel").model_copy(update={"max_turns": 15})
    (finding,) = audit_game(duel, "test", 0, bot=Parts)
    assert (finding.kind, finding.side, finding.turn) == (DRIFTED, "red", 15)
    # The sides met in the turns it fought (a shot offered or fired), and not in its last five.
    assert "first contact on turn 2, none after turn 6" in finding.detail


def test_a_game_fought_into_its_last_turns_or_never_met_is_no_drift() -> None:
    # Parting four turns before the limit leaves too few quiet turns to call it a drift.
    short = builtin_scenario("msc-duel").model_copy(update={"max_turns": 10})
    assert DRIFTED not in {f.kind for f in audit_game(short, "test", 0, bot=Parts)}
    # Ships that come to rest out of reach of each other never meet: a stall, not a drift.
    assert DRIFTED not in kinds(SitsStill)


def test_greedy_and_random_play_the_duel_cleanly() -> None:
    assert audit(["msc-duel"], ["random", "greedy"], range(2)) == []


#: What the audit finds in the built-in bots over seeds 0 and 1 (scenario, player, seed, side, kind), with
#: why it stands: reported here to be fixed by the bots' owners, not hidden. A fix makes the test fail until
#: its line goes.
KNOWN: dict[tuple[str, str, int, str, str], str] = {}


def _as_known(
    scenario: str, players: list[str], seeds: range, known_of: dict[tuple[str, str, int, str, str], str]
) -> None:
    """The audit of ``players`` in ``scenario`` over ``seeds`` finds exactly the findings ``known_of`` lists for it."""
    found = {(f.scenario, f.player, f.seed, f.side, f.kind) for f in audit([scenario], players, seeds)}
    known = {key for key in known_of if key[0] == scenario}
    assert found - known == set(), f"new findings: {sorted(found - known)}"
    assert known - found == set(), f"no longer found (drop them from the known list): {sorted(known - found)}"


@pytest.mark.slow
@pytest.mark.parametrize("scenario", sorted(scenario_paths()))
def test_the_built_in_bots_pass_the_audit_in_every_scenario_and_side(scenario: str) -> None:
    offered = computer_players(get_system(builtin_scenario(scenario).system))
    players = [p for p in ("random", "greedy") if p in offered]  # a system of the tests' may have no greedy
    _as_known(scenario, players, range(2), KNOWN)


#: The scenarios whose search games are cheap enough to audit at every level in the slow suite: MSC's (seconds a
#: game); the rest are audited by ``python benchmarks/audit.py --players search,search:2,search:3`` (docs/bots.md).
SEARCHED = sorted(i for i in scenario_paths() if builtin_scenario(i).system == "msc")


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SEARCHED)
def test_every_search_level_passes_the_audit_where_its_games_are_cheap(scenario: str) -> None:
    levels = [p for p in computer_players(get_system(builtin_scenario(scenario).system)) if p.startswith("search")]
    assert levels == ["search", "search:2", "search:3"]
    assert audit([scenario], levels, range(1)) == []


#: What ``search`` does on seed 0 outside MSC that the audit flags, with why it stands: reported, not hidden.
_LEAVES_UNDER_FIRE = (
    "a fighter under fire leaves the board, which the rules allow and which scores the enemy no kill; a search that "
    "counted a ship gone as destroyed was weaker by a sequential test (docs/bots.md, Known weaknesses)"
)
KNOWN_SEARCH: dict[tuple[str, str, int, str, str], str] = {
    ("vv5-alien-starship-purchase", "search", 0, "blue", LEFT_MAP): _LEAVES_UNDER_FIRE,
    ("vv5-refugees", "search", 0, "intercept", LEFT_MAP): _LEAVES_UNDER_FIRE,
    ("vv5-stasis-pod-3", "search", 0, "blue", LEFT_MAP): _LEAVES_UNDER_FIRE,
}


@pytest.mark.slow
@pytest.mark.parametrize("scenario", sorted(set(scenario_paths()) - set(SEARCHED)))
def test_search_passes_the_audit_in_every_other_scenario(scenario: str) -> None:
    # The first level only: a game of search:2 or search:3 there costs up to minutes (benchmarks/audit.py runs them).
    _as_known(scenario, ["search"], range(1), KNOWN_SEARCH)
