"""How the greedy player (:mod:`.bots`) fires: volleys at a ship, and the fewest lasers that eat a target.

A volley fires when what it is expected to do past the armour (:mod:`.laser_odds`) is worth its power and
cooling, and at least what waiting a few segments would bring, discounted for the wait
(:func:`later_volleys`: more lasers cool, more power, a closer range or a pivot done). On a boundary it aims
at the thinner armour, then the shallower hull (A5.431).
"""

from __future__ import annotations

from vectorwar.roster import replace_fields
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.facing_tables import cooling_bits, design_table, fresh_at, lasers_alive
from vectorwar.systems.avt.fire import affordable, aim_choices, d_mode, full_volley, marker_between, shot_problem
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.laser_odds import eat_chance, expected_damage, net_damage
from vectorwar.systems.avt.lasers import max_range
from vectorwar.systems.avt.orders import ShipOrders, Shot
from vectorwar.systems.avt.orientation import Orientation, pivot_path, schedule
from vectorwar.systems.avt.ssd import laser_state, ship_battery_capacity, ship_reactor_power
from vectorwar.systems.avt.state import AVTState, Ship, absolute
from vectorwar.systems.avt.tracks import markers_at, nearest_first, track, where

#: Expected damage past the skin below which a volley is not worth its power and cooling.
MIN_NET = 3.0
#: Segments ahead it compares a volley now with. Waiting longer for a bigger volley lets the enemy's fire land
#: first: against `random`, 3 won more duels than 8 (the full cooling time, A5.371); docs/rules/avt-bots.md.
WAIT = 3
#: What a volley's worth is kept for each segment it waits: the enemy may move, turn or fire first.
PATIENCE = 0.93
#: A target volley's chance of eating it below which the lasers are kept for a better one.
MIN_EAT = 0.3


def segments_left(state: AVTState) -> int:
    """Segments after this one before the turn limit ends the game: waiting longer brings nothing."""
    return absolute(state.max_turns, SEGMENTS) - state.now


def fire(state: AVTState, design: Design, ship: Ship, enemy: Ship, orders: ShipOrders) -> ShipOrders:
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
    now = net_damage(len(volley) * expected_damage(weapon, marker.range, d_chance), armour)
    # The game's last segment: whatever gets through is better than lasers that never fire.
    if now < (MIN_NET if segments_left(state) else 0.0):
        return orders
    if now < best_later(state, design, ship, enemy, orders, weapon, armour, d_chance):
        return orders
    shots = tuple(Shot(laser, enemy.id) for laser in volley)
    orders = replace_fields(orders, shots=shots)
    if len(choices) > 1:
        orders = replace_fields(orders, aim=region)
    return orders


def eat(state: AVTState, design: Design, ship: Ship, targets: list[Ship], orders: ShipOrders) -> ShipOrders:
    """Shots at targets: for each, the fewest ready lasers that eat it about as surely as all of them.

    A target takes its toughness in one segment or nothing sticks (A5.113), so a volley is judged by
    its chance of reaching that total. It fires when that chance is fair and no worse than what the
    next few segments would give (closer, more lasers cool or round); nearer targets choose first.
    """
    here = where(ship.position)
    free = sorted(
        (laser for laser in design.lasers if laser_state(design, ship, laser) != "destroyed"),
        key=lambda laser: (design.mounts[design.lasers[laser]].power, laser),
    )
    battery = ship.battery
    d_chance = d_mode(state) == "chance"
    shots: list[Shot] = []
    for target in nearest_first(targets, here):
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
                for wait, count, at in later_volleys(state, design, ship, target, orders, weapon)
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
    return replace_fields(orders, shots=tuple(shots)) if shots else orders


def best_later(
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
    for wait, count, range_ in later_volleys(state, design, ship, enemy, orders, weapon):
        # A little is lost to waiting: the enemy may move, turn or fire first.
        later = PATIENCE**wait * net_damage(count * expected_damage(weapon, range_, d_chance), armour)
        best = max(best, later)
    return best


def later_volleys(
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
    table = design_table(design)
    alive = lasers_alive(design, ship)
    cooling, now, three_d, reach = cooling_bits(design, ship), state.now, state.three_d, max_range(weapon)
    out: list[tuple[int, int, int]] = []
    waits = range(1, min(WAIT, segments_left(state)) + 1)
    for wait, marker in zip(waits, markers_at(three_d, mine, theirs, waits), strict=True):
        seen, range_ = marker.window, marker.range
        if seen is None or range_ > reach:
            continue
        passed = [o for at, o in stops if at < now + wait]
        orientation = passed[-1] if passed else ship.orientation
        # Lasers whole, cool by then and bearing, each taking its power in the order of their names.
        able = table.facing(orientation, seen, three_d)[0] & fresh_at(alive, cooling, now + wait)
        power = min(capacity, power_now + wait * recharge)
        count = 0
        for bit, cost in table.by_name:
            if able >> bit & 1 and cost <= power:
                count += 1
                power -= cost
        out.append((wait, count, range_))
    return out
