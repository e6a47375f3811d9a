"""How the greedy player (:mod:`.bots`) moves a ship: the burn it sets and the pivot it orders.

A steering rule on the two ships' tracks (:mod:`.tracks`): close to a standoff range at the speed from
which the ship can still stop there, match the enemy's drift, and burn with the nose turned toward the
velocity change that needs; with little to change, cut the engine and turn to the facing that brings the
most lasers and the thickest armour to bear where the enemy will be (:func:`facings`). The reasons for each
constant are in docs/rules/avt-bots.md.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from vectorwar.roster import replace_fields
from vectorwar.systems.avt.avid import Window
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.facing_tables import (
    DesignTable,
    Reach,
    Scored,
    Seen,
    cooling_bits,
    design_table,
    fresh_at,
    lasers_alive,
)
from vectorwar.systems.avt.orders import ShipOrders
from vectorwar.systems.avt.orientation import orientation_number
from vectorwar.systems.avt.ssd import thrust_limit
from vectorwar.systems.avt.state import AVTState, Ship
from vectorwar.systems.avt.tracks import (
    SEG,
    THRUST_UNIT,
    Vec,
    dot,
    markers_at,
    norm,
    scale,
    sub,
    track,
    unit,
)

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
#: How much a point of skin armour turned toward the enemy counts against one more laser bearing on it.
ARMOUR_WEIGHT = 1.5
#: What a laser bearing counts again when it will be cool once the pivot is done: between volleys the ship turns
#: fresh lasers to the enemy, so a ship whose bearing lasers are cooling still fires (greedy v greedy Rafik duels
#: drawn at the turn limit: 13 of 100 without it, 9 with it; docs/rules/avt-bots.md).
FRESH_WEIGHT = 1.0


def turn_around(design: Design) -> float:
    """Turns a 180-degree pivot takes on the ship's pivot chart (its largest pivot if that is less)."""
    if not design.pivots:
        return 1.0
    row = design.pivots[min(5, len(design.pivots) - 1)]
    return (row[-1] + 1) / SEG


def needed_change(design: Design, ship: Ship, enemy: Ship) -> Vec:
    """The velocity change (hexes a turn) that would set the closing speed and drift the rule wants."""
    mine, theirs = track(ship), track(enemy)
    offset = sub(theirs.at, mine.at)
    distance = norm(offset)
    relative = sub(theirs.velocity, mine.velocity)
    if distance < SAME_SPACE:
        # In one space no laser bears (a marker needs a window): move off along the nose, which needs no
        # pivot, at a speed that starts a burn.
        toward = scale(THRUST_UNIT[ship.orientation.nose], -1.0)
        return sub(relative, scale(toward, SEPARATION))
    toward = unit(offset)
    # Braking starts with a turn-around: the speed from which turning round (t turns, coasting) and then
    # burning at ``accel`` (hexes a turn, per turn) stops it in the gap: v t + v^2 / 2 accel = gap.
    accel = max(1.0, design.thrust * 2.0 * BRAKING)
    t = turn_around(design)
    gap = distance - STANDOFF
    speed = accel * (math.sqrt(t * t + 2.0 * abs(gap) / accel) - t)
    closing = math.copysign(min(MAX_CLOSING, speed, closing_fuel_cap(ship, relative, toward)), gap)
    if gap < 0:
        closing = max(closing, -2.0)
    wanted = scale(toward, -closing)
    return sub(relative, wanted)


def closing_fuel_cap(ship: Ship, relative: Vec, toward: Vec) -> float:
    """The fastest closing speed (hexes a turn) the fuel left can still brake from once there.

    Each dot of thrust burns a unit of fuel and is a hex a turn of velocity (the thrust chart). Reaching
    closing speed c from v0 costs c - v0 and stopping costs c again, after the drift across the line is matched: so
    c <= (fuel + v0) / 2, with a margin for angled burns and pivots. A chase that outruns this ends with
    the tanks dry and the enemy drifting out of reach.
    """
    along = dot(relative, toward)
    across = norm(sub(relative, scale(toward, along)))
    fuel = FUEL_MARGIN * (ship.fuel - ship.chart.fuel) - across
    return max(MIN_CLOSING, (fuel - along) / 2.0)


