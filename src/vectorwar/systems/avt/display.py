"""What an AV:T player sees: counters on the map and each ship's control card as text.

The card holds what the Ship Control Card and SSD would: the movement grid
(yellow, tan and pink columns, the current segment marked), vectors, the
thrust chart's state and pending dots, the AVID (orientation symbols and a
target marker for every enemy, mapped to the firing arc window) and the
timing track. The future position (FP) and end of turn (EoT) markers are
where the movement grid alone takes the ship (A2.4 Markers); thrust still to
come is not in them (docs/rulings/avt.md, *AV:T markers leave out thrust to come*).

The SSD's side of the card (A5.43-A5.48) follows the Energy Board: what
damage has left of each capacity ("16/18 (capacity 18 of 22)"), the
Structural Integrity track and its next octagon, every system's boxes
marked, the repair teams, the window marked "I", each laser's state and
timer, and the armour diagram, one row per face with its four regions
around it. Only what differs from the undamaged ship is spelled out, so an
untouched ship's card stays short.

Vectors, grid columns and pending dots are written the AV:T way, a count on
an AVID arrow (``2 A, 4 B, 1 up``). Brackets stand in for the tutorial's
circle round anything below the amber ring: a target marker's range
(``F/A- (5)``) and an orientation symbol's window (the Aft row of a ship
nosed 30 degrees up reads ``(F-)``, A5.333, A5.3331).
"""

from __future__ import annotations

from functools import cache, lru_cache

from vectorwar.display import Card, CardTable, Counter, ShotOption, short_labels
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.maps import HexMap, HexOrder, HexSet, MapSection, hex_order
from vectorwar.memo import Kept
from vectorwar.systems.avt.arcs import map_to_arc, middle_row
from vectorwar.systems.avt.arrows import arrows_of
from vectorwar.systems.avt.avid import Window, horizontal_ray, shoot_bearing
from vectorwar.systems.avt.design import FACES, NEIGHBOURS, SSD, Design
from vectorwar.systems.avt.fire import Seen, odds_seen, seen_from, targets_by_laser
from vectorwar.systems.avt.fuel import matrix_row
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.lasers import max_range
from vectorwar.systems.avt.orientation import MARKERS, Orientation
from vectorwar.systems.avt.ssd import (
    laser_state,
    next_pentagon,
    radiator_tenths,
    repair_teams,
    ship_battery_capacity,
    ship_heat_capacity,
    ship_reactor_power,
    thrust_limit,
)
from vectorwar.systems.avt.state import HEAT_TENTHS, AVTState, Ship, grid_steps, heat_text, when
from vectorwar.vectors import Velocity

_SYMBOL = {"nose": "Nose", "top": "Top", "starboard": "Stbd", "port": "Port", "aft": "Aft", "bottom": "Bottom"}
#: Faces as the armour rows name them: short, like the AVID's symbols, but in lower case like the regions.
_FACE = {"nose": "nose", "aft": "aft", "port": "port", "starboard": "stbd", "top": "top", "bottom": "bottom"}
#: A "boxes marked" row holds about this many characters before the list goes on in the next row.
_ROW_WIDTH = 44


def vector_text(velocity: Velocity) -> str:
    """Vectors the way AV:T players write them: counts on the AVID's arrows.

    >>> vector_text(Velocity.parse("A=2, B=4, up=1")), vector_text(Velocity())
    ('2 A, 4 B, 1 up', 'none')
    """
    return ", ".join(f"{n} {arrow}" for arrow, n in arrows_of(velocity).items()) or "none"


