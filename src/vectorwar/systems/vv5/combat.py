"""VV5 combat: missile and gun tables, line of fire, deflection, damage allocation."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Literal

from vectorwar.dice import Dice
from vectorwar.events import Damaged, Destroyed, Event, Rolled
from vectorwar.hexes import Hex, Position
from vectorwar.maps import HexMap
from vectorwar.odds import Modifier, Odds, chance_at_least, chance_at_most
from vectorwar.roster import replace_fields
from vectorwar.rules import OptionSpec
from vectorwar.systems.vv5.arcs import GUN_ARCS, in_arc
from vectorwar.systems.vv5.events import ArmourHit, Deflected, KnockedOut
from vectorwar.systems.vv5.movement import is_solid
from vectorwar.systems.vv5.state import Box, Launcher, Mount, Ship, VV5State

MISSILE_RANGE = 15
GUN_RANGE = 6
TRACK_TOP = 3  # the incoming-missile track runs from 3+ down to 12
TRACK_BOTTOM = 12

RULE_MISSILES = "VV5 Launch Missiles"

#: The house rule on launching at several targets (see :func:`spread_adjustment`), under VV5 and its combat module.
SEVERAL_TARGETS = OptionSpec(
    "several_targets",
    "harder",
    "Launching at more than one target in a turn: 'harder' (+1 to each missile's to-hit number per "
    "missile launched), 'easier' (-1, the literal wording) or 'ignore'",
    ("harder", "easier", "ignore"),
)
RULE_GUNS = "VV5 Gunfire"
RULE_RAPID = "VV5 Gunfire (rapid fire)"
#: Said beside each missile's odds unless ``several_targets`` is ``ignore``: the odds are for one target a turn.
SPREAD_NOTE = "launching at another target this turn too changes every missile's number (several_targets)"
RULE_DAMAGE = "VV5 Damage"


def missile_to_hit(distance: int) -> int | None:
    """The missile table: 2D6 needed at launch range, ``None`` beyond 15 hexes."""
    if distance < 1 or distance > MISSILE_RANGE:
        return None
    if distance == 1:
        return 10
    return min(6 + (distance - 2) // 2, 12)


def gun_to_hit(distance: int) -> int | None:
    """The gun table: 2D6 needed (7+ at range 1 ... 12 at range 6), ``None`` beyond."""
    if distance < 1 or distance > GUN_RANGE:
        return None
    return 6 + distance


def gun_modifier(guns: int, target: Ship) -> int:
    """Dice-roll modifiers: several guns +1, target 20+ t +1 (40+ t +2), unable to accelerate +3."""
    return gun_modifier_on(guns, target.mass, target.can_accelerate)


def gun_modifier_on(guns: int, mass: int, can_accelerate: bool) -> int:
    """:func:`gun_modifier` at a target of ``mass`` tons that can accelerate or not."""
    mod = 1 if guns > 1 else 0
    if mass >= 40:
        mod += 2
    elif mass >= 20:
        mod += 1
    if not can_accelerate:
        mod += 3
    return mod


def on_track(to_hit: int) -> int:
    return max(TRACK_TOP, min(TRACK_BOTTOM, to_hit))


def gun_modifiers(guns: int, target: Ship) -> tuple[Modifier, ...]:
    """:func:`gun_modifier`'s parts, each named: what each adds to the 2D6 roll."""
    found: list[Modifier] = []
    if guns > 1:
        found.append(Modifier(f"{guns} guns fire together", 1, RULE_GUNS))
    if target.mass >= 40:
        found.append(Modifier(f"{target.id} is {target.mass} t (40 t or more)", 2, RULE_GUNS))
    elif target.mass >= 20:
        found.append(Modifier(f"{target.id} is {target.mass} t (20 t or more)", 1, RULE_GUNS))
    if not target.can_accelerate:
        found.append(Modifier(f"{target.id} cannot accelerate", 3, RULE_GUNS))
    return tuple(found)


