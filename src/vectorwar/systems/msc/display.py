"""What MSC shows players: counters, Ship Turn Records and firing arcs.

The card is the Ship Turn Record of the text (MSC 2.0): five ENGINE and five
SHIELD ovals of which the ones beyond the design's rating start filled and
damage fills more, the TO-HIT number, one weapon oval per side (filled where
no weapon is fitted; marked ``✕`` where one was shot away, so players can
tell the two apart), and a Turn / Speed / Move line per turn played.

>>> from vectorwar.catalogue import builtin_scenario
>>> from vectorwar.game import Game
>>> from vectorwar.registry import get_system
>>> game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)
>>> card = ship_cards(game.state)[0]
>>> dict(card.rows)["ENGINE"]
'O O O ● ●  3/3'
>>> dict(card.rows)["WEAPONS"]
'F O  FL O  FR O  RL ●  RR ●'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from vectorwar.display import Card, CardTable, Counter, MoveOption, short_labels
from vectorwar.hexes import Hex, Position
from vectorwar.systems.msc.arcs import Side, sides_seeing
from vectorwar.systems.msc.combat import MAX_RANGE
from vectorwar.systems.msc.design import MAX_RATING, Design
from vectorwar.systems.msc.movement import trace
from vectorwar.systems.msc.orders import Move
from vectorwar.systems.msc.state import MSCState, Ship

OPEN = "O"
FILLED = "●"
SHOT_AWAY = "✕"

# The record sheet lists the five sides a weapon may sit on; the Rear never has one.
RECORD_SIDES: tuple[Side, ...] = (Side.F, Side.FL, Side.FR, Side.RL, Side.RR)


def ovals(current: int, rating: int, boxes: int = MAX_RATING) -> str:
    """``current`` open ovals out of ``boxes``, with ``current/rating`` after them.

    >>> ovals(2, 4)
    'O O ● ● ●  2/4'
    """
    marks = [OPEN] * current + [FILLED] * (boxes - current)
    return f"{' '.join(marks)}  {current}/{rating}"


def weapon_ovals(ship: Ship) -> str:
    def mark(side: Side) -> str:
        if side in ship.weapons:
            return OPEN
        return SHOT_AWAY if side in ship.weapons_fitted else FILLED

    return "  ".join(f"{side} {mark(side)}" for side in RECORD_SIDES)


def counters(state: MSCState) -> list[Counter]:
    labels = short_labels(s.id for s in state.ships)
    return [
        Counter(s.id, s.side, Position(s.hex), s.facing, s.status, labels[s.id], velocity=f"speed {s.speed}")
        for s in state.ships
    ]


def move_options(ship: Ship, moves: Iterable[Move]) -> list[MoveOption]:
    """Each move as the ship's plot entry, with the hexes it enters."""
    options = []
    for move in moves:
        path, facing = trace(ship.hex, ship.facing, move)
        options.append(MoveOption(f"{ship.id} {move}", tuple(Position(h) for h in path), facing))
    return options


def ship_card(ship: Ship) -> Card:
    rows: list[tuple[str, str]] = [
        ("SIDE", ship.side),
        ("DESIGN", f"{ship.name} ({ship.design})"),
        ("AT", f"{ship.hex} facing {ship.facing}"),
        ("SPEED", str(ship.speed)),
        ("ENGINE", ovals(ship.engine, ship.engine_rating)),
        ("SHIELD", ovals(ship.shields, ship.shield_rating)),
        ("TO-HIT", str(ship.to_hit)),
        ("WEAPONS", weapon_ovals(ship)),
    ]
    if not ship.active:
        rows.append(("STATUS", ship.status.upper()))
    table = CardTable(("Turn", "Speed", "Move"), tuple((str(e.turn), str(e.speed), e.move) for e in ship.record))
    return Card(f"{ship.id}: {ship.name}", ship.side, tuple(rows), table, ship.status)


def ship_cards(state: MSCState) -> list[Card]:
    return [ship_card(s) for s in state.ships]


def arc_hexes(state: MSCState, ship_id: str) -> dict[str, frozenset[Hex]]:
    """Hexes each working weapon could fire into: in arc, within 6 hexes, on the map.

    Line of sight is left out on purpose: it depends on the target's hex as
    well as the terrain between, and the map shows the blocking hexes.
    """
    ship = state.ship(ship_id)
    if not ship.active:
        return {}
    reach = [h for h in ship.hex.within(MAX_RANGE) if state.map.contains(h)]
    return {
        str(side): frozenset(h for h in reach if side in sides_seeing(ship.hex, ship.facing, h))
        for side in ship.weapons
    }


def design_card(key: str, design: Design) -> Card:
    """A design's build-point sheet and the Ship Turn Record it starts with."""
    rows: tuple[tuple[str, str], ...] = (
        ("BUILD POINTS", f"{design.build_points} ({design.cost_line()})"),
        ("ENGINE", ovals(design.engine, design.engine)),
        ("SHIELD", ovals(design.shields, design.shields)),
        ("TO-HIT", str(design.to_hit)),
        ("WEAPONS", "  ".join(f"{s} {OPEN if s.value in design.weapons else FILLED}" for s in RECORD_SIDES)),
    )
    return Card(f"{key}: {design.name}", "", rows)


def catalogue_table(designs: Mapping[str, Design]) -> CardTable:
    rows = tuple(
        (
            key,
            d.name,
            str(d.engine),
            str(d.shields),
            str(d.to_hit),
            ", ".join(d.weapons) or "none",
            str(d.build_points),
            d.notes,
        )
        for key, d in designs.items()
    )
    return CardTable(("id", "name", "ENGINE", "SHIELDS", "TO-HIT", "weapons", "BP", "notes"), rows)
