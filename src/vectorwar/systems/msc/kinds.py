"""MSC's order kinds as objects (:class:`vectorwar.orderkinds.OrderKind`): build, deploy, plot and fire.

Each holds all MSC knows of its kind of order: the prompt that asks for it, its notation, its
check, its resolution (on through the turn, :mod:`vectorwar.systems.msc.turn`), a random legal
one, the menu front ends offer and the rule rows of ``docs/rules/msc.md`` a player needs for it.
:data:`KINDS` names them; the state's phase is the name of the kind due (``"over"``: none), and
the system (:mod:`vectorwar.systems.msc.rules`) asks that kind.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from vectorwar.dice import Dice
from vectorwar.display import MoveOption, SetupMenu, ShotOption
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Event, Note, TurnBegan
from vectorwar.orderkinds import OrderKind, RuleRow, kind_table
from vectorwar.roster import id_lookup
from vectorwar.rules import Clock, Order, Prompt
from vectorwar.systems.msc import building, catalogue, deploy, display, turn
from vectorwar.systems.msc.building import Fleet
from vectorwar.systems.msc.combat import RULE_COMBAT, shot_odds
from vectorwar.systems.msc.fire import check_declaration, legal_shots, random_fire, unblocked
from vectorwar.systems.msc.movement import allowed_speeds, check_move, sequences, trace
from vectorwar.systems.msc.orders import FireOrders, Move, Plot, parse_fire, parse_plot
from vectorwar.systems.msc.state import MSCState, Ship

RULE_PLOT = "MSC 6.0 Ship Movement Orders"
RULE_EDGE = "vectorwar ruling: leaving the map (docs/rulings/msc.md)"

PLOT_HELP = "one move per ship, e.g. 'Hawk 2L1; Kite 3' (digits = hexes forward, L/R = turn, 0 = no move)"
FIRE_HELP = "shots as SHIP SIDE>TARGET, e.g. 'Hawk F>Raven FL>Raven; Kite FR>Raven', or 'hold'"


def _rows(*cells: str) -> tuple[RuleRow, ...]:
    return tuple(RuleRow("msc", cell) for cell in cells)


# -- plotting: the moves a ship may plot ------------------------------------------


def leaves_map(state: MSCState, ship: Ship, move: Move) -> bool:
    path, _ = trace(ship.hex, ship.facing, move)
    return not all(state.map.contains(h) for h in path)


def legal_moves(ship: Ship, strict: bool) -> list[Move]:
    """Every move MSC 6.0 allows ``ship`` (``strict``: the house rule on turning twice across turns)."""
    moves = [Move(steps) for speed in allowed_speeds(ship) for steps in sequences(speed)]
    if strict and ship.ended_last_move_turning:
        moves = [m for m in moves if m.steps[:1] not in (("L",), ("R",))]
    return moves


def plottable(state: MSCState, ship: Ship) -> list[Move]:
    """The moves ``ship`` may plot now, with the map-edge option applied."""
    options = legal_moves(ship, bool(state.options.get("strict_turn_spacing")))
    if state.options.get("map_edge") == "forbid":
        # Leaving is only forbidden while some move stays on the map.
        staying = [m for m in options if not leaves_map(state, ship, m)]
        options = staying or options
    return options


# -- the kinds ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BuildKind(OrderKind[MSCState]):
    """A side's whole fleet, built by BP before turn 1 where the scenario says so (MSC 3.0, 5.0)."""

    name: str = "build"
    rules: tuple[RuleRow, ...] = _rows("3.0", "5.0")

    def prompt(self, state: MSCState) -> Prompt | None:
        return None if state.build is None else building.prompt(state.build)

    def parse(self, state: MSCState, side: str, text: str) -> Order:
        return Fleet.parse(text)

    def check(self, state: MSCState, side: str, order: Order) -> None:
        if state.build is None:  # pragma: no cover - the build phase always has its build
            raise IllegalOrderError(str(order), "there is nothing to build", building.RULE)
        if not isinstance(order, Fleet):
            raise IllegalOrderError(str(order), "each side's fleet is due now", building.RULE)
        taken = {s.id.lower() for s in state.ships}
        building.check(state.build, side, order, catalogue.designs(), taken)

    def resolve(self, state: MSCState, orders: Mapping[str, Order], dice: Dice) -> tuple[MSCState, list[Event]]:
        if state.build is None:  # pragma: no cover - the build phase always has its build
            raise TypeError("no build to resolve")
        events: list[Event] = []
        fleets = {side: o for side, o in orders.items() if isinstance(o, Fleet)}
        built = [
            turn.new_ship(ship_id, side, key, design, at, facing, speed)
            for ship_id, side, key, design, at, facing, speed in building.place(
                state.build, fleets, catalogue.designs(), events
            )
        ]
        state = replace(state, ships=(*state.ships, *built), build=None)
        return opening(state, events), events

    def random_order(self, state: MSCState, side: str, rng: random.Random) -> Order:
        if state.build is None:  # pragma: no cover - the build phase always has its build
            raise IllegalOrderError("", "there is nothing to build", building.RULE)
        return building.random_fleet(state.build, side, catalogue.designs(), rng)

    def setup_menu(self, state: MSCState, side: str) -> SetupMenu | None:
        return None if state.build is None else building.menu(state.build, side, catalogue.designs())