def gun_odds(shooter: Ship, mount: str, guns: int, target: Ship, extra: tuple[Modifier, ...] = ()) -> Odds:
    """One gun shot's odds: the gun table's number, and every modifier added to the 2D6 roll.

    ``extra`` is what the caller's rules add to the roll (an experienced
    crew, VMS's turning penalty). Resolution reads ``need`` and ``modifier``
    from here. Raises ``ValueError`` beyond gun range.
    """
    distance = shooter.hex.distance(target.hex)
    need = gun_to_hit(distance)
    if need is None:
        raise ValueError(f"{target.id} is {distance} hexes away; guns reach {GUN_RANGE}")
    modifiers = (*gun_modifiers(guns, target), *extra)
    modifier = sum(m.value for m in modifiers)
    base = Modifier(f"gun table at range {distance}", need, RULE_GUNS)
    damage = f"1 point; on a double, {guns} (one per gun fired)" if guns > 1 else "1 point"
    chance = chance_at_least("2d6", need - modifier)
    return Odds(
        shooter.id, mount, target.id, distance, "2d6", need, "at least", modifier, chance, (base, *modifiers), damage
    )


# P(2D6 >= n) for n = 0..13, as floats: the bots weigh thousands of these a decision.
_AT_LEAST = (1.0, 1.0, 1.0, 35 / 36, 33 / 36, 30 / 36, 26 / 36, 21 / 36, 15 / 36, 10 / 36, 6 / 36, 3 / 36, 1 / 36, 0.0)


def p_at_least(n: int) -> float:
    """The chance that 2D6 totals ``n`` or more, any ``n``.

    >>> p_at_least(7), p_at_least(-1), p_at_least(13)
    (0.5833333333333334, 1.0, 0.0)
    """
    return _AT_LEAST[max(0, min(13, n))]


def missile_hit_chance(need: int, can_accelerate: bool) -> Fraction:
    """The chance that a missile whose marker stands at ``need`` on the incoming track hits.

    The track runs from 3+ to 12, where a 2 missing and a 12 hitting change
    nothing; a target that cannot accelerate is hit by anything but a 2.

    >>> missile_hit_chance(8, True), missile_hit_chance(8, False)
    (Fraction(5, 12), Fraction(35, 36))
    """
    return chance_at_least("2d6", need) if can_accelerate else 1 - chance_at_most("2d6", 2)


def missile_odds(shooter: Ship, target: Ship, modifiers: tuple[Modifier, ...], most_burn: int | None = None) -> Odds:
    """A missile's odds at launch: the missile table plus ``modifiers``, placed on the incoming track.

    The marker still moves one space per G the target accelerates before the
    missile is rolled (:func:`missile_verdict`), so ``chance`` is for a
    target that does not accelerate. Given ``most_burn``, the most G the
    target can burn this turn, ``worst`` is the chance if it burns all of
    them (the same G through :func:`missile_verdict`'s track; ``None`` where
    the marker is at the bottom already and no burn changes it). Raises
    ``ValueError`` out of range.
    """
    distance = shooter.hex.distance(target.hex)
    base = missile_to_hit(distance)
    if base is None:
        raise ValueError(f"{target.id} is {distance} hexes away; missiles reach {MISSILE_RANGE}")
    items = (Modifier(f"missile table at range {distance}", base, RULE_MISSILES), *modifiers)
    raw = sum(m.value for m in items)
    need = on_track(raw)
    notes = [f"each G {target.id} accelerates this turn adds 1", "a 2 always misses, a 12 always hits"]
    if need != raw:
        notes.append(f"the incoming track runs from {TRACK_TOP}+ to {TRACK_BOTTOM}: {raw} is placed at {need}")
    chance = missile_hit_chance(need, target.can_accelerate)
    worst: Fraction | None = None
    best_if = worst_if = ""
    if not target.can_accelerate:
        notes.append(f"{target.id} cannot accelerate: anything but a 2 hits")
    elif most_burn and on_track(need + most_burn) != need:
        # The same track the roll is read from: the marker moves ``most_burn`` spaces, then stops at the bottom.
        worst = missile_hit_chance(on_track(need + most_burn), True)
        best_if = f"if {target.id} does not accelerate"
        worst_if = f"if it burns its most ({most_burn} G)"
    damage = "2D6 points"
    return Odds(
        shooter.id,
        "msl",
        target.id,
        distance,
        "2d6",
        need,
        "at least",
        0,
        chance,
        items,
        damage,
        notes=tuple(notes),
        worst=worst,
        best_if=best_if,
        worst_if=worst_if,
    )


