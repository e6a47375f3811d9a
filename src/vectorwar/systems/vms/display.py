"""What VMS shows players: counters, record cards with the odd/even vector graphics, the catalogue.

A ship's card is its sheet as the text converts it: the movement data, the
two vector graphics of this turn (the current one with this turn's thrust in
the right halves and rotational thrust in the inner boxes, the next one
with the resulting vector, rotation speed and facing) and the combat
module's own lines. Before a ship moves, the next graphic shows where it
drifts to if it plots nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from vectorwar.combat.base import CombatModule
from vectorwar.display import Card, CardTable, Counter, short_labels
from vectorwar.hexes import Direction, Position
from vectorwar.systems.vms.record import Graphic, TurnRecord, record_turn
from vectorwar.systems.vms.rotation import AdvancedRotation
from vectorwar.systems.vms.ships import Design
from vectorwar.systems.vms.state import VMSShip, VMSState

GRAPHIC_HEADERS = ("graphic", "A", "B", "C", "D", "E", "F", "L prev", "L this", "R this", "R prev", "facing")


def counters(state: VMSState) -> list[Counter]:
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
            # Where the ship ends next move if it plots no thrust.
            markers=(s.hex.shifted(s.velocity.dq, s.velocity.dr),) if s.active and not s.velocity.is_zero else (),
        )
        for s in state.ships
    ]


def record(state: VMSState, ship: VMSShip) -> TurnRecord:
    """The current/next graphic pair: as written, once the ship moved; its drift, before."""
    if ship.moved:
        return record_turn(
            state.turn,
            ship.start_velocity,
            ship.start_rotation,
            ship.start_facing,
            dict(ship.thrust),
            ship.velocity,
            ship.rotation,
            ship.facing,
        )
    drift = 0 if ship.spec.small_craft else ship.rotation
    if _advanced(state, ship):
        drift = AdvancedRotation(ship.spin_rate, ship.spin_carried).advance(ship.spec.pivot)[0]
    return record_turn(
        state.turn,
        ship.velocity,
        ship.rotation,
        ship.facing,
        {},
        ship.velocity,
        ship.rotation,
        ship.facing.turned(drift),
    )


def _advanced(state: VMSState, ship: VMSShip) -> bool:
    return bool(state.options.get("vms_advanced_rotation")) and not ship.spec.small_craft


def _spin(state: VMSState, ship: VMSShip) -> str:
    """The rotation row: hexsides/turn, and under the advanced variant the points and the part carried."""
    pivot = ship.spec.pivot_cost
    if _advanced(state, ship) and pivot is not None:
        spin = AdvancedRotation(ship.spin_rate, ship.spin_carried)
        rate = spin.hexsides_per_turn(pivot)
        way = "right" if spin.rate > 0 else "left"
        carried = spin.carried_points(pivot)
        shown = "none" if not spin.rate else f"{abs(rate):g} hexsides/turn {way}"
        return f"{shown}; {carried:g} of {pivot.start} points carried toward the next hexside"
    return "none" if not ship.rotation else f"{abs(ship.rotation)} {'right' if ship.rotation > 0 else 'left'}"


def _initiative(state: VMSState, ship: VMSShip) -> str:
    """The total this turn, its terms when the scenario adds any, the roll and the subphase."""
    terms = ship.initiative_terms(state.turn)
    shown = [f"sheet {ship.spec.initiative:+d}", *(str(m) for m in ship.initiative_modifiers if m.applies(state.turn))]
    parts = f" ({', '.join(shown)})" if len(shown) > 1 else ""
    return f"{sum(terms):+d}{parts}, rolled {ship.initiative_roll}: {ship.subphase or '-'}"


def _halves(graphic: Graphic, d: Direction) -> str:
    left = graphic.vector.get(d, 0)
    right = graphic.thrust.get(d, 0)
    return f"{left or ''}|{right or ''}" if left or right else ""


def _row(name: str, g: Graphic) -> tuple[str, ...]:
    boxes = (g.left_prev, g.left_this, g.right_this, g.right_prev)
    return (
        f"{g.label} ({name})",
        *(_halves(g, d) for d in Direction),
        *(str(b) if b else "" for b in boxes),
        str(g.facing) if g.facing is not None else "",
    )


def ship_card(state: VMSState, ship: VMSShip, combat: CombatModule) -> Card:
    spec = ship.spec
    rec = record(state, ship)
    thrusters = ", ".join(f"{name} {t.rating}" for name, t in spec.thruster_table().items())
    spent = ", ".join(f"{d}={n}" for d, n in ship.thrust) or "none"
    spin = _spin(state, ship)
    rows: list[tuple[str, str]] = [
        ("side", ship.side),
        ("design", f"{ship.name} ({ship.design}), {spec.ship_class}"),
        ("at", f"{ship.hex} facing {ship.facing}"),
        ("vector", str(ship.velocity)),
        ("rotation", spin),
        ("thrust", f"{spec.thrust - ship.thrust_lost}/{spec.thrust} ({ship.thrust_used} spent this turn)"),
        ("thrust this turn", spent),
        ("accel/decel cost", str(spec.accel_cost)),
        ("pivot cost", str(spec.pivot_cost) if spec.pivot_cost else "turns at will, 1 per hexside"),
        ("thrusters", thrusters),
        ("initiative", _initiative(state, ship)),
    ]
    if spec.flat_turn_cost is not None:
        rows.append(("flat turn cost", f"{spec.flat_turn_cost} x speed per hexside"))
    if ship.rotation_limit_lost:
        rows.append(("rotation limit", f"{spec.limit_after(ship.rotation_limit_lost)} a turn (hull damage)"))
    if ship.hexsides_turned:
        rows.append(("turned this turn", f"{ship.hexsides_turned} hexside(s)"))
    rows.extend(combat.card_rows(ship.card))
    if not ship.active:
        rows.append(("status", ship.status.upper()))
    table = CardTable(GRAPHIC_HEADERS, (_row("current", rec.current), _row("next", rec.next)))
    return Card(f"{ship.id}: {ship.name}", ship.side, tuple(rows), table, ship.status)


def ship_cards(state: VMSState, combat: CombatModule) -> list[Card]:
    return [ship_card(state, s, combat) for s in state.ships]


def design_card(key: str, design: Design) -> Card:
    thrusters = ", ".join(f"{name} {t.rating}" for name, t in design.thruster_table().items())
    rows: list[tuple[str, str]] = [
        ("class", design.ship_class),
        ("thrust", str(design.thrust)),
        ("accel/decel cost", str(design.accel_cost)),
        ("pivot cost", str(design.pivot_cost) if design.pivot_cost else "-"),
        ("thrusters", thrusters),
        ("initiative", f"{design.initiative:+d}"),
        ("flat turn cost", str(design.flat_turn_cost) if design.flat_turn_cost else "-"),
        ("combat modules", ", ".join(sorted(design.combat)) or "none"),
    ]
    if design.notes:
        rows.append(("notes", design.notes))
    return Card(f"{key}: {design.name}", "", tuple(rows))


def catalogue_table(designs: Mapping[str, Design]) -> CardTable:
    return CardTable(
        ("id", "name", "class", "thrust", "accel", "pivot", "flat turn", "initiative", "combat"),
        tuple(
            (
                key,
                d.name,
                d.ship_class,
                str(d.thrust),
                str(d.accel_cost),
                str(d.pivot_cost or "-"),
                str(d.flat_turn_cost or "-"),
                f"{d.initiative:+d}",
                ", ".join(sorted(d.combat)),
            )
            for key, d in designs.items()
        ),
    )
