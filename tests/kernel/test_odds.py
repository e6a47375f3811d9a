"""The odds a player is shown before a shot are the numbers the shot is resolved with.

Each system's ``fire_options`` carry :class:`~vectorwar.odds.Odds` from the
same function its resolution reads the number from. These tests play random
games of every system to a moment with shots to choose, fire one chosen by
Hypothesis, and compare the odds with the log line the resolution writes.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario
from vectorwar.display import ShotOption
from vectorwar.events import Event, Fired
from vectorwar.game import Game
from vectorwar.odds import Modifier, Odds, chance_at_least, chance_at_most, percent
from vectorwar.registry import get_system
from vectorwar.systems.avt.events import LaserFired
from vectorwar.systems.avt.lasers import column_entry, column_of
from vectorwar.systems.vv5.events import GunsFired, MissileLaunched

SCENARIOS = [
    ("msc", "msc-duel"),
    ("msc", "msc-fleet"),
    ("vv5", "vv5-dogfight"),
    ("vv5", "vv5-strike-force"),
    ("vms", "vms-mixed-fleet-msc"),
    ("vms", "vms-mixed-fleet-vv5"),
    ("avt", "avt-duel-wasp"),
]


def to_shot(
    game: Game, rng: random.Random, skip: int = 0, steps: int = 400
) -> tuple[str, dict[str, list[ShotOption]]] | None:
    """Play the greedy bot's orders (it closes in) until a side owing an order has shots; that side and its shots.

    ``skip`` such moments are played by the bot first, so later, more damaged states are reached too.
    """
    system = game.system
    bot = system.bots()["greedy"]()
    for _ in range(steps):
        if game.is_over:
            return None
        for side in game.waiting_for:
            options = system.fire_options(game.state, side)
            if any(options.values()):
                if skip <= 0:
                    return side, {ship: list(shots) for ship, shots in options.items() if shots}
                skip -= 1
        side = game.waiting_for[0]
        game.submit(side, bot.choose(system.side_view(game.state, side), side, rng))
    return None


def check_against_log(odds: Odds, events: list[Event]) -> None:
    """The resolution's own line for this shot shows the same number, modifier or table column."""
    if odds.dice == "d6":
        line = next(e for e in events if isinstance(e, Fired) and (e.ship, e.target) == (odds.ship, odds.target))
        assert (line.need, line.range) == (odds.need, odds.range)
        assert sum(m.value for m in odds.modifiers) == odds.need
    elif odds.weapon == "msl" or odds.weapon == "missiles":
        launch = next(e for e in events if isinstance(e, MissileLaunched) and e.ship == odds.ship)
        assert (launch.to_hit, launch.range, launch.target) == (odds.need, odds.range, odds.target)
    elif odds.dice == "2d6":
        guns = next(e for e in events if isinstance(e, GunsFired) and e.ship == odds.ship)
        assert (guns.need, guns.modifier, guns.range, guns.target) == (
            odds.need,
            odds.modifier,
            odds.range,
            odds.target,
        )
        assert odds.modifiers[0].value == odds.need
        assert sum(m.value for m in odds.modifiers[1:]) == odds.modifier
    else:
        laser = next(e for e in events if isinstance(e, LaserFired) and e.ship == odds.ship)
        assert (laser.range, laser.target) == (odds.range, odds.target)
        assert column_of("3 MRLS", laser.range)[0] == odds.column
        assert column_entry("3 MRLS", odds.column, laser.roll) == laser.entry


@pytest.mark.parametrize(("system", "scenario"), SCENARIOS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10_000), pick=st.integers(0, 10_000), skip=st.integers(0, 3))
def test_odds_shown_are_the_odds_resolved(system: str, scenario: str, seed: int, pick: int, skip: int) -> None:
    game = Game.new(get_system(system), builtin_scenario(scenario), seed=seed)
    rng = random.Random(seed)
    found = to_shot(game, rng, skip) or to_shot(game, rng)
    assume(found is not None)
    assert found is not None
    side, options = found
    ship = sorted(options)[pick % len(options)]
    shots = options[ship]
    option = shots[(pick // 7) % len(shots)]
    odds = option.odds
    assert odds is not None
    assert (odds.ship, odds.target) == (ship, option.target)
    assert game.system.shot_odds(game.state, side, ship, option.piece) == odds
    before = len(game.events)
    game.submit(side, f"{ship} {option.piece}")
    while game.waiting_for and len(game.events) == before:
        other = game.waiting_for[0]
        game.submit(other, game.system.random_order(game.state, other, rng))
    check_against_log(odds, game.events[before:])


def test_every_option_says_what_its_weapon_is_and_how_often_it_may_fire() -> None:
    for system, scenario in SCENARIOS:
        game = Game.new(get_system(system), builtin_scenario(scenario), seed=5)
        found = to_shot(game, random.Random(5))
        assert found is not None, scenario
        for shots in found[1].values():
            for o in shots:
                assert " " in o.label, (scenario, o)
                assert 1 <= o.uses <= o.limit, (scenario, o)


def test_chances_add_up() -> None:
    assert (chance_at_most("d6", 6), chance_at_most("d6", 0)) == (Fraction(1), Fraction(0))
    assert (chance_at_least("2d6", 2), chance_at_least("2d6", 12)) == (Fraction(1), Fraction(1, 36))
    assert chance_at_least("d10", 4) == Fraction(7, 10)
    assert [percent(Fraction(1, 1000)), percent(Fraction(999, 1000)), percent(Fraction(1, 2))] == ["<1%", ">99%", "50%"]


def test_summary_names_the_roll_and_the_modifier() -> None:
    odds = Odds("X1", "fwd", "Y1", 3, "2d6", 9, "at least", 2, chance_at_least("2d6", 7), (Modifier("a", 2),), "1")
    assert odds.summary() == "needs 9+ on 2d6 +2: 58%"
    assert odds.to_data()["percent"] == "58%"