def spread_adjustment(launches: Sequence[tuple[int, str]], mode: str) -> int:
    """What launching at several targets in one turn adds to each missile's number (option ``several_targets``).

    ``launches`` is one ship's ``(missiles, target)`` this turn. One target:
    nothing. Several: ``harder`` adds 1 per missile launched, ``easier``
    takes 1 off (the literal wording), ``ignore`` nothing.

    >>> spread_adjustment([(2, "Y1"), (1, "Y2")], "harder"), spread_adjustment([(3, "Y1")], "harder")
    (3, 0)
    >>> spread_adjustment([(1, "Y1"), (1, "Y2")], "easier")
    -2
    """
    if len({target for _, target in launches}) < 2 or mode == "ignore":
        return 0
    count = sum(missiles for missiles, _ in launches)
    return count if mode == "harder" else -count


def missile_verdict(to_hit: int, accelerated: int, roll: int, can_accelerate: bool) -> tuple[int, bool, str]:
    """A missile's resolution: ``(number needed, hit, why)`` for its marker, the target's G this turn and 2D6.

    The target's acceleration moves the marker down the track first; an
    unmodified 2 misses and 12 hits; a target that cannot accelerate is hit
    by anything but a 2 (VV5 Resolving Missile Attacks).

    >>> missile_verdict(7, 2, 8, True)
    (9, False, '')
    >>> missile_verdict(11, 3, 12, True), missile_verdict(6, 0, 3, False)
    ((12, True, 'a 12 always hits'), (6, True, 'the target cannot accelerate'))
    """
    need = on_track(to_hit + accelerated)
    if roll == 2:
        return need, False, "a 2 always misses"
    if roll == 12:
        return need, True, "a 12 always hits"
    if not can_accelerate:
        return need, True, "the target cannot accelerate"
    return need, roll >= need, ""


def guns_facing(target: Ship, shooter_hex: Hex) -> bool:
    """Does ``target`` have a working gun whose arc covers ``shooter_hex``?"""
    return any(
        m.guns.boxes > 0 and in_arc(GUN_ARCS[m.arc], target.hex, target.facing, shooter_hex) for m in target.mounts
    )


def line_of_fire(hex_map: HexMap, a: Hex, b: Hex) -> bool:
    """Clear unless a large asteroid or dense body lies between (both, on an edge run)."""
    solid = hex_map.hexes_where(is_solid)
    if not solid:
        return True
    return not any(all(h in solid for h in step) for step in a.line_candidates(b)[1:-1])


def huge_ships(state: VV5State) -> tuple[Ship, ...]:
    """The huge ships in play (the Ghost Ship), kept with the state's answers while its ships stay (most games
    have none)."""
    asked = state.kept_answers()
    hulls: tuple[Ship, ...] | None = asked.get(("hulls", "", True))
    if hulls is None:
        hulls = asked["hulls", "", True] = tuple(s for s in state.ships if s.active and s.footprint)
    return hulls


def hull_in_the_way(state: VV5State, a: Hex, target: Ship) -> Ship | None:
    """A huge ship (the Ghost Ship) between firer and target: nothing can be fired through it.

    Like an asteroid it blocks an edge run only if it fills both hexes of the step.
    """
    for hull in huge_ships(state):
        if hull.id == target.id:
            continue
        filled = set(hull.hexes)
        if any(all(h in filled for h in step) for step in a.line_candidates(target.hex)[1:-1]):
            return hull
    return None


def ships_in_the_way(state: VV5State, a: Hex, b: Hex, shooter: str = "", target: str = "") -> list[Ship]:
    """Other ships in hexes between firer and target, nearest the firer first.

    A two-hex hull (the Ghost Ship) can lie across the line itself; the
    firer and the target are never "in the way" of their own shot.
    """

    # :meth:`VV5State.occupant` of every hex at once: each hex filled by a ship in play, the first such ship's.
    occupied: dict[Hex, str] = {}
    for ship in state.ships:
        if ship.active:
            for filled in ship.hexes:
                occupied.setdefault(filled, ship.id)
    return [state.ship(ship_id) for ship_id in in_the_way(a, b, occupied.get, shooter, target)]