def counter_facing(ship: Ship) -> Direction | None:
    """The hexside a counter points at; corner and steep noses show no arrow (the card has them)."""
    heading = ship.orientation.heading
    if ship.kind == "ship" and heading % 2 == 0 and abs(ship.orientation.pitch) < 3:
        return Direction(heading // 2)
    return None


def counters(state: AVTState) -> list[Counter]:
    labels = short_labels(s.id for s in state.ships)
    return [
        Counter(
            s.id,
            s.side,
            s.position,
            counter_facing(s),
            s.status,
            labels[s.id],
            velocity=vector_text(s.velocity) if s.kind == "ship" else "",
        )
        for s in state.ships
    ]


def future_position(ship: Ship, first: int, last: int) -> Position:
    """Where the movement grid alone puts the ship after segments ``first``..``last`` (the FP and EoT markers)."""
    position = ship.position
    for segment in range(first, last + 1):
        for arrow in grid_steps(ship.velocity, segment):
            position = arrow.velocity.moved(position)
    return position


def symbol_window(window: Window) -> str:
    """An orientation symbol's window, bracketed (circled) when below the amber ring.

    >>> symbol_window(Window.parse("F-")), symbol_window(Window.parse("down")), symbol_window(Window.parse("C+"))
    ('(F-)', '(down)', 'C+')
    """
    # The paper AVID is seen from above, where a window below the map overlies the one above it: hence the
    # circle. Brackets keep the card reading like the paper and like target markers (A5.162).
    return f"({window})" if window.below else str(window)


@lru_cache(maxsize=1024)
def _symbol_lines(orientation: Orientation, three_d: bool) -> tuple[tuple[str, str], ...]:
    """The orientation symbols' rows of :func:`avid_lines`: fixed by the orientation, so written once for it."""
    return tuple(
        (_SYMBOL[name], " or ".join(symbol_window(w) for w in orientation.marker(name)))
        for name in MARKERS
        if three_d or name in ("nose", "starboard", "port", "aft")
    )


def avid_lines(state: AVTState, ship: Ship) -> list[tuple[str, str]]:
    """Orientation symbols and a target marker per enemy, as label/value rows."""
    rows = list(_symbol_lines(ship.orientation, state.three_d))
    for enemy in state.enemies_of(ship.side):
        marker = shoot_bearing(ship.position, enemy.position, state.three_d)
        if marker.window is None:
            rows.append((f"-> {enemy.id}", "in this space"))
            continue
        if state.three_d:
            arc = "/".join(str(w) for w in map_to_arc(ship.orientation, marker.window))
        else:
            arc = str(middle_row(ship.orientation, marker.window))
        rows.append((f"-> {enemy.id}", f"{marker}, arc window {arc}"))
    return rows


def _matrix(design: Design, ship: Ship) -> str:
    """Where the fuel track puts the ship on its Thrust Matrix, less engine damage: ``row 1 of 2: max 5``."""
    fuel_left = ship.fuel
    row = matrix_row(max(0, design.fuel - fuel_left), design.fuel_shapes)
    text = f"row {min(row, len(design.matrix) - 1) + 1} of {len(design.matrix)}: max {thrust_limit(design, ship)}"
    lost = ship.marked("thrust")
    if lost:
        text += f" ({design.max_thrust(fuel_left)} less {lost} thrust box{'es' if lost > 1 else ''} marked)"
    return text


def _with_notes(text: str, notes: list[str]) -> str:
    return f"{text} ({'; '.join(notes)})" if notes else text


def heat_lines(design: Design, ship: Ship) -> list[tuple[str, str]]:
    """The Energy Board and Heat Management Console (A5.312-A5.314), with the choices for the turn's end.

    Damage shows as what is left against the undamaged figure: reactors give the
    power of their highest unmarked box but make the same heat (A5.452).
    """
    power = ship_reactor_power(design, ship)
    notes: list[str] = []
    if not ship.reactors_on:
        reactors = "off"
    elif power:
        reactors = f"on, +{power} a segment"
    else:
        reactors = "on, no power"
    if power < design.reactor and ship.reactors_on:
        notes.append(f"{f'of {design.reactor}' if power else 'X box'}, heat still {design.reactor} a turn")
    if ship.reactors_next is not None:
        notes.append(f"{'on' if ship.reactors_next else 'off'} next turn")
    stored = ship.heat_tenths
    sinks = ship_heat_capacity(design, ship)
    heat_notes = []
    if stored > sinks * HEAT_TENTHS:
        heat_notes.append(f"{heat_text(stored - sinks * HEAT_TENTHS)} excess")
    if sinks < design.heat_sinks:
        heat_notes.append(f"capacity {sinks} of {design.heat_sinks}")
    output = radiator_tenths(design, ship)
    radiators = f"{ship.radiators}, {heat_text(output)} a turn when out"
    radiator_notes = []
    if output < radiator_tenths(design):
        radiator_notes.append(f"of {heat_text(radiator_tenths(design))}")
    if ship.radiators_next is not None:
        radiator_notes.append(f"{ship.radiators_next} ordered")
    return [
        ("reactors", _with_notes(reactors, notes)),
        ("heat stored", _with_notes(f"{heat_text(stored)}/{sinks}", heat_notes)),
        ("radiators", _with_notes(radiators, radiator_notes)),
        ("flex points", str(design.flex)),
    ]


def battery_text(design: Design, ship: Ship) -> str:
    """Power in the batteries against what they hold now, and the undamaged capacity once boxes are marked."""
    capacity = ship_battery_capacity(design, ship)
    text = f"{ship.battery}/{capacity}"
    return f"{text} (capacity {capacity} of {design.battery})" if capacity < design.battery else text


def fuel_text(ship: Ship, design: Design) -> str:
    notes = []
    if ship.fuel_lost:
        notes.append(f"{ship.fuel_lost} lost with tanks")
    if ship.chart.fuel:
        notes.append(f"{ship.chart.fuel} to spend")
    return _with_notes(f"{ship.fuel}/{design.fuel}", notes)


def structure_text(ssd: SSD, ship: Ship) -> str:
    """The Structural Integrity track (A5.454): hits taken and the next octagon, whose d10 decides the ship's fate.

    >>> from vectorwar.systems.avt.rules import AttackVector
    >>> from vectorwar.hexes import Position
    >>> ssd = AttackVector().designs()["rafik"].ssd
    >>> ship = Ship("X", "blue", "rafik", "Rafik", "ship", Position.parse("0,0"))
    >>> structure_text(ssd, ship), structure_text(ssd, ship.with_marks("structure", 4))
    ('0/12 hit, next octagon 2 at box 4', '4/12 hit, next octagon 3 at box 7')
    >>> structure_text(ssd, ship.with_marks("structure", 12))
    '12/12 hit: the next hit destroys the ship'
    """
    track = ssd.structure
    hit = ship.marked("structure")
    text = f"{hit}/{len(track)} hit"
    if hit >= len(track):
        # docs/rulings/avt.md, *AV:T structure track*.
        return f"{text}: the next hit destroys the ship"
    octagon = next(((box, n) for box, n in enumerate(track) if box >= hit and n), None)
    if octagon is None:
        return f"{text}, no octagon left"
    return f"{text}, next octagon {octagon[1]} at box {octagon[0] + 1}"


def _boxes(design: Design, ssd: SSD, system: str) -> int:
    """How many boxes ``system`` has on the SSD (the rows damage marks, A5.452)."""
    rows: dict[str, int] = {
        "batteries": len(ssd.batteries),
        "heat sinks": len(ssd.heat_sinks),
        "reactors": len(ssd.reactors),
        "radiators": ssd.radiators,
        "quarters": len(ssd.quarters),
        "fuel": max(1, design.fuel_spaces),
        "thrust": design.thrust,
    }
    # Like damage.py's plain hits: a system the SSD gives no row of boxes is one box.
    return rows.get(system) or ssd.systems.get(system, 1)


def damage_lines(design: Design, ssd: SSD, ship: Ship) -> list[tuple[str, str]]:
    """Every system with boxes marked, as ``cargo 3/6``, alphabetically; lasers and the SI track have rows of
    their own. Electronics name the boxes the defender gave up (A5.457). Long lists go on in unlabelled rows."""
    parts = [
        (
            f"fuel columns {n}/{_boxes(design, ssd, name)}"
            if name == "fuel"
            else f"{name} {n}/{_boxes(design, ssd, name)}"
        )
        for name, n in ship.marks
        if name != "structure" and not name.startswith("laser ")
    ]
    if ship.electronics_lost:
        lost = ship.electronics_lost
        parts.append(f"electronics {len(lost)}/{len(ssd.electronics)} ({', '.join(lost)})")
    if not parts:
        return [("boxes marked", "none")]
    lines: list[str] = []
    for part in sorted(parts):
        if lines and len(lines[-1]) + 2 + len(part) <= _ROW_WIDTH:
            lines[-1] += f", {part}"
        else:
            lines.append(part)
    return [
        ("boxes marked" if i == 0 else "", line + ("," if i < len(lines) - 1 else "")) for i, line in enumerate(lines)
    ]


def repair_text(design: Design, ssd: SSD, ship: Ship) -> str:
    """Repair teams (A5.456, A5.48): free ones, those at work and when each rolls, and those lost with Quarters."""
    text = f"{repair_teams(design, ship)} free"
    if ship.repairs:
        text += ", at work: " + ", ".join(f"{r.system} (rolls before turn {r.done})" for r in ship.repairs)
    lost = sum(1 for box, wrench in enumerate(ssd.quarters) if wrench and box < ship.marked("quarters"))
    return f"{text}, {lost} lost" if lost else text


def laser_lines(state: AVTState, design: Design, ship: Ship) -> list[tuple[str, str]]:
    """The lasers ready to fire in one row; each other laser in its own: damaged, cooling or destroyed (A5.47)."""
    ready: list[str] = []
    rows: list[tuple[str, str]] = []
    for laser in design.lasers:
        condition = laser_state(design, ship, laser)
        if condition == "destroyed":
            rows.append((laser, "destroyed"))
            continue
        parts = []
        if condition == "damaged":
            parts.append(f"damaged, next pentagon {next_pentagon(design, ship, laser)}")
        at = ship.ready_at(laser)
        if at > state.now:
            parts.append(f"cooling, ready {when(at)}")
        if parts:
            rows.append((laser, "; ".join(parts)))
        else:
            ready.append(laser)
    return [("lasers ready", " ".join(ready) or "none"), *rows]


def armour_lines(ssd: SSD) -> list[tuple[str, str]]:
    """The armour diagram (A5.43, A5.44): each face's centre, then its four regions one off toward each neighbour.

    >>> from vectorwar.systems.avt.rules import AttackVector
    >>> armour_lines(AttackVector().designs()["rafik"].ssd)[0]
    ('armour nose', '5 [top 4, bottom 4, port 5, stbd 5]')
    """
    rows = []
    for face in FACES:
        around = ", ".join(f"{_FACE[n]} {ssd.armour[f'{face}-{n}']}" for n in NEIGHBOURS[face])
        rows.append((f"armour {_FACE[face]}", f"{ssd.armour[face]} [{around}]"))
    return rows


def ship_cards(state: AVTState) -> list[Card]:
    cards = []
    for ship in state.ships:
        if ship.kind != "ship":
            continue
        design = state.designs[ship.design]
        chart = ship.chart
        thrust = f"{chart.setting}, cell {chart.cell}/8" if chart.setting or chart.cell else "off"
        pending = ", ".join(f"{n} {a}" for a, n in chart.pending_dots().items()) or "none"
        rows: list[tuple[str, str]] = [
            ("position", str(ship.position)),
            ("future position", str(future_position(ship, state.segment, state.segment))),
            ("end of turn", str(future_position(ship, state.segment, SEGMENTS))),
            ("vectors", vector_text(ship.velocity)),
            ("thrust", thrust),
            ("thrust matrix", _matrix(design, ship)),
            ("pending dots", pending),
            ("bias", "-" if ship.bias is None else str(ship.bias)),
            ("fuel", fuel_text(ship, design)),
            ("battery", battery_text(design, ship)),
            *heat_lines(design, ship),
        ]
        ssd = design.ssd
        if ssd is not None:
            rows.append(("SI track", structure_text(ssd, ship)))
            rows.extend(damage_lines(design, ssd, ship))
            rows.append(("repair teams", repair_text(design, ssd, ship)))
            rows.append(("incoming (I)", ship.incoming or "none"))
        if ship.turning is not None:
            plan = ", ".join(
                f"{o.nose if ship.turning.kind == 'pivot' else o} {when(at)}" for at, o in ship.turning.stops
            )
            rows.append((ship.turning.kind, f"{ship.turning.order}: {plan}"))
        rows.extend(laser_lines(state, design, ship))
        rows.extend(avid_lines(state, ship))
        if ssd is not None:
            rows.extend(armour_lines(ssd))
        grid = ship.grid
        heads = tuple(f"{c.per_turn} {c.arrow}" if c else "-" for c in (grid.yellow, grid.tan, grid.pink))
        table = CardTable(
            ("seg", *heads, ""),
            tuple(
                (str(s), *(str(n) if n else "" for n in grid.rows[s - 1]), "<" if s == state.segment else "")
                for s in range(1, SEGMENTS + 1)
            ),
        )
        cards.append(Card(f"{ship.id}: {ship.name}", ship.side, tuple(rows), table, ship.status))
    return cards


#: Axial offsets as one whole number, ``dq * _SPAN + dr``: a look-up by a number builds no tuple. Maps and ranges are
#: far smaller than this (``vectorwar.limits``), so no two offsets share a number.
_SPAN = 1 << 20

#: The map's hexes last walked, with their sections (recognised by identity: a game's states share one map).
_last_map: tuple[tuple[MapSection, ...], tuple[HexOrder, tuple[tuple[int, int], ...]] | None] = ((), None)


def _map_hexes(hex_map: HexMap) -> tuple[HexOrder, tuple[tuple[int, int], ...]]:
    """The map's :class:`~vectorwar.maps.HexOrder`, and each of its hexes' bit there with its axial coordinates as
    one number (``q * _SPAN + r``), in that order.

    Kept for the last map asked: every ship's arcs walk it.
    """
    global _last_map
    kept, found = _last_map
    if kept is not hex_map.sections or found is None:
        order = hex_order(hex_map)
        found = (order, tuple((order.bit(place), h.q * _SPAN + h.r) for place, h in enumerate(order.hexes)))
        # One tuple stored at once: a scene built on another thread reads a map with its own hexes.
        _last_map = (hex_map.sections, found)
    return found


@cache
def _rays_within(radius: int) -> dict[int, int]:
    """The AVID ray each axial offset within ``radius`` hexes (but not 0, 0) is seen on, by the offset's number."""
    return {
        dq * _SPAN + dr: horizontal_ray(dq, dr)
        for dq in range(-radius, radius + 1)
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1)
        if dq or dr
    }


