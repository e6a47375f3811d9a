"""Order pieces for front ends: the other actions a ship may add to its entry now.

Move options (:mod:`.ghosts`) give a ship's thrust setting and fire options
(:func:`.display.fire_options`) its shots; the rest of an AV:T entry is
offered here as :class:`~vectorwar.display.OrderPiece`\\ s, one group per
kind of action, of which a player picks at most one each:

* ``bias``: each direction other than the bias set (A5.272);
* ``pivot``: each AVID window other than the nose's that the ship's pivot
  chart reaches by the quickest path (A5.222), and ``roll``: ``stbd N`` and
  ``port N`` for every roll on the roll chart (3-D only), both only while no
  facing change is under way (docs/rulings/avt.md, *AV:T one facing change at a
  time*);
* ``repair``: each damaged system a free repair team may work on (A5.48),
  and ``electronics``: each electronics box the ship could give up first
  other than the one it names now (A5.457);
* ``reactors``: the opposite of what the reactors will be next turn, and
  ``radiators``: the opposite of where the radiators are going, when they
  are not already moving (A5.391, A5.392).

These are candidates; the rule system keeps only those its own order check
accepts alone (:meth:`.rules.AttackVector.order_pieces`), so a control never
offers an illegal choice. Each comes with the entry its text reads as, built
directly where that is plain (bias, pivot, roll, reactors, radiators), so the
check need not read the text back; a repair or an electronics box, named by
the design's data, is read from its text as a player's order would be.
"""

from __future__ import annotations

from typing import Literal

from vectorwar.display import OrderPiece
from vectorwar.hexes import Direction
from vectorwar.systems.avt.avid import Window
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.orders import MAX_ROLL_STEPS, ShipOrders
from vectorwar.systems.avt.orientation import pivot_paths, wedges
from vectorwar.systems.avt.repairs import damaged_systems
from vectorwar.systems.avt.state import AVTState, Ship


def _window_order(window: Window) -> tuple[int, bool, int]:
    """Amber first, then blue, green and purple; above before below; clockwise from A."""
    return abs(window.level), window.level < 0, window.ray


#: A piece and the ship's entry its text reads as (``None``: read it from the text).
Candidate = tuple[OrderPiece, ShipOrders | None]


def candidates(state: AVTState, ship: Ship) -> list[Candidate]:
    """The pieces worth offering ``ship`` now, in group order (bias, pivot, roll, reactors, radiators)."""
    design = state.designs[ship.design]
    out: list[Candidate] = [
        (OrderPiece("bias", f"bias {d}"), ShipOrders(ship.id, bias=d)) for d in Direction if d != ship.bias
    ]
    if ship.turning is None:
        out += _facing_changes(state, design, ship)
    out += [(OrderPiece("repair", f"repair {key.removeprefix('laser ')}"), None) for key in damaged_systems(ship)]
    if design.ssd is not None:
        out += [(piece, None) for piece in _electronics(design.ssd.electronics, ship)]
    return out + _end_of_turn_choices(design, ship)


def _facing_changes(state: AVTState, design: Design, ship: Ship) -> list[Candidate]:
    """A pivot to each window the pivot chart reaches, then (3-D only) each roll on the roll chart."""
    paths = pivot_paths(ship.orientation, state.three_d)
    reach = len(design.pivots)
    windows = sorted((w for w, path in paths.items() if path and wedges(path) <= reach), key=_window_order)
    out: list[Candidate] = [(OrderPiece("pivot", f"pivot {w}"), ShipOrders(ship.id, pivot=w)) for w in windows]
    if state.three_d:
        steps = range(1, len(design.rolls) + 1)
        out += [
            (
                OrderPiece("roll", f"roll {side} {n}"),
                # Past the order's limit on steps the text is refused as written: read it so.
                ShipOrders(ship.id, roll=n if side == "stbd" else -n) if n <= MAX_ROLL_STEPS else None,
            )
            for side in ("stbd", "port")
            for n in steps
        ]
    return out


def _electronics(boxes: list[str], ship: Ship) -> list[OrderPiece]:
    """Each electronics box the ship still has, but the one it already gives up first."""
    first = ship.electronics_order[:1]
    spare = [b for b in boxes if b not in ship.electronics_lost and (b,) != first]
    return [OrderPiece("electronics", f"electronics {b}") for b in spare]


def _end_of_turn_choices(design: Design, ship: Ship) -> list[Candidate]:
    """The change from what the reactors will be next turn, and from where the radiators are going."""
    out: list[Candidate] = []
    if design.reactor:
        on_next = ship.reactors_on if ship.reactors_next is None else ship.reactors_next
        out.append(
            (
                OrderPiece("reactors", "reactors off" if on_next else "reactors on"),
                ShipOrders(ship.id, reactors=not on_next),
            )
        )
    if design.radiators and ship.radiators in ("in", "out"):
        going = ship.radiators_next or ship.radiators
        wanted: Literal["in", "out"] = "in" if going == "out" else "out"
        out.append((OrderPiece("radiators", f"radiators {wanted}"), ShipOrders(ship.id, radiators=wanted)))
    return out