def in_the_way(a: Hex, b: Hex, occupant: Callable[[Hex], str | None], shooter: str = "", target: str = "") -> list[str]:
    """The ships (``occupant`` of each hex) between firer and target, nearest the firer first, on any board:
    the hexes of the kernel's line between ``a`` and ``b``, ends excluded, the firer and target left out."""
    found: list[str] = []
    for h in a.line_to(b)[1:-1]:
        ship_id = occupant(h)
        if ship_id is not None and ship_id not in (shooter, target) and ship_id not in found:
            found.append(ship_id)
    return found


def deflect(meant_for: str, in_way: Sequence[tuple[str, Hex]], dice: Dice, events: list[Event]) -> str:
    """The ship a gun hit lands on (VV5 Gunfire, firing through occupied hexes): a die for each ship in the way
    (``in_way``: id and hex, nearest the firer first), and the first 6 moves the hit to that ship."""
    for blocker, where in in_way:
        check = dice.roll("d6", f"does the shot at {meant_for} hit {blocker} in the way")
        events.append(Rolled.of(check))
        if check.total == 6:
            events.append(Deflected(blocker, meant_for, Position(where)))
            return blocker
    return meant_for


# -- damage -----------------------------------------------------------------

LOCATIONS = {1: "structure", 2: "cargo", 3: "agility", 4: "acceleration", 5: "weapons", 6: "life support"}


def _weapon_systems(ship: Ship) -> list[str]:
    """Weapon systems still able to take a hit, in the order the sub-roll assigns them.

    Missiles come first, then gun mounts from the last listed to the first:
    that order reproduces the text's Defender example (1-2 missiles, 3-4 the
    360-degree turret, 5-6 the forward guns).
    """
    systems: list[str] = []
    if any(x != "destroyed" for x in ship.launchers):
        systems.append("missiles")
    systems.extend(m.arc for m in reversed(ship.mounts) if m.guns.boxes > 0 or m.guns.armour > 0)
    return systems


def _pick(options: list[str], dice: Dice, events: list[Event], purpose: str) -> str:
    """Choose one of several evenly with a d6, re-rolling faces that fall past the end."""
    if len(options) == 1:
        return options[0]
    band = 6 // len(options) if 6 % len(options) == 0 else 1
    while True:
        roll = dice.roll("d6", purpose)
        events.append(Rolled.of(roll))
        index = (roll.total - 1) // band
        if index < len(options):
            return options[index]


def _hit_box(box: Box) -> tuple[Box, bool]:
    """Armour first; returns the box after and whether real damage was done."""
    if box.armour > 0:
        return replace_fields(box, armour=box.armour - 1), False
    return replace_fields(box, boxes=box.boxes - 1), True


def damage_structure(ship: Ship, events: list[Event], use_armour: bool = True) -> Ship:
    if use_armour and ship.structure.armour > 0:
        structure = replace_fields(ship.structure, armour=ship.structure.armour - 1)
        events.append(ArmourHit(ship.id, "structure", structure.armour))
        return replace_fields(ship, structure=structure)
    structure = replace_fields(ship.structure, boxes=max(0, ship.structure.boxes - 1))
    ship = replace_fields(ship, structure=structure, damage_taken=ship.damage_taken + 1)
    events.append(Damaged(ship.id, "structural integrity", 1, structure.boxes))
    if structure.boxes == 0 and ship.active:
        ship = replace_fields(ship, status="destroyed")
        events.append(Destroyed(ship.id))
    return ship


BoxField = Literal["cargo", "agility", "acceleration", "life_support"]


def _with_box(ship: Ship, field: BoxField, box: Box) -> Ship:
    if field == "cargo":
        return replace_fields(ship, cargo=box)
    if field == "agility":
        return replace_fields(ship, agility=box)
    if field == "acceleration":
        return replace_fields(ship, acceleration=box)
    return replace_fields(ship, life_support=box)


def _damage_box(ship: Ship, field: BoxField, label: str, events: list[Event]) -> Ship:
    box: Box = getattr(ship, field)
    if box.armour == 0 and box.boxes == 0:
        return damage_structure(ship, events, use_armour=False)
    box, real = _hit_box(box)
    ship = _with_box(ship, field, box)
    if real:
        ship = replace_fields(ship, damage_taken=ship.damage_taken + 1)
        events.append(Damaged(ship.id, label, 1, box.boxes))
    else:
        events.append(ArmourHit(ship.id, label, box.armour))
    return ship