def _ray_groups(hex_map: HexMap, centre: Hex, radius: int) -> list[int]:
    """The map's hexes within ``radius`` of ``centre`` (but not it), grouped by the AVID ray they are seen on: each
    group the sum of its hexes' bits in the map's :class:`~vectorwar.maps.HexOrder`, by ray.

    A mount's arc is then the ``|`` of its rays' groups: no hex is hashed to put it in a set (a side of eight ships'
    arcs hold some 28,000 hexes).
    """
    groups = [0] * 12
    here = centre.q * _SPAN + centre.r
    ray_of = _rays_within(radius).get
    for bit, place in _map_hexes(hex_map)[1]:
        ray = ray_of(place - here)
        if ray is not None:
            groups[ray] |= bit
    return groups


def arc_hexes(state: AVTState, ship_id: str) -> dict[str, HexSet]:
    """Mount -> hexes of the map at the ship's own altitude inside its arc and its lasers' range.

    A hex lies in an arc by the AVID ray it is seen on, so the map is walked
    once per ship and range (grouping hexes by ray), and each mount takes the
    groups of the rays its arc holds from the ship's orientation
    (:func:`_arc_rays`). The answer is kept by all it depends on (:func:`_kept_arcs`).
    """
    ship = state.ship(ship_id)
    design = state.designs[ship.design]
    return dict(_kept_arcs(state.map, ship.position.hex, design, ship.orientation, state.three_d))


