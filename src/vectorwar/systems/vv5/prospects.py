"""The fire a VV5 turn has still to come, in expected victory points: the search bot's judge, not a rule.

A VV5 turn opens with fire (missiles, then guns) from where the last turn's
movement left every ship, so where a plot ends is worth what the next fire
from there is worth. A trial that rolls that fire judges a plot by one throw
of the dice, and one lucky kill (3 VP a point of mass) drowns the rest;
:func:`fire_in_prospect` gives its expectation instead, so the search bot
can stop its trials when the moves are made.

Each side is taken to fire as ``greedy`` would (its launches and gunfire for
the position), every shot hitting with its true chance; the points a target
takes are summed over every shot at it, and the chance that they knock it
out is worked out over where each point lands (structure, life support or a
system already gone, which passes the point on to structure). Left out, as
small: a shot deflected by a ship in the way, a point that armour stops
(it scores nothing) and a crew's bonus. A scenario's own scoring of damage
(cargo boxes) is the special's ``damage_stake``.

The engine's defence platforms fire too, after the players (each at the
starship nearest it, :mod:`~vectorwar.systems.vv5.specials.adp`). Their
damage scores for nobody, but it costs the side hit what the same damage
by a rival would have earned: without it a transport carrying troopers
would fly into their reach as if they were not there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from vectorwar.memo import last_answer
from vectorwar.systems.vv5 import specials
from vectorwar.systems.vv5.bots import GreedyBot, target_weight
from vectorwar.systems.vv5.combat import gun_modifier, gun_to_hit
from vectorwar.systems.vv5.damage_odds import NONE, Points, add, gun_shot, knock_out, mean, mean_square, missile
from vectorwar.systems.vv5.gunfire import launch_number
from vectorwar.systems.vv5.orders import Gunfire
from vectorwar.systems.vv5.specials.adp import armed_platforms, in_sights, phaser_hit
from vectorwar.systems.vv5.specials.base import Special, Stake
from vectorwar.systems.vv5.state import InvasionState, Ship, VV5State
from vectorwar.systems.vv5.targeting import shot_allowed
from vectorwar.systems.vv5.victory import missile_hit


def kill_chance(ship: Ship, points: Points) -> float:
    """The chance that ``points`` (a distribution) of damage knock ``ship`` out or destroy it
    (:func:`~vectorwar.systems.vv5.damage_odds.knock_out`)."""
    return knock_out(ship, points)[0]


def _sides_to_fire(state: VV5State) -> tuple[Sequence[str], Sequence[str]]:
    """The sides still to launch missiles and still to fire guns this turn (before any gun damage)."""
    if state.phase == "choose-order":
        everyone = [s for s in state.sides_in_play() if s in state.sides]
        return everyone, everyone
    order = [s for s in state.declare_order if s in state.sides]
    if state.phase == "missiles":
        return order[state.declaring :], order
    if state.phase == "guns":
        return (), order[state.declaring :]
    return (), ()


@dataclass(frozen=True, slots=True)
class Prospect:
    """The fire still to come this turn (:func:`prospect`): the victory points each side's fire is worth, in
    expectation, and the variance (VP squared) of what it moves between the sides."""

    points: Mapping[str, float]
    spread: float


def fire_in_prospect(state: VV5State) -> Mapping[str, float]:
    """The victory points each side's fire still to come this turn is worth, in expectation (:func:`prospect`)."""
    return prospect(state).points


