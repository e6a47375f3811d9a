"""The fire in prospect (the search bot's judge of a VV5 position) against the fire the rules then roll."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from vectorwar.dice import Dice
from vectorwar.search import Judging, SearchBot
from vectorwar.systems.vv5.bots import GreedyBot
from vectorwar.systems.vv5.prospects import UNSEEN_SPREAD, fire_in_prospect, kill_chance, prospect
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import Box, Missile, VV5State
from vectorwar.systems.vv5.victory import victory_points

from .conftest import GUNSHIP, make_ship, make_state


def _fire_it(state: VV5State, seed: int) -> dict[str, int]:
    """The victory points after the turn's fire, every side firing as greedy does, on ``seed``'s dice."""
    dice = Dice(seed)
    bot = GreedyBot()
    while state.phase in ("missiles", "guns"):
        side = state.declare_order[state.declaring]
        state, _ = system.resolve(state, {side: bot.choose(state, side, random.Random(0))}, dice)
    return victory_points(state)


def test_a_last_box_of_structure_or_life_support_goes_on_a_1_or_a_6() -> None:
    # One box left everywhere; cargo, agility and acceleration are still whole.
    frail = replace(
        make_ship(), structure=Box(1), life_support=Box(1), cargo=Box(1), agility=Box(1), acceleration=Box(1)
    )
    assert kill_chance(frail, [0.0, 1.0]) == pytest.approx(2 / 6)
    assert kill_chance(frail, [1.0]) == 0.0
    assert kill_chance(frail, [0.0, 0.0, 1.0]) == pytest.approx(1 - (4 / 6) ** 2)
    # A system with nothing left passes its point on to structure (VV5 Damage).
    bare = replace(frail, agility=Box(0), acceleration=Box(0))
    assert kill_chance(bare, [0.0, 1.0]) == pytest.approx(4 / 6)


def test_no_fire_is_in_prospect_once_the_turns_fire_is_over() -> None:
    x = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    y = make_ship("Y1", "blue", at="10,8", facing="A", design=GUNSHIP)
    assert fire_in_prospect(make_state(x, y, phase="plot")) == {"red": 0.0, "blue": 0.0}


@pytest.mark.parametrize("structure", [40, 3])
def test_the_prospect_is_what_the_fire_scores_on_average(structure: int) -> None:
    """Red's guns bear on blue's stern from 2 hexes; blue's do not bear back.

    With a stout target the prospect is the expected damage exactly; with a
    frail one it also weighs the kill (3 VP a ton), by the damage model's
    approximation, so the check is looser there.
    """
    x = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    y = make_ship("Y1", "blue", at="10,8", facing="A", design=GUNSHIP)
    y = replace(y, structure=Box(structure))
    state = make_state(x, y, phase="missiles", declare_order=("red", "blue"), declaring=0)
    expected = fire_in_prospect(state)
    assert expected["blue"] == 0.0
    games = 4000
    scored = sum(_fire_it(state, seed)["red"] for seed in range(games)) / games
    assert expected["red"] > 0.5
    assert expected["red"] == pytest.approx(scored, rel=0.05 if structure == 40 else 0.2)


@pytest.mark.parametrize("structure", [40, 3])
def test_the_spread_is_how_far_the_fires_points_swing(structure: int) -> None:
    """The same fire as above: the spread is the variance of the victory points it scores, the knock-out by
    life support (30 VP) and all: 135 and 137 judged, 140 and 142 rolled over 4,000 fires."""
    x = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    y = replace(make_ship("Y1", "blue", at="10,8", facing="A", design=GUNSHIP), structure=Box(structure))
    state = make_state(x, y, phase="missiles", declare_order=("red", "blue"), declaring=0)
    games = 4000
    scored = [_fire_it(state, seed)["red"] for seed in range(games)]
    average = sum(scored) / games
    variance = sum((v - average) ** 2 for v in scored) / (games - 1)
    spread = prospect(state).spread
    assert spread > 0.3
    assert spread == pytest.approx(variance, rel=0.1)
    assert prospect(make_state(x, y, phase="plot")).spread == 0.0


def test_a_run_ahead_on_its_cargo_is_judged_wary_of_a_fight_and_the_side_behind_eager() -> None:
    """Strike Force: the bombers, 4 VP of bombs to come against nothing, meet the interceptors' fire. Judged by
    the chance to win, the fight costs the side ahead what it moves to the side behind; no fire, no change."""
    from vectorwar.setup import set_up
    from vectorwar.systems.vv5 import specials

    start = set_up("vv5-strike-force", seed=1).game.state
    special = specials.special_for(start)
    assert special is not None
    stake = special.at_stake(start)
    assert stake is not None
    assert (stake.side, stake.rival) == ("strike", "intercept")
    # Two Harpies, two bombs each: a bomb scores 5 or 1 VP one time in six each.
    assert stake.spread == pytest.approx(4 * (26 / 6 - 1))
    bombers, fighters = start.ships_of("strike"), start.ships_of("intercept")
    at = fighters[0].hex
    close = start
    for i, ship in enumerate(bombers):
        close = close.with_ship(replace(ship, hex=at.shifted(2 + i, 0)))
    close = replace(close, turn=2, phase="missiles", declare_order=("strike", "intercept"), declaring=0)
    plain = {s: float(v) for s, v in victory_points(close).items()}
    for side, extra in fire_in_prospect(close).items():
        plain[side] += extra
    for side, extra in special.progress(close).items():
        plain[side] += extra
    swing = prospect(close).spread
    assert swing > 10
    judged = system.standing(close)
    stake = special.at_stake(close)
    assert stake is not None
    lead = plain["strike"] - plain["intercept"] + stake.to_come
    assert lead > 0
    calm = stake.spread + UNSEEN_SPREAD
    given = lead * (1 - (calm / (calm + swing)) ** 0.5)
    assert judged["strike"] == pytest.approx(plain["strike"] - given / 2)
    assert judged["intercept"] == pytest.approx(plain["intercept"] + given / 2)
    # Where no fire is to come the standing is the expected points.
    quiet = replace(close, phase="plot")
    assert prospect(quiet).spread == 0.0
    assert system.standing(quiet)["intercept"] == pytest.approx(float(victory_points(quiet)["intercept"]))


def test_a_search_trial_is_judged_where_the_moves_are_made_and_holds_the_next_turns_fire() -> None:
    x = make_ship("X1", "red", at="10,12", facing="A", design=GUNSHIP)
    y = make_ship("Y1", "blue", at="10,8", facing="D", design=GUNSHIP)
    state = make_state(x, y)
    bot = SearchBot(system)
    assert bot.judging(state) is Judging.PROSPECT
    orders = {"red": system.parse_order(state, "red", "X1 1"), "blue": system.parse_order(state, "blue", "Y1 1")}
    end, judged = bot._rollout(state, orders, 7, Judging.PROSPECT)
    # Stopped at the start of the turn after its last move: three moves, the root's and two of greedy's.
    assert system.prospect_moves == 3
    assert end.turn == state.turn + 3
    # The two ships closed head on: no shot was rolled, yet the trial sees the fire they faced.
    assert [s.damage_taken for s in end.ships] == [0, 0]
    assert judged["red"] > 0
    assert judged["blue"] > 0


def test_a_transports_cargo_raises_the_stake_of_shooting_it_where_the_scenario_scores_cargo() -> None:
    from vectorwar.setup import set_up
    from vectorwar.systems.vv5 import specials

    state = set_up("vv5-refugees", seed=1).game.state
    special = specials.special_for(state)
    assert special is not None
    transport = next(s for s in state.ships if s.kind == "transport")
    fighter = next(s for s in state.ships if s.kind != "transport")
    boxes = transport.cargo.boxes
    assert boxes > 0
    # 5 VP a box of refugees destroyed: a point lands on cargo 1 time in 6; with the option a lost transport
    # loses them all.
    assert special.damage_stake(state, transport) == (5 / 6, 0.0)
    assert special.damage_stake(state, fighter) == (0.0, 0.0)
    harsh = replace(state, options={**state.options, "cargo_lost_with_ship": True})
    assert special.damage_stake(harsh, transport) == (5 / 6, 5.0 * boxes)
    strike = set_up("vv5-strike-force", seed=1).game.state
    bomber = specials.special_for(strike)
    assert bomber is not None
    assert all(bomber.damage_stake(strike, s) == (0.0, 0.0) for s in strike.ships)


def test_a_defence_platforms_phasers_cost_the_side_they_hit_what_they_are_expected_to_do() -> None:
    """The engine's platforms fire after the players; their damage scores for nobody, so the prospect takes it
    off the side hit. Red's gunship sits 6 hexes from a platform (2D6 at or over 6 hits, 1D6 a hit); blue's sits
    out of its reach, and neither has a gun that bears."""
    from vectorwar.systems.vv5.specials.adp import platforms_fire

    adp = make_ship("ADP1", "defences", at="10,10", design=system.designs()["adp"])
    # So stout that it cannot be knocked out: the prospect is then the expected damage exactly.
    x = replace(make_ship("X1", "red", at="10,4", facing="A", design=GUNSHIP), structure=Box(40), life_support=Box(40))
    y = make_ship("Y1", "blue", at="10,25", facing="D", design=GUNSHIP)
    state = make_state(x, y, adp, phase="missiles", declare_order=("red", "blue"), declaring=0)
    state = replace(state, sides=("red", "blue"), automated=("defences",))
    expected = fire_in_prospect(state)
    assert expected["blue"] == 0.0
    assert expected["red"] == pytest.approx(-(26 / 36) * 3.5)
    games = 2000
    done = 0
    for seed in range(games):
        fired = platforms_fire(state, Dice(seed), [])
        done += sum(d.points for d in fired.gun_damage if d.target == "X1")
    assert -expected["red"] == pytest.approx(done / games, rel=0.05)


def test_search_turns_its_guns_on_the_target_where_they_are_worth_most_together() -> None:
    """Greedy aims each mount at the target it is likeliest to hit: here the whole blue gunship 2 hexes off.
    The frail one 3 hexes off goes with one box of structure or life support left (a 1 or a 6 a point),
    worth its 30 kill points: the search bot's gunfire (``search_declaration``) turns most shots on it."""
    from vectorwar.systems.vv5.prospects import aimed_gunfire

    x1 = make_ship("X1", "red", at="10,10", facing="A", design=GUNSHIP)
    x2 = make_ship("X2", "red", at="11,10", facing="A", design=GUNSHIP)
    whole = make_ship("Y1", "blue", at="10,8", facing="A", design=GUNSHIP)
    frail = replace(
        make_ship("Y2", "blue", at="11,7", facing="A", design=GUNSHIP), structure=Box(1), life_support=Box(1)
    )
    state = make_state(x1, x2, whole, frail, phase="guns", declare_order=("red", "blue"), declaring=0)
    greedy = GreedyBot.gunfire(state, "red")
    assert {shot.target for shot in greedy.shots} == {"Y1"}
    aimed = system.search_declaration(state, "red", greedy)
    assert aimed == aimed_gunfire(state, "red", greedy)
    assert isinstance(aimed, type(greedy))
    assert len(aimed.shots) == len(greedy.shots)
    # Three shots turn on it; a fourth would add less to its kill than X1's second shot at 2 hexes does on Y1.
    assert str(aimed) == "X1 fwd*2>Y1 fwd*2>Y2; X2 fwd*2>Y2 fwd*2>Y2"
    system.check_order(state, "red", aimed)
    # A missile of the side's own already bound for the frail one (3+ on the track) all but settles it: the guns
    # stay on the whole one. Another side's missiles are not the side's to count.
    bound = replace(state, incoming=(Missile("X1", "Y2", 3),))
    assert aimed_gunfire(bound, "red", greedy) == greedy
    theirs = replace(state, incoming=(Missile("Y1", "X1", 3),))
    assert aimed_gunfire(theirs, "red", greedy) == aimed
    # With one target in reach there is nothing to turn.
    alone = replace(state, ships=(x1, x2, whole))
    assert aimed_gunfire(alone, "red", GreedyBot.gunfire(alone, "red")) == GreedyBot.gunfire(alone, "red")
