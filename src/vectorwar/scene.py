"""What one viewer may see of a game, as JSON-ready data for any front end.

The browser UI draws nothing it does not find here: the map, the counters,
the record cards, who must act, the viewer's legal plots with their ghost
paths, the other actions an entry may add (``order_pieces``), the viewer's
firing arcs, the log in words and the result. The scene is built from the
display protocol (:mod:`vectorwar.display`), so a rule system that fills
those hooks shows up in the browser with no web code of its own.

Secrecy lives here as much as in the server: another side's plot is never
read. The only unresolved orders in a scene are the viewer's own.

>>> from vectorwar.catalogue import builtin_scenario
>>> from vectorwar.game import Game
>>> from vectorwar.registry import get_system
>>> game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)
>>> _ = game.submit("red", "Hawk 2")
>>> build_scene(game, ["blue"])["pending"], build_scene(game, ["red"])["pending"]
({}, {'red': 'Hawk 2'})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from itertools import repeat
from typing import Any

from vectorwar.autopilot import Standing, news
from vectorwar.display import Card, Counter, MoveOption, PlotWarning, SetupMenu, ShotOption
from vectorwar.events import Event, TurnBegan
from vectorwar.game import Game
from vectorwar.hexes import Hex, Position
from vectorwar.maps import HexMap, HexSet
from vectorwar.memo import Kept
from vectorwar.rules import Prompt, Result

#: Side colours for sides whose name is not a colour, in scenario order.
PALETTE: tuple[str, ...] = ("#d64545", "#3b7dd8", "#3fa34d", "#b04fc7", "#2aa5a5", "#c9a227")
NAMED_COLOURS: dict[str, str] = {
    "red": "#d64545",
    "blue": "#3b7dd8",
    "green": "#3fa34d",
    "purple": "#b04fc7",
    "magenta": "#b04fc7",
    "cyan": "#2aa5a5",
    "yellow": "#c9a227",
    "gold": "#c9a227",
    "orange": "#e07b28",
    "white": "#d8d8d8",
    "black": "#5a5a5a",
    "grey": "#8a8a8a",
    "gray": "#8a8a8a",
}


def side_colours(sides: Sequence[str]) -> list[dict[str, str]]:
    """A colour per side: its own name if that is a colour, else a palette colour no other side has.

    >>> [s["colour"] for s in side_colours(["blue", "pirates"])]
    ['#3b7dd8', '#d64545']
    >>> [s["colour"] for s in side_colours(["chocolates", "blue"])]
    ['#d64545', '#3b7dd8']
    """
    named = {side: NAMED_COLOURS[side.lower()] for side in sides if side.lower() in NAMED_COLOURS}
    free = [c for c in PALETTE if c not in named.values()] or list(PALETTE)
    out: list[dict[str, str]] = []
    unnamed = 0
    for side in sides:
        colour = named.get(side)
        if colour is None:
            colour = free[unnamed % len(free)]
            unnamed += 1
        out.append({"name": side, "colour": colour})
    return out


def position_data(position: Position) -> dict[str, Any]:
    return {"hex": str(position.hex), "altitude": position.altitude}


def map_data(hex_map: HexMap, geomorphic: bool = False) -> dict[str, Any]:
    return {
        "extent": list(hex_map.extent),
        # Ships fly on past the edge (another sheet is laid down): the map only frames the display.
        "geomorphic": geomorphic,
        "sections": [
            {"name": s.name, "col": s.col, "row": s.row, "width": s.width, "height": s.height} for s in hex_map.sections
        ],
        "terrain": [{"hex": str(h), "kind": kind} for h, kind in hex_map.terrain],
    }


def counter_data(counter: Counter) -> dict[str, Any]:
    return {
        "id": counter.id,
        "side": counter.side,
        "label": counter.label or counter.id,
        **position_data(counter.position),
        "facing": None if counter.facing is None else str(counter.facing),
        "status": counter.status,
        "velocity": counter.velocity,
        "markers": [str(h) for h in counter.markers],
    }


def card_data(card: Card) -> dict[str, Any]:
    table = card.table
    return {
        "title": card.title,
        "side": card.side,
        "status": card.status,
        "rows": [list(row) for row in card.rows],
        "table": None if table is None else {"headers": list(table.headers), "rows": [list(r) for r in table.rows]},
    }


def option_data(option: MoveOption, warnings: Sequence[PlotWarning] = ()) -> dict[str, Any]:
    return {
        "text": option.text,
        "path": [position_data(p) for p in option.path],
        "end": position_data(option.end),
        "facing": None if option.facing is None else str(option.facing),
        "warnings": [{"reason": w.reason, "rule": w.rule, "mark": w.short} for w in warnings],
    }


def shot_data(option: ShotOption) -> dict[str, Any]:
    """A legal shot with its weapon in words, its odds (as the rules resolve them) and its queue limits."""
    return {
        "weapon": option.weapon,
        "target": option.target,
        "piece": option.piece,
        "label": option.label or option.weapon,
        "odds": None if option.odds is None else option.odds.to_data(),
        "uses": option.uses,
        "limit": option.limit,
        "limit_rule": option.limit_rule,
        "unit": option.unit,
        "cost": option.cost,
        "budget": option.budget,
        "budget_rule": option.budget_rule,
        "volley": option.volley,
    }


def setup_data(menu: SetupMenu) -> dict[str, Any]:
    return {
        "kind": menu.kind,
        "title": menu.title,
        "unit": menu.unit,
        "budget": menu.budget,
        "left": menu.left,
        "finish": menu.finish,
        "custom": menu.custom,
        "options": [
            {"order": o.order, "label": o.label, "cost": o.cost, "stats": o.stats, "group": o.group}
            for o in menu.options
        ],
    }


def events_data(events: Sequence[Event]) -> list[dict[str, Any]]:
    """Each event in words, with the turn it happened in (0 before the first turn)."""
    out: list[dict[str, Any]] = []
    turn = 0
    for event in events:
        if isinstance(event, TurnBegan):
            turn = event.turn
        out.append({"turn": turn, "kind": type(event).__name__, "text": _words(event)})
    return out


_WORDS_KEPT = 32_768
#: Each event's words by the event's identity (the event kept in the entry, so an identity stays its own), started
#: again past ``_WORDS_KEPT``: every scene puts the whole log in words, and a game's log only grows (an AV:T
#: fleet's, some hundreds of events a turn), so each event is described once, not once a scene.
_WORDS: Kept[int, tuple[Event, str]] = Kept(_WORDS_KEPT)


def _words(event: Event) -> str:
    kept = _WORDS.get(id(event))
    if kept is not None and kept[0] is event:
        return kept[1]
    text = event.describe()  # an event is frozen: its words stay
    _WORDS.keep(id(event), (event, text))
    return text


def build_scene(game: Game, sides: Sequence[str]) -> dict[str, Any]:
    """What a viewer acting for ``sides`` may see now (no sides: a spectator)."""
    system, state = game.system, game.state
    viewer = [s for s in sides if s in {side.id for side in game.scenario.sides}]
    prompt = game.prompt
    waiting = game.waiting_for
    counters = system.counters(state)
    acting = [s for s in viewer if prompt is not None and s in prompt.sides]
    # Arcs cost a bearing per hex in range, so only a viewer with orders to give gets them.
    armed = [c.id for c in counters if c.side in acting and c.status == "active"]
    board = game.board
    return {
        "system": system.manifest.name,
        "system_title": system.manifest.title,
        "scenario": {"id": game.scenario.id, "title": game.scenario.title},
        # The house rules in force are public: every player agreed to them.
        "options": dict(game.options),
        "step": len(game.history),
        "viewer": viewer,
        "sides": side_colours([side.id for side in game.scenario.sides]),
        "map": map_data(board, system.geomorphic(state)),
        "counters": [counter_data(c) for c in counters],
        # The range between ships in play where the system measures more than hexes (AV:T's altitude).
        "ranges": _ranges(game, counters),
        "cards": [card_data(c) for c in system.ship_cards(state)],
        "prompt": None if prompt is None else _prompt_data(prompt, waiting),
        **_owed(game, viewer, acting),
        **_menus(game, acting, board),
        "arcs": _all_arcs(game, armed),
        # A set-up phase (purchase, placement, fleet) as a menu for the acting side's panel of buttons.
        "setup": _setup(game, acting),
        # A system's own diagrams (AV:T's AVIDs): public record-sheet data, drawn by front ends that know the kind.
        "diagrams": system.diagrams(state),
        "events": events_data(game.events),
        "result": None if game.result is None else _result_data(game.result),
    }


def _owed(game: Game, viewer: Sequence[str], acting: Sequence[str]) -> dict[str, Any]:
    """Whose turn it is among the viewer's sides, why the game stopped for each, and the viewer's own plots."""
    waiting = game.waiting_for
    owing = [s for s in acting if s in waiting]
    return {
        "my_turn": owing,
        # Why the game stopped for each side that owes an order: what is new since the last prompt
        # (vectorwar.autopilot); empty where the system cannot tell or nothing changed.
        "news": {s: [n.text for n in (news(game, s, Standing()) or ())] for s in owing},
        # Only the viewer's own plots: another side's is secret until resolved.
        "pending": {s: str(game.pending[s]) for s in viewer if s in game.pending},
    }


def _setup(game: Game, acting: Sequence[str]) -> dict[str, Any]:
    menus = {side: game.system.setup_menu(game.state, side) for side in acting}
    return {side: setup_data(menu) for side, menu in menus.items() if menu is not None}


def _prompt_data(prompt: Prompt, waiting: Sequence[str]) -> dict[str, Any]:
    return {
        "clock": str(prompt.clock),
        # The clock's numbers, for front ends that act on them (0: a system without segments).
        "turn": prompt.clock.turn,
        "segment": prompt.clock.segment,
        "kind": prompt.kind,
        "sides": list(prompt.sides),
        "simultaneous": prompt.simultaneous,
        "waiting_for": list(waiting),
        "help": prompt.help,
    }


def _menus(game: Game, acting: Sequence[str], board: HexMap) -> dict[str, Any]:
    """The acting sides' menus by ship: legal plots with their warnings, legal shots, other order pieces."""
    system, state = game.system, game.state
    return {
        "move_options": {
            ship: [option_data(o, system.plot_warnings(state, o, board)) for o in options]
            for side in acting
            for ship, options in system.move_options(state, side).items()
        },
        "fire_options": {
            ship: [shot_data(o) for o in options]
            for side in acting
            for ship, options in system.fire_options(state, side).items()
        },
        "order_pieces": {
            # "whole" only where it is set (VMS), so the other systems' pieces read as before.
            ship: [{"group": p.group, "text": p.text, **({"whole": True} if p.whole else {})} for p in pieces]
            for side in acting
            for ship, pieces in system.order_pieces(state, side).items()
        },
    }


