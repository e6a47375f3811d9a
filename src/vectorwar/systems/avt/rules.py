"""Attack Vector: Tactical as a vectorwar rule system: the tutorial's whole game.

A turn is eight segments (A2.0, B1.2); every segment each side with a ship
gives its orders at once (they are revealed together, A5.212) and the
segment is resolved in the text's order (:mod:`.segment`). Orders are
intentions: set thrust, choose a bias, begin a pivot or roll, fire, and the
reactor and radiator choices for the end of the turn; the computer keeps the
thrust chart, AVID, movement grid, timing track and heat record
(:mod:`.turn_end`).

Lasers fire at the tutorial's chocolates and at ships (:mod:`.fire`); damage
is allocated in the text's order (:mod:`.damage`, :mod:`.armour`), damaged
boxes change what a ship can do (:mod:`.ssd`), repair teams work at the turn
break (:mod:`.repairs`), and extending radiators surrenders. What the excerpt
only names (heat damage, flex points, crews, other weapons) is not here
(docs/rules/avt.md).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from vectorwar.catalogue import design_for
from vectorwar.dice import Dice
from vectorwar.display import Card, Counter, MoveOption, News, OrderPiece, ShotOption
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.events import Event, TurnBegan
from vectorwar.hexes import Direction, Hex, Position
from vectorwar.limits import MAX_TURNS
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
    PromptRule,
    Result,
    RuleSystem,
)
from vectorwar.scenario import Scenario
from vectorwar.systems.avt import catalogue, diagrams, display, ghosts, news, pieces, prospects
from vectorwar.systems.avt.bots import GreedyBot
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.events import SegmentBegan
from vectorwar.systems.avt.fire import aim_choices, laser_targets, shot_problem
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders, Shot, parse_orders
from vectorwar.systems.avt.orientation import Orientation, pivot_path, pivot_paths, wedges
from vectorwar.systems.avt.repairs import HEAT_SINK_USE, damaged_systems, repairable, system_key
from vectorwar.systems.avt.segment import resolve_segment
from vectorwar.systems.avt.ssd import repair_teams, thrust_limit
from vectorwar.systems.avt.start import starts
from vectorwar.systems.avt.state import AVTState, Ship, when
from vectorwar.vectors import Velocity

RULE_ORDERS = "AV:T (A5.212) orders step"
RULE_THRUST = "AV:T (A5.242) change thrust"
RULE_PIVOT = "AV:T (A5.222) pivots"
RULE_ROLL = "AV:T (A2.4) rolls"
RULE_FIRE = "AV:T (A5.166) firing"
RULE_REACTORS = "AV:T (A5.39, A5.392) reactors are chosen for the next turn"
RULE_RADIATORS = "AV:T (A5.391) radiators"
RULE_AIM = "AV:T (A5.431) boundary regions"
RULE_ELECTRONICS = "AV:T (A5.457) the defender chooses the electronics box"
RULE_REPAIR = "AV:T (A5.48) repairs"
RULE_2D = "AV:T Design Note: the 2-D play experience (option three_d = false)"

#: Pivots the search bot tries for each ship beside the burns (``order_variants``): the best facings greedy sees.
#: Every one the chart allows (49) measured weaker and took up to 2 s a decision (the history of docs/bots.md).
PIVOT_VARIANTS = 16

#: The help's sample orders, each legal at the start of sample game one (avt-drift); a pivot and a roll
#: are shown apart because a ship makes one facing change at a time.
EXAMPLE = "Rafik thrust 5, bias A, pivot B/C, fire A1>Square A2>Square"
ROLL_EXAMPLE = "roll stbd 1"
HELP = (
    f"per ship: '{EXAMPLE}' (one facing change at a time: '{ROLL_EXAMPLE}' in place of the pivot; "
    "shots separated by spaces); 'aim nose-top' on a boundary, 'electronics sensors', 'repair reactors'; "
    "for the end of the turn 'reactors off', 'radiators out' (out is the surrender signal); "
    "ships separated by ';'; 'hold' changes nothing"
)

MANIFEST = Manifest(
    name="avt",
    title="Attack Vector: Tactical (the tutorial: movement, bearings, lasers, damage, power and heat)",
    source="../shared/seeds/002_6f6bbe4033d6a8ea.txt (Ad Astra Games, 2011; introduction and tutorial)",
    phases=(
        PhaseSpec("plotting", "Plotting: each future position marker is placed from the movement grid"),
        PhaseSpec("orders", "Orders: every side writes its orders for the segment", "orders", True),
        PhaseSpec("fire", "Reveal fire and long orders: lasers fire from where the ships are now"),
        PhaseSpec("thrust", "Resolve thrust: a cell of the thrust chart, its dots and displacement"),
        PhaseSpec("movement", "Movement: ships move to their future positions, facing changes advance"),
        PhaseSpec("break", "Thrust break check: off the chart, facing change done, or engine off"),
    ),
    dice=("d10",),
    options=(
        OptionSpec(
            "three_d",
            True,
            "3-D play (default). false is the text's 2-D option: no altitude, amber ring only, "
            "orthogonal thrust only, middle row of the firing arcs",
        ),
        OptionSpec(
            "laser_d_entries",
            "chance",
            "What a Dn entry of a laser table scores: chance (default: 1 point on a second d10 of n or less) "
            "or none (docs/rulings.md, AV:T laser D entries)",
            ("chance", "none"),
        ),
        OptionSpec(
            "laser_pools",
            "ship",
            "Lasers at a ship: one ship's hits in a segment are one pool (ship, default) or each hit its own "
            "(each) (docs/rulings.md, AV:T adding laser damage)",
            ("ship", "each"),
        ),
        OptionSpec(
            "hull_depth",
            "boxes",
            "What counts toward hull depth: every box marked counts at least one point (boxes, default, as the "
            "71-point example) or only damage points absorbed (points) (docs/rulings.md, AV:T hull depth counts boxes)",
            ("boxes", "points"),
        ),
        OptionSpec(
            "surrender",
            "ends",
            "Extending radiators signals surrender (A5.391): the game ends there (ends, default) or plays on "
            "(play-on) (docs/rulings.md, AV:T surrender)",
            ("ends", "play-on"),
        ),
        OptionSpec(
            "disengagement",
            0,
            "Turns the sides are given to close: at a turn break, sides out of every laser's range that could not "
            "come within it in that many turns even burning flat out end the game, a draw (0, default: off, as the "
            "text; the duels set 3) (docs/rulings.md, AV:T disengagement)",
            least=0,
            most=MAX_TURNS,
        ),
        OptionSpec(
            HEAT_SINK_USE,
            "takes-heat",
            "When the heat sinks count as used, failing their repair (A5.48): in a turn that puts heat into them "
            "(takes-heat, default) or whenever they hold any (holds-heat) (docs/rulings.md, AV:T repairs)",
            ("takes-heat", "holds-heat"),
        ),
    ),
    segments_per_turn=8,
    max_sides=6,
)


class AttackVector(RuleSystem[AVTState]):
    manifest = MANIFEST
    state_type = AVTState
    # The rules every AV:T game plays by (the duels, and any scenario but the sample games).
    prompt_rules = (
        ("orders", "avt", "Thrust"),
        ("orders", "avt", "Pivots"),
        ("orders", "avt", "Rolls"),
        ("orders", "avt", "A5.245"),
        ("orders", "avt", "A5.272"),
        ("orders", "avt", "A5.371"),
        ("orders", "avt", "A5.431"),
        ("orders", "avt", "A5.392"),
    )

    def scenario_rules(self) -> Mapping[str, tuple[PromptRule, ...]]:
        """The sample games link the steps of their lesson (sample game one's chocolates only there)."""
        lessons = {
            "avt-drift": ("A5.12, A5.121", "A5.13, A5.131-A5.133", "A5.113", "A5.166"),
            "avt-pivot-thrust": ("A5.222", "A5.24", "A5.242", "A5.272"),
            "avt-pitch-and-climb": ("A5.32", "A5.342-A5.343", "A5.37", "A5.371", "A5.39"),
            "avt-damage": ("A5.41", "A5.431", "A5.44", "A5.45, A5.451", "A5.48"),
        }
        return {scenario: tuple(("orders", "avt", cell) for cell in cells) for scenario, cells in lessons.items()}

    # Shots come in the same secret orders as the burns: search trials hold them (resolve_in_prospect).
    holds_fire = True

    # -- setup ----------------------------------------------------------------

    def designs(self, scenario: Scenario | None = None) -> dict[str, Design]:
        """The catalogue plus the scenario's own designs (which win on a clash)."""
        return catalogue.designs(scenario)

    def new_state(self, scenario: Scenario, options: Mapping[str, OptionValue]) -> AVTState:
        designs = self.designs(scenario)
        three_d = bool(options.get("three_d", True))
        hex_map = scenario.hex_map()
        ships: list[Ship] = []
        used: set[str] = set()
        for where, side_id, placed in scenario.placements():
            design = design_for(designs, placed, where)
            if placed.speed:
                raise ScenarioError(f"{where}.speed: AV:T ships start with a velocity ('A=6, B=3, up=1'), not speed")
            velocity = placed.start_velocity(where)
            if design.kind == "target" and not velocity.is_zero:
                raise ScenarioError(f"{where}.velocity: a target does not move")
            if not three_d:
                velocity = Velocity(velocity.dq, velocity.dr, 0)
            start = hex_map.locate(placed.at)
            altitude = placed.altitude if three_d else 0
            ships.append(
                Ship(
                    id=placed.id,
                    side=side_id,
                    design=placed.design,
                    name=design.name,
                    kind=design.kind,
                    position=Position(start, altitude),
                    velocity=velocity,
                    orientation=Orientation.level(2 * placed.direction.value),
                    fuel=design.fuel,
                    battery=design.battery,
                )
            )
            used.add(placed.design)
        # Starting states beyond a placement (orientation, fuel, thrust, bias): [special.start.<id>].
        begin = starts(scenario, designs, three_d)
        ships = [begin[s.id].apply(s) if s.id in begin else s for s in ships]
        return AVTState(
            turn=1,
            segment=1,
            phase="orders",
            sides=tuple(s.id for s in scenario.sides),
            ships=tuple(ships),
            map=hex_map,
            max_turns=scenario.max_turns,
            options=dict(options),
            designs={k: v for k, v in designs.items() if k in used},
        )

    def start(self, state: AVTState, dice: Dice) -> tuple[AVTState, list[Event]]:
        return state, [TurnBegan(state.turn), SegmentBegan(state.turn, state.segment)]

    # -- asking ---------------------------------------------------------------

    def prompt(self, state: AVTState) -> Prompt | None:
        return _prompt(state)

    def standing(self, state: AVTState) -> Mapping[str, float]:
        # A ship in the fight is worth 10, less a tenth of one for every SSD box marked on it; less, at half weight,
        # what the enemy's lasers ready and bearing now are expected to take off it (prospects.next_volleys).
        points = {
            side: sum(10.0 - 0.1 * sum(n for _, n in s.marks) for s in state.ships_of(side) if s.kind == "ship")
            for side in state.sides
        }
        if state.phase == "orders":
            for side, lost in prospects.next_volleys(state).items():
                points[side] -= prospects.NEXT_VOLLEY * lost
        return points

    def result(self, state: AVTState) -> Result | None:
        if state.phase != "over":
            return None
        scores = {side: float(sum(1 for s in state.ships if s.side != side and not s.active)) for side in state.sides}
        return Result(state.winners, state.end_reason, scores, "enemy ships out")

    # -- orders ---------------------------------------------------------------

    def parse_order(self, state: AVTState, seat: str, text: str) -> Order:
        if state.phase != "orders":
            raise OrderSyntaxError(text, "the game is over")
        own = id_lookup([s.id for s in state.ships_of(seat) if s.kind == "ship"])
        return parse_orders(text, own, id_lookup([s.id for s in state.ships]))

    def check_order(self, state: AVTState, seat: str, order: Order) -> None:
        if state.phase != "orders":
            raise IllegalOrderError(str(order), "the game is over", "game end")
        if not isinstance(order, SegmentOrders):
            raise IllegalOrderError(str(order), "segment orders are due now", RULE_ORDERS)
        self._check_entries(state, order, {s.id for s in state.ships_of(seat) if s.kind == "ship"})

    def _check_entries(self, state: AVTState, order: SegmentOrders, mine: set[str]) -> None:
        """Each entry of ``order``: one a ship, a ship of ``mine`` (the seat's ships in play), and its actions."""
        named = [o.ship for o in order.ships]
        for o in order.ships:
            if named.count(o.ship) > 1:
                raise IllegalOrderError(str(order), f"{o.ship} has two entries; give each ship one", RULE_ORDERS)
            if o.ship not in mine:
                raise IllegalOrderError(str(o), f"{o.ship} is not one of your ships in play", RULE_ORDERS)
            self._check_ship(state, o)

    def _check_ship(self, state: AVTState, o: ShipOrders) -> None:
        ship = state.ship(o.ship)
        design = state.designs[ship.design]
        text = str(o)
        if o.thrust is not None:
            limit = thrust_limit(design, ship)
            if not 0 <= o.thrust <= limit:
                raise IllegalOrderError(text, f"thrust {o.thrust} is above {ship.name}'s {limit}", RULE_THRUST)
            if o.thrust and ship.fuel - ship.chart.fuel <= 0:
                raise IllegalOrderError(text, f"{ship.id} has no fuel left", "AV:T (A5.282) fuel")
            if o.thrust and ship.radiators != "in":
                raise IllegalOrderError(
                    text,
                    f"{ship.id}'s radiators are {ship.radiators}; a ship thrusts only with them in",
                    RULE_RADIATORS,
                )
        if o.pivot is not None and o.roll:
            raise IllegalOrderError(text, "one facing change at a time: pivot or roll, not both", RULE_PIVOT)
        if (o.pivot is not None or o.roll) and ship.turning is not None:
            raise IllegalOrderError(
                text,
                f"{ship.id} is still carrying out '{ship.turning.order}' until {when(ship.turning.ends)}; "
                "one facing change at a time",
                RULE_PIVOT,
            )
        if o.pivot is not None:
            self._check_pivot(state, ship, design, o)
        if o.roll:
            if not state.three_d:
                raise IllegalOrderError(text, "rolls need altitude, which is switched off", RULE_2D)
            if abs(o.roll) > len(design.rolls):
                limit = 30 * len(design.rolls)
                raise IllegalOrderError(
                    text, f"a roll of {30 * abs(o.roll)} degrees is off the roll chart ({limit})", RULE_ROLL
                )
        self._check_shots(state, ship, design, o)
        self._check_end_of_turn_choices(ship, design, o)
        if o.repair is not None:
            self._check_repair(ship, design, o.repair, str(o))

    @staticmethod
    def _check_repair(ship: Ship, design: Design, what: str, text: str) -> None:
        key = system_key(what)
        if key in ("structure", "structural integrity"):
            raise IllegalOrderError(text, "the Structural Integrity track is not repaired in battle", RULE_REPAIR)
        if repair_teams(design, ship) < 1:
            raise IllegalOrderError(text, f"{ship.id} has no free repair team (wrenches in its Quarters)", RULE_REPAIR)
        if repairable(ship, key) < 1:
            damaged = damaged_systems(ship)
            raise IllegalOrderError(
                text,
                f"{ship.id} has no damage to {key} that a team is not already repairing "
                f"(damaged: {', '.join(damaged) or 'nothing'})",
                RULE_REPAIR,
            )

    @staticmethod
    def _check_end_of_turn_choices(ship: Ship, design: Design, o: ShipOrders) -> None:
        text = str(o)
        if o.reactors is not None and design.reactor == 0:
            raise IllegalOrderError(text, f"{ship.name} has no reactors to switch", RULE_REACTORS)
        if o.radiators is None:
            return
        if design.radiators == 0:
            raise IllegalOrderError(text, f"{ship.name} has no radiators", RULE_RADIATORS)
        if ship.radiators in ("extending", "retracting"):
            raise IllegalOrderError(
                text,
                f"{ship.id}'s radiators are {ship.radiators} this turn (a full turn either way); "
                "order them again next turn",
                RULE_RADIATORS,
            )
        if o.radiators == ship.radiators and ship.radiators_next is None:
            raise IllegalOrderError(text, f"{ship.id}'s radiators are already {ship.radiators}", RULE_RADIATORS)

    @staticmethod
    def _check_pivot(state: AVTState, ship: Ship, design: Design, o: ShipOrders) -> None:
        text = str(o)
        nose = o.pivot
        if nose is None:  # pragma: no cover - the caller checked
            return
        if not state.three_d and nose.level != 0:
            raise IllegalOrderError(text, "with altitude off the nose stays in the amber ring", RULE_2D)
        if nose == ship.orientation.nose:
            raise IllegalOrderError(text, f"{ship.id}'s nose is already at {nose}", RULE_PIVOT)
        if abs(nose.level) == 2 and nose.ray % 2:
            raise IllegalOrderError(text, "the green rings have no corner windows", RULE_PIVOT)
        path = pivot_path(ship.orientation, nose, state.three_d)
        if wedges(path) > len(design.pivots):
            raise IllegalOrderError(
                text,
                f"the quickest pivot to {nose} is {30 * wedges(path)} degrees, beyond "
                f"{ship.name}'s pivot chart ({30 * len(design.pivots)})",
                RULE_PIVOT,
            )

    @staticmethod
    def _check_shots(state: AVTState, ship: Ship, design: Design, o: ShipOrders) -> None:
        lasers = [s.laser for s in o.shots]
        power = 0
        for shot in o.shots:
            label = f"{ship.id} fire {shot}"
            if lasers.count(shot.laser) > 1:
                raise IllegalOrderError(label, f"{shot.laser} can fire once a segment", RULE_FIRE)
            try:
                target = state.ship(shot.target)
            except KeyError:
                raise IllegalOrderError(label, f"there is no ship called {shot.target!r}", RULE_FIRE) from None
            why = shot_problem(state, design, ship, shot.laser, target)
            if why is not None:
                raise IllegalOrderError(label, why, RULE_FIRE)
            power += design.mounts[design.lasers[shot.laser]].power
        if power > ship.battery:
            raise IllegalOrderError(
                str(o), f"these shots need {power} power but the batteries hold {ship.battery}", "AV:T (A5.372) power"
            )
        if o.aim is not None:
            targets = {s.target for s in o.shots if state.ship(s.target).kind == "ship"}
            struck = [aim_choices(state, ship, state.ship(t)) for t in sorted(targets)]
            choices = {r for regions in struck for r in regions}
            if not any(len(regions) > 1 for regions in struck) or o.aim not in choices:
                where = ", ".join(sorted(choices)) or "no ship"
                raise IllegalOrderError(
                    str(o),
                    f"aim {o.aim} is not the attacker's to choose: these shots strike {where}; the attacker "
                    "chooses only between the two regions of a boundary",
                    RULE_AIM,
                )
        if o.electronics is not None:
            boxes = design.ssd.electronics if design.ssd else []
            if o.electronics not in boxes or o.electronics in ship.electronics_lost:
                left = [b for b in boxes if b not in ship.electronics_lost]
                raise IllegalOrderError(
                    str(o),
                    f"{ship.id} has no electronics box {o.electronics!r} left to give up "
                    f"(it has {', '.join(left) or 'none'})",
                    RULE_ELECTRONICS,
                )

    # -- resolution -----------------------------------------------------------

    def resolve(self, state: AVTState, orders: Mapping[str, Order], dice: Dice) -> tuple[AVTState, list[Event]]:
        plots: dict[str, SegmentOrders] = {}
        for side, order in orders.items():
            if not isinstance(order, SegmentOrders):  # pragma: no cover - check_order refused it
                raise TypeError("segment orders expected")
            plots[side] = order
        return resolve_segment(state, plots, dice)

    def resolve_in_prospect(
        self, state: AVTState, orders: Mapping[str, Order], dice: Dice
    ) -> tuple[AVTState, Mapping[str, float]] | None:
        # The shots at ships are counted in expectation and not rolled (the search bot's judge, .prospects).
        plots = {side: o for side, o in orders.items() if isinstance(o, SegmentOrders)}
        lost = prospects.expected_losses(state, plots)
        before, kept = prospects.held(state, plots)
        after, _ = resolve_segment(before, kept, dice)
        return after, lost

    # -- computer players -------------------------------------------------------

    def random_order(self, state: AVTState, seat: str, rng: random.Random) -> Order:
        if state.phase != "orders":
            raise IllegalOrderError("", "the game is over", "game end")
        out: list[ShipOrders] = []
        for ship in state.ships_of(seat):
            if ship.kind != "ship":
                continue
            o = self._random_ship_orders(state, ship, rng)
            if not o.empty:
                out.append(o)
        return SegmentOrders(tuple(out))

    def bots(self) -> Mapping[str, Callable[[], Bot]]:
        return {**super().bots(), "greedy": GreedyBot}

    @staticmethod
    def _random_ship_orders(state: AVTState, ship: Ship, rng: random.Random) -> ShipOrders:
        design = state.designs[ship.design]
        o = ShipOrders(ship.id)
        if rng.random() < 0.25 and ship.fuel - ship.chart.fuel > 0:
            top = thrust_limit(design, ship) if ship.radiators == "in" else 0
            choices = [t for t in range(top + 1) if t != ship.chart.setting]
            if choices:
                o = replace(o, thrust=rng.choice(choices))
        if design.reactor and rng.random() < 0.02:
            o = replace(o, reactors=rng.random() < 0.5)
        # Radiators out is the surrender signal (A5.391): the random player never gives it with an enemy ship about.
        facing_ships = any(s.kind == "ship" for s in state.enemies_of(ship.side))
        wants = design.radiators and ship.radiators in ("in", "out") and rng.random() < 0.01
        if wants and (ship.radiators == "out" or not facing_ships):
            o = replace(o, radiators="in" if ship.radiators == "out" else "out")
        if rng.random() < 0.1:
            o = replace(o, bias=rng.choice(list(Direction)))
        if ship.turning is None and rng.random() < 0.3:
            if state.three_d and rng.random() < 0.25:
                steps = rng.randint(1, len(design.rolls))
                o = replace(o, roll=steps * rng.choice((1, -1)))
            else:
                reachable = sorted(
                    w
                    for w, path in pivot_paths(ship.orientation, state.three_d).items()
                    if path and wedges(path) <= len(design.pivots)
                )
                if reachable:
                    o = replace(o, pivot=rng.choice(reachable))
        shots: list[Shot] = []
        battery = ship.battery
        for laser, mount in design.lasers.items():
            power = design.mounts[mount].power
            if power > battery or rng.random() < 0.5:
                continue
            targets = laser_targets(state, design, ship, laser)
            if targets:
                shots.append(Shot(laser, rng.choice(targets).id))
                battery -= power
        return replace(o, shots=tuple(shots))

    # -- display (see vectorwar.systems.avt.display) ----------------------------

    def counters(self, state: AVTState) -> list[Counter]:
        return display.counters(state)

    def move_options(self, state: AVTState, seat: str) -> Mapping[str, Sequence[MoveOption]]:
        return ghosts.move_options(state, seat)

    def with_move(self, state: AVTState, seat: str, order: Order, ship: str, move: MoveOption) -> Order:
        # A ship's entry carries its pivot, roll, shots and the rest beside the burn: only the burn changes,
        # so a variant of the fast bot's order still fires as it would.
        if not isinstance(order, SegmentOrders):
            raise IllegalOrderError(str(order), "segment orders are due now", RULE_ORDERS)
        given = self.parse_order(state, seat, move.text)
        burn = (given.for_ship(ship) if isinstance(given, SegmentOrders) else None) or ShipOrders(ship)
        current = order.for_ship(burn.ship)
        return order.with_entry(burn if current is None else replace(current, thrust=burn.thrust, bias=burn.bias))

    def order_variants(self, state: AVTState, seat: str, order: Order) -> Sequence[Order]:
        # The movement menu varies the burn alone: each ship's best facings for the fight, as greedy ranks them
        # (lasers bearing and armour shown once the pivot is done), each with the rest of its entry kept.
        if not isinstance(order, SegmentOrders) or state.phase != "orders":
            return ()
        out: list[Order] = []
        for ship in state.ships_of(seat):
            if ship.kind != "ship" or not ship.active:
                continue
            given = order.for_ship(ship.id) or ShipOrders(ship.id)
            for pivot in GreedyBot().pivot_choices(state, ship, PIVOT_VARIANTS):
                if pivot != given.pivot:
                    out.append(order.with_entry(replace(given, pivot=pivot)))
        return out

    def fire_options(self, state: AVTState, seat: str) -> Mapping[str, Sequence[ShotOption]]:
        return display.fire_options(state, seat)

    def decision_news(self, before: AVTState, after: AVTState, seat: str) -> Sequence[News]:
        """A laser ready with a new target, a target out of an arc, damage, a repair's end (:mod:`.news`)."""
        return news.decision_news(before, after, seat)

    def order_pieces(self, state: AVTState, seat: str) -> Mapping[str, Sequence[OrderPiece]]:
        """Bias, pivots, rolls, reactors and radiators (:mod:`.pieces`), each one the order check accepts alone."""
        if state.phase != "orders" or seat not in state.commanders():
            return {}
        # What parse_order and check_order work out from the state for every order, once for all the pieces.
        own = id_lookup([s.id for s in state.ships_of(seat) if s.kind == "ship"])
        everyone = id_lookup([s.id for s in state.ships])
        mine = {s.id for s in state.ships_of(seat) if s.kind == "ship"}
        out: dict[str, list[OrderPiece]] = {}
        for ship in state.ships_of(seat):
            if ship.kind != "ship" or not ship.active:
                continue
            legal = [
                p
                for p in pieces.candidates(state, ship)
                if self._legal(state, f"{ship.id} {p.text}", own, everyone, mine)
            ]
            if legal:
                out[ship.id] = legal
        return out

    def _legal(self, state: AVTState, text: str, own: dict[str, str], everyone: dict[str, str], mine: set[str]) -> bool:
        """Whether ``text`` passes the checks :meth:`vectorwar.game.Game.check` makes of it now: :meth:`parse_order`
        and :meth:`check_order` in the orders phase, with what they read from the state handed in."""
        try:
            self._check_entries(state, parse_orders(text, own, everyone), mine)
        except (OrderSyntaxError, IllegalOrderError):
            return False
        return True

    def ship_cards(self, state: AVTState) -> list[Card]:
        return display.ship_cards(state)

    def arc_hexes(self, state: AVTState, ship_id: str) -> dict[str, frozenset[Hex]]:
        return display.arc_hexes(state, ship_id)

    def geomorphic(self, state: AVTState) -> bool:
        """Yes: another sheet is laid down at the edge (A2.4), so ships fly on (rulings: *AV:T geomorphic map*)."""
        return True

    def range_words(self, state: AVTState, origin: Counter, target: Counter) -> str:
        return display.range_words(state, origin, target)

    def diagrams(self, state: AVTState) -> dict[str, Any]:
        """Each ship's AVID and firing arc diagrams (:mod:`.diagrams`)."""
        return diagrams.diagrams(state)


@last_answer  # a game and its bots ask a segment's prompt three or four times of one state
def _prompt(state: AVTState) -> Prompt | None:
    if state.phase != "orders":
        return None
    clock = Clock(state.turn, "orders", segment=state.segment)
    return Prompt(clock, state.commanders(), "orders", True, HELP)


system = AttackVector()