def move(state: AVTState, design: Design, ship: Ship, enemy: Ship, orders: ShipOrders) -> ShipOrders:
    can_burn = ship.radiators == "in" and ship.fuel - ship.chart.fuel > 0
    limit = thrust_limit(design, ship) if can_burn else 0
    need = needed_change(design, ship, enemy)
    size = norm(need)
    setting = ship.chart.setting
    burning = setting > 0
    nose = ship.orientation.nose
    if limit > 0 and size > (KEEP_BURN if burning else START_BURN) and (burning or not settled(state, ship, enemy)):
        aim = unit(need)
        lined_up = dot(THRUST_UNIT[nose], aim)
        if ship.turning is None:
            target = thrust_window(state, design, ship, enemy, aim)
            if target is not None and target != nose and dot(THRUST_UNIT[target], aim) > lined_up + 0.05:
                orders = replace_fields(orders, pivot=target)
                return set_thrust(orders, setting, 0 if lined_up < 0.7 else setting or limit, limit)
        if lined_up >= 0.7:
            want = limit if size > 4 else max(1, min(limit, math.ceil(size)))
            # Keep a burn's setting unless it is far off: a new setting starts its column again.
            if burning and abs(want - setting) <= 1:
                want = setting
            return set_thrust(orders, setting, want, limit)
        return set_thrust(orders, setting, 0, limit)
    orders = set_thrust(orders, setting, 0, limit)
    if ship.turning is None:
        target = fire_window(state, design, ship, enemy)
        if target is not None:
            orders = replace_fields(orders, pivot=target)
    return orders


def settled(state: AVTState, ship: Ship, enemy: Ship) -> bool:
    """Whether the enemy, drifting slowly, stays inside the close band (in range) for the next turn."""
    mine, theirs = track(ship), track(enemy)
    if norm(sub(theirs.velocity, mine.velocity)) > SETTLED_SPEED:
        return False
    low, high = CLOSE_BAND
    return all(low <= m.range <= high for m in markers_at(state.three_d, mine, theirs, _SETTLED_TIMES))


#: The segments ahead :func:`settled` looks at.
_SETTLED_TIMES = range(0, 9, 2)


def set_thrust(orders: ShipOrders, setting: int, want: int, limit: int) -> ShipOrders:
    want = max(0, min(want, limit))
    return orders if want == setting else replace_fields(orders, thrust=want)


def reachable(state: AVTState, design: Design, ship: Ship) -> Sequence[Reach]:
    """(nose window, orientation, wedges, segments to finish, the orientation's number, the window's unit thrust)
    of every pivot the chart allows, and staying put."""
    return design_table(design).reach(ship.orientation, state.three_d)


def _seen_after(state: AVTState, design: Design, ship: Ship, table: DesignTable, enemy: Ship) -> dict[int, Seen | None]:
    """Where ``enemy`` will be seen once each of ``ship``'s facing changes is done, by the segments it takes: they
    depend on that time alone."""
    mine, theirs = track(ship), track(enemy)
    three_d = state.three_d
    seen_through = table.seen_through
    out: dict[int, Seen | None] = {}
    # The window the enemy is seen through (``None``: the same space) with the design table's answers kept for it.
    times = table.takes(ship.orientation, three_d)
    for takes, marker in zip(times, markers_at(three_d, mine, theirs, times), strict=True):
        seen = marker.window
        out[takes] = None if seen is None else (seen, seen_through(seen, three_d))
    return out


