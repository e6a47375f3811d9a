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
from vectorwar.hexes import Position
from vectorwar.limits import MAX_TURNS
from vectorwar.maps import HexSet
from vectorwar.memo import Kept, last_answer
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
from vectorwar.systems.avt.checks import RULE_ORDERS, check_entries
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.events import SegmentBegan
from vectorwar.systems.avt.held_segment import resolve_held
from vectorwar.systems.avt.orders import SegmentOrders, ShipOrders, parse_orders
from vectorwar.systems.avt.orientation import Orientation
from vectorwar.systems.avt.random_orders import random_ship_orders
from vectorwar.systems.avt.repairs import HEAT_SINK_USE
from vectorwar.systems.avt.segment import resolve_segment
from vectorwar.systems.avt.start import starts
from vectorwar.systems.avt.state import AVTState, Ship, unplaced
from vectorwar.vectors import Velocity

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
            "or none (docs/rulings/avt.md, AV:T laser D entries)",
            ("chance", "none"),
        ),
        OptionSpec(
            "laser_pools",
            "ship",
            "Lasers at a ship: one ship's hits in a segment are one pool (ship, default) or each hit its own "
            "(each) (docs/rulings/avt.md, AV:T adding laser damage)",
            ("ship", "each"),
        ),
        OptionSpec(
            "hull_depth",
            "boxes",
            "What counts toward hull depth: every box marked counts at least one point (boxes, default, as the "
            "71-point example) or only damage points absorbed (points) "
            "(docs/rulings/avt.md, AV:T hull depth counts boxes)",
            ("boxes", "points"),
        ),
        OptionSpec(
            "surrender",
            "ends",
            "Extending radiators signals surrender (A5.391): the game ends there (ends, default) or plays on "
            "(play-on) (docs/rulings/avt.md, AV:T surrender)",
            ("ends", "play-on"),
        ),
        OptionSpec(
            "disengagement",
            0,
            "Turns the sides are given to close: at a turn break, sides out of every laser's range that could not "
            "come within it in that many turns even burning flat out end the game, a draw (0, default: off, as the "
            "text; the duels set 3) (docs/rulings/avt.md, AV:T disengagement)",
            least=0,
            most=MAX_TURNS,
        ),
        OptionSpec(
            HEAT_SINK_USE,
            "takes-heat",
            "When the heat sinks count as used, failing their repair (A5.48): in a turn that puts heat into them "
            "(takes-heat, default) or whenever they hold any (holds-heat) (docs/rulings/avt.md, AV:T repairs)",
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

    def greedy_orders_legal(self, state: AVTState) -> bool:
        # Greedy builds each entry from what the check allows: a thrust within the ship's limit and only with fuel
        # and the radiators in, a pivot from the chart's reachable windows (none under way, never the nose's own
        # window), the lasers ready, bearing, in range and paid for by the battery, an aim only on a boundary,
        # reactors only on a ship that has them; never a roll, radiators, electronics or a repair.
        # tests/avt/test_fast_paths.py checks its orders in games and in held-fire trials.
        return state.phase == "orders"

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

    def parse_order(self, state: AVTState, side: str, text: str) -> Order:
        if state.phase != "orders":
            raise OrderSyntaxError(text, "the game is over")
        own = id_lookup([s.id for s in state.ships_of(side) if s.kind == "ship"])
        return parse_orders(text, own, id_lookup([s.id for s in state.ships]))

    def check_order(self, state: AVTState, side: str, order: Order) -> None:
        if state.phase != "orders":
            raise IllegalOrderError(str(order), "the game is over", "game end")
        if not isinstance(order, SegmentOrders):
            raise IllegalOrderError(str(order), "segment orders are due now", RULE_ORDERS)
        check_entries(state, order, {s.id for s in state.ships_of(side) if s.kind == "ship"})

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
        after = resolve_held(state, plots, dice)
        if after is None:  # a target on the map: the segment played whole
            before, kept = prospects.held(state, plots)
            after, _ = resolve_segment(before, kept, dice, record=False)
        return after, lost

    # -- computer players -------------------------------------------------------

    def random_order(self, state: AVTState, side: str, rng: random.Random) -> Order:
        if state.phase != "orders":
            raise IllegalOrderError("", "the game is over", "game end")
        out: list[ShipOrders] = []
        for ship in state.ships_of(side):
            if ship.kind != "ship":
                continue
            o = random_ship_orders(state, ship, rng)
            if not o.empty:
                out.append(o)
        return SegmentOrders(tuple(out))

    def bots(self) -> Mapping[str, Callable[[], Bot]]:
        return {**super().bots(), "greedy": GreedyBot}

    # -- display (see vectorwar.systems.avt.display) ----------------------------

    def counters(self, state: AVTState) -> list[Counter]:
        return display.counters(state)

    def move_options(self, state: AVTState, side: str) -> Mapping[str, Sequence[MoveOption]]:
        return ghosts.move_options(state, side)

    def with_move(self, state: AVTState, side: str, order: Order, ship: str, move: MoveOption) -> Order:
        # A ship's entry carries its pivot, roll, shots and the rest beside the burn: only the burn changes,
        # so a variant of the fast bot's order still fires as it would.
        if not isinstance(order, SegmentOrders):
            raise IllegalOrderError(str(order), "segment orders are due now", RULE_ORDERS)
        given = self.parse_order(state, side, move.text)
        burn = (given.for_ship(ship) if isinstance(given, SegmentOrders) else None) or ShipOrders(ship)
        current = order.for_ship(burn.ship)
        return order.with_entry(burn if current is None else replace(current, thrust=burn.thrust, bias=burn.bias))

    def order_variants(self, state: AVTState, side: str, order: Order) -> Sequence[Order]:
        # The movement menu varies the burn alone: each ship's best facings for the fight, as greedy ranks them
        # (lasers bearing and armour shown once the pivot is done), each with the rest of its entry kept.
        if not isinstance(order, SegmentOrders) or state.phase != "orders":
            return ()
        out: list[Order] = []
        for ship in state.ships_of(side):
            if ship.kind != "ship" or not ship.active:
                continue
            given = order.for_ship(ship.id) or ShipOrders(ship.id)
            for pivot in GreedyBot().pivot_choices(state, ship, PIVOT_VARIANTS):
                if pivot != given.pivot:
                    out.append(order.with_entry(replace(given, pivot=pivot)))
        return out

    def fire_options(self, state: AVTState, side: str) -> Mapping[str, Sequence[ShotOption]]:
        return display.fire_options(state, side)

    def decision_news(self, before: AVTState, after: AVTState, side: str) -> Sequence[News]:
        """A laser ready with a new target, a target out of an arc, damage, a repair's end (:mod:`.news`)."""
        return news.decision_news(before, after, side)

    def order_pieces(self, state: AVTState, side: str) -> Mapping[str, Sequence[OrderPiece]]:
        """Bias, pivots, rolls, reactors and radiators (:mod:`.pieces`), each one the order check accepts alone."""
        if state.phase != "orders" or side not in state.commanders():
            return {}
        # What parse_order and check_order work out from the state for every order, once for all the pieces.
        own = id_lookup([s.id for s in state.ships_of(side) if s.kind == "ship"])
        everyone = id_lookup([s.id for s in state.ships])
        mine = {s.id for s in state.ships_of(side) if s.kind == "ship"}
        out: dict[str, list[OrderPiece]] = {}
        # Ships alike but for their place (a fleet in formation) have the same candidates, and a built entry the
        # same verdict: each piece, and whether its entry was built and passed, is kept by the ship so placed.
        kept: dict[Ship, list[tuple[OrderPiece, bool | None]]] = {}
        for ship in state.ships_of(side):
            if ship.kind != "ship" or not ship.active:
                continue
            key = unplaced(ship)
            found = kept.get(key)
            if found is None:
                found = kept[key] = [
                    (
                        p,
                        None
                        if entry is None
                        else self._legal(state, f"{ship.id} {p.text}", entry, own, everyone, mine),
                    )
                    for p, entry in pieces.candidates(state, ship)
                ]
            # A piece read from its text (a repair, an electronics box) is read for each ship, as its order would be.
            legal = [
                p
                for p, verdict in found
                if verdict or (verdict is None and self._legal(state, f"{ship.id} {p.text}", None, own, everyone, mine))
            ]
            if legal:
                out[ship.id] = legal
        return out

    def _legal(
        self,
        state: AVTState,
        text: str,
        entry: ShipOrders | None,
        own: dict[str, str],
        everyone: dict[str, str],
        mine: set[str],
    ) -> bool:
        """Whether ``text`` passes the checks :meth:`vectorwar.game.Game.check` makes of it now: :meth:`parse_order`
        and :meth:`check_order` in the orders phase, with what they read from the state handed in. ``entry`` is
        the one entry ``text`` reads as, if the piece built it (a ship of the side's own), checked as it stands."""
        try:
            check_entries(state, parse_orders(text, own, everyone) if entry is None else SegmentOrders((entry,)), mine)
        except (OrderSyntaxError, IllegalOrderError):
            return False
        return True

    def ship_cards(self, state: AVTState) -> list[Card]:
        return display.ship_cards(state)

    def arc_hexes(self, state: AVTState, ship_id: str) -> dict[str, HexSet]:
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
    sides = state.commanders()
    key = (state.turn, state.segment, sides)
    found = _PROMPTS.get(key)
    if found is None:
        found = _PROMPTS.keep(
            key, Prompt(Clock(state.turn, "orders", segment=state.segment), sides, "orders", True, HELP)
        )
    return found


_PROMPTS_KEPT = 1024
#: The orders prompts (frozen values) by turn, segment and the sides giving orders: a search trial's every segment
#: asks one, and the same few come again; started again past ``_PROMPTS_KEPT``.
_PROMPTS: Kept[tuple[int, int, tuple[str, ...]], Prompt] = Kept(_PROMPTS_KEPT)


system = AttackVector()
