"""MSC combat (MSC 7.0): range, line of sight, arcs, to-hit and damage."""

from __future__ import annotations

from vectorwar.dice import Dice
from vectorwar.events import Damaged, Destroyed, Event, Fired, Rolled
from vectorwar.hexes import Direction, Hex, line_offsets
from vectorwar.maps import HexMap
from vectorwar.memo import Kept
from vectorwar.odds import Modifier, Odds, chance_at_most
from vectorwar.roster import replace_fields
from vectorwar.systems.msc.arcs import TEXT_ORDER, Side, sides_seeing
from vectorwar.systems.msc.state import Ship

MAX_RANGE = 6
RULE_COMBAT = "MSC 7.0 Combat"
RULE_RANGE = "MSC 7.0 Range"


def range_modifier(distance: int) -> int | None:
    """To-hit modifier for a range, or ``None`` beyond 6 hexes (MSC 7.0 Range)."""
    if distance == 0:
        return 2
    if distance <= 2:
        return 1
    if distance <= 4:
        return 0
    if distance <= MAX_RANGE:
        return -1
    return None


def to_hit_number(shooter: Ship, distance: int) -> int | None:
    """The highest d6 roll that hits, or ``None`` out of range."""
    mod = range_modifier(distance)
    return None if mod is None else shooter.to_hit + mod


def hit_chance(need: int) -> float:
    return min(max(need, 0), 6) / 6


#: What one MSC hit does (MSC 7.0 Damage): the d6 picks shield, engine or the weapon facing the shooter.
DAMAGE_WORDS = "1 hit: d6 1-4 a SHIELD, 5 the ENGINE (else a SHIELD), 6 the weapon facing you (else a SHIELD)"


def shot_odds(shooter: Ship, side: Side, target: Ship, extra: tuple[Modifier, ...] = ()) -> Odds:
    """The odds of ``side``'s weapon at ``target``: TO-HIT plus the range modifier plus ``extra``.

    ``extra`` is what another movement system adds (VMS's turning penalty,
    :mod:`vectorwar.systems.msc.module`). :func:`fire_weapon` reads its number from
    here. Raises ``ValueError`` beyond 6 hexes.
    """
    distance = shooter.hex.distance(target.hex)
    mod = range_modifier(distance)
    if mod is None:
        raise ValueError(f"{target.id} is {distance} hexes away; weapons reach {MAX_RANGE}")
    modifiers = (
        Modifier(f"{shooter.id}'s TO-HIT rating", shooter.to_hit, "MSC 2.0 Ships"),
        Modifier(f"range {distance}", mod, RULE_RANGE),
        *extra,
    )
    need = sum(m.value for m in modifiers)
    chance = chance_at_most("d6", need)
    return Odds(shooter.id, str(side), target.id, distance, "d6", need, "at most", 0, chance, modifiers, DAMAGE_WORDS)


def line_of_sight(hex_map: HexMap, a: Hex, b: Hex) -> bool:
    """Clear unless an intervening hex is ``blocking`` terrain.

    Where the line runs along the edge between two hexes, it is blocked only
    if both are blocking (docs/rulings/msc.md, *Line of sight*).
    """
    global _last_blocking
    blocking = hex_map.hexes_with("blocking")
    if not blocking:
        return True
    # The line walked in whole numbers against the blocking hexes as axial pairs (one set per terrain): bots and
    # the list of legal shots ask this for every ship and target.
    # Each line's answer is kept while the terrain stays the same: within a turn the legal shots, the bot and the
    # check of its declaration all ask about the same pairs of ships.
    known, cells, seen = _last_blocking
    if known is not blocking:
        cells = frozenset((h.q, h.r) for h in blocking)
        seen = Kept(_MOST_SEEN)
        _last_blocking = (blocking, cells, seen)
    q, r = a.q, a.r
    key = (q, r, b.q, b.r)
    clear = seen.get(key)
    if clear is None:
        steps = line_offsets(b.q - q, b.r - r)[1:-1]
        clear = not any(all((q + dq, r + dr) in cells for dq, dr in step) for step in steps)
        seen.keep(key, clear)
    return clear


#: The blocking hexes :func:`line_of_sight` was last asked about (recognised by identity), as axial pairs, and
#: the lines it answered on them (at most ``_MOST_SEEN``).
_MOST_SEEN = 65536
_last_blocking: tuple[frozenset[Hex], frozenset[tuple[int, int]], Kept[tuple[int, int, int, int], bool]] = (
    frozenset(),
    frozenset(),
    Kept(_MOST_SEEN),
)


