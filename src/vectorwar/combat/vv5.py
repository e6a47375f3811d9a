"""Vector V5's guns and damage locations as a combat module.

An adapter over VV5's own pure functions: the gun table (``gun_to_hit``),
its dice modifiers (``gun_modifier``), the gun arcs (``GUN_ARCS``,
``in_arc``), the line of fire, the gunfire notation (``Gunfire``) and the
damage-location table with armour (``apply_damage``, ``damage_structure``).
Each call is given, for that moment, the VV5 ``Ship`` VV5 itself uses, built
from the neutral combatant and the module's card.

As in VV5, gun damage is only noted when a shot hits and is rolled for
after every side has fired (:meth:`VV5Combat.after_fire`, the Gun Damage
step). The movement side's turning penalty lowers the shooter's 2D6 roll;
"unable to accelerate" (+3 to hit it) is the combatant's ``can_thrust``.
An acceleration hit comes back as "thrust lost" (one of the fitted
acceleration boxes), life support gone as "disabled", structure gone as
"destroyed".

Left out of this first cut (docs/rules/vms.md): missiles, shots deflected by
ships in the way, huge hulls, crews and shock; VV5's initiative with its +2
for the smaller side is a plain d6 roll-off for the fire order.

The design's ``[combat.vv5]`` table is a VV5 design (``mass``,
``acceleration``, ``agility``, ``guns``, ``armour``, ...), checked by VV5's
tonnage rules; ``missiles`` must be 0.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from vectorwar.dice import Dice
from vectorwar.display import ShotOption
from vectorwar.errors import DesignError, IllegalOrderError
from vectorwar.events import Event, Note, Rolled
from vectorwar.hexes import Direction, Hex
from vectorwar.roster import id_lookup
from vectorwar.rules import Order, PhaseSpec
from vectorwar.systems.vv5.arcs import CODE_OF, GUN_ARCS, covered_hexes, in_arc
from vectorwar.systems.vv5.combat import (
    GUN_RANGE,
    RULE_GUNS,
    apply_damage,
    damage_structure,
    gun_modifier,
    gun_to_hit,
    line_of_fire,
)
from vectorwar.systems.vv5.design import design_from_data
from vectorwar.systems.vv5.equipment import build_ship
from vectorwar.systems.vv5.events import GunsFired
from vectorwar.systems.vv5.orders import Gunfire, Shot
from vectorwar.systems.vv5.state import Box, Mount, Ship
from vectorwar.vectors import Velocity

from .base import CombatModule, CombatView, Effect, Outcome, roll_off

RULE_RAPID = "VV5 Gunfire (rapid fire)"


@dataclass(frozen=True, slots=True)
class VV5Card:
    """The combat half of a VV5 status card, plus gun damage noted and not yet rolled."""

    module: Literal["vv5"]
    mass: int
    kind: str
    structure: Box
    cargo: Box
    agility: Box
    acceleration: Box
    life_support: Box
    mounts: tuple[Mount, ...]
    noted: tuple[tuple[str, int], ...] = ()  # (attacker, points) of gun damage this turn


def _card(view: CombatView, ship_id: str) -> VV5Card:
    card = view.cards[ship_id]
    if not isinstance(card, VV5Card):
        raise TypeError(f"{ship_id} has no VV5 combat card")
    return card


def as_vv5_ship(view: CombatView, ship_id: str, to_be_shot: bool = False) -> Ship:
    """The VV5 ``Ship`` VV5's functions expect, for the moment of one call.

    ``to_be_shot``: the copy only feeds the gun modifiers, where "unable to
    accelerate" is the movement side's call (it may have lost thrust another way).
    """
    c = view.ship(ship_id)
    card = _card(view, ship_id)
    return Ship(
        id=c.id,
        side=c.side,
        design=c.name,
        name=c.name,
        mass=card.mass,
        kind=card.kind,
        hex=c.hex,
        facing=c.facing,
        velocity=Velocity(),
        structure=card.structure,
        cargo=card.cargo,
        agility=card.agility,
        acceleration=replace(card.acceleration, boxes=0) if to_be_shot and not c.can_thrust else card.acceleration,
        life_support=card.life_support,
        mounts=card.mounts,
        launchers=(),
        missile_armour=Box.new(0),
        status="active" if c.active else "destroyed",
    )


def mount_name(arc: str) -> str:
    """A mount as :meth:`VV5Combat.arc_hexes` and :meth:`VV5Combat.shot_options` name it."""
    return f"{arc} guns"


def gun_problem(view: CombatView, ship_id: str, arc: str, target_id: str) -> str | None:
    """Why ``arc``'s guns may not shoot the target, or ``None``: range, arc, line of fire."""
    ship, target = view.ship(ship_id), view.ship(target_id)
    distance = ship.hex.distance(target.hex)
    if gun_to_hit(distance) is None:
        return f"{target.id} is {distance} hexes away; guns reach {GUN_RANGE}"
    if not in_arc(GUN_ARCS[arc], ship.hex, ship.facing, target.hex):
        return f"{target.id} is not in the {arc} arc"
    if not line_of_fire(view.map, ship.hex, target.hex):
        return f"an asteroid or dense body blocks the line from {ship.hex} to {target.hex}"
    return None


