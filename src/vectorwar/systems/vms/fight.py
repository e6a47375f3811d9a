"""Where VMS meets its combat module (option ``combat``).

The module reads each ship as a neutral :class:`~vectorwar.combat.base.Combatant` (:func:`view`) and
hands back its steps' results as neutral effects, which :func:`apply_outcome` puts on the ships: lost
thrust, a ship destroyed or disabled, and the rotation limit cut to the hull left.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from vectorwar.combat import CombatModule
from vectorwar.combat.base import Combatant, CombatView, Outcome
from vectorwar.events import Event, Note
from vectorwar.memo import Kept, Values
from vectorwar.roster import replace_fields
from vectorwar.systems.vms.events import RotationLimitCut, ThrustLost
from vectorwar.systems.vms.modules import module
from vectorwar.systems.vms.rotation import limit_lost
from vectorwar.systems.vms.ships import Design
from vectorwar.systems.vms.state import VMSShip, VMSState


def combat(state: VMSState) -> CombatModule:
    """The combat module the game is played with."""
    return module(state.combat)


def view(state: VMSState) -> CombatView:
    """The neutral picture the combat module reads.

    A turn's steps and the bots ask it of one state several times (whether a side has a shot, its fire, the
    greedy declaration), and of the states a step makes from it by changing anything but the ships (the fire
    order, the side firing): the view is all ships, map and options, so the views of the last few are kept by
    those three (their identities: frozen values, kept with the view so that their identities are not reused)
    and handed out again, look-ups found on them included.
    """
    ships, board, options = state.ships, state.map, state.options
    for known_ships, known_map, known_options, seen in _VIEWS:
        if known_ships is ships and known_map is board and known_options is options:
            return seen
    seen = _view(state)
    _VIEWS.insert(0, (ships, board, options, seen))
    del _VIEWS[VIEWS_KEPT:]
    return seen


#: The views :func:`view` worked out last, newest first, with the ships, map and options they show.
_VIEWS: list[tuple[object, object, object, CombatView]] = []
VIEWS_KEPT = 4


def _view(state: VMSState) -> CombatView:
    ships = tuple([_combatant(s) for s in state.ships])
    penalty = state.options.get("vms_turn_penalty", 2)
    return CombatView(ships, {s.id: s.card for s in state.ships}, state.map, int(penalty), state.options)


def _combatant(ship: VMSShip) -> Combatant:
    """The module's picture of ``ship``: kept by the ship's identity (the ship kept beside it, so that no other takes
    its identity while kept), as a turn's states share every ship a step did not change, and a search's trials ask
    the view of state after state."""
    known = _COMBATANTS.get(id(ship))
    if known is not None and known[0] is ship:
        return known[1]
    found = Combatant(
        ship.id,
        ship.side,
        ship.name,
        ship.hex,
        ship.facing,
        ship.hexsides_turned,
        ship.thrust_used,
        ship.spec.thrust - ship.thrust_lost > 0,
        ship.status,
        sum(hexes for _, hexes in ship.thrust),
    )
    return _COMBATANTS.keep(id(ship), (ship, found))[1]


#: :func:`_combatant`'s answers by the ship's identity, with the ship.
_COMBATANTS: Kept[int, tuple[VMSShip, Combatant]] = Kept(1 << 12)


#: The numbers standing for combat entries' values (:class:`~vectorwar.memo.Values`: found by identity first, as a
#: ship's entry is one object from view to view while the ship is, :func:`_combatant`).
_ENTRIES = Values(1 << 12)
#: A number standing for a combat entry's value: a key holds it instead of the entry, whose hash is a Python call for
#: each of its fields. The table's own method, called directly (a hot path's keys ask it thousands of times).
entry_number: Callable[[Combatant], int] = _ENTRIES.number


def apply_outcome(state: VMSState, outcome: Outcome, events: list[Event]) -> VMSState:
    """Put a combat step's cards on the ships and apply its neutral effects."""
    if outcome.cards:
        # Every card's ship in one copy of the state (a ship's hull limit reads the rules, not the other ships).
        state = state.with_ships(
            [
                hull_limits(state, replace_fields(state.ship(ship_id), card=card), events)
                for ship_id, card in outcome.cards.items()
            ]
        )
    for effect in outcome.effects:
        ship = state.ship(effect.ship)
        if effect.kind == "thrust lost":
            lost = min(ship.spec.thrust, ship.thrust_lost + math.ceil(ship.spec.thrust * effect.parts / effect.of))
            events.append(ThrustLost(ship.id, lost - ship.thrust_lost, ship.spec.thrust - lost))
            ship = replace_fields(ship, thrust_lost=lost)
        elif effect.kind == "destroyed" and ship.active:
            ship = replace_fields(ship, status="destroyed")
        elif effect.kind == "disabled" and ship.active:
            ship = replace_fields(ship, status="disabled")
            events.append(Note(f"{ship.id} is disabled and out of the fight"))
        state = state.with_ship(ship)
    return state


def hull_limits(state: VMSState, ship: VMSShip, events: list[Event]) -> VMSShip:
    """Cut the rotation limit to the hull left (ruling *VMS rotation limits degraded by damage*)."""
    if not state.options.get("vms_damaged_rotation_limits", True) or ship.spec.rotation_limit is None:
        return ship
    module_ = combat(state)
    table = ship.spec.combat.get(module_.name)
    if table is None:  # pragma: no cover - new_state refused the design
        return ship
    full = _full_strength(module_, ship)
    lost = max(ship.rotation_limit_lost, _limit_lost(ship.spec.rotation_limit, module_.strength(ship.card), full))
    if lost == ship.rotation_limit_lost:
        return ship
    was, now = ship.spec.limit_after(ship.rotation_limit_lost), ship.spec.limit_after(lost)
    if was is not None and now is not None and now < was and module_.strength(ship.card) > 0:
        events.append(RotationLimitCut(ship.id, now, was))
    return replace_fields(ship, rotation_limit_lost=lost)


def _limit_lost(limit: int | None, hull_left: float, hull_full: float) -> int:
    """:func:`~.rotation.limit_lost`, kept by its numbers: asked after every hit, and its exact fractions are slow."""
    key = (limit, hull_left, hull_full)
    found = _LIMITS_LOST.get(key)
    if found is None:
        found = _LIMITS_LOST.keep(key, limit_lost(limit, hull_left, hull_full))
    return found


_LIMITS_LOST: Kept[tuple[int | None, float, float], int] = Kept(1 << 12)


def _full_strength(module_: CombatModule, ship: VMSShip) -> float:
    """The strength of the ship's card as new (asked after every hit: each design's is worked out once)."""
    key = (module_.name, id(ship.spec), ship.design)
    known = _FULL.get(key)
    if known is None or known[0] is not ship.spec:
        table = ship.spec.combat[module_.name]
        known = _FULL[key] = (ship.spec, module_.strength(module_.card(ship.spec.name, table, f"design {ship.design}")))
    return known[1]


#: :func:`_full_strength` by module, design (its identity, kept beside the answer so that a new design at a reused
#: ``id`` is never mistaken for the old one) and design name (which the card's error names).
_FULL: dict[tuple[str, int, str], tuple[Design, float]] = {}
