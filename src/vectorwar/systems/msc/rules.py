"""Minimal Space Combat as a vectorwar rule system.

The turn (MSC 4.0): every side plots all its ships' moves in secret; the
moves are carried out together; each side rolls a die for initiative (ties
re-rolled) and the sides then declare and resolve their fire in that order,
damage applying at once. A side with nothing in range and arc is skipped.

Each decision is an order kind (:mod:`vectorwar.systems.msc.kinds`: build, plot,
fire): the contract's methods ask the kind due now, named by the state's phase.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from vectorwar.catalogue import design_for
from vectorwar.dice import Dice
from vectorwar.display import Card, CardTable, Counter
from vectorwar.errors import ScenarioError
from vectorwar.events import Event, Note, TurnBegan
from vectorwar.hexes import Hex
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
from vectorwar.systems.msc import building, catalogue, deploy, display, kinds, turn
from vectorwar.systems.msc.bots import GreedyBot
from vectorwar.systems.msc.design import Design, design_from_data
from vectorwar.systems.msc.fire import SHIPS_BLOCK, legal_shots
from vectorwar.systems.msc.kinds import RULE_EDGE
from vectorwar.systems.msc.orders import Shot
from vectorwar.systems.msc.state import MSCState, Ship
from vectorwar.systems.msc.turn import new_ship

MANIFEST = Manifest(
    name="msc",
    title="Minimal Space Combat",
    source="../shared/seeds/004_bc5643c5592641a2.txt (Timothy Swenson, 1996, freeware)",
    phases=(
        PhaseSpec(
            "build", "Before turn 1, if the scenario says so: every side builds its ships by BP", kinds.BUILD.name, True
        ),
        PhaseSpec(
            "deploy",
            "Before turn 1, if the scenario draws start zones: every side places its ships and picks their SPEED",
            kinds.DEPLOY.name,
            True,
        ),
        PhaseSpec("plot", "Move Orders: every side writes each ship's SPEED and move in secret", kinds.PLOT.name, True),
        PhaseSpec("movement", "Movement: all ships carry out their moves together"),
        PhaseSpec("initiative", "Initiative: each side rolls a d6, highest is player 1, ties re-rolled"),
        PhaseSpec("fire", "Combat: player 1 declares and resolves fire, then player 2", kinds.FIRE.name, False),
    ),
    dice=("d6",),
    options=(
        OptionSpec(
            "strict_turn_spacing",
            False,
            "House rule: a move may not start with a turn if last turn's move ended with one",
        ),
        OptionSpec(
            "map_edge",
            "disengage",
            "What leaving the map does: 'disengage' (the ship leaves the battle) or "
            "'forbid' (moves that leave the map are illegal unless every legal move does)",
            ("disengage", "forbid"),
        ),
        OptionSpec(
            building.OPTION,
            building.DEFAULT_POINTS,
            "Build points each side spends on its ships, where the scenario has the players build them (MSC 5.0)",
            least=1,
            most=building.MAX_POINTS,
        ),
        OptionSpec(
            SHIPS_BLOCK,
            False,
            "Ships in the way block line of sight like blocking terrain (default: only terrain blocks, 7.0)",
        ),
        OptionSpec(
            turn.VICTORY,
            "destroy",
            "How a side wins (MSC 5.0, the players' choice): 'destroy' (the last side with ships in the battle) or "
            "'shields' (the most SHIELDS left once victory_turns turns are over; destruction still ends it early)",
            ("destroy", "shields"),
        ),
        OptionSpec(
            turn.VICTORY_TURNS,
            turn.DEFAULT_VICTORY_TURNS,
            "With victory = shields: the turns played before the SHIELDS left are counted",
            least=1,
            most=turn.MAX_VICTORY_TURNS,
        ),
    ),
    max_sides=6,
)


class MinimalSpaceCombat(KindedRules[MSCState]):
    manifest = MANIFEST
    state_type = MSCState
    setup_steps = ("build", "deploy")
    # The rows of the order kinds, under the word their prompts' phase uses (the fire kind's is "combat").
    prompt_rules = tuple(
        (word, row.page, row.row)
        for word, kind in (
            ("build", kinds.BUILD),
            ("deploy", kinds.DEPLOY),
            ("plot", kinds.PLOT),
            ("combat", kinds.FIRE),
        )
        for row in kind.rules
    )

    # -- setup ----------------------------------------------------------------

    def designs(self, scenario: Scenario | None = None) -> dict[str, Design]:
        """The catalogue, plus the scenario's own designs (which win on a clash)."""
        return catalogue.designs(scenario)

    def new_state(self, scenario: Scenario, options: Mapping[str, OptionValue]) -> MSCState:
        designs = self.designs(scenario)
        hex_map = scenario.hex_map()
        ships: list[Ship] = []
        for where, side_id, placed in scenario.placements():
            design = design_for(designs, placed, where)
            if placed.speed > design.engine:
                raise ScenarioError(
                    f"{where}.speed: starting SPEED {placed.speed} is above ENGINE {design.engine} (MSC 6.0)"
                )
            start = placed.start_hex(hex_map, where)
            ships.append(new_ship(placed.id, side_id, placed.design, design, start, placed.direction, placed.speed))
        points = options.get(building.OPTION, building.DEFAULT_POINTS)
        build = building.read_setup(scenario, hex_map, int(points))
        return MSCState(
            turn=1,
            phase="plot",
            sides=tuple(s.id for s in scenario.sides),
            ships=tuple(ships),
            map=hex_map,
            max_turns=scenario.max_turns,
            options=dict(options),
            build=build,
            deploy=deploy.read_setup(scenario, hex_map),
        )

    def start(self, state: MSCState, dice: Dice) -> tuple[MSCState, list[Event]]:
        if state.build is not None:
            return replace(state, phase="build"), [Note(f"every side builds its ships with {state.build.points} BP")]
        if state.deploy is not None:
            events: list[Event] = []
            return kinds.opening(state, events), events
        return state, [TurnBegan(state.turn)]

    # -- asking: the order kind due answers (vectorwar.systems.msc.kinds) -----------

    # The prompt, orders, resolve, menus: the kind due now answers (vectorwar.orderkinds.KindedRules).
    order_kind = staticmethod(kinds.due)

    def rollout_cost(self, state: MSCState, bot: str) -> float:
        # The cheapest rollouts of the four systems (a resolve ~0.05 ms): with four times the screen and the rounds a
        # level-1 decision still takes about a tenth of a CPU second in the fleet battle (0.09 s mean), and search
        # wins 81-95 % of the decisive games against greedy from every MSC seat (200 games a side, benchmarks/bots.py;
        # the duel from blue 76 % at a half), as trials that roll their dice gain by more of them.
        return 0.25

    def greedy_orders_legal(self, state: MSCState) -> bool:
        # The greedy plot takes each ship's moves from the SPEEDs it may plot and the step sequences without two
        # turns in a row (strict_turn_spacing's too), and its fire only working weapons at enemies in play in
        # range, arc and sight (ships_block_sight's too): what the check asks. Under map_edge = forbid it may
        # pick a move off the map when only another path to the same end stays on it, so that is checked.
        return state.phase in ("plot", "fire") and state.options.get("map_edge") != "forbid"

    def standing(self, state: MSCState) -> Mapping[str, float]:
        # The same yardstick as the result's score: the fight left in each side is its shields.
        return {side: float(sum(s.shields for s in state.ships_of(side))) for side in state.sides}

    def can_attack(self, state: MSCState, side: str) -> bool:
        # A ship brings a weapon to bear by its moves, and with ENGINE 0 it can neither move nor turn (6.0).
        return any(s.active and s.weapons and s.engine > 0 for s in state.ships_of(side))

    def result(self, state: MSCState) -> Result | None:
        if state.phase != "over":
            return None
        # MSC has no victory points: the score is the fight left in each side, its shields.
        scores = {side: float(sum(s.shields for s in state.ships_of(side))) for side in state.sides}
        return Result(state.winners, state.end_reason, scores, "shields left")

    # -- orders ---------------------------------------------------------------

    def legal_shots(self, state: MSCState, side: str) -> list[Shot]:
        """Every (ship, weapon, target) the side could declare now."""
        return legal_shots(state, side)

    def idle_order(self, state: MSCState, side: str) -> Order | None:
        """At a plot, every ship straight on at the SPEED it may keep (6.0; ENGINE caps it); else a hold."""
        ships = self.move_options(state, side)
        if not ships:
            return super().idle_order(state, side)
        kept = ((state.ship(s), s) for s in ships)
        return self.checked_order(state, side, "; ".join(f"{s} {min(ship.speed, ship.engine)}" for ship, s in kept))

    def bots(self) -> Mapping[str, Callable[[], Bot]]:
        return {**super().bots(), "greedy": GreedyBot}

    # -- display (see vectorwar.systems.msc.display) ----------------------------

    def edge_rule(self, state: MSCState) -> tuple[str, str]:
        if state.options.get("map_edge") == "forbid":
            return ("allowed only because every move of this ship does (option map_edge = forbid)", RULE_EDGE)
        return ("the ship disengages and leaves the battle (option map_edge = disengage)", RULE_EDGE)

    def counters(self, state: MSCState) -> list[Counter]:
        return display.counters(state)

    def ship_cards(self, state: MSCState) -> list[Card]:
        return display.ship_cards(state)

    def arc_hexes(self, state: MSCState, ship_id: str) -> dict[str, frozenset[Hex]]:
        return display.arc_hexes(state, ship_id)

    def catalogue_table(self) -> CardTable:
        return display.catalogue_table(self.designs())

    def design_cards(self, tables: Mapping[str, Any], source: str) -> list[Card] | None:
        return [display.design_card(k, design_from_data(v, source, k)) for k, v in tables.items()]

    def design_schema(self) -> dict[str, Any]:
        return Design.model_json_schema()


system = MinimalSpaceCombat()
