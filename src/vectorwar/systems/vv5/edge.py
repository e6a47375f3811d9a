"""What the board's edge will do to a plot, said before the player commits it.

VV5 judges only where a move ends: a ship whose move ends off the board
leaves the battle. In a Dogfight played with ``board_shift`` every ship and
marker is first shifted together to bring such ships back, but the shift is
made only if one translation puts every ship that stays on the board
(:func:`vectorwar.systems.vv5.movement.settle_edge`); when the ships are spread
wider than that, none is made and the ships off the board leave.

The other ships' plots are secret when a player chooses, so the shift is
judged against every place each of them can end this move: a knock aside in
a collision, an Ace waiting for its moment, a retreat or an escape included.
The warning promises the shift only if one translation holds the ship with
the others wherever they end, says the shift cannot help if no translation
holds it with the others wherever they end, and otherwise says it depends on
them (docs/rulings/vv5.md, *VV5 leaving the board*). It never promises what
resolution may not do.

>>> from vectorwar.catalogue import builtin_scenario
>>> from vectorwar.game import Game
>>> from vectorwar.registry import get_system
>>> game = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), seed=1)
>>> options = [o for opts in preview.move_options(game.state, game.prompt.sides[0]).values() for o in opts]
>>> [edge_warning(game.state, o) for o in options if game.state.map.contains(o.end.hex)][:1]
[None]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from vectorwar.display import MoveOption, PlotWarning
from vectorwar.hexes import Hex
from vectorwar.maps import HexMap
from vectorwar.memo import last_answer
from vectorwar.systems.vv5 import crews, preview
from vectorwar.systems.vv5.honour import retreat_problem
from vectorwar.systems.vv5.movement import board_shift, is_solid, plan
from vectorwar.systems.vv5.state import Ship, VV5State

RULE_EDGE = "VV5 Movement (leaving the board)"
RULE_SHIFT = "VV5 Scenario 1 (leaving the board: the shift by agreement)"

#: Inclusive runs ``(lo, hi)`` of ``r`` values, sorted and apart: a board column's hexes, or the
#: ``dr`` of the shifts that work for one ``dq``. A shift is ``(dq, dr)``, a hex's move ``q + dq, r + dr``.
Runs = tuple[tuple[int, int], ...]
#: For each ``dq`` the runs of ``dr``: a set of shifts, kept small however large the board.
Shifts = dict[int, Runs]


def _merge(runs: Iterable[tuple[int, int]]) -> Runs:
    out: list[tuple[int, int]] = []
    for lo, hi in sorted(runs):
        if out and lo <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(hi, out[-1][1]))
        else:
            out.append((lo, hi))
    return tuple(out)


def _meet(a: Runs, b: Runs) -> Runs:
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if lo <= hi:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return tuple(out)


def _moved(runs: Runs, by: int) -> Runs:
    return tuple((lo + by, hi + by) for lo, hi in runs)


def _meet_all(sets: list[Shifts]) -> Shifts | None:
    """The shifts in every one of ``sets`` (``None`` for no sets: nothing constrains the shift)."""
    if not sets:
        return None
    out = sets[0]
    for other in sets[1:]:
        met = {dq: _meet(runs, other[dq]) for dq, runs in out.items() if dq in other}
        out = {dq: runs for dq, runs in met.items() if runs}
    return out


@dataclass(frozen=True, slots=True)
class _Reach:
    """The board's columns, and for each active ship the shifts that could hold every other ship and
    those that hold them for sure, wherever they end (``None``: no other ship constrains the shift).

    A ship that may drop out of the shift (retreat, escape, crash) constrains
    only the sure shifts.
    """

    columns: dict[int, Runs]
    could: dict[str, Shifts | None]
    sure: dict[str, Shifts | None]


def board_hexes(hex_map: HexMap) -> tuple[Hex, ...]:
    """Every hex of the board, section by section (the hexes ``shift_to_fit`` tries)."""
    return tuple(
        Hex.from_offset(col, row)
        for section in hex_map.sections
        for col in range(section.col, section.col + section.width)
        for row in range(section.row, section.row + section.height)
    )


def _movers(state: VV5State) -> set[str]:
    """The ships that take a plot at this prompt: their end is not yet known."""
    if state.phase == "plot":
        return {s.id for side in state.sides_in_play() for s in preview.ships_to_plot(state, side)}
    if state.phase == "ace-replot":
        return set(state.ace_replot)
    return set()


def _places(state: VV5State, ship: Ship, moving: bool) -> tuple[set[Hex], bool]:
    """Where ``ship`` may stand when the edge is settled, and whether it may drop out of the shift."""
    if not moving:
        return {ship.hex}, False
    places: set[Hex] = set()
    for move in preview.legal_plots(state, ship):
        _, velocity = plan(ship.facing, ship.velocity, move)
        places.add(ship.hex.shifted(velocity.dq, velocity.dr))
    if state.phase == "plot" and crews.ship_ace_level(state, ship) > 0:
        places.add(ship.hex)  # an Ace with its moment waits where it is while the others move
    # A collision knocks a ship one hex aside.
    places |= {n for h in places if state.map.contains(h) for n in h.neighbours()}
    places = places or {ship.hex}  # never empty: the null plot is always there, but be sure
    crash = any(state.map.contains(h) and is_solid(state.map.terrain_at(h)) for h in places)
    may_drop = crash or retreat_problem(state, ship) is None or crews.escape_problem(state, ship) is None
    return places, may_drop


def _columns(hex_map: HexMap) -> dict[int, Runs]:
    rows: dict[int, list[tuple[int, int]]] = {}
    for h in board_hexes(hex_map):
        rows.setdefault(h.q, []).append((h.r, h.r))
    return {q: _merge(r) for q, r in rows.items()}


def _by_column(places: set[Hex]) -> dict[int, list[int]]:
    """``places`` as each column's ``r`` values, sorted."""
    found: dict[int, list[int]] = {}
    for p in places:
        found.setdefault(p.q, []).append(p.r)
    return {q: sorted(rs) for q, rs in found.items()}


