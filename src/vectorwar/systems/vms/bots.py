"""The ``greedy`` VMS bot: close to gun range, bring the guns to bear, match the enemy's vector, then fire everything.

Movement scores every plot of the plot menu (vectorwar.systems.vms.planner)
by where it leaves the ship against where the enemy will drift to (its hex
plus its vector, if it has not moved yet):

* the guns it brings to bear there, asked of the combat module itself (its
  shot options from a view with the ship moved), so arcs, mounts and range
  are the module's own, closer shots worth more;
* the enemy's guns bearing on it there, counted the same way, worth less;
* the range to the nearest enemy against the ideal, now and after a turn of
  drift, less what one turn of thrust can correct (a plan that brakes in
  time: arrive at range with a vector the ship can still match to the enemy's);
* the speed relative to the enemy beyond what one turn of thrust can cancel;
* rotation left running and hexsides turned (each costs the guns -2);
* leaving the map now or on the next drift.

Everything is measured from the ship and its enemy only, never from a map
direction, so a seat plays the same whichever way it faces. Fire is the
combat module's own greedy declaration.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Protocol

from vectorwar.combat.base import Combatant, CombatModule, CombatView
from vectorwar.hexes import Direction, Hex, nearest_hex
from vectorwar.rules import Order
from vectorwar.systems.vms.movement import Plot, TurnResult
from vectorwar.systems.vms.orders import MovePlot, SubphaseChoice
from vectorwar.systems.vms.ships import SIDES, Design
from vectorwar.systems.vms.state import VMSShip, VMSState
from vectorwar.systems.vms.thrust import pushes
from vectorwar.vectors import Velocity


class Engine(Protocol):
    """What the bot asks of the rule system; the system hands itself in, so this module needs no ``rules``."""

    def choosers(self, state: VMSState, seat: str) -> tuple[VMSShip, ...]: ...
    def movers(self, state: VMSState, seat: str) -> tuple[VMSShip, ...]: ...
    def plots_for(self, state: VMSState, ship: VMSShip) -> list[tuple[Plot, TurnResult]]: ...
    def combat(self, state: VMSState) -> CombatModule: ...
    def view(self, state: VMSState) -> CombatView: ...
    def random_order(self, state: VMSState, seat: str, rng: random.Random) -> Order: ...


IDEAL_RANGE = 2
#: Score per weapon brought to bear on an enemy (at the best range; less further out).
FIRE_WEIGHT = 2.0
#: Score lost per enemy weapon bearing on the ship where it ends.
THREAT_WEIGHT = 0.6
#: Score lost per hex/turn of speed relative to the enemy beyond what one turn of thrust can cancel.
SPEED_WEIGHT = 0.7
#: Score lost per hexside/turn of rotation left running: it turns the guns away next turn and costs thrust to stop.
ROTATION_WEIGHT = 0.6
#: Score lost per hexside turned this turn: each costs the guns -2 (Rotational System 4).
TURNED_WEIGHT = 0.5
#: Score lost per hex the point where the ship could stop (braking as hard as it can) misses the ideal range.
STOP_WEIGHT = 0.5
#: Score lost if braking as hard as it can still carries the ship off the map.
OFF_MAP_WEIGHT = 20.0
#: How much a shot at each range is worth against one at 1-2 hexes.
RANGE_WORTH = {0: 1.0, 1: 1.0, 2: 1.0, 3: 0.85, 4: 0.85}
FAR_WORTH = 0.7
#: Share of a shot lost per to-hit point of turning penalty.
TURN_SPOIL = 0.2
#: A weapon with several shots (VV5's gun boxes, missiles ready) counts at most this many.
MOST_PIECES = 2


@dataclass(frozen=True, slots=True)
class _Enemy:
    """Where an enemy will be when the ship fires (its drift, if it has not moved) and its vector."""

    id: str
    hex: Hex
    velocity: Velocity
    facing: Direction


def _predict(state: VMSState, seat: str) -> list[_Enemy]:
    out = []
    for e in state.enemies_of(seat):
        if e.moved:
            out.append(_Enemy(e.id, e.hex, e.velocity, e.facing))
        else:
            facing = e.facing.turned(e.rotation) if not e.spec.small_craft else e.facing
            out.append(_Enemy(e.id, e.hex.shifted(e.velocity.dq, e.velocity.dr), e.velocity, facing))
    return out


_SQRT3 = math.sqrt(3.0)


def _xy(dq: float, dr: float) -> tuple[float, float]:
    return 1.5 * dq, _SQRT3 * (dr + dq / 2)


_UNIT = {d: _xy(*d.delta) for d in Direction}


def capacity(design: Design, lost_thrust: int, facing: Direction) -> dict[Direction, int]:
    """Hexes/turn of velocity change the ship can buy toward each direction from ``facing`` (no rotation)."""
    total = max(0, design.thrust - lost_thrust) // design.accel_cost
    table = design.thruster_table()
    out: dict[Direction, int] = {}
    for d in Direction:
        side = next(s for s in SIDES if d in pushes(s, facing))
        rated = sum(t.rating for t in table.values() if t.side == side)
        out[d] = min(total, rated // design.accel_cost)
    return out


def _against(velocity: Velocity, can: dict[Direction, int]) -> int:
    """Hexes/turn the ship can take off ``velocity``: its thrust toward the direction nearest the opposite."""
    if velocity.dq == 0 and velocity.dr == 0:
        return max(can.values())
    return can[_opposite(velocity.dq, velocity.dr)]


@lru_cache(maxsize=4096)
def _opposite(dq: int, dr: int) -> Direction:
    """The direction nearest the opposite of a vector (asked for every candidate plot: cached)."""
    x, y = _xy(dq, dr)
    return min(Direction, key=lambda d: _UNIT[d][0] * x + _UNIT[d][1] * y)


def _stop(at: Hex, velocity: Velocity, brake: int, margin: int = 0) -> Hex:
    """Where a ship at ``at`` with ``velocity`` stops if it brakes by ``brake`` hexes/turn from next turn on.

    ``margin`` hexes further along, for a braking burn only roughly toward the opposite of the vector.
    """
    if velocity.dq == 0 and velocity.dr == 0:
        return at
    dq, dr = _stopping_run(velocity.dq, velocity.dr, brake, margin)
    return nearest_hex(at.q + dq, at.r + dr)


@lru_cache(maxsize=4096)
def _stopping_run(dq: int, dr: int, brake: int, margin: int) -> tuple[float, float]:
    """The run of :func:`_stop` from wherever the ship is (asked for every candidate plot: cached)."""
    speed = Velocity(dq, dr).speed
    travel = speed * 4 if brake <= 0 else sum(speed - j * brake for j in range(1, speed // brake + 1))
    f = (travel + margin) / speed
    return dq * f, dr * f


def stops_on_map(state: VMSState, ship: VMSShip) -> bool:
    """Whether ``ship``, braking as hard as it can from next turn on, comes to rest on the map (greedy's test
    for a plot, asked of where the ship is now)."""
    can = capacity(ship.spec, ship.thrust_lost, ship.facing)
    return state.map.contains(_stop(ship.hex, ship.velocity, _against(ship.velocity, can), margin=1))


def _guns(combat: CombatModule, view: CombatView, shooter: str, distance_to: dict[str, int]) -> float:
    """The weapons of ``shooter`` that bear in ``view``, each at its best target, worth more closer.

    Each hexside the shooter turned costs a share of every shot (VMS: -2 to hit
    a hexside, most of a d6 shot's chance).
    """
    turned = view.ship(shooter).hexsides_turned * view.penalty_per_hexside
    spoiled = max(0.0, 1.0 - TURN_SPOIL * turned)
    if spoiled == 0.0:
        return 0.0
    best: dict[str, float] = {}
    for (weapon, target), n in combat.bearing(view, shooter).items():
        worth = RANGE_WORTH.get(distance_to.get(target, 0), FAR_WORTH) * min(n, MOST_PIECES)
        best[weapon] = max(best.get(weapon, 0.0), worth)
    return spoiled * sum(best.values())


class _Scorer:
    """Scores one ship's candidate end positions, each distinct end worked out once."""

    def __init__(self, state: VMSState, ship: VMSShip, enemies: Sequence[_Enemy], engine: Engine) -> None:
        self.state, self.ship, self.enemies = state, ship, enemies
        self.combat = engine.combat(state)
        base = engine.view(state)
        moved = {e.id: e for e in enemies}
        # The enemies where they will be; the ship's own entry is replaced per candidate.
        self.others = tuple(
            replace(c, hex=moved[c.id].hex, facing=moved[c.id].facing) if c.id in moved else c for c in base.ships
        )
        self.base = base
        self.cache: dict[tuple[Hex, Direction, int], float] = {}
        self.threats: dict[Hex, float] = {}
        self.can = {f: capacity(ship.spec, ship.thrust_lost, f) for f in Direction}

    def _view(self, me: Combatant) -> CombatView:
        ships = tuple(me if c.id == me.id else c for c in self.others)
        return replace(self.base, ships=ships)

    def _guns_at(self, end: Hex, facing: Direction, turned: int) -> float:
        key = (end, facing, turned)
        if key in self.cache:
            return self.cache[key]
        me = replace(self.base.ship(self.ship.id), hex=end, facing=facing, hexsides_turned=turned)
        view = self._view(me)
        mine = {e.id: end.distance(e.hex) for e in self.enemies}
        value = FIRE_WEIGHT * _guns(self.combat, view, self.ship.id, mine)
        # The enemy's guns on the ship depend on where it ends, not on how it faces or turned.
        threat = self.threats.get(end)
        if threat is None:
            threat = sum(_guns(self.combat, view, e.id, {self.ship.id: end.distance(e.hex)}) for e in self.enemies)
            self.threats[end] = threat
        value -= THREAT_WEIGHT * threat
        self.cache[key] = value
        return value

    def score(self, result: TurnResult) -> float:
        state = self.state
        if not all(state.map.contains(h) for h in result.path):
            return -1000.0
        motion = result.motion
        end, velocity = motion.hex, motion.velocity
        # Next turn's thrust fires from the facing the ship ends with (the turn's rotation comes after it).
        can = self.can[motion.facing]
        score = 0.0
        if self.enemies:
            score += self._guns_at(end, motion.facing, result.hexsides_turned)
            target = min(self.enemies, key=lambda e: end.distance(e.hex))
            score -= abs(end.distance(target.hex) - IDEAL_RANGE)
            relative = Velocity(velocity.dq - target.velocity.dq, velocity.dr - target.velocity.dr)
            brake = _against(relative, can)
            # Where the ship would come to rest against the enemy, braking from next turn on: past it is an overshoot.
            rest = _stop(end, relative, brake)
            score -= STOP_WEIGHT * abs(rest.distance(target.hex) - IDEAL_RANGE)
            score -= SPEED_WEIGHT * max(0, relative.speed - brake)
        else:
            score -= SPEED_WEIGHT * velocity.speed
        score -= abs(motion.rotation) * ROTATION_WEIGHT
        score -= result.hexsides_turned * TURNED_WEIGHT
        if not state.map.contains(_stop(end, velocity, _against(velocity, can), margin=1)):
            score -= OFF_MAP_WEIGHT
        return score


class GreedyBot:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def choose(self, state: VMSState, seat: str, rng: random.Random) -> Order:
        engine = self.engine
        if state.phase == "initiative":
            # Moving later sees more of the enemy's moves.
            return SubphaseChoice(tuple((s.id, s.choices[-1]) for s in engine.choosers(state, seat)))
        if state.phase == "plot":
            enemies = _predict(state, seat)
            moves: list[tuple[str, Plot]] = []
            for ship in engine.movers(state, seat):
                options = engine.plots_for(state, ship)
                if not options:
                    moves.append((ship.id, Plot()))
                    continue
                scorer = _Scorer(state, ship, enemies, engine)
                scored = [(scorer.score(r), p) for p, r in options]
                best = max(score for score, _ in scored)
                top = [p for score, p in scored if score == best]
                moves.append((ship.id, rng.choice(top)))
            return MovePlot(tuple(moves))
        if state.phase == "fire":
            return engine.combat(state).greedy_fire(engine.view(state), seat)
        return engine.random_order(state, seat, rng)
