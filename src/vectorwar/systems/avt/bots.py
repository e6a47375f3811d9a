"""The ``greedy`` AV:T computer player.

Each segment, for each of its ships, it looks at the nearest enemy ship and
decides three things from what the board shows (positions, vectors, the
public thrust setting and burn, orientation and any facing change under
way; never dice, the other side's orders or its damage record):

* **Movement** is a steering rule on the two ships' *effective* velocities
  (vectors plus the dots of the burn under way, which join the vectors when
  the burn breaks). It wants the enemy to close at the speed from which the
  ship can still stop at the standoff range (well inside point blank, 0-10
  for the 3 MRLS) and to match the enemy's drift across the line between
  them. The difference between that and the relative velocity now is the
  velocity change it needs. When that is large it pivots its nose toward it
  (the reachable window whose thrust points most nearly that way, the AVID's
  angled burns included; near the enemy, windows that also keep lasers
  bearing are preferred) and burns; braking is the same rule, so it turns
  around rather than fly past. Ships and their future positions are
  predicted segment by segment from these velocities and the thrust set.
  When the change needed is small, or the enemy will stay within the close
  band (1-9 hexes) for the next turn anyway, it cuts the engine and pivots
  to the orientation that brings the most lasers to bear, and the thickest
  armour to face, where the enemy will be when the pivot is done. A burn
  under way continues down to a smaller change than starts one
  (hysteresis), so it does not chatter between the two.
* **Fire** is by volleys: one ship's lasers that hit a ship in a segment
  make one pool (option ``laser_pools``), and the struck region's armour and
  the soak roll are taken from each pool once, so a volley of five does far
  more than five single shots. It fires every ready laser that bears, as
  the batteries allow, when the volley's expected damage beyond armour and
  an average soak is worth a few points and at least what waiting up to
  three segments for more lasers (cooling, A5.371), battery power (A5.372),
  a closer range or a pivot under way would bring, discounted for each
  segment waited. On a boundary it aims at the thinner armour, then the
  shallower hull (A5.431).
* **Power and heat**: in a fight (an enemy within the lasers' 30 hexes)
  the reactors stay on, since without them a ship fires one battery's worth
  and then a laser every few segments; heat beyond the heat sinks is
  recorded as excess, whose only effect in the rules so far is that a hit
  heat sink explodes. Out of a fight the reactors run only to fill the
  batteries, and never past the heat sinks' capacity. Radiators stay in:
  extending them is the surrender signal (A5.391).

* **Targets** (the tutorial's chocolates): with no enemy ship left it closes
  on the nearest target by the same movement rule and, for each target, fires
  the fewest ready lasers that give about the best chance of putting its
  toughness into it in one segment (:func:`eat_chance`), when that chance is
  fair and waiting would not raise it.
* **The turn limit**: no volley past the game's last segment is waited for,
  and on that segment any volley expected to get past the armour fires.

It plays through the same order API as a person: a
:class:`~.orders.SegmentOrders` that :meth:`.rules.AttackVector.check_order`
accepts. It uses no randomness, so it is deterministic whatever its random
source.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from vectorwar.errors import IllegalOrderError
from vectorwar.hexes import Position
from vectorwar.rules import Order
from vectorwar.systems.avt.arcs import map_to_arc, middle_row
from vectorwar.systems.avt.armour import struck
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.systems.avt.avid import ALL_WINDOWS, Window, marker_for_offset
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.fire import affordable, aim_choices, d_mode, full_volley, marker_between, shot_problem
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.lasers import TABLES, max_range
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders, Shot
from vectorwar.systems.avt.orientation import (
    Chart,
    Orientation,
    orientation_number,
    pivot_path,
    pivot_paths,
    schedule,
    wedges,
)
from vectorwar.systems.avt.ssd import (
    laser_state,
    ship_battery_capacity,
    ship_heat_capacity,
    ship_reactor_power,
    thrust_limit,
)
from vectorwar.systems.avt.state import HEAT_TENTHS, AVTState, Ship, absolute
from vectorwar.systems.avt.thrust import thrust_heading
from vectorwar.vectors import Velocity

Vec = tuple[float, float, float]

_ROOT3_2 = math.sqrt(3.0) / 2.0
#: Segments in a turn, as a float for the kinematics.
_SEG = 8.0
#: The mean of a 2d10- soak roll (the larger d10 less the smaller): 3.3.
MEAN_SOAK = 3.3
#: Range the greedy player closes to and holds, well inside the 3 MRLS's point-blank bracket (0-10).
STANDOFF = 5.0
#: Distances (hexes) it is content to drift within rather than burn to hold the standoff exactly.
CLOSE_BAND = (1.0, 9.0)
#: The share of its acceleration it counts on for braking, for a margin.
BRAKING = 0.8
#: Relative speed (hexes a turn) below which drifting within the close band needs no burn.
SETTLED_SPEED = 3.0
#: Near the enemy, what each laser bearing adds to a burn direction's alignment (a cosine) when choosing it.
BEARING_WEIGHT = 0.1
#: Closing speed (hexes a turn) it will not exceed however far away the enemy is.
MAX_CLOSING = 12.0
#: The share of the fuel left it counts on when capping a closing speed, and the speed it always allows.
FUEL_MARGIN = 0.8
MIN_CLOSING = 1.0
#: Distance (hexes) within which the two ships share a space, and the speed it then moves apart at.
SAME_SPACE = 0.5
SEPARATION = 4.0
#: Velocity change (hexes a turn) that starts a burn, and the one that keeps a burn going.
START_BURN = 3.0
KEEP_BURN = 1.5
#: Expected damage past the skin below which a volley is not worth its power and cooling.
MIN_NET = 3.0
#: Segments ahead it compares a volley now with. Waiting longer for a bigger volley lets the enemy's fire land
#: first: against `random`, 3 won more duels than 8 (the full cooling time, A5.371); docs/rules/avt-bots.md.
WAIT = 3
#: Enemy distance (hexes) within which the reactors stay on: the 3 MRLS's longest range.
FIGHTING_RANGE = 30.0
#: How much a point of skin armour turned toward the enemy counts against one more laser bearing on it.
ARMOUR_WEIGHT = 1.5
#: What a laser bearing counts again when it will be cool once the pivot is done: between volleys the ship turns
#: fresh lasers to the enemy, so a ship whose bearing lasers are cooling still fires (greedy v greedy Rafik duels
#: drawn at the turn limit: 13 of 100 without it, 9 with it; docs/rules/avt-bots.md).
FRESH_WEIGHT = 1.0
#: What a volley's worth is kept for each segment it waits: the enemy may move, turn or fire first.
PATIENCE = 0.93
#: A target volley's chance of eating it below which the lasers are kept for a better one.
MIN_EAT = 0.3


def _add(a: Vec, b: Vec) -> Vec:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def _sub(a: Vec, b: Vec) -> Vec:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def _scale(a: Vec, k: float) -> Vec:
    return (a[0] * k, a[1] * k, a[2] * k)


def _dot(a: Vec, b: Vec) -> float:
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def _norm(a: Vec) -> float:
    return math.sqrt(_dot(a, a))


def _unit(a: Vec) -> Vec:
    n = _norm(a)
    return _scale(a, 1.0 / n) if n > 1e-12 else (0.0, 0.0, 0.0)


def _flat(dq: float, dr: float, dz: float) -> Vec:
    """Axial hex offsets (and levels) as a vector in hexes: x toward B/C, y toward A, z up."""
    return (dq * _ROOT3_2, -dr - dq / 2.0, dz)


def _where(position: Position) -> Vec:
    return _flat(position.hex.q, position.hex.r, position.altitude)


def _arrow(arrow: Arrow) -> Vec:
    return _ARROWS[arrow]


_ARROWS: dict[Arrow, Vec] = {a: _flat(a.velocity.dq, a.velocity.dr, a.velocity.dz) for a in Arrow}


def _velocity(v: Velocity) -> Vec:
    return _flat(v.dq, v.dr, v.dz)


def effective_velocity(ship: Ship) -> Vec:
    """Vectors plus the pending dots of the burn under way (they join the vectors when it breaks)."""
    out = _velocity(ship.velocity)
    for arrow, n in ship.chart.pending_dots().items():
        out = _add(out, _scale(_arrow(arrow), n))
    return out


def thrust_direction(nose: Window) -> Vec:
    """Velocity gained per dot of the orthogonal column with the nose in ``nose`` (angled burns included)."""
    heading = thrust_heading(nose)
    major = _scale(_add(_arrow(heading.major[0]), _arrow(heading.major[1])), 0.5)
    if heading.minor is None:
        return major
    minor = _scale(_add(_arrow(heading.minor[0]), _arrow(heading.minor[1])), 0.5)
    return _add(major, _scale(minor, 0.5))


_THRUST: dict[Window, Vec] = {w: thrust_direction(w) for w in ALL_WINDOWS}
_THRUST_UNIT: dict[Window, Vec] = {w: _unit(v) for w, v in _THRUST.items()}


@lru_cache(maxsize=4096)
def eat_chance(weapon: str, range_: int, lasers: int, toughness: int, d_chance: bool = True) -> float:
    """The chance that ``lasers`` shots at ``range_`` add up to ``toughness`` (a target eaten, A5.113)."""
    if lasers <= 0:
        return 0.0
    brackets, rows = TABLES[weapon]
    column = next((c for c, (low, high) in enumerate(brackets) if low <= range_ <= high), None)
    if column is None:
        return 0.0
    # One shot's points, capped at the toughness: beyond it nothing more is needed.
    one = [0.0] * (toughness + 1)
    for row in rows:
        text = row[column]
        if text.startswith("D"):
            chance = int(text[1:]) / 10.0 if d_chance else 0.0
            one[min(1, toughness)] += chance / len(rows)
            one[0] += (1.0 - chance) / len(rows)
        else:
            one[min(int(text), toughness)] += 1.0 / len(rows)
    total = [1.0] + [0.0] * toughness
    for _ in range(lasers):
        nxt = [0.0] * (toughness + 1)
        for have, p in enumerate(total):
            if p:
                for points, q in enumerate(one):
                    if q:
                        nxt[min(have + points, toughness)] += p * q
        total = nxt
    return total[toughness]


def expected_damage(weapon: str, range_: int, d_chance: bool = True) -> float:
    """A shot's mean damage at ``range_`` (a ``Dn`` entry scores 1 with chance n/10 under ``chance``)."""
    brackets, rows = TABLES[weapon]
    for column, (low, high) in enumerate(brackets):
        if low <= range_ <= high:
            total = 0.0
            for row in rows:
                text = row[column]
                if text.startswith("D"):
                    total += int(text[1:]) / 10.0 if d_chance else 0.0
                else:
                    total += int(text)
            return total / len(rows)
    return 0.0