def _result_data(result: Result) -> dict[str, Any]:
    return {
        "winners": list(result.winners),
        "reason": result.reason,
        "scores": dict(result.scores),
        "score_label": result.score_label,
    }


def _all_arcs(game: Game, ships: Sequence[str]) -> dict[str, dict[str, list[str]]]:
    """Each ship's weapons' arcs, each as its hexes' names in order."""
    arcs = {ship_id: _arc_hexes(game, ship_id) for ship_id in ships}
    # A HexSet names its own hexes in order; the others are named together, each hex once.
    names = _HexNames(
        frozenset().union(
            *(hexes for ship_arcs in arcs.values() for hexes in ship_arcs.values() if not isinstance(hexes, HexSet))
        )
    )
    return {
        ship_id: {
            weapon: hexes.names() if isinstance(hexes, HexSet) else names.listed(hexes)
            for weapon, hexes in ship_arcs.items()
        }
        for ship_id, ship_arcs in arcs.items()
    }


def _arc_hexes(game: Game, ship_id: str) -> Mapping[str, AbstractSet[Hex]]:
    try:
        return game.system.arc_hexes(game.state, ship_id)
    except KeyError:
        return {}


class _HexNames:
    """The names of a scene's hexes, each named once and put in order once.

    Arcs of several ships and weapons cover the same hexes many times over (a
    side of eight AV:T ships: some 28,000), and a ``Hex`` (a dataclass) hashes
    by a Python call. So each hex is named once a scene, the names are sorted
    once, and a weapon's hexes are sorted by their places in that order, whole
    numbers found by each hex object's identity where the system hands the same
    objects to every arc (AV:T does), else by the hex's value.
    """

    def __init__(self, hexes: frozenset[Hex]) -> None:
        named = sorted([(str(h), h) for h in hexes])
        self.names = [text for text, _ in named]
        # The hexes stay held here, so an identity stands for one object all the while.
        self.ordered = [h for _, h in named]
        self.places = {id(h): place for place, h in enumerate(self.ordered)}
        self.by_value: dict[Hex, int] = {}

    def listed(self, hexes: AbstractSet[Hex]) -> list[str]:
        """The names of ``hexes``, sorted, as ``sorted(map(str, hexes))`` gives them."""
        places = sorted(map(self.places.get, map(id, hexes), repeat(-1)))
        if places and places[0] < 0:
            # A hex held as another object than the equal one the scene's union kept.
            if not self.by_value:
                self.by_value = {h: place for place, h in enumerate(self.ordered)}
            places = sorted(map(self.by_value.__getitem__, hexes))
        return list(map(self.names.__getitem__, places))


def _ranges(game: Game, counters: Sequence[Counter]) -> dict[str, dict[str, str]]:
    live = [c for c in counters if c.status == "active"]
    out: dict[str, dict[str, str]] = {}
    for origin in live:
        for target in live:
            if target.id == origin.id:
                continue
            words = game.system.range_words(game.state, origin, target)
            if words is not None:
                out.setdefault(origin.id, {})[target.id] = words
    return out
