"""A VV5 missile's odds run from a target that does not accelerate to one that burns its most.

The target's burn between launch and roll moves the marker down the incoming
track, so the chance shown at launch is a range; its two ends are the chances
resolution gives for those two burns.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from tests.support.dice import LoadedDice
from vectorwar.events import Event
from vectorwar.odds import percent
from vectorwar.systems.vv5 import turn
from vectorwar.systems.vv5.events import MissileResolved
from vectorwar.systems.vv5.movement import turn_allowance
from vectorwar.systems.vv5.orders import Launches
from vectorwar.systems.vv5.rules import system
from vectorwar.systems.vv5.state import VV5State

from .conftest import make_ship, make_state


def _launched(distance: int) -> tuple[VV5State, VV5State]:
    """A missile from X1 at Y1 ``distance`` hexes away: the state at the launch prompt and after it."""
    shooter = make_ship("X1", "red", at=f"10,{10 + distance}", facing="A")
    target = make_ship("Y1", "blue", at="10,10", facing="D")
    state = make_state(shooter, target, phase="missiles", declare_order=("red", "blue"))
    after, _ = system.resolve(state, {"red": Launches.parse("X1 1>Y1", {"x1": "X1"}, {"y1": "Y1"})}, LoadedDice())
    return state, after


def _resolved_chance(after: VV5State, burn: int) -> Fraction:
    """The chance the missile hits when Y1 burned ``burn`` G, counted over every 2D6 through the resolution."""
    moved = replace(after, ships=tuple(replace(s, accelerated=burn) if s.id == "Y1" else s for s in after.ships))
    hits = 0
    for a in range(1, 7):
        for b in range(1, 7):
            events: list[Event] = []
            turn.resolve_missiles(moved, LoadedDice(a, b, then_seed=1), events)
            hits += next(e for e in events if isinstance(e, MissileResolved)).hit
    return Fraction(hits, 36)


@pytest.mark.parametrize("distance", [2, 5, 9])
def test_the_two_ends_of_a_missiles_odds_are_the_chances_resolved_for_no_burn_and_the_most(distance: int) -> None:
    state, after = _launched(distance)
    (option,) = system.fire_options(state, "red")["X1"]
    odds = option.odds
    assert odds is not None
    assert odds.worst is not None
    most = turn_allowance(state.ship("Y1"))[1]
    assert most > 0
    assert odds.chance == _resolved_chance(after, 0)
    assert odds.worst == _resolved_chance(after, most)
    for burn in range(most + 1):  # every burn in between lies inside the range
        assert odds.worst <= _resolved_chance(after, burn) <= odds.chance
    assert f"if it burns its most ({most} G)" in odds.summary()
    data = odds.to_data()
    assert (data["range_of_chance"]["best_if"], data["range_of_chance"]["worst_if"]) == (
        "if Y1 does not accelerate",
        f"if it burns its most ({most} G)",
    )
    assert data["percent"] == f"{percent(odds.worst)}–{percent(odds.chance)}"  # what a target button shows


def test_a_missile_at_the_bottom_of_the_track_has_one_chance_whatever_the_target_burns() -> None:
    state, after = _launched(14)  # the table's 12+ is the track's last space
    (option,) = system.fire_options(state, "red")["X1"]
    assert option.odds is not None
    assert option.odds.worst is None
    assert option.odds.chance == _resolved_chance(after, 0) == _resolved_chance(after, 3) == Fraction(1, 36)


def test_a_target_that_cannot_accelerate_has_one_chance() -> None:
    shooter = make_ship("X1", "red", at="10,15", facing="A")
    target = make_ship("Y1", "blue", at="10,10", facing="D")
    stuck = replace(target, acceleration=replace(target.acceleration, boxes=0))
    state = make_state(shooter, stuck, phase="missiles", declare_order=("red", "blue"))
    (option,) = system.fire_options(state, "red")["X1"]
    assert option.odds is not None
    assert option.odds.worst is None
    assert option.odds.to_data()["range_of_chance"] is None
    assert option.odds.summary().endswith("97%")