def in_reach(hex_map: HexMap, at: Hex, facing: Direction, side: Side, target: Hex) -> bool:
    """Whether a weapon on ``side`` of a ship at ``at`` reaches ``target``: range, arc, line of sight (the
    board's part of :func:`weapon_bears`, with no words: bots ask it for every candidate move)."""
    return (
        at.distance(target) <= MAX_RANGE
        and side in sides_seeing(at, facing, target)
        and line_of_sight(hex_map, at, target)
    )


def sides_in_reach(hex_map: HexMap, at: Hex, facing: Direction, target: Hex) -> frozenset[Side]:
    """The sides whose weapons reach ``target`` from ``at``: :func:`in_reach` for every side at once, the
    range and line of sight worked out once (bots ask it for every candidate end)."""
    dq, dr = target.q - at.q, target.r - at.r
    if abs(dq) + abs(dr) + abs(dq + dr) > 2 * MAX_RANGE:  # twice the distance
        return _NO_SIDES
    sides = sides_seeing(at, facing, target)
    return sides if sides and line_of_sight(hex_map, at, target) else _NO_SIDES


_NO_SIDES: frozenset[Side] = frozenset()


def weapon_bears(hex_map: HexMap, shooter: Ship, side: Side, target: Ship) -> str | None:
    """``None`` if ``side``'s weapon may shoot ``target`` now, else why not."""
    if side not in shooter.weapons_fitted:
        return f"{shooter.id} has no weapon on its {side} side"
    if side not in shooter.weapons:
        return f"{shooter.id}'s {side} weapon is destroyed"
    if in_reach(hex_map, shooter.hex, shooter.facing, side, target.hex):
        return None
    distance = shooter.hex.distance(target.hex)
    if distance > MAX_RANGE:
        return f"{target.id} is {distance} hexes away; weapons reach 6"
    if side not in sides_seeing(shooter.hex, shooter.facing, target.hex):
        return f"{target.id} is not in the {side} arc"
    # Range and arc allow it, so the line of sight is what in_reach refused.
    return f"no clear line of sight from {shooter.hex} to {target.hex}"


def damage_side(target: Ship, attacker_hex: Hex) -> Side | None:
    """Which of the target's weapons a damage roll of 6 destroys, if any.

    It is the weapon on the side facing the attacker. On a boundary (or at
    range 0) several sides face it: the first of them, in the text's order
    F, FL, FR, RL, RR, with a working weapon (docs/rulings/msc.md).
    """
    facing = sides_seeing(target.hex, target.facing, attacker_hex)
    for side in TEXT_ORDER:
        if side in facing and side in target.weapons:
            return side
    return None


def fire_weapon(
    hex_map: HexMap,
    shooter: Ship,
    side: Side,
    target: Ship,
    dice: Dice,
    events: list[Event],
    extra: tuple[Modifier, ...] = (),
) -> Ship:
    """Roll to hit (the number from :func:`shot_odds`) and, on a hit, for damage. Returns the target after."""
    distance = shooter.hex.distance(target.hex)
    mod = range_modifier(distance)
    if mod is None or extra:
        odds = shot_odds(shooter, side, target, extra)
        distance, need = odds.range, odds.need
        if need is None:  # pragma: no cover - an MSC shot always has a number
            raise ValueError("no to-hit number")
    else:
        need = shooter.to_hit + mod  # shot_odds's number, without the odds every shot would build for nothing
    # The side's letters are its value: written out without the enum's Python calls (every shot's words).
    roll = dice.roll("d6", f"{shooter.id} {side.value} weapon to hit {target.id}")
    events.append(Rolled.of(roll))
    hit = roll.total <= need
    events.append(Fired(shooter.id, side.value, target.id, distance, need, roll.total, hit))
    if not hit:
        return target
    return apply_hit(target, shooter.hex, dice, events)


def apply_hit(target: Ship, attacker_hex: Hex, dice: Dice, events: list[Event]) -> Ship:
    """One hit of damage, applied at once (MSC 7.0 Damage)."""
    roll = dice.roll("d6", f"damage to {target.id}")
    events.append(Rolled.of(roll))
    location = "SHIELD"
    if roll.total == 5 and target.engine > 0:
        location = "ENGINE"
    elif roll.total == 6:
        side = damage_side(target, attacker_hex)
        if side is not None:
            target = replace_fields(target, weapons=tuple(w for w in target.weapons if w != side))
            events.append(Damaged(target.id, f"{side} weapon", 1, 0))
            return target
    if location == "ENGINE":
        target = replace_fields(target, engine=target.engine - 1)
        events.append(Damaged(target.id, "ENGINE", 1, target.engine))
        return target
    target = replace_fields(target, shields=target.shields - 1)
    events.append(Damaged(target.id, "SHIELD", 1, target.shields))
    if target.shields <= 0:
        target = replace_fields(target, status="destroyed")
        events.append(Destroyed(target.id))
    return target