def opening(state: MSCState, events: list[Event]) -> MSCState:
    """The state once a set-up step is done: the next one (the deployment), or turn 1's plot."""
    if state.deploy is not None and state.ships:
        events.append(Note("every side places its ships in its start zone and chooses their starting SPEED"))
        return replace(state, phase="deploy")
    state = replace(state, phase="plot", deploy=None)
    events.append(TurnBegan(state.turn))
    if len(state.sides_in_play()) <= 1:
        state = turn.end(state, "elimination", events)
    return state


def deploying(state: MSCState) -> tuple[str, ...]:
    """The sides with ships to place."""
    return tuple(side for side in state.sides if state.ships_of(side))


def _engines(state: MSCState, side: str) -> dict[str, int]:
    return {s.id: s.engine for s in state.ships_of(side)}


@dataclass(frozen=True, slots=True)
class DeployKind(OrderKind[MSCState]):
    """Every side's ships placed in its start zone, each at a starting SPEED up to its ENGINE (MSC 5.0, 6.0)."""

    name: str = "deploy"
    rules: tuple[RuleRow, ...] = _rows("5.0", "6.0 SPEED")

    def prompt(self, state: MSCState) -> Prompt | None:
        return None if state.deploy is None else deploy.prompt(state.deploy, deploying(state))

    def parse(self, state: MSCState, side: str, text: str) -> Order:
        return deploy.Deployment.parse(text, id_lookup([s.id for s in state.ships_of(side)]))

    def check(self, state: MSCState, side: str, order: Order) -> None:
        if state.deploy is None:  # pragma: no cover - the deploy phase always has its zones
            raise IllegalOrderError(str(order), "there is nothing to place", deploy.RULE_ZONE)
        if not isinstance(order, deploy.Deployment):
            raise IllegalOrderError(str(order), "each side's placement is due now", deploy.RULE_ZONE)
        deploy.check(state.deploy.zone_of(side), _engines(state, side), order)

    def resolve(self, state: MSCState, orders: Mapping[str, Order], dice: Dice) -> tuple[MSCState, list[Event]]:
        if state.deploy is None:  # pragma: no cover - the deploy phase always has its zones
            raise TypeError("no deployment to resolve")
        events: list[Event] = []
        for side, order in orders.items():
            if not isinstance(order, deploy.Deployment):  # pragma: no cover - check refused it
                raise TypeError("deployments expected")
            facing = state.deploy.zone_of(side).facing
            for p in order.ships:
                state = state.with_ship(replace(state.ship(p.ship), hex=p.at, facing=facing, speed=p.speed))
                events.append(Note(f"{p.ship} starts at {p.at} heading {facing} at SPEED {p.speed}"))
        return opening(replace(state, deploy=None), events), events

    def random_order(self, state: MSCState, side: str, rng: random.Random) -> Order:
        if state.deploy is None:  # pragma: no cover - the deploy phase always has its zones
            raise IllegalOrderError("", "there is nothing to place", deploy.RULE_ZONE)
        return deploy.random_deployment(state.deploy.zone_of(side), _engines(state, side), rng)

    def setup_menu(self, state: MSCState, side: str) -> SetupMenu | None:
        if state.deploy is None or side not in deploying(state):
            return None
        ships = [(s.id, s.name, s.engine, s.hex, s.speed) for s in state.ships_of(side)]
        return deploy.menu(state.deploy.zone_of(side), ships)


@dataclass(frozen=True, slots=True)
class PlotKind(OrderKind[MSCState]):
    """Every side's secret movement orders, one move per ship (MSC 6.0)."""

    name: str = "plot"
    rules: tuple[RuleRow, ...] = _rows("6.0 SPEED", "6.0 Moving a Ship", "6.0 Ship Movement Orders")

    def prompt(self, state: MSCState) -> Prompt | None:
        return _plot_prompt(state.turn, state.sides_in_play(), self.name)

    def parse(self, state: MSCState, side: str, text: str) -> Order:
        return parse_plot(text, id_lookup([s.id for s in state.ships_of(side)]))

    def check(self, state: MSCState, side: str, order: Order) -> None:
        if not isinstance(order, Plot):
            raise IllegalOrderError(str(order), "movement orders are due now", RULE_PLOT)
        ships = state.ships_of(side)
        named = [s for s, _ in order.moves]
        own = {s.id for s in ships}
        # Each ship once and every ship named (a plot as the bots give it) passes the three tests at once.
        if len(named) != len(own) or not own.issuperset(named) or len(set(named)) != len(named):
            _check_names(order, named, own, ships)
        edge_rule = state.options.get("map_edge") == "forbid"
        strict = bool(state.options.get("strict_turn_spacing"))
        for ship_id, move in order.moves:
            ship = state.ship(ship_id)
            check_move(ship, move, strict)
            if edge_rule and leaves_map(state, ship, move) and _can_stay(state, ship, strict):
                raise IllegalOrderError(
                    f"{ship_id} {move}", "this move leaves the map (option map_edge = forbid)", RULE_EDGE
                )

    def resolve(self, state: MSCState, orders: Mapping[str, Order], dice: Dice) -> tuple[MSCState, list[Event]]:
        events: list[Event] = []
        plots = list(orders.values())
        if not all(isinstance(p, Plot) for p in plots):  # pragma: no cover - check refused it
            raise TypeError("plots expected")
        state = turn.move(state, (p for p in plots if isinstance(p, Plot)), events)
        return turn.after_movement(state, dice, events), events

    def random_order(self, state: MSCState, side: str, rng: random.Random) -> Order:
        return Plot(tuple((ship.id, rng.choice(plottable(state, ship))) for ship in state.ships_of(side)))

    def move_options(self, state: MSCState, side: str) -> Mapping[str, Sequence[MoveOption]]:
        if side not in state.sides_in_play():
            return {}
        return {ship.id: display.move_options(ship, plottable(state, ship)) for ship in state.ships_of(side)}


