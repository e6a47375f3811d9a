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
* **Repairs**: a free team is set on the batteries while they hold too
  little to power any laser left, on the reactors while they give no power
  (turned off first: on, they only make heat), else on a destroyed laser;
  none of these is in use then, which would spoil the work (A5.48).

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

The movement rule is :mod:`.steering`, fire :mod:`.gunnery` (weighed with
:mod:`.laser_odds`), both over the ships' tracks (:mod:`.tracks`) and the
lookups kept per design (:mod:`.facing_tables`); power and heat are decided here.
"""

from __future__ import annotations

import random
from typing import Any

from vectorwar.errors import IllegalOrderError
from vectorwar.memo import Kept
from vectorwar.roster import replace_fields
from vectorwar.rules import Order
from vectorwar.systems.avt.avid import Window
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.facing_tables import lasers_alive
from vectorwar.systems.avt.gunnery import eat, fire
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders, repair_object
from vectorwar.systems.avt.repairs import repairable
from vectorwar.systems.avt.ssd import (
    repair_teams,
    ship_battery_capacity,
    ship_heat_capacity,
    ship_reactor_power,
)
from vectorwar.systems.avt.state import HEAT_TENTHS, AVTState, Ship
from vectorwar.systems.avt.steering import facings, move
from vectorwar.systems.avt.tracks import nearest_first, norm, sub, where

#: Enemy distance (hexes) within which the reactors stay on: the 3 MRLS's longest range.
FIGHTING_RANGE = 30.0


class GreedyBot:
    """Close to point blank, hold there, and fire volleys; deterministic (no random choices)."""

    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        if not isinstance(state, AVTState):
            raise TypeError("the AV:T greedy player plays AV:T states")
        if state.phase != "orders":
            raise IllegalOrderError("", "the game is over", "game end")
        entries = []
        for ship in state.ships_of(side):
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
        orders = _no_orders(ship.id)
        here = where(ship.position)
        if enemies:
            enemy = nearest_first(enemies, here)[0]
            # Movement first: the fire decision weighs waiting for the lasers a new pivot brings to bear.
            orders = move(state, design, ship, enemy, orders)
            orders = fire(state, design, ship, enemy, orders)
            return _repair(design, ship, self._power(state, design, ship, enemies, orders))
        # No enemy ship: the tutorial's chocolates (targets) are what is left to destroy. They sit still and
        # never shoot back, so the ship closes on the nearest one as it would on a ship and eats every one
        # its lasers can.
        targets = [t for t in state.enemies_of(ship.side) if t.kind == "target"]
        if targets:
            nearest = nearest_first(targets, here)[0]
            orders = move(state, design, ship, nearest, orders)
            orders = eat(state, design, ship, targets, orders)
        return _repair(design, ship, self._power(state, design, ship, targets, orders))

    def pivot_choices(self, state: AVTState, ship: Ship, count: int) -> list[Window | None]:
        """The ``count`` best facings for a fight with the nearest enemy ship (:func:`.steering.facings`), best
        first, as the pivot that turns the nose there (``None``: stay put); none without an enemy ship or while a
        facing change is under way."""
        enemies = [e for e in state.enemies_of(ship.side) if e.kind == "ship" and e.active]
        if not enemies or ship.turning is not None:
            return []
        enemy = nearest_first(enemies, where(ship.position))[0]
        ranked = sorted(facings(state, state.designs[ship.design], ship, enemy), key=lambda f: -f[0])
        return [None if n == 0 else window for _, window, n in ranked[:count]]

    # -- power and heat -----------------------------------------------------------

    def _power(
        self, state: AVTState, design: Design, ship: Ship, enemies: list[Ship], orders: ShipOrders
    ) -> ShipOrders:
        if not design.reactor:
            return orders
        here = where(ship.position)
        fighting = any(norm(sub(where(e.position), here)) <= FIGHTING_RANGE for e in enemies)
        # In a fight the reactors stay on: without them a ship fires one volley and then a laser every few
        # segments. Out of one they run only to fill the batteries, and never past the heat sinks.
        # Reactors shot down to their X box give no power, only their heat: off, so a team can repair them.
        on = (fighting or self._filling(design, ship)) and ship_reactor_power(design, ship) > 0
        going = ship.reactors_on if ship.reactors_next is None else ship.reactors_next
        if on != going:
            orders = replace_fields(orders, reactors=on)
        return orders

    @staticmethod
    def _filling(design: Design, ship: Ship) -> bool:
        """Out of a fight: whether the reactors run to fill the batteries, the heat sinks having room for a turn."""
        turn_heat = design.reactor * HEAT_TENTHS
        # Heat stored once this turn's reactor heat is recorded (A5.39).
        heat = ship.heat_tenths + (turn_heat if ship.reactors_on else 0)
        room = heat + turn_heat <= ship_heat_capacity(design, ship) * HEAT_TENTHS
        return ship.battery < ship_battery_capacity(design, ship) and room


def _repair(design: Design, ship: Ship, orders: ShipOrders) -> ShipOrders:
    """A free repair team set on what keeps the ship from firing, where the work cannot be spoilt by use (A5.48):
    the batteries while they hold too little to power any laser left (so none can draw on them), the reactors
    while they give no power (switched off for it, :meth:`GreedyBot._power`), else a destroyed laser (it cannot
    fire). Other systems are used all the time (thrust) or matter less."""
    # Asked of every ship every segment: a ship with nothing marked off has nothing to repair.
    if not ship.marks or orders.repair is not None or repair_teams(design, ship) < 1:
        return orders
    mask = lasers_alive(design, ship)
    alive = [laser for i, laser in enumerate(design.lasers) if mask >> i & 1]
    cheapest = min((design.mounts[design.lasers[laser]].power for laser in alive), default=None)
    if (cheapest is None or ship_battery_capacity(design, ship) < cheapest) and repairable(ship, "batteries"):
        return replace_fields(orders, repair="batteries")
    dead = design.reactor and ship_reactor_power(design, ship) == 0
    if dead and not ship.reactors_on and repairable(ship, "reactors"):
        return replace_fields(orders, repair="reactors")
    for laser in design.lasers:
        key = f"laser {laser}"
        if laser not in alive and repairable(ship, key):
            return replace_fields(orders, repair=repair_object(laser))  # as the order's text reads back
    return orders


def _no_orders(ship_id: str) -> ShipOrders:
    """An empty entry for ``ship_id`` (a frozen value), made once: every segment starts each ship's orders from one."""
    found = _EMPTY.get(ship_id)
    if found is None:
        found = _EMPTY.keep(ship_id, ShipOrders(ship_id))
    return found


_EMPTY_KEPT = 1024
#: :func:`_no_orders` by ship id; started again past ``_EMPTY_KEPT``.
_EMPTY: Kept[str, ShipOrders] = Kept(_EMPTY_KEPT)
