"""The VV5 combat module's greedy declaration (:meth:`~.module.VV5Combat.greedy_fire`), ship by ship, each ship's part
kept: a search's fire in prospect asks it of state after state that share most of their ships."""

from __future__ import annotations

from typing import Protocol

from vectorwar.combat.base import Combatant, CombatView
from vectorwar.memo import Kept
from vectorwar.systems.vv5.module_card import VV5Card, vv5_card
from vectorwar.systems.vv5.module_volley import Volley
from vectorwar.systems.vv5.orders import Gunfire, Launch, Launches, Shot
from vectorwar.systems.vv5.state import Mount


class Firing(Protocol):
    """What the greedy declaration asks of the module: whether a ship's launch reaches an enemy and its number, the
    mounts with guns and whether each reaches an enemy."""

    def _launch_reaches(self, view: CombatView, ship: Combatant, target: Combatant) -> bool: ...
    def _launch_number(self, view: CombatView, ship_id: str, target_id: str, adjust: int) -> int: ...
    def _ship_mounts(self, view: CombatView, ship_id: str) -> list[Mount]: ...
    def _gun_reaches(self, view: CombatView, ship: Combatant, arc: str, target: Combatant) -> bool: ...


def greedy_volley(module: Firing, view: CombatView, side: str) -> Volley:
    """Every ship of ``side`` launches at the enemy its missiles are likeliest to hit and fires each mount at the
    nearest enemy it reaches (:func:`_part`), in the module's order: the launches ship by ship, then the shots.

    A ship's part reads the ship and its card, its enemies and theirs, the map and the turning penalty: kept by their
    identities (a search's views share them from trial to trial), held beside the answer so that no other object
    takes their identities while it is kept."""
    enemies = view.enemies_of(side)
    against = (view.map, *enemies, *(view.cards[t.id] for t in enemies))
    launches: list[Launch] = []
    shots: list[Shot] = []
    for ship in view.ships_of(side):
        held = (ship, view.cards[ship.id], *against)
        key = (*map(id, held), view.penalty_per_hexside)
        known = _PARTS.get(key)
        if known is None:
            known = _PARTS.keep(key, (held, _part(module, view, ship.id, side)))
        launch, fired = known[1]
        if launch is not None:
            launches.append(launch)
        shots.extend(fired)
    return Volley(Launches(tuple(launches)), Gunfire(tuple(shots)))


#: :func:`_part`'s answers, with the objects they read.
_PARTS: Kept[tuple[int, ...], tuple[tuple[object, ...], tuple[Launch | None, tuple[Shot, ...]]]] = Kept(1 << 12)


def _part(module: Firing, view: CombatView, ship_id: str, side: str) -> tuple[Launch | None, tuple[Shot, ...]]:
    """One ship's part of :func:`greedy_volley`: its launch, if any, and its gun shots; from what it reads of each enemy
    (:func:`_against`), in the view's order."""
    ship, card = view.ship(ship_id), vv5_card(view, ship_id)
    mounts = module._ship_mounts(view, ship_id)
    facing = [(t.id, _against(module, view, ship, card, t, mounts)) for t in view.enemies_of(side)]
    launch = None
    # One target a turn (spreading costs accuracy); two missiles when the number is 7 or better.
    options = [(need, t) for t, (need, _, _) in facing if need is not None]
    if options:
        need, target = min(options)
        if need <= 9:
            launch = Launch(ship_id, min(card.missiles_ready, 2 if need <= 7 else 1), target)
    shots: list[Shot] = []
    for i, m in enumerate(mounts):
        # The nearest enemy the mount reaches, the one with least structure among the nearest (the first of equals).
        reached = [(nearest, t) for t, (_, reaches, nearest) in facing if reaches[i]]
        if reached:
            best = min(reached, key=_first)[1]
            # Rapid fire: every gun of the mount, twice.
            shots.extend([Shot(ship_id, m.arc, m.guns.boxes, best)] * 2)
    return launch, tuple(shots)


def _first(entry: tuple[tuple[int, int], str]) -> tuple[int, int]:
    return entry[0]


def _against(
    module: Firing, view: CombatView, ship: Combatant, card: VV5Card, target: Combatant, mounts: list[Mount]
) -> tuple[int | None, tuple[bool, ...], tuple[int, int]]:
    """What a ship's part of the volley reads of one enemy: the launch's number if the ship has missiles ready and a
    launch reaches it (else ``None``), whether each mount's guns reach it, and its range and structure boxes.

    It reads the ship and its card, the enemy and its card, the map and the turning penalty (a launch's number): kept by
    them (by identity, held beside the answer so that no other object takes their identities while it is kept), as a
    search's trials moving some other ship ask it again of the ship's part, each enemy's read afresh otherwise."""
    target_card = vv5_card(view, target.id)
    held = (ship, target, card, target_card, view.map)
    key = (*map(id, held), view.penalty_per_hexside)
    known = _AGAINST.get(key)
    if known is not None:
        return known[1]
    launches = ship.active and card.missiles_ready > 0 and module._launch_reaches(view, ship, target)
    need = module._launch_number(view, ship.id, target.id, 0) if launches else None
    reaches = tuple([module._gun_reaches(view, ship, m.arc, target) for m in mounts])
    nearest = (ship.hex.distance(target.hex), target_card.structure.boxes)
    return _AGAINST.keep(key, (held, (need, reaches, nearest)))[1]


#: :func:`_against`'s answers, with the objects they read.
_AGAINST: Kept[tuple[int, ...], tuple[tuple[object, ...], tuple[int | None, tuple[bool, ...], tuple[int, int]]]] = Kept(
    1 << 12
)
