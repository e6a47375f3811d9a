"""The ``greedy`` VMS bot: close to gun range with a weapon facing the enemy, then fire everything.

Movement picks, from the plot menu (vectorwar.systems.vms.planner), the plot
that leaves the ship nearest 2 hexes from where the closest enemy will drift
to, facing it, staying on the map, not building up speed it cannot shed and
not turning more than it must (turning spoils this turn's aim, and rotation
left running spoils the next); fire is the combat module's own greedy
declaration.
"""

from __future__ import annotations

import random
from typing import Protocol

from vectorwar.combat.base import CombatModule, CombatView
from vectorwar.hexes import Bearing, Hex
from vectorwar.rules import Order
from vectorwar.systems.vms.movement import Plot, TurnResult
from vectorwar.systems.vms.orders import MovePlot, SubphaseChoice
from vectorwar.systems.vms.state import VMSShip, VMSState


class Engine(Protocol):
    """What the bot asks of the rule system; the system hands itself in, so this module needs no ``rules``."""

    def choosers(self, state: VMSState, seat: str) -> tuple[VMSShip, ...]: ...
    def movers(self, state: VMSState, seat: str) -> tuple[VMSShip, ...]: ...
    def plots_for(self, state: VMSState, ship: VMSShip) -> list[tuple[Plot, TurnResult]]: ...
    def combat(self, state: VMSState) -> CombatModule: ...
    def view(self, state: VMSState) -> CombatView: ...
    def random_order(self, state: VMSState, seat: str, rng: random.Random) -> Order: ...


IDEAL_RANGE = 2
#: Score lost per hexside/turn of rotation left running: it turns the guns away next turn and costs thrust to stop.
ROTATION_WEIGHT = 1.0
#: Score lost per hexside turned this turn: each costs the guns -2 (Rotational System 4).
TURNED_WEIGHT = 0.5
#: Score lost per hex/turn of speed beyond what one turn of thrust can cancel.
SPEED_WEIGHT = 0.5


def _score(state: VMSState, ship: VMSShip, result: TurnResult, targets: list[Hex]) -> float:
    end = result.motion.hex
    if not all(state.map.contains(h) for h in result.path):
        return -1000.0
    score = 0.0
    if targets:
        target = min(targets, key=end.distance)
        score -= abs(end.distance(target) - IDEAL_RANGE)
        if end != target:
            ray = Bearing.between(end, target).relative_to(result.motion.facing).ray
            score += 2.0 if ray in (11, 0, 1) else 0.0
    # Speed is hard to lose again: keep it to what one turn of thrust can cancel.
    speed = result.motion.velocity.speed
    brake = max(1, ship.spec.thrust // ship.spec.accel_cost)
    score -= max(0, speed - brake) * SPEED_WEIGHT
    # Rotation keeps going until paid to stop, and every hexside turned this turn costs the guns -2.
    score -= abs(result.motion.rotation) * ROTATION_WEIGHT
    score -= result.hexsides_turned * TURNED_WEIGHT
    velocity = result.motion.velocity
    drift = end.shifted(velocity.dq, velocity.dr)
    if not state.map.contains(drift):
        score -= 3.0
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
            targets = [
                e.hex.shifted(e.velocity.dq, e.velocity.dr) if not e.moved else e.hex for e in state.enemies_of(seat)
            ]
            moves: list[tuple[str, Plot]] = []
            for ship in engine.movers(state, seat):
                options = engine.plots_for(state, ship)
                if not options:
                    moves.append((ship.id, Plot()))
                    continue
                scored = [(_score(state, ship, r, targets), p) for p, r in options]
                best = max(score for score, _ in scored)
                top = [p for score, p in scored if score == best]
                moves.append((ship.id, rng.choice(top)))
            return MovePlot(tuple(moves))
        if state.phase == "fire":
            return engine.combat(state).greedy_fire(engine.view(state), seat)
        return engine.random_order(state, seat, rng)