@dataclass(frozen=True, slots=True)
class _Track:
    """Where a ship is and is going, as the board shows it."""

    at: Vec
    velocity: Vec
    #: Velocity gained per segment from the thrust set now (public, A5.243), along the nose.
    push: Vec

    def after(self, segments: float) -> Vec:
        turns = segments / _SEG
        # Each segment's thrust adds its dots, and the ship covers an eighth of its velocity a segment.
        return _add(_add(self.at, _scale(self.velocity, turns)), _scale(self.push, segments * segments / (2 * _SEG)))


def track(ship: Ship) -> _Track:
    push = _scale(_THRUST[ship.orientation.nose], ship.chart.setting / 4.0) if ship.chart.setting else (0, 0, 0)
    return _Track(_where(ship.position), effective_velocity(ship), (float(push[0]), float(push[1]), float(push[2])))


def _marker_between_points(state: AVTState, start: Vec, end: Vec) -> tuple[Window | None, int]:
    """The AVID window and range from one predicted point to another (rounded to hexes and levels)."""
    d = _sub(end, start)
    dq = round(d[0] / _ROOT3_2)
    dr = round(-d[1] - dq / 2.0)
    dz = round(d[2]) if state.three_d else 0
    marker = marker_for_offset(dq, dr, dz)
    return marker.window, marker.range