@last_answer
def prospect(state: VV5State) -> Prospect:
    """The fire still to come this turn: what each side's is worth in expectation, and how far it may swing.

    Nothing outside the fire phases (a plot, a purchase): the fire of a turn
    is counted from its start until the gun damage is rolled. A trial's stop
    asks it twice for one state (the standing counts it), so the last answer
    is kept. The spread adds up each target's: the kill points where the
    points knock it out, else what the points score, each target's dice
    taken apart from the others'.
    """
    launching, firing = _sides_to_fire(state)
    points = dict.fromkeys(state.sides, 0.0)
    spread = 0.0
    if not launching and not firing:
        return Prospect(points, spread)
    special = specials.special_for(state)
    # target -> [(side, its distribution of points)]
    incoming: dict[str, list[tuple[str, Points]]] = {}
    for side in launching:
        for launch in GreedyBot.launches(state, side).launches:
            target = state.ship(launch.target)
            need = launch_number(state, launch.ship, launch.target, 0)[1]  # its odds' ``need``, without the odds
            dist = missile(missile_hit(target, need, 0))
            incoming.setdefault(target.id, []).extend((side, dist) for _ in range(launch.missiles))
    for side in firing:
        for shot in GreedyBot.gunfire(state, side).shots:
            shooter, target = state.ship(shot.ship), state.ship(shot.target)
            need = gun_to_hit(shooter.hex.distance(target.hex)) or 13
            dist = gun_shot(need - gun_modifier(shot.guns, target), shot.guns)
            incoming.setdefault(target.id, []).append((side, dist))
    for adp in armed_platforms(state):
        close = in_sights(state, adp)
        for target in close:
            # Equal targets are chosen by dice: each takes its share of the shot.
            hit = phaser_hit(adp.hex.distance(target.hex), target) / len(close)
            incoming.setdefault(target.id, []).append((adp.side, [1 - hit, *([hit / 6] * 6)]))
    for target_id, shots in incoming.items():
        target = state.ship(target_id)
        total = NONE
        expected: dict[str, float] = {}
        for side, dist in shots:
            total = add(total, dist)
            expected[side] = expected.get(side, 0.0) + mean(dist)
        expected_total = sum(expected.values())
        if not expected_total:
            continue
        worth, swing = _worth_and_spread(state, special, target, total)
        spread += swing
        for side, done in expected.items():
            if side in state.automated and target.side in points:
                points[target.side] -= worth * done / expected_total
            elif side in points and not state.allied(side, target.side):
                points[side] += worth * done / expected_total
    return Prospect(points, spread)


def damage_worth(state: VV5State, special: Special | None, target: Ship, total: Points) -> float:
    """What ``total`` points of damage (a distribution) on ``target`` are worth to whoever deals them, in VP:
    the kill points and the scenario's stake on its loss where they knock it out, else a point a point (half
    on a transport) and the scenario's stake a point."""
    return _worth_and_spread(state, special, target, total)[0]


def _worth_and_spread(state: VV5State, special: Special | None, target: Ship, total: Points) -> tuple[float, float]:
    """:func:`damage_worth` and its variance, the points taken apart from the kill (as the worth takes them)."""
    kill = kill_chance(target, total)
    transport = target.kind == "transport"
    per_point, on_loss = (0.0, 0.0) if special is None else special.damage_stake(state, target)
    lost = (2 if transport else 3) * target.mass + on_loss
    point = (0.5 if transport else 1.0) + per_point
    worth = kill * lost + (1 - kill) * mean(total) * point
    square = kill * lost * lost + (1 - kill) * mean_square(total) * point * point
    return worth, max(0.0, square - worth * worth)


def wary(points: Mapping[str, float], stake: Stake, spread: float) -> dict[str, float]:
    """The standing ``points`` with the lead of the side ahead cut to what its chance to win is worth, where the
    fire still to come may swing ``spread`` (VP squared) of points, in a scenario decided on few points
    (``Special.at_stake``: the cargo runs). Not a rule: the search bot's judge.

    An expected-points judge is blind to risk: a side ahead on the cargo it will deliver loses by a fight
    even at even odds, since a kill (3 VP a ton) outweighs the whole cargo, and the side behind gains by it.
    Taking the final lead to be spread normally, a lead ``L`` (the standing's, with the cargo still to come)
    under the spread ``s`` (the cargo's dice, ``UNSEEN_SPREAD`` and this fire's) wins as often as ``L * s0 / s``
    does under the calm spread ``s0`` (the same without the fire). The side ahead gives up the difference, half
    of it to the side behind, so their gap shrinks by all of it.

    >>> from vectorwar.systems.vv5.specials.base import Stake
    >>> stake = Stake("strike", "intercept", to_come=3.0, spread=12.0)
    >>> wary({"strike": 1.0, "intercept": 0.0}, stake, spread=0.0)
    {'strike': 1.0, 'intercept': 0.0}
    >>> {s: round(v, 2) for s, v in wary({"strike": 1.0, "intercept": 0.0}, stake, spread=48.0).items()}
    {'strike': 0.0, 'intercept': 1.0}
    """
    calm = stake.spread + UNSEEN_SPREAD
    lead = points.get(stake.side, 0.0) - points.get(stake.rival, 0.0) + stake.to_come
    given = lead * (1 - (calm / (calm + spread)) ** 0.5)
    out = dict(points)
    out[stake.side] = out.get(stake.side, 0.0) - given / 2
    out[stake.rival] = out.get(stake.rival, 0.0) + given / 2
    return out


