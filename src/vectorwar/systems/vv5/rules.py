"""Vector V5 as a vectorwar rule system: the sequence of play.

Each turn (VV5 Sequence of Play): initiative is rolled; the side holding it
chooses the order in which sides declare; each side in that order launches
missiles, then each fires guns (to-hit rolled at once, damage noted); gun
damage is resolved; every side plots movement in secret; ships move onto
their vector markers, collisions are settled and markers mirrored; incoming
missiles are resolved; boarding actions (scenario hooks) follow.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from vectorwar.catalogue import design_for
from vectorwar.dice import Dice
from vectorwar.display import Card, CardTable, Counter, MoveOption, PlotWarning, SetupMenu, ShotOption
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.events import Event, InitiativeSet, Moved, Note, Rolled, TurnBegan
from vectorwar.hexes import Hex
from vectorwar.maps import HexMap
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
    PromptRule,
    Result,
    RuleSystem,
)
from vectorwar.scenario import Scenario
from vectorwar.systems.vv5 import buying, catalogue, crews, display, edge, placing, preview, setup_menu, shock, specials
from vectorwar.systems.vv5.bots import GreedyBot, full_salvos
from vectorwar.systems.vv5.buying import Buy
from vectorwar.systems.vv5.combat import (
    RULE_GUNS,
    RULE_MISSILES,
    RULE_RAPID,
    SEVERAL_TARGETS,
    apply_damage,
    missile_verdict,
    spread_adjustment,
)
from vectorwar.systems.vv5.design import Design, design_from_data
from vectorwar.systems.vv5.equipment import build_ship, fit_loadout
from vectorwar.systems.vv5.events import InitiativeWon, MissileLaunched, MissileResolved
from vectorwar.systems.vv5.gunfire import fire_shot, launch_odds
from vectorwar.systems.vv5.hazards import asteroid_fields
from vectorwar.systems.vv5.honour import RULE_HONOUR, honour_problem, honourable, retreat_problem
from vectorwar.systems.vv5.initiative import roll_initiative
from vectorwar.systems.vv5.movement import BOARD_SHIFT, check_manoeuvre, is_solid, turn_allowance
from vectorwar.systems.vv5.orders import DeclareOrder, Gunfire, Launch, Launches, Manoeuvre, Plot, Shot
from vectorwar.systems.vv5.placing import Place
from vectorwar.systems.vv5.prospects import aimed_gunfire, fire_in_prospect, prospect, wary
from vectorwar.systems.vv5.specials.adp import platforms_drift, platforms_fire
from vectorwar.systems.vv5.state import Missile, Ship, VV5State
from vectorwar.systems.vv5.targeting import gun_problem, launch_problem, legal_gun_targets, legal_launch_targets
from vectorwar.systems.vv5.victory import credit, elimination, finish, missiles_on_course, victory_points

RULE_ORDER = "VV5 Initiative (the initiative player chooses who declares first)"
RULE_PLOT = "VV5 Plotting Movement"

HELP = {
    "missiles": "launches as SHIP COUNT>TARGET, e.g. 'X1 2>Y1; X2 1>Y2', or 'hold'",
    "guns": "shots as SHIP MOUNT*GUNS>TARGET (mounts fwd f180 a180 l180 r180 t360; each gun fires twice a turn), "
    "e.g. 'X1 fwd*2>Y1 fwd*2>Y1', or 'hold'",
    "plot": "one plot per ship: L/R rotate 60 degrees, digits accelerate that many G, e.g. 'X1 RR1; X2 0'",
    "ace-replot": "Ace Moment: a new plot for each of your aces named, having seen every other ship move, e.g. 'X1 L2'",
}


def declare_order_help(sides: Sequence[str]) -> str:
    """The declare-order prompt's help, with the game's own sides as its examples.

    >>> declare_order_help(("red", "blue", "gold"))[51:]
    "'red first', 'blue first' or 'gold first' (or the full order, e.g. 'red, blue, gold')"
    """
    firsts = [f"'{side} first'" for side in sides]
    choice = firsts[0] if len(firsts) < 2 else f"{', '.join(firsts[:-1])} or {firsts[-1]}"
    return f"the side that declares missiles and gunfire first: {choice} (or the full order, e.g. '{', '.join(sides)}')"


MANIFEST = Manifest(
    name="vv5",
    title="Vector V5",
    source="../shared/seeds/001_b2e225cb8a9dead4.txt",
    phases=(
        PhaseSpec("purchase", "Before turn 1, if the scenario says so: sides buy their starships", "purchase"),
        PhaseSpec(
            "place", "Before turn 1, if the scenario says so: players place the body and the stasis pod", "place"
        ),
        PhaseSpec("initiative", "Initiative: 1D6 per side, +2 to the side with fewest ships; ties keep the holder"),
        PhaseSpec("declare-order", "The initiative side picks who declares first", "declare-order"),
        PhaseSpec("missiles", "Launch Missiles, side by side in the chosen order", "missiles"),
        PhaseSpec("guns", "Fire Guns, side by side; to-hit rolled at once, damage noted", "guns"),
        PhaseSpec("gun-damage", "Gun Damage: hit locations rolled for every point noted"),
        PhaseSpec("panic", "Shock (optional): panic checks, then panicked ships roll their forced move"),
        PhaseSpec("plot", "Plot Movement in secret: rotations and accelerations", "plot", True),
        PhaseSpec("movement", "Ships move onto their vector markers; collisions; markers mirrored"),
        PhaseSpec(
            "ace-replot",
            "Experienced Crews (optional): aces with an Ace Moment re-plot after every other ship has moved",
            "ace-replot",
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
            True,
            "Scenarios 3 and 8: the troopers or refugees still aboard a transport that is destroyed, knocked "
            "out or crashed count as cargo boxes destroyed (+5 VP each to the interceptor); off, only boxes "
            "knocked out by hits count",
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


#: One-ship changes of greedy's next plot a search trial tries for the searching seat in a run (``plan_ahead``).
PLAN_AHEAD = 8


class VectorV5(RuleSystem[VV5State]):
    manifest = MANIFEST
    state_type = VV5State
    setup_steps = ("purchase",)
    prompt_rules = (
        ("purchase", "vv5", "Dogfight"),
        ("plot", "vv5", "Movement"),
        ("plot", "vv5", "Sequence of Play"),
        ("initiative", "vv5", "Initiative"),
        ("declare", "vv5", "Initiative"),
        ("missiles", "vv5", "Launch Missiles"),
        ("guns", "vv5", "Gunfire"),
        ("guns", "vv5", "Gun damage"),
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
        state = VV5State(
            turn=1,
            phase="plot",
            sides=tuple(s.id for s in scenario.sides),
            ships=tuple(ships),
            map=hex_map,
            max_turns=scenario.max_turns,
            options=dict(options),
        )
        if options.get(BOARD_SHIFT) and (scenario.special or hex_map.terrain):
            raise ScenarioError(
                f"scenario {scenario.id}: options: {BOARD_SHIFT}: shifting ships back onto the board is the "
                "Dogfight's; this scenario has terrain or special rules fixed to the board"
            )
        state = replace(state, purchase=buying.read_setup(scenario, designs, hex_map))
        return specials.set_up(state, scenario.special, f"scenario {scenario.id}")

    def start(self, state: VV5State, dice: Dice) -> tuple[VV5State, list[Event]]:
        events: list[Event] = []
        if state.placing:
            # The body and pod are the players' to place first; the special starts once they are down.
            return replace(state, phase="place"), events
        state = specials.begin(state, dice, events)
        state = buying.begin(state, dice, events)
        if state.purchase is not None:
            return state, events
        return self._begin_turn(state, dice, events), events

    # -- asking -------------------------------------------------------------------

    def prompt(self, state: VV5State) -> Prompt | None:
        if state.phase == "over":
            return None
        if state.phase == "purchase":
            return buying.prompt(state)
        if state.phase == "place":
            return placing.prompt(state)
        if state.phase == "plot":
            help = HELP["plot"] + (
                "; or 'X1 escape': the crew abandon the ship (a voluntary escape)" if crews.enabled(state) else ""
            )
            return Prompt(Clock(state.turn, "plot"), state.sides_in_play(), "plot", True, help)
        if state.phase == "ace-replot":
            seats = tuple(dict.fromkeys(state.ship(a).side for a in state.ace_replot))
            return Prompt(Clock(state.turn, "ace-replot"), seats, "ace-replot", True, HELP["ace-replot"])
        if state.phase == "choose-order":
            return Prompt(
                Clock(state.turn, "declare-order"),
                (state.initiative,),
                "declare-order",
                False,
                declare_order_help(state.sides_in_play()),
            )
        side = state.declare_order[state.declaring]
        return Prompt(Clock(state.turn, state.phase), (side,), state.phase, False, HELP[state.phase])

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

    def plan_ahead(self, state: VV5State, seat: str) -> int:
        # A run can turn on a first plot that only the plot after it pays for (the pirate turning away from its
        # pursuers), so the runner's trials search its next plot too; for the chasers, and in a plain fight,
        # that made search weaker (docs/bots.md, "Two plots a trial").
        special = specials.special_for(state)
        return PLAN_AHEAD if special is not None and special.runner(state) == seat else 0

    def search_declaration(self, state: VV5State, seat: str, order: Order) -> Order:
        # Every missile ready at greedy's targets; the guns at the targets where they are worth most together.
        if isinstance(order, Gunfire):
            return aimed_gunfire(state, seat, order)
        return full_salvos(state, order)

    def rollout_cost(self, state: VV5State) -> float:
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

    def parse_order(self, state: VV5State, seat: str, text: str) -> Order:
        own = id_lookup(s.id for s in state.ships_of(seat))
        everyone = id_lookup(s.id for s in state.ships)
        if state.phase == "purchase":
            return Buy.parse(text)
        if state.phase == "place":
            return Place.parse(text)
        if state.phase == "choose-order":
            return DeclareOrder.parse(text, state.sides_in_play())
        if state.phase == "missiles":
            return Launches.parse(text, own, everyone)
        if state.phase == "guns":
            guns = {(s.id, m.arc): m.guns.boxes for s in state.ships_of(seat) for m in s.mounts}
            return Gunfire.parse(text, own, everyone, guns)
        if state.phase == "plot":
            return Plot.parse(text, own)
        if state.phase == "ace-replot":
            return Plot.parse(text, id_lookup(a for a in state.ace_replot if state.ship(a).side == seat))
        raise OrderSyntaxError(text, "the game is over")

    def check_order(self, state: VV5State, seat: str, order: Order) -> None:
        expected = {
            "purchase": Buy,
            "place": Place,
            "choose-order": DeclareOrder,
            "missiles": Launches,
            "guns": Gunfire,
            "plot": Plot,
        }.get("plot" if state.phase == "ace-replot" else state.phase)
        if expected is None:
            raise IllegalOrderError(str(order), "the game is over", "game end")
        if not isinstance(order, expected):
            raise IllegalOrderError(str(order), f"{state.phase} orders are due now", "VV5 Sequence of Play")
        if isinstance(order, Buy):
            buying.check(state, seat, order)
        elif isinstance(order, Place):
            placing.check(state, seat, order)
        elif isinstance(order, DeclareOrder):
            if sorted(order.sides) != sorted(state.sides_in_play()):
                raise IllegalOrderError(str(order), "list every side in play once", RULE_ORDER)
        elif isinstance(order, Launches):
            self._check_launches(state, seat, order)
        elif isinstance(order, Gunfire):
            self._check_gunfire(state, seat, order)
        elif isinstance(order, Plot):
            self._check_plot(state, seat, order)

    @staticmethod
    def _named(state: VV5State, label: str, ship_id: str, rule: str) -> Ship:
        """The ship an order names, or an illegal order if the game has none of that name."""
        try:
            return state.ship(ship_id)
        except KeyError:
            raise IllegalOrderError(label, f"there is no ship called {ship_id!r}", rule) from None

    def _own(self, state: VV5State, seat: str, label: str, ship_id: str, rule: str) -> Ship:
        """``seat``'s ship ``ship_id``: an order object (not only its text, which the parser checks) may name
        no other side's ship and none that is not in the game."""
        ship = self._named(state, label, ship_id, rule)
        if ship.side != seat:
            raise IllegalOrderError(label, f"{ship_id} is not a ship of {seat}'s", rule)
        return ship

    def _target(self, state: VV5State, seat: str, label: str, target_id: str, rule: str) -> Ship:
        target = self._named(state, label, target_id, rule)
        if state.allied(target.side, seat):
            raise IllegalOrderError(label, f"{target.id} is on your own side", rule)
        if not target.active:
            raise IllegalOrderError(label, f"{target.id} is {target.status}", rule)
        return target

    def _check_launches(self, state: VV5State, seat: str, order: Launches) -> None:
        used: dict[str, int] = {}
        for launch in order.launches:
            label = f"{launch.ship} {launch.missiles}>{launch.target}"
            ship = self._own(state, seat, label, launch.ship, RULE_MISSILES)
            target = self._target(state, seat, label, launch.target, RULE_MISSILES)
            if launch.missiles < 1:
                raise IllegalOrderError(label, "launch at least one missile", RULE_MISSILES)
            used[ship.id] = used.get(ship.id, 0) + launch.missiles
            if used[ship.id] > ship.missiles_ready:
                raise IllegalOrderError(
                    label, f"{ship.id} has {ship.missiles_ready} missile(s) left to launch", RULE_MISSILES
                )
            why = launch_problem(state, ship, target)
            if why:
                raise IllegalOrderError(label, why, RULE_MISSILES)

    def _check_gunfire(self, state: VV5State, seat: str, order: Gunfire) -> None:
        used: dict[tuple[str, str], int] = {}
        for shot in order.shots:
            label = f"{shot.ship} {shot.mount}*{shot.guns}>{shot.target}"
            ship = self._own(state, seat, label, shot.ship, RULE_GUNS)
            mount = ship.mount(shot.mount)
            if mount is None:
                raise IllegalOrderError(label, f"{ship.id} has no {shot.mount} guns", RULE_GUNS)
            if shot.guns < 1 or shot.guns > mount.guns.boxes:
                raise IllegalOrderError(
                    label, f"the {shot.mount} mount has {mount.guns.boxes} working gun(s)", RULE_GUNS
                )
            key = (ship.id, shot.mount)
            used[key] = used.get(key, 0) + shot.guns
            if used[key] > 2 * mount.guns.boxes:
                raise IllegalOrderError(label, "each gun fires at most twice a turn (rapid fire)", RULE_RAPID)
            target = self._target(state, seat, label, shot.target, RULE_GUNS)
            why = gun_problem(state, ship, shot.mount, target)
            if why:
                raise IllegalOrderError(label, why, RULE_GUNS)

    def _check_plot(self, state: VV5State, seat: str, plot: Plot) -> None:
        named = [s for s, _ in plot.moves] + list(plot.escapes)
        for ship_id in dict.fromkeys([*named, *plot.retreats]):
            self._own(state, seat, str(plot), ship_id, RULE_PLOT)
        for ship_id in named:
            if named.count(ship_id) > 1:
                raise IllegalOrderError(str(plot), f"{ship_id} is plotted twice", RULE_PLOT)
        for ship_id in plot.escapes:
            problem = crews.escape_problem(state, state.ship(ship_id))
            if problem:
                raise IllegalOrderError(f"{ship_id} escape", problem, crews.RULE_CREWS)
        for ship_id in plot.retreats:
            problem = retreat_problem(state, state.ship(ship_id))
            if problem:
                raise IllegalOrderError(f"{ship_id} retreat", problem, RULE_HONOUR)
        due = [s for s in state.ships_of(seat) if state.phase == "plot" or s.id in state.ace_replot]
        # A panicked ship may be left out: the engine flies its panic move (optional rule Shock).
        missing = [s.id for s in due if s.id not in named and shock.forced(state, s) is None]
        if missing:
            raise IllegalOrderError(str(plot), f"no plot for {', '.join(missing)}: plot every starship", RULE_PLOT)
        for ship_id, move in plot.moves:
            if state.phase == "ace-replot" and ship_id not in state.ace_replot:
                raise IllegalOrderError(str(plot), f"{ship_id} has no Ace Moment to re-plot", crews.RULE_ACE)
            check_manoeuvre(state.ship(ship_id), move)
            panic = shock.plot_problem(state, state.ship(ship_id), move)
            if panic:
                raise IllegalOrderError(f"{ship_id} {move}", panic, shock.RULE_PANIC)
            if shock.forced(state, state.ship(ship_id)) is not None:
                continue  # panic overrides the honour rule
            dishonour = honour_problem(state, state.ship(ship_id), move)
            if dishonour:
                raise IllegalOrderError(f"{ship_id} {move}", dishonour, RULE_HONOUR)

    # -- resolution ---------------------------------------------------------------

    def resolve(self, state: VV5State, orders: Mapping[str, Order], dice: Dice) -> tuple[VV5State, list[Event]]:
        events: list[Event] = []
        if state.phase == "purchase":
            seat, order = next(iter(orders.items()))
            if not isinstance(order, Buy):  # pragma: no cover - checked
                raise TypeError("a purchase expected")
            state = buying.resolve(state, seat, order, dice, events)
            if state.purchase is None:
                state = self._begin_turn(state, dice, events)
            return state, events
        if state.phase == "place":
            seat, order = next(iter(orders.items()))
            if not isinstance(order, Place):  # pragma: no cover - checked
                raise TypeError("a placement expected")
            state = placing.resolve(state, seat, order, events)
            if state.placing:
                return state, events
            state, more = self.start(replace(state, phase="plot"), dice)
            return state, events + more
        if state.phase == "choose-order":
            order = orders[state.initiative]
            if not isinstance(order, DeclareOrder):  # pragma: no cover - checked
                raise TypeError("declare order expected")
            events.append(InitiativeSet(order.sides))
            state = self._next_declarer(
                replace(state, phase="missiles", declare_order=order.sides, declaring=0), dice, events
            )
        elif state.phase == "missiles":
            launches = orders[state.declare_order[state.declaring]]
            if not isinstance(launches, Launches):  # pragma: no cover - checked
                raise TypeError("launches expected")
            state = self._launch(state, launches, events)
            state = self._next_declarer(replace(state, declaring=state.declaring + 1), dice, events)
        elif state.phase == "guns":
            gunfire = orders[state.declare_order[state.declaring]]
            if not isinstance(gunfire, Gunfire):  # pragma: no cover - checked
                raise TypeError("gunfire expected")
            state = self._fire(state, gunfire, dice, events)
            state = self._next_declarer(replace(state, declaring=state.declaring + 1), dice, events)
        elif state.phase == "plot":
            plots: dict[str, Manoeuvre] = {}
            retreating: set[str] = set()
            for plot in orders.values():
                if not isinstance(plot, Plot):  # pragma: no cover - checked
                    raise TypeError("plot expected")
                plots.update(dict(plot.moves))
                retreating.update(plot.retreats)
                state = crews.abandon(state, plot.escapes, events)
            plots = shock.fill_panic_moves(state, plots)
            special = specials.special_for(state)
            if special is not None:
                state = special.before_movement(state, dice, events)
            aces = crews.roll_ace_moments(state, dice, events)
            first = len(events)
            state = crews.move_all_but(state, plots, aces, dice, events, frozenset(retreating))
            state = platforms_drift(state, dice, events)
            state = asteroid_fields(state, [e for e in events[first:] if isinstance(e, Moved)], dice, events)
            if aces:
                state = replace(state, phase="ace-replot", ace_replot=aces)
            else:
                state = self._after_movement(state, dice, events)
        elif state.phase == "ace-replot":
            replots: dict[str, Manoeuvre] = {}
            retreating = set()
            for plot in orders.values():
                if not isinstance(plot, Plot):  # pragma: no cover - checked
                    raise TypeError("plot expected")
                replots.update(dict(plot.moves))
                retreating.update(plot.retreats)
            first = len(events)
            state = crews.move_aces(state, replots, dice, events, frozenset(retreating))
            state = asteroid_fields(state, [e for e in events[first:] if isinstance(e, Moved)], dice, events)
            state = self._after_movement(replace(state, phase="plot", ace_replot=()), dice, events)
        state = shock.absorb(state, shock.since_check(events))
        state = crews.roll_escapes(state, dice, events)
        return state, events

    def _after_movement(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        special = specials.special_for(state)
        if special is not None:
            state = special.after_movement(state, dice, events)
        state = self._resolve_missiles(state, dice, events)
        if special is not None:
            state = special.boarding(state, dice, events)
        return self._end_turn(state, dice, events)

    def _begin_turn(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        events.append(TurnBegan(state.turn))
        state = replace(
            state,
            ships=tuple(replace(s, accelerated=0) for s in state.ships),
            guns_fired=(),
            declaring=0,
            declare_order=(),
        )
        in_play = state.sides_in_play()
        holder, kept = roll_initiative(state, dice, events)
        events.append(InitiativeWon(holder, kept))
        state = replace(state, initiative=holder)
        if len(in_play) > 1 and any(self._can_shoot(state, side) for side in in_play):
            return replace(state, phase="choose-order")
        if len(in_play) == 1 and self._can_shoot(state, in_play[0]):
            # Alone against the engine's platforms (Invasion): no one to declare before, straight to missiles.
            return self._next_declarer(
                replace(state, phase="missiles", declare_order=in_play, declaring=0), dice, events
            )
        return self._after_gunfire(state, dice, events)

    def _after_gunfire(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        """Defence platforms fire, then all gun damage is resolved, then plotting."""
        state = platforms_fire(state, dice, events)
        state = self._gun_damage(state, dice, events)
        over = elimination(state, events)
        return over if over is not None else shock.panic_check(replace(state, phase="plot", declaring=0), dice, events)

    def _can_shoot(self, state: VV5State, side: str) -> bool:
        return bool(legal_launch_targets(state, side) or legal_gun_targets(state, side))

    def _next_declarer(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        while True:
            if state.declaring >= len(state.declare_order):
                if state.phase == "missiles":
                    state = replace(state, phase="guns", declaring=0)
                    continue
                return self._after_gunfire(state, dice, events)
            side = state.declare_order[state.declaring]
            able = legal_launch_targets(state, side) if state.phase == "missiles" else legal_gun_targets(state, side)
            if state.ships_of(side) and able:
                return state
            state = replace(state, declaring=state.declaring + 1)

    def _launch(self, state: VV5State, order: Launches, events: list[Event]) -> VV5State:
        if not order.launches:
            events.append(Note(f"{state.declare_order[state.declaring]} launches no missiles"))
        mode = str(state.options.get("several_targets", "harder"))
        for ship_id in dict.fromkeys(x.ship for x in order.launches):
            mine = [x for x in order.launches if x.ship == ship_id]
            adjust = spread_adjustment([(x.missiles, x.target) for x in mine], mode)
            ship = state.ship(ship_id)
            launchers = list(ship.launchers)
            for launch in mine:
                odds = launch_odds(state, ship.id, launch.target, adjust)
                distance, to_hit = odds.range, odds.need
                if to_hit is None:  # pragma: no cover - a missile always has a number
                    raise ValueError("no to-hit number")
                for _ in range(launch.missiles):
                    launchers[launchers.index("ready")] = "spent"
                    state = replace(state, incoming=(*state.incoming, Missile(ship.id, launch.target, to_hit)))
                    events.append(MissileLaunched(ship.id, launch.target, distance, to_hit))
            state = state.with_ship(replace(ship, launchers=tuple(launchers)))
        return state

    def _fire(self, state: VV5State, order: Gunfire, dice: Dice, events: list[Event]) -> VV5State:
        if not order.shots:
            events.append(Note(f"{state.declare_order[state.declaring]} holds its guns"))
        for shot in order.shots:
            state = fire_shot(state, shot, dice, events)
        return state

    def _gun_damage(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        for record in state.gun_damage:
            target = state.ship(record.target)
            attacker_side = state.ship(record.attacker).side
            damaged = apply_damage(target, record.points, dice, events, f"gunfire from {record.attacker}")
            if crews.enabled(state):
                damaged = crews.note_attacker(damaged, record.attacker)
            state = state.with_ship(credit(target, damaged, attacker_side))
        return replace(state, gun_damage=())

    def _resolve_missiles(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        for missile in state.incoming:
            target = state.ship(missile.target)
            if not target.active:
                events.append(Note(f"{missile.shooter}'s missile finds no target: {target.id} is {target.status}"))
                continue
            roll = dice.roll("2d6", f"{missile.shooter}'s missile at {target.id}")
            events.append(Rolled.of(roll))
            need, hit, note = missile_verdict(missile.to_hit, target.accelerated, roll.total, target.can_accelerate)
            events.append(MissileResolved(missile.shooter, target.id, need, roll.total, hit, note))
            if hit:
                damage = dice.roll("2d6", f"missile damage to {target.id}")
                events.append(Rolled.of(damage))
                shooter_side = state.ship(missile.shooter).side
                damaged = apply_damage(target, damage.total, dice, events, f"missile from {missile.shooter}")
                if crews.enabled(state):
                    damaged = crews.note_attacker(damaged, missile.shooter)
                state = state.with_ship(credit(target, damaged, shooter_side))
        return replace(state, incoming=())

    def _end_turn(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        special = specials.special_for(state)
        scenario_end = special.game_over(state) if special is not None else None
        if scenario_end:
            return finish(state, scenario_end, events)
        over = elimination(state, events)
        if over is not None:
            return over
        if state.turn >= state.max_turns:
            return finish(state, f"turn limit {state.max_turns} reached", events)
        return self._begin_turn(replace(state, turn=state.turn + 1), dice, events)

    # -- computer players -----------------------------------------------------------

    def random_order(self, state: VV5State, seat: str, rng: random.Random) -> Order:
        if state.phase == "purchase":
            return buying.random_buy(state, seat, rng)
        if state.phase == "place":
            return placing.random_place(state, seat, rng)
        if state.phase == "choose-order":
            sides = list(state.sides_in_play())
            rng.shuffle(sides)
            return DeclareOrder(tuple(sides))
        if state.phase == "missiles":
            launches: list[Launch] = []
            for ship in state.ships_of(seat):
                targets = [t for t in state.enemies_of(seat) if launch_problem(state, ship, t) is None]
                if targets and ship.missiles_ready and rng.random() < 0.5:
                    launches.append(Launch(ship.id, rng.randint(1, ship.missiles_ready), rng.choice(targets).id))
            return Launches(tuple(launches))
        if state.phase == "guns":
            shots: list[Shot] = []
            for ship in state.ships_of(seat):
                for mount in ship.mounts:
                    targets = [t for t in state.enemies_of(seat) if gun_problem(state, ship, mount.arc, t) is None]
                    if not targets or mount.guns.boxes == 0:
                        continue
                    for _ in range(rng.randint(0, 2)):
                        shots.append(Shot(ship.id, mount.arc, rng.randint(1, mount.guns.boxes), rng.choice(targets).id))
            return Gunfire(tuple(shots))
        if state.phase == "plot":
            return Plot(
                tuple(
                    (s.id, shock.forced(state, s) or honourable(state, s, random_manoeuvre(s, rng), rng))
                    for s in state.ships_of(seat)
                )
            )
        if state.phase == "ace-replot":
            return Plot(
                tuple(
                    (s.id, honourable(state, s, random_manoeuvre(s, rng), rng))
                    for s in state.ships_of(seat)
                    if s.id in state.ace_replot
                )
            )
        raise IllegalOrderError("", "the game is over", "game end")

    def bots(self) -> Mapping[str, Callable[[], Bot]]:
        return {**super().bots(), "greedy": GreedyBot}

    # -- display (see vectorwar.systems.vv5.display) ---------------------------------

    def move_options(self, state: VV5State, seat: str) -> Mapping[str, Sequence[MoveOption]]:
        return preview.move_options(state, seat)

    def edge_warning(self, state: VV5State, option: MoveOption, board: HexMap) -> PlotWarning | None:
        return edge.edge_warning(state, option)

    def fire_options(self, state: VV5State, seat: str) -> Mapping[str, Sequence[ShotOption]]:
        prompt = self.prompt(state)
        if prompt is None or seat not in prompt.seats:
            return {}
        return display.fire_options(state, seat)

    def board(self, state: VV5State) -> HexMap:
        return state.map

    def counters(self, state: VV5State) -> list[Counter]:
        return display.counters(state)

    def ship_cards(self, state: VV5State) -> list[Card]:
        return display.ship_cards(state)

    def arc_hexes(self, state: VV5State, ship_id: str) -> dict[str, frozenset[Hex]]:
        return display.arc_hexes(state, ship_id)

    def setup_menu(self, state: VV5State, seat: str) -> SetupMenu | None:
        return setup_menu.menu(state, seat)

    def catalogue_table(self) -> CardTable | None:
        return display.catalogue_table(self.designs())

    def design_cards(self, tables: Mapping[str, Any], source: str) -> list[Card] | None:
        return [display.design_card(k, design_from_data(v, source, k)) for k, v in tables.items()]

    def design_schema(self) -> dict[str, Any] | None:
        return Design.model_json_schema()


def random_manoeuvre(ship: Ship, rng: random.Random) -> Manoeuvre:
    rotations, thrust = turn_allowance(ship)
    turns = rng.randint(0, rotations)
    g = rng.randint(0, thrust)
    steps: list[str] = [rng.choice("LR") for _ in range(turns)]
    if g:
        steps.insert(rng.randint(0, len(steps)), str(g))
    return Manoeuvre(tuple(steps))


system = VectorV5()
