"""The Vector Movement System as a vectorwar rule system, with a combat module.

A turn (docs/rules/vms.md):

1. **Initiative.** Every ship rolls a d20 against its initiative total; the
   owners of ships that may move a subphase early or late choose (a
   simultaneous prompt, only when some ship has a choice).
2. **Movement by subphase.** In the order of option ``vms_subphase_order``,
   each subphase with ships in it is a simultaneous plot prompt
   (``Clock.subphase`` names it); the plots are then carried out together.
3. **Combat.** Once every ship has moved, the combat module named by
   option ``combat`` (``msc`` or ``vv5``) runs its after-movement step (VV5's
   incoming missiles), then its fire phase: sides declare and resolve in the
   module's order, then the module's after-fire step (VV5's gun damage).
4. **End of turn.** Ships that rotated over their class limit roll Xd10
   structure damage, handed to the combat module.

Nothing here names a combat module's weapons: the module reads each ship as
a neutral :class:`~vectorwar.combat.base.Combatant` and reports damage as
neutral effects.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

from vectorwar.catalogue import design_for
from vectorwar.combat import MODULES, CombatModule, module
from vectorwar.combat.base import Combatant, CombatView, Outcome
from vectorwar.dice import Dice
from vectorwar.display import Card, CardTable, Counter, MoveOption, OrderPiece, ShotOption
from vectorwar.errors import DesignError, IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.events import Event, GameOver, InitiativeSet, LeftMap, Moved, Note, TurnBegan
from vectorwar.hexes import Hex, Position
from vectorwar.memo import last_answer
from vectorwar.roster import id_lookup
from vectorwar.rules import (
    Bot,
    Clock,
    Manifest,
    OptionSpec,
    OptionValue,
    Order,
    PhaseSpec,
    Prompt,
    Result,
    RuleSystem,
)
from vectorwar.scenario import Scenario
from vectorwar.systems.vms import catalogue, display, pieces
from vectorwar.systems.vms.bots import GreedyBot, stops_on_map
from vectorwar.systems.vms.events import CourseSet, RotationLimitCut, SubphaseSet, ThrustLost
from vectorwar.systems.vms.initiative import DEFAULT_ORDER, SUBPHASE_ORDERS, roll_initiative
from vectorwar.systems.vms.modifiers import scenario_modifiers
from vectorwar.systems.vms.movement import Motion, Plot, TurnResult, move
from vectorwar.systems.vms.orders import WORD_OF, MovePlot, SubphaseChoice
from vectorwar.systems.vms.planner import legal_plots, random_plot
from vectorwar.systems.vms.rotation import AdvancedRotation, limit_lost, overspeed_damage
from vectorwar.systems.vms.ships import Design
from vectorwar.systems.vms.state import VMSShip, VMSState

RULE_PLOT = "VMS Procedure (every ship of the subphase plots)"
#: The share of its strength a ship that can no longer stop on the map counts for in ``standing`` (search's judge).
LEAVING = 0.5
RULE_INITIATIVE = "VMS Rules Changes (Initiative)"

PLOT_HELP = (
    "each ship moving now: burns THRUSTER:DIR=POINTS or THRUSTER:rot=POINTS, a rotation R1/L1, "
    "flat:R1, or 'drift'; e.g. 'Hawk aft1:B=4 port1:rot=1 R1; Kite drift'"
)
ADVANCED_HELP = "; advanced rotation: a large ship's R15/L15 is its rotational points this turn"

MANIFEST = Manifest(
    name="vms",
    title="Vector Movement System",
    source="../shared/seeds/003_674ef97bd54528e4.txt (Weuve and Kaufmann, 1997), with a combat module",
    phases=(
        PhaseSpec(
            "initiative",
            "Initiative: a d20 per ship; owners of ships allowed to move a subphase early or late choose",
            "initiative",
            True,
        ),
        PhaseSpec(
            "plot",
            "Movement, one class subphase at a time: the ships in it plot, then all thrust and rotate together",
            "plot",
            True,
        ),
        PhaseSpec("fire", "Combat: the combat module's fire phase (option combat)", "fire"),
        PhaseSpec("end", "End of turn: Xd10 structure damage for rotating X hexsides over the class limit"),
    ),
    dice=tuple(sorted({"d20", "xd10", *(d for m in MODULES.values() for d in m.dice)})),
    options=(
        OptionSpec("combat", "msc", "The combat module played with VMS movement", tuple(sorted(MODULES))),
        OptionSpec(
            "vms_subphase_order",
            DEFAULT_ORDER,
            "Where shuttles move: first of all, or after the capital ships (docs/rulings.md, VMS full subphase order)",
            tuple(SUBPHASE_ORDERS),
        ),
        OptionSpec(
            "vms_rotate_before_thrust",
            False,
            "Fire thrusters from the facing after this turn's rotation instead of before it",
        ),
        OptionSpec(
            "vms_advanced_rotation",
            False,
            "Advanced Rotation Variant: rotational thrust in points, a rate may hold part of a hexside",
        ),
        OptionSpec(
            "vms_damaged_rotation_limits",
            True,
            "Rotation limits fall with the hull left, rounded up (the text: 'unless degraded by damage'; "
            "docs/rulings.md, VMS rotation limits degraded by damage); off, they never change",
        ),
        OptionSpec(
            "vms_turn_penalty",
            2,
            "To-hit points a shooter loses per hexside it turned this turn (the text: 2)",
            (0, 1, 2),
        ),
        # The combat modules' own options (VV5's several_targets), read only by the module in play.
        *(spec for m in MODULES.values() for spec in m.options),
    ),
    subphases=SUBPHASE_ORDERS[DEFAULT_ORDER],
    max_sides=6,
)


def _order(state: VMSState) -> tuple[str, ...]:
    return SUBPHASE_ORDERS[str(state.options["vms_subphase_order"])]


def motion_of(ship: VMSShip) -> Motion:
    return Motion(
        ship.hex, ship.velocity, ship.facing, ship.rotation, AdvancedRotation(ship.spin_rate, ship.spin_carried)
    )


def advanced(state: VMSState) -> bool:
    return bool(state.options.get("vms_advanced_rotation"))


class VectorMovement(RuleSystem[VMSState]):
    manifest = MANIFEST
    state_type = VMSState
    # VMS moves by its own rules and fights by MSC's and VV5's.
    prompt_rules = (
        ("initiative", "vms", "Rules Changes (Initiative)"),
        ("plot", "vms", "Procedure"),
        ("plot", "vms", "Rotational System"),
        ("plot", "vms", "Rules Changes (Initiative)"),
        ("combat", "msc", "7.0 To-Hit Roll"),
        ("combat", "msc", "7.0 Damage"),
        ("missiles", "vv5", "Launch Missiles"),
        ("guns", "vv5", "Gunfire"),
    )

    # -- setup ------------------------------------------------------------------

    def designs(self, scenario: Scenario | None = None) -> dict[str, Design]:
        return catalogue.designs(scenario)

    def new_state(self, scenario: Scenario, options: Mapping[str, OptionValue]) -> VMSState:
        combat = module(str(options["combat"]))
        designs = self.designs(scenario)
        hex_map = scenario.hex_map()
        modifiers = scenario_modifiers(
            scenario.special,
            ((placed.id, side) for _, side, placed in scenario.placements()),
            f"scenario {scenario.id}",
        )
        ships: list[VMSShip] = []
        for where, side_id, placed in scenario.placements():
            design = design_for(designs, placed, where)
            table = design.combat.get(combat.name)
            if table is None:
                raise ScenarioError(
                    f"{where}.design: {placed.design} has no [combat.{combat.name}] data for the {combat.name} module"
                )
            try:
                card = combat.card(design.name, table, f"design {placed.design}")
            except DesignError as err:
                raise ScenarioError(f"{where}.design: {err}") from None
            ships.append(
                VMSShip(
                    id=placed.id,
                    side=side_id,
                    design=placed.design,
                    name=design.name,
                    spec=design,
                    hex=placed.start_hex(hex_map, where),
                    velocity=placed.start_velocity(where),
                    facing=placed.direction,
                    card=card,
                    initiative_modifiers=modifiers[placed.id],
                )
            )
        return VMSState(
            turn=1,
            phase="initiative",
            sides=tuple(s.id for s in scenario.sides),
            ships=tuple(ships),
            map=hex_map,
            max_turns=scenario.max_turns,
            options=dict(options),
        )

    def start(self, state: VMSState, dice: Dice) -> tuple[VMSState, list[Event]]:
        events: list[Event] = []
        return self._begin_turn(state, dice, events), events

    def combat(self, state: VMSState) -> CombatModule:
        return module(state.combat)

    def view(self, state: VMSState) -> CombatView:
        """The neutral picture the combat module reads."""
        ships = tuple(
            Combatant(
                s.id,
                s.side,
                s.name,
                s.hex,
                s.facing,
                s.hexsides_turned,
                s.thrust_used,
                s.spec.thrust - s.thrust_lost > 0,
                s.status,
                sum(hexes for _, hexes in s.thrust),
            )
            for s in state.ships
        )
        penalty = state.options.get("vms_turn_penalty", 2)
        return CombatView(ships, {s.id: s.card for s in state.ships}, state.map, int(penalty), state.options)

    # -- asking -----------------------------------------------------------------

    def choosers(self, state: VMSState, seat: str) -> tuple[VMSShip, ...]:
        return tuple(s for s in state.ships_of(seat) if len(s.choices) > 1)

    def initiative_help(self, state: VMSState, seats: tuple[str, ...]) -> str:
        """The initiative prompt's help, naming this turn's ships with a choice and their subphases."""
        ships = [ship for seat in seats for ship in self.choosers(state, seat)]
        listed = ", ".join(f"{s.id} ({' or '.join(WORD_OF[c] for c in s.choices)})" for s in ships)
        example = SubphaseChoice(tuple((s.id, s.choices[-1]) for s in self.choosers(state, seats[0]))) if seats else ""
        return f"the subphase for each ship with a choice: {listed}; e.g. '{example}'"

    def movers(self, state: VMSState, seat: str) -> tuple[VMSShip, ...]:
        return tuple(s for s in state.ships_of(seat) if s.subphase == state.subphase and not s.moved)

    def prompt(self, state: VMSState) -> Prompt | None:
        if state.phase == "initiative":
            seats = tuple(side for side in state.sides if self.choosers(state, side))
            return Prompt(
                Clock(state.turn, "initiative"), seats, "initiative", True, self.initiative_help(state, seats)
            )
        if state.phase == "plot":
            seats = tuple(side for side in state.sides if self.movers(state, side))
            help_text = PLOT_HELP + (ADVANCED_HELP if advanced(state) else "")
            return Prompt(Clock(state.turn, "plot", subphase=state.subphase), seats, "plot", True, help_text)
        if state.phase == "fire":
            side = state.fire_order[state.firing]
            clock = Clock(state.turn, f"combat, player {state.firing + 1}")
            return Prompt(clock, (side,), "fire", False, self.combat(state).fire_help)
        return None

    def rollout_cost(self, state: VMSState) -> float:
        # The fast bot plans every ship over a menu of about a hundred plots: its cost, most of a trial's,
        # grows with the ships in play. A trial plays the rest of this turn's moves and the next turn's
        # (``fire_in_prospect``): a ship in play costs about one typical trial.
        return max(1.0, float(sum(1 for s in state.ships if s.active)))

    def standing(self, state: VMSState) -> Mapping[str, float]:
        # The combat module's own measure of a ship's fight left (shields or structure), as in the result,
        # less what the fire still to come this turn is expected to take from it.
        combat = self.combat(state)
        # A ship that can no longer stop on the map will leave it (disengaged, out of the fight), a loss a
        # trial of two turns seldom reaches: it counts at LEAVING's share of its strength.
        points = {
            side: sum(
                combat.strength(s.card) * (1.0 if stops_on_map(state, s) else LEAVING) for s in state.ships_of(side)
            )
            for side in state.sides
        }
        for side, extra in self.fire_in_prospect(state).items():
            points[side] += extra
        return points

    def fire_in_prospect(self, state: VMSState) -> Mapping[str, float]:
        return self._prospects(state)

    @cached_property
    def _prospects(self) -> Callable[[VMSState], Mapping[str, float]]:
        # A trial's stop asks for it twice for one state (the standing counts it): the last answer is kept.
        return last_answer(self._fire_in_prospect)

    def _fire_in_prospect(self, state: VMSState) -> dict[str, float]:
        # Each side still to fire this turn fires as greedy would; what its shots are expected to take off
        # their targets' strength is the targets' sides' loss (nothing outside the fire phase).
        points = dict.fromkeys(state.sides, 0.0)
        if state.phase != "fire":
            return points
        combat, view = self.combat(state), self.view(state)
        for side in state.fire_order[state.firing :]:
            if not state.ships_of(side):
                continue
            for ship_id, loss in combat.expected_losses(view, side, combat.greedy_fire(view, side)).items():
                points[state.ship(ship_id).side] -= loss
        return points

    def result(self, state: VMSState) -> Result | None:
        if state.phase != "over":
            return None
        combat = self.combat(state)
        scores = {side: sum(combat.strength(s.card) for s in state.ships_of(side)) for side in state.sides}
        return Result(state.winners, state.end_reason, scores, combat.strength_label)

    # -- orders -----------------------------------------------------------------

    def parse_order(self, state: VMSState, seat: str, text: str) -> Order:
        if state.phase == "initiative":
            return SubphaseChoice.parse(text, id_lookup(s.id for s in self.choosers(state, seat)))
        if state.phase == "plot":
            return MovePlot.parse(text, id_lookup(s.id for s in self.movers(state, seat)))
        if state.phase == "fire":
            return self.combat(state).parse_fire(self.view(state), seat, text)
        raise OrderSyntaxError(text, "the game is over")

    def check_order(self, state: VMSState, seat: str, order: Order) -> None:
        if state.phase == "initiative":
            if not isinstance(order, SubphaseChoice):
                raise IllegalOrderError(str(order), "initiative choices are due now", RULE_INITIATIVE)
            self._check_choice(state, seat, order)
        elif state.phase == "plot":
            if not isinstance(order, MovePlot):
                raise IllegalOrderError(str(order), "movement plots are due now", RULE_PLOT)
            self._check_plot(state, seat, order)
        elif state.phase == "fire":
            self.combat(state).check_fire(self.view(state), seat, order)
        else:
            raise IllegalOrderError(str(order), "the game is over", "game end")

    @staticmethod
    def _every_ship_once(text: str, named: list[str], due: Sequence[VMSShip], rule: str) -> None:
        for ship_id in named:
            if named.count(ship_id) > 1:
                raise IllegalOrderError(text, f"{ship_id} is named twice; give one entry per ship", rule)
        missing = [s.id for s in due if s.id not in named]
        if missing:
            raise IllegalOrderError(text, f"nothing for {', '.join(missing)}: every ship due now needs an entry", rule)

    def _check_choice(self, state: VMSState, seat: str, order: SubphaseChoice) -> None:
        due = self.choosers(state, seat)
        self._every_ship_once(str(order), [s for s, _ in order.picks], due, RULE_INITIATIVE)
        for ship_id, subphase in order.picks:
            ship = state.ship(ship_id)
            if subphase not in ship.choices:
                raise IllegalOrderError(
                    f"{ship_id} {subphase}", f"{ship_id} may move in {' or '.join(ship.choices)}", RULE_INITIATIVE
                )

    def _check_plot(self, state: VMSState, seat: str, order: MovePlot) -> None:
        due = self.movers(state, seat)
        self._every_ship_once(str(order), [s for s, _ in order.moves], due, RULE_PLOT)
        for ship_id, plot in order.moves:
            self.work_out(state, state.ship(ship_id), plot)

    def work_out(self, state: VMSState, ship: VMSShip, plot: Plot) -> TurnResult:
        """The ship's move for ``plot``; raises :class:`IllegalOrderError` naming the rule broken."""
        try:
            return move(
                ship.spec,
                motion_of(ship),
                plot,
                state.turn,
                lost_thrust=ship.thrust_lost,
                rotate_before_thrust=bool(state.options.get("vms_rotate_before_thrust")),
                advanced_rotation=advanced(state),
                limit_lost=ship.rotation_limit_lost,
            )
        except IllegalOrderError as err:
            # Name the ship and its whole plot; keep the movement rule that was broken.
            raise IllegalOrderError(f"{ship.id} {plot}", f"{err.order}: {err.problem}", err.rule) from None

    def plots_for(self, state: VMSState, ship: VMSShip) -> list[tuple[Plot, TurnResult]]:
        """The bounded menu of legal plots (vectorwar.systems.vms.planner)."""
        return legal_plots(
            ship.spec,
            motion_of(ship),
            state.turn,
            ship.thrust_lost,
            bool(state.options.get("vms_rotate_before_thrust")),
            advanced(state),
            ship.rotation_limit_lost,
        )

    # -- resolution ---------------------------------------------------------------

    def resolve(self, state: VMSState, orders: Mapping[str, Order], dice: Dice) -> tuple[VMSState, list[Event]]:
        events: list[Event] = []
        if state.phase == "initiative":
            for order in orders.values():
                if not isinstance(order, SubphaseChoice):  # pragma: no cover - check_order refused it
                    raise TypeError("initiative choices expected")
                for ship_id, subphase in order.picks:
                    state = state.with_ship(replace(state.ship(ship_id), subphase=subphase))
                    events.append(Note(f"{ship_id} will move in the {subphase} subphase"))
            state = self._next_subphase(state, dice, events)
        elif state.phase == "plot":
            state = self._plotted(state, orders, dice, events)
        elif state.phase == "fire":
            side = state.fire_order[state.firing]
            outcome = self.combat(state).fire(self.view(state), side, orders[side], dice, events)
            state = self.apply_outcome(state, outcome, events)
            state = self._next_firer(replace(state, firing=state.firing + 1), dice, events)
        return state, events

    def resolve_in_prospect(
        self, state: VMSState, orders: Mapping[str, Order], dice: Dice
    ) -> tuple[VMSState, Mapping[str, float]] | None:
        # A plot whose moves end the movement phase resolves the missiles in flight (VV5 combat): the
        # search bot's trials count them in expectation, as they count the fire to come, so that no
        # throw of its dice decides a trial, and a dodge is worth what it takes off every missile's chance.
        if state.phase != "plot":
            return None
        lost = dict.fromkeys(state.sides, 0.0)
        return self._plotted(state, orders, dice, [], lost), lost

    def _plotted(
        self,
        state: VMSState,
        orders: Mapping[str, Order],
        dice: Dice,
        events: list[Event],
        lost: dict[str, float] | None = None,
    ) -> VMSState:
        """A subphase's plots moved, then the next subphase, or the step after the moves and the fire
        (``lost``: as in :meth:`_next_subphase`)."""
        state = self._move(state, orders, events)
        if len(state.sides_in_play()) <= 1:
            return self._end(state, "elimination", events)
        return self._next_subphase(state, dice, events, lost)

    def _begin_turn(self, state: VMSState, dice: Dice, events: list[Event]) -> VMSState:
        events.append(TurnBegan(state.turn))
        order = _order(state)
        for ship in state.ships:
            if not ship.active:
                continue
            initiative, rolled = roll_initiative(
                ship.id, ship.spec.ship_class, ship.initiative_terms(state.turn), dice, order
            )
            events.append(rolled)
            events.append(
                SubphaseSet(ship.id, initiative.total, initiative.roll, initiative.choices[0], initiative.choices)
            )
            state = state.with_ship(
                replace(
                    ship,
                    choices=initiative.choices,
                    initiative_roll=initiative.roll,
                    subphase=initiative.choices[0],
                    moved=False,
                    start_hex=ship.hex,
                    start_velocity=ship.velocity,
                    start_rotation=ship.rotation,
                    start_facing=ship.facing,
                    thrust=(),
                    thrust_used=0,
                    hexsides_turned=0,
                    overspeed=0,
                    plot="",
                )
            )
        state = replace(state, subphase="", fire_order=(), firing=0)
        if any(self.choosers(state, side) for side in state.sides):
            return replace(state, phase="initiative")
        return self._next_subphase(state, dice, events)

    def _next_subphase(
        self, state: VMSState, dice: Dice, events: list[Event], lost: dict[str, float] | None = None
    ) -> VMSState:
        order = _order(state)
        start = order.index(state.subphase) + 1 if state.subphase else 0
        for name in order[start:]:
            if any(s.active and s.subphase == name and not s.moved for s in state.ships):
                return replace(state, phase="plot", subphase=name)
        # Every ship has moved: the module's step for that moment (VV5's incoming missiles), then combat.
        # With ``lost`` (``resolve_in_prospect``) the step's dice are not thrown: what each side is expected
        # to lose to it is added there instead.
        combat = self.combat(state)
        if lost is None:
            outcome = combat.after_movement(self.view(state), dice, events)
        else:
            outcome, losses = combat.after_movement_in_prospect(self.view(state))
            for ship_id, loss in losses.items():
                lost[state.ship(ship_id).side] += loss
        state = self.apply_outcome(state, outcome, events)
        if len(state.sides_in_play()) <= 1:
            return self._end(state, "elimination", events)
        return self._start_combat(state, dice, events)

    def _move(self, state: VMSState, orders: Mapping[str, Order], events: list[Event]) -> VMSState:
        for order in orders.values():
            if not isinstance(order, MovePlot):  # pragma: no cover - check_order refused it
                raise TypeError("movement plots expected")
            for ship_id, plot in order.moves:
                ship = state.ship(ship_id)
                turn = self.work_out(state, ship, plot)
                path = turn.path
                exit_at = next((i for i, h in enumerate(path) if not state.map.contains(h)), None)
                shown = path if exit_at is None else path[: exit_at + 1]
                after = turn.motion
                moved = replace(
                    ship,
                    hex=shown[-1],
                    velocity=after.velocity,
                    facing=after.facing,
                    rotation=after.rotation,
                    spin_rate=after.spin.rate,
                    spin_carried=after.spin.carried,
                    moved=True,
                    thrust=tuple(sorted(turn.thrust.hexes.items())),
                    thrust_used=turn.thrust_spent,
                    hexsides_turned=turn.hexsides_turned,
                    overspeed=turn.overspeed,
                    plot=str(plot),
                )
                events.append(Moved(ship_id, str(plot), tuple(Position(h) for h in shown), after.facing))
                events.append(
                    CourseSet(ship_id, str(after.velocity), after.rotation, turn.thrust_spent, turn.hexsides_turned)
                )
                if exit_at is not None:
                    moved = replace(moved, status="disengaged")
                    events.append(LeftMap(ship_id, Position(shown[-1])))
                state = state.with_ship(moved)
        return state

    def _start_combat(self, state: VMSState, dice: Dice, events: list[Event]) -> VMSState:
        order = self.combat(state).fire_order(state.sides_in_play(), dice, events)
        events.append(InitiativeSet(order))
        return self._next_firer(replace(state, phase="fire", subphase="", fire_order=order, firing=0), dice, events)

    def _next_firer(self, state: VMSState, dice: Dice, events: list[Event]) -> VMSState:
        combat = self.combat(state)
        while state.firing < len(state.fire_order):
            side = state.fire_order[state.firing]
            if not state.ships_of(side):
                pass  # lost its last ship earlier in the phase
            elif combat.legal_shots(self.view(state), side):
                return state
            else:
                events.append(Note(f"{side} has no target in range and arc"))
            state = replace(state, firing=state.firing + 1)
        return self._end_turn(state, dice, events)

    def apply_outcome(self, state: VMSState, outcome: Outcome, events: list[Event]) -> VMSState:
        """Put a combat step's cards on the ships and apply its neutral effects."""
        for ship_id, card in outcome.cards.items():
            state = state.with_ship(self._hull_limits(state, replace(state.ship(ship_id), card=card), events))
        for effect in outcome.effects:
            ship = state.ship(effect.ship)
            if effect.kind == "thrust lost":
                lost = min(ship.spec.thrust, ship.thrust_lost + math.ceil(ship.spec.thrust * effect.parts / effect.of))
                events.append(ThrustLost(ship.id, lost - ship.thrust_lost, ship.spec.thrust - lost))
                ship = replace(ship, thrust_lost=lost)
            elif effect.kind == "destroyed" and ship.active:
                ship = replace(ship, status="destroyed")
            elif effect.kind == "disabled" and ship.active:
                ship = replace(ship, status="disabled")
                events.append(Note(f"{ship.id} is disabled and out of the fight"))
            state = state.with_ship(ship)
        return state

    def _hull_limits(self, state: VMSState, ship: VMSShip, events: list[Event]) -> VMSShip:
        """Cut the rotation limit to the hull left (ruling *VMS rotation limits degraded by damage*)."""
        if not state.options.get("vms_damaged_rotation_limits", True) or ship.spec.rotation_limit is None:
            return ship
        combat = self.combat(state)
        table = ship.spec.combat.get(combat.name)
        if table is None:  # pragma: no cover - new_state refused the design
            return ship
        full = combat.strength(combat.card(ship.spec.name, table, f"design {ship.design}"))
        lost = max(ship.rotation_limit_lost, limit_lost(ship.spec.rotation_limit, combat.strength(ship.card), full))
        if lost == ship.rotation_limit_lost:
            return ship
        was, now = ship.spec.limit_after(ship.rotation_limit_lost), ship.spec.limit_after(lost)
        if was is not None and now is not None and now < was and combat.strength(ship.card) > 0:
            events.append(RotationLimitCut(ship.id, now, was))
        return replace(ship, rotation_limit_lost=lost)

    def _end_turn(self, state: VMSState, dice: Dice, events: list[Event]) -> VMSState:
        combat = self.combat(state)
        state = self.apply_outcome(state, combat.after_fire(self.view(state), dice, events), events)
        for ship in state.ships:
            if not ship.active or not ship.overspeed:
                continue
            rolled = overspeed_damage(ship.id, ship.overspeed, dice)
            if rolled is not None:
                events.append(rolled)
                outcome = combat.structure_damage(self.view(state), ship.id, ship.overspeed, rolled.total, events)
                state = self.apply_outcome(state, outcome, events)
        if len(state.sides_in_play()) <= 1:
            return self._end(state, "elimination", events)
        if state.turn >= state.max_turns:
            return self._end(state, f"turn limit {state.max_turns} reached", events, draw=True)
        return self._begin_turn(replace(state, turn=state.turn + 1), dice, events)

    @staticmethod
    def _end(state: VMSState, reason: str, events: list[Event], draw: bool = False) -> VMSState:
        winners = () if draw else state.sides_in_play()
        if not winners and not draw:
            reason = "no side has a ship left in the battle"
        events.append(GameOver(winners, reason))
        return replace(state, phase="over", winners=winners, end_reason=reason)

    # -- computer players -----------------------------------------------------------

    def random_order(self, state: VMSState, seat: str, rng: random.Random) -> Order:
        if state.phase == "initiative":
            return SubphaseChoice(tuple((s.id, rng.choice(s.choices)) for s in self.choosers(state, seat)))
        if state.phase == "plot":
            moves: list[tuple[str, Plot]] = []
            before = bool(state.options.get("vms_rotate_before_thrust"))
            for ship in self.movers(state, seat):
                # Plots that stay on the map when there are any, so random games are not all disengagements.
                plot = random_plot(
                    ship.spec,
                    motion_of(ship),
                    state.turn,
                    ship.thrust_lost,
                    before,
                    rng,
                    lambda r: all(state.map.contains(h) for h in r.path),
                    advanced_rotation=advanced(state),
                    limit_lost=ship.rotation_limit_lost,
                )
                moves.append((ship.id, plot))
            return MovePlot(tuple(moves))
        if state.phase == "fire":
            return self.combat(state).random_fire(self.view(state), seat, rng)
        raise IllegalOrderError("", "the game is over", "game end")

    def bots(self) -> Mapping[str, Callable[[], Bot]]:
        return {**super().bots(), "greedy": lambda: GreedyBot(self)}

    # -- display (vectorwar.systems.vms.display) ------------------------------------

    def counters(self, state: VMSState) -> list[Counter]:
        return display.counters(state)

    def ship_cards(self, state: VMSState) -> list[Card]:
        return display.ship_cards(state, self.combat(state))

    def arc_hexes(self, state: VMSState, ship_id: str) -> dict[str, frozenset[Hex]]:
        state.ship(ship_id)  # KeyError for an unknown ship, as the contract says
        return self.combat(state).arc_hexes(self.view(state), ship_id)

    def move_options(self, state: VMSState, seat: str) -> Mapping[str, Sequence[MoveOption]]:
        if state.phase != "plot":
            return {}
        return {
            ship.id: [
                MoveOption(f"{ship.id} {plot}", tuple(Position(h) for h in result.path), result.motion.facing)
                for plot, result in self.plots_for(state, ship)
            ]
            for ship in self.movers(state, seat)
        }

    def order_pieces(self, state: VMSState, seat: str) -> Mapping[str, Sequence[OrderPiece]]:
        """A plot's burns per thruster, its rotation and its flat turn, for the composer (:mod:`.pieces`)."""
        if state.phase != "plot":
            return {}
        out: dict[str, list[OrderPiece]] = {}
        for ship in self.movers(state, seat):

            def legal(plot: Plot, ship: VMSShip = ship) -> bool:
                try:
                    self.work_out(state, ship, plot)
                except IllegalOrderError:
                    return False
                return True

            menu = [plot for plot, _ in self.plots_for(state, ship)]
            found = pieces.pieces(ship.spec, {}, menu, legal)
            if found:
                out[ship.id] = found
        return out

    def fire_options(self, state: VMSState, seat: str) -> Mapping[str, Sequence[ShotOption]]:
        prompt = self.prompt(state)
        if state.phase != "fire" or prompt is None or seat not in prompt.seats:
            return {}
        combat, view = self.combat(state), self.view(state)
        options = {ship.id: combat.shot_options(view, ship.id) for ship in state.ships_of(seat)}
        return {ship_id: shots for ship_id, shots in options.items() if shots}

    def catalogue_table(self) -> CardTable:
        return display.catalogue_table(self.designs())

    def design_cards(self, tables: Mapping[str, Any], source: str) -> list[Card] | None:
        return [display.design_card(k, catalogue.design_from_data(v, source, k)) for k, v in tables.items()]

    def design_schema(self) -> dict[str, Any]:
        return Design.model_json_schema()


system = VectorMovement()