class GreedyBot:
    """Close to point blank, hold there, and fire volleys; deterministic (no random choices)."""

    def choose(self, state: Any, seat: str, rng: random.Random) -> Order:
        if not isinstance(state, AVTState):
            raise TypeError("the AV:T greedy player plays AV:T states")
        if state.phase != "orders":
            raise IllegalOrderError("", "the game is over", "game end")
        entries = []
        for ship in state.ships_of(seat):
            if ship.kind != "ship":
                continue
            entry = self.ship_orders(state, ship)
            if not entry.empty:
                entries.append(entry)
        return SegmentOrders(tuple(entries))

    # -- one ship ---------------------------------------------------------------

    def ship_orders(self, state: AVTState, ship: Ship) -> ShipOrders:
        design = state.designs[ship.design]
        enemies = [e for e in state.enemies_of(ship.side) if e.kind == "ship"]
        orders = ShipOrders(ship.id)
        here = _where(ship.position)
        if enemies:
            enemy = _nearest_first(enemies, here)[0]
            # Movement first: the fire decision weighs waiting for the lasers a new pivot brings to bear.
            orders = self._move(state, design, ship, enemy, orders)
            orders = self._fire(state, design, ship, enemy, orders)
            return self._power(state, design, ship, enemies, orders)
        # No enemy ship: the tutorial's chocolates (targets) are what is left to destroy. They sit still and
        # never shoot back, so the ship closes on the nearest one as it would on a ship and eats every one
        # its lasers can.
        targets = [t for t in state.enemies_of(ship.side) if t.kind == "target"]
        if targets:
            nearest = _nearest_first(targets, here)[0]
            orders = self._move(state, design, ship, nearest, orders)
            orders = self._eat(state, design, ship, targets, orders)
        return self._power(state, design, ship, targets, orders)

    # -- movement ---------------------------------------------------------------

    def needed_change(self, design: Design, ship: Ship, enemy: Ship) -> Vec:
        """The velocity change (hexes a turn) that would set the closing speed and drift the rule wants."""
        mine, theirs = track(ship), track(enemy)
        offset = _sub(theirs.at, mine.at)
        distance = _norm(offset)
        relative = _sub(theirs.velocity, mine.velocity)
        if distance < SAME_SPACE:
            # In one space no laser bears (a marker needs a window): move off along the nose, which needs no
            # pivot, at a speed that starts a burn.
            toward = _scale(_THRUST_UNIT[ship.orientation.nose], -1.0)
            return _sub(relative, _scale(toward, SEPARATION))
        toward = _unit(offset)
        # Braking starts with a turn-around: the speed from which turning round (t turns, coasting) and then
        # burning at ``accel`` (hexes a turn, per turn) stops it in the gap: v t + v^2 / 2 accel = gap.
        accel = max(1.0, design.thrust * 2.0 * BRAKING)
        t = turn_around(design)
        gap = distance - STANDOFF
        speed = accel * (math.sqrt(t * t + 2.0 * abs(gap) / accel) - t)
        closing = math.copysign(min(MAX_CLOSING, speed, self.closing_fuel_cap(ship, relative, toward)), gap)
        if gap < 0:
            closing = max(closing, -2.0)
        wanted = _scale(toward, -closing)
        return _sub(relative, wanted)

    @staticmethod
    def closing_fuel_cap(ship: Ship, relative: Vec, toward: Vec) -> float:
        """The fastest closing speed (hexes a turn) the fuel left can still brake from once there.

        Each dot of thrust burns a unit of fuel and is a hex a turn of velocity (the thrust chart). Reaching
        closing speed c from v0 costs c - v0 and stopping costs c again, after the drift across the line is matched: so
        c <= (fuel + v0) / 2, with a margin for angled burns and pivots. A chase that outruns this ends with
        the tanks dry and the enemy drifting out of reach.
        """
        along = _dot(relative, toward)
        across = _norm(_sub(relative, _scale(toward, along)))
        fuel = FUEL_MARGIN * (ship.fuel - ship.chart.fuel) - across
        return max(MIN_CLOSING, (fuel - along) / 2.0)

    def _move(self, state: AVTState, design: Design, ship: Ship, enemy: Ship, orders: ShipOrders) -> ShipOrders:
        can_burn = ship.radiators == "in" and ship.fuel - ship.chart.fuel > 0
        limit = thrust_limit(design, ship) if can_burn else 0
        need = self.needed_change(design, ship, enemy)
        size = _norm(need)
        setting = ship.chart.setting
        burning = setting > 0
        nose = ship.orientation.nose
        if (
            limit > 0
            and size > (KEEP_BURN if burning else START_BURN)
            and (burning or not self._settled(state, ship, enemy))
        ):
            aim = _unit(need)
            lined_up = _dot(_THRUST_UNIT[nose], aim)
            if ship.turning is None:
                target = self._thrust_window(state, design, ship, enemy, aim)
                if target is not None and target != nose and _dot(_THRUST_UNIT[target], aim) > lined_up + 0.05:
                    orders = replace(orders, pivot=target)
                    return self._set_thrust(orders, setting, 0 if lined_up < 0.7 else setting or limit, limit)
            if lined_up >= 0.7:
                want = limit if size > 4 else max(1, min(limit, math.ceil(size)))
                # Keep a burn's setting unless it is far off: a new setting starts its column again.
                if burning and abs(want - setting) <= 1:
                    want = setting
                return self._set_thrust(orders, setting, want, limit)
            return self._set_thrust(orders, setting, 0, limit)
        orders = self._set_thrust(orders, setting, 0, limit)
        if ship.turning is None:
            target = self._fire_window(state, design, ship, enemy)
            if target is not None:
                orders = replace(orders, pivot=target)
        return orders

    @staticmethod
    def _settled(state: AVTState, ship: Ship, enemy: Ship) -> bool:
        """Whether the enemy, drifting slowly, stays inside the close band (in range) for the next turn."""
        mine, theirs = track(ship), track(enemy)
        if _norm(_sub(theirs.velocity, mine.velocity)) > SETTLED_SPEED:
            return False
        for t in range(0, 9, 2):
            _, range_ = _marker_between_points(state, mine.after(t), theirs.after(t))
            if not CLOSE_BAND[0] <= range_ <= CLOSE_BAND[1]:
                return False
        return True

    @staticmethod
    def _set_thrust(orders: ShipOrders, setting: int, want: int, limit: int) -> ShipOrders:
        want = max(0, min(want, limit))
        return orders if want == setting else replace(orders, thrust=want)

    @staticmethod
    def _reachable(state: AVTState, design: Design, ship: Ship) -> Sequence[tuple[Window, Orientation, int, int, int]]:
        """(nose window, orientation, wedges, segments to finish, the orientation's number) of every pivot the chart
        allows, and staying put."""
        return _reachable_from(ship.orientation, state.three_d, design.pivots)

    def _thrust_window(self, state: AVTState, design: Design, ship: Ship, enemy: Ship, aim: Vec) -> Window | None:
        """The nose window to burn in: thrust along ``aim`` first, and near the enemy lasers bearing too."""
        mine, theirs = track(ship), track(enemy)
        close = _norm(_sub(theirs.at, mine.at)) <= CLOSE_BAND[1] + 4
        table = _table(design)
        alive = _lasers_alive(design, ship)
        seen_after: dict[int, _Seen | None] = {}
        best: tuple[float, Window] | None = None
        for window, orientation, n, takes, number in self._reachable(state, design, ship):
            score = _dot(_THRUST_UNIT[window], aim) - 0.02 * n
            if close and BEARING_WEIGHT:
                found = _seen_when(state, table, mine, theirs, takes, seen_after)
                if found is not None:
                    bearing = table.facing_from(found, orientation, number, state.three_d)[0]
                    score += BEARING_WEIGHT * (bearing & alive).bit_count()
            if best is None or score > best[0] + 1e-9:
                best = (score, window)
        return best[1] if best else None

    def facings(self, state: AVTState, design: Design, ship: Ship, enemy: Ship) -> list[tuple[float, Window, int]]:
        """(score, nose window, wedges) of staying put and of every pivot the chart allows, where ``enemy`` will be
        seen once it is done: the lasers bearing there (``FRESH_WEIGHT`` more for each that will be cool then),
        ``ARMOUR_WEIGHT`` a point of skin armour turned to it (the thinner region on a boundary, as the enemy's
        fire would choose), less a twentieth a wedge turned."""
        mine, theirs = track(ship), track(enemy)
        table = _table(design)
        three_d = state.three_d
        alive = _lasers_alive(design, ship)
        # Where the enemy is seen, and the lasers cool, depend on when the pivot is done alone.
        seen_after: dict[int, _Seen | None] = {}
        fresh: dict[int, int] = {}
        out: list[tuple[float, Window, int]] = []
        for window, orientation, n, takes, number in self._reachable(state, design, ship):
            found = _seen_when(state, table, mine, theirs, takes, seen_after)
            if found is None:
                continue
            bearing, armour = table.facing_from(found, orientation, number, three_d)
            count = (bearing & alive).bit_count() + ARMOUR_WEIGHT * armour
            if takes not in fresh:
                fresh[takes] = _lasers_fresh(design, ship, state.now + takes, alive)
            count += FRESH_WEIGHT * (bearing & fresh[takes]).bit_count()
            out.append((count - 0.05 * n, window, n))
        return out

    def _fire_window(self, state: AVTState, design: Design, ship: Ship, enemy: Ship) -> Window | None:
        """The pivot that brings the most lasers to bear when it is done, if it beats staying put."""
        best: tuple[float, Window] | None = None
        current = 0.0
        for score, window, n in self.facings(state, design, ship, enemy):
            if n == 0:
                current = score
            if best is None or score > best[0] + 1e-9:
                best = (score, window)
        if best is None or best[1] == ship.orientation.nose or best[0] < current + 0.5:
            return None
        return best[1]

    def pivot_choices(self, state: AVTState, ship: Ship, count: int) -> list[Window | None]:
        """The ``count`` best facings for a fight with the nearest enemy ship (:meth:`facings`), best first, as
        the pivot that turns the nose there (``None``: stay put); none without an enemy ship or while a facing
        change is under way."""
        enemies = [e for e in state.enemies_of(ship.side) if e.kind == "ship" and e.active]
        if not enemies or ship.turning is not None:
            return []
        enemy = _nearest_first(enemies, _where(ship.position))[0]
        ranked = sorted(self.facings(state, state.designs[ship.design], ship, enemy), key=lambda f: -f[0])
        return [None if n == 0 else window for _, window, n in ranked[:count]]

    # -- fire -------------------------------------------------------------------

    def _fire(self, state: AVTState, design: Design, ship: Ship, enemy: Ship, orders: ShipOrders) -> ShipOrders:
        volley = full_volley(state, design, ship, enemy)
        if not volley:
            return orders
        d_chance = d_mode(state) == "chance"
        weapon = design.mounts[design.lasers[volley[0]]].weapon
        marker = marker_between(state, ship, enemy)
        choices = aim_choices(state, ship, enemy)
        enemy_design = state.designs[enemy.design]
        ssd = enemy_design.ssd
        if ssd is None or not choices:
            return orders
        region = min(
            choices, key=lambda r: (ssd.armour[r], enemy_design.hull_depth.get(ssd.depth_kind(r), 0), choices.index(r))
        )
        armour = ssd.armour[region]
        now = self._net(len(volley) * expected_damage(weapon, marker.range, d_chance), armour)
        # The game's last segment: whatever gets through is better than lasers that never fire.
        if now < (MIN_NET if segments_left(state) else 0.0):
            return orders
        if now < self._best_later(state, design, ship, enemy, orders, weapon, armour, d_chance):
            return orders
        shots = tuple(Shot(laser, enemy.id) for laser in volley)
        orders = replace(orders, shots=shots)
        if len(choices) > 1:
            orders = replace(orders, aim=region)
        return orders

    def _eat(self, state: AVTState, design: Design, ship: Ship, targets: list[Ship], orders: ShipOrders) -> ShipOrders:
        """Shots at targets: for each, the fewest ready lasers that eat it about as surely as all of them.

        A target takes its toughness in one segment or nothing sticks (A5.113), so a volley is judged by
        its chance of reaching that total. It fires when that chance is fair and no worse than what the
        next few segments would give (closer, more lasers cool or round); nearer targets choose first.
        """
        here = _where(ship.position)
        free = sorted(
            (laser for laser in design.lasers if laser_state(design, ship, laser) != "destroyed"),
            key=lambda laser: (design.mounts[design.lasers[laser]].power, laser),
        )
        battery = ship.battery
        d_chance = d_mode(state) == "chance"
        shots: list[Shot] = []
        for target in _nearest_first(targets, here):
            bearing = [laser for laser in free if shot_problem(state, design, ship, laser, target) is None]
            volley = affordable(design, bearing, battery)
            if not volley:
                continue
            weapon = design.mounts[design.lasers[volley[0]]].weapon
            toughness = state.designs[target.design].toughness
            range_ = marker_between(state, ship, target).range
            best = eat_chance(weapon, range_, len(volley), toughness, d_chance)
            if best < MIN_EAT:
                continue
            later = max(
                (
                    PATIENCE**wait * eat_chance(weapon, at, count, toughness, d_chance)
                    for wait, count, at in self._later_volleys(state, design, ship, target, orders, weapon)
                ),
                default=0.0,
            )
            if best < later:
                continue
            # Lasers kept back stay ready for the next target.
            while len(volley) > 1 and eat_chance(weapon, range_, len(volley) - 1, toughness, d_chance) >= best - 0.02:
                volley.pop()
            for laser in volley:
                free.remove(laser)
                battery -= design.mounts[design.lasers[laser]].power
                shots.append(Shot(laser, target.id))
        return replace(orders, shots=tuple(shots)) if shots else orders

    @staticmethod
    def _net(pool: float, armour: int) -> float:
        """A pool's expected damage past the skin: its armour and an average soak (none at armour 0)."""
        return pool - armour - (MEAN_SOAK if armour else 0.0)

    def _best_later(
        self,
        state: AVTState,
        design: Design,
        ship: Ship,
        enemy: Ship,
        orders: ShipOrders,
        weapon: str,
        armour: int,
        d_chance: bool,
    ) -> float:
        """The best volley waiting 1..WAIT segments could bring, the enemy and ship drifting."""
        best = 0.0
        for wait, count, range_ in self._later_volleys(state, design, ship, enemy, orders, weapon):
            # A little is lost to waiting: the enemy may move, turn or fire first.
            later = PATIENCE**wait * self._net(count * expected_damage(weapon, range_, d_chance), armour)
            best = max(best, later)
        return best

    @staticmethod
    def _later_volleys(
        state: AVTState, design: Design, ship: Ship, enemy: Ship, orders: ShipOrders, weapon: str
    ) -> list[tuple[int, int, int]]:
        """(segments waited, lasers that would bear and have power, range) for waits of 1..WAIT in range.

        The ship's orientation follows the facing change under way or the pivot just ordered.
        """
        stops: tuple[tuple[int, Orientation], ...] = ship.turning.stops if ship.turning is not None else ()
        if orders.pivot is not None:
            path = pivot_path(ship.orientation, orders.pivot, state.three_d)
            stops = tuple((state.now + t, o) for t, o in schedule(path, design.pivots))
        mine, theirs = track(ship), track(enemy)
        power_now = ship.battery
        recharge = ship_reactor_power(design, ship) if ship.reactors_on else 0
        capacity = ship_battery_capacity(design, ship)
        table = _table(design)
        alive = _lasers_alive(design, ship)
        out: list[tuple[int, int, int]] = []
        for wait in range(1, min(WAIT, segments_left(state)) + 1):
            seen, range_ = _marker_between_points(state, mine.after(wait), theirs.after(wait))
            if seen is None or range_ > max_range(weapon):
                continue
            passed = [o for at, o in stops if at < state.now + wait]
            orientation = passed[-1] if passed else ship.orientation
            # Lasers whole, cool by then and bearing, each taking its power in the order of their names.
            able = table.facing(orientation, seen, state.three_d)[0] & _lasers_fresh(
                design, ship, state.now + wait, alive
            )
            power = min(capacity, power_now + wait * recharge)
            count = 0
            for bit, cost in table.by_name:
                if able >> bit & 1 and cost <= power:
                    count += 1
                    power -= cost
            out.append((wait, count, range_))
        return out

    # -- power and heat -----------------------------------------------------------

    def _power(
        self, state: AVTState, design: Design, ship: Ship, enemies: list[Ship], orders: ShipOrders
    ) -> ShipOrders:
        if not design.reactor:
            return orders
        capacity = ship_battery_capacity(design, ship)
        turn_heat = design.reactor * HEAT_TENTHS
        # Heat stored once this turn's reactor heat is recorded (A5.39).
        heat = ship.heat_tenths + (turn_heat if ship.reactors_on else 0)
        here = _where(ship.position)
        fighting = any(_norm(_sub(_where(e.position), here)) <= FIGHTING_RANGE for e in enemies)
        # In a fight the reactors stay on: without them a ship fires one volley and then a laser every few
        # segments. Out of one they run only to fill the batteries, and never past the heat sinks.
        room = heat + turn_heat <= ship_heat_capacity(design, ship) * HEAT_TENTHS
        on = fighting or (ship.battery < capacity and room)
        going = ship.reactors_on if ship.reactors_next is None else ship.reactors_next
        if on != going:
            orders = replace(orders, reactors=on)
        return orders