def thrust_window(state: AVTState, design: Design, ship: Ship, enemy: Ship, aim: Vec) -> Window | None:
    """The nose window to burn in: thrust along ``aim`` first, and near the enemy lasers bearing too."""
    close = norm(sub(track(enemy).at, track(ship).at)) <= CLOSE_BAND[1] + 4
    table = design_table(design)
    three_d = state.three_d
    alive = lasers_alive(design, ship)
    seen_after = _seen_after(state, design, ship, table, enemy) if close and BEARING_WEIGHT else {}
    best: tuple[float, Window] | None = None
    x, y, z = aim
    for window, orientation, n, takes, number, (u, v, w) in reachable(state, design, ship):
        score = (u * x + v * y + w * z) - 0.02 * n  # dot(thrust, aim), written out: some 50 windows a decision
        found = seen_after.get(takes)
        if found is not None:
            known = found[1].get(number)
            bearing = (known if known is not None else table.facing(orientation, found[0], three_d))[0]
            score += BEARING_WEIGHT * (bearing & alive).bit_count()
        if best is None or score > best[0] + 1e-9:
            best = (score, window)
    return best[1] if best else None


def facings(state: AVTState, design: Design, ship: Ship, enemy: Ship) -> list[tuple[float, Window, int]]:
    """(score, nose window, wedges) of staying put and of every pivot the chart allows, where ``enemy`` will be
    seen once it is done: the lasers bearing there (``FRESH_WEIGHT`` more for each that will be cool then),
    ``ARMOUR_WEIGHT`` a point of skin armour turned to it (the thinner region on a boundary, as the enemy's
    fire would choose), less a twentieth a wedge turned."""
    scored = _scored(state, design, ship, enemy)
    return [
        (score, entry[0], entry[2])
        for score, entry in zip(scored[0], reachable(state, design, ship), strict=True)
        if score is not None
    ]


def fire_window(state: AVTState, design: Design, ship: Ship, enemy: Ship) -> Window | None:
    """The pivot that brings the most lasers to bear when it is done, if it beats staying put."""
    return _scored(state, design, ship, enemy)[1]


def _scored(state: AVTState, design: Design, ship: Ship, enemy: Ship) -> Scored:
    """:func:`facings`' scores, one for each reachable facing (``None`` where the enemy would share the space),
    and :func:`fire_window`'s choice from them.

    They depend on nothing but the orientation, the lasers whole, and for each time a pivot takes the window the
    enemy is seen through and the lasers cool then: kept by those in the design's table, they are worked out
    again only when one changes (a fight turns slowly, and a search's trials meet the same ones). Plain numbers
    are kept, so the collector has little to walk.
    """
    table = design_table(design)
    three_d = state.three_d
    alive = lasers_alive(design, ship)
    # Where the enemy is seen, and the lasers cool, depend on when the pivot is done alone: each worked out once.
    when: dict[int, tuple[Window, dict[int, tuple[int, int]], int] | None] = {}
    key: list[object] = [orientation_number(ship.orientation), three_d, alive]
    cooling, now = cooling_bits(design, ship), state.now
    for takes, found in _seen_after(state, design, ship, table, enemy).items():
        if found is None:
            when[takes] = None
            key.append(None)
        else:
            fresh = fresh_at(alive, cooling, now + takes)
            when[takes] = (*found, fresh)
            key.append((found[0].level, found[0].ray, fresh))
    kept = table.scored.get(tuple(key))
    if kept is not None:
        return kept
    scores: list[float | None] = []
    best: tuple[float, Window] | None = None
    current = 0.0
    for window, orientation, n, takes, number, _ in reachable(state, design, ship):
        seen = when[takes]
        if seen is None:
            scores.append(None)
            continue
        known = seen[1].get(number)
        bearing, armour = known if known is not None else table.facing(orientation, seen[0], three_d)
        count = (bearing & alive).bit_count() + ARMOUR_WEIGHT * armour
        count += FRESH_WEIGHT * (bearing & seen[2]).bit_count()
        score = count - 0.05 * n
        scores.append(score)
        if n == 0:
            current = score
        if best is None or score > best[0] + 1e-9:
            best = (score, window)
    choice = None if best is None or best[1] == ship.orientation.nose or best[0] < current + 0.5 else best[1]
    found_all = table.scored.keep(tuple(key), (tuple(scores), choice))
    return found_all
