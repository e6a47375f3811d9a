"""What an AV:T player sees: counters on the map and each ship's control card as text.

The card holds what the Ship Control Card and SSD would: the movement grid
(yellow, tan and pink columns, the current segment marked), vectors, the
thrust chart's state and pending dots, the AVID (orientation symbols and a
target marker for every enemy, mapped to the firing arc window) and the
timing track. The future position (FP) and end of turn (EoT) markers are
where the movement grid alone takes the ship (A2.4 Markers); thrust still to
come is not in them (docs/rulings.md, *AV:T markers leave out thrust to come*).

Vectors, grid columns and pending dots are written the AV:T way, a count on
an AVID arrow (``2 A, 4 B, 1 up``). Brackets stand in for the tutorial's
circle round anything below the amber ring: a target marker's range
(``F/A- (5)``) and an orientation symbol's window (the Aft row of a ship
nosed 30 degrees up reads ``(F-)``, A5.333, A5.3331).
"""

from __future__ import annotations

from vectorwar.display import Card, CardTable, Counter, ShotOption, short_labels
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.systems.avt.arcs import map_to_arc, middle_row
from vectorwar.systems.avt.arrows import arrows_of
from vectorwar.systems.avt.avid import Window, horizontal_ray, shoot_bearing
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.fire import laser_targets
from vectorwar.systems.avt.fuel import matrix_row
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.lasers import max_range
from vectorwar.systems.avt.orientation import MARKERS
from vectorwar.systems.avt.ssd import ship_heat_capacity
from vectorwar.systems.avt.state import HEAT_TENTHS, AVTState, Ship, grid_steps, heat_text, when
from vectorwar.systems.avt.turn_end import radiator_output
from vectorwar.vectors import Velocity

_SYMBOL = {"nose": "Nose", "top": "Top", "starboard": "Stbd", "port": "Port", "aft": "Aft", "bottom": "Bottom"}


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


def avid_lines(state: AVTState, ship: Ship) -> list[tuple[str, str]]:
    """Orientation symbols and a target marker per enemy, as label/value rows."""
    rows = [
        (_SYMBOL[name], " or ".join(symbol_window(w) for w in ship.orientation.marker(name)))
        for name in MARKERS
        if state.three_d or name in ("nose", "starboard", "port", "aft")
    ]
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


def _matrix(design: Design, fuel_left: int) -> str:
    """Where the fuel track puts the ship on its Thrust Matrix: ``row 1 of 2: max 5``."""
    row = matrix_row(max(0, design.fuel - fuel_left), design.fuel_shapes)
    return f"row {min(row, len(design.matrix) - 1) + 1} of {len(design.matrix)}: max {design.max_thrust(fuel_left)}"


def heat_lines(design: Design, ship: Ship) -> list[tuple[str, str]]:
    """The Energy Board and Heat Management Console (A5.312-A5.314), with the choices for the turn's end."""
    reactors = f"on, +{design.reactor} a segment" if ship.reactors_on else "off"
    if ship.reactors_next is not None:
        reactors += f" ({'on' if ship.reactors_next else 'off'} next turn)"
    stored = ship.heat_tenths
    sinks = ship_heat_capacity(design, ship)
    heat = f"{heat_text(stored)}/{sinks}"
    if stored > sinks * HEAT_TENTHS:
        heat += f" ({heat_text(stored - sinks * HEAT_TENTHS)} excess)"
    radiators = f"{ship.radiators}, {heat_text(radiator_output(design, ship))} a turn when out"
    if ship.radiators_next is not None:
        radiators += f" ({ship.radiators_next} ordered)"
    return [("reactors", reactors), ("heat stored", heat), ("radiators", radiators), ("flex points", str(design.flex))]


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
            ("thrust matrix", _matrix(design, ship.fuel)),
            ("pending dots", pending),
            ("bias", "-" if ship.bias is None else str(ship.bias)),
            ("fuel", f"{ship.fuel}/{design.fuel}" + (f" ({chart.fuel} to spend)" if chart.fuel else "")),
            ("battery", f"{ship.battery}/{design.battery}"),
            *heat_lines(design, ship),
        ]
        if ship.turning is not None:
            plan = ", ".join(
                f"{o.nose if ship.turning.kind == 'pivot' else o} {when(at)}" for at, o in ship.turning.stops
            )
            rows.append((ship.turning.kind, f"{ship.turning.order}: {plan}"))
        cooling = [f"{name} {when(at)}" for name, at in ship.cooling if at > state.now]
        rows.append(("cooling", ", ".join(cooling) or "all lasers ready"))
        rows.extend(avid_lines(state, ship))
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


def arc_hexes(state: AVTState, ship_id: str) -> dict[str, frozenset[Hex]]:
    """Mount -> hexes of the map at the ship's own altitude inside its arc and its lasers' range."""
    ship = state.ship(ship_id)
    design = state.designs[ship.design]
    out: dict[str, frozenset[Hex]] = {}
    for mount, spec in sorted(design.mounts.items()):
        arc = design.arcs[mount]
        by_ray: dict[int, bool] = {}
        found: set[Hex] = set()
        for h in ship.position.hex.within(max_range(spec.weapon)):
            if h == ship.position.hex or not state.map.contains(h):
                continue
            ray = horizontal_ray(*h.minus(ship.position.hex))
            if ray not in by_ray:
                window = Window(0, ray)
                if state.three_d:
                    by_ray[ray] = any(w in arc for w in map_to_arc(ship.orientation, window))
                else:
                    by_ray[ray] = middle_row(ship.orientation, window) in arc
            if by_ray[ray]:
                found.add(h)
        out[mount] = frozenset(found)
    return out


def fire_options(state: AVTState, seat: str) -> dict[str, list[ShotOption]]:
    """Each laser shot a ship of ``seat`` may order this segment on its own, as ``fire LASER>TARGET``.

    Weapons are the mounts, as :func:`arc_hexes` names them. A laser whose
    power is more than the batteries hold is left out; several shots together
    may still need more power than there is, which the order check reports.
    """
    if state.phase != "orders" or seat not in state.commanders():
        return {}
    options: dict[str, list[ShotOption]] = {}
    for ship in state.ships_of(seat):
        if ship.kind != "ship":
            continue
        design = state.designs[ship.design]
        for laser, mount in design.lasers.items():
            if design.mounts[mount].power > ship.battery:
                continue
            for target in laser_targets(state, design, ship, laser):
                options.setdefault(ship.id, []).append(ShotOption(mount, target.id, f"fire {laser}>{target.id}"))
    return options