def _damage_launchers(ship: Ship, dice: Dice, events: list[Event]) -> Ship:
    armour = ship.missile_armour
    if armour.armour > 0:
        armour = replace_fields(armour, armour=armour.armour - 1)
        events.append(ArmourHit(ship.id, "missiles", armour.armour))
        return replace_fields(ship, missile_armour=armour)
    launchers: list[Launcher] = list(ship.launchers)
    if len(launchers) == 1:
        # A lone launcher goes, and takes a point of structure with it.
        ship = replace_fields(ship, launchers=("destroyed",), damage_taken=ship.damage_taken + 1)
        events.append(Damaged(ship.id, "missile launcher", 1, 0))
        return damage_structure(ship, events)
    pairs = [(i, i + 1) for i in range(0, len(launchers), 2)]
    intact = [p for p in pairs if any(launchers[j] != "destroyed" for j in p if j < len(launchers))]
    # The pairs differ once some missiles are spent or bombs are aboard: the die picks the pair hit.
    some_spent = any(x in ("spent", "bomb") for x in launchers)
    if some_spent and len(intact) > 1:
        labels = [f"launchers {a + 1}-{b + 1}" for a, b in intact]
        chosen = intact[labels.index(_pick(labels, dice, events, f"which missile pair of {ship.id} is hit"))]
    else:
        chosen = intact[0]
    for j in chosen:
        if j < len(launchers):
            launchers[j] = "destroyed"
    ship = replace_fields(ship, launchers=tuple(launchers), damage_taken=ship.damage_taken + 1)
    ready = sum(1 for x in launchers if x == "ready")
    events.append(Damaged(ship.id, "missile launchers", 2, ready))
    return ship


def _damage_weapons(ship: Ship, dice: Dice, events: list[Event]) -> Ship:
    systems = _weapon_systems(ship)
    if not systems:
        return damage_structure(ship, events, use_armour=False)
    system = _pick(systems, dice, events, f"which weapon system of {ship.id} is hit")
    if system == "missiles":
        return _damage_launchers(ship, dice, events)
    mount = ship.mount(system)
    if mount is None:  # pragma: no cover - _weapon_systems only lists fitted mounts
        raise KeyError(system)
    box, real = _hit_box(mount.guns)
    ship = ship.with_mount(Mount(mount.arc, box))
    if real:
        ship = replace_fields(ship, damage_taken=ship.damage_taken + 1)
        events.append(Damaged(ship.id, f"{system} gun", 1, box.boxes))
    else:
        events.append(ArmourHit(ship.id, f"{system} guns", box.armour))
    return ship


def damage_point(ship: Ship, dice: Dice, events: list[Event], cause: str) -> Ship:
    """One point of damage: roll the location and mark the card (VV5 Damage, Armour)."""
    if not ship.active:
        return ship
    roll = dice.roll("d6", f"hit location on {ship.id} ({cause})")
    events.append(Rolled.of(roll))
    location = LOCATIONS[roll.total]
    if location == "structure":
        return damage_structure(ship, events)
    if location == "cargo":
        return _damage_box(ship, "cargo", "cargo", events)
    if location == "agility":
        return _damage_box(ship, "agility", "agility", events)
    if location == "acceleration":
        return _damage_box(ship, "acceleration", "acceleration", events)
    if location == "weapons":
        return _damage_weapons(ship, dice, events)
    if ship.life_support.armour > 0 or ship.life_support.boxes > 0:
        ship = _damage_box(ship, "life_support", "life support", events)
        if ship.life_support.boxes == 0 and ship.active:
            ship = replace_fields(ship, status="knocked-out")
            events.append(KnockedOut(ship.id))
        return ship
    return damage_structure(ship, events, use_armour=False)  # pragma: no cover - life support is required


def apply_damage(ship: Ship, points: int, dice: Dice, events: list[Event], cause: str) -> Ship:
    for _ in range(points):
        ship = damage_point(ship, dice, events, cause)
    return ship