_ARCS_KEPT = 1024
#: :func:`_arcs`' answers by the map's and the design's identity (both kept beside them, so each identity stays its
#: own), the hex, orientation and altitude option; started again past ``_ARCS_KEPT``. A scene built again for the
#: same position (another viewer, a refresh) or with a ship that has not moved, as a slow ship mostly has not this
#: segment, looks its arcs up instead of walking the map.
_ARCS: Kept[
    tuple[int, int, int, int, Orientation, bool],
    tuple[tuple[MapSection, ...], Design, dict[str, HexSet]],
] = Kept(_ARCS_KEPT)


def _kept_arcs(
    hex_map: HexMap, centre: Hex, design: Design, orientation: Orientation, three_d: bool
) -> dict[str, HexSet]:
    # The map is in the key, not in a slot beside the table: the server builds scenes of several games on
    # several threads, and arcs worked out on one map must never be read for another.
    sections = hex_map.sections
    key = (id(sections), centre.q, centre.r, id(design), orientation, three_d)
    kept = _ARCS.get(key)
    if kept is not None and kept[0] is sections and kept[1] is design:
        return kept[2]
    found = _arcs(hex_map, centre, design, orientation, three_d)
    _ARCS.keep(key, (sections, design, found))
    return found


def _arcs(hex_map: HexMap, centre: Hex, design: Design, orientation: Orientation, three_d: bool) -> dict[str, HexSet]:
    """:func:`arc_hexes` worked out: each mount's rays' groups of the map's hexes around ``centre``."""
    order = _map_hexes(hex_map)[0]
    groups_by_range: dict[int, list[int]] = {}
    out: dict[str, HexSet] = {}
    for mount, (reach, rays) in _arc_rays(design, orientation, three_d).items():
        groups = groups_by_range.get(reach)
        if groups is None:
            groups = groups_by_range[reach] = _ray_groups(hex_map, centre, reach)
        bits = 0
        for ray in rays:
            bits |= groups[ray]
        out[mount] = HexSet(order, bits)
    return out


