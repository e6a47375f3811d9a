"""Fire declarations (MSC 7.0): the legal shots, the one check of a declaration, a random legal one.

MSC's own fire prompt and the MSC combat module played inside VMS (:mod:`vectorwar.combat.msc`,
through :mod:`vectorwar.systems.msc.api`) both call these, so what makes a declaration legal is
written once. Each caller says how to find a ship on its own board: MSC from its state, the
combat module from its neutral view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Protocol

from vectorwar.errors import IllegalOrderError
from vectorwar.maps import HexMap
from vectorwar.rules import Order
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.combat import RULE_COMBAT, sides_in_reach, weapon_bears
from vectorwar.systems.msc.orders import FireOrders, Shot
from vectorwar.systems.msc.state import MSCState, Ship


class Target(Protocol):
    """What the check needs to know of a ship named as a target."""

    @property
    def id(self) -> str: ...

    @property
    def side(self) -> str: ...

    @property
    def status(self) -> str: ...

    @property
    def active(self) -> bool: ...


def check_fire(
    order: Order,
    seat: str,
    own: Collection[str],
    target: Callable[[str], Target],
    bears: Callable[[Shot], str | None],
) -> FireOrders:
    """Refuse ``order`` unless it is a legal declaration of ``seat``'s (MSC 7.0); return it as fire orders.

    ``own`` are the ids of ``seat``'s ships in play; ``target(id)`` finds any ship (``KeyError`` if
    there is none); ``bears(shot)`` is :func:`~vectorwar.systems.msc.combat.weapon_bears` for the
    shot on the caller's board: ``None`` if the weapon may fire at the target, else why not.
    """
    if not isinstance(order, FireOrders):
        raise IllegalOrderError(str(order), "fire declarations are due now", RULE_COMBAT)
    used: set[tuple[str, Side]] = set()
    for shot in order.shots:
        label = f"{shot.ship} {shot.weapon}>{shot.target}"
        if (shot.ship, shot.weapon) in used:
            raise IllegalOrderError(label, "each weapon may fire once per turn", RULE_COMBAT)
        used.add((shot.ship, shot.weapon))
        if shot.ship not in own:
            raise IllegalOrderError(label, f"{shot.ship} is not one of your ships in play", RULE_COMBAT)
        try:
            aimed_at = target(shot.target)
        except KeyError:
            raise IllegalOrderError(label, f"there is no ship called {shot.target!r}", RULE_COMBAT) from None
        if aimed_at.side == seat:
            raise IllegalOrderError(label, f"{aimed_at.id} is on your own side", RULE_COMBAT)
        if not aimed_at.active:
            raise IllegalOrderError(label, f"{aimed_at.id} is {aimed_at.status}", RULE_COMBAT)
        why = bears(shot)
        if why is not None:
            raise IllegalOrderError(label, why, RULE_COMBAT)
    return order


def shots_bearing(hex_map: HexMap, shooter: Ship, targets: Iterable[Ship]) -> list[Shot]:
    """Every single shot ``shooter`` may declare at ``targets``: each working weapon at each target it bears on."""
    # weapon_bears for each weapon and target, each target's range, arc and line of sight worked out once.
    reach = [(target.id, sides_in_reach(hex_map, shooter.hex, shooter.facing, target.hex)) for target in targets]
    fitted = shooter.weapons_fitted
    return [
        Shot(shooter.id, weapon, target)
        for weapon in shooter.weapons
        if weapon in fitted
        for target, sides in reach
        if weapon in sides
    ]


def random_fire(hex_map: HexMap, shooters: Iterable[Ship], targets: Sequence[Ship], rng: random.Random) -> FireOrders:
    """A random legal declaration: each working weapon fires at one of the targets it bears on, or holds,
    each choice as likely."""
    shots: list[Shot] = []
    for shooter in shooters:
        bearing = shots_bearing(hex_map, shooter, targets)
        for weapon in shooter.weapons:
            choice = rng.choice([None, *(s for s in bearing if s.weapon == weapon)])
            if choice is not None:
                shots.append(choice)
    return FireOrders(tuple(shots))


def legal_shots(state: MSCState, seat: str) -> list[Shot]:
    """Every (ship, weapon, target) ``seat`` could declare now."""
    targets = state.enemies_of(seat)
    return [shot for ship in state.ships_of(seat) for shot in shots_bearing(state.map, ship, targets)]


def check_declaration(state: MSCState, seat: str, order: Order) -> FireOrders:
    """:func:`check_fire` on MSC's own board."""

    def bears(shot: Shot) -> str | None:
        return weapon_bears(state.map, state.ship(shot.ship), shot.weapon, state.ship(shot.target))

    return check_fire(order, seat, {s.id for s in state.ships_of(seat)}, state.ship, bears)
