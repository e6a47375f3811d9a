"""VV5's set-up phases as menus for front ends: the purchase and the placements.

Each option's order is one :mod:`buying` or :mod:`placing` accepts now, so a
panel of buttons never offers an illegal order.
"""

from __future__ import annotations

from vectorwar.display import SetupMenu, SetupOption
from vectorwar.systems.vv5 import buying, placing
from vectorwar.systems.vv5.design import Design
from vectorwar.systems.vv5.state import VV5State


def design_stats(design: Design) -> str:
    """A fighter's card in one line: what the buyer weighs up."""
    guns = ", ".join(f"{m.guns} {m.arc}" for m in design.guns) or "none"
    parts = [f"{design.acceleration} G", f"agility {design.agility}", f"guns {guns}", f"missiles {design.missiles}"]
    if design.cargo:
        parts.append(f"cargo {design.cargo}")
    return f"{design.mass} t: " + ", ".join(parts)


def purchase_menu(state: VV5State, side: str) -> SetupMenu | None:
    """The designs ``side`` may buy now, if it is the side buying."""
    if state.purchase is None or side not in buying.prompt(state).sides:
        return None
    designs = buying.designs_on_offer(state)
    options = tuple(
        SetupOption(
            str(buy),
            f"{buy.count} {designs[buy.design].name}"
            + (f", {buy.bombs} bomb{'s' if buy.bombs > 1 else ''} each" if buy.bombs else ""),
            designs[buy.design].mass * buy.count,
            design_stats(designs[buy.design]),
            buy.design,
        )
        for buy in buying.choices_for(state, side)
    )
    points = state.purchase.points_of(side)
    finish = "" if buying.done_refused(state, side) else "done"
    return SetupMenu("pick", "Buy your starships", options, "t", None, points, finish)


def place_menu(state: VV5State, side: str) -> SetupMenu | None:
    """The placements ``side`` may make now, if the placement is its.

    An interceptor may go in any hex far enough from the asteroid; the menu
    offers those at the least distance, each facing the asteroid (any other
    may be typed).
    """
    if not state.placing:
        return None
    placer, what = placing.owed(state)
    if side != placer:
        return None
    if what in placing.WHAT:
        options = tuple(
            SetupOption(f"place {what} {placing.name(state, h)}", placing.name(state, h), group=what)
            for h in placing.choices(state)
        )
        title = "Place the orbited body at the centre" if what == "body" else "Place the stasis pod next to the body"
        return SetupMenu("pick", title, options)
    ship_id = what.partition(":")[2]
    if what.startswith("ship:"):
        nearest = placing.nearest_choices(state, ship_id)
        options = tuple(
            SetupOption(str(order), f"{order.at} facing {order.facing}", group=ship_id) for order in nearest
        )
        return SetupMenu("pick", f"Place {ship_id}, no less than ten hexes from the asteroid", options)
    if what.startswith("face:"):
        options = tuple(
            SetupOption(f"face {ship_id} {d}", f"facing {d}", group=ship_id)
            for d in placing.free_facings(state, ship_id)
        )
        return SetupMenu("pick", f"Choose the facing {ship_id} lifts off with", options)
    options = (
        SetupOption("edge top", "top edge of D, heading down", group="edge"),
        SetupOption("edge bottom", "bottom edge of N, heading up", group="edge"),
    )
    return SetupMenu("pick", "Choose your interceptors' edge", options)
