"""The ``greedy`` MSC computer player.

Plotting: each ship looks at every distinct place and facing its legal moves
reach, guesses that every enemy flies straight on at its current SPEED, and
picks the end that best trades the hits it can expect to land against the
hits it can expect to take, keeping clear of the map edge and closing with
the enemy when nothing is in reach. Firing: every weapon that bears shoots,
at the target where its expected damage counts most (a ship about to die
first), without piling more fire on a ship than it needs.

It plays through the same order API as a person: it returns a
:class:`~vectorwar.systems.msc.orders.Plot` or ``FireOrders`` that the
engine checks like any other.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any, cast

from vectorwar.hexes import Direction, Hex
from vectorwar.rules import Order
from vectorwar.systems.msc import building, catalogue
from vectorwar.systems.msc.arcs import Side, sides_seeing
from vectorwar.systems.msc.combat import MAX_RANGE, hit_chance, range_modifier, to_hit_number
from vectorwar.systems.msc.deploy import Deployment, Placing
from vectorwar.systems.msc.fire import reach_of, unblocked
from vectorwar.systems.msc.movement import allowed_speeds, outcomes, trace
from vectorwar.systems.msc.orders import FireOrders, Move, Plot, Shot
from vectorwar.systems.msc.state import MSCState, Ship

#: A table of expected hits is a list indexed by ``dq * _ROW + dr + _MIDDLE`` for every offset within
#: MAX_RANGE (so ``|dr| <= MAX_RANGE < _ROW / 2`` keeps the indices apart), read in the plotter's inner loop.
_ROW = 2 * MAX_RANGE + 4
_MIDDLE = MAX_RANGE * _ROW + MAX_RANGE


@cache
def _sights(facing: Direction) -> tuple[tuple[int, int, frozenset[Side]], ...]:
    """Every offset within range of a ship facing ``facing``: its table index, its distance and the sides that
    see it (shared by the tables of every design)."""
    out = []
    for dq in range(-MAX_RANGE, MAX_RANGE + 1):
        for dr in range(-MAX_RANGE, MAX_RANGE + 1):
            distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if distance <= MAX_RANGE:
                out.append((dq * _ROW + dr + _MIDDLE, distance, sides_seeing(Hex(0, 0), facing, Hex(dq, dr))))
    return tuple(out)


@cache
def _table(to_hit: int, weapons: tuple[Side, ...], facing: Direction) -> tuple[float, ...]:
    """The hits a ship of rating ``to_hit`` and working ``weapons`` can expect to land on each offset within range
    (0.0 elsewhere, never read): the weapons bearing there times one weapon's chance at that range."""
    # Each game meets new designs and damage: tables are made all through a batch of games, so from lists
    # worked out once (the sides seeing each offset, the chance at each range).
    chance = [hit_chance(to_hit + cast(int, range_modifier(d))) for d in range(MAX_RANGE + 1)]
    table = [0.0] * (2 * _MIDDLE + 1)
    for index, distance, seeing in _sights(facing):
        table[index] = sum(1 for w in weapons if w in seeing) * chance[distance]
    return tuple(table)


#: An end hex's key in the ``ends`` a side's ships share: one whole number for axial ``q``, ``r`` (``q * _KEY + r``;
#: any map's ``r`` is far within half of it), cheaper to hash than the pair.
_KEY = 1 << 20

#: One distinct end a move of a SPEED reaches from a facing: the move, the end as offsets from the start, the
#: facing there, the offsets of every hex the move enters in order, and whether the move begins with a turn
#: (what ``strict_turn_spacing`` may forbid). A plain tuple: the plotter's inner loop unpacks it.
_Candidate = tuple[Move, int, int, Direction, tuple[tuple[int, int], ...], bool]


@cache
def _candidates(speed: int, facing: Direction) -> tuple[_Candidate, ...]:
    """:func:`~vectorwar.systems.msc.movement.outcomes` with each move's path, worked out once."""
    out: list[_Candidate] = []
    for move, (dq, dr), end_facing in outcomes(speed, facing):
        path, _ = trace(Hex(0, 0), facing, move)
        turns_first = move.steps[:1] in (("L",), ("R",))
        out.append((move, dq, dr, end_facing, tuple((h.q, h.r) for h in path[1:]), turns_first))
    return tuple(out)


