"""What VV5 fire is expected to do, as distributions of damage points: the search bot's judge, not a rule.

Shared by VV5's own fire in prospect (:mod:`~vectorwar.systems.vv5.prospects`)
and by the VV5 combat module under VMS (:mod:`vectorwar.systems.vv5.module`): a gun
shot or a missile gives a distribution of points, the points at one target
add up (:func:`add`), and :func:`knock_out` works out what they do to it
over where each point lands.
"""

from __future__ import annotations

from functools import lru_cache
from typing import cast

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
    # Worked out to the points' own length: a longer fire's table goes on from this one (_landings), so nothing is
    # worked out twice, and no row past the last the fire can reach is worked out at all.
    landings = _landings(armour, boxes, life, spent, len(points))
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


#: Points landed so far: the chance of each placing of a ship still in the fight (:func:`_placing`'s number of its
#: structure armour, structure boxes and life support), the chance it is out, and :func:`_landings`' rows for every
#: count of points landed so far.
_Landed = tuple[dict[int, float], float, tuple[tuple[float, float], ...]]
#: :func:`_landed`'s last run for each ship placing, by its boxes.
_LANDED: Kept[tuple[int, int, int, int], _Landed] = Kept(256)


def _landed(armour: int, boxes: int, life: int, spent: int, count: int, start: _Landed | None) -> _Landed:
    """:func:`_landings`' table to ``count`` rows, from ``start`` (a shorter run of the same ship; ``None``: the first
    row's). A new run is returned and ``start`` left as it is (a run is shared)."""
    direct, passed, to_life = 1 / 6, spent / 6, (1 / 6 if life else 0.0)
    idle = 1 - direct - passed - to_life
    if start is None:
        # placing (its number) -> chance, for the ship still in the fight
        alive, killed, out = {_placing(armour, boxes, life, boxes, life): 1.0}, 0.0, []
    else:
        alive, killed, out = start[0], start[1], list(start[2])
    # Each placing's landings, worked out once a run: the chances that knock the ship out, and the placings after with
    # their chances, each in :func:`_moves`' order (the same sums in the same order as landing each point afresh; the
    # ship's chance out and the placings' are summed apart, so parting them changes neither). A placing is kept by its
    # number, hashed without a call; ``lost`` is the structure boxes it has lost.
    landings: dict[int, tuple[list[float], list[tuple[int, float]]]] = {}
    lost: dict[int, int] = {}
    n = len(out)
    while n < count:
        if n:
            step: dict[int, float] = {}
            get = step.get
            for placing, p in alive.items():
                moves = landings.get(placing)
                if moves is None:
                    moves = landings[placing] = _moves(placing, boxes, life, direct, passed, to_life, idle)
                for q in moves[0]:
                    killed += p * q
                for key, q in moves[1]:
                    step[key] = get(key, 0.0) + p * q
            settled = len(step) == len(alive) and list(step) == list(alive)
            alive = step
        else:
            settled = False
        weighed: list[float] = []
        for placing, p in alive.items():
            boxes_lost = lost.get(placing)
            if boxes_lost is None:
                boxes_lost = lost[placing] = boxes - placing // (life + 1) % (boxes + 1)
            weighed.append(p * boxes_lost)
        out.append((killed, sum(weighed)))
        n += 1
        if settled and n < count:
            # The placings came out in the order they went in: every later row's will too (which placings a row
            # holds, and in what order, follows from the row before's alone), so the rest are landed by position.
            alive, killed = _settled(alive, killed, out, count, landings, lost)
            break
    return alive, killed, tuple(out)


def _settled(
    alive: dict[int, float],
    killed: float,
    out: list[tuple[float, float]],
    count: int,
    landings: dict[int, tuple[list[float], list[tuple[int, float]]]],
    lost: dict[int, int],
) -> tuple[dict[int, float], float]:
    """:func:`_landed`'s rows on to ``count`` once its placings keep their order from row to row: the same products
    summed in the same order, each placing's chance kept at its position in a list rather than by its number."""
    order = list(alive)
    at = {placing: i for i, placing in enumerate(order)}
    # Each landing that knocks the ship out, by the position of the placing it lands on, in the order they are added.
    kills = [(k, q) for k, placing in enumerate(order) for q in landings[placing][0]]
    # Each position's chance after a point is its sources' chances times theirs, added in the order of the sources'
    # positions (and a source's own landings in order): a sum from +0.0 of the products, first to last. A position
    # has at most five (itself, the placing with one armour box more, the one with one structure box more by a
    # direct hit and by a point passed on, the one with one life support box more); the shorter lists are made up to
    # five with a source of chance 0.0, whose +0.0 changes no sum (none is ever -0.0), so that one expression adds
    # every position's in the order they come.
    sources: list[list[tuple[int, float]]] = [[] for _ in order]
    for k, placing in enumerate(order):
        for key, q in landings[placing][1]:
            sources[at[key]].append((k, q))
    if any(len(found) > _SOURCES for found in sources):  # pragma: no cover - see above
        raise ValueError(f"a placing with more than {_SOURCES} sources")
    padding = (0, 0.0)
    columns = [
        cast(_Sources, tuple([x for pair in (*found, *[padding] * (_SOURCES - len(found))) for x in pair]))
        for found in sources
    ]
    weights = [lost[placing] for placing in order]
    chances = list(alive.values())
    for _ in range(len(out), count):
        for k, q in kills:
            killed += chances[k] * q
        c = chances
        chances = [c[a] * v + c[b] * w + c[d] * x + c[e] * y + c[f] * z for a, v, b, w, d, x, e, y, f, z in columns]
        out.append((killed, sum([p * w for p, w in zip(chances, weights, strict=True)])))
    return dict(zip(order, chances, strict=True)), killed


#: The most landings a placing's chance comes from (:func:`_settled`).
_SOURCES = 5
#: A placing's sources in :func:`_settled`: each one's position and the chance of landing from there, five of them.
_Sources = tuple[int, float, int, float, int, float, int, float, int, float]


def _placing(a: int, b: int, lf: int, boxes: int, life: int) -> int:
    """The number standing for a ship's structure armour ``a``, structure boxes ``b`` and life support ``lf`` (of at
    most ``boxes`` and ``life``): one for each placing."""
    return (a * (boxes + 1) + b) * (life + 1) + lf


def _moves(
    placing: int, boxes: int, life: int, direct: float, passed: float, to_life: float, idle: float
) -> tuple[list[float], list[tuple[int, float]]]:
    """Where one more point landing on a ship so placed leaves it, in :func:`_landed`'s order (a direct hit, armour
    first; a point passed on to structure; life support; nothing), each with its chance: the chances of those that
    knock it out, and the placings after (their numbers) with theirs."""
    columns, rows = boxes + 1, life + 1  # _placing's bases, its arithmetic written out below
    a, rest = divmod(placing, columns * rows)
    b, lf = divmod(rest, rows)
    out: list[float] = []
    after: list[tuple[int, float]] = []
    for (na, nb, nlf), q in (
        ((a - 1, b, lf) if a else (a, b - 1, lf), direct),
        ((a, b - 1, lf), passed),
        ((a, b, lf - 1), to_life),
        ((a, b, lf), idle),
    ):
        if q:
            if nb <= 0 or nlf <= 0:
                out.append(q)
            else:
                after.append(((na * columns + nb) * rows + nlf, q))
    return out, after
