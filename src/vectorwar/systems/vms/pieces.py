"""The pieces a VMS plot is composed of, for the browser's composer (``order_pieces``).

A plot is burns through thrusters, a rotation and a flat turn (:mod:`.orders`).
The composer offers one choice per group, and the groups together write the
whole plot:

* one group per thruster, named with its side, rating (as damage left it)
  and the accel/decel cost, holding each translational burn it can make on
  its own: every direction it can push toward now, in whole hexes/turn;
* ``rotation``: the rotations of the plot menu (:mod:`.planner`), each with
  the rotational burns that pay for it (``port1:rot=1 R1``);
* ``flat turn``: a flat turn either way, for ships that have one.

Every piece is checked alone by the movement rules (``legal``); a rotation
or flat turn comes from the legal menu. Burns and a rotation together may
still ask too much of a thruster, which the order check reports.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from vectorwar.display import OrderPiece
from vectorwar.hexes import Direction
from vectorwar.systems.vms.movement import Plot
from vectorwar.systems.vms.planner import MENU_MOST_HEXES
from vectorwar.systems.vms.ships import Design
from vectorwar.systems.vms.thrust import Burn, effective_rating

ROTATION = "rotation"
FLAT = "flat turn"


def thruster_group(design: Design, name: str, rating: int) -> str:
    side = design.thruster_table()[name].side
    return f"{name} ({side}, rating {rating}; {design.accel_cost} points a hex)"


def pieces(
    design: Design, lost: dict[str, int], menu: Iterable[Plot], legal: Callable[[Plot], bool]
) -> list[OrderPiece]:
    """Every piece of a ship's plot (see the module notes); ``legal`` checks a plot of the ship alone."""
    out: list[OrderPiece] = []
    for name in design.thruster_table():
        rating = effective_rating(design, name, lost)
        group = thruster_group(design, name, rating)
        most = min(rating // design.accel_cost, MENU_MOST_HEXES)
        for direction in Direction:
            for hexes in range(1, most + 1):
                plot = Plot((Burn(name, hexes * design.accel_cost, direction),))
                if legal(plot):
                    out.append(OrderPiece(group, str(plot), whole=True))
    rotations: dict[str, None] = {}
    flats: dict[str, None] = {}
    for plot in menu:
        if any(b.push is not None for b in plot.burns):
            continue
        if plot.flat_turn:
            flats[str(Plot(flat_turn=plot.flat_turn))] = None
        elif plot.rotation or plot.burns:
            rotations[str(plot)] = None
    out += [OrderPiece(ROTATION, text, whole=True) for text in rotations]
    out += [OrderPiece(FLAT, text, whole=True) for text in flats]
    return out