_ARC_RAYS_KEPT = 4096
#: :func:`_arc_rays`' answers by the design's identity (the design kept beside them, so the identity stays its own),
#: orientation and altitude option; started again past ``_ARC_RAYS_KEPT``.
_ARC_RAYS: Kept[tuple[int, Orientation, bool], tuple[Design, dict[str, tuple[int, frozenset[int]]]]] = Kept(
    _ARC_RAYS_KEPT
)


def _arc_rays(design: Design, orientation: Orientation, three_d: bool) -> dict[str, tuple[int, frozenset[int]]]:
    """Each mount, by name, with its weapon's range and the AVID rays (of the ship's own level) its arc holds from
    ``orientation``: the same for every ship of the design so turned, wherever it is."""
    key = (id(design), orientation, three_d)
    kept = _ARC_RAYS.get(key)
    if kept is not None and kept[0] is design:
        return kept[1]
    windows = {
        ray: tuple(map_to_arc(orientation, Window(0, ray))) if three_d else (middle_row(orientation, Window(0, ray)),)
        for ray in range(12)
    }
    found = {
        mount: (
            max_range(spec.weapon),
            frozenset(ray for ray, seen in windows.items() if any(w in design.arcs[mount] for w in seen)),
        )
        for mount, spec in sorted(design.mounts.items())
    }
    _ARC_RAYS.keep(key, (design, found))
    return found


