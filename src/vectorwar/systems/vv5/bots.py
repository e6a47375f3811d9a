"""The ``greedy`` VV5 computer player.

* Declaration order: it declares last, to see the others' launches first.
* Missiles: each ship with missiles left launches at the enemy it is most
  likely to hit, one target a turn (splitting fire costs accuracy), two
  missiles when the odds are good.
* Guns: every mount fires both of its rapid-fire shots, all guns together,
  at the target it is most likely to hit.
* Plotting: each ship tries every combination of rotations (one way) and
  thrust, guesses the enemy drift on, and picks the end that puts enemies in
  its arcs and keeps it out of theirs at next turn's gunfire, accelerating
  away from incoming missiles, closing the range, never leaving the board
  or ending on a rock, and keeping its speed in hand.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from vectorwar.hexes import Direction, Hex
from vectorwar.rules import Order
from vectorwar.systems.vv5 import buying, invasion_tactics, placing
from vectorwar.systems.vv5.arcs import GUN_ARCS, MISSILE_ARC, in_arc
from vectorwar.systems.vv5.combat import gun_modifier, gun_to_hit, guns_facing, missile_to_hit, p_at_least
from vectorwar.systems.vv5.honour import honour_binds, honourable, on_board_plots
from vectorwar.systems.vv5.movement import is_solid, plan, turn_allowance
from vectorwar.systems.vv5.orders import DeclareOrder, Gunfire, Launch, Launches, Manoeuvre, Plot, Shot
from vectorwar.systems.vv5.shock import forced
from vectorwar.systems.vv5.specials import boarding, pirates
from vectorwar.systems.vv5.specials.cargo_runs import steer
from vectorwar.systems.vv5.state import (
    BoardingState,
    CargoRunState,
    InvasionState,
    PirateState,
    PodState,
    Ship,
    VV5State,
)
from vectorwar.systems.vv5.targeting import gun_problem, launch_problem
from vectorwar.vectors import Velocity


def objective_score(state: VV5State, ship: Ship, end: Hex, facing: Direction, velocity: Velocity) -> float:
    """Pull toward the scenario's objective, as its special rules state it."""
    speed = velocity.speed
    if isinstance(state.special, CargoRunState):
        return steer(state, ship, end, speed)
    if isinstance(state.special, PirateState):
        return pirates.objective(state, ship, end, speed)
    if isinstance(state.special, InvasionState):
        return invasion_tactics.objective(state, ship, end, facing, velocity)
    if isinstance(state.special, BoardingState):
        return boarding.boarding_objective(state, ship, end, speed)
    pod = state.special
    if not isinstance(pod, PodState):
        return 0.0
    if pod.holder == ship.id:
        corner = dict(pod.corners)[ship.side]
        if not state.map.contains(end):
            # Off the board with the pod: a win near home, a draw elsewhere.
            return 1100.0 if end.distance(corner) <= pod.exit_radius else 900.0
        return -0.5 * end.distance(corner)
    if pod.holder:
        holder = state.ship(pod.holder)
        return -0.2 * end.distance(holder.hex) if holder.side != ship.side else 0.0
    if "traction" in ship.loadout:
        distance = end.distance(pod.pod)
        grab = (6 - speed) / 6 if distance == 1 and speed < 6 else 0.0
        # Arrive slowly: a grab needs a die roll over the velocity.
        wanted = max(0, min(4, (distance - 1) // 2))
        return 6.0 * grab - 0.4 * distance - 0.6 * abs(speed - wanted)
    return 0.0


def planned_plot(state: VV5State, ship: Ship) -> Manoeuvre | None:
    """A scenario's multi-turn plan for this ship (a transport's rendezvous), which the bot then favours."""
    if isinstance(state.special, BoardingState):
        return boarding.planned_plot(state, ship)
    return None


def purchase(state: VV5State, seat: str) -> buying.Buy:
    """The buy: what the scenario's objective needs where it says, else the most tons in the fewest ships."""
    if isinstance(state.special, InvasionState):
        return invasion_tactics.buy(state, seat)
    return buying.greedy_buy(state, seat)


def salvo_size(state: VV5State, ship: Ship, target: Ship, missed: float) -> tuple[int, float] | None:
    """Missiles ``ship`` launches at ``target`` and each one's chance, when the scenario decides.

    ``missed`` is the chance that the side's missiles already launched at
    ``target`` this turn all miss; None: one or two by the odds.
    """
    if isinstance(state.special, InvasionState):
        return invasion_tactics.salvo(state, ship, target, missed)
    return None


def full_salvos(state: VV5State, order: Order) -> Order:
    """``order`` with each of its launches made with every missile the ship has ready: the search bot's
    launches (``RuleSystem.search_declaration``), at the targets greedy chose.

    Greedy launches one or two by the odds and keeps the rest for later; measured against greedy, a
    searcher did better spending them all at once (docs/bots.md, *Every missile at once*): the passes a
    kept missile waits for often do not come, and a ship knocked out launches nothing. A scenario that
    sizes its own salvos (Invasion) keeps its sizes.
    """
    if not isinstance(order, Launches) or isinstance(state.special, InvasionState):
        return order
    return Launches(tuple(replace(x, missiles=state.ship(x.ship).missiles_ready) for x in order.launches))


PLAN_BONUS = 30.0  # enough to outweigh the one-turn gun and arc terms, not the board edge or a rock


def target_weight(state: VV5State, seat: str, target: Ship) -> float:
    """How much a target is worth shooting (0: leave it alone, e.g. a derelict still to be boarded)."""
    if isinstance(state.special, BoardingState):
        return boarding.target_weight(state, seat, target)
    return 1.0


class GreedyBot:
    def choose(self, state: Any, seat: str, rng: random.Random) -> Order:
        if not isinstance(state, VV5State):
            raise TypeError("this GreedyBot plays VV5 states")
        if state.phase == "purchase":
            return purchase(state, seat)
        if state.phase == "place":
            return placing.greedy_place(state, seat, rng)
        if state.phase == "choose-order":
            others = tuple(s for s in state.sides_in_play() if s != seat)
            return DeclareOrder((*others, seat))
        if state.phase == "missiles":
            return self.launches(state, seat)
        if state.phase == "guns":
            return self.gunfire(state, seat)
        due = [s for s in state.ships_of(seat) if state.phase == "plot" or s.id in state.ace_replot]
        return Plot(tuple((ship.id, self._plot(state, ship, rng)) for ship in due))

    @staticmethod
    def launches(state: VV5State, seat: str) -> Launches:
        out: list[Launch] = []
        # Chance that none of the missiles already launched this turn at a target hits it.
        missed: dict[str, float] = {}
        for ship in state.ships_of(seat):
            if not ship.missiles_ready:
                continue
            best: tuple[float, float, str] | None = None
            for target in state.enemies_of(seat):
                weight = target_weight(state, seat, target)
                if not weight or launch_problem(state, ship, target) is not None:
                    continue
                distance = ship.hex.distance(target.hex)
                need = (missile_to_hit(distance) or 13) + (1 if distance > 1 and guns_facing(target, ship.hex) else 0)
                p = 35 / 36 if not target.can_accelerate else p_at_least(need + target.acceleration.boxes // 2)
                value = p * weight
                if best is None or value > best[0]:
                    best = (value, p, target.id)
            if best is None:
                continue
            value, p, target_id = best
            salvo = salvo_size(state, ship, state.ship(target_id), missed.get(target_id, 1.0))
            if salvo is None:
                if value < 10 / 36:
                    continue
                count = 2 if value >= 21 / 36 and ship.missiles_ready >= 2 else 1
            else:
                count, p = salvo
                if not count:
                    continue
            missed[target_id] = missed.get(target_id, 1.0) * (1 - p) ** count
            out.append(Launch(ship.id, count, target_id))
        return Launches(tuple(out))

    @staticmethod
    def gunfire(state: VV5State, seat: str) -> Gunfire:
        shots: list[Shot] = []
        for ship in state.ships_of(seat):
            for mount in ship.mounts:
                if mount.guns.boxes == 0:
                    continue
                best: tuple[float, str] | None = None
                for target in state.enemies_of(seat):
                    weight = target_weight(state, seat, target)
                    if not weight or gun_problem(state, ship, mount.arc, target) is not None:
                        continue
                    need = gun_to_hit(ship.hex.distance(target.hex)) or 13
                    p = p_at_least(need - gun_modifier(mount.guns.boxes, target)) * weight
                    if best is None or p > best[0]:
                        best = (p, target.id)
                if best is not None:
                    shots.extend(Shot(ship.id, mount.arc, mount.guns.boxes, best[1]) for _ in range(2))
        return Gunfire(tuple(shots))

    def _plot(self, state: VV5State, ship: Ship, rng: random.Random) -> Manoeuvre:
        panic = forced(state, ship)  # optional rule Shock: a panicked ship has no choice
        if panic is not None:
            return panic
        candidates, planned = _plot_candidates(state, ship)
        enemies = [
            (e, e.hex.shifted(e.velocity.dq, e.velocity.dr))
            for e in state.enemies_of(ship.side)
            if target_weight(state, ship.side, e)
        ]
        incoming = sum(1 for m in state.incoming if m.target == ship.id)
        scored: list[tuple[float, int, Manoeuvre]] = []
        for i, move in enumerate(candidates):
            facing, velocity = plan(ship.facing, ship.velocity, move)
            end = ship.hex.shifted(velocity.dq, velocity.dr)
            score = self._score(state, ship, end, facing, velocity.speed, enemies)
            score += objective_score(state, ship, end, facing, velocity)
            score += 0.6 * incoming * move.thrust
            score -= 0.01 * (move.turns + move.thrust)  # all else equal, save fuel for later turns
            if move == planned:
                score += PLAN_BONUS
            scored.append((score, -i, move))
        top = max(s for s, _, _ in scored)
        best = [m for s, _, m in scored if s >= top - 1e-9]
        return honourable(state, ship, rng.choice(best), rng)

    @staticmethod
    def _score(
        state: VV5State, ship: Ship, end: Hex, facing: Direction, speed: int, enemies: list[tuple[Ship, Hex]]
    ) -> float:
        if not state.map.contains(end) or is_solid(state.map.terrain_at(end)):
            return -1000.0
        drift = end.shifted(end.q - ship.hex.q, end.r - ship.hex.r)
        score = 0.0
        if not state.map.contains(drift):
            score -= 3.0 + speed
        score -= 0.3 * max(0, speed - 4)
        nearest = 99
        for enemy, where in enemies:
            distance = end.distance(where)
            nearest = min(nearest, distance)
            if where == end:
                score -= 2.0  # a collision is a coin toss
                continue
            need = gun_to_hit(distance)
            if need is not None:
                for mount in ship.mounts:
                    if mount.guns.boxes and in_arc(GUN_ARCS[mount.arc], end, facing, where):
                        score += 2 * mount.guns.boxes * p_at_least(need - gun_modifier(mount.guns.boxes, enemy))
                for mount in enemy.mounts:
                    if mount.guns.boxes and in_arc(GUN_ARCS[mount.arc], where, enemy.facing, end):
                        score -= 1.6 * mount.guns.boxes * p_at_least(need - gun_modifier(mount.guns.boxes, ship))
            if ship.missiles_ready and missile_to_hit(distance) and in_arc(MISSILE_ARC, end, facing, where):
                score += 0.3
        if nearest < 99:
            score -= 0.08 * nearest
        return score


def _plot_candidates(state: VV5State, ship: Ship) -> tuple[list[Manoeuvre], Manoeuvre | None]:
    """The plots greedy weighs for ``ship``, with the scenario's planned plot (if any) among them.

    Every turn of up to three hexsides either way with every thrust the ship has; under the honour rule
    also the plots that keep it on the board, which a tight turn alone may miss.
    """
    rotations, thrust = turn_allowance(ship)
    candidates: list[Manoeuvre] = []
    for turns in range(0, min(rotations, 3) + 1):
        for way in ("L", "R") if turns else ("",):
            for g in range(thrust + 1):
                steps = [way] * turns + ([str(g)] if g else [])
                candidates.append(Manoeuvre(tuple(steps)))
    if honour_binds(state):  # the honour rule: look wider for a plot that stays on the board
        candidates += [m for m in on_board_plots(state, ship) if m not in candidates]
    planned = planned_plot(state, ship)
    if planned is not None and planned not in candidates:
        candidates.append(planned)
    return candidates, planned
