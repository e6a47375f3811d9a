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
them (docs/rulings.md, *VV5 leaving the board*). It never promises what
resolution may not do.

>>> from vectorwar.catalogue import builtin_scenario
>>> from vectorwar.game import Game
>>> from vectorwar.registry import get_system
>>> game = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), seed=1)
>>> options = [o for opts in preview.move_options(game.state, game.prompt.seats[0]).values() for o in opts]
>>> [edge_warning(game.state, o) for o in options if game.state.map.contains(o.end.hex)][:1]
[None]
"""

from __future__ import annotations

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

#: A hex or a translation as one integer, ``q * _WIDE + r``: sums and differences stay exact while
#: every ``r`` involved is far smaller than ``_WIDE / 2``, which any board is.
_WIDE = 1 << 16


def _key(h: Hex) -> int:
    return h.q * _WIDE + h.r


@dataclass(frozen=True, slots=True)
class _Reach:
    """The board, and for each active ship the shifts that could hold every other ship and those that
    hold them for sure, wherever they end (``None``: no other ship constrains the shift).

    A ship that may drop out of the shift (retreat, escape, crash) constrains
    only the sure shifts. Shifts and hexes are :func:`_key` integers.
    """

    board: tuple[int, ...]
    could: dict[str, frozenset[int] | None]
    sure: dict[str, frozenset[int] | None]


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
        return {s.id for seat in state.sides_in_play() for s in preview.ships_to_plot(state, seat)}
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
    crash = any(state.map.contains(h) and is_solid(state.map.terrain_at(h)) for h in places)
    may_drop = crash or retreat_problem(state, ship) is None or crews.escape_problem(state, ship) is None
    return places, may_drop


@last_answer
def _reach(state: VV5State) -> _Reach:
    board = tuple(_key(h) for h in board_hexes(state.map))
    on_board = frozenset(board)
    movers = _movers(state)
    could: dict[str, frozenset[int] | None] = {}
    sure: dict[str, frozenset[int]] = {}
    for ship in state.ships:
        if not ship.active:
            continue
        places, may_drop = _places(state, ship, ship.id in movers)
        keys = [_key(h) for h in places]
        could[ship.id] = None if may_drop else frozenset(b - p for p in keys for b in board)
        held = {b - keys[0] for b in board}
        for p in keys[1:]:
            held = {t for t in held if t + p in on_board}
        sure[ship.id] = frozenset(held)

    def meet(sets: list[frozenset[int]]) -> frozenset[int] | None:
        return frozenset.intersection(*sets) if sets else None

    return _Reach(
        board,
        {me: meet([c for s, c in could.items() if s != me and c is not None]) for me in sure},
        {me: meet([c for s, c in sure.items() if s != me]) for me in sure},
    )


def shift_verdict(state: VV5State, ship_id: str, end: Hex) -> str:
    """``"shifts"``, ``"depends"`` or ``"leaves"``: what the Dogfight's shift does for ``ship_id`` ending at ``end``.

    ``"shifts"``: one translation holds the ship with every other wherever it
    ends; ``"leaves"``: wherever the others end, none holds them all;
    ``"depends"``: it turns on where the others end.
    """
    reach = _reach(state)
    could, sure = reach.could.get(ship_id), reach.sure.get(ship_id)
    e = _key(end)
    if sure is None or any(b - e in sure for b in reach.board):
        return "shifts"
    if could is None or any(b - e in could for b in reach.board):
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