def segments_left(state: AVTState) -> int:
    """Segments after this one before the turn limit ends the game: waiting longer brings nothing."""
    return absolute(state.max_turns, SEGMENTS) - state.now


def turn_around(design: Design) -> float:
    """Turns a 180-degree pivot takes on the ship's pivot chart (its largest pivot if that is less)."""
    if not design.pivots:
        return 1.0
    row = design.pivots[min(5, len(design.pivots) - 1)]
    return (row[-1] + 1) / _SEG


def _shot_power(design: Design) -> int:
    """Power for one shot of the ship's dearest laser."""
    return max((m.power for m in design.mounts.values() if m.lasers), default=0)


@lru_cache(maxsize=4096)
def _reachable_from(
    orientation: Orientation, three_d: bool, chart: Chart
) -> tuple[tuple[Window, Orientation, int, int, int], ...]:
    """:meth:`GreedyBot._reachable` for a ship at ``orientation`` with the pivot chart ``chart``, worked out once."""
    out = [(orientation.nose, orientation, 0, 0, orientation_number(orientation))]
    for window, path in sorted(pivot_paths(orientation, three_d).items()):
        if not path or wedges(path) > len(chart):
            continue
        stops = schedule(path, chart)
        end = path[-1].orientation
        out.append((window, end, wedges(path), stops[-1][0] + 1, orientation_number(end)))
    return tuple(out)


