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
(it scores nothing), a crew's bonus and the Invasion platforms' phasers. A
scenario's own scoring of damage (cargo boxes) is the special's
``damage_stake``.
"""

from __future__ import annotations

from collections.abc import Sequence

from vectorwar.systems.vv5 import specials
from vectorwar.systems.vv5.bots import GreedyBot
from vectorwar.systems.vv5.combat import gun_modifier, gun_to_hit, p_at_least
from vectorwar.systems.vv5.gunfire import launch_odds
from vectorwar.systems.vv5.state import Ship, VV5State
from vectorwar.systems.vv5.victory import missile_hit

#: A distribution of damage points: ``d[n]`` is the chance of exactly ``n`` points.
Points = list[float]

#: 2D6 damage (a missile hit): the chance of each total 0..12.
_TWO_D6: Points = [0.0, 0.0, *(((6 - abs(t - 7)) / 36) for t in range(2, 13))]


def _shot(p_hit: float, p_double: float, guns: int) -> Points:
    """One gun shot: a miss, one point, or (a double with several guns) one point a gun."""
    out = [0.0] * (guns + 1)
    out[0] = 1 - p_hit
    out[1] += p_hit - p_double
    out[guns] += p_double
    return out


def _convolve(a: Points, b: Points) -> Points:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _gun_chances(need: int) -> tuple[float, float]:
    """2D6 at or over ``need``: the chance of a hit, and of a hit thrown as a double.

    >>> _gun_chances(7)
    (0.5833333333333334, 0.08333333333333333)
    """
    hit = p_at_least(need)
    double = sum(1 for k in range(1, 7) if 2 * k >= need) / 36
    return hit, double


def kill_chance(ship: Ship, points: Points) -> float:
    """The chance that ``points`` (a distribution) of damage knock ``ship`` out or destroy it.

    Each point lands by 1D6: structure on a 1, life support on a 6, and on
    2-5 a system, which passes the point on to structure once it has nothing
    left (VV5 Damage). Armour is counted as boxes of its system.
    """
    structure = ship.structure.boxes + ship.structure.armour
    life = ship.life_support.boxes + ship.life_support.armour
    spent = sum(1 for box in (ship.cargo, ship.agility, ship.acceleration) if box.boxes + box.armour == 0)
    if not any(m.guns.boxes + m.guns.armour for m in ship.mounts) and all(x == "destroyed" for x in ship.launchers):
        spent += 1
    to_structure, to_life = (1 + spent) / 6, (1 / 6 if life else 0.0)
    alive = {(structure, life): 1.0}
    killed = 0.0
    total = 0.0
    for n, chance in enumerate(points):
        if n:
            step: dict[tuple[int, int], float] = {}
            for (s, lf), p in alive.items():
                for (ds, dl), q in (((1, 0), to_structure), ((0, 1), to_life), ((0, 0), 1 - to_structure - to_life)):
                    if not q:
                        continue
                    key = (s - ds, lf - dl)
                    if key[0] <= 0 or (dl and key[1] <= 0):
                        killed += p * q
                    else:
                        step[key] = step.get(key, 0.0) + p * q
            alive = step
        total += chance * killed
    return total


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


def fire_in_prospect(state: VV5State) -> dict[str, float]:
    """The victory points each side's fire still to come this turn is worth, in expectation.

    Nothing outside the fire phases (a plot, a purchase): the fire of a turn
    is counted from its start until the gun damage is rolled.
    """
    launching, firing = _sides_to_fire(state)
    points = dict.fromkeys(state.sides, 0.0)
    if not launching and not firing:
        return points
    special = specials.special_for(state)
    # target -> [(side, its distribution of points)]
    incoming: dict[str, list[tuple[str, Points]]] = {}
    for side in launching:
        for launch in GreedyBot.launches(state, side).launches:
            target = state.ship(launch.target)
            need = launch_odds(state, launch.ship, launch.target, 0).need or 13
            hit = missile_hit(target, need, 0)
            dist = [1 - hit, 0.0, *(hit * p for p in _TWO_D6[2:])]
            incoming.setdefault(target.id, []).extend((side, dist) for _ in range(launch.missiles))
    for side in firing:
        for shot in GreedyBot.gunfire(state, side).shots:
            shooter, target = state.ship(shot.ship), state.ship(shot.target)
            need = gun_to_hit(shooter.hex.distance(target.hex)) or 13
            hit, double = _gun_chances(need - gun_modifier(shot.guns, target))
            incoming.setdefault(target.id, []).append((side, _shot(hit, double if shot.guns > 1 else 0.0, shot.guns)))
    for target_id, shots in incoming.items():
        target = state.ship(target_id)
        total: Points = [1.0]
        expected: dict[str, float] = {}
        for side, dist in shots:
            total = _convolve(total, dist)
            expected[side] = expected.get(side, 0.0) + sum(n * p for n, p in enumerate(dist))
        mean = sum(expected.values())
        if not mean:
            continue
        kill = kill_chance(target, total)
        transport = target.kind == "transport"
        per_point, on_loss = (0.0, 0.0) if special is None else special.damage_stake(state, target)
        worth = kill * ((2 if transport else 3) * target.mass + on_loss) + (1 - kill) * mean * (
            (0.5 if transport else 1.0) + per_point
        )
        for side, done in expected.items():
            if side in points and not state.allied(side, target.side):
                points[side] += worth * done / mean
    return points
