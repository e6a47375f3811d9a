"""The VV5 combat module's card: a VV5 design on a combatant, as the VV5 ship its rules are read on."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from vectorwar.combat.base import CombatView, Effect
from vectorwar.hexes import Direction, Hex
from vectorwar.memo import Kept
from vectorwar.roster import replace_fields
from vectorwar.systems.vv5 import damage_odds
from vectorwar.systems.vv5.combat import (
    missile_hit_chance,
    on_track,
)
from vectorwar.systems.vv5.state import Box, Launcher, Mount, Ship
from vectorwar.vectors import Velocity


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
    launchers: tuple[Launcher, ...] = ()
    missile_armour: Box = Box(0)  # noqa: RUF009 - a frozen value, safe to share
    incoming: tuple[tuple[str, int], ...] = ()  # (launcher's ship, to-hit at launch) of missiles flying at it

    @property
    def missiles_ready(self) -> int:
        return self.launchers.count("ready")


def vv5_card(view: CombatView, ship_id: str) -> VV5Card:
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
    card = vv5_card(view, ship_id)
    # A copy of a blank ship with the fields set (replace_fields): a ship's own __init__ stores some forty fields one
    # by one, and the module builds one for every shot resolved and every damage roll.
    return replace_fields(
        _BLANK,
        id=c.id,
        side=c.side,
        design=c.name,
        name=c.name,
        mass=card.mass,
        kind=card.kind,
        hex=c.hex,
        facing=c.facing,
        structure=card.structure,
        cargo=card.cargo,
        agility=card.agility,
        acceleration=replace(card.acceleration, boxes=0) if to_be_shot and not c.can_thrust else card.acceleration,
        life_support=card.life_support,
        mounts=card.mounts,
        launchers=card.launchers,
        missile_armour=card.missile_armour,
        status="active" if c.active else "destroyed",
    )


#: The ship :func:`as_vv5_ship` fills in: every field it does not set at its default.
_BLANK = Ship(
    id="",
    side="",
    design="",
    name="",
    mass=0,
    kind="",
    hex=Hex(0, 0),
    facing=Direction.A,
    velocity=Velocity(),
    structure=Box(0),
    cargo=Box(0),
    agility=Box(0),
    acceleration=Box(0),
    life_support=Box(0),
    mounts=(),
    launchers=(),
    missile_armour=Box(0),
)


def _missile_points(to_hit: int, moved: int, can_thrust: bool) -> damage_odds.Points:
    """One missile's points at a target whose marker, placed at ``to_hit``, moved ``moved`` spaces down."""
    return damage_odds.missile(float(missile_hit_chance(on_track(to_hit + moved), can_thrust)))


#: A throw at a target, by what its points depend on (:func:`expected_lost`): a gun shot's ``(GUN, need, guns, False)``
#: (:func:`~.damage_odds.gun_shot`) or a missile's ``(MISSILE, to_hit, moved, can_thrust)`` (:func:`_missile_points`).
Throw = tuple[int, int, int, bool]
GUN, MISSILE = 0, 1


def expected_lost(view: CombatView, ship_id: str, throws: tuple[Throw, ...]) -> float:
    """The structure ``throws`` (their points added in order) are expected to cost ``ship_id``
    (:func:`~.damage_odds.knock_out`). It reads nothing of the ship but its card, and a search judges the same fire
    at one card again and again (each trial moving some ship): kept by the card's identity (the card kept beside
    the answer, so that no other takes its identity while kept) and the throws."""
    card = vv5_card(view, ship_id)
    key = (id(card), throws)
    known = _LOST.get(key)
    if known is not None and known[0] is card:
        return known[1]
    return _LOST.keep(key, (card, damage_odds.knock_out(as_vv5_ship(view, ship_id), _points(throws))[1]))[1]


def _points(throws: tuple[Throw, ...]) -> damage_odds.Points:
    """The points of ``throws`` added in order (:func:`~.damage_odds.add`), kept by the throws, and so every one of
    their first throws' (the same additions in the same order, the same numbers): a search's fire at one target
    differs from one trial to the next mostly in its last shots (a ship more or less in arc, a launch further away),
    and every addition costs the points so far times the throw's. Shared: read, never changed."""
    known = _POINTS.get(throws)
    if known is not None:
        return known
    # The longest first throws kept, then the rest added one by one (a loop: a fleet's fire may be many throws).
    start, points = 0, damage_odds.NONE
    for k in range(len(throws) - 1, 0, -1):
        found = _POINTS.get(throws[:k])
        if found is not None:
            start, points = k, found
            break
    for k in range(start, len(throws)):
        kind, a, b, can_thrust = throws[k]
        last = damage_odds.gun_shot(a, b) if kind == GUN else _missile_points(a, b, can_thrust)
        points = _POINTS.keep(throws[: k + 1], damage_odds.add(points, last))
    return points


#: :func:`expected_lost`'s answers, each with the card it was worked out for.
_LOST: Kept[tuple[int, tuple[Throw, ...]], tuple[VV5Card, float]] = Kept(1 << 12)
#: :func:`_points`' answers by the throws.
_POINTS: Kept[tuple[Throw, ...], damage_odds.Points] = Kept(1 << 12)


def card_after(card: VV5Card, ship: Ship, **more: Any) -> VV5Card:
    """``card`` with the damage locations of ``ship`` (the VV5 ship its rules damaged) and ``more`` changed, in one
    copy (the fields stored without ``dataclasses.replace``'s checks, by :func:`~vectorwar.roster.replace_fields`)."""
    return replace_fields(
        card,
        structure=ship.structure,
        cargo=ship.cargo,
        agility=ship.agility,
        acceleration=ship.acceleration,
        life_support=ship.life_support,
        mounts=ship.mounts,
        launchers=ship.launchers,
        missile_armour=ship.missile_armour,
        **more,
    )


def card_effects(before: Ship, after: Ship, card: VV5Card) -> list[Effect]:
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
