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
  away from incoming missiles, closing the range (but not so fast on an
  enemy that the two pass through each other's gun range), never leaving
  the board or ending on a rock, and keeping its speed in hand; between
  ends worth about the same, not where a ship plotted before it ends.
* Leaving: a ship leaves the board where its scenario scores it (a carrier
  by its run's edge, a prize taken home); a ship of a run carrying nothing
  leaves only when that wins the run (the last of its side, ahead).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import replace
from functools import cache, lru_cache
from typing import Any

from vectorwar.hexes import Arc, Direction, Hex
from vectorwar.rules import Order
from vectorwar.systems.vv5 import buying, invasion_tactics, placing
from vectorwar.systems.vv5.arcs import GUN_ARCS, MISSILE_ARC, in_arc
from vectorwar.systems.vv5.combat import (
    GUN_RANGE,
    MISSILE_RANGE,
    gun_modifier,
    gun_modifier_on,
    gun_to_hit,
    guns_facing,
    missile_to_hit,
    p_at_least,
)
from vectorwar.systems.vv5.honour import honour_binds, honourable, on_board_plots, plotted_end
from vectorwar.systems.vv5.movement import board_cells, open_cells, plan, turn_allowance
from vectorwar.systems.vv5.orders import DeclareOrder, Gunfire, Launch, Launches, Manoeuvre, Plot, Shot
from vectorwar.systems.vv5.shock import forced
from vectorwar.systems.vv5.specials import boarding, pirates
from vectorwar.systems.vv5.specials.cargo_runs import carries, steer
from vectorwar.systems.vv5.state import (
    BoardingState,
    CargoRunState,
    InvasionState,
    PirateState,
    PodState,
    Ship,
    VV5State,
)
from vectorwar.systems.vv5.targeting import launch_allowed, shot_allowed
from vectorwar.systems.vv5.victory import victory_points
from vectorwar.vectors import Velocity


def objective_score(state: VV5State, ship: Ship, end: Hex, facing: Direction, velocity: Velocity) -> float:
    """Pull toward the scenario's objective, as its special rules state it."""
    speed = velocity.speed
    if isinstance(state.special, CargoRunState):
        pull = steer(state, ship, end, speed)
        if pull > 0 and not state.map.contains(end) and not carries(ship) and not _leaving_wins(state, ship):
            return 0.0  # an empty-handed ship off by the run's edge scores nothing: it stays and fights
        return pull
    if isinstance(state.special, PirateState):
        return pirates.objective(state, ship, end, speed)
    if isinstance(state.special, InvasionState):
        return invasion_tactics.objective(state, ship, end, facing, velocity)
    if isinstance(state.special, BoardingState):
        return boarding.boarding_objective(state, ship, end, speed) + _homeward(
            state, state.special, ship, end, velocity
        )
    pod = state.special
    if not isinstance(pod, PodState):
        return 0.0
    if pod.holder == ship.id:
        corner = dict(pod.corners)[ship.side]
        if not state.map.contains(end):
            # Off the board with the pod: a win near home, a draw elsewhere.
            return 1100.0 if end.distance(corner) <= pod.exit_radius else 900.0
        # Facing home too: a holder turned away would otherwise never turn (a turn alone brings it no nearer).
        return -0.5 * end.distance(corner) - 0.25 * end.neighbour(facing).distance(corner)
    if pod.holder:
        holder = state.ship(pod.holder)
        return -0.2 * end.distance(holder.hex) if holder.side != ship.side else 0.0
    if "traction" in ship.loadout:
        here = _tug_pull(pod.pod, end.q, end.r, velocity.dq, velocity.dr)
        return here + LOOK_AHEAD * _tug_next(state, ship, pod.pod, end, facing, velocity)
    return 0.0


#: What the best of a tug's next plots counts for beside where this one ends: less than the whole, or a tug that
#: could grab the pod this turn would as soon put it off to the next, and do so every turn.
LOOK_AHEAD = 0.5


def _tug_pull(pod: Hex, q: int, r: int, vq: int, vr: int, facing: Direction | None = None) -> float:
    """How well placed a tug ending at ``(q, r)`` with velocity ``(vq, vr)`` is to grab the free pod; with its
    ``facing``, also how near its nose is to the way it must burn to get the velocity it wants."""
    dq, dr = pod.q - q, pod.r - r
    distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
    speed = (abs(vq) + abs(vr) + abs(vq + vr)) // 2
    grab = (6 - speed) / 6 if distance == 1 and speed < 6 else 0.0
    # Arrive slowly (a grab needs a die roll over the velocity), but keep moving until next to the pod: a tug
    # held to a standstill two hexes off could not close without paying more in speed than the hex gained.
    wanted = 0 if distance <= 1 else max(1, min(4, (distance - 1) // 2))
    # The speed wanted is toward the pod: the velocity is judged by how far it is from that, so speed the wrong
    # way counts against it (judged by its size alone, a tug flying away at the wanted speed scored as well as
    # one coming in, and kept burning on; Stasis Pod, greedy seed 36 with a tug down to 1 G).
    eq, er = (round(dq * wanted / distance), round(dr * wanted / distance)) if wanted else (0, 0)
    eq, er = eq - vq, er - vr  # the burn that would give it the velocity wanted
    miss = (abs(eq) + abs(er) + abs(eq + er)) // 2
    pull = 6.0 * grab - 0.4 * distance - 0.6 * miss
    if facing is None or not miss:
        return pull
    # A tug of one hexside a turn needs three turns to come about, beyond any look-ahead: its nose is judged by the
    # hexsides it must still turn to burn the right way (seed 24: a tug with 1 G and one hexside a turn drifted
    # off nose first for ten turns, as no single turn showed it anything).
    return pull - 0.2 * _hexsides_to_burn(facing, eq, er)


@lru_cache(maxsize=1 << 12)
def _hexsides_to_burn(facing: Direction, dq: int, dr: int) -> int:
    """The hexsides a ship heading ``facing`` must turn to burn the way of ``(dq, dr)`` (not zero), to the
    nearest heading (kept by those: the same few burns come up plot after plot)."""
    x, y = dq + dr / 2, dr * 0.8660254037844386  # on the page, a hex across
    way = max(Direction, key=lambda d: x * _PAGE[d][0] + y * _PAGE[d][1])
    apart = abs(facing - way)
    return min(apart, 6 - apart)


#: Each heading's step on the page (x right, y down), for the nearest heading to a way.
_PAGE: tuple[tuple[float, float], ...] = tuple(
    (d.delta[0] + d.delta[1] / 2, d.delta[1] * 0.8660254037844386) for d in Direction
)


def _tug_next(state: VV5State, ship: Ship, pod: Hex, end: Hex, facing: Direction, velocity: Velocity) -> float:
    """The best pull the tug's next plot can reach from this end, heading and velocity.

    A tug that comes in fast and misses its grab drifts past the pod facing away; it can brake only with its
    nose turned back, which takes it turns. Judged by where it ends alone, turning then scores nothing (a turn
    moves it no nearer), so it flew on for some twenty turns (Stasis Pod, greedy seed 33). Looking a plot
    further, a heading that lets the next burn bring it back scores what that burn reaches."""
    rotations, thrust = turn_allowance(ship)
    cells = board_cells(state.map.sections)
    best = OFF_BOARD
    for _, heading, tq, tr, _, _, _ in _turns_and_burns(facing, min(rotations, 3), thrust):
        nq, nr = velocity.dq + tq, velocity.dr + tr
        q, r = end.q + nq, end.r + nr
        if (q, r) in cells:
            best = max(best, _tug_pull(pod, q, r, nq, nr, heading))
    return best


def _homeward(state: VV5State, b: BoardingState, ship: Ship, end: Hex, velocity: Velocity) -> float:
    """A carrier of the derelict's log judged also by where its drift takes it next turn.

    The boarding pull draws it toward its home corner by where it ends only; a slow transport that comes in
    fast then cannot turn or brake, and overshoots the corner off the board far from home (a draw). Drifting
    off within reach of home wins, so there the bot's fear of drifting off is cancelled."""
    corner = dict(b.corners).get(ship.side)
    if corner is None or ship.side not in b.log or ship.id not in b.carriers or not state.map.contains(end):
        return 0.0
    drift = end.shifted(velocity.dq, velocity.dr)
    if state.map.contains(drift):
        return -1.0 * drift.distance(corner)
    if drift.distance(corner) <= b.exit_radius:
        return 3.0 + velocity.speed
    return -20.0 - drift.distance(corner)


def _leaving_wins(state: VV5State, ship: Ship) -> bool:
    """Whether ``ship``, carrying nothing across, wins the run by leaving: the last of its side on the board
    (the run ends when the crossing side has none left), its side ahead on points.

    Leaving earlier scores nothing: an escort stays with the run, and with nothing left to escort it is still
    worth the points it can shoot down; a side behind on points that leaves has lost."""
    return _last_of_side(state, ship) and _ahead(state, ship.side)


def _last_of_side(state: VV5State, ship: Ship) -> bool:
    return all(s.id == ship.id for s in state.ships_of(ship.side))


def _ahead(state: VV5State, side: str) -> bool:
    """Whether ``side`` leads every other side on victory points."""
    points = victory_points(state)
    mine = points.get(side, 0)
    return all(mine > v for other, v in points.items() if other != side)


def planned_plot(state: VV5State, ship: Ship) -> Manoeuvre | None:
    """A scenario's multi-turn plan for this ship (a transport's rendezvous), which the bot then favours.

    A transport waits out of the derelict's platforms' reach while its side has another ship to silence them, or
    leads on points (the clock then wins for it); the last of its side and not ahead, it goes in under their fire,
    as waiting can only lose."""
    if isinstance(state.special, BoardingState):
        wait = not _last_of_side(state, ship) or _ahead(state, ship.side)
        return boarding.planned_plot(state, ship, wait=wait)
    return None


def purchase(state: VV5State, side: str) -> buying.Buy:
    """The buy: what the scenario's objective needs where it says, else the most tons in the fewest ships."""
    if isinstance(state.special, InvasionState):
        return invasion_tactics.buy(state, side)
    return buying.greedy_buy(state, side)


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


#: What ending where a ship of the side plotted before it ends costs a plot: the two collide and one is knocked
#: aside, off the board at an edge (greedy v greedy, five seeds of every VV5 scenario: 110 such collisions in 130
#: games). Measured, not reasoned: at 2.0, an enemy's hex's cost, 4 were left but greedy was not stronger
#: (``sprt.py greedy@d933e76 greedy`` on six scenarios: 190 won, 38 drawn, 204 lost, H0); at 0.5, a tie-break
#: between ends worth about the same, 17 are left and it is no weaker (797-156-799, H1 at elo0 -10, elo1 0).
FRIEND_COLLISION = 0.5

#: A plot scored this low ends off the board or on a rock, and nothing its scenario pays makes up for it.
OFF_BOARD = -500.0
PLAN_BONUS = 30.0  # enough to outweigh the one-turn gun and arc terms, not the board edge or a rock


def target_weight(state: VV5State, side: str, target: Ship) -> float:
    """How much a target is worth shooting (0: leave it alone, e.g. a derelict still to be boarded)."""
    if isinstance(state.special, BoardingState):
        return boarding.target_weight(state, side, target)
    return 1.0


class GreedyBot:
    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        if not isinstance(state, VV5State):
            raise TypeError("this GreedyBot plays VV5 states")
        if state.phase == "purchase":
            return purchase(state, side)
        if state.phase == "place":
            return placing.greedy_place(state, side, rng)
        if state.phase == "choose-order":
            others = tuple(s for s in state.sides_in_play() if s != side)
            return DeclareOrder((*others, side))
        if state.phase == "missiles":
            return self.launches(state, side)
        if state.phase == "guns":
            return self.gunfire(state, side)
        due = [s for s in state.ships_of(side) if state.phase == "plot" or s.id in state.ace_replot]
        # Each ship knows where the ships plotted before it will end, and keeps out of those hexes: two ships
        # ending in one hex collide, and the loser is knocked aside, off the board at an edge.
        plots: list[tuple[str, Manoeuvre]] = []
        taken: set[tuple[int, int]] = set()
        for ship in due:
            move = self._plot(state, ship, rng, frozenset(taken))
            plots.append((ship.id, move))
            taken.add(_end_of(ship, move))
        return Plot(tuple(plots))

    @staticmethod
    def launches(state: VV5State, side: str) -> Launches:
        out: list[Launch] = []
        # Chance that none of the missiles already launched this turn at a target hits it.
        missed: dict[str, float] = {}
        weighed = isinstance(state.special, BoardingState)  # elsewhere every target weighs 1
        for ship in state.ships_of(side):
            if not ship.missiles_ready:
                continue
            best: tuple[float, float, str] | None = None
            for target in state.enemies_of(side):
                weight = target_weight(state, side, target) if weighed else 1.0
                if not weight or not launch_allowed(state, ship, target):
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
    def gunfire(state: VV5State, side: str) -> Gunfire:
        shots: list[Shot] = []
        weighed = isinstance(state.special, BoardingState)  # elsewhere every target weighs 1
        for ship in state.ships_of(side):
            for mount in ship.mounts:
                if mount.guns.boxes == 0:
                    continue
                best: tuple[float, str] | None = None
                for target in state.enemies_of(side):
                    weight = target_weight(state, side, target) if weighed else 1.0
                    if not weight or not shot_allowed(state, ship, mount.arc, target):
                        continue
                    need = gun_to_hit(ship.hex.distance(target.hex)) or 13
                    p = p_at_least(need - gun_modifier(mount.guns.boxes, target)) * weight
                    if best is None or p > best[0]:
                        best = (p, target.id)
                if best is not None:
                    shots.extend(Shot(ship.id, mount.arc, mount.guns.boxes, best[1]) for _ in range(2))
        return Gunfire(tuple(shots))

    def _plot(
        self, state: VV5State, ship: Ship, rng: random.Random, friends: frozenset[tuple[int, int]] = frozenset()
    ) -> Manoeuvre:
        panic = forced(state, ship)  # optional rule Shock: a panicked ship has no choice
        if panic is not None:
            return panic
        candidates, planned = _plot_candidates(state, ship)
        sights = Sights(state, ship, friends)
        incoming = sum(1 for m in state.incoming if m.target == ship.id)

        def weigh(found: list[Candidate]) -> list[float]:
            if state.special is None and not incoming and planned is None:  # the ends' scores and the fuel alone
                return sights.scores(found, ship.velocity, fuel=True)
            return _weighed(state, ship, found, sights.scores(found, ship.velocity), incoming, planned)

        scores = weigh(candidates)
        top = max(scores)
        if top <= OFF_BOARD:
            # Every turn-then-burn ends off the board (or on a rock), and leaving scores nothing: look wider, as
            # the honour rule does, for a plot that keeps the ship on (a burn split around a turn).
            seen = {c[0] for c in candidates}
            wider = [_candidate(ship.facing, m) for m in on_board_plots(state, ship) if m not in seen]
            candidates = [*candidates, *wider]
            scores += weigh(wider)
            top = max(scores)
        cut = top - 1e-9
        best = [c[0] for c, s in zip(candidates, scores, strict=True) if s >= cut]
        return honourable(state, ship, rng.choice(best), rng)


def _weighed(
    state: VV5State, ship: Ship, found: list[Candidate], ends: list[float], incoming: int, planned: Manoeuvre | None
) -> list[float]:
    """Each candidate's score from its end's (:meth:`Sights.scores`): the scenario's pull toward its objective,
    thrust against the missiles coming, the fuel it burns and the scenario's plan, added in that order."""
    dodging = 0.6 * incoming  # each G of thrust is worth this much against the missiles coming (often none)
    plain = state.special is None  # no objective to pull toward (objective_score is 0)
    (q0, r0), (vq, vr) = (ship.hex.q, ship.hex.r), (ship.velocity.dq, ship.velocity.dr)
    scores: list[float] = []
    for (move, facing, dq, dr, _, thrust, fuel), score in zip(found, ends, strict=True):
        if not plain:
            nq, nr = vq + dq, vr + dr
            velocity = Velocity(nq, nr, ship.velocity.dz)
            score += objective_score(state, ship, Hex(q0 + nq, r0 + nr), facing, velocity)
        if incoming:  # (adding nothing changes no score)
            score += dodging * thrust
        score -= fuel
        if planned is not None and move == planned:
            score += PLAN_BONUS
        scores.append(score)
    return scores


#: One enemy as a plotting ship sees it: where its marker puts it, and for each of the two ships' working gun
#: mounts (in mount order) the offsets its arc covers (the enemy's: the offsets from the ship to it) and what a
#: gun there is worth by range.
Sight = tuple[
    int,
    int,
    tuple[tuple[tuple[frozenset[tuple[int, int]], ...], tuple[float, ...]], ...],
    tuple[tuple[frozenset[tuple[int, int]], tuple[float, ...]], ...],
]

#: In a battle with no objective but the fight (no special rules: the Dogfights), once neither of two ships has a
#: missile ready, within this range of each other (two turns of closing at most) the speed of one against the
#: other counts, not only its speed over the board: above ``PASSING_SPEED`` a hex a turn the two pass through
#: each other's gun range between two gunfire phases, and guns are all they have left. Both conditions are
#: measured: counted while missiles are ready, it cost greedy its first passes (-50 Elo or so in the Dogfights
#: against greedy without it: the missiles' reach makes a fast approach pay); counted where a scenario's
#: objective pulls the ships (runs, pods, boardings, the starship), it cost greedy there too (seven two-side
#: scenarios: 308 games, 125 won, 41 drawn, 142 lost against 944a747), the objective's pull setting the pace.
CLOSING_RANGE = 2 * GUN_RANGE
PASSING_SPEED = 4


class Sights:
    """What greedy weighs an end of ``ship``'s move by, worked out once for all its candidate plots: each enemy
    worth shooting with the ship's and the enemy's guns as tables read by offset and range.

    The ship's arcs are tabled for every heading (each candidate plot ends facing its own way); the enemy's
    for its present heading. Each entry holds exactly the number :meth:`scores` adds for a gun bearing at
    that range, so a plot scores the same as gun by gun.
    """

    __slots__ = ("cells", "closing", "crowded", "enemies", "missiles", "standable", "start_q", "start_r")

    def __init__(self, state: VV5State, ship: Ship, friends: frozenset[tuple[int, int]] = frozenset()) -> None:
        #: What ending where a ship of the side plotted before this one ends costs, by axial pair: a collision.
        self.crowded = dict.fromkeys(friends, FRIEND_COLLISION)
        self.cells = board_cells(state.map.sections)  # the board's hexes as axial pairs
        self.standable = open_cells(state.map)  # those with no rock
        self.start_q, self.start_r = ship.hex.q, ship.hex.r
        self.missiles = _MISSILE_OFFSETS if ship.missiles_ready else _NO_OFFSETS
        own = _working(ship)
        self.enemies: list[Sight] = []
        #: The enemies the ship's speed against counts for (:data:`CLOSING_RANGE`): marker and velocity.
        self.closing: list[tuple[int, int, int, int]] = []
        weighed = isinstance(state.special, BoardingState)  # elsewhere every enemy is worth shooting
        plain = state.special is None  # a battle with no objective but the fight (:data:`CLOSING_RANGE`)
        mass, can_accelerate = ship.mass, ship.can_accelerate
        for enemy in state.enemies_of(ship.side):
            if weighed and not target_weight(state, ship.side, enemy):
                continue
            mine = _my_sight(own, enemy.mass, enemy.can_accelerate)
            theirs = _their_sight(_working(enemy), enemy.facing, mass, can_accelerate)
            # Where its vector marker is (``vector_marker``), in whole numbers.
            wq, wr = enemy.hex.q + enemy.velocity.dq, enemy.hex.r + enemy.velocity.dr
            self.enemies.append((wq, wr, mine, theirs))
            if plain and not ship.missiles_ready and not enemy.missiles_ready:
                self.closing.append((wq, wr, enemy.velocity.dq, enemy.velocity.dr))

    def scores(self, candidates: Iterable[Candidate], velocity: Velocity, fuel: bool = False) -> list[float]:
        """How good the end of each candidate plot is, the ship's ``velocity`` changed by the plot: guns bearing
        on the enemies' next places and theirs on it, a missile shot, the range, the speed over the board and
        against an enemy near, and the board's edge and rocks; less the fuel the plot burns where ``fuel`` says
        (the last term added). One loop over the plots (some 16 a ship), not a call for each.

        The speed against an enemy (in a plain battle once neither has a missile ready: :data:`CLOSING_RANGE`)
        costs as the speed over the board does, 0.3 a hex a turn above ``PASSING_SPEED``: judged by the range
        alone, two ships closing each burn at the other and meet at 7 or 8 hexes a turn, from out of range to
        past each other between two gunfire phases; with forward guns and one hexside a turn neither then bears
        again for turns (Dogfight, buying your fighters, greedy seed 28: the last two fighters passed on turn 13
        and never fired again)."""
        cells, standable, enemies, missiles = self.cells, self.standable, self.enemies, self.missiles
        closing, crowded = self.closing, self.crowded
        q0, r0, vq, vr = self.start_q, self.start_r, velocity.dq, velocity.dr
        out: list[float] = []
        for _, facing, tq, tr, _, _, burnt in candidates:
            # The end of the move, ``hex + velocity`` after the plot, and its speed, in whole numbers.
            nq, nr = vq + tq, vr + tr
            q, r = q0 + nq, r0 + nr
            if (q, r) not in standable:  # off the board or on a rock
                out.append(-1000.0 - burnt if fuel else -1000.0)
                continue
            speed = (abs(nq) + abs(nr) + abs(nq + nr)) // 2
            score = -crowded.get((q, r), 0.0)
            if (q + nq, r + nr) not in cells:  # where the drift takes it next
                score -= 3.0 + speed
            if speed > 4:  # (at 4 or less the term is nothing)
                score -= 0.3 * (speed - 4)
            nearest = 99
            aim = missiles[facing]
            for wq, wr, mine, theirs in enemies:
                dq, dr = wq - q, wr - r
                distance = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
                if distance < nearest:
                    nearest = distance
                if not distance:
                    score -= 2.0  # a collision is a coin toss
                    continue
                if distance <= GUN_RANGE:
                    offset = (dq, dr)
                    for arcs, terms in mine:
                        if offset in arcs[facing]:
                            score += terms[distance]
                    for arc, terms in theirs:
                        if offset in arc:
                            score -= terms[distance]
                    if offset in aim:
                        score += 0.3
                elif distance <= MISSILE_RANGE and (dq, dr) in aim:
                    score += 0.3
            if closing:  # (most plots: none)
                score -= _closing_cost(closing, q, r, nq, nr)
            if nearest < 99:
                score -= 0.08 * nearest
            out.append(score - burnt if fuel else score)
        return out


def _closing_cost(closing: list[tuple[int, int, int, int]], q: int, r: int, nq: int, nr: int) -> float:
    """What an end at ``(q, r)`` with velocity ``(nq, nr)`` loses for its speed against each enemy of ``closing``
    (marker and velocity) within :data:`CLOSING_RANGE` of it: 0.3 a hex a turn above ``PASSING_SPEED``."""
    cost = 0.0
    for wq, wr, evq, evr in closing:
        dq, dr = wq - q, wr - r
        if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= CLOSING_RANGE:
            xq, xr = nq - evq, nr - evr
            speed = (abs(xq) + abs(xr) + abs(xq + xr)) // 2
            if speed > PASSING_SPEED:
                cost += 0.3 * (speed - PASSING_SPEED)
    return cost


def _working(ship: Ship) -> tuple[tuple[str, int], ...]:
    """Each of the ship's gun mounts with guns working: its arc and its guns."""
    return tuple([(m.arc, m.guns.boxes) for m in ship.mounts if m.guns.boxes])


@lru_cache(maxsize=1 << 10)
def _my_sight(
    own: tuple[tuple[str, int], ...], mass: int, can_accelerate: bool
) -> tuple[tuple[tuple[frozenset[tuple[int, int]], ...], tuple[float, ...]], ...]:
    """A :data:`Sight`'s own guns: each working mount's offsets by heading and its worth by range at an enemy of
    ``mass`` tons that can accelerate or not (kept by those, the same for every ship of a design)."""
    return tuple(
        (_GUN_OFFSETS[arc], _gun_terms(guns, gun_modifier_on(guns, mass, can_accelerate))) for arc, guns in own
    )


@lru_cache(maxsize=1 << 10)
def _their_sight(
    theirs: tuple[tuple[str, int], ...], facing: Direction, mass: int, can_accelerate: bool
) -> tuple[tuple[frozenset[tuple[int, int]], tuple[float, ...]], ...]:
    """A :data:`Sight`'s enemy guns: each of its working mounts' offsets at its heading ``facing`` and what it
    costs by range, at a ship of ``mass`` tons that can accelerate or not."""
    return tuple(
        (_GUN_BEARINGS[arc][facing], _threat_terms(guns, gun_modifier_on(guns, mass, can_accelerate)))
        for arc, guns in theirs
    )


def _offsets(arc: Arc, facing: Direction, reach: int) -> frozenset[tuple[int, int]]:
    """The offsets ``(dq, dr)`` from 1 to ``reach`` hexes away that ``arc`` covers for a ship heading ``facing``."""
    origin = Hex(0, 0)
    return frozenset((h.q, h.r) for h in origin.within(reach) if in_arc(arc, origin, facing, h))


_GUN_OFFSETS: dict[str, tuple[frozenset[tuple[int, int]], ...]] = {
    name: tuple(_offsets(arc, facing, GUN_RANGE) for facing in Direction) for name, arc in GUN_ARCS.items()
}
#: No offset at any heading (a ship with no missile ready aims none).
_NO_OFFSETS: tuple[frozenset[tuple[int, int]], ...] = tuple(frozenset() for _ in Direction)
#: The same arcs seen from the other end: the offsets from a target to a ship heading each way whose mount's arc
#: covers the target (an enemy's guns, looked up by the offset from the end weighed to the enemy).
_GUN_BEARINGS: dict[str, tuple[frozenset[tuple[int, int]], ...]] = {
    name: tuple(frozenset((-dq, -dr) for dq, dr in arc) for arc in arcs) for name, arcs in _GUN_OFFSETS.items()
}
_MISSILE_OFFSETS: tuple[frozenset[tuple[int, int]], ...] = tuple(
    _offsets(MISSILE_ARC, facing, MISSILE_RANGE) for facing in Direction
)


#: The gun table's number at each range from 1 to ``GUN_RANGE``.
_GUN_NEEDS: tuple[int, ...] = tuple(n for n in (gun_to_hit(d) for d in range(1, GUN_RANGE + 1)) if n is not None)


@cache
def _gun_terms(guns: int, modifier: int) -> tuple[float, ...]:
    """What ``guns`` guns bearing on an enemy are worth to a plot, by range (index 0 unused)."""
    return (0.0, *(2 * guns * p_at_least(need - modifier) for need in _GUN_NEEDS))


@cache
def _threat_terms(guns: int, modifier: int) -> tuple[float, ...]:
    """What an enemy's ``guns`` guns bearing on the ship cost a plot, by range (index 0 unused)."""
    return (0.0, *(1.6 * guns * p_at_least(need - modifier) for need in _GUN_NEEDS))


#: A plot greedy weighs, with what it does from the ship's heading: the heading after it, the change of
#: velocity ``(dq, dr)``, its rotations, its G and what burning them costs its score (saving fuel for later).
Candidate = tuple[Manoeuvre, Direction, int, int, int, int, float]


def _plot_candidates(state: VV5State, ship: Ship) -> tuple[list[Candidate], Manoeuvre | None]:
    """The plots greedy weighs for ``ship``, with the scenario's planned plot (if any) among them.

    Every turn of up to three hexsides either way with every thrust the ship has; under the honour rule
    also the plots that keep it on the board, which a tight turn alone may miss.
    """
    rotations, thrust = turn_allowance(ship)
    candidates = list(_turns_and_burns(ship.facing, min(rotations, 3), thrust))
    extra: list[Manoeuvre] = []
    if honour_binds(state):  # the honour rule: look wider for a plot that stays on the board
        extra += on_board_plots(state, ship)
    planned = planned_plot(state, ship)
    if planned is not None:
        extra.append(planned)
    if extra:
        seen = {c[0] for c in candidates}
        for move in extra:
            if move not in seen:
                seen.add(move)
                candidates.append(_candidate(ship.facing, move))
    return candidates, planned


def _end_of(ship: Ship, move: Manoeuvre) -> tuple[int, int]:
    """Where ``ship`` ends after ``move`` (:func:`~.honour.plotted_end`), as the axial pair the sights key ends by."""
    end = plotted_end(ship, move)
    return end.q, end.r


def _candidate(facing: Direction, move: Manoeuvre) -> Candidate:
    heading, change = plan(facing, Velocity(), move)
    return move, heading, change.dq, change.dr, move.turns, move.thrust, 0.01 * (move.turns + move.thrust)


@cache
def _turns_and_burns(facing: Direction, rotations: int, thrust: int) -> tuple[Candidate, ...]:
    """Every turn of up to ``rotations`` hexsides one way, then every thrust up to ``thrust``, from ``facing``:
    the same for every ship with that heading and allowance."""
    found: list[Candidate] = []
    for turns in range(0, rotations + 1):
        for way in ("L", "R") if turns else ("",):
            for g in range(thrust + 1):
                found.append(_candidate(facing, Manoeuvre(tuple([way] * turns + ([str(g)] if g else [])))))
    return tuple(found)
