"""The VV5 combat module's greedy declaration (:meth:`~.module.VV5Combat.greedy_fire`), ship by ship, each ship's part
kept: a search's fire in prospect asks it of state after state that share most of their ships."""

from __future__ import annotations

from typing import Protocol

from vectorwar.combat.base import CombatView
from vectorwar.memo import Kept
from vectorwar.systems.vv5.module_card import vv5_card
from vectorwar.systems.vv5.module_volley import Volley
from vectorwar.systems.vv5.orders import Gunfire, Launch, Launches, Shot
from vectorwar.systems.vv5.state import Mount


class Firing(Protocol):
    """What the greedy declaration asks of the module: the enemies a ship may launch at and a launch's number, the
    mounts with guns and the enemies each reaches."""

    def _launch_targets(self, view: CombatView, ship_id: str) -> list[str]: ...
    def _launch_number(self, view: CombatView, ship_id: str, target_id: str, adjust: int) -> int: ...
    def _ship_mounts(self, view: CombatView, ship_id: str) -> list[Mount]: ...
    def _targets(self, view: CombatView, ship_id: str, arc: str, side: str) -> list[str]: ...


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
    """One ship's part of :func:`greedy_volley`: its launch, if any, and its gun shots."""
    launch = None
    # One target a turn (spreading costs accuracy); two missiles when the number is 7 or better.
    options = [(module._launch_number(view, ship_id, t, 0), t) for t in module._launch_targets(view, ship_id)]
    if options:
        need, target = min(options)
        if need <= 9:
            ready = vv5_card(view, ship_id).missiles_ready
            launch = Launch(ship_id, min(ready, 2 if need <= 7 else 1), target)
    shots: list[Shot] = []
    for m in module._ship_mounts(view, ship_id):
        targets = module._targets(view, ship_id, m.arc, side)
        if targets:
            here = view.ship(ship_id).hex
            best = min(targets, key=lambda t: (here.distance(view.ship(t).hex), vv5_card(view, t).structure.boxes))
            # Rapid fire: every gun of the mount, twice.
            shots.extend([Shot(ship_id, m.arc, m.guns.boxes, best)] * 2)
    return launch, tuple(shots)