class VV5Combat(CombatModule):
    name = "vv5"
    title = "Vector V5 guns and damage"
    source = "../shared/seeds/001_b2e225cb8a9dead4.txt, Gunfire, Gun Damage, Damage, Armour"
    dice = ("d6", "2d6")
    phase = PhaseSpec("fire", "Gunfire (VV5): sides declare and fire in d6 order; gun damage is rolled after", "fire")
    fire_help = "shots as SHIP MOUNT*GUNS>TARGET, e.g. 'X1 fwd*2>Y1 fwd*2>Y1; X2 t360*1>Y3', or 'hold'"

    def card(self, name: str, data: Mapping[str, Any], source: str) -> VV5Card:
        design = design_from_data({"name": name, **data}, source, "combat.vv5")
        if design.missiles:
            raise DesignError(f"{source}: combat.vv5.missiles: VV5 missiles are not played under VMS yet; use 0")
        s = build_ship("card", "side", name, design, hex=Hex(0, 0), facing=Direction.A, velocity=Velocity())
        return VV5Card("vv5", s.mass, s.kind, s.structure, s.cargo, s.agility, s.acceleration, s.life_support, s.mounts)

    def fire_order(self, sides: Sequence[str], dice: Dice, events: list[Event]) -> tuple[str, ...]:
        return roll_off(sides, dice, events, "initiative")

    def parse_fire(self, view: CombatView, side: str, text: str) -> Gunfire:
        own = id_lookup(s.id for s in view.ships_of(side))
        guns = {(s.id, m.arc): m.guns.boxes for s in view.ships_of(side) for m in _card(view, s.id).mounts}
        return Gunfire.parse(text, own, id_lookup(s.id for s in view.ships), guns)

    def check_fire(self, view: CombatView, side: str, order: Order) -> None:
        if not isinstance(order, Gunfire):
            raise IllegalOrderError(str(order), "gunfire is due now", RULE_GUNS)
        own = {s.id for s in view.ships_of(side)}
        used: dict[tuple[str, str], int] = {}
        for shot in order.shots:
            label = f"{shot.ship} {CODE_OF[shot.mount]}*{shot.guns}>{shot.target}"
            if shot.ship not in own:
                raise IllegalOrderError(label, f"{shot.ship} is not one of your ships in play", RULE_GUNS)
            mount = next((m for m in _card(view, shot.ship).mounts if m.arc == shot.mount), None)
            if mount is None:
                raise IllegalOrderError(label, f"{shot.ship} has no {shot.mount} guns", RULE_GUNS)
            if shot.guns < 1 or shot.guns > mount.guns.boxes:
                raise IllegalOrderError(
                    label, f"the {shot.mount} mount has {mount.guns.boxes} working gun(s)", RULE_GUNS
                )
            key = (shot.ship, shot.mount)
            used[key] = used.get(key, 0) + shot.guns
            if used[key] > 2 * mount.guns.boxes:
                raise IllegalOrderError(label, "each gun fires at most twice a turn (rapid fire)", RULE_RAPID)
            try:
                target = view.ship(shot.target)
            except KeyError:
                raise IllegalOrderError(label, f"there is no ship called {shot.target!r}", RULE_GUNS) from None
            if target.side == side or not target.active:
                raise IllegalOrderError(label, f"{target.id} is not an enemy ship in play", RULE_GUNS)
            why = gun_problem(view, shot.ship, shot.mount, target.id)
            if why:
                raise IllegalOrderError(label, why, RULE_GUNS)

    def _targets(self, view: CombatView, ship_id: str, arc: str, side: str) -> list[str]:
        return [t.id for t in view.enemies_of(side) if gun_problem(view, ship_id, arc, t.id) is None]

    def _ship_mounts(self, view: CombatView, ship_id: str) -> list[Mount]:
        return [m for m in _card(view, ship_id).mounts if m.guns.boxes > 0]

    def _mounts(self, view: CombatView, side: str) -> list[tuple[str, Mount]]:
        return [(s.id, m) for s in view.ships_of(side) for m in self._ship_mounts(view, s.id)]

    def legal_shots(self, view: CombatView, side: str) -> list[Order]:
        return [
            Gunfire((Shot(ship, m.arc, 1, target),))
            for ship, m in self._mounts(view, side)
            for target in self._targets(view, ship, m.arc, side)
        ]

    def shot_options(self, view: CombatView, ship_id: str) -> list[ShotOption]:
        # Each number of the mount's guns is its own piece, as under VV5 itself; rapid fire repeats one.
        ship = view.ship(ship_id)
        if not ship.active:
            return []
        return [
            ShotOption(mount_name(m.arc), target, f"{CODE_OF[m.arc]}*{n}>{target}")
            for m in self._ship_mounts(view, ship_id)
            for target in self._targets(view, ship_id, m.arc, ship.side)
            for n in range(1, m.guns.boxes + 1)
        ]

    def random_fire(self, view: CombatView, side: str, rng: random.Random) -> Gunfire:
        shots: list[Shot] = []
        for ship, m in self._mounts(view, side):
            targets = self._targets(view, ship, m.arc, side)
            if targets:
                for _ in range(rng.randint(0, 2)):
                    shots.append(Shot(ship, m.arc, rng.randint(1, m.guns.boxes), rng.choice(targets)))
        return Gunfire(tuple(shots))

    def greedy_fire(self, view: CombatView, side: str) -> Gunfire:
        shots: list[Shot] = []
        for ship, m in self._mounts(view, side):
            targets = self._targets(view, ship, m.arc, side)
            if targets:
                here = view.ship(ship).hex
                best = min(targets, key=lambda t: (here.distance(view.ship(t).hex), _card(view, t).structure.boxes))
                # Rapid fire: every gun of the mount, twice.
                shots.extend([Shot(ship, m.arc, m.guns.boxes, best)] * 2)
        return Gunfire(tuple(shots))

    def fire(self, view: CombatView, side: str, order: Order, dice: Dice, events: list[Event]) -> Outcome:
        if not isinstance(order, Gunfire):  # pragma: no cover - check_fire refused it
            raise TypeError("VV5 gunfire expected")
        if not order.shots:
            events.append(Note(f"{side} holds its guns"))
        cards: dict[str, VV5Card] = {}
        for shot in order.shots:
            shooter, target = view.ship(shot.ship), view.ship(shot.target)
            distance = shooter.hex.distance(target.hex)
            need = gun_to_hit(distance)
            if need is None:  # pragma: no cover - check_fire refused it
                raise ValueError("out of gun range")
            penalty = view.penalty_per_hexside * shooter.hexsides_turned
            modifier = gun_modifier(shot.guns, as_vv5_ship(view, target.id, to_be_shot=True)) - penalty
            roll = dice.roll("2d6", f"{shooter.id} {shot.mount} guns at {target.id}")
            events.append(Rolled.of(roll))
            hit = roll.total + modifier >= need
            damage = (shot.guns if roll.faces[0] == roll.faces[1] else 1) if hit else 0
            events.append(
                GunsFired(
                    shooter.id, shot.mount, shot.guns, target.id, distance, need, modifier, roll.total, hit, damage
                )
            )
            if hit:
                card = cards.get(target.id, _card(view, target.id))
                cards[target.id] = replace(card, noted=(*card.noted, (shooter.id, damage)))
        return Outcome(cards)

    def after_fire(self, view: CombatView, dice: Dice, events: list[Event]) -> Outcome:
        cards: dict[str, VV5Card] = {}
        effects: list[Effect] = []
        for c in view.ships:
            card = _card(view, c.id)
            if not card.noted:
                continue
            before = as_vv5_ship(view, c.id)
            after = before
            for attacker, points in card.noted:
                after = apply_damage(after, points, dice, events, f"gunfire from {attacker}")
            cards[c.id] = replace(_card_after(card, after), noted=())
            effects.extend(_effects(before, after, card))
        return Outcome(cards, tuple(effects))

    def structure_damage(self, view: CombatView, ship_id: str, dice: int, total: int, events: list[Event]) -> Outcome:
        card = _card(view, ship_id)
        before = as_vv5_ship(view, ship_id)
        after = before
        for _ in range(total):
            if not after.active:
                break
            after = damage_structure(after, events)
        return Outcome({ship_id: _card_after(card, after)}, tuple(_effects(before, after, card)))

    def card_rows(self, card: Any) -> list[tuple[str, str]]:
        if not isinstance(card, VV5Card):
            raise TypeError("VV5 card expected")

        def box(b: Box) -> str:
            armour = f" (+{b.armour} armour)" if b.armour_fitted else ""
            return f"{b.boxes}/{b.fitted}{armour}"

        rows = [
            ("mass", f"{card.mass} t"),
            ("structure", box(card.structure)),
            ("acceleration", box(card.acceleration)),
            ("agility", box(card.agility)),
            ("life support", box(card.life_support)),
        ]
        rows.extend((f"{m.arc} guns", box(m.guns)) for m in card.mounts)
        if card.noted:
            rows.append(("gun damage noted", ", ".join(f"{p} from {a}" for a, p in card.noted)))
        return rows

    def arc_hexes(self, view: CombatView, ship_id: str) -> dict[str, frozenset[Hex]]:
        ship = view.ship(ship_id)
        return {
            mount_name(m.arc): covered_hexes(GUN_ARCS[m.arc], ship.hex, ship.facing, GUN_RANGE, view.map.contains)
            for m in _card(view, ship_id).mounts
            if m.guns.boxes > 0
        }

    def strength(self, card: Any) -> float:
        return float(card.structure.boxes) if isinstance(card, VV5Card) else 0.0


def _card_after(card: VV5Card, ship: Ship) -> VV5Card:
    return replace(
        card,
        structure=ship.structure,
        cargo=ship.cargo,
        agility=ship.agility,
        acceleration=ship.acceleration,
        life_support=ship.life_support,
        mounts=ship.mounts,
    )


def _effects(before: Ship, after: Ship, card: VV5Card) -> list[Effect]:
    out: list[Effect] = []
    lost = before.acceleration.boxes - after.acceleration.boxes
    if lost > 0 and card.acceleration.boxes > 0:
        out.append(Effect(after.id, "thrust lost", lost, max(1, card.acceleration.fitted)))
    for m_before, m_after in zip(before.mounts, after.mounts, strict=True):
        if m_after.guns.boxes < m_before.guns.boxes:
            out.append(
                Effect(after.id, "weapon lost", m_before.guns.boxes - m_after.guns.boxes, what=f"{m_after.arc} gun")
            )
    if before.active and after.status == "destroyed":
        out.append(Effect(after.id, "destroyed"))
    elif before.active and after.status == "knocked-out":
        out.append(Effect(after.id, "disabled"))
    return out