#: What an end hex gives: its distance to the map's edge, the cost of being far from the enemy, the enemies in reach.
_End = tuple[int, float, list[tuple[int, float, float]]]


def _end(
    q: int, r: int, extent: tuple[int, int, int, int], enemies: list[tuple[int, int, float, tuple[float, ...]]]
) -> _End:
    """What an end hex (axial ``q``, ``r``) gives every facing there: its distance to the map's edge, what being
    far from every enemy costs (beyond 4 hexes of the nearest), and each enemy in reach: the table index of the
    offset to it, what a hit on it is worth and the hits it threatens there (weighed; the same for every facing)."""
    min_col, min_row, max_col, max_row = extent
    row = r + (q - (q & 1)) // 2
    edge = 1 + min(q - min_col, max_col - q, row - min_row, max_row - row)
    nearest = harmless = 99
    reach = []
    for wq, wr, weight, threats in enemies:
        dq, dr = wq - q, wr - r
        d = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
        if d <= MAX_RANGE:  # beyond it neither side lands anything: the score gains 0.0
            k = dq * _ROW + dr
            reach.append((_MIDDLE + k, weight, 0.8 * threats[_MIDDLE - k]))
        if d < nearest:
            nearest = d
        if d < harmless and not any(threats):
            harmless = d
    # An enemy that can fire nowhere is closed with to any range: nothing is risked, and it may be cornered.
    far = 0.05 * nearest if nearest > 4 else 0.05 * harmless if harmless < 99 else 0.0
    return edge, far, reach


def _predicted(ship: Ship) -> tuple[Hex, Direction]:
    return ship.hex.neighbour(ship.facing, ship.speed), ship.facing


