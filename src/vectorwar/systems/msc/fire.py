"""Fire declarations (MSC 7.0): the legal shots, the one check of a declaration, a random legal one.

MSC's own fire prompt and MSC's combat module played inside VMS (:mod:`vectorwar.systems.msc.module`)
both call these, so what makes a declaration legal is written once. Each caller says how to find
a ship on its own board: MSC from its state, the combat module from its neutral view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Iterable, Sequence

from vectorwar.errors import IllegalOrderError
from vectorwar.maps import HexMap
from vectorwar.roster import NamedShip
from vectorwar.rules import Order
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.combat import RULE_COMBAT, sides_in_reach, weapon_bears
from vectorwar.systems.msc.orders import FireOrders, Shot
from vectorwar.systems.msc.state import MSCState, Ship


def check_fire(
    order: Order,
    side: str,
    own: Collection[str],
    target: Callable[[str], NamedShip],
    bears: Callable[[Shot], str | None],
) -> FireOrders:
    """Refuse ``order`` unless it is a legal declaration of ``side``'s (MSC 7.0); return it as fire orders.

    ``own`` are the ids of ``side``'s ships in play; ``target(id)`` finds any ship (``KeyError`` if
    there is none); ``bears(shot)`` is :func:`~vectorwar.systems.msc.combat.weapon_bears` for the
    shot on the caller's board: ``None`` if the weapon may fire at the target, else why not.
    """
    if not isinstance(order, FireOrders):
        raise IllegalOrderError(str(order), "fire declarations are due now", RULE_COMBAT)
    used: set[tuple[str, Side]] = set()
    for shot in order.shots:
        why = _refusal(shot, side, used, own, target, bears)
        if why is not None:
            raise IllegalOrderError(f"{shot.ship} {shot.weapon}>{shot.target}", why, RULE_COMBAT)
        used.add((shot.ship, shot.weapon))
    return order


def _refusal(
    shot: Shot,
    side: str,
    used: set[tuple[str, Side]],
    own: Collection[str],
    target: Callable[[str], NamedShip],
    bears: Callable[[Shot], str | None],
) -> str | None:
    """Why :func:`check_fire` refuses ``shot`` (``used``: the weapons named before it), or ``None``."""
    if (shot.ship, shot.weapon) in used:
        return "each weapon may fire once per turn"
    if shot.ship not in own:
        return f"{shot.ship} is not one of your ships in play"
    try:
        aimed_at = target(shot.target)
    except KeyError:
        return f"there is no ship called {shot.target!r}"
    if aimed_at.side == side:
        return f"{aimed_at.id} is on your own side"
    if not aimed_at.active:
        return f"{aimed_at.id} is {aimed_at.status}"
    return bears(shot)


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


#: The option under which ships in the way block line of sight (docs/rulings/msc.md, *Line of sight*).
SHIPS_BLOCK = "ships_block_sight"


def ship_in_the_way(state: MSCState, shooter: Ship, target: Ship) -> str | None:
    """With option ships_block_sight, the ship standing between ``shooter`` and ``target``, if any.

    A ship in a hex the line passes through blocks it; where the line runs along the edge of two hexes,
    only ships in both block it, as with blocking terrain. Ships in the shooter's or the target's own
    hex never do.
    """
    if not state.options.get(SHIPS_BLOCK):
        return None
    standing = {s.hex: s.id for s in state.ships if s.active and s.id not in (shooter.id, target.id)}
    if not standing:
        return None
    for step in shooter.hex.line_candidates(target.hex)[1:-1]:
        if all(h in standing for h in step):
            return standing[step[0]]
    return None


def unblocked(state: MSCState, order: FireOrders) -> FireOrders:
    """``order`` less the shots a ship in the way blocks (all of it unless option ships_block_sight is on)."""
    if not state.options.get(SHIPS_BLOCK):
        return order
    kept = (s for s in order.shots if ship_in_the_way(state, state.ship(s.ship), state.ship(s.target)) is None)
    return FireOrders(tuple(kept))


def legal_shots(state: MSCState, side: str) -> list[Shot]:
    """Every (ship, weapon, target) ``side`` could declare now."""
    targets = state.enemies_of(side)
    shots = [shot for ship in state.ships_of(side) for shot in shots_bearing(state.map, ship, targets)]
    return list(unblocked(state, FireOrders(tuple(shots))).shots) if state.options.get(SHIPS_BLOCK) else shots


def any_legal_shot(state: MSCState, side: str) -> bool:
    """Whether :func:`legal_shots` would find a shot: the search stops at the first one."""
    if state.options.get(SHIPS_BLOCK):
        return bool(legal_shots(state, side))
    targets = state.enemies_of(side)
    for ship in state.ships_of(side):
        working = [w for w in ship.weapons if w in ship.weapons_fitted]
        for target in targets if working else ():
            sides = reach_of(state, ship, target)
            if any(w in sides for w in working):
                return True
    return False


def reach_of(state: MSCState, shooter: Ship, target: Ship) -> frozenset[Side]:
    """:func:`~vectorwar.systems.msc.combat.sides_in_reach` from ``shooter`` to ``target``, ships of ``state``.

    Kept for the ships of the state last asked about (its ``ships``, recognised by identity: a fire prompt's
    states share them until a shot lands): the search for the next side to fire, the greedy bot's declaration
    and the check of it ask about the same pairs. Each answer is kept with the two ships it was worked out for
    and used only for those very ships, so it is always the one ``sides_in_reach`` gives.
    """
    global _last_reach
    ships, hex_map, known = _last_reach
    if ships is not state.ships or hex_map is not state.map:
        known = {}
        _last_reach = (state.ships, state.map, known)
    key = (shooter.id, target.id)
    found = known.get(key)
    if found is None or found[0] is not shooter or found[1] is not target:
        found = known[key] = (shooter, target, sides_in_reach(state.map, shooter.hex, shooter.facing, target.hex))
    return found[2]


#: The ships and map :func:`reach_of` last answered for and its answers by shooter and target.
_last_reach: tuple[tuple[Ship, ...], HexMap | None, dict[tuple[str, str], tuple[Ship, Ship, frozenset[Side]]]] = (
    (),
    None,
    {},
)


def check_declaration(state: MSCState, side: str, order: Order) -> FireOrders:
    """:func:`check_fire` on MSC's own board."""

    def bears(shot: Shot) -> str | None:
        shooter, target = state.ship(shot.ship), state.ship(shot.target)
        weapon = shot.weapon
        working = weapon in shooter.weapons and weapon in shooter.weapons_fitted
        if working and weapon in reach_of(state, shooter, target):
            why = None  # what weapon_bears finds, from the answer the bot's declaration was made with
        else:
            why = weapon_bears(state.map, shooter, weapon, target)
        if why is None and (blocker := ship_in_the_way(state, shooter, target)) is not None:
            return f"{blocker} is in the way: no clear line of sight (option ships_block_sight)"
        return why

    return check_fire(order, side, {s.id for s in state.ships_of(side)}, state.ship, bears)
