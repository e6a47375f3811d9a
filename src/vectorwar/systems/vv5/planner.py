"""A multi-turn rendezvous planner for VV5 ships (pure functions).

A slow ship (1G, one hexside a turn, like the transports) needs several
turns of planning to end next to a moving target with exactly its velocity:
it must swing its nose round, build up speed, swing round again and brake.
A one-turn look-ahead never gets there, so this module searches a few turns
deep.

The search runs in the target's frame of reference: the target keeps a
constant velocity (the Ghost Ship drifts, the ancient starship sits still),
so in its frame the target stands still and only the *relative* position and
velocity matter. Each turn the ship picks one of the plots the rules allow
(rotations up to its agility and thrust up to its acceleration, turning
before or after the burn); its relative velocity changes by the thrust and
it moves by the new relative velocity, just as :func:`movement.plan` and the
vector markers do on the board.

The search is a beam search: every turn deep it keeps the ``beam`` most
promising distinct states (relative position, relative velocity, facing),
ranked by an estimate of the turns still needed. It stops at the first depth
where some state sits on a goal hex with zero relative velocity; without one
within the horizon it takes the best-ranked state of the deepest level it
reached (a state that only looked good early may lead nowhere but off the map).

>>> from vectorwar.hexes import Direction, Hex
>>> from vectorwar.vectors import Velocity
>>> plan = rendezvous(Hex(0, 0), Velocity.toward(Direction.A), Direction.D, 1, 1,
...                   Hex(0, -1), Velocity(), ring([(0, 0)]))
>>> str(plan.move), plan.turns
('1', 1)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from vectorwar.hexes import Direction, Hex
from vectorwar.systems.vv5.orders import Manoeuvre
from vectorwar.vectors import Velocity

Offset = tuple[int, int]

_DELTAS: tuple[Offset, ...] = tuple(d.delta for d in Direction)
_SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True, slots=True)
class Option:
    """One distinct plot: the manoeuvre, the heading it leaves, the change of velocity."""

    move: Manoeuvre
    facing: Direction
    thrust: Offset


@dataclass(frozen=True, slots=True)
class Plan:
    """The planner's answer: the plot for this turn and what the search expects of it.

    ``turns`` is the number of turns to an exact rendezvous when one was found
    within the horizon (0: already there), else ``None``; ``estimate`` is the
    estimated turns to rendezvous through the chosen plot.
    """

    move: Manoeuvre
    turns: int | None
    estimate: float


def _distance(dq: int, dr: int) -> int:
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def ring(footprint: Iterable[Offset]) -> frozenset[Offset]:
    """Offsets next to a body made of ``footprint`` offsets (its own hexes left out)."""
    body = set(footprint)
    return frozenset((q + dq, r + dr) for q, r in body for dq, dr in _DELTAS if (q + dq, r + dr) not in body)


@lru_cache(maxsize=256)
def plot_options(facing: Direction, agility: int, acceleration: int) -> tuple[Option, ...]:
    """Every distinct (heading, thrust) outcome, turning then burning or burning then turning.

    Each outcome keeps the shortest manoeuvre reaching it, rotations and
    thrust counted together, so the bot never wastes fuel or agility.
    """
    found: dict[tuple[Direction, Offset], Manoeuvre] = {}
    for turns in range(-agility, agility + 1):
        letters = ["L" if turns < 0 else "R"] * abs(turns)
        after = facing.turned(turns)
        for g in range(acceleration + 1):
            burn = [str(g)] if g else []
            for nose, steps in ((after, letters + burn), (facing, burn + letters)):
                dq, dr = nose.delta
                key = (after, (dq * g, dr * g))
                move = Manoeuvre(tuple(steps))
                old = found.get(key)
                if old is None or len(move.steps) < len(old.steps):
                    found[key] = move
    # Shortest first: among plots that do equally well the search keeps the first it meets.
    options = sorted(found.items(), key=lambda kv: (len(kv[1].steps), str(kv[1])))
    return tuple(Option(m, f, t) for (f, t), m in options)


def _cube(q: float, r: float) -> tuple[float, float, float]:
    return q, r, -q - r


def estimate(p: Offset, u: Offset, facing: Direction, goal: frozenset[Offset], acceleration: int) -> float:
    """Estimated turns from relative position ``p`` and velocity ``u`` to rest on a goal hex.

    Braking at full thrust from speed n takes ceil(n/G) turns and carries the
    ship about n/2 of those turns' worth further along; from that stopping
    point the ship still has to cross to the goal (about 2*sqrt(d/G) turns
    from rest), and a nose pointing away from the braking burn costs turns
    to swing round. Not a strict lower bound: it only ranks states.
    """
    g = max(1, acceleration)
    n = _distance(*u)
    brake = math.ceil(n / g)
    carry = (brake - 1) / 2 if brake else 0.0
    sq, sr = p[0] + u[0] * carry, p[1] + u[1] * carry
    sx, sy, sz = _cube(sq, sr)
    gap = min((abs(sx - q) + abs(sy - r) + abs(sz + q + r)) / 2 for q, r in goal)
    swing = 0.0
    if n:
        # The braking burn points against the velocity: how far the nose must swing to face it.
        ux, uy = u[0] + u[1] / 2, u[1] * _SQRT3 / 2
        fq, fr = facing.delta
        fx, fy = fq + fr / 2, fr * _SQRT3 / 2
        cos = -(ux * fx + uy * fy) / math.hypot(ux, uy)
        swing = max(0.0, math.degrees(math.acos(max(-1.0, min(1.0, cos)))) / 60 - 1)
    return brake + swing + 2.0 * math.sqrt(gap / g) + 0.5 * gap


Inside = Callable[[Hex], bool]

#: Estimates worked out lately, by goal and acceleration, then by state (relative position, velocity, facing).
_ESTIMATES: dict[tuple[frozenset[Offset], int], dict[tuple[Offset, Offset, Direction], float]] = {}
#: States kept for one goal and acceleration before its table is emptied, and (over 1024) tables kept: a bound
#: on memory.
ESTIMATES_KEPT = 1 << 16


@lru_cache(maxsize=1024)
def rendezvous(
    start: Hex,
    velocity: Velocity,
    facing: Direction,
    agility: int,
    acceleration: int,
    target: Hex,
    target_velocity: Velocity,
    goal: frozenset[Offset],
    *,
    body: frozenset[Offset] = frozenset({(0, 0)}),
    inside: Inside | None = None,
    horizon: int = 8,
    beam: int = 48,
) -> Plan:
    """The first plot of the best found way to rest on a ``goal`` hex relative to a moving target.

    ``goal`` and ``body`` are offsets from the target's hex (``ring(body)`` for
    "next to it"); the ship never plans to end a turn in the ``body``. A state
    whose board hex fails ``inside`` (off the map, on a rock) is dropped.
    Answers are kept by their arguments (``inside`` by its value or identity):
    a search bot's trials plan the same ship from the same position again and
    again.
    """
    p0 = (start.q - target.q, start.r - target.r)
    u0 = (velocity.dq - target_velocity.dq, velocity.dr - target_velocity.dr)
    if not goal:
        raise ValueError("rendezvous needs at least one goal hex")
    if u0 == (0, 0) and p0 in goal:
        return Plan(Manoeuvre(()), 0, 0.0)
    tq, tr = target_velocity.dq, target_velocity.dr
    # A plan asks for thousands of estimates, and a search bot's trials plan the same transports again and
    # again: the same states come back, so estimates are kept by goal and acceleration, then by state.
    if len(_ESTIMATES) > ESTIMATES_KEPT // 1024:
        _ESTIMATES.clear()
    known = _ESTIMATES.setdefault((goal, acceleration), {})
    if len(known) > ESTIMATES_KEPT:
        known.clear()
    # state -> the first plot that led to it, and that plot as written (the tie-break of the ranking)
    level: dict[tuple[Offset, Offset, Direction], tuple[str, Manoeuvre] | None] = {(p0, u0, facing): None}
    best: tuple[float, int, Manoeuvre] | None = None
    for depth in range(1, horizon + 1):
        nxt: dict[tuple[Offset, Offset, Direction], tuple[float, str, Manoeuvre]] = {}
        for (p, u, f), first in level.items():
            for opt in plot_options(f, agility, acceleration):
                nu = (u[0] + opt.thrust[0], u[1] + opt.thrust[1])
                np_ = (p[0] + nu[0], p[1] + nu[1])
                if np_ in body:
                    continue
                key = (np_, nu, opt.facing)
                if key in nxt:
                    continue
                if inside is not None and not inside(
                    Hex(target.q + tq * depth + np_[0], target.r + tr * depth + np_[1])
                ):
                    continue
                name, lead = first if first is not None else (str(opt.move), opt.move)
                if nu == (0, 0) and np_ in goal:
                    return Plan(lead, depth, float(depth))
                guess = known.get(key)
                if guess is None:
                    guess = known[key] = estimate(np_, nu, opt.facing, goal, acceleration)
                nxt[key] = (guess, name, lead)
        if not nxt:
            break
        ranked = sorted(nxt.items(), key=lambda kv: (kv[1][0], kv[1][1]))[:beam]
        level = {k: (name, lead) for k, (_, name, lead) in ranked}
        score, _, lead = ranked[0][1]
        # The deepest level wins: a shallow state that looked good may only lead off the board.
        best = (depth + score, depth, lead)
    if best is None:
        return Plan(Manoeuvre(()), None, math.inf)
    return Plan(best[2], None, best[0])