def aimed_gunfire(state: VV5State, side: str, order: Gunfire) -> Gunfire:
    """``order`` with each shot turned to the target where the side's shots together are worth most
    (:func:`damage_worth`), for the search bot's gunfire (``RuleSystem.search_declaration``).

    Greedy aims each mount at the target it is likeliest to hit, so two fighters may spread their shots over
    two targets where together they could knock one out, or pass over a damaged ship or a laden transport.
    Each shot in turn goes where it adds most to the worth of all of them, the others held, until no shot
    moves (a few rounds at most). The side's own missiles in flight count at their targets as they stand. A
    scenario that aims its own fire (Invasion) keeps its aim.
    """
    if not order.shots or isinstance(state.special, InvasionState):
        return order
    special = specials.special_for(state)
    base = _missiles_in_flight(state, side)
    # What the missiles alone are worth: the guns are judged by what they add.
    already = {t: damage_worth(state, special, state.ship(t), points) for t, points in base.items()}
    choices = _shot_options(state, side, order)
    # The option each shot takes: greedy's target to begin with.
    picked = [
        next((i for i, (t, _) in enumerate(options) if t == shot.target), 0)
        for shot, options in zip(order.shots, choices, strict=True)
    ]

    def worth(picks: Sequence[int]) -> float:
        at: dict[str, Points] = {}
        for options, i in zip(choices, picks, strict=True):
            target_id, dist = options[i]
            at[target_id] = add(at.get(target_id, base.get(target_id, NONE)), dist)
        return sum(damage_worth(state, special, state.ship(t), total) - already.get(t, 0.0) for t, total in at.items())

    best = worth(picked)
    for _ in range(AIM_ROUNDS):
        moved = False
        for k, options in enumerate(choices):
            for i in range(len(options)):
                if i == picked[k]:
                    continue
                trial = [*picked[:k], i, *picked[k + 1 :]]
                value = worth(trial)
                if value > best + 1e-9:
                    best, picked, moved = value, trial, True
        if not moved:
            break
    aimed = zip(order.shots, choices, picked, strict=True)
    return Gunfire(tuple(replace(shot, target=options[i][0]) for shot, options, i in aimed))


def _missiles_in_flight(state: VV5State, side: str) -> dict[str, Points]:
    """The damage the side's missiles already in flight stand to do, by target."""
    base: dict[str, Points] = {}
    for flying in state.incoming:
        target = state.ship(flying.target)
        if state.ship(flying.shooter).side == side and target.active:
            base[target.id] = add(base.get(target.id, NONE), missile(missile_hit(target, flying.to_hit, 0)))
    return base


def _shot_options(state: VV5State, side: str, order: Gunfire) -> list[list[tuple[str, Points]]]:
    """For each shot of ``order``, the targets it may take with the damage it stands to do to each;
    a shot with none keeps its own target at no worth, so every shot has at least one option."""
    choices: list[list[tuple[str, Points]]] = []
    for shot in order.shots:
        shooter = state.ship(shot.ship)
        options: list[tuple[str, Points]] = []
        for target in state.enemies_of(side):
            if not target_weight(state, side, target) or not shot_allowed(state, shooter, shot.mount, target):
                continue
            need = gun_to_hit(shooter.hex.distance(target.hex)) or 13
            options.append((target.id, gun_shot(need - gun_modifier(shot.guns, target), shot.guns)))
        choices.append(options or [(shot.target, NONE)])
    return choices


#: Rounds of :func:`aimed_gunfire`'s turning one shot at a time.
AIM_ROUNDS = 3
#: The variance (VP squared) :func:`wary` takes the rest of a game to hold beyond its cargo's dice: the fire
#: a trial does not see.
UNSEEN_SPREAD = 4.0
