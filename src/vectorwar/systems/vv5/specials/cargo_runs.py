"""VV5 scenarios 2 (Strike Force), 3 (Assault Force) and 8 (Refugees): runs across the board.

One side, the *crossing* side, must fly its cargo off the board past given
edges while the *interceptor* tries to stop it:

* Strike Force: fighters carry bombs (loadout ``bombs:N``) off the left
  edge; each bomb rolls 1D6 as it leaves: 6 the target is destroyed (+5 VP),
  5 it is damaged (+1 VP), 1-4 a miss.
* Assault Force: transports carry starship troopers, one per cargo box, off
  the left edge; each intact box rolls 1D6 as it leaves: 3-6 the trooper
  lands (+3 VP), 1-2 it cannot. Each cargo box destroyed is +5 VP to the
  side that destroyed it.
* Refugees: the crossing side launches from a large asteroid at the centre,
  its transport's hull rolled for before turn 1 (Courier or Hauler); each
  cargo box of refugees carried off either narrow (left or right) edge is
  +5 VP, each one destroyed +5 VP to the interceptor.

Which edge a ship left by is worked out from the off-board hex it moved to.
The delivery rolls are made as the carrier leaves (nothing can change its
cargo after that, so rolling then or at the end is the same; docs/rulings/vv5.md).
The game ends when the crossing side has no starships left on the board, or
at the turn limit. Starships and transports score the usual victory points
(``rules.victory_points``); this module adds the scenario's own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from vectorwar.dice import Dice
from vectorwar.errors import ScenarioError
from vectorwar.events import Event, Note, Rolled
from vectorwar.hexes import Hex
from vectorwar.maps import HexMap
from vectorwar.memo import last_answer
from vectorwar.scenario import validate_model
from vectorwar.systems.vv5.movement import is_solid
from vectorwar.systems.vv5.specials.base import Special, Stake
from vectorwar.systems.vv5.specials.boarding import roll_transport
from vectorwar.systems.vv5.state import CargoRunState, Ship, VV5State

Edge = Literal["left", "right", "top", "bottom"]
RunKind = Literal["strike-force", "assault-force", "refugees"]
RULE_STRIKE = "VV5 Scenario 2 (Strike Force)"
RULE_ASSAULT = "VV5 Scenario 3 (Assault Force)"
RULE_REFUGEES = "VV5 Scenario 8 (Refugees)"

OPTION_LOST_CARGO = "cargo_lost_with_ship"
BOMB_HIT = {6: ("target destroyed", 5), 5: ("target damaged", 1)}
#: What one bomb's roll earns on average, and its variance (VP squared): 5 or 1 VP, each one time in six.
BOMB_MEAN = sum(vp for _, vp in BOMB_HIT.values()) / 6
BOMB_SPREAD = sum(vp * vp for _, vp in BOMB_HIT.values()) / 6 - BOMB_MEAN**2
TROOPER_LANDS = 3  # 1D6 of 3 or more
TROOPER_ODDS = (7 - TROOPER_LANDS) / 6  # the chance a trooper lands
TROOPER_VP = 3
CARGO_VP = 5  # a box of troopers or refugees destroyed, or a box of refugees rescued
LOST = ("destroyed", "knocked-out", "crashed")


class CargoRunSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["strike-force", "assault-force", "refugees"]
    crossing: str = Field(description="The side that must fly across the board")
    exit_edges: list[Edge] | None = Field(
        default=None, description="Edges a carrier must leave by (default: left; refugees: left and right)"
    )
    asteroid: str | None = Field(default=None, description="Refugees: the large asteroid the crossing side starts on")
    min_distance: int = Field(default=10, ge=0, description="Refugees: interceptors start at least this far away")
    placement: Literal["file", "players"] = Field(
        default="file",
        description="Where the file leaves it to the players: 'players' has the interceptors place each ship and "
        "the refugees choose their facings (Refugees), or the interceptors choose their edge (Strike and Assault "
        "Force); 'file' keeps the file's hexes and facings",
    )


def edge_of(hex_map: HexMap, h: Hex) -> str:
    """The board edge a ship crossed to reach the off-board hex ``h`` ('' if ``h`` is on the board).

    Past a corner the narrow (left or right) edge counts (docs/rulings/vv5.md).
    """
    if hex_map.contains(h):
        return ""
    c0, r0, c1, _ = hex_map.extent
    if h.col < c0:
        return "left"
    if h.col > c1:
        return "right"
    return "top" if h.row < r0 else "bottom"


def steps_to_edge(hex_map: HexMap, h: Hex, edge: str) -> int:
    """Columns (or rows) between ``h`` and the first hex beyond ``edge``."""
    c0, r0, c1, r1 = hex_map.extent
    return max(
        0, {"left": h.col - c0 + 1, "right": c1 - h.col + 1, "top": h.row - r0 + 1, "bottom": r1 - h.row + 1}[edge]
    )


def bombs_of(ship: Ship) -> int:
    return sum(1 for x in ship.launchers if x == "bomb")


def carries(ship: Ship) -> bool:
    """Does the ship hold anything worth taking across (bombs, or cargo in a transport)?"""
    return bombs_of(ship) > 0 or (ship.kind == "transport" and ship.cargo.boxes > 0)


class CargoRun(Special):
    kind: ClassVar[RunKind] = "strike-force"
    rule = RULE_STRIKE
    ends_on_elimination = False  # losing the interceptors does not fly the cargo home
    default_edges: tuple[str, ...] = ("left",)
    #: Whether the search bot's trials search the crossing side's next plot too (``runner``; not a rule).
    plans_its_run: ClassVar[bool] = False

    def set_up(self, state: VV5State, table: dict[str, Any], source: str) -> VV5State:
        spec = validate_model(CargoRunSpec, table, source, ("special",))
        if len(state.sides) != 2:
            raise ScenarioError(f"{source}: special.kind: {self.kind} is a two-sided scenario")
        if spec.crossing not in state.sides:
            raise ScenarioError(f"{source}: special.crossing: {spec.crossing!r} is not a side of this scenario")
        interceptor = next(s for s in state.sides if s != spec.crossing)
        edges = tuple(spec.exit_edges) if spec.exit_edges else self.default_edges
        run = CargoRunState(self.kind, spec.crossing, interceptor, edges, min_distance=spec.min_distance)
        state = replace(state, special=run)
        buying = state.purchase is not None and spec.crossing in state.purchase.order
        if not buying:
            # A side that buys its force is held to the same terms by the purchase (bombs, escorts).
            self.check(state, spec, source)
        if spec.placement == "players":
            if state.purchase is not None:
                raise ScenarioError(f"{source}: special.placement: the players place only forces the file gives")
            state = replace(state, placing=self.placements(state))
        return state

    def placements(self, state: VV5State) -> tuple[str, ...]:
        """What the players place before turn 1 (``placement = "players"``): the interceptors' edge."""
        return (f"{_run(state).interceptor}:edge",)

    def check(self, state: VV5State, spec: CargoRunSpec, source: str) -> None:
        """The scenario's set-up requirements on the forces."""
        bombs = sum(bombs_of(s) for s in state.ships_of(spec.crossing))
        if bombs < 2:
            raise ScenarioError(
                f"{source}: sides: {spec.crossing} must carry at least two bombs (loadout 'bombs:N'), "
                f"has {bombs} ({self.rule})"
            )

    def after_movement(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        run = _run(state)
        known = {ship_id for ship_id, _ in run.exits}
        for ship in state.ships:
            if ship.status != "exited" or ship.id in known:
                continue
            edge = edge_of(state.map, ship.hex)
            run = replace(run, exits=(*run.exits, (ship.id, edge)))
            if ship.side != run.crossing or not carries(ship):
                continue
            if edge not in run.exit_edges:
                events.append(Note(f"{ship.id} left by the {edge} edge: what it carried is out of the fight"))
                continue
            run = replace(run, deliveries=(*run.deliveries, *self.deliver(ship, dice, events)))
        return replace(state, special=run)

    def deliver(self, ship: Ship, dice: Dice, events: list[Event]) -> list[tuple[str, str, int]]:
        """What the ship's cargo earns as it leaves by a proper edge."""
        out: list[tuple[str, str, int]] = []
        for i in range(bombs_of(ship)):
            roll = dice.roll("d6", f"{ship.id} bomb {i + 1} on the target")
            events.append(Rolled.of(roll))
            what, vp = BOMB_HIT.get(roll.total, ("target missed", 0))
            events.append(Note(f"{ship.id}'s bomb {i + 1}: {what} (+{vp} VP)"))
            out.append((ship.id, f"bomb: {what}", vp))
        return out

    def expected_delivery(self, ship: Ship) -> float:
        """The VP a carrier's cargo is expected to earn if it leaves by a proper edge now."""
        return bombs_of(ship) * BOMB_MEAN

    def delivery_spread(self, ship: Ship) -> float:
        """The variance (VP squared) of what a carrier's cargo earns if it leaves by a proper edge now."""
        return bombs_of(ship) * BOMB_SPREAD

    def runner(self, state: VV5State) -> str | None:
        # Measured, not reasoned: Strike Force's bombers (fighters, whose one pass through the interceptors
        # decides most games) lost more games with their next plot searched in every trial than without it, where
        # the transports' runs gained (docs/bots.md, "Bombers plan one plot").
        return _run(state).crossing if self.plans_its_run else None

    def progress(self, state: VV5State) -> dict[str, float]:
        # Each carrier still flying is worth its expected delivery times the share of the board it has
        # crossed toward its nearest exit edge: a carrier halfway across has half its cargo's value in hand.
        run = _run(state)
        return {run.crossing: sum(self.expected_delivery(ship) * (1 - left) for ship, left in _carriers(state))}

    def at_stake(self, state: VV5State) -> Stake:
        # The cargo's worth not yet counted as progress, and the dice its delivery throws.
        run = _run(state)
        carriers = _carriers(state)
        to_come = sum(self.expected_delivery(ship) * left for ship, left in carriers)
        spread = sum(self.delivery_spread(ship) for ship, _ in carriers)
        return Stake(run.crossing, run.interceptor, to_come, spread)

    def game_over(self, state: VV5State) -> str | None:
        run = _run(state)
        if state.ships_of(run.crossing):
            return None
        return f"{run.crossing} has no starships left on the board"

    def score(self, state: VV5State, points: dict[str, int]) -> dict[str, int]:
        run = _run(state)
        points = dict(points)
        for _, _, vp in run.deliveries:
            points[run.crossing] = points.get(run.crossing, 0) + vp
        return points

    def decide(self, state: VV5State, points: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
        # Equal points are a draw: the crossing side has usually left the board, so "holding the field"
        # (the plain tie-break) would always favour the interceptor.
        run = _run(state)
        best = max(points.values())
        leaders = tuple(s for s in state.sides if points[s] == best)
        winners = leaders if len(leaders) == 1 else ()
        delivered = sum(vp for _, _, vp in run.deliveries)
        tally = ", ".join(f"{s} {v} VP" for s, v in points.items())
        return winners, f"{tally} ({delivered} VP of them from what {run.crossing} took across)"


class AssaultForce(CargoRun):
    kind: ClassVar[RunKind] = "assault-force"
    rule = RULE_ASSAULT
    plans_its_run = True

    def check(self, state: VV5State, spec: CargoRunSpec, source: str) -> None:
        ships = state.ships_of(spec.crossing)
        transports = [s for s in ships if s.kind == "transport" and s.cargo.fitted > 0]
        fighters = len(ships) - len(transports)
        wanted = max(1, (fighters + 1) // 2)
        if len(transports) != wanted:
            raise ScenarioError(
                f"{source}: sides: {spec.crossing} needs one cargo-carrying transport per element (pair) of "
                f"fighters: {wanted} for {fighters} fighter(s), has {len(transports)} ({self.rule})"
            )

    def expected_delivery(self, ship: Ship) -> float:
        troopers = ship.cargo.boxes if ship.kind == "transport" else 0
        return super().expected_delivery(ship) + troopers * TROOPER_VP * TROOPER_ODDS

    def delivery_spread(self, ship: Ship) -> float:
        troopers = ship.cargo.boxes if ship.kind == "transport" else 0
        return super().delivery_spread(ship) + troopers * TROOPER_VP * TROOPER_VP * TROOPER_ODDS * (1 - TROOPER_ODDS)

    def deliver(self, ship: Ship, dice: Dice, events: list[Event]) -> list[tuple[str, str, int]]:
        out = super().deliver(ship, dice, events)
        if ship.kind != "transport":
            return out
        for i in range(ship.cargo.boxes):
            roll = dice.roll("d6", f"{ship.id} trooper {i + 1} disembarks")
            events.append(Rolled.of(roll))
            landed = roll.total >= TROOPER_LANDS
            vp = TROOPER_VP if landed else 0
            events.append(Note(f"{ship.id}'s trooper {i + 1} {'lands' if landed else 'cannot land'} (+{vp} VP)"))
            out.append((ship.id, "trooper landed" if landed else "trooper stranded", vp))
        return out

    def score(self, state: VV5State, points: dict[str, int]) -> dict[str, int]:
        points = super().score(state, points)
        for side, boxes in cargo_destroyed(state).items():
            points[side] = points.get(side, 0) + CARGO_VP * boxes
        return points

    def damage_stake(self, state: VV5State, ship: Ship) -> tuple[float, float]:
        # A point lands on cargo on a 2 of the location die; with the option a lost transport loses every box aboard.
        if ship.side != _run(state).crossing or ship.kind != "transport" or not ship.cargo.boxes:
            return 0.0, 0.0
        with_ship = bool(state.options.get(OPTION_LOST_CARGO, False))
        return CARGO_VP / 6, float(CARGO_VP * ship.cargo.boxes) if with_ship else 0.0


class Refugees(AssaultForce):
    kind: ClassVar[RunKind] = "refugees"
    rule = RULE_REFUGEES
    default_edges = ("left", "right")

    def check(self, state: VV5State, spec: CargoRunSpec, source: str) -> None:
        if spec.asteroid is None:
            raise ScenarioError(f"{source}: special.asteroid: name the hex of the refugees' asteroid")
        try:
            rock = state.map.locate(spec.asteroid)
        except (KeyError, ValueError) as err:
            raise ScenarioError(f"{source}: special.asteroid: {err.args[0]}") from None
        if not is_solid(state.map.terrain_at(rock)):
            raise ScenarioError(f"{source}: special.asteroid: {spec.asteroid} holds no large asteroid (map.terrain)")
        ships = state.ships_of(spec.crossing)
        if not any(s.kind == "transport" and s.cargo.fitted > 0 for s in ships):
            raise ScenarioError(f"{source}: sides: {spec.crossing} needs a transport for the refugees ({self.rule})")
        for ship in ships:
            if ship.hex != rock:
                raise ScenarioError(f"{source}: sides: {ship.id} must start on the asteroid at {spec.asteroid}")
        for ship in state.enemies_of(spec.crossing):
            if ship.hex.distance(rock) < spec.min_distance:
                raise ScenarioError(
                    f"{source}: sides: {ship.id} starts {ship.hex.distance(rock)} hexes from the asteroid; "
                    f"interceptors start at least {spec.min_distance} away ({self.rule})"
                )

    def set_up(self, state: VV5State, table: dict[str, Any], source: str) -> VV5State:
        state = super().set_up(state, table, source)
        at = table.get("asteroid")
        if at is None:  # refused by ``check`` unless the side buys its force
            return state
        return replace(state, special=replace(_run(state), asteroid=state.map.locate(str(at))))

    def placements(self, state: VV5State) -> tuple[str, ...]:
        """The interceptors place each starship first, then the refugees choose each ship's facing."""
        run = _run(state)
        ships = tuple(f"{run.interceptor}:ship:{s.id}" for s in state.ships_of(run.interceptor))
        return ships + tuple(f"{run.crossing}:face:{s.id}" for s in state.ships_of(run.crossing))

    def begin(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        """The refugees' transport is randomly determined: roll the hull for each one, still on the rock."""
        run = _run(state)
        for ship in state.ships_of(run.crossing):
            if ship.kind == "transport" and ship.cargo.fitted > 0:
                state = roll_transport(state, run.crossing, ship.id, "boxes of refugees", dice, events)
        return state

    def delivery_spread(self, ship: Ship) -> float:
        return CargoRun.delivery_spread(self, ship)  # refugees carried off are certain points

    def expected_delivery(self, ship: Ship) -> float:
        refugees = ship.cargo.boxes if ship.kind == "transport" else 0
        return CargoRun.expected_delivery(self, ship) + CARGO_VP * refugees

    def deliver(self, ship: Ship, dice: Dice, events: list[Event]) -> list[tuple[str, str, int]]:
        if ship.kind != "transport" or not ship.cargo.boxes:
            return CargoRun.deliver(self, ship, dice, events)
        vp = CARGO_VP * ship.cargo.boxes
        events.append(Note(f"{ship.id} carries {ship.cargo.boxes} box(es) of refugees to safety (+{vp} VP)"))
        return [*CargoRun.deliver(self, ship, dice, events), (ship.id, f"{ship.cargo.boxes} refugee box(es)", vp)]


def cargo_destroyed(state: VV5State) -> dict[str, int]:
    """Cargo boxes of troopers or refugees lost, by the side that scores them.

    Boxes hit score for the side that hit them. With the option
    ``cargo_lost_with_ship`` (default off) the boxes still aboard a transport
    that was destroyed, knocked out or crashed are lost too, and score for
    the interceptor.
    """
    run = _run(state)
    out: dict[str, int] = {}
    with_ship = bool(state.options.get(OPTION_LOST_CARGO, False))
    for ship in state.ships:
        if ship.side != run.crossing or ship.kind != "transport":
            continue
        for side, boxes in ship.cargo_lost_by:
            if side != ship.side:
                out[side] = out.get(side, 0) + boxes
        if with_ship and ship.status in LOST and ship.cargo.boxes:
            out[run.interceptor] = out.get(run.interceptor, 0) + ship.cargo.boxes
    return out


def steer(state: VV5State, ship: Ship, end: Hex, speed: int) -> float:
    """The greedy bot's pull in these scenarios (added to its combat score for a plotted end hex).

    The crossing side runs for its exit edges, escorts staying with the
    carriers until those are across, and carriers keep their distance from the enemy; leaving by a
    proper edge outweighs the bot's usual refusal to leave the board.
    Interceptors close on the carriers' next positions.
    """
    run = _run(state)
    if ship.side == run.crossing:
        carriers = [s.vector_marker for s in state.ships_of(run.crossing) if carries(s) and s.id != ship.id]
        if not carries(ship) and carriers:
            return _escort_pull(state, run, end, carriers)
        return _runner_pull(state, run, ship, end, speed)
    targets = [s.vector_marker for s in state.ships_of(run.crossing) if carries(s)]
    targets = targets or [s.vector_marker for s in state.ships_of(run.crossing)]
    return -0.4 * min((end.distance(t) for t in targets), default=0)


def _escort_pull(state: VV5State, run: CargoRunState, end: Hex, carriers: list[Hex]) -> float:
    """An escort stays with what it escorts (``carriers``: their next positions) and leaves once that is across."""
    if not state.map.contains(end):
        return 950.0 if edge_of(state.map, end) in run.exit_edges else 0.0
    return -0.3 * min(end.distance(c) for c in carriers)


def _runner_pull(state: VV5State, run: CargoRunState, ship: Ship, end: Hex, speed: int) -> float:
    """A carrier, or a crossing ship with no carrier left to escort, heads for the nearest exit edge."""
    if not state.map.contains(end):
        return 1100.0 if edge_of(state.map, end) in run.exit_edges else 0.0
    weight = 1.0 if carries(ship) else 0.4
    # Where the ship drifts next turn if it keeps this vector counts as much as where it ends.
    drift = end.shifted(end.q - ship.hex.q, end.r - ship.hex.r)
    score = -weight * min(
        0.5 * steps_to_edge(state.map, end, e) + 0.5 * steps_to_edge(state.map, drift, e) for e in run.exit_edges
    )
    if not state.map.contains(drift) and edge_of(state.map, drift) in run.exit_edges:
        score += 3.0 + speed  # the bot's fear of drifting off the board does not apply to the way home
    if carries(ship):
        near = min((end.distance(e.vector_marker) for e in state.enemies_of(ship.side)), default=8)
        score += 0.3 * min(near, 8)
    return score


@last_answer
def _carriers(state: VV5State) -> tuple[tuple[Ship, float], ...]:
    """The crossing side's carriers still flying, each with the share of the board (0-1) it has still to cross
    toward its nearest exit edge. A search trial's standing asks it twice for one state (``progress`` and
    ``at_stake``), so the last answer is kept."""
    run = _run(state)
    c0, r0, c1, r1 = state.map.extent
    span = {"left": c1 - c0 + 1, "right": c1 - c0 + 1, "top": r1 - r0 + 1, "bottom": r1 - r0 + 1}
    return tuple(
        (ship, min(1.0, *(steps_to_edge(state.map, ship.hex, e) / span[e] for e in run.exit_edges)))
        for ship in state.ships_of(run.crossing)
        if ship.status == "active" and carries(ship)
    )


def _run(state: VV5State) -> CargoRunState:
    if not isinstance(state.special, CargoRunState):  # pragma: no cover - only called for these scenarios
        raise TypeError("not a strike-force, assault-force or refugees game")
    return state.special


CARGO_RUNS: tuple[Special, ...] = (CargoRun(), AssaultForce(), Refugees())
