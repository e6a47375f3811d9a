"""VV5's order kinds as objects (:class:`vectorwar.orderkinds.OrderKind`): purchase, place, declare-order,
missiles, guns, plot and ace-replot.

Each holds all VV5 knows of its kind of order: the prompt that asks for it, its notation, its
check (:mod:`vectorwar.systems.vv5.legality`), its resolution (on through the turn,
:mod:`vectorwar.systems.vv5.turn`), a random legal one, the menu front ends offer and the rule rows
of ``docs/rules/vv5.md`` a player needs for it. Each kind is due in the state's phase of its
``phase`` (the declare-order kind's is ``"choose-order"``; ``"over"``: none), and the system
(:mod:`vectorwar.systems.vv5.rules`) asks the kind :func:`due` finds.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from vectorwar.dice import Dice
from vectorwar.display import MoveOption, SetupMenu, ShotOption
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Event, InitiativeSet
from vectorwar.orderkinds import OrderKind, RuleRow, kind_table
from vectorwar.roster import id_lookup, replace_fields
from vectorwar.rules import Clock, Order, Prompt
from vectorwar.systems.vv5 import buying, crews, display, legality, placing, preview, setup_menu, shock, turn
from vectorwar.systems.vv5.buying import Buy
from vectorwar.systems.vv5.honour import honourable
from vectorwar.systems.vv5.movement import turn_allowance
from vectorwar.systems.vv5.orders import DeclareOrder, Gunfire, Launch, Launches, Manoeuvre, Plot, Shot
from vectorwar.systems.vv5.state import Ship, VV5State
from vectorwar.systems.vv5.targeting import gun_problem, launch_problem

RULE_SEQUENCE = "VV5 Sequence of Play"

HELP = {
    "missiles": "launches as SHIP COUNT>TARGET, e.g. 'X1 2>Y1; X2 1>Y2', or 'hold'",
    "guns": "shots as SHIP MOUNT*GUNS>TARGET (mounts fwd f180 a180 l180 r180 t360; each gun fires twice a turn), "
    "e.g. 'X1 fwd*2>Y1 fwd*2>Y1', or 'hold'",
    "plot": "one plot per ship: L/R rotate 60 degrees, digits accelerate that many G, e.g. 'X1 RR1; X2 0'",
    "ace-replot": "Ace Moment: a new plot for each of your aces named, having seen every other ship move, e.g. 'X1 L2'",
}


@lru_cache(maxsize=256)
def _prompt(turn: int, kind: str, sides: tuple[str, ...], simultaneous: bool, help: str) -> Prompt:
    """The prompt for ``kind`` at ``turn``: one frozen value for every state that asks it (each state of a game
    is asked once; a turn's states ask a few prompts again and again)."""
    return Prompt(Clock(turn, kind), sides, kind, simultaneous, help)


@lru_cache(maxsize=64)
def declare_order_help(sides: tuple[str, ...]) -> str:
    """The declare-order prompt's help, with the game's own sides as its examples.

    >>> declare_order_help(("red", "blue", "gold"))[51:]
    "'red first', 'blue first' or 'gold first' (or the full order, e.g. 'red, blue, gold')"
    """
    firsts = [f"'{side} first'" for side in sides]
    choice = firsts[0] if len(firsts) < 2 else f"{', '.join(firsts[:-1])} or {firsts[-1]}"
    return f"the side that declares missiles and gunfire first: {choice} (or the full order, e.g. '{', '.join(sides)}')"


def random_manoeuvre(ship: Ship, rng: random.Random) -> Manoeuvre:
    """Rotations and thrust drawn within the ship's Agility and Acceleration."""
    rotations, thrust = turn_allowance(ship)
    turns = rng.randint(0, rotations)
    g = rng.randint(0, thrust)
    steps: list[str] = [rng.choice("LR") for _ in range(turns)]
    if g:
        steps.insert(rng.randint(0, len(steps)), str(g))
    return Manoeuvre(tuple(steps))


def _rows(*cells: str) -> tuple[RuleRow, ...]:
    return tuple(RuleRow("vv5", cell) for cell in cells)


def _due_now(kind: VV5Kind, order: Order, expected: type) -> None:
    """Refuse an order of another kind than the one due."""
    if not isinstance(order, expected):
        raise IllegalOrderError(str(order), f"{kind.phase} orders are due now", RULE_SEQUENCE)


def _declarer(state: VV5State) -> str:
    """The side declaring its missiles or gunfire now."""
    return state.declare_order[state.declaring]


def _own_ids(state: VV5State, side: str) -> dict[str, str]:
    return id_lookup(s.id for s in state.ships_of(side))


class VV5Kind(OrderKind[VV5State]):
    """A VV5 order kind, with the state's phase it is due in (its name but for the declare-order's)."""

    __slots__ = ()
    phase: str


# -- set-up: the purchase and the placements -----------------------------------------------


@dataclass(frozen=True, slots=True)
class PurchaseKind(VV5Kind):
    """One pick of a side's starships, by tonnage, before turn 1 where the scenario says so (Dogfight)."""

    name: str = "purchase"
    phase: str = "purchase"
    rules: tuple[RuleRow, ...] = _rows("Dogfight")

    def prompt(self, state: VV5State) -> Prompt | None:
        return buying.prompt(state)

    def parse(self, state: VV5State, side: str, text: str) -> Order:
        return Buy.parse(text)

    def check(self, state: VV5State, side: str, order: Order) -> None:
        _due_now(self, order, Buy)
        if isinstance(order, Buy):
            buying.check(state, side, order)

    def resolve(self, state: VV5State, orders: Mapping[str, Order], dice: Dice) -> tuple[VV5State, list[Event]]:
        events: list[Event] = []
        side, order = next(iter(orders.items()))
        if not isinstance(order, Buy):  # pragma: no cover - checked
            raise TypeError("a purchase expected")
        state = buying.resolve(state, side, order, dice, events)
        if state.purchase is None:
            state = turn.begin_turn(state, dice, events)
        return state, events

    def random_order(self, state: VV5State, side: str, rng: random.Random) -> Order:
        return buying.random_buy(state, side, rng)

    def setup_menu(self, state: VV5State, side: str) -> SetupMenu | None:
        return setup_menu.purchase_menu(state, side)


@dataclass(frozen=True, slots=True)
class PlaceKind(VV5Kind):
    """One set-up placement before turn 1: the orbited body or the stasis pod (Stasis Pod), an interceptor or a
    refugee ship's facing (Refugees), the interceptors' edge (Strike Force, Assault Force)."""

    name: str = "place"
    phase: str = "place"
    # Each scenario's own rows (Refugees, Strike Force) come beside its prompts from `scenario_rules`.
    rules: tuple[RuleRow, ...] = _rows("Stasis Pod")

    def prompt(self, state: VV5State) -> Prompt | None:
        return placing.prompt(state)

    def parse(self, state: VV5State, side: str, text: str) -> Order:
        return placing.parse(text)

    def check(self, state: VV5State, side: str, order: Order) -> None:
        if not isinstance(order, placing.PLACEMENTS):
            raise IllegalOrderError(str(order), f"{self.phase} orders are due now", RULE_SEQUENCE)
        placing.check(state, side, order)

    def resolve(self, state: VV5State, orders: Mapping[str, Order], dice: Dice) -> tuple[VV5State, list[Event]]:
        events: list[Event] = []
        side, order = next(iter(orders.items()))
        if not isinstance(order, placing.PLACEMENTS):  # pragma: no cover - checked
            raise TypeError("a placement expected")
        state = placing.resolve(state, side, order, events)
        if state.placing:
            return state, events
        state, more = turn.start(replace_fields(state, phase="plot"), dice)
        return state, events + more

    def random_order(self, state: VV5State, side: str, rng: random.Random) -> Order:
        return placing.random_place(state, side, rng)

    def setup_menu(self, state: VV5State, side: str) -> SetupMenu | None:
        return setup_menu.place_menu(state, side)


# -- the turn: who declares first, missiles, guns -----------------------------------------


@dataclass(frozen=True, slots=True)
class DeclareOrderKind(VV5Kind):
    """The initiative side's choice of the order in which the sides declare (VV5 Initiative)."""

    name: str = "declare-order"
    phase: str = "choose-order"
    rules: tuple[RuleRow, ...] = _rows("Initiative")

    def prompt(self, state: VV5State) -> Prompt | None:
        help = declare_order_help(state.sides_in_play())
        return _prompt(state.turn, self.name, (state.initiative,), False, help)

    def parse(self, state: VV5State, side: str, text: str) -> Order:
        return DeclareOrder.parse(text, state.sides_in_play())

    def check(self, state: VV5State, side: str, order: Order) -> None:
        _due_now(self, order, DeclareOrder)
        if isinstance(order, DeclareOrder) and sorted(order.sides) != sorted(state.sides_in_play()):
            raise IllegalOrderError(str(order), "list every side in play once", legality.RULE_ORDER)

    def resolve(self, state: VV5State, orders: Mapping[str, Order], dice: Dice) -> tuple[VV5State, list[Event]]:
        events: list[Event] = []
        order = orders[state.initiative]
        if not isinstance(order, DeclareOrder):  # pragma: no cover - checked
            raise TypeError("declare order expected")
        events.append(InitiativeSet(order.sides))
        state = replace_fields(state, phase="missiles", declare_order=order.sides, declaring=0)
        return turn.settle(turn.next_declarer(state, dice, events), dice, events), events

    def random_order(self, state: VV5State, side: str, rng: random.Random) -> Order:
        sides = list(state.sides_in_play())
        rng.shuffle(sides)
        return DeclareOrder(tuple(sides))


@dataclass(frozen=True, slots=True)
class MissilesKind(VV5Kind):
    """One side's missile launches, side by side in the chosen order (VV5 Launch Missiles)."""

    name: str = "missiles"
    phase: str = "missiles"
    rules: tuple[RuleRow, ...] = _rows("Launch Missiles")

    def prompt(self, state: VV5State) -> Prompt | None:
        return _prompt(state.turn, self.name, (_declarer(state),), False, HELP[self.name])

    def parse(self, state: VV5State, side: str, text: str) -> Order:
        return Launches.parse(text, _own_ids(state, side), id_lookup(s.id for s in state.ships))

    def check(self, state: VV5State, side: str, order: Order) -> None:
        _due_now(self, order, Launches)
        if isinstance(order, Launches):
            legality.check_launches(state, side, order)

    def resolve(self, state: VV5State, orders: Mapping[str, Order], dice: Dice) -> tuple[VV5State, list[Event]]:
        events: list[Event] = []
        launches = orders[_declarer(state)]
        if not isinstance(launches, Launches):  # pragma: no cover - checked
            raise TypeError("launches expected")
        state = turn.launch(state, launches, events)
        state = turn.next_declarer(state, dice, events, state.declaring + 1)
        return turn.settle(state, dice, events), events

    def random_order(self, state: VV5State, side: str, rng: random.Random) -> Order:
        launches: list[Launch] = []
        for ship in state.ships_of(side):
            targets = [t for t in state.enemies_of(side) if launch_problem(state, ship, t) is None]
            if targets and ship.missiles_ready and rng.random() < 0.5:
                launches.append(Launch(ship.id, rng.randint(1, ship.missiles_ready), rng.choice(targets).id))
        return Launches(tuple(launches))

    def fire_options(self, state: VV5State, side: str) -> Mapping[str, Sequence[ShotOption]]:
        return display.fire_options(state, side) if side == _declarer(state) else {}


@dataclass(frozen=True, slots=True)
class GunsKind(VV5Kind):
    """One side's gunfire, to-hit rolled at once and damage noted for later (VV5 Gunfire)."""

    name: str = "guns"
    phase: str = "guns"
    rules: tuple[RuleRow, ...] = _rows("Gunfire", "Gun damage")

    def prompt(self, state: VV5State) -> Prompt | None:
        return _prompt(state.turn, self.name, (_declarer(state),), False, HELP[self.name])

    def parse(self, state: VV5State, side: str, text: str) -> Order:
        guns = {(s.id, m.arc): m.guns.boxes for s in state.ships_of(side) for m in s.mounts}
        return Gunfire.parse(text, _own_ids(state, side), id_lookup(s.id for s in state.ships), guns)

    def check(self, state: VV5State, side: str, order: Order) -> None:
        _due_now(self, order, Gunfire)
        if isinstance(order, Gunfire):
            legality.check_gunfire(state, side, order)

    def resolve(self, state: VV5State, orders: Mapping[str, Order], dice: Dice) -> tuple[VV5State, list[Event]]:
        events: list[Event] = []
        gunfire = orders[_declarer(state)]
        if not isinstance(gunfire, Gunfire):  # pragma: no cover - checked
            raise TypeError("gunfire expected")
        state = turn.fire(state, gunfire, dice, events)
        state = turn.next_declarer(state, dice, events, state.declaring + 1)
        return turn.settle(state, dice, events), events

    def random_order(self, state: VV5State, side: str, rng: random.Random) -> Order:
        shots: list[Shot] = []
        for ship in state.ships_of(side):
            for mount in ship.mounts:
                targets = [t for t in state.enemies_of(side) if gun_problem(state, ship, mount.arc, t) is None]
                if not targets or mount.guns.boxes == 0:
                    continue
                for _ in range(rng.randint(0, 2)):
                    shots.append(Shot(ship.id, mount.arc, rng.randint(1, mount.guns.boxes), rng.choice(targets).id))
        return Gunfire(tuple(shots))

    def fire_options(self, state: VV5State, side: str) -> Mapping[str, Sequence[ShotOption]]:
        return display.fire_options(state, side) if side == _declarer(state) else {}


# -- the turn: plotting movement ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlotKind(VV5Kind):
    """Every side's secret plots, one per starship: rotations and accelerations (VV5 Plotting Movement)."""

    name: str = "plot"
    phase: str = "plot"
    rules: tuple[RuleRow, ...] = _rows("Movement", "Sequence of Play")

    def prompt(self, state: VV5State) -> Prompt | None:
        escape = "; or 'X1 escape': the crew abandon the ship (a voluntary escape)" if crews.enabled(state) else ""
        return _prompt(state.turn, self.name, state.sides_in_play(), True, HELP[self.name] + escape)

    def parse(self, state: VV5State, side: str, text: str) -> Order:
        return Plot.parse(text, _own_ids(state, side))

    def check(self, state: VV5State, side: str, order: Order) -> None:
        _due_now(self, order, Plot)
        if isinstance(order, Plot):
            legality.check_plot(state, side, order, replot=False)

    def resolve(self, state: VV5State, orders: Mapping[str, Order], dice: Dice) -> tuple[VV5State, list[Event]]:
        events: list[Event] = []
        state = turn.move(state, turn.plots_of(orders), dice, events)
        return turn.settle(state, dice, events), events

    def random_order(self, state: VV5State, side: str, rng: random.Random) -> Order:
        return Plot(
            tuple(
                (s.id, shock.forced(state, s) or honourable(state, s, random_manoeuvre(s, rng), rng))
                for s in state.ships_of(side)
            )
        )

    def move_options(self, state: VV5State, side: str) -> Mapping[str, Sequence[MoveOption]]:
        return preview.move_options(state, side)


@dataclass(frozen=True, slots=True)
class AceReplotKind(VV5Kind):
    """The new plots of aces with an Ace Moment, after every other ship has moved (Experienced Crews)."""

    name: str = "ace-replot"
    phase: str = "ace-replot"
    # Its prompt's clock says "ace-replot", so the plot's rows are the ones shown beside it.
    rules: tuple[RuleRow, ...] = _rows("Movement", "Sequence of Play")

    def prompt(self, state: VV5State) -> Prompt | None:
        sides = tuple(dict.fromkeys(state.ship(a).side for a in state.ace_replot))
        return _prompt(state.turn, self.name, sides, True, HELP[self.name])

    def parse(self, state: VV5State, side: str, text: str) -> Order:
        return Plot.parse(text, id_lookup(a for a in state.ace_replot if state.ship(a).side == side))

    def check(self, state: VV5State, side: str, order: Order) -> None:
        _due_now(self, order, Plot)
        if isinstance(order, Plot):
            legality.check_plot(state, side, order, replot=True)

    def resolve(self, state: VV5State, orders: Mapping[str, Order], dice: Dice) -> tuple[VV5State, list[Event]]:
        events: list[Event] = []
        state = turn.move_aces(state, turn.plots_of(orders), dice, events)
        return turn.settle(state, dice, events), events

    def random_order(self, state: VV5State, side: str, rng: random.Random) -> Order:
        return Plot(
            tuple(
                (s.id, honourable(state, s, random_manoeuvre(s, rng), rng))
                for s in state.ships_of(side)
                if s.id in state.ace_replot
            )
        )

    def move_options(self, state: VV5State, side: str) -> Mapping[str, Sequence[MoveOption]]:
        return preview.move_options(state, side)


PURCHASE = PurchaseKind()
PLACE = PlaceKind()
DECLARE_ORDER = DeclareOrderKind()
MISSILES = MissilesKind()
GUNS = GunsKind()
PLOT = PlotKind()
ACE_REPLOT = AceReplotKind()

_ALL: tuple[VV5Kind, ...] = (PURCHASE, PLACE, DECLARE_ORDER, MISSILES, GUNS, PLOT, ACE_REPLOT)

#: VV5's order kinds by name, in the manifest's order of their phases.
KINDS: Mapping[str, OrderKind[VV5State]] = kind_table(_ALL)

#: The kinds by the state's phase they are due in.
BY_PHASE: Mapping[str, VV5Kind] = {kind.phase: kind for kind in _ALL}


def due(state: VV5State) -> VV5Kind | None:
    """The kind of order the game waits for now; ``None`` once it is over."""
    return BY_PHASE.get(state.phase)