_FIRE_KEPT = 16
#: :func:`fire_options`' answers by the state's identity (the state kept beside them, so the identity stays its own)
#: and the side; started again past ``_FIRE_KEPT``. A scene asks them for its menus and, for its news, of the state
#: before too: the state of the scene built before it.
_FIRE: Kept[tuple[int, str], tuple[AVTState, dict[str, tuple[ShotOption, ...]]]] = Kept(_FIRE_KEPT)


def fire_options(state: AVTState, side: str) -> dict[str, list[ShotOption]]:
    """Each laser shot a ship of ``side`` may order this segment on its own, as ``fire LASER>TARGET``.

    Weapons are the mounts, as :func:`arc_hexes` names them. A laser whose
    power is more than the batteries hold is left out; several shots together
    may still need more power than there is, which the order check reports
    (each option carries its laser as ``unit``, its power as ``cost`` and the
    batteries as ``budget``, so a front end can refuse such a queue first).
    """
    if state.phase != "orders" or side not in state.commanders():
        return {}
    key = (id(state), side)
    kept = _FIRE.get(key)
    if kept is None or kept[0] is not state:
        kept = (state, {ship: tuple(shots) for ship, shots in _fire_options(state, side).items()})
        _FIRE.keep(key, kept)
    # Lists of their own: the caller may change them.
    return {ship: list(shots) for ship, shots in kept[1].items()}


