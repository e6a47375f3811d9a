"""Laser fire, the Reveal Fire step of a segment (A5.166, A5.37-A5.372, A5.4).

Every shot of the segment is rolled from where the ships are now, before any
damage is marked, so a ship hit this segment still fires (fire is revealed
together, A5.212). Each shot:

* a damaged laser first rolls against its next pentagon (A5.47);
* spends its power from the batteries and starts its cooling on the timing
  track (A5.371-A5.372);
* rolls a d10 on its weapon table in the range bracket (:mod:`.lasers`).

Then damage is added up and applied. At a target (a chocolate) every laser's
damage this segment adds together (A5.166). At a ship, one ship's lasers
that hit it this segment make one pool, since they come in through one window
(option ``laser_pools``; docs/rulings/avt.md, *AV:T adding laser damage*); each
pool strikes the region the incoming window maps to (:mod:`.armour`), the
attacker choosing on a boundary (their ``aim``, else the thinnest armour),
and is allocated (:mod:`.damage`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from vectorwar.dice import Dice
from vectorwar.events import Event, Note, Rolled
from vectorwar.odds import Modifier, Odds
from vectorwar.roster import replace_fields
from vectorwar.systems.avt.arcs import ArcWindow, map_to_arc, middle_row
from vectorwar.systems.avt.armour import struck
from vectorwar.systems.avt.avid import TargetMarker, shoot_bearing
from vectorwar.systems.avt.damage import HullDepthCount, allocate
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.events import DamageStruck, LaserFired, TargetDestroyed
from vectorwar.systems.avt.facing_tables import cooling_bits, design_table, fresh_at, lasers_alive
from vectorwar.systems.avt.lasers import DMode, column_entry, column_odds, column_of, damage, max_range
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders
from vectorwar.systems.avt.ssd import laser_state, next_pentagon
from vectorwar.systems.avt.state import AVTState, Ship, when


def marker_between(state: AVTState, shooter: Ship, target: Ship) -> TargetMarker:
    return shoot_bearing(shooter.position, target.position, state.three_d)


def arc_windows(state: AVTState, shooter: Ship, marker: TargetMarker) -> tuple[str, ...]:
    """The firing arc window(s) a target marker maps to, as text."""
    if marker.window is None:
        return ()
    if not state.three_d:
        return (str(middle_row(shooter.orientation, marker.window)),)
    return tuple(str(w) for w in map_to_arc(shooter.orientation, marker.window))


def laser_bears(state: AVTState, design: Design, shooter: Ship, laser: str, target: Ship) -> str | None:
    """Why ``laser`` cannot fire at ``target`` now, or ``None`` if it can."""
    mount = design.lasers.get(laser)
    if mount is None:
        return f"{shooter.id} has no laser {laser} (it has {', '.join(design.lasers) or 'none'})"
    spec = design.mounts[mount]
    if laser_state(design, shooter, laser) == "destroyed":
        return f"{laser} is destroyed (A5.47)"
    if shooter.ready_at(laser) > state.now:
        return f"{laser} is cooling until {when(shooter.ready_at(laser))} (A5.371)"
    marker = marker_between(state, shooter, target)
    if marker.window is None:
        return f"{target.id} is in {shooter.id}'s own space"
    if marker.range > max_range(spec.weapon):
        return f"{target.id} is at range {marker.range}, beyond {spec.weapon}'s {max_range(spec.weapon)}"
    arc = design.arcs[mount]
    if state.three_d:
        windows = map_to_arc(shooter.orientation, marker.window)
    else:
        windows = (middle_row(shooter.orientation, marker.window),)
    if not any(w in arc for w in windows):
        shown = "/".join(str(w) for w in windows)
        return f"{target.id} is seen through AVID {marker} = arc window {shown}, outside mount {mount}'s arc"
    return None


def target_problem(state: AVTState, shooter: Ship, target: Ship) -> str | None:
    """Why no laser of ``shooter`` may fire at ``target``, whatever the laser, or ``None``."""
    if target.side == shooter.side:
        return f"{target.id} is on your own side"
    if not target.active:
        return f"{target.id} is already destroyed"
    if target.kind == "ship" and state.designs[target.design].ssd is None:
        return f"{target.id}'s design has no SSD (armour and system boxes), so it cannot be damaged"
    return None


def shot_problem(state: AVTState, design: Design, shooter: Ship, laser: str, target: Ship) -> str | None:
    """Why ``laser`` may not fire at ``target`` now, power aside (a ship's shots share its batteries), or ``None``."""
    return target_problem(state, shooter, target) or laser_bears(state, design, shooter, laser, target)


def affordable(design: Design, lasers: list[str], battery: int) -> list[str]:
    """The lasers, in the order given, that the battery can power one after another."""
    volley: list[str] = []
    for laser in lasers:
        cost = design.mounts[design.lasers[laser]].power
        if cost <= battery:
            volley.append(laser)
            battery -= cost
    return volley


def full_volley(state: AVTState, design: Design, shooter: Ship, target: Ship) -> list[str]:
    """Every laser of ``shooter`` ready and bearing on ``target``, the cheapest first, as far as its battery goes.

    The lasers :func:`shot_problem` passes: those whose arcs hold the target's window read from the design's table
    by orientation (:meth:`.facing_tables.DesignTable.facing`), in range, whole and cool.
    """
    if target_problem(state, shooter, target) is not None:
        return []
    marker = marker_between(state, shooter, target)
    if marker.window is None:
        return []
    table = design_table(design)
    bearing = table.facing(shooter.orientation, marker.window, state.three_d)[0] & lasers_alive(design, shooter)
    if not bearing:
        return []
    # Whole, bearing and cool now (Ship.ready_at, read as a mask of the timing track).
    ready_now = fresh_at(bearing, cooling_bits(design, shooter), state.now)
    range_ = marker.range
    ready = [laser for bit, laser, reach in table.by_power if ready_now & bit and range_ <= reach]
    return affordable(design, ready, shooter.battery)


def laser_targets(state: AVTState, design: Design, shooter: Ship, laser: str) -> list[Ship]:
    """Every ship ``laser`` may fire at now (power aside), in roster order: bots and front ends read this."""
    return [t for t in state.enemies_of(shooter.side) if shot_problem(state, design, shooter, laser, t) is None]


def targets_by_laser(state: AVTState, design: Design, shooter: Ship) -> dict[str, list[Ship]]:
    """:func:`laser_targets` of every laser of ``shooter`` at once: what does not depend on the laser (the target's
    own problems, its marker and arc windows) worked out once for each target, not once for each laser."""
    seen: list[tuple[Ship, int, tuple[ArcWindow, ...]]] = []
    for target in state.enemies_of(shooter.side):
        marker = marker_between(state, shooter, target)
        if target_problem(state, shooter, target) is not None or marker.window is None:
            continue
        if state.three_d:
            windows = map_to_arc(shooter.orientation, marker.window)
        else:
            windows = (middle_row(shooter.orientation, marker.window),)
        seen.append((target, marker.range, windows))
    now = state.now
    out: dict[str, list[Ship]] = {}
    for laser, mount in design.lasers.items():
        if laser_state(design, shooter, laser) == "destroyed" or shooter.ready_at(laser) > now:
            out[laser] = []
            continue
        reach, arc = max_range(design.mounts[mount].weapon), design.arcs[mount]
        out[laser] = [t for t, range_, windows in seen if range_ <= reach and any(w in arc for w in windows)]
    return out


def d_mode(state: AVTState) -> DMode:
    """How a ``Dn`` table entry scores in this game (option ``laser_d_entries``)."""
    return "none" if state.options.get("laser_d_entries", "chance") == "none" else "chance"


def pooled_by_ship(state: AVTState) -> bool:
    """Whether one ship's lasers that hit a ship in a segment make one pool (option ``laser_pools``)."""
    return state.options.get("laser_pools", "ship") != "each"


def hull_depth_count(state: AVTState) -> HullDepthCount:
    """What counts toward hull depth in this game (option ``hull_depth``)."""
    return "points" if state.options.get("hull_depth", "boxes") == "points" else "boxes"


def laser_odds(state: AVTState, shooter: Ship, laser: str, target: Ship) -> Odds:
    """What ``laser`` at ``target`` reads now: the range bracket, the table column, the chance to score.

    :func:`_shoot` reads the column where this does (:func:`_column`), so the
    column shown before the shot is the one its d10 is read in (A5.166).
    """
    return odds_seen(state, shooter, laser, target, seen_from(state, shooter, target))


#: What a shooter's every laser reads of one target alike: the target marker and the words for it and its arc window.
Seen = tuple[TargetMarker, str]


def seen_from(state: AVTState, shooter: Ship, target: Ship) -> Seen:
    """:func:`odds_seen`'s ``seen``: worked out once for a shooter and target, whichever laser fires."""
    marker = marker_between(state, shooter, target)
    window = "/".join(arc_windows(state, shooter, marker))
    return marker, f"seen through AVID {marker}, arc window {window}"


def odds_seen(state: AVTState, shooter: Ship, laser: str, target: Ship, seen: Seen) -> Odds:
    """:func:`laser_odds`, with the target as ``shooter`` sees it (:func:`seen_from`)."""
    design = state.designs[shooter.design]
    mount = design.lasers[laser]
    spec = design.mounts[mount]
    marker, seen_words = seen
    column, bracket, scoring, modifiers, damage, d_entries = _column(spec.weapon, marker.range, d_mode(state))
    notes = [seen_words, f"uses {spec.power} battery points; then cools {spec.cooling} segment(s)"]
    pentagon = next_pentagon(design, shooter, laser) if laser_state(design, shooter, laser) == "damaged" else 0
    if pentagon:
        notes.append(f"{laser} is damaged: a d10 under {pentagon} first marks a pentagon (A5.47)")
    if d_entries:
        notes.append("a Dn entry scores 1 on a second d10 of n or less (laser_d_entries)")
    return Odds(
        shooter.id,
        mount,
        target.id,
        marker.range,
        "d10",
        None,
        "table",
        0,
        scoring,
        modifiers,
        f"{damage}, at the armour facing {shooter.id}",
        bracket=bracket,
        column=column,
        notes=tuple(notes),
    )


@cache
def _column(weapon: str, range_: int, mode: DMode) -> tuple[int, str, Fraction, tuple[Modifier, ...], str, bool]:
    """What :func:`odds_seen` reads of the weapon table at ``range_``: the column and bracket, the chance to score
    (:func:`.lasers.column_odds`), the modifier naming the column, the damage it does in words, and whether a
    ``Dn`` entry in it scores by a second roll. Fixed by the table, so read once."""
    column, bracket = column_of(weapon, range_)
    scoring, average, most = column_odds(weapon, column, mode)
    modifiers = (Modifier(f"range {range_}: bracket {bracket}", column, "A5.166 (weapon table column)"),)
    damage = f"0-{most} points, {float(average):.1f} on average"
    d_entries = mode == "chance" and any(column_entry(weapon, column, r).startswith("D") for r in range(1, 11))
    return column, bracket, scoring, modifiers, damage, d_entries


def aim_choices(state: AVTState, shooter: Ship, target: Ship) -> tuple[str, ...]:
    """The armour region(s) a shot from ``shooter`` may strike ``target`` in (two on a boundary, A5.431)."""
    incoming = marker_between(state, target, shooter).window
    if incoming is None:
        return ()
    return struck(target.orientation, incoming, state.three_d)


@dataclass(slots=True)
class _Pool:
    shooter: str
    target: str
    points: int
    lasers: list[str]


def _shoot(
    state: AVTState, shooter: Ship, o: ShipOrders, dice: Dice, events: list[Event]
) -> tuple[Ship, list[tuple[str, str, int]]]:
    """Roll every shot of one ship; the ship after spending power, and (laser, target, damage) for each."""
    design = state.designs[shooter.design]
    mode = d_mode(state)
    hits: list[tuple[str, str, int]] = []
    for shot in o.shots:
        target = state.ship(shot.target)
        spec = design.mounts[design.lasers[shot.laser]]
        if laser_state(design, shooter, shot.laser) == "damaged":
            shooter = _pentagon_check(design, shooter, shot.laser, dice, events)
        marker = marker_between(state, shooter, target)
        # The column the shot's odds show (laser_odds reads it from the same place), without the words around it.
        column = _column(spec.weapon, marker.range, mode)[0]
        roll = dice.roll("d10", f"{shooter.id} {shot.laser} at {target.id}, range {marker.range}")
        events.append(Rolled.of(roll))
        text = column_entry(spec.weapon, column, roll.total)
        extra = None
        if text.startswith("D") and mode == "chance":
            second = dice.roll("d10", f"{shooter.id} {shot.laser}: {text} scores 1 on {text[1:]} or less")
            events.append(Rolled.of(second))
            extra = second.total
        points = damage(spec.weapon, marker.range, roll.total, mode, extra)
        window = "/".join(arc_windows(state, shooter, marker))
        events.append(
            LaserFired(shooter.id, shot.laser, target.id, str(marker), window, marker.range, roll.total, text, points)
        )
        hits.append((shot.laser, target.id, points))
        shooter = spend(state, design, shooter, shot.laser)
    return shooter, hits


def spend(state: AVTState, design: Design, shooter: Ship, laser: str) -> Ship:
    """``shooter`` once ``laser`` has fired: its power drawn from the batteries, its cooling started (A5.371-A5.372)."""
    spec = design.mounts[design.lasers[laser]]
    system = f"laser {laser}"
    return replace_fields(
        shooter,
        battery=shooter.battery - spec.power,
        cooling=(*((n, t) for n, t in shooter.cooling if n != laser), (laser, state.now + spec.cooling)),
        # As Ship.using, in the same copy of the ship.
        used=shooter.used if system in shooter.used else (*shooter.used, system),
    )


def _pentagon_check(design: Design, shooter: Ship, laser: str, dice: Dice, events: list[Event]) -> Ship:
    """A damaged weapon rolls as it fires: under the next pentagon's number, that pentagon is marked (A5.47)."""
    pentagon = next_pentagon(design, shooter, laser)
    if not pentagon:
        return shooter
    roll = dice.roll("d10", f"{shooter.id} {laser} is damaged: under {pentagon} marks a pentagon")
    events.append(Rolled.of(roll))
    if roll.total >= pentagon:
        return shooter
    shooter = shooter.with_marks(f"laser {laser}", shooter.marked(f"laser {laser}") + 1)
    gone = laser_state(design, shooter, laser) == "destroyed"
    events.append(
        Note(f"{shooter.id} {laser} loses a pentagon ({roll.total} under {pentagon})" + (": destroyed" if gone else ""))
    )
    return shooter


def fire_step(state: AVTState, orders: Mapping[str, SegmentOrders], dice: Dice, events: list[Event]) -> AVTState:
    """Roll every shot of the segment, then apply the damage (see the module notes)."""
    pools: list[_Pool] = []
    aims: dict[str, str] = {}
    by_ship = pooled_by_ship(state)
    for side in state.sides:
        given = orders.get(side)
        for o in given.ships if given is not None else ():
            if not o.shots:
                continue
            shooter, hits = _shoot(state, state.ship(o.ship), o, dice, events)
            state = state.with_ship(shooter)
            if o.aim:
                aims[o.ship] = o.aim
            for laser, target, points in hits:
                same = next((p for p in pools if by_ship and (p.shooter, p.target) == (o.ship, target)), None)
                if same is None:
                    pools.append(_Pool(o.ship, target, points, [laser]))
                else:
                    same.points += points
                    same.lasers.append(laser)
    return _apply(state, pools, aims, dice, events)


def _apply(state: AVTState, pools: list[_Pool], aims: dict[str, str], dice: Dice, events: list[Event]) -> AVTState:
    chocolates: dict[str, list[_Pool]] = {}
    for pool in pools:
        target = state.ship(pool.target)
        if target.kind == "target":
            chocolates.setdefault(target.id, []).append(pool)
        elif target.active:
            state = _strike(state, pool, aims.get(pool.shooter), dice, events)
    for target_id, hits in chocolates.items():
        state = _eat(state, target_id, hits, events)
    return state


def _strike(state: AVTState, pool: _Pool, aim: str | None, dice: Dice, events: list[Event]) -> AVTState:
    """One pool of laser damage at a ship: the incoming window, the region, then allocation (A5.41)."""
    target, shooter = state.ship(pool.target), state.ship(pool.shooter)
    source = f"{pool.shooter} {'+'.join(pool.lasers)}"
    if pool.points <= 0:
        events.append(Note(f"{source} scores no damage on {target.id}"))
        return state
    design = state.designs[target.design]
    ssd = design.ssd
    if ssd is None:  # pragma: no cover - shot_problem refused the shot
        raise ValueError(f"{target.id} cannot be damaged")
    incoming = marker_between(state, target, shooter).window
    choices = aim_choices(state, shooter, target)
    region = aimed(choices, aim, ssd.armour)
    events.append(DamageStruck(target.id, pool.points, source, str(incoming), region, choices))
    target = replace(target, incoming=str(incoming))
    after = allocate(
        target, design, pool.points, region, dice, events, hull_depth_count(state), target.electronics_order
    )
    return state.with_ship(after)


def aimed(choices: tuple[str, ...], aim: str | None, armour: Mapping[str, int]) -> str:
    """The region a pool strikes: the attacker's ``aim`` if it is one of the ``choices``, else the thinnest armour.

    >>> aimed(("nose", "nose-top"), None, {"nose": 5, "nose-top": 4})
    'nose-top'
    >>> aimed(("nose", "nose-top"), "nose", {"nose": 5, "nose-top": 4})
    'nose'
    """
    return aim if aim in choices else min(choices, key=lambda r: (armour[r], choices.index(r)))


def _eat(state: AVTState, target_id: str, hits: list[_Pool], events: list[Event]) -> AVTState:
    """Lasers at a chocolate add together; its toughness in one segment eats it (A5.113, A5.166)."""
    target = state.ship(target_id)
    total = sum(p.points for p in hits)
    toughness = state.designs[target.design].toughness
    if target.active and total >= toughness:
        by = " and ".join(sorted({p.shooter for p in hits}))
        events.append(TargetDestroyed(target.id, by, f"{total} damage this segment, {toughness} needed"))
        return state.with_ship(replace(target, status="destroyed"))
    if target.active:
        events.append(Note(f"{target.id} takes {total} damage this segment; {toughness} in one segment destroys it"))
    return state
