"""What VV5 fire is expected to do, as distributions of damage points: the search bot's judge, not a rule.

Shared by VV5's own fire in prospect (:mod:`~vectorwar.systems.vv5.prospects`)
and by the VV5 combat module under VMS (:mod:`vectorwar.systems.vv5.module`): a gun
shot or a missile gives a distribution of points, the points at one target
add up (:func:`add`), and :func:`knock_out` works out what they do to it
over where each point lands.
"""

from __future__ import annotations

from functools import lru_cache

from vectorwar.memo import Kept
from vectorwar.odds import convolve
from vectorwar.systems.vv5.combat import p_at_least
from vectorwar.systems.vv5.state import Ship

#: A distribution of damage points: ``d[n]`` is the chance of exactly ``n`` points.
Points = list[float]

#: 2D6 damage (a missile hit): the chance of each total 0..12.
TWO_D6: Points = [0.0, 0.0, *(((6 - abs(t - 7)) / 36) for t in range(2, 13))]

#: No damage for certain: where :func:`add` starts.
NONE: Points = [1.0]


def gun_shot(need: int, guns: int) -> Points:
    """One gun shot needing ``need`` or more on 2D6 (modifiers already taken off): a miss, one point, or,
    thrown as a double with several guns, one point a gun (VV5 Gunfire).

    >>> [round(p, 3) for p in gun_shot(7, 2)]
    [0.417, 0.5, 0.083]
    """
    hit = p_at_least(need)
    if guns <= 1:
        return [1 - hit, hit]
    double = sum(1 for k in range(1, 7) if 2 * k >= need) / 36
    out = [0.0] * (guns + 1)
    out[0] = 1 - hit
    out[1] += hit - double
    out[guns] += double
    return out


def missile(hit: float) -> Points:
    """One missile that hits with chance ``hit``: 2D6 points if it does."""
    return [1 - hit, 0.0, *(hit * p for p in TWO_D6[2:])]


def add(a: Points, b: Points) -> Points:
    """The points of two independent attacks together."""
    return convolve(a, b)


def mean(points: Points) -> float:
    return sum(n * p for n, p in enumerate(points))


def mean_square(points: Points) -> float:
    """The mean of the square of the points: with :func:`mean`, their variance."""
    return sum(n * n * p for n, p in enumerate(points))


def knock_out(ship: Ship, points: Points) -> tuple[float, float]:
    """The chance that ``points`` (a distribution) knock ``ship`` out or destroy it, and the structure boxes
    it is expected to lose, all of them where it is out.

    Each point lands by 1D6 (VV5 Damage): structure on a 1, armour first;
    life support on a 6, armour first, the ship knocked out with its last
    box; on 2-5 a system, which passes the point on to structure, past its
    armour, once the system has nothing left. A system is taken to stay as
    it is (spent or not) while the points land.
    """
    armour, boxes = ship.structure.armour, ship.structure.boxes
    life = ship.life_support.boxes + ship.life_support.armour
    spent = sum(1 for box in (ship.cargo, ship.agility, ship.acceleration) if box.boxes + box.armour == 0)
    if not any(m.guns.boxes + m.guns.armour for m in ship.mounts) and all(x == "destroyed" for x in ship.launchers):
        spent += 1
    kill = lost = 0.0
    # Worked out to a multiple of 16 points, so fire of nearly the same size shares one table.
    landings = _landings(armour, boxes, life, spent, -(-len(points) // 16) * 16)
    for chance, (killed, standing_lost) in zip(points, landings, strict=False):
        kill += chance * killed
        lost += chance * (killed * boxes + standing_lost)
    return kill, lost


@lru_cache(maxsize=1024)
def _landings(armour: int, boxes: int, life: int, spent: int, count: int) -> tuple[tuple[float, float], ...]:
    """For 0 to ``count - 1`` points landing on a ship so placed: the chance it is out, and the structure boxes
    lost where it is still in the fight, weighted by their chance (:func:`knock_out` weighs them by the points').

    It depends on the ship's boxes, not on the fire, so the search bot's many judgements of one ship share it. Each
    count's table begins with every shorter one's (a point's landing does not look ahead), so a longer one goes on
    from where the longest worked out for the ship so placed stopped (:func:`_landed`), the same steps taken."""
    key = (armour, boxes, life, spent)
    run = _LANDED.get(key)
    if run is None or len(run[2]) < count:
        run = _LANDED.keep(key, _landed(armour, boxes, life, spent, count, run))
    return run[2][:count]


#: Points landed so far: the chance of each placing of a ship still in the fight (structure armour, structure boxes,
#: life support), the chance it is out, and :func:`_landings`' rows for every count of points landed so far.
_Landed = tuple[dict[tuple[int, int, int], float], float, tuple[tuple[float, float], ...]]
#: :func:`_landed`'s last run for each ship placing, by its boxes.
_LANDED: Kept[tuple[int, int, int, int], _Landed] = Kept(256)


def _landed(armour: int, boxes: int, life: int, spent: int, count: int, start: _Landed | None) -> _Landed:
    """:func:`_landings`' table to ``count`` rows, from ``start`` (a shorter run of the same ship; ``None``: the first
    row's). A new run is returned and ``start`` left as it is (a run is shared)."""
    direct, passed, to_life = 1 / 6, spent / 6, (1 / 6 if life else 0.0)
    idle = 1 - direct - passed - to_life
    if start is None:
        # (structure armour, structure boxes, life support) -> chance, for the ship still in the fight
        alive, killed, out = {(armour, boxes, life): 1.0}, 0.0, []
    else:
        alive, killed, out = start[0], start[1], list(start[2])
    # Each placing's landings (the placing after, ``None`` where the ship is out, and its chance), worked out once a
    # run: the same sums in the same order as landing each point afresh.
    landings: dict[tuple[int, int, int], list[tuple[tuple[int, int, int] | None, float]]] = {}
    for n in range(len(out), count):
        if n:
            step: dict[tuple[int, int, int], float] = {}
            get = step.get
            for placing, p in alive.items():
                moves = landings.get(placing)
                if moves is None:
                    moves = landings[placing] = _moves(placing, direct, passed, to_life, idle)
                for key, q in moves:
                    if key is None:
                        killed += p * q
                    else:
                        step[key] = get(key, 0.0) + p * q
            alive = step
        out.append((killed, sum(p * (boxes - b) for (_, b, _), p in alive.items())))
    return alive, killed, tuple(out)


def _moves(
    placing: tuple[int, int, int], direct: float, passed: float, to_life: float, idle: float
) -> list[tuple[tuple[int, int, int] | None, float]]:
    """Where one more point landing on a ship so placed leaves it (``None``: out of the fight), each with its chance, in
    :func:`_landed`'s order: a direct hit (armour first), a point passed on to structure, life support, nothing."""
    a, b, lf = placing
    found: list[tuple[tuple[int, int, int] | None, float]] = []
    for key, q in (
        ((a - 1, b, lf) if a else (a, b - 1, lf), direct),
        ((a, b - 1, lf), passed),
        ((a, b, lf - 1), to_life),
        ((a, b, lf), idle),
    ):
        if q:
            found.append((None if key[1] <= 0 or key[2] <= 0 else key, q))
    return found