def _lasers_alive(design: Design, ship: Ship) -> int:
    """``ship``'s lasers not destroyed, as a bit mask over ``design.lasers`` (bit i: the i-th laser)."""
    if not ship.marks:  # nothing marked off: every laser is whole
        return (1 << len(design.lasers)) - 1
    mask = 0
    for i, laser in enumerate(design.lasers):
        if laser_state(design, ship, laser) != "destroyed":
            mask |= 1 << i
    return mask


def _lasers_fresh(design: Design, ship: Ship, at: int, alive: int) -> int:
    """Of the lasers in ``alive`` (a mask like :func:`_lasers_alive`), those cool by absolute segment ``at``."""
    index = _table(design).index
    mask = alive
    named: set[str] = set()
    for laser, ready in ship.cooling:
        # A laser's first entry is its cooling (Ship.ready_at); a laser of no design cools nothing here.
        if laser not in named:
            named.add(laser)
            if ready > at and laser in index:
                mask &= ~(1 << index[laser])
    return mask


class _DesignTable:
    """What greedy asks of one design again and again, for every facing it weighs: which lasers' arcs hold the
    window an enemy is seen through from an orientation, and the skin armour that window's fire would meet."""

    __slots__ = ("_facings", "_mounts", "by_name", "design", "index")

    def __init__(self, design: Design) -> None:
        self.design = design
        #: Each laser's bit in the masks, in ``design.lasers`` order.
        self.index = {laser: i for i, laser in enumerate(design.lasers)}
        self._mounts = tuple(design.lasers.values())
        #: (bit, power a shot) of each laser, in the order of the lasers' names.
        self.by_name = tuple(
            (self.index[laser], design.mounts[mount].power) for laser, mount in sorted(design.lasers.items())
        )
        self._facings: dict[tuple[int, int, bool], dict[int, tuple[int, int]]] = {}

    def seen_through(self, seen: Window, three_d: bool) -> dict[int, tuple[int, int]]:
        """The answers of :meth:`facing` kept so far for ``seen``, by the orientation's number."""
        key = (seen.level, seen.ray, three_d)
        kept = self._facings.get(key)
        if kept is None:
            kept = self._facings[key] = {}
        return kept

    def facing_from(self, seen: _Seen, orientation: Orientation, number: int, three_d: bool) -> tuple[int, int]:
        """:meth:`facing` for a window and its answers from :func:`_seen_when`, and the orientation's number."""
        known = seen[1].get(number)
        return known if known is not None else self.facing(orientation, seen[0], three_d)

    def facing(self, orientation: Orientation, seen: Window, three_d: bool) -> tuple[int, int]:
        """(lasers whose arcs hold ``seen`` from ``orientation`` as a bit mask, the skin armour it would meet).

        Kept by plain numbers: a dataclass's hash is worked out in Python on every look-up.
        """
        kept = self.seen_through(seen, three_d)
        number = orientation_number(orientation)
        found = kept.get(number)
        if found is None:
            design = self.design
            windows = map_to_arc(orientation, seen) if three_d else (middle_row(orientation, seen),)
            arcs = design.arcs
            mask = 0
            for i, mount in enumerate(self._mounts):
                if not arcs[mount].isdisjoint(windows):
                    mask |= 1 << i
            ssd = design.ssd
            armour = 0 if ssd is None else min(ssd.armour[r] for r in struck(orientation, seen, three_d))
            found = kept[number] = (mask, armour)
        return found


