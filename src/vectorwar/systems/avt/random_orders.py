"""The ``random`` AV:T player's orders for one ship (:meth:`.rules.AttackVector.random_order`).

Every choice is one the order check accepts, so a random game is a legal
game to the end (the conformance kit plays them). The draws are taken from
the random source in a fixed order, action by action, so a seed replays:
each helper below draws only when its action is considered, in the order
:func:`random_ship_orders` calls them.
"""

from __future__ import annotations

import random
from dataclasses import replace

from vectorwar.hexes import Direction
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.fire import laser_targets
from vectorwar.systems.avt.orders import ShipOrders, Shot
from vectorwar.systems.avt.orientation import pivot_paths, wedges
from vectorwar.systems.avt.ssd import thrust_limit
from vectorwar.systems.avt.state import AVTState, Ship


def random_ship_orders(state: AVTState, ship: Ship, rng: random.Random) -> ShipOrders:
    """A legal entry for ``ship``, often empty: each action is drawn with its own chance."""
    design = state.designs[ship.design]
    o = _thrust(design, ship, rng, ShipOrders(ship.id))
    o = _reactors_and_radiators(state, design, ship, rng, o)
    if rng.random() < 0.1:
        o = replace(o, bias=rng.choice(list(Direction)))
    if ship.turning is None and rng.random() < 0.3:
        o = _facing_change(state, design, ship, rng, o)
    return replace(o, shots=_shots(state, design, ship, rng))


def _thrust(design: Design, ship: Ship, rng: random.Random, o: ShipOrders) -> ShipOrders:
    if rng.random() < 0.25 and ship.fuel - ship.chart.fuel > 0:
        top = thrust_limit(design, ship) if ship.radiators == "in" else 0
        choices = [t for t in range(top + 1) if t != ship.chart.setting]
        if choices:
            o = replace(o, thrust=rng.choice(choices))
    return o


def _reactors_and_radiators(
    state: AVTState, design: Design, ship: Ship, rng: random.Random, o: ShipOrders
) -> ShipOrders:
    if design.reactor and rng.random() < 0.02:
        o = replace(o, reactors=rng.random() < 0.5)
    # Radiators out is the surrender signal (A5.391): the random player never gives it with an enemy ship about.
    facing_ships = any(s.kind == "ship" for s in state.enemies_of(ship.side))
    wants = design.radiators and ship.radiators in ("in", "out") and rng.random() < 0.01
    if wants and (ship.radiators == "out" or not facing_ships):
        o = replace(o, radiators="in" if ship.radiators == "out" else "out")
    return o


def _facing_change(state: AVTState, design: Design, ship: Ship, rng: random.Random, o: ShipOrders) -> ShipOrders:
    """A roll a quarter of the time in 3-D, else a pivot to any window the pivot chart reaches."""
    if state.three_d and rng.random() < 0.25:
        steps = rng.randint(1, len(design.rolls))
        return replace(o, roll=steps * rng.choice((1, -1)))
    reachable = sorted(
        w
        for w, path in pivot_paths(ship.orientation, state.three_d).items()
        if path and wedges(path) <= len(design.pivots)
    )
    return replace(o, pivot=rng.choice(reachable)) if reachable else o


def _shots(state: AVTState, design: Design, ship: Ship, rng: random.Random) -> tuple[Shot, ...]:
    """Each laser the batteries can still pay for fires half the time, at any ship it may fire at."""
    shots: list[Shot] = []
    battery = ship.battery
    for laser, mount in design.lasers.items():
        power = design.mounts[mount].power
        if power > battery or rng.random() < 0.5:
            continue
        targets = laser_targets(state, design, ship, laser)
        if targets:
            shots.append(Shot(laser, rng.choice(targets).id))
            battery -= power
    return tuple(shots)
