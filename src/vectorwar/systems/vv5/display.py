"""What VV5 shows a player: counters with vector markers, status cards, arcs, the catalogue.

The status card follows the paper one: boxes per damage location (open
``O``, knocked out ``✕``), armour ovals (``o``, crossed ``x``), gun mounts,
missile launchers (``O`` ready, ``●`` launched, ``✕`` destroyed, ``B`` a bomb), the incoming
missiles with the number each needs right now, and the plot record.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from vectorwar.display import Card, CardTable, Counter, ShotOption, short_labels
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.systems.vv5 import crews, shock
from vectorwar.systems.vv5.arcs import CODE_OF, GUN_ARCS, MISSILE_ARC, WEAPON_WORDS, covered_hexes
from vectorwar.systems.vv5.combat import (
    GUN_RANGE,
    MISSILE_RANGE,
    RULE_MISSILES,
    RULE_RAPID,
    SPREAD_NOTE,
    on_track,
)
from vectorwar.systems.vv5.design import Design
from vectorwar.systems.vv5.equipment import build_ship
from vectorwar.systems.vv5.gunfire import launch_odds, shot_odds
from vectorwar.systems.vv5.orders import Shot
from vectorwar.systems.vv5.state import Box, Ship, VV5State
from vectorwar.systems.vv5.targeting import legal_gun_targets, legal_launch_targets
from vectorwar.vectors import Velocity

LAUNCHER_MARKS = {"ready": "O", "spent": "●", "destroyed": "✕", "bomb": "B"}


def boxes(box: Box) -> str:
    """Open and knocked-out boxes, then armour ovals.

    >>> boxes(Box(2, 1, 3, 2))
    'O O ✕  armour o x'
    """
    marks = " ".join(["O"] * box.boxes + ["✕"] * (box.fitted - box.boxes)) or "-"
    if box.armour_fitted:
        marks += "  armour " + " ".join(["o"] * box.armour + ["x"] * (box.armour_fitted - box.armour))
    return marks


def counters(state: VV5State) -> list[Counter]:
    labels = short_labels(s.id for s in state.ships)
    return [
        Counter(
            s.id,
            s.side,
            Position(s.hex),
            s.facing,
            s.status,
            labels[s.id],
            velocity=str(s.velocity),
            # A ship at rest has its marker under it: nothing to draw.
            markers=(s.vector_marker,) if s.active and not s.velocity.is_zero else (),
        )
        for s in state.ships
    ]


def ship_card(state: VV5State, ship: Ship) -> Card:
    rows: list[tuple[str, str]] = [
        ("SIDE", ship.side),
        ("DESIGN", f"{ship.name} ({ship.design}), {ship.mass} t {ship.kind}"),
        ("AT", f"{ship.hex} heading {ship.facing}"),
        ("VECTOR", f"{ship.velocity}, marker at {ship.vector_marker}"),
        ("6 LIFE SUPPORT", boxes(ship.life_support)),
    ]
    for mount in ship.mounts:
        rows.append((f"5 GUNS {CODE_OF[mount.arc]}", boxes(mount.guns)))
    if ship.launchers or ship.missile_armour.armour_fitted:
        marks = " ".join(LAUNCHER_MARKS[x] for x in ship.launchers) or "-"
        if ship.missile_armour.armour_fitted:
            armour = ship.missile_armour
            marks += "  armour " + " ".join(["o"] * armour.armour + ["x"] * (armour.armour_fitted - armour.armour))
        rows.append(("5 MISSILES", marks))
    rows += [
        ("4 ACCELERATION", boxes(ship.acceleration)),
        ("3 AGILITY", boxes(ship.agility)),
        ("2 CARGO", boxes(ship.cargo)),
        ("1 STRUCTURE", boxes(ship.structure)),
    ]
    incoming = [m for m in state.incoming if m.target == ship.id]
    if incoming:
        rows.append(("INCOMING", ", ".join(f"{m.shooter} {on_track(m.to_hit + ship.accelerated)}+" for m in incoming)))
    rows += crew_rows(state, ship)
    if not ship.active:
        rows.append(("STATUS", ship.status.upper()))
    table = CardTable(("Turn", "Plot"), tuple((str(e.turn), e.plot) for e in ship.record))
    return Card(f"{ship.id}: {ship.name}", ship.side, tuple(rows), table, ship.status)


def crew_rows(state: VV5State, ship: Ship) -> list[tuple[str, str]]:
    """The optional rules' lines: the crew's rating, shock points and panic (only when those rules are on)."""
    rows: list[tuple[str, str]] = []
    if crews.enabled(state) and crews.crewed(state, ship):
        name = f"{ship.crew}, " if ship.crew else ""
        rows.append(("CREW", f"{name}{crews.rating(ship.experience)} ({ship.experience} points)"))
    if shock.enabled(state) and ship.active:
        marks = ", ".join(ship.shock) or "none"
        line = f"{shock.points(ship)} ({marks}); panics on 1D6 <= {shock.panic_need(state, ship)}"
        rows.append(("SHOCK", line))
        if ship.panicked:
            rows.append(("PANIC", f"must fly {ship.panic_move or '0'}"))
    return rows


def ship_cards(state: VV5State) -> list[Card]:
    return [ship_card(state, s) for s in state.ships]


def arc_hexes(state: VV5State, ship_id: str) -> dict[str, frozenset[Hex]]:
    """Hexes each working gun mount (within 6) and the missile arc (within 15) cover."""
    ship = state.ship(ship_id)
    if not ship.active:
        return {}
    out: dict[str, frozenset[Hex]] = {}
    for mount in ship.mounts:
        if mount.guns.boxes:
            arc = GUN_ARCS[mount.arc]
            out[CODE_OF[mount.arc]] = covered_hexes(arc, ship.hex, ship.facing, GUN_RANGE, state.map.contains)
    if ship.missiles_ready:
        out["msl"] = covered_hexes(MISSILE_ARC, ship.hex, ship.facing, MISSILE_RANGE, state.map.contains)
    return out


def fire_options(state: VV5State, side: str) -> dict[str, list[ShotOption]]:
    """Each legal launch (one missile) or gun shot (each number of guns) as an order piece.

    Weapons are named as :func:`arc_hexes` names them. Launching more than one
    missile, or firing a mount twice (rapid fire), is the same piece repeated;
    each option's ``uses`` and ``limit`` say how far (missiles ready; each
    gun twice).
    """
    options: dict[str, list[ShotOption]] = {}
    spread = "" if state.options.get("several_targets", "harder") == "ignore" else SPREAD_NOTE
    if state.phase == "missiles":
        for ship, target in legal_launch_targets(state, side):
            odds = launch_odds(state, ship.id, target.id, 0)
            if spread:
                odds = replace(odds, notes=(*odds.notes, spread))
            words = WEAPON_WORDS["missiles"]
            option = ShotOption("msl", target.id, f"1>{target.id}", words, odds, 1, ship.missiles_ready, RULE_MISSILES)
            options.setdefault(ship.id, []).append(option)
    elif state.phase == "guns":
        for ship, arc, target in legal_gun_targets(state, side):
            code = CODE_OF[arc]
            guns = next(m.guns.boxes for m in ship.mounts if m.arc == arc)
            options.setdefault(ship.id, []).extend(
                ShotOption(
                    code,
                    target.id,
                    f"{code}*{n}>{target.id}",
                    WEAPON_WORDS[arc],
                    shot_odds(state, Shot(ship.id, arc, n, target.id)),
                    n,
                    2 * guns,
                    RULE_RAPID,
                    # "Every weapon at this target" fires the whole mount, twice (rapid fire).
                    volley=2 if n == guns else 0,
                )
                for n in range(1, guns + 1)
            )
    return options


def design_card(key: str, design: Design) -> Card:
    """A design's tonnage sheet and the boxes and armour ovals its status card will have."""
    ship = build_ship(key, "", key, design, hex=Hex(0, 0), facing=Direction.A, velocity=Velocity())
    rows: list[tuple[str, str]] = [("MASS", f"{design.mass} t {design.kind}")]
    rows += [(line.item, f"{line.tenths / 10:g} t") for line in design.tonnage()]
    rows.append(("SPARE", f"{design.spare_tenths / 10:g} t"))
    rows.append(("6 LIFE SUPPORT", boxes(ship.life_support)))
    for mount in ship.mounts:
        rows.append((f"5 GUNS {CODE_OF[mount.arc]}", boxes(mount.guns)))
    if ship.launchers or ship.missile_armour.armour_fitted:
        rows.append(("5 MISSILES", " ".join("O" for _ in ship.launchers) or "-"))
    rows += [
        ("4 ACCELERATION", boxes(ship.acceleration)),
        ("3 AGILITY", boxes(ship.agility)),
        ("2 CARGO", boxes(ship.cargo)),
        ("1 STRUCTURE", boxes(ship.structure)),
    ]
    return Card(f"{key}: {design.name}", "", tuple(rows))


def catalogue_table(designs: Mapping[str, Design]) -> CardTable:
    rows = tuple(
        (
            key,
            d.name,
            d.kind,
            f"{d.mass}",
            f"{d.acceleration}G",
            str(d.agility),
            ", ".join(f"{m.guns} {CODE_OF[m.arc]}" for m in d.guns) or "none",
            str(d.missiles),
            str(d.cargo),
            f"{d.used_tenths / 10:g}/{d.mass}",
            d.notes,
        )
        for key, d in designs.items()
    )
    headers = ("id", "name", "kind", "t", "accel", "agility", "guns", "missiles", "cargo", "tons used", "notes")
    return CardTable(headers, rows)