# A prompt is a frozen value asked of every state a game or a search trial reaches, and few are distinct: one of
# each is shared (bounded by the cache; the same answer as building it again).
@lru_cache(maxsize=1024)
def _plot_prompt(turn: int, sides: tuple[str, ...], name: str) -> Prompt:
    return Prompt(Clock(turn, "plot"), sides, name, True, PLOT_HELP)


@lru_cache(maxsize=1024)
def _fire_prompt(turn: int, firing: int, side: str, name: str) -> Prompt:
    return Prompt(Clock(turn, f"combat, player {firing + 1}"), (side,), name, False, FIRE_HELP)


def _check_names(order: Plot, named: list[str], own: set[str], ships: tuple[Ship, ...]) -> None:
    """Refuse a plot that names a ship twice, names one not the side's in play, or leaves one out (MSC 6.0)."""
    for ship_id in named:
        if named.count(ship_id) > 1:
            raise IllegalOrderError(str(order), f"{ship_id} has two moves; give one per ship", RULE_PLOT)
        if ship_id not in own:
            raise IllegalOrderError(str(order), f"{ship_id} is not one of your ships in play", RULE_PLOT)
    missing = [s.id for s in ships if s.id not in named]
    if missing:
        raise IllegalOrderError(
            str(order), f"no move for {', '.join(missing)}: every ship is plotted before any moves", RULE_PLOT
        )


def _can_stay(state: MSCState, ship: Ship, strict: bool) -> bool:
    return any(not leaves_map(state, ship, m) for m in legal_moves(ship, strict))


@dataclass(frozen=True, slots=True)
class FireKind(OrderKind[MSCState]):
    """One side's fire declaration, in initiative order, resolved before the next side declares (MSC 7.0)."""

    name: str = "fire"
    rules: tuple[RuleRow, ...] = _rows("7.0 Range", "7.0 To-Hit Roll", "7.0 Damage")

    def prompt(self, state: MSCState) -> Prompt | None:
        return _fire_prompt(state.turn, state.firing, state.fire_order[state.firing], self.name)

    def parse(self, state: MSCState, side: str, text: str) -> Order:
        own = id_lookup([s.id for s in state.ships_of(side)])
        return parse_fire(text, own, id_lookup([s.id for s in state.ships]))

    def check(self, state: MSCState, side: str, order: Order) -> None:
        check_declaration(state, side, order)

    def resolve(self, state: MSCState, orders: Mapping[str, Order], dice: Dice) -> tuple[MSCState, list[Event]]:
        events: list[Event] = []
        declared = orders[state.fire_order[state.firing]]
        if not isinstance(declared, FireOrders):  # pragma: no cover - check refused it
            raise TypeError("fire orders expected")
        return turn.next_firer(turn.fire(state, declared, dice, events), events), events

    def random_order(self, state: MSCState, side: str, rng: random.Random) -> Order:
        return unblocked(state, random_fire(state.map, state.ships_of(side), state.enemies_of(side), rng))

    def fire_options(self, state: MSCState, side: str) -> Mapping[str, Sequence[ShotOption]]:
        if side != state.fire_order[state.firing]:
            return {}
        options: dict[str, list[ShotOption]] = {}
        for shot in legal_shots(state, side):
            piece = f"{shot.weapon}>{shot.target}"
            odds = shot_odds(state.ship(shot.ship), shot.weapon, state.ship(shot.target))
            label = f"{shot.weapon.words} weapon"
            option = ShotOption(str(shot.weapon), shot.target, piece, label, odds, 1, 1, RULE_COMBAT)
            options.setdefault(shot.ship, []).append(option)
        return options


BUILD = BuildKind()
DEPLOY = DeployKind()
PLOT = PlotKind()
FIRE = FireKind()

#: MSC's order kinds by name, the name of each being the phase it is due in.
KINDS: Mapping[str, OrderKind[MSCState]] = kind_table((BUILD, DEPLOY, PLOT, FIRE))


def due(state: MSCState) -> OrderKind[MSCState] | None:
    """The kind of order the game waits for now; ``None`` once it is over."""
    return KINDS.get(state.phase)
