"""The AV:T order check: whether a side's segment orders are legal now, and which rule refuses them if not.

:meth:`.rules.AttackVector.check_order` and its order pieces
(:meth:`.rules.AttackVector.order_pieces`) both come here. Each entry is
checked in the order a player reads it (thrust, facing change, shots, aim,
electronics, the end-of-turn choices, repair), so the first thing wrong is
the one named. A check only raises; it never changes the state.
"""

from __future__ import annotations

from vectorwar.errors import IllegalOrderError
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.fire import aim_choices, shot_problem
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders
from vectorwar.systems.avt.orientation import pivot_path, wedges
from vectorwar.systems.avt.repairs import damaged_systems, repairable, system_key
from vectorwar.systems.avt.ssd import repair_teams, thrust_limit
from vectorwar.systems.avt.state import AVTState, Ship, when

RULE_ORDERS = "AV:T (A5.212) orders step"
RULE_THRUST = "AV:T (A5.242) change thrust"
RULE_PIVOT = "AV:T (A5.222) pivots"
RULE_ROLL = "AV:T (A2.4) rolls"
RULE_FIRE = "AV:T (A5.166) firing"
RULE_REACTORS = "AV:T (A5.39, A5.392) reactors are chosen for the next turn"
RULE_RADIATORS = "AV:T (A5.391) radiators"
RULE_AIM = "AV:T (A5.431) boundary regions"
RULE_ELECTRONICS = "AV:T (A5.457) the defender chooses the electronics box"
RULE_REPAIR = "AV:T (A5.48) repairs"
RULE_2D = "AV:T Design Note: the 2-D play experience (option three_d = false)"


def check_entries(state: AVTState, order: SegmentOrders, mine: set[str]) -> None:
    """Each entry of ``order``: one a ship, a ship of ``mine`` (the side's ships in play), and its actions."""
    named = [o.ship for o in order.ships]
    for o in order.ships:
        if named.count(o.ship) > 1:
            raise IllegalOrderError(str(order), f"{o.ship} has two entries; give each ship one", RULE_ORDERS)
        if o.ship not in mine:
            raise IllegalOrderError(str(o), f"{o.ship} is not one of your ships in play", RULE_ORDERS)
        check_ship(state, o)


def check_ship(state: AVTState, o: ShipOrders) -> None:
    """One ship's entry, action by action."""
    ship = state.ship(o.ship)
    design = state.designs[ship.design]
    if o.thrust is not None:
        check_thrust(ship, design, o.thrust, o)
    check_facing_change(state, ship, design, o)
    check_shots(state, ship, design, o)
    if o.aim is not None:
        check_aim(state, ship, o, o.aim)
    if o.electronics is not None:
        check_electronics(ship, design, o.electronics, o)
    check_end_of_turn_choices(ship, design, o)
    if o.repair is not None:
        check_repair(ship, design, o.repair, o)


def check_thrust(ship: Ship, design: Design, thrust: int, o: ShipOrders) -> None:
    """A thrust setting: within the ship's limit, and any burn needs fuel and the radiators in.

    Each check here takes the entry itself and writes it out only to refuse it: the order pieces check many
    entries that pass (:meth:`.rules.AttackVector.order_pieces`).
    """
    limit = thrust_limit(design, ship)
    if not 0 <= thrust <= limit:
        raise IllegalOrderError(str(o), f"thrust {thrust} is above {ship.name}'s {limit}", RULE_THRUST)
    if thrust and ship.fuel - ship.chart.fuel <= 0:
        raise IllegalOrderError(str(o), f"{ship.id} has no fuel left", "AV:T (A5.282) fuel")
    if thrust and ship.radiators != "in":
        raise IllegalOrderError(
            str(o),
            f"{ship.id}'s radiators are {ship.radiators}; a ship thrusts only with them in",
            RULE_RADIATORS,
        )


def check_facing_change(state: AVTState, ship: Ship, design: Design, o: ShipOrders) -> None:
    """A pivot or a roll: one at a time, none while another is under way, and each on its chart."""
    if o.pivot is not None and o.roll:
        raise IllegalOrderError(str(o), "one facing change at a time: pivot or roll, not both", RULE_PIVOT)
    if (o.pivot is not None or o.roll) and ship.turning is not None:
        raise IllegalOrderError(
            str(o),
            f"{ship.id} is still carrying out '{ship.turning.order}' until {when(ship.turning.ends)}; "
            "one facing change at a time",
            RULE_PIVOT,
        )
    if o.pivot is not None:
        check_pivot(state, ship, design, o)
    if o.roll:
        check_roll(state, design, o.roll, o)


