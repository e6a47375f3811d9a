"""Vector V5 as a vectorwar rule system: the sequence of play.

Each turn (VV5 Sequence of Play): initiative is rolled; the side holding it
chooses the order in which sides declare; each side in that order launches
missiles, then each fires guns (to-hit rolled at once, damage noted); gun
damage is resolved; every side plots movement in secret; ships move onto
their vector markers, collisions are settled and markers mirrored; incoming
missiles are resolved; boarding actions (scenario hooks) follow.

Each decision is an order kind (:mod:`vectorwar.systems.vv5.kinds`: purchase, place,
declare-order, missiles, guns, plot, ace-replot): the contract's methods ask the kind due now,
found by the state's phase; the steps between decisions are :mod:`vectorwar.systems.vv5.turn`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from vectorwar.catalogue import design_for
from vectorwar.dice import Dice
from vectorwar.display import Card, CardTable, Counter, MoveOption, PlotWarning
from vectorwar.errors import ScenarioError
from vectorwar.events import Event
from vectorwar.hexes import Hex
from vectorwar.maps import HexMap
from vectorwar.orderkinds import KindedRules
from vectorwar.roster import replace_fields
from vectorwar.rules import (
    Bot,
    Manifest,
    OptionSpec,
    OptionValue,
    Order,
    PhaseSpec,
    PromptRule,
    Result,
)
from vectorwar.scenario import Scenario
from vectorwar.systems.vv5 import buying, catalogue, crews, display, edge, kinds, specials, turn
from vectorwar.systems.vv5.bots import GreedyBot, full_salvos
from vectorwar.systems.vv5.combat import SEVERAL_TARGETS
from vectorwar.systems.vv5.design import Design, design_from_data
from vectorwar.systems.vv5.equipment import build_ship, fit_loadout
from vectorwar.systems.vv5.hazards import ASTEROID_ROLL
from vectorwar.systems.vv5.movement import BOARD_SHIFT, is_solid
from vectorwar.systems.vv5.orders import Gunfire
from vectorwar.systems.vv5.prospects import aimed_gunfire, fire_in_prospect, prospect, wary
from vectorwar.systems.vv5.state import Ship, VV5State
from vectorwar.systems.vv5.victory import KILL_SCORES_DAMAGE, missiles_on_course, victory_points

MANIFEST = Manifest(
    name="vv5",
    title="Vector V5",
    source="../shared/seeds/001_b2e225cb8a9dead4.txt",
    phases=(
        PhaseSpec("purchase", "Before turn 1, if the scenario says so: sides buy their starships", kinds.PURCHASE.name),
        PhaseSpec(
            "place",
            "Before turn 1, if the scenario says so: players place the body and the stasis pod",
            kinds.PLACE.name,
        ),
        PhaseSpec("initiative", "Initiative: 1D6 per side, +2 to the side with fewest ships; ties keep the holder"),
        PhaseSpec("declare-order", "The initiative side picks who declares first", kinds.DECLARE_ORDER.name),
        PhaseSpec("missiles", "Launch Missiles, side by side in the chosen order", kinds.MISSILES.name),
        PhaseSpec("guns", "Fire Guns, side by side; to-hit rolled at once, damage noted", kinds.GUNS.name),
        PhaseSpec("gun-damage", "Gun Damage: hit locations rolled for every point noted"),
        PhaseSpec("panic", "Shock (optional): panic checks, then panicked ships roll their forced move"),
        PhaseSpec("plot", "Plot Movement in secret: rotations and accelerations", kinds.PLOT.name, True),
        PhaseSpec("movement", "Ships move onto their vector markers; collisions; markers mirrored"),
        PhaseSpec(
            "ace-replot",
            "Experienced Crews (optional): aces with an Ace Moment re-plot after every other ship has moved",
            kinds.ACE_REPLOT.name,
            True,
        ),
        PhaseSpec("missile-resolution", "Incoming missiles resolved, 2D6 damage each at once"),
        PhaseSpec("boarding", "Boarding actions (scenario rules)"),
    ),
    dice=("d6", "2d6"),
    options=(
        SEVERAL_TARGETS,
        OptionSpec(
            "honour_rule",
            False,
            "Scenario 1's point of honour: no plot may take a ship off the board until a starship has been "
            "destroyed or turn 15 (one plot sheet) is over, unless every plot of that ship leaves it "
            "(with board_shift: no ship may be plotted to retreat); the Dogfight scenarios turn it on",
        ),
        OptionSpec(
            BOARD_SHIFT,
            False,
            "Scenario 1's shift by agreement: a starship ending off the board is brought back by shifting "
            "every ship and marker together, unless its plot says 'retreat'; only for maps without terrain "
            "or special rules (the text allows it in the Dogfight alone, whose scenarios turn it on)",
        ),
        OptionSpec(
            "cargo_lost_with_ship",
            False,
            "Scenarios 3 and 8: only cargo boxes knocked out by hits count as destroyed (+5 VP each to the "
            "side that hit them; off, the text's 'per cargo box destroyed'); on, the troopers or refugees "
            "still aboard a transport that is destroyed, knocked out or crashed count too, for the interceptor",
        ),
        OptionSpec(
            "ghost_log_escape",
            True,
            "Scenario 7: after the Ghost Ship's log is downloaded the game goes on until a holder takes a "
            "starship off the board within 5 hexes of its start (True), or the download itself wins (False)",
        ),
        OptionSpec(
            "pirate_evasion",
            "field",
            "Scenario 5: where the pirate may roll to evade its pursuers in the Boarding Actions phase: 'field' "
            "(only from inside the asteroid field, its home ground) or 'anywhere' (the literal text, which lets "
            "the pirate escape on turn 1 from its starting distance)",
            ("field", "anywhere"),
        ),
        ASTEROID_ROLL,
        KILL_SCORES_DAMAGE,
        OptionSpec(
            "experienced_crews",
            False,
            "Optional rule Experienced Crews: crews named by 'crew:NAME:POINTS' loadout tags are Rookies (no "
            "points: to-hit numbers 1 worse), Regulars, Veterans (+1 to attacks) or Aces (+1 and Ace Moments); "
            "crews of lost ships roll to escape at the end",
        ),
        OptionSpec(
            "ace_moment",
            "table",
            "Experienced Crews: an Ace of level N has its Ace Moment on a 1D6 of 1..N ('table', as the experience "
            "table gives it) or only on a 6 ('six', the Ace Moments paragraph, the same for every level)",
            ("table", "six"),
        ),
        OptionSpec(
            "shock",
            False,
            "Optional rule Shock: shock points from rear-arc fire, incoming missiles, gun and missile damage and "
            "friendly losses; a panic check before plotting; panicked ships fly a move rolled on the panic table",
        ),
        OptionSpec(
            "invasion_bodies_shift",
            True,
            "Scenario 9: the strangely dense bodies, like the alien platforms, are shifted one hex at random "
            "after moving (True), or hold their course exactly (False)",
        ),
    ),
    max_sides=4,
)


#: One-ship changes of greedy's next plot a search trial tries for the searching side in a run (``plan_ahead``).
PLAN_AHEAD = 8


class VectorV5(KindedRules[VV5State]):
    manifest = MANIFEST
    state_type = VV5State
    setup_steps = ("purchase",)
    # The rows of the order kinds, under a word of their prompts' phase (the ace-replot's "plot" finds the
    # plot's rows; the declare-order's rows are the initiative's too).
    prompt_rules = tuple(
        (word, row.page, row.row)
        for word, kind in (
            ("purchase", kinds.PURCHASE),
            ("plot", kinds.PLOT),
            ("initiative", kinds.DECLARE_ORDER),
            ("declare", kinds.DECLARE_ORDER),
            ("missiles", kinds.MISSILES),
            ("guns", kinds.GUNS),
        )
        for row in kind.rules
    )

    def scenario_rules(self) -> Mapping[str, tuple[PromptRule, ...]]:
        """Each scenario's own set-up and victory rows of vv5.md at every prompt, after the system's."""
        own = {
            "vv5-dogfight": ("Dogfight", "Dogfight VPs"),
            "vv5-strike-force": ("Strike Force", "Strike Force VPs"),
            "vv5-assault-force": ("Assault Force", "Assault Force VPs"),
            "vv5-stasis-pod": ("Stasis Pod", "Stasis Pod victory"),
            "vv5-pirates": ("Pirates", "Pirates victory"),
            "vv5-alien-starship": ("Alien Starship", "Alien Starship VPs"),
            "vv5-ghost-ship": ("Ghost Ship",),
            "vv5-refugees": ("Refugees", "Refugees VPs"),
            "vv5-invasion": ("Invasion", "Invasion victory"),
        }
        return {family: self.prompt_rules + tuple(("", "vv5", cell) for cell in cells) for family, cells in own.items()}

    # Its trials are cheap (a resolve and a round of greedy plots a move), so they can play a third move: the
    # same strength overall, better in the Refugees, Pirates and Ghost Ship, worse in the Stasis Pod
    # (the history of docs/bots.md).
    prospect_moves = 3
    # Its trials meet an all-but-known enemy plot and throw almost no dice: measured stronger choosing what
    # they judge best than holding to greedy's order unless clearly beaten (the history of docs/bots.md).
    search_margin = False

    # -- setup ------------------------------------------------------------------

    def designs(self, scenario: Scenario | None = None) -> dict[str, Design]:
        return catalogue.designs(scenario)

    def new_state(self, scenario: Scenario, options: Mapping[str, OptionValue]) -> VV5State:
        designs = self.designs(scenario)
        hex_map = scenario.hex_map()
        state = VV5State(
            turn=1,
            phase="plot",
            sides=tuple(s.id for s in scenario.sides),
            ships=_placed_ships(scenario, designs, hex_map),
            map=hex_map,
            max_turns=scenario.max_turns,
            options=dict(options),
        )
        if options.get(BOARD_SHIFT) and (scenario.special or hex_map.terrain):
            raise ScenarioError(
                f"scenario {scenario.id}: options: {BOARD_SHIFT}: shifting ships back onto the board is the "
                "Dogfight's; this scenario has terrain or special rules fixed to the board"
            )
        state = replace_fields(state, purchase=buying.read_setup(scenario, designs, hex_map))
        return specials.set_up(state, scenario.special, f"scenario {scenario.id}")

    def start(self, state: VV5State, dice: Dice) -> tuple[VV5State, list[Event]]:
        return turn.start(state, dice)

    # -- asking: the order kind due answers (vectorwar.systems.vv5.kinds) ----------------

    # The prompt, orders, resolve, menus: the kind due now answers (vectorwar.orderkinds.KindedRules).
    order_kind = staticmethod(kinds.due)

    def standing(self, state: VV5State) -> Mapping[str, float]:
        # Victory points decide VV5's games, and they grow with every point of damage done; a scenario's
        # objective adds what it is on course to earn (cargo flown toward its edge) before it pays out.
        points = {s: float(v) for s, v in victory_points(state).items()}
        # Missiles launched but not yet resolved count for what they are expected to do: a trial that stops
        # between launch and impact would otherwise see only what the launch cost.
        for side, extra in missiles_on_course(state).items():
            points[side] = points.get(side, 0.0) + extra
        # Likewise the fire still to come this turn, from where the ships stand.
        for side, extra in fire_in_prospect(state).items():
            points[side] = points.get(side, 0.0) + extra
        special = specials.special_for(state)
        for side, extra in ({} if special is None else special.progress(state)).items():
            points[side] = points.get(side, 0.0) + extra
        # In a run decided on few points, the side ahead is judged by its chance to win, which a fight lowers.
        stake = None if special is None else special.at_stake(state)
        return points if stake is None else wary(points, stake, prospect(state).spread)

    def fire_in_prospect(self, state: VV5State) -> Mapping[str, float] | None:
        return fire_in_prospect(state)

    def plan_ahead(self, state: VV5State, side: str) -> int:
        # A run can turn on a first plot that only the plot after it pays for (the pirate turning away from its
        # pursuers), so the runner's trials search its next plot too; for the chasers, and in a plain fight,
        # that made search weaker (docs/bots.md, "Two plots a trial").
        special = specials.special_for(state)
        return PLAN_AHEAD if special is not None and special.runner(state) == side else 0

    def search_declaration(self, state: VV5State, side: str, order: Order) -> Order:
        # Every missile ready at greedy's targets; the guns at the targets where they are worth most together.
        if isinstance(order, Gunfire):
            return aimed_gunfire(state, side, order)
        return full_salvos(state, order)

    def rollout_cost(self, state: VV5State, bot: str) -> float:
        # The fast bot's plots, most of a trial's cost, grow with the ships in play (two a side is typical),
        # and a transport's rendezvous planning costs as much again; a trial of three moves costs half as
        # much again as the usual two.
        ships = max(1.0, sum(2 if s.kind == "transport" else 1 for s in state.ships if s.active) / 4)
        return ships * self.prospect_moves / 2

    def result(self, state: VV5State) -> Result | None:
        if state.phase != "over":
            return None
        scores = {s: float(v) for s, v in victory_points(state).items()}
        return Result(state.winners, state.end_reason, scores, "VP")

    # -- orders ---------------------------------------------------------------------

    def resolve_over(self, state: VV5State, dice: Dice) -> tuple[VV5State, list[Event]]:
        # Once the game is over the end's own steps have run: settling again finds nothing left to do.
        events: list[Event] = []
        return turn.settle(state, dice, events), events

    # -- computer players -----------------------------------------------------------

    def idle_order(self, state: VV5State, side: str) -> Order | None:
        """At a plot, every ship drifts on its vector with no thrust; else a hold."""
        ships = self.move_options(state, side)
        if not ships:
            return super().idle_order(state, side)
        return self.checked_order(state, side, "; ".join(f"{ship} 0" for ship in ships))

    def bots(self) -> Mapping[str, Callable[[], Bot]]:
        return {**super().bots(), "greedy": GreedyBot}

    # -- display (see vectorwar.systems.vv5.display) ---------------------------------

    def edge_warning(self, state: VV5State, option: MoveOption, board: HexMap) -> PlotWarning | None:
        return edge.edge_warning(state, option)

    def board(self, state: VV5State) -> HexMap:
        return state.map

    def counters(self, state: VV5State) -> list[Counter]:
        return display.counters(state)

    def ship_cards(self, state: VV5State) -> list[Card]:
        return display.ship_cards(state)

    def arc_hexes(self, state: VV5State, ship_id: str) -> dict[str, frozenset[Hex]]:
        return display.arc_hexes(state, ship_id)

    def catalogue_table(self) -> CardTable | None:
        return display.catalogue_table(self.designs())

    def design_cards(self, tables: Mapping[str, Any], source: str) -> list[Card] | None:
        return [display.design_card(k, design_from_data(v, source, k)) for k, v in tables.items()]

    def design_schema(self) -> dict[str, Any] | None:
        return Design.model_json_schema()


system = VectorV5()


def _placed_ships(scenario: Scenario, designs: Mapping[str, Design], hex_map: HexMap) -> tuple[Ship, ...]:
    """The scenario's ships where it places them, fresh from the yard with their equipment and crews.

    The same for every game of a scenario (a frozen scenario, whose designs are its own and the built-in ones
    read once a process): the last scenario's are kept, found by its identity, for the next game of a batch.
    """
    if _last_placed and _last_placed[0][0] is scenario:
        return _last_placed[0][1]
    ships: list[Ship] = []
    taken: set[Hex] = set()
    for where, side_id, placed in scenario.placements():
        design = design_for(designs, placed, where)
        start = placed.start_hex(hex_map, where)
        if start in taken and not is_solid(hex_map.terrain_at(start)):
            # Ships based on a large asteroid may start there together (scenario 8, Refugees):
            # one ship per hex only binds at the end of a move.
            raise ScenarioError(f"{where}.at: hex {start} already holds a ship (one per hex)")
        taken.add(start)
        velocity = placed.start_velocity(where)
        ship = build_ship(
            placed.id, side_id, placed.design, design, hex=start, facing=placed.direction, velocity=velocity
        )
        ship = fit_loadout(ship, tuple(placed.loadout), f"{where}.loadout")
        ships.append(crews.fit_crew(ship, tuple(placed.loadout), f"{where}.loadout"))
    found = tuple(ships)
    _last_placed[:] = [(scenario, found)]  # swapped in one step, so threads never mix two scenarios
    return found


#: The last scenario :func:`_placed_ships` placed, kept alive beside its ships so that its identity is not reused.
_last_placed: list[tuple[Scenario, tuple[Ship, ...]]] = []
