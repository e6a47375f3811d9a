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
from vectorwar.systems.msc.combat import MAX_RANGE, hit_chance, line_of_sight, range_modifier, to_hit_number
from vectorwar.systems.msc.deploy import Deployment, Placing
from vectorwar.systems.msc.fire import unblocked
from vectorwar.systems.msc.movement import allowed_speeds, outcomes
from vectorwar.systems.msc.orders import FireOrders, Move, Plot, Shot
from vectorwar.systems.msc.state import MSCState, Ship


def _expected(shooter: Ship, shooter_hex: Hex, shooter_facing: Direction, target_hex: Hex) -> float:
    """Expected hits a shooter's working weapons land on a hex (ignores terrain)."""
    dq, dr = target_hex.q - shooter_hex.q, target_hex.r - shooter_hex.r
    if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 > MAX_RANGE:
        return 0.0
    return _expected_at(shooter.to_hit, shooter.weapons, dq, dr, shooter_facing)


@cache
def _expected_at(to_hit: int, weapons: tuple[Side, ...], dq: int, dr: int, facing: Direction) -> float:
    # The plotter asks this twice per enemy for every candidate end (a hundred or more a ship): within range
    # the answer depends only on the rating, the working weapons and the offset, so it is worked out once.
    need = to_hit + cast(int, range_modifier((abs(dq) + abs(dr) + abs(dq + dr)) // 2))
    seeing = sides_seeing(Hex(0, 0), facing, Hex(dq, dr))
    bearing = sum(1 for w in weapons if w in seeing)
    return bearing * hit_chance(need)


#: One step toward each direction, by the direction's number (``Direction.delta``).
_STEPS: tuple[tuple[int, int], ...] = tuple(d.delta for d in Direction)


def _predicted(ship: Ship) -> tuple[Hex, Direction]:
    return ship.hex.neighbour(ship.facing, ship.speed), ship.facing


class GreedyBot:
    """One-turn look-ahead heuristic; deterministic given its random source."""

    edge_margin = 2

    def choose(self, state: Any, seat: str, rng: random.Random) -> Order:
        if not isinstance(state, MSCState):
            raise TypeError("GreedyBot plays MSC states")
        if state.phase == "build" and state.build is not None:
            return building.greedy_fleet(state.build, seat, catalogue.designs())
        if state.phase == "deploy":
            return deployment(state, seat, rng)
        if state.phase == "plot":
            return Plot(tuple((ship.id, self._plot(state, ship, rng)) for ship in state.ships_of(seat)))
        return unblocked(state, self._fire(state, seat))

    def _plot(self, state: MSCState, ship: Ship, rng: random.Random) -> Move:
        enemies = [(e, *_predicted(e)) for e in state.enemies_of(ship.side)]
        strict = bool(state.options.get("strict_turn_spacing"))
        best: list[tuple[float, Move]] = []
        top = float("-inf")
        for speed in allowed_speeds(ship):
            for move, (dq, dr), facing in outcomes(speed, ship.facing):
                if strict and ship.ended_last_move_turning and move.steps[:1] in (("L",), ("R",)):
                    continue
                end = ship.hex.shifted(dq, dr)
                score = self._score(state, ship, move, end, facing, enemies)
                if score > top + 1e-9:
                    top, best = score, [(score, move)]
                elif abs(score - top) <= 1e-9:
                    best.append((score, move))
        return rng.choice(best)[1]

    def _score(
        self,
        state: MSCState,
        ship: Ship,
        move: Move,
        end: Hex,
        facing: Direction,
        enemies: list[tuple[Ship, Hex, Direction]],
    ) -> float:
        edge = state.map.distance_to_edge(end)
        if edge == 0 or not self._path_on_map(state, ship, move):
            return -1000.0
        score = 0.0
        nearest = 99
        for enemy, where, their_facing in enemies:
            gain = _expected(ship, end, facing, where)
            threat = _expected(enemy, where, their_facing, end)
            score += gain * (1.0 + 1.0 / max(enemy.shields, 1)) - 0.8 * threat
            nearest = min(nearest, end.distance(where))
        if nearest > 4:
            score -= 0.05 * nearest  # close in when nothing is in reach
        if edge <= self.edge_margin + move.speed // 2:
            score -= 0.5 * (self.edge_margin + 1 + move.speed // 2 - edge)
        return score

    @staticmethod
    def _path_on_map(state: MSCState, ship: Ship, move: Move) -> bool:
        # Walked in whole numbers (axial coordinates, the facing as 0-5): asked for every candidate move.
        q, r, facing = ship.hex.q, ship.hex.r, int(ship.facing)
        contains = state.map.contains_axial
        for step in move.steps:
            if step == "F":
                dq, dr = _STEPS[facing]
                q, r = q + dq, r + dr
                if not contains(q, r):
                    return False
            else:
                facing = (facing + (-1 if step == "L" else 1)) % 6
        return True

    @staticmethod
    def _fire(state: MSCState, seat: str) -> FireOrders:
        shots: list[Shot] = []
        # Expected hits already aimed at each target this phase.
        aimed: dict[str, float] = {}
        for ship in state.ships_of(seat):
            for side in ship.weapons:
                choices: list[tuple[float, float, str]] = []
                for target in state.enemies_of(seat):
                    d = ship.hex.distance(target.hex)
                    need = to_hit_number(ship, d)
                    if need is None or side not in sides_seeing(ship.hex, ship.facing, target.hex):
                        continue
                    if not line_of_sight(state.map, ship.hex, target.hex):
                        continue
                    p = hit_chance(need)
                    spare = target.shields - aimed.get(target.id, 0.0)
                    value = p * (2.0 if spare <= 1.0 else 1.0) * (0.3 if spare <= 0 else 1.0)
                    choices.append((value, p, target.id))
                if choices:
                    value, p, target_id = max(choices)
                    if value > 0:
                        aimed[target_id] = aimed.get(target_id, 0.0) + p
                        shots.append(Shot(ship.id, side, target_id))
        return FireOrders(tuple(shots))


def deployment(state: MSCState, seat: str, rng: random.Random) -> Order:
    """Set-up choices (start hexes in the zone, starting SPEEDs): spread over the zone by the game's dice.

    The zone's hexes nearest the enemy come first, so the fleet opens towards the fight, and each ship
    starts at half its ENGINE or more, rounded up: fast enough to close, slow enough to turn.
    """
    if state.deploy is None:
        raise TypeError("no deployment is due")
    zone = state.deploy.zone_of(seat)
    enemies = [e.hex for e in state.enemies_of(seat)]
    ships = state.ships_of(seat)

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
