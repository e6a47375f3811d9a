"""The VV5 combat module's fire declarations: a volley of missiles and gunfire, and its checks."""

from __future__ import annotations

import re
from dataclasses import dataclass

from vectorwar.combat.base import CombatView
from vectorwar.errors import OrderSyntaxError
from vectorwar.notation import grouped, is_hold, ship_pieces
from vectorwar.systems.vv5.arcs import CODE_OF
from vectorwar.systems.vv5.legality import Board
from vectorwar.systems.vv5.module_card import vv5_card
from vectorwar.systems.vv5.orders import Gunfire, Launches
from vectorwar.systems.vv5.targeting import gun_reach, missile_reach


def mount_name(arc: str) -> str:
    """A mount as :meth:`VV5Combat.arc_hexes` and :meth:`VV5Combat.shot_options` name it."""
    return f"{arc} guns"


def gun_problem(view: CombatView, ship_id: str, arc: str, target_id: str) -> str | None:
    """Why ``arc``'s guns may not shoot the target, or ``None``: range, arc, line of fire."""
    ship, target = view.ship(ship_id), view.ship(target_id)
    return gun_reach(view.map, arc, ship.hex, ship.facing, target.id, target.hex)


def launch_problem(view: CombatView, ship_id: str, target_id: str) -> str | None:
    """Why ``ship_id``'s missiles may not be launched at the target, or ``None``: range, forward arc, line of fire."""
    ship, target = view.ship(ship_id), view.ship(target_id)
    return missile_reach(view.map, ship.id, ship.hex, ship.facing, target.id, target.hex)


def volley_board(view: CombatView) -> Board:
    """The view as the board VV5's checks of a declaration read; sides are allied only with themselves."""
    return Board(
        view.ship,
        lambda a, b: a == b,
        lambda ship_id: vv5_card(view, ship_id).mounts,
        lambda ship_id: vv5_card(view, ship_id).missiles_ready,
        lambda ship_id, target_id: launch_problem(view, ship_id, target_id),
        lambda ship_id, arc, target_id: gun_problem(view, ship_id, arc, target_id),
    )


@dataclass(frozen=True, slots=True)
class Volley:
    """A side's whole declaration: its missile launches and its gunfire (``X1 2>Y1 fwd*2>Y1; X2 t360*1>Y3``).

    >>> own = {"x1": "X1"}
    >>> v = Volley.parse("x1 fwd*2>Y1 1>Y1", own, {"y1": "Y1"}, {("X1", "forward"): 2})
    >>> str(v), str(v.launches), str(v.gunfire)
    ('X1 1>Y1 fwd*2>Y1', 'X1 1>Y1', 'X1 fwd*2>Y1')
    >>> str(Volley.parse("hold", own, {}, {}))
    'hold'
    >>> Volley.parse("", own, {}, {})
    Traceback (most recent call last):
    ...
    vectorwar.errors.OrderSyntaxError: cannot read order '': give launches or shots like 'X1 2>Y1 fwd*2>Y1', or 'hold'
    """

    launches: Launches
    gunfire: Gunfire

    def __str__(self) -> str:
        # Launches first, then shots, each in their own order, so that the text reads back to an equal volley.
        return (
            grouped(
                [
                    *((x.ship, f"{x.missiles}>{x.target}") for x in self.launches.launches),
                    *((s.ship, f"{CODE_OF[s.mount]}*{s.guns}>{s.target}") for s in self.gunfire.shots),
                ]
            )
            or "hold"
        )

    @classmethod
    def parse(cls, text: str, own: dict[str, str], targets: dict[str, str], guns: dict[tuple[str, str], int]) -> Volley:
        """Launches are ``COUNT>TARGET``, shots ``MOUNT*GUNS>TARGET``; each kind is read by VV5's own notation."""
        if is_hold(text):
            return cls(Launches(()), Gunfire(()))
        launches: list[str] = []
        shots: list[str] = []
        usage = "give launches (2>Y1) or shots (fwd*2>Y1) after the ship, like 'X1 2>Y1 fwd*2>Y1'"
        for ship, piece in ship_pieces(text, lambda name, _: _own_ship(name, own, text), usage):
            (launches if _LAUNCH.match(piece) else shots).append(f"{ship} {piece}")
        if not launches and not shots:
            raise OrderSyntaxError(text, "give launches or shots like 'X1 2>Y1 fwd*2>Y1', or 'hold'")
        return cls(
            Launches.parse("; ".join(launches), own, targets) if launches else Launches(()),
            Gunfire.parse("; ".join(shots), own, targets, guns) if shots else Gunfire(()),
        )


_LAUNCH = re.compile(r"^\d+>")


def _own_ship(name: str, own: dict[str, str], text: str) -> str:
    ship = own.get(name.lower())
    if ship is None:
        raise OrderSyntaxError(text, f"no ship of yours called {name!r} (yours: {', '.join(own.values()) or 'none'})")
    return ship