def _fire_options(state: AVTState, side: str) -> dict[str, list[ShotOption]]:
    """:func:`fire_options` worked out."""
    options: dict[str, list[ShotOption]] = {}
    for ship in state.ships_of(side):
        if ship.kind != "ship":
            continue
        design = state.designs[ship.design]
        bearing = targets_by_laser(state, design, ship)
        shots = [
            (laser, mount, target)
            for laser, mount in design.lasers.items()
            if design.mounts[mount].power <= ship.battery
            for target in bearing[laser]
        ]
        if shots:
            options[ship.id] = _shots(state, design, ship, shots)
    return options


def _shots(state: AVTState, design: Design, ship: Ship, shots: list[tuple[str, str, Ship]]) -> list[ShotOption]:
    """:func:`fire_options` for one ship's ``(laser, mount, target)`` shots, in that order."""
    # Each laser fires once (A5.371): a mount may fire as many shots as it has lasers ready now.
    ready: dict[str, set[str]] = {}
    for laser, mount, _ in shots:
        ready.setdefault(mount, set()).add(laser)
    # What every laser reads of a target alike (its marker and arc window) is worked out once a target.
    seen: dict[str, Seen] = {}
    out = []
    for laser, mount, target in shots:
        spec = design.mounts[mount]
        found = seen.get(target.id)
        if found is None:
            found = seen[target.id] = seen_from(state, ship, target)
        out.append(
            ShotOption(
                mount,
                target.id,
                f"fire {laser}>{target.id}",
                f"mount {mount}: {spec.weapon} ({spec.lasers} laser{'s' if spec.lasers > 1 else ''})",
                odds_seen(state, ship, laser, target, found),
                1,
                len(ready[mount]),
                "A5.371",
                unit=laser,
                cost=spec.power,
                budget=ship.battery,
                budget_rule="AV:T (A5.372) power",
            )
        )
    return out


def range_words(state: AVTState, origin: Counter, target: Counter) -> str:
    """The range from ``origin`` to ``target`` with altitude (the RALT, A5.153) and the window it is seen through."""
    three_d = state.three_d
    marker = shoot_bearing(origin.position, target.position, three_d)
    out = origin.position.hex.distance(target.position.hex)
    if not three_d:
        return f"range {marker.range}, seen through {marker.window} (A5.152)"
    up = target.position.altitude - origin.position.altitude
    height = "level" if up == 0 else f"{abs(up)} {'up' if up > 0 else 'down'}"
    seen = "in the same hex" if marker.window is None else f"seen through {marker.window}"
    return f"range {marker.range} by the RALT ({out} out, {height}), {seen} (A5.153)"
