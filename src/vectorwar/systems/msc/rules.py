"""Minimal Space Combat as a vectorwar rule system.

The turn (MSC 4.0): every side plots all its ships' moves in secret; the
moves are carried out together; each side rolls a die for initiative (ties
re-rolled) and the sides then declare and resolve their fire in that order,
damage applying at once. A side with nothing in range and arc is skipped.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from vectorwar.catalogue import design_for
from vectorwar.dice import Dice
from vectorwar.display import Card, CardTable, Counter, MoveOption, SetupMenu, ShotOption
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError
from vectorwar.events import Event, GameOver, InitiativeSet, LeftMap, Moved, Note, Rolled, TurnBegan
from vectorwar.hexes import Direction, Hex, Position
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
from vectorwar.systems.msc import building, catalogue, display
from vectorwar.systems.msc.arcs import Side
from vectorwar.systems.msc.bots import GreedyBot
from vectorwar.systems.msc.building import Fleet
from vectorwar.systems.msc.combat import RULE_COMBAT, shot_odds, weapon_bears
from vectorwar.systems.msc.combat import fire_weapon as _fire
from vectorwar.systems.msc.design import Design, design_from_data
from vectorwar.systems.msc.movement import allowed_speeds, check_move, sequences, trace
from vectorwar.systems.msc.orders import FireOrders, Move, Plot, Shot, parse_fire, parse_plot
from vectorwar.systems.msc.state import MSCState, Ship, TurnEntry

RULE_PLOT = "MSC 6.0 Ship Movement Orders"
RULE_EDGE = "vectorwar ruling: leaving the map (docs/rulings.md)"

PLOT_HELP = "one move per ship, e.g. 'Hawk 2L1; Kite 3' (digits = hexes forward, L/R = turn, 0 = no move)"
FIRE_HELP = "shots as SHIP SIDE>TARGET, e.g. 'Hawk F>Raven FL>Raven; Kite FR>Raven', or 'hold'"

MANIFEST = Manifest(
    name="msc",
    title="Minimal Space Combat",
    source="../shared/seeds/004_bc5643c5592641a2.txt (Timothy Swenson, 1996, freeware)",
    phases=(
        PhaseSpec("build", "Before turn 1, if the scenario says so: every side builds its ships by BP", "build", True),
        PhaseSpec("plot", "Move Orders: every side writes each ship's SPEED and move in secret", "plot", True),
        PhaseSpec("movement", "Movement: all ships carry out their moves together"),
        PhaseSpec("initiative", "Initiative: each side rolls a d6, highest is player 1, ties re-rolled"),
        PhaseSpec("fire", "Combat: player 1 declares and resolves fire, then player 2", "fire", False),
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
        ),
    ),
    max_sides=6,
)


class MinimalSpaceCombat(RuleSystem[MSCState]):
    manifest = MANIFEST
    state_type = MSCState
    setup_steps = ("build",)

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
            ships.append(_new_ship(placed.id, side_id, placed.design, design, start, placed.direction, placed.speed))
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
        )

    def start(self, state: MSCState, dice: Dice) -> tuple[MSCState, list[Event]]:
        if state.build is not None:
            return replace(state, phase="build"), [Note(f"every side builds its ships with {state.build.points} BP")]
        return state, [TurnBegan(state.turn)]

    # -- asking ---------------------------------------------------------------

    def prompt(self, state: MSCState) -> Prompt | None:
        if state.phase == "build" and state.build is not None:
            return building.prompt(state.build)
        if state.phase == "plot":
            return Prompt(Clock(state.turn, "plot"), state.sides_in_play(), "plot", True, PLOT_HELP)
        if state.phase == "fire":
            side = state.fire_order[state.firing]
            phase = f"combat, player {state.firing + 1}"
            return Prompt(Clock(state.turn, phase), (side,), "fire", False, FIRE_HELP)
        return None

    def rollout_cost(self, state: MSCState) -> float:
        # The cheapest rollouts of the four systems (a resolve ~0.05 ms): with twice the screen and the rounds a
        # decision still takes under 0.4 s, and in the duel they lift search from 68 % to 83.5 % against greedy
        # (the two seats' mean share of decisive games, 100 games a seat; docs/bots.md).
        return 0.5

    def standing(self, state: MSCState) -> Mapping[str, float]:
        # The same yardstick as the result's score: the fight left in each side is its shields.
        return {side: float(sum(s.shields for s in state.ships_of(side))) for side in state.sides}

    def result(self, state: MSCState) -> Result | None:
        if state.phase != "over":
            return None
        # MSC has no victory points: the score is the fight left in each side, its shields.
        scores = {side: float(sum(s.shields for s in state.ships_of(side))) for side in state.sides}
        return Result(state.winners, state.end_reason, scores, "shields left")

    # -- orders ---------------------------------------------------------------

    def parse_order(self, state: MSCState, seat: str, text: str) -> Order:
        own = id_lookup([s.id for s in state.ships_of(seat)])
        if state.phase == "build":
            return Fleet.parse(text)
        if state.phase == "plot":
            return parse_plot(text, own)
        if state.phase == "fire":
            return parse_fire(text, own, id_lookup([s.id for s in state.ships]))
        raise OrderSyntaxError(text, "the game is over")

    def check_order(self, state: MSCState, seat: str, order: Order) -> None:
        if state.phase == "build" and state.build is not None:
            if not isinstance(order, Fleet):
                raise IllegalOrderError(str(order), "each side's fleet is due now", building.RULE)
            taken = {s.id.lower() for s in state.ships}
            building.check(state.build, seat, order, catalogue.designs(), taken)
        elif state.phase == "plot":
            if not isinstance(order, Plot):
                raise IllegalOrderError(str(order), "movement orders are due now", RULE_PLOT)
            self._check_plot(state, seat, order)
        elif state.phase == "fire":
            if not isinstance(order, FireOrders):
                raise IllegalOrderError(str(order), "fire declarations are due now", RULE_COMBAT)
            self._check_fire(state, seat, order)
        else:
            raise IllegalOrderError(str(order), "the game is over", "game end")

    def _check_plot(self, state: MSCState, seat: str, plot: Plot) -> None:
        ships = state.ships_of(seat)
        named = [s for s, _ in plot.moves]
        for ship_id in named:
            if named.count(ship_id) > 1:
                raise IllegalOrderError(str(plot), f"{ship_id} has two moves; give one per ship", RULE_PLOT)
            if ship_id not in {s.id for s in ships}:
                raise IllegalOrderError(str(plot), f"{ship_id} is not one of your ships in play", RULE_PLOT)
        missing = [s.id for s in ships if s.id not in named]
        if missing:
            raise IllegalOrderError(
                str(plot), f"no move for {', '.join(missing)}: every ship is plotted before any moves", RULE_PLOT
            )
        edge_rule = state.options.get("map_edge") == "forbid"
        strict = bool(state.options.get("strict_turn_spacing"))
        for ship_id, move in plot.moves:
            ship = state.ship(ship_id)
            check_move(ship, move, strict)
            if edge_rule and self._leaves_map(state, ship, move) and self._can_stay(state, ship, strict):
                raise IllegalOrderError(
                    f"{ship_id} {move}", "this move leaves the map (option map_edge = forbid)", RULE_EDGE
                )

    @staticmethod
    def _leaves_map(state: MSCState, ship: Ship, move: Move) -> bool:
        path, _ = trace(ship.hex, ship.facing, move)
        return not all(state.map.contains(h) for h in path)

    def _legal_moves(self, state: MSCState, ship: Ship, strict: bool) -> list[Move]:
        moves = [Move(steps) for speed in allowed_speeds(ship) for steps in sequences(speed)]
        if strict and ship.ended_last_move_turning:
            moves = [m for m in moves if m.steps[:1] not in (("L",), ("R",))]
        return moves

    def _can_stay(self, state: MSCState, ship: Ship, strict: bool) -> bool:
        return any(not self._leaves_map(state, ship, m) for m in self._legal_moves(state, ship, strict))

    def _check_fire(self, state: MSCState, seat: str, orders: FireOrders) -> None:
        used: set[tuple[str, Side]] = set()
        for shot in orders.shots:
            label = f"{shot.ship} {shot.weapon}>{shot.target}"
            if (shot.ship, shot.weapon) in used:
                raise IllegalOrderError(label, "each weapon may fire once per turn", "MSC 7.0 Combat")
            used.add((shot.ship, shot.weapon))
            if shot.ship not in {s.id for s in state.ships_of(seat)}:
                raise IllegalOrderError(label, f"{shot.ship} is not one of your ships in play", RULE_COMBAT)
            try:
                target = state.ship(shot.target)
            except KeyError:
                raise IllegalOrderError(label, f"there is no ship called {shot.target!r}", RULE_COMBAT) from None
            if target.side == seat:
                raise IllegalOrderError(label, f"{target.id} is on your own side", RULE_COMBAT)
            if not target.active:
                raise IllegalOrderError(label, f"{target.id} is {target.status}", RULE_COMBAT)
            why = weapon_bears(state.map, state.ship(shot.ship), shot.weapon, target)
            if why is not None:
                raise IllegalOrderError(label, why, RULE_COMBAT)

    def legal_shots(self, state: MSCState, seat: str) -> list[Shot]:
        """Every (ship, weapon, target) the side could declare now."""
        return [
            Shot(ship.id, side, target.id)
            for ship in state.ships_of(seat)
            for side in ship.weapons
            for target in state.enemies_of(seat)
            if weapon_bears(state.map, ship, side, target) is None
        ]

    # -- resolution -----------------------------------------------------------

    def resolve(self, state: MSCState, orders: Mapping[str, Order], dice: Dice) -> tuple[MSCState, list[Event]]:
        events: list[Event] = []
        if state.phase == "build" and state.build is not None:
            fleets = {side: o for side, o in orders.items() if isinstance(o, Fleet)}
            built = [
                _new_ship(ship_id, side, key, design, at, facing, speed)
                for ship_id, side, key, design, at, facing, speed in building.place(
                    state.build, fleets, catalogue.designs(), events
                )
            ]
            state = replace(state, ships=(*state.ships, *built), build=None, phase="plot")
            events.append(TurnBegan(state.turn))
            if len(state.sides_in_play()) <= 1:
                state = self._end(state, "elimination", events)
            return state, events
        if state.phase == "plot":
            state = self._move(state, orders, events)
            state = self._after_movement(state, dice, events)
        elif state.phase == "fire":
            side = state.fire_order[state.firing]
            fire = orders[side]
            if not isinstance(fire, FireOrders):  # pragma: no cover - check_order refused it
                raise TypeError("fire orders expected")
            state = self._fire(state, fire, dice, events)
            state = self._next_firer(replace(state, firing=state.firing + 1), dice, events)
        return state, events

    def _move(self, state: MSCState, orders: Mapping[str, Order], events: list[Event]) -> MSCState:
        for plot in orders.values():
            if not isinstance(plot, Plot):  # pragma: no cover - check_order refused it
                raise TypeError("plot expected")
            for ship_id, move in plot.moves:
                ship = state.ship(ship_id)
                path, facing = trace(ship.hex, ship.facing, move)
                exit_at = next((i for i, h in enumerate(path) if not state.map.contains(h)), None)
                shown = path if exit_at is None else path[: exit_at + 1]
                entry = TurnEntry(state.turn, move.speed, str(move))
                moved = replace(ship, hex=shown[-1], facing=facing, speed=move.speed, record=(*ship.record, entry))
                events.append(Moved(ship_id, str(move), tuple(Position(h) for h in shown), facing))
                if exit_at is not None:
                    moved = replace(moved, status="disengaged")
                    events.append(LeftMap(ship_id, Position(shown[-1])))
                state = state.with_ship(moved)
        return state

    def _after_movement(self, state: MSCState, dice: Dice, events: list[Event]) -> MSCState:
        if len(state.sides_in_play()) <= 1:
            return self._end(state, "elimination", events)
        order = self._initiative(state.sides_in_play(), dice, events)
        events.append(InitiativeSet(order))
        return self._next_firer(replace(state, phase="fire", fire_order=order, firing=0), dice, events)

    @staticmethod
    def _initiative(sides: tuple[str, ...], dice: Dice, events: list[Event]) -> tuple[str, ...]:
        """Highest roll first; any sides tied re-roll among themselves (MSC 4.0)."""
        rolls: dict[str, int] = {}
        for side in sides:
            roll = dice.roll("d6", f"initiative for {side}")
            events.append(Rolled.of(roll))
            rolls[side] = roll.total
        order: list[str] = []
        for value in sorted(set(rolls.values()), reverse=True):
            tied = tuple(s for s in sides if rolls[s] == value)
            order.extend(tied if len(tied) == 1 else MinimalSpaceCombat._initiative(tied, dice, events))
        return tuple(order)

    def _fire(self, state: MSCState, fire: FireOrders, dice: Dice, events: list[Event]) -> MSCState:
        if not fire.shots:
            events.append(Note(f"{state.fire_order[state.firing]} holds fire"))
        for shot in fire.shots:
            target = state.ship(shot.target)
            if not target.active:
                events.append(
                    Note(f"{shot.ship}'s {shot.weapon} shot is lost: {shot.target} is already {target.status}")
                )
                continue
            state = state.with_ship(_fire(state.map, state.ship(shot.ship), shot.weapon, target, dice, events))
        return state

    def _next_firer(self, state: MSCState, dice: Dice, events: list[Event]) -> MSCState:
        while state.firing < len(state.fire_order):
            side = state.fire_order[state.firing]
            if not state.ships_of(side):
                pass  # wiped out earlier this turn: no combat phase, nothing to report
            elif self.legal_shots(state, side):
                return state
            else:
                events.append(Note(f"{side} has no target in range and arc"))
            state = replace(state, firing=state.firing + 1)
        return self._end_turn(state, events)

    def _end_turn(self, state: MSCState, events: list[Event]) -> MSCState:
        if len(state.sides_in_play()) <= 1:
            return self._end(state, "elimination", events)
        if state.turn >= state.max_turns:
            return self._end(state, f"turn limit {state.max_turns} reached", events, draw=True)
        state = replace(state, turn=state.turn + 1, phase="plot", fire_order=(), firing=0)
        events.append(TurnBegan(state.turn))
        return state

    @staticmethod
    def _end(state: MSCState, reason: str, events: list[Event], draw: bool = False) -> MSCState:
        winners = () if draw else state.sides_in_play()
        if not winners and not draw:
            reason = "no side has a ship left in the battle"
        events.append(GameOver(winners, reason))
        return replace(state, phase="over", winners=winners, end_reason=reason)

    # -- computer players -------------------------------------------------------

    def _plottable(self, state: MSCState, ship: Ship) -> list[Move]:
        """The moves ``ship`` may plot now, with the map-edge option applied."""
        strict = bool(state.options.get("strict_turn_spacing"))
        options = self._legal_moves(state, ship, strict)
        if state.options.get("map_edge") == "forbid":
            # Leaving is only forbidden while some move stays on the map.
            staying = [m for m in options if not self._leaves_map(state, ship, m)]
            options = staying or options
        return options

    def random_order(self, state: MSCState, seat: str, rng: random.Random) -> Order:
        if state.phase == "build" and state.build is not None:
            return building.random_fleet(state.build, seat, catalogue.designs(), rng)
        if state.phase == "plot":
            return Plot(tuple((ship.id, rng.choice(self._plottable(state, ship))) for ship in state.ships_of(seat)))
        if state.phase == "fire":
            shots: list[Shot] = []
            for ship in state.ships_of(seat):
                for side in ship.weapons:
                    targets = [t for t in state.enemies_of(seat) if weapon_bears(state.map, ship, side, t) is None]
                    choice = rng.choice([None, *targets])
                    if choice is not None:
                        shots.append(Shot(ship.id, side, choice.id))
            return FireOrders(tuple(shots))
        raise IllegalOrderError("", "the game is over", "game end")

    def bots(self) -> Mapping[str, Callable[[], Bot]]:
        return {**super().bots(), "greedy": GreedyBot}

    # -- display (see vectorwar.systems.msc.display) ----------------------------

    def move_options(self, state: MSCState, seat: str) -> Mapping[str, Sequence[MoveOption]]:
        if state.phase != "plot" or seat not in state.sides_in_play():
            return {}
        return {ship.id: display.move_options(ship, self._plottable(state, ship)) for ship in state.ships_of(seat)}

    def edge_rule(self, state: MSCState) -> tuple[str, str]:
        if state.options.get("map_edge") == "forbid":
            return ("allowed only because every move of this ship does (option map_edge = forbid)", RULE_EDGE)
        return ("the ship disengages and leaves the battle (option map_edge = disengage)", RULE_EDGE)

    def fire_options(self, state: MSCState, seat: str) -> Mapping[str, Sequence[ShotOption]]:
        prompt = self.prompt(state)
        if state.phase != "fire" or prompt is None or seat not in prompt.seats:
            return {}
        options: dict[str, list[ShotOption]] = {}
        for shot in self.legal_shots(state, seat):
            piece = f"{shot.weapon}>{shot.target}"
            odds = shot_odds(state.ship(shot.ship), shot.weapon, state.ship(shot.target))
            label = f"{shot.weapon.words} weapon"
            option = ShotOption(str(shot.weapon), shot.target, piece, label, odds, 1, 1, RULE_COMBAT)
            options.setdefault(shot.ship, []).append(option)
        return options

    def counters(self, state: MSCState) -> list[Counter]:
        return display.counters(state)

    def ship_cards(self, state: MSCState) -> list[Card]:
        return display.ship_cards(state)

    def arc_hexes(self, state: MSCState, ship_id: str) -> dict[str, frozenset[Hex]]:
        return display.arc_hexes(state, ship_id)

    def setup_menu(self, state: MSCState, seat: str) -> SetupMenu | None:
        if state.phase != "build" or state.build is None:
            return None
        return building.menu(state.build, seat, catalogue.designs())

    def catalogue_table(self) -> CardTable:
        return display.catalogue_table(self.designs())

    def design_cards(self, tables: Mapping[str, Any], source: str) -> list[Card] | None:
        return [display.design_card(k, design_from_data(v, source, k)) for k, v in tables.items()]

    def design_schema(self) -> dict[str, Any]:
        return Design.model_json_schema()


system = MinimalSpaceCombat()


def _new_ship(ship_id: str, side: str, key: str, design: Design, at: Hex, facing: Direction, speed: int) -> Ship:
    """A ship fresh from the yard: its Ship Turn Record with every oval open."""
    return Ship(
        id=ship_id,
        side=side,
        design=key,
        name=design.name,
        engine_rating=design.engine,
        shield_rating=design.shields,
        to_hit=design.to_hit,
        weapons_fitted=design.weapon_sides,
        hex=at,
        facing=facing,
        speed=speed,
        engine=design.engine,
        shields=design.shields,
        weapons=design.weapon_sides,
    )