class GreedyBot:
    """One-turn look-ahead heuristic; deterministic given its random source."""

    edge_margin = 2

    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        if not isinstance(state, MSCState):
            raise TypeError("GreedyBot plays MSC states")
        if state.phase == "build" and state.build is not None:
            return building.greedy_fleet(state.build, side, catalogue.designs())
        if state.phase == "deploy":
            return deployment(state, side, rng)
        if state.phase == "plot":
            enemies = self._enemies(state, side)
            # What an end hex gives (:func:`_end`) depends on the enemies and the map alone: the side's ships
            # share what they work out, as their moves reach many of the same hexes.
            ends: dict[int, _End] = {}
            return Plot(tuple((ship.id, self._plot(state, ship, enemies, rng, ends)) for ship in state.ships_of(side)))
        return unblocked(state, self._fire(state, side))

    @staticmethod
    def _enemies(state: MSCState, side: str) -> list[tuple[int, int, float, tuple[float, ...]]]:
        """Each enemy where it is guessed to end (axial ``q``, ``r``), what a hit on it is worth, and the hits
        it can expect to land on each offset from there (a :func:`_table`)."""
        out = []
        for enemy in state.enemies_of(side):
            where, facing = _predicted(enemy)
            weight = 1.0 + 1.0 / max(enemy.shields, 1)
            out.append((where.q, where.r, weight, _table(enemy.to_hit, enemy.weapons, facing)))
        return out

    def _plot(
        self,
        state: MSCState,
        ship: Ship,
        enemies: list[tuple[int, int, float, tuple[float, ...]]],
        rng: random.Random,
        ends: dict[int, _End],
    ) -> Move:
        # Every candidate end scored in whole numbers and table look-ups (axial coordinates, offsets as list
        # indices): a ship weighs a hundred or more ends against every enemy each turn, most of a game's time.
        no_turn_first = bool(state.options.get("strict_turn_spacing")) and ship.ended_last_move_turning
        contains = state.map.contains_axial
        extent = state.map.extent
        q0, r0 = ship.hex.q, ship.hex.r
        clear = state.map.clear_radius(ship.hex)  # moves no longer than this cannot leave the map
        best: list[tuple[float, Move]] = []
        top = above = float("-inf")  # ``above``: what a score must pass to beat the best so far
        # What an end gives every facing there (``ends``, :func:`_end`), and the hits the ship can expect from
        # each facing by offset (a :func:`_table`), each worked out once.
        gains_by_facing: list[tuple[float, ...] | None] = [None] * 6
        for speed in allowed_speeds(ship):
            near_edge = self.edge_margin + speed // 2
            walk = speed > clear
            for move, dq, dr, facing, path, turns_first in _candidates(speed, ship.facing):
                if no_turn_first and turns_first:
                    continue
                q, r = q0 + dq, r0 + dr
                if walk and (not contains(q, r) or not all(contains(q0 + pq, r0 + pr) for pq, pr in path)):
                    score = -1000.0
                else:
                    end = ends.get(q * _KEY + r)
                    if end is None:
                        end = ends[q * _KEY + r] = _end(q, r, extent, enemies)
                    edge, far, reach = end
                    score = 0.0
                    if reach:
                        gains = gains_by_facing[facing]
                        if gains is None:
                            gains = gains_by_facing[facing] = _table(ship.to_hit, ship.weapons, facing)
                        for mine, weight, threat in reach:
                            score += gains[mine] * weight - threat
                    if far:
                        score -= far  # close in when nothing is in reach
                    if edge <= near_edge:
                        score -= 0.5 * (near_edge + 1 - edge)
                if score > above:
                    top, best = score, [(score, move)]
                    above = top + 1e-9
                elif -1e-9 <= score - top <= 1e-9:  # abs(score - top) <= 1e-9, without the call
                    best.append((score, move))
        return rng.choice(best)[1]

    @staticmethod
    def _fire(state: MSCState, side: str) -> FireOrders:
        shots: list[Shot] = []
        # Expected hits already aimed at each target this phase.
        aimed: dict[str, float] = {}
        enemies = state.enemies_of(side)
        for ship in state.ships_of(side):
            # Each target's chance and the sides that reach it (in range, arc and sight: what the search for the
            # side to fire found, and the check will ask again), worked out once for all the ship's weapons.
            sights: list[tuple[Ship, float, frozenset[Side]]] = []
            for target in enemies:
                reach = reach_of(state, ship, target)
                if reach:
                    need = cast(int, to_hit_number(ship, ship.hex.distance(target.hex)))  # in range: reached
                    sights.append((target, hit_chance(need), reach))
            for arc in ship.weapons:
                choices: list[tuple[float, float, str]] = []
                for target, p, reach in sights:
                    if arc not in reach:
                        continue
                    spare = target.shields - aimed.get(target.id, 0.0)
                    value = p * (2.0 if spare <= 1.0 else 1.0) * (0.3 if spare <= 0 else 1.0)
                    choices.append((value, p, target.id))
                if choices:
                    value, p, target_id = max(choices)
                    if value > 0:
                        aimed[target_id] = aimed.get(target_id, 0.0) + p
                        shots.append(Shot(ship.id, arc, target_id))
        return FireOrders(tuple(shots))


def deployment(state: MSCState, side: str, rng: random.Random) -> Order:
    """Set-up choices (start hexes in the zone, starting SPEEDs): spread over the zone by the game's dice.

    The zone's hexes nearest the enemy come first, so the fleet opens towards the fight, and each ship
    starts at half its ENGINE or more, rounded up: fast enough to close, slow enough to turn.
    """
    if state.deploy is None:
        raise TypeError("no deployment is due")
    zone = state.deploy.zone_of(side)
    enemies = [e.hex for e in state.enemies_of(side)]
    ships = state.ships_of(side)

    def nearest(h: Hex) -> int:
        return min((h.distance(e) for e in enemies), default=0)

    front = sorted(zone.hexes, key=nearest)[: max(len(ships) * 3, len(ships))]
    spots = rng.sample(front, min(len(front), len(ships)))
    return Deployment(
        tuple(
            Placing(ship.id, spots[k % len(spots)], rng.randint((ship.engine + 1) // 2, ship.engine))
            for k, ship in enumerate(ships)
        )
    )
