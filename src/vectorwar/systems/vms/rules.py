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
   module's order (VV5's: the side holding VV5's initiative picks it, a
   ``fire-order`` prompt), then the module's after-fire step (VV5's gun damage).
4. **End of turn.** Ships that rotated over their class limit roll Xd10
   structure damage, handed to the combat module.

Each decision is an order kind (:mod:`vectorwar.systems.vms.kinds`: initiative,
plot, fire order, fire): the contract's methods ask the kind due now, named by the state's
phase. The turn's steps are in :mod:`.turn`; nothing here names a combat
module's weapons: the module reads each ship as a neutral
:class:`~vectorwar.combat.base.Combatant` and reports damage as neutral
effects (:mod:`.fight`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cached_property
from typing import Any

from vectorwar.catalogue import design_for
from vectorwar.combat import CombatModule
from vectorwar.combat.base import CombatView, Outcome
from vectorwar.dice import Dice
from vectorwar.display import Card, CardTable, Counter, OrderPiece
from vectorwar.errors import DesignError, ScenarioError
from vectorwar.events import Event
from vectorwar.hexes import Hex
from vectorwar.maps import HexMap
from vectorwar.memo import Kept, last_answer
from vectorwar.orderkinds import KindedRules
from vectorwar.rules import (
    Bot,
    Manifest,
    OptionSpec,
    OptionValue,
    Order,
    PhaseSpec,
    Result,
)
from vectorwar.scenario import Scenario
from vectorwar.systems.vms import catalogue, display, fight, kinds, plotting, turn
from vectorwar.systems.vms.bots import GreedyBot
from vectorwar.systems.vms.braking import stops_on_map
from vectorwar.systems.vms.initiative import DEFAULT_ORDER, SUBPHASE_ORDERS
from vectorwar.systems.vms.modifiers import scenario_modifiers
from vectorwar.systems.vms.modules import MODULES, module
from vectorwar.systems.vms.movement import Plot, TurnResult
from vectorwar.systems.vms.quick import QuickBot
from vectorwar.systems.vms.ships import Design
from vectorwar.systems.vms.state import VMSShip, VMSState

#: The share of its strength a ship that can no longer stop on the map counts for in ``standing`` (search's judge).
LEAVING = 0.5
#: What a trial played by the ``quick`` fast bot costs against one played by ``greedy`` (``rollout_cost``).
QUICK_COST = 0.6
#: The word of a prompt's phase a kind's rule row is linked under, where it is not the kind's name.
_PROMPT_WORDS = {
    ("fire", "7.0 To-Hit Roll"): "combat",
    ("fire", "7.0 Damage"): "combat",
    ("fire", "Launch Missiles"): "missiles",
    ("fire", "Gunfire"): "guns",
}

MANIFEST = Manifest(
    name="vms",
    title="Vector Movement System",
    source="../shared/seeds/003_674ef97bd54528e4.txt (Weuve and Kaufmann, 1997), with a combat module",
    phases=(
        PhaseSpec(
            "initiative",
            "Initiative: a d20 per ship; owners of ships allowed to move a subphase early or late choose",
            kinds.INITIATIVE.name,
            True,
        ),
        PhaseSpec(
            "plot",
            "Movement, one class subphase at a time: the ships in it plot, then all thrust and rotate together",
            kinds.PLOT.name,
            True,
        ),
        PhaseSpec(
            "fire-order",
            "Fire initiative (VV5 combat): the side holding VV5's initiative picks the side that declares first",
            kinds.FIRE_ORDER.name,
        ),
        PhaseSpec("fire", "Combat: the combat module's fire phase (option combat)", kinds.FIRE.name),
        PhaseSpec("end", "End of turn: Xd10 structure damage for rotating X hexsides over the class limit"),
    ),
    dice=tuple(sorted({"d20", "xd10", *(d for m in MODULES.values() for d in m.dice)})),
    options=(
        OptionSpec("combat", "msc", "The combat module played with VMS movement", tuple(sorted(MODULES))),
        OptionSpec(
            "vms_subphase_order",
            DEFAULT_ORDER,
            "Where shuttles move: first of all, or after the capital ships "
            "(docs/rulings/vms.md, VMS full subphase order)",
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
            "docs/rulings/vms.md, VMS rotation limits degraded by damage); off, they never change",
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


class VectorMovement(KindedRules[VMSState]):
    manifest = MANIFEST
    state_type = VMSState
    # VMS moves by its own rules and fights by MSC's and VV5's: the rows of the order kinds, under the word
    # their prompts' phase uses (the fire kind's is "combat"; VV5's rows keep the words of VV5's own prompts).
    prompt_rules = tuple(
        (_PROMPT_WORDS.get((kind.name, row.row), kind.name), row.page, row.row)
        for kind in kinds.KINDS.values()
        for row in kind.rules
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
        return turn.begin_turn(state, dice, events), events

    # -- what the bots and the tests ask of the system (the modules below answer) ----------

    def combat(self, state: VMSState) -> CombatModule:
        return fight.combat(state)

    def view(self, state: VMSState) -> CombatView:
        """The neutral picture the combat module reads."""
        return fight.view(state)

    def apply_outcome(self, state: VMSState, outcome: Outcome, events: list[Event]) -> VMSState:
        """Put a combat step's cards on the ships and apply its neutral effects."""
        return fight.apply_outcome(state, outcome, events)

    def choosers(self, state: VMSState, side: str) -> tuple[VMSShip, ...]:
        return state.choosers(side)

    def movers(self, state: VMSState, side: str) -> tuple[VMSShip, ...]:
        return state.movers(side)

    def work_out(self, state: VMSState, ship: VMSShip, plot: Plot) -> TurnResult:
        """The ship's move for ``plot``; raises :class:`IllegalOrderError` naming the rule broken."""
        return plotting.work_out(state, ship, plot)

    def plots_for(self, state: VMSState, ship: VMSShip) -> list[tuple[Plot, TurnResult]]:
        """The bounded menu of legal plots (vectorwar.systems.vms.planner)."""
        return plotting.plots_for(state, ship)

    # -- asking: the order kind due answers (vectorwar.systems.vms.kinds) --------------------

    # The prompt, orders, resolve, menus: the kind due now answers (vectorwar.orderkinds.KindedRules).
    order_kind = staticmethod(kinds.due)

    def rollout_bot(self) -> str:
        # Greedy works out every plot of a ship's menu, most of a trial's cost; ``quick`` scores the ends by
        # arithmetic and works out a few. A sequential test found the search no weaker for it, with about 1.7 times
        # the trials a second (docs/speed.md).
        return "quick"

    def rollout_cost(self, state: VMSState, bot: str) -> float:
        # The fast bot plans every ship over a menu of about a hundred plots: its cost, most of a trial's,
        # grows with the ships in play. A trial plays the rest of this turn's moves and the next turn's
        # (``fire_in_prospect``): with ``greedy`` a ship in play costs about one typical trial, with ``quick``
        # (which moves none of the menu's plots and scores a few ends) ``QUICK_COST`` of one.
        ships = max(1.0, float(sum(1 for s in state.ships if s.active)))
        return ships * QUICK_COST if bot == "quick" else ships

    def greedy_orders_legal(self, state: VMSState) -> bool:
        # Greedy's plots are its menu's, each worked out by the movement rules; quick's are the menu's candidates
        # whose turning the rules take, paid for, with no flat turn and none over a small craft's limit: what the
        # check asks (tests/vms/test_quick.py). Every ship that moves now gets one. Fire is checked.
        return state.phase == "plot"

    def standing(self, state: VMSState) -> Mapping[str, float]:
        # The combat module's own measure of a ship's fight left (shields or structure), as in the result,
        # less what the fire still to come this turn is expected to take from it.
        combat = self.combat(state)
        # A ship that can no longer stop on the map will leave it (disengaged, out of the fight), a loss a
        # trial of two turns seldom reaches: it counts at LEAVING's share of its strength.
        points = {side: sum(_strength(state, combat, s) for s in state.ships_of(side)) for side in state.sides}
        for side, extra in self.fire_in_prospect(state).items():
            points[side] += extra
        return points

    def fire_in_prospect(self, state: VMSState) -> Mapping[str, float]:
        return self._prospects(state)

    @cached_property
    def _prospects(self) -> Callable[[VMSState], Mapping[str, float]]:
        # A trial's stop asks for it twice for one state (the standing counts it): the last answer is kept.
        return last_answer(self._fire_in_prospect)

    @staticmethod
    def _fire_in_prospect(state: VMSState) -> dict[str, float]:
        kind = kinds.due(state)
        return dict.fromkeys(state.sides, 0.0) if kind is None else kind.fire_in_prospect(state)

    def result(self, state: VMSState) -> Result | None:
        if state.phase != "over":
            return None
        combat = self.combat(state)
        scores = {side: sum(combat.strength(s.card) for s in state.ships_of(side)) for side in state.sides}
        return Result(state.winners, state.end_reason, scores, combat.strength_label)

    # -- orders -----------------------------------------------------------------

    def resolve_in_prospect(
        self, state: VMSState, orders: Mapping[str, Order], dice: Dice
    ) -> tuple[VMSState, Mapping[str, float]] | None:
        kind = kinds.due(state)
        return None if kind is None else kind.resolve_in_prospect(state, orders, dice)

    # -- computer players -----------------------------------------------------------

    def idle_order(self, state: VMSState, side: str) -> Order | None:
        """At a plot, every ship drifts with no burn and no turn; else a hold."""
        ships = self.move_options(state, side)
        if not ships:
            return super().idle_order(state, side)
        return self.checked_order(state, side, "; ".join(f"{ship} drift" for ship in ships))

    def bots(self) -> Mapping[str, Callable[[], Bot]]:
        return {**super().bots(), "greedy": lambda: GreedyBot(self)}

    def rollout_bots(self) -> Mapping[str, Callable[[], Bot]]:
        return {**self.bots(), "quick": lambda: QuickBot(self)}

    # -- display (vectorwar.systems.vms.display) ------------------------------------

    def counters(self, state: VMSState) -> list[Counter]:
        return display.counters(state)

    def ship_cards(self, state: VMSState) -> list[Card]:
        return display.ship_cards(state, self.combat(state))

    def arc_hexes(self, state: VMSState, ship_id: str) -> dict[str, frozenset[Hex]]:
        state.ship(ship_id)  # KeyError for an unknown ship, as the contract says
        return self.combat(state).arc_hexes(self.view(state), ship_id)

    def order_pieces(self, state: VMSState, side: str) -> Mapping[str, Sequence[OrderPiece]]:
        """A plot's burns per thruster, its rotation and its flat turn, for the composer (:mod:`.pieces`)."""
        kind = kinds.due(state)
        return {} if kind is None else kind.order_pieces(state, side)

    def catalogue_table(self) -> CardTable:
        return display.catalogue_table(self.designs())

    def design_cards(self, tables: Mapping[str, Any], source: str) -> list[Card] | None:
        return [display.design_card(k, catalogue.design_from_data(v, source, k)) for k, v in tables.items()]

    def design_schema(self) -> dict[str, Any]:
        return Design.model_json_schema()


def _strength(state: VMSState, combat: CombatModule, ship: VMSShip) -> float:
    """The ship's part of :meth:`VectorMovement.standing` but the fire to come: its strength, at ``LEAVING``'s share
    if it can no longer stop on the map. It reads the ship, the map and the module alone, and a search's trials ask
    it at every stop of ships they share: kept by those (by identity, kept beside the answer)."""
    key = (id(ship), id(state.map), id(combat))
    known = _STRENGTHS.get(key)
    if known is not None and known[0] is ship and known[1] is state.map and known[2] is combat:
        return known[3]
    value = combat.strength(ship.card) * (1.0 if stops_on_map(state, ship) else LEAVING)
    return _STRENGTHS.keep(key, (ship, state.map, combat, value))[3]


#: :func:`_strength`'s answers, with the ship, map and module they read.
_STRENGTHS: Kept[tuple[int, int, int], tuple[VMSShip, HexMap, CombatModule, float]] = Kept(1 << 12)


system = VectorMovement()