def _could_hold(columns: dict[int, Runs], places: set[Hex]) -> Shifts:
    """The shifts that put at least one of ``places`` on the board."""
    found: dict[int, list[tuple[int, int]]] = {}
    for pq, rs in _by_column(places).items():
        for q, runs in columns.items():
            into = found.setdefault(q - pq, [])
            for lo, hi in runs:
                # Places in a column a run's length apart or closer give one run of shifts together.
                start = prev = rs[0]
                for r in rs[1:]:
                    if r - prev > hi - lo + 1:
                        into.append((lo - prev, hi - start))
                        start = r
                    prev = r
                into.append((lo - prev, hi - start))
    return {dq: _merge(runs) for dq, runs in found.items()}


def _holds_all(columns: dict[int, Runs], places: set[Hex]) -> Shifts:
    """The shifts that put every one of ``places`` on the board."""
    if all(len(runs) == 1 for runs in columns.values()):
        # Columns without gaps: a column of places is held when its top and bottom are.
        places = {Hex(q, r) for q, rs in _by_column(places).items() for r in (rs[0], rs[-1])}
    first, *rest = places
    out: Shifts = {}
    for q, runs in columns.items():
        dq = q - first.q
        held = _moved(runs, -first.r)
        for p in rest:
            column = columns.get(p.q + dq)
            if column is None:
                held = ()
            elif len(column) == 1 and len(held) == 1:  # the usual case, one run each: no lists built
                lo, hi = max(held[0][0], column[0][0] - p.r), min(held[0][1], column[0][1] - p.r)
                held = ((lo, hi),) if lo <= hi else ()
            else:
                held = _meet(held, _moved(column, -p.r))
            if not held:
                break
        if held:
            out[dq] = held
    return out


@last_answer
def _reach(state: VV5State) -> _Reach:
    columns = _columns(state.map)
    movers = _movers(state)
    could: dict[str, Shifts | None] = {}
    sure: dict[str, Shifts] = {}
    for ship in state.ships:
        if not ship.active:
            continue
        places, may_drop = _places(state, ship, ship.id in movers)
        could[ship.id] = None if may_drop else _could_hold(columns, places)
        sure[ship.id] = _holds_all(columns, places)
    return _Reach(
        columns,
        {me: _meet_all([c for s, c in could.items() if s != me and c is not None]) for me in sure},
        {me: _meet_all([c for s, c in sure.items() if s != me]) for me in sure},
    )


def _fits(columns: dict[int, Runs], end: Hex, shifts: Shifts) -> bool:
    """Does one of ``shifts`` put ``end`` on the board?"""
    for q, runs in columns.items():
        drs = shifts.get(q - end.q)
        if drs and any(lo - end.r <= b and a <= hi - end.r for lo, hi in runs for a, b in drs):
            return True
    return False


def shift_verdict(state: VV5State, ship_id: str, end: Hex) -> str:
    """``"shifts"``, ``"depends"`` or ``"leaves"``: what the Dogfight's shift does for ``ship_id`` ending at ``end``.

    ``"shifts"``: one translation holds the ship with every other wherever it
    ends; ``"leaves"``: wherever the others end, none holds them all;
    ``"depends"``: it turns on where the others end.
    """
    reach = _reach(state)
    could, sure = reach.could.get(ship_id), reach.sure.get(ship_id)
    if sure is None or _fits(reach.columns, end, sure):
        return "shifts"
    if could is None or _fits(reach.columns, end, could):
        return "depends"
    return "leaves"


def edge_warning(state: VV5State, option: MoveOption) -> PlotWarning | None:
    """What the edge does to ``option``: nothing if it ends on the board, else leaving or the shift."""
    end = option.end.hex
    if state.map.contains(end):
        return None
    at = f"ends off the board at {end}"
    if not board_shift(state):
        return PlotWarning(f"{at}: the ship leaves the battle", RULE_EDGE, "off the board: leaves the battle")
    ship_id = option.text.split()[0]
    verdict = shift_verdict(state, ship_id, end)
    if verdict == "leaves":
        return PlotWarning(
            f"{at}: the ships are spread wider than the board, so the shift cannot bring it back: it leaves the battle",
            RULE_SHIFT,
            "off the board: no shift can bring it back",
        )
    retreat = "" if retreat_problem(state, state.ship(ship_id)) else " (a plot marked 'retreat' leaves instead)"
    if verdict == "shifts":
        return PlotWarning(
            f"{at}: the board shifts every ship and marker to bring it back{retreat}",
            RULE_SHIFT,
            "off the board: the board shifts it back",
        )
    return PlotWarning(
        f"{at}: the board shifts to bring it back only if the other ships end close enough together; "
        f"otherwise it leaves the battle{retreat}",
        RULE_SHIFT,
        "off the board: the shift depends on the others",
    )