#: A window an enemy is seen through, and the design table's answers kept for it (:meth:`_DesignTable.seen_through`).
_Seen = tuple[Window, dict[int, tuple[int, int]]]


def _seen_when(
    state: AVTState, table: _DesignTable, mine: _Track, theirs: _Track, takes: int, kept: dict[int, _Seen | None]
) -> _Seen | None:
    """Where the enemy will be seen once a pivot taking ``takes`` segments is done (``None``: in the same space),
    worked out once per ``takes`` into ``kept``."""
    if takes in kept:
        return kept[takes]
    seen = _marker_between_points(state, mine.after(takes), theirs.after(takes))[0]
    found = kept[takes] = None if seen is None else (seen, table.seen_through(seen, state.three_d))
    return found


#: The designs' tables by identity (each holds its design, so the identity stays theirs): a game's designs are
#: shared by every state of it. A bound on memory over many games: the table starts again past it (a design's
#: table holds at most about 60,000 answers, 50 windows either way by 600 orientations, some 6 MB).
_TABLES: dict[int, _DesignTable] = {}
_TABLES_KEPT = 16


def _table(design: Design) -> _DesignTable:
    table = _TABLES.get(id(design))
    if table is None or table.design is not design:
        if len(_TABLES) >= _TABLES_KEPT:
            _TABLES.clear()
        table = _TABLES[id(design)] = _DesignTable(design)
    return table


def _nearest_first(ships: list[Ship], here: Vec) -> list[Ship]:
    """``ships`` by distance from ``here``, nearest first; ties by id, so every run picks the same one."""
    return sorted(ships, key=lambda s: (_norm(_sub(_where(s.position), here)), s.id))