def check_pivot(state: AVTState, ship: Ship, design: Design, o: ShipOrders) -> None:
    nose = o.pivot
    if nose is None:  # pragma: no cover - the caller checked
        return
    if not state.three_d and nose.level != 0:
        raise IllegalOrderError(str(o), "with altitude off the nose stays in the amber ring", RULE_2D)
    if nose == ship.orientation.nose:
        raise IllegalOrderError(str(o), f"{ship.id}'s nose is already at {nose}", RULE_PIVOT)
    if abs(nose.level) == 2 and nose.ray % 2:
        raise IllegalOrderError(str(o), "the green rings have no corner windows", RULE_PIVOT)
    path = pivot_path(ship.orientation, nose, state.three_d)
    if wedges(path) > len(design.pivots):
        raise IllegalOrderError(
            str(o),
            f"the quickest pivot to {nose} is {30 * wedges(path)} degrees, beyond "
            f"{ship.name}'s pivot chart ({30 * len(design.pivots)})",
            RULE_PIVOT,
        )


def check_roll(state: AVTState, design: Design, roll: int, o: ShipOrders) -> None:
    if not state.three_d:
        raise IllegalOrderError(str(o), "rolls need altitude, which is switched off", RULE_2D)
    if abs(roll) > len(design.rolls):
        limit = 30 * len(design.rolls)
        raise IllegalOrderError(
            str(o), f"a roll of {30 * abs(roll)} degrees is off the roll chart ({limit})", RULE_ROLL
        )


def check_shots(state: AVTState, ship: Ship, design: Design, o: ShipOrders) -> None:
    """Each laser fires once, at a ship there is, as :func:`.fire.shot_problem` allows, and the batteries pay
    for them all."""
    lasers = [s.laser for s in o.shots]
    power = 0
    for shot in o.shots:
        label = f"{ship.id} fire {shot}"
        if lasers.count(shot.laser) > 1:
            raise IllegalOrderError(label, f"{shot.laser} can fire once a segment", RULE_FIRE)
        try:
            target = state.ship(shot.target)
        except KeyError:
            raise IllegalOrderError(label, f"there is no ship called {shot.target!r}", RULE_FIRE) from None
        why = shot_problem(state, design, ship, shot.laser, target)
        if why is not None:
            raise IllegalOrderError(label, why, RULE_FIRE)
        power += design.mounts[design.lasers[shot.laser]].power
    if power > ship.battery:
        raise IllegalOrderError(
            str(o), f"these shots need {power} power but the batteries hold {ship.battery}", "AV:T (A5.372) power"
        )


def check_aim(state: AVTState, ship: Ship, o: ShipOrders, aim: str) -> None:
    """An aim is the attacker's only when a shot at a ship strikes a boundary, and then one of its two regions."""
    targets = {s.target for s in o.shots if state.ship(s.target).kind == "ship"}
    struck = [aim_choices(state, ship, state.ship(t)) for t in sorted(targets)]
    choices = {r for regions in struck for r in regions}
    if not any(len(regions) > 1 for regions in struck) or aim not in choices:
        where = ", ".join(sorted(choices)) or "no ship"
        raise IllegalOrderError(
            str(o),
            f"aim {aim} is not the attacker's to choose: these shots strike {where}; the attacker "
            "chooses only between the two regions of a boundary",
            RULE_AIM,
        )


def check_electronics(ship: Ship, design: Design, box: str, o: ShipOrders) -> None:
    """The electronics box to give up first is one the ship still has."""
    boxes = design.ssd.electronics if design.ssd else []
    if box not in boxes or box in ship.electronics_lost:
        left = [b for b in boxes if b not in ship.electronics_lost]
        raise IllegalOrderError(
            str(o),
            f"{ship.id} has no electronics box {box!r} left to give up (it has {', '.join(left) or 'none'})",
            RULE_ELECTRONICS,
        )


def check_end_of_turn_choices(ship: Ship, design: Design, o: ShipOrders) -> None:
    if o.reactors is not None and design.reactor == 0:
        raise IllegalOrderError(str(o), f"{ship.name} has no reactors to switch", RULE_REACTORS)
    if o.radiators is None:
        return
    if design.radiators == 0:
        raise IllegalOrderError(str(o), f"{ship.name} has no radiators", RULE_RADIATORS)
    if ship.radiators in ("extending", "retracting"):
        raise IllegalOrderError(
            str(o),
            f"{ship.id}'s radiators are {ship.radiators} this turn (a full turn either way); "
            "order them again next turn",
            RULE_RADIATORS,
        )
    if o.radiators == ship.radiators and ship.radiators_next is None:
        raise IllegalOrderError(str(o), f"{ship.id}'s radiators are already {ship.radiators}", RULE_RADIATORS)


def check_repair(ship: Ship, design: Design, what: str, o: ShipOrders) -> None:
    key = system_key(what)
    if key in ("structure", "structural integrity"):
        raise IllegalOrderError(str(o), "the Structural Integrity track is not repaired in battle", RULE_REPAIR)
    if repair_teams(design, ship) < 1:
        raise IllegalOrderError(str(o), f"{ship.id} has no free repair team (wrenches in its Quarters)", RULE_REPAIR)
    if repairable(ship, key) < 1:
        damaged = damaged_systems(ship)
        raise IllegalOrderError(
            str(o),
            f"{ship.id} has no damage to {key} that a team is not already repairing "
            f"(damaged: {', '.join(damaged) or 'nothing'})",
            RULE_REPAIR,
        )
