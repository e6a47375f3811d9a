"""VMS's order kinds as objects (:class:`vectorwar.orderkinds.OrderKind`): initiative, plot, fire order and fire.

Each holds all VMS knows of its kind of order: the prompt that asks for it, its notation, its check,
its resolution (on through the turn, :mod:`.turn`), a random legal one, the menus front ends offer and
the rule rows a player needs for it. The fire kind hands each of these to the combat module in play
(:mod:`.fight`). :data:`KINDS` names them; the state's phase is the name of the kind due (``"over"``:
none), and the system (:mod:`vectorwar.systems.vms.rules`) asks that kind.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from vectorwar.combat.base import CombatModule, CombatView
from vectorwar.dice import Dice
from vectorwar.display import MoveOption, OrderPiece, ShotOption
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Event, Note
from vectorwar.hexes import Position
from vectorwar.memo import Kept
from vectorwar.orderkinds import OrderKind, RuleRow, kind_table
from vectorwar.roster import id_lookup, replace_fields
from vectorwar.rules import Clock, Order, Prompt
from vectorwar.systems.vms import pieces, turn
from vectorwar.systems.vms.fight import apply_outcome, combat, entry_number, view
from vectorwar.systems.vms.movement import Plot
from vectorwar.systems.vms.orders import WORD_OF, MovePlot, SubphaseChoice
from vectorwar.systems.vms.planner import random_plot
from vectorwar.systems.vms.plotting import advanced, motion_of, plots_for, rotate_before_thrust, work_out
from vectorwar.systems.vms.state import VMSShip, VMSState
from vectorwar.systems.vv5.api import DeclareOrder

RULE_PLOT = "VMS Procedure (every ship of the subphase plots)"
RULE_INITIATIVE = "VMS Rules Changes (Initiative)"
RULE_FIRE_ORDER = "VV5 Initiative (the initiative player chooses who declares first)"

PLOT_HELP = (
    "each ship moving now: burns THRUSTER:DIR=POINTS or THRUSTER:rot=POINTS, a rotation R1/L1, "
    "flat:R1, or 'drift'; e.g. 'Hawk aft1:B=4 port1:rot=1 R1; Kite drift'"
)
ADVANCED_HELP = "; advanced rotation: a large ship's R15/L15 is its rotational points this turn"


#: The prompts of the plot, the fire and the fire order, by what each reads (the kind's name first): one object for
#: equal prompts (frozen values, each with its clock built by a Python call), as a search's trials ask the prompt of
#: state after state.
_PROMPTS: Kept[tuple[object, ...], Prompt] = Kept(1 << 10)


class VMSKind(OrderKind[VMSState], Protocol):
    """A VMS order kind: the kernel's, and what VMS's contract asks beyond it (defaults: nothing)."""

    def order_pieces(self, state: VMSState, side: str) -> Mapping[str, Sequence[OrderPiece]]:
        """Ship id -> the pieces the composer builds an order of, where this kind has them."""
        return {}

    def resolve_in_prospect(
        self, state: VMSState, orders: Mapping[str, Order], dice: Dice
    ) -> tuple[VMSState, Mapping[str, float]] | None:
        """:meth:`RuleSystem.resolve_in_prospect`, where this kind offers it."""
        return None

    def fire_in_prospect(self, state: VMSState) -> dict[str, float]:
        """What each side is expected to lose to the fire still to come this turn (none outside fire)."""
        return dict.fromkeys(state.sides, 0.0)


def _every_ship_once(order: Order, named: list[str], due: Sequence[VMSShip], rule: str) -> None:
    # The order is written out only for a refusal: a bot's order, checked every turn, never is.
    for ship_id in named:
        if named.count(ship_id) > 1:
            raise IllegalOrderError(str(order), f"{ship_id} is named twice; give one entry per ship", rule)
    missing = [s.id for s in due if s.id not in named]
    if missing:
        raise IllegalOrderError(
            str(order), f"nothing for {', '.join(missing)}: every ship due now needs an entry", rule
        )


def initiative_help(state: VMSState, sides: tuple[str, ...]) -> str:
    """The initiative prompt's help, naming this turn's ships with a choice and their subphases."""
    ships = [ship for side in sides for ship in state.choosers(side)]
    listed = ", ".join(f"{s.id} ({' or '.join(WORD_OF[c] for c in s.choices)})" for s in ships)
    example = SubphaseChoice(tuple((s.id, s.choices[-1]) for s in state.choosers(sides[0]))) if sides else ""
    return f"the subphase for each ship with a choice: {listed}; e.g. '{example}'"


@dataclass(frozen=True, slots=True)
class InitiativeKind(VMSKind):
    """The subphase of each ship whose initiative roll lets it move early or late (Rules Changes, Initiative)."""

    name: str = "initiative"
    rules: tuple[RuleRow, ...] = (RuleRow("vms", "Rules Changes (Initiative)"),)

    def prompt(self, state: VMSState) -> Prompt | None:
        sides = tuple(side for side in state.sides if state.choosers(side))
        return Prompt(Clock(state.turn, "initiative"), sides, self.name, True, initiative_help(state, sides))

    def parse(self, state: VMSState, side: str, text: str) -> Order:
        return SubphaseChoice.parse(text, id_lookup(s.id for s in state.choosers(side)))

    def check(self, state: VMSState, side: str, order: Order) -> None:
        if not isinstance(order, SubphaseChoice):
            raise IllegalOrderError(str(order), "initiative choices are due now", RULE_INITIATIVE)
        _every_ship_once(order, [s for s, _ in order.picks], state.choosers(side), RULE_INITIATIVE)
        for ship_id, subphase in order.picks:
            ship = state.ship(ship_id)
            if subphase not in ship.choices:
                raise IllegalOrderError(
                    f"{ship_id} {subphase}", f"{ship_id} may move in {' or '.join(ship.choices)}", RULE_INITIATIVE
                )

    def resolve(self, state: VMSState, orders: Mapping[str, Order], dice: Dice) -> tuple[VMSState, list[Event]]:
        events: list[Event] = []
        for order in orders.values():
            if not isinstance(order, SubphaseChoice):  # pragma: no cover - check refused it
                raise TypeError("initiative choices expected")
            for ship_id, subphase in order.picks:
                state = state.with_ship(replace_fields(state.ship(ship_id), subphase=subphase))
                events.append(Note(f"{ship_id} will move in the {subphase} subphase"))
        return turn.next_subphase(state, dice, events), events

    def random_order(self, state: VMSState, side: str, rng: random.Random) -> Order:
        return SubphaseChoice(tuple((s.id, rng.choice(s.choices)) for s in state.choosers(side)))


@dataclass(frozen=True, slots=True)
class PlotKind(VMSKind):
    """The plots of every ship of the subphase moving now, carried out together (Procedure)."""

    name: str = "plot"
    rules: tuple[RuleRow, ...] = (
        RuleRow("vms", "Procedure"),
        RuleRow("vms", "Rotational System"),
        RuleRow("vms", "Rules Changes (Initiative)"),
    )

    def prompt(self, state: VMSState) -> Prompt | None:
        sides = tuple(side for side in state.sides if state.movers(side))
        key = (self.name, state.turn, state.subphase, sides, advanced(state))
        found = _PROMPTS.get(key)
        if found is None:
            help_text = PLOT_HELP + (ADVANCED_HELP if advanced(state) else "")
            clock = Clock(state.turn, "plot", subphase=state.subphase)
            found = _PROMPTS.keep(key, Prompt(clock, sides, self.name, True, help_text))
        return found

    def parse(self, state: VMSState, side: str, text: str) -> Order:
        return MovePlot.parse(text, id_lookup(s.id for s in state.movers(side)))

    def check(self, state: VMSState, side: str, order: Order) -> None:
        if not isinstance(order, MovePlot):
            raise IllegalOrderError(str(order), "movement plots are due now", RULE_PLOT)
        _every_ship_once(order, [s for s, _ in order.moves], state.movers(side), RULE_PLOT)
        for ship_id, plot in order.moves:
            work_out(state, state.ship(ship_id), plot)

    def resolve(self, state: VMSState, orders: Mapping[str, Order], dice: Dice) -> tuple[VMSState, list[Event]]:
        events: list[Event] = []
        return turn.plotted(state, orders, dice, events), events

    def resolve_in_prospect(
        self, state: VMSState, orders: Mapping[str, Order], dice: Dice
    ) -> tuple[VMSState, Mapping[str, float]] | None:
        # A plot whose moves end the movement phase resolves the missiles in flight (VV5 combat): the
        # search bot's trials count them in expectation, as they count the fire to come, so that no
        # throw of its dice decides a trial, and a dodge is worth what it takes off every missile's chance.
        lost = dict.fromkeys(state.sides, 0.0)
        return turn.plotted(state, orders, dice, [], lost), lost

    def random_order(self, state: VMSState, side: str, rng: random.Random) -> Order:
        moves: list[tuple[str, Plot]] = []
        for ship in state.movers(side):
            # Plots that stay on the map when there are any, so random games are not all disengagements.
            plot = random_plot(
                ship.spec,
                motion_of(ship),
                state.turn,
                ship.thrust_lost,
                rotate_before_thrust(state),
                rng,
                lambda r: all(state.map.contains(h) for h in r.path),
                advanced_rotation=advanced(state),
                limit_lost=ship.rotation_limit_lost,
            )
            moves.append((ship.id, plot))
        return MovePlot(tuple(moves))

    def move_options(self, state: VMSState, side: str) -> Mapping[str, Sequence[MoveOption]]:
        return {
            ship.id: [
                MoveOption(f"{ship.id} {plot}", tuple(Position(h) for h in result.path), result.motion.facing)
                for plot, result in plots_for(state, ship)
            ]
            for ship in state.movers(side)
        }

    def order_pieces(self, state: VMSState, side: str) -> Mapping[str, Sequence[OrderPiece]]:
        out: dict[str, list[OrderPiece]] = {}
        for ship in state.movers(side):

            def legal(plot: Plot, ship: VMSShip = ship) -> bool:
                try:
                    work_out(state, ship, plot)
                except IllegalOrderError:
                    return False
                return True

            menu = [plot for plot, _ in plots_for(state, ship)]
            found = pieces.pieces(ship.spec, {}, menu, legal)
            if found:
                out[ship.id] = found
        return out


@dataclass(frozen=True, slots=True)
class FireKind(VMSKind):
    """One side's fire, declared and resolved in the combat module's order (option ``combat``)."""

    name: str = "fire"
    # The rows of both modules' fire: VMS fights by MSC's or VV5's rules.
    rules: tuple[RuleRow, ...] = (
        RuleRow("msc", "7.0 To-Hit Roll"),
        RuleRow("msc", "7.0 Damage"),
        RuleRow("vv5", "Launch Missiles"),
        RuleRow("vv5", "Gunfire"),
    )

    def prompt(self, state: VMSState) -> Prompt | None:
        side = state.fire_order[state.firing]
        help_text = combat(state).fire_help
        key = (self.name, state.turn, state.firing, side, help_text)
        found = _PROMPTS.get(key)
        if found is None:
            clock = Clock(state.turn, f"combat, player {state.firing + 1}")
            found = _PROMPTS.keep(key, Prompt(clock, (side,), self.name, False, help_text))
        return found

    def parse(self, state: VMSState, side: str, text: str) -> Order:
        return combat(state).parse_fire(view(state), side, text)

    def check(self, state: VMSState, side: str, order: Order) -> None:
        combat(state).check_fire(view(state), side, order)

    def resolve(self, state: VMSState, orders: Mapping[str, Order], dice: Dice) -> tuple[VMSState, list[Event]]:
        events: list[Event] = []
        side = state.fire_order[state.firing]
        outcome = combat(state).fire(view(state), side, orders[side], dice, events)
        state = apply_outcome(state, outcome, events)
        return turn.next_firer(replace_fields(state, firing=state.firing + 1), dice, events), events

    def random_order(self, state: VMSState, side: str, rng: random.Random) -> Order:
        return combat(state).random_fire(view(state), side, rng)

    def fire_options(self, state: VMSState, side: str) -> Mapping[str, Sequence[ShotOption]]:
        if side != state.fire_order[state.firing]:
            return {}
        module, seen = combat(state), view(state)
        options = {ship.id: module.shot_options(seen, ship.id) for ship in state.ships_of(side)}
        return {ship_id: shots for ship_id, shots in options.items() if shots}

    def fire_in_prospect(self, state: VMSState) -> dict[str, float]:
        return fire_to_come(state, state.fire_order[state.firing :])


def fire_to_come(state: VMSState, sides: Sequence[str]) -> dict[str, float]:
    """Each of ``sides`` fires as greedy would; what its shots are expected to take off their targets'
    strength is the targets' sides' loss."""
    points = dict.fromkeys(state.sides, 0.0)
    module, seen = combat(state), view(state)
    for side in sides:
        if not state.ships_of(side):
            continue
        for ship_id, loss in _greedy_losses(module, seen, side).items():
            points[state.ship(ship_id).side] -= loss
    return points


def _greedy_losses(module: CombatModule, seen: CombatView, side: str) -> Mapping[str, float]:
    """What ``side``'s greedy fire is expected to take off each ship it shoots at: a function of the view alone (every
    ship's combat entry and card, the map, the turning penalty and the options), kept by it, as a search's trials
    stop at the same fire again and again (the module, map, options and cards by identity, kept beside the answer
    so that no other object takes their identities while it is kept). Shared: read, never changed."""
    cards = seen.cards
    held = (module, seen.map, seen.options, *(cards[c.id] for c in seen.ships))
    key = (*map(id, held), seen.penalty_per_hexside, side, *map(entry_number, seen.ships))
    known = _GREEDY_LOSSES.get(key)
    if known is not None:
        return known[1]
    losses = module.expected_losses(seen, side, module.greedy_fire(seen, side))
    return _GREEDY_LOSSES.keep(key, (held, losses))[1]


#: :func:`_greedy_losses`' answers by what they read, with the objects read by identity.
_GREEDY_LOSSES: Kept[tuple[object, ...], tuple[tuple[object, ...], Mapping[str, float]]] = Kept(1 << 10)


@dataclass(frozen=True, slots=True)
class FireOrderKind(VMSKind):
    """The fire initiative holder's choice of the side that declares first (VV5 combat: VV5 Initiative)."""

    name: str = "fire-order"
    rules: tuple[RuleRow, ...] = (RuleRow("vv5", "Initiative"),)

    def prompt(self, state: VMSState) -> Prompt | None:
        sides = state.sides_in_play()
        key = (self.name, state.turn, sides[-1], state.initiative)
        found = _PROMPTS.get(key)
        if found is None:
            help = f"the side that declares fire first, or every side in order, e.g. '{sides[-1]} first'"
            clock = Clock(state.turn, self.name)
            found = _PROMPTS.keep(key, Prompt(clock, (state.initiative,), self.name, False, help))
        return found

    def parse(self, state: VMSState, side: str, text: str) -> Order:
        return DeclareOrder.parse(text, state.sides_in_play())

    def check(self, state: VMSState, side: str, order: Order) -> None:
        if not isinstance(order, DeclareOrder):
            raise IllegalOrderError(str(order), "the order in which sides declare fire is due now", RULE_FIRE_ORDER)
        if sorted(order.sides) != sorted(state.sides_in_play()):
            raise IllegalOrderError(str(order), "list every side in play once", RULE_FIRE_ORDER)

    def resolve(self, state: VMSState, orders: Mapping[str, Order], dice: Dice) -> tuple[VMSState, list[Event]]:
        events: list[Event] = []
        order = orders[state.initiative]
        if not isinstance(order, DeclareOrder):  # pragma: no cover - checked
            raise TypeError("a declaration order expected")
        return turn.set_fire_order(state, order.sides, dice, events), events

    def random_order(self, state: VMSState, side: str, rng: random.Random) -> Order:
        sides = list(state.sides_in_play())
        rng.shuffle(sides)
        return DeclareOrder(tuple(sides))

    def fire_in_prospect(self, state: VMSState) -> dict[str, float]:
        # Every side in play is still to fire this turn, in whatever order the holder picks.
        return fire_to_come(state, state.sides_in_play())


INITIATIVE = InitiativeKind()
PLOT = PlotKind()
FIRE_ORDER = FireOrderKind()
FIRE = FireKind()


def _table(*kinds: VMSKind) -> dict[str, VMSKind]:
    kind_table(kinds)  # refuses two kinds of one name
    return {kind.name: kind for kind in kinds}


#: VMS's order kinds by name, the name of each being the phase it is due in.
KINDS: Mapping[str, VMSKind] = _table(INITIATIVE, PLOT, FIRE_ORDER, FIRE)


def due(state: VMSState) -> VMSKind | None:
    """The kind of order the game waits for now; ``None`` once it is over."""
    return KINDS.get(state.phase)
