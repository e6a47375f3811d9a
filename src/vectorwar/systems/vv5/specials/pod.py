"""VV5 scenario 4, Stasis Pod.

An orbited body sits at the centre of the map with the pod next to it; a die
decides what else is there (1 an asteroid field down the centre sections C, H
and M, 2 a defence platform, 3 the body is a large asteroid, 4-6 it is a
strangely dense body of gravity 1-3). Starships that swapped a missile for a
traction unit (loadout ``traction``) try to grab the pod in the Boarding
Actions phase from a hex next to it: 1D6 over their velocity succeeds; when
rivals both succeed the faster one gets it, equal speeds roll off. The pod
rides with its holder and drops where the holder is lost. A side wins by
taking the pod off the board within 5 hexes of its starting corner; off
anywhere else the game is drawn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from vectorwar.dice import Dice
from vectorwar.errors import ScenarioError
from vectorwar.events import Event, Note, Rolled
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.scenario import validate_model
from vectorwar.systems.vv5 import catalogue
from vectorwar.systems.vv5.equipment import build_ship
from vectorwar.systems.vv5.specials.base import Special, homeward, resting_place, whole_game
from vectorwar.systems.vv5.state import PodState, Ship, VV5State
from vectorwar.vectors import Velocity

Feature = Literal["roll", "asteroid-field", "adp", "asteroid", "dense-1", "dense-2", "dense-3"]
FEATURES: dict[int, str] = {1: "asteroid-field", 2: "adp", 3: "asteroid", 4: "dense-1", 5: "dense-2", 6: "dense-3"}
FIELD_SECTIONS = ("C", "H", "M")


class PodSpec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["stasis-pod"]
    body: str | None = Field(
        default=None, description="Hex of the orbited body, e.g. H@4,3; leave out to have the players place it"
    )
    pod: str | None = Field(default=None, description="Hex of the pod, next to the body (with body)")
    feature: Feature = Field(default="roll", description="What is near the pod; 'roll' rolls the text's d6 table")
    corners: dict[str, str] = Field(description="Each side's starting corner hex")
    exit_radius: int = Field(default=5, ge=0)


class StasisPod(Special):
    kind = "stasis-pod"
    ends_on_elimination = False

    def set_up(self, state: VV5State, table: dict[str, Any], source: str) -> VV5State:
        spec = validate_model(PodSpec, table, source, ("special",))
        placing: tuple[str, ...] = ()
        body_at, pod_at = spec.body, spec.pod
        if (body_at is None) != (pod_at is None):
            raise ScenarioError(f"{source}: special: give both body and pod, or neither (the players place them)")
        if body_at is None or pod_at is None:
            # The text: one player puts the body at the centre, the other the pod next to it
            # (docs/rulings/vv5.md, *VV5 placing the body and the pod*). Until then both sit at the centre.
            if len(state.sides) < 2:
                raise ScenarioError(f"{source}: sides: two players place the body and the pod")
            placing = (f"{state.sides[0]}:body", f"{state.sides[1]}:pod")
            c0, r0, c1, r1 = state.map.extent
            centre = Hex.from_offset((c0 + c1) // 2, (r0 + r1) // 2)
            body_at, pod_at = str(centre), str(centre.neighbour(Direction.B))
        try:
            body, pod = state.map.locate(body_at), state.map.locate(pod_at)
            corners = tuple((side, state.map.locate(at)) for side, at in sorted(spec.corners.items()))
        except (KeyError, ValueError) as err:
            raise ScenarioError(f"{source}: special: {err.args[0]}") from None
        if body.distance(pod) != 1:
            raise ScenarioError(f"{source}: special.pod: the pod must be next to the body ({pod_at} is not)")
        missing = set(state.sides) - {side for side, _ in corners}
        if missing:
            raise ScenarioError(f"{source}: special.corners: no corner for {', '.join(sorted(missing))}")
        for side, _ in corners:
            if side not in state.sides:
                raise ScenarioError(f"{source}: special.corners: {side!r} is not a side of this scenario")
        return replace(
            state,
            special=PodState(
                "stasis-pod", pod, body, corners=corners, exit_radius=spec.exit_radius, feature=spec.feature
            ),
            placing=placing,
        )

    def begin(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        pod = _pod(state)
        feature = pod.feature
        if feature == "roll":
            roll = dice.roll("d6", "what is near the stasis pod")
            events.append(Rolled.of(roll))
            feature = FEATURES[roll.total]
        events.append(Note(f"near the stasis pod: {feature}"))
        body = pod.body
        terrain = [(h, k) for h, k in state.map.terrain if h not in (body, pod.pod)]
        terrain.append((body, feature if feature.startswith("dense-") else "asteroid"))
        if feature == "asteroid-field":
            for name in FIELD_SECTIONS:
                try:
                    section = state.map.section(name)
                except KeyError:
                    continue
                terrain.extend((h, "asteroid-field") for h in section.hexes() if h not in (body, pod.pod))
        state = replace(state, map=HexMap(state.map.sections, tuple(terrain)), special=replace(pod, feature=feature))
        if feature == "adp":
            state = _place_platform(state, body, pod.pod)
        return state

    def after_movement(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        pod = _pod(state)
        if not pod.holder:
            return state
        holder = state.ship(pod.holder)
        if holder.status == "exited":
            return replace(state, special=replace(pod, pod=holder.hex, exited_at=holder.hex))
        if not holder.active:
            events.append(Note(f"the stasis pod drifts free where {holder.id} was lost, at {holder.hex}"))
            return replace(state, special=replace(pod, pod=holder.hex, holder=""))
        return replace(state, special=replace(pod, pod=holder.hex))

    def boarding(self, state: VV5State, dice: Dice, events: list[Event]) -> VV5State:
        pod = _pod(state)
        if pod.holder:
            return state
        grabbers = [s for s in tugs(state) if s.hex.distance(pod.pod) == 1]
        caught = []
        for ship in grabbers:
            roll = dice.roll(
                "d6", f"{ship.id} grapples the stasis pod (needs more than velocity {ship.velocity.speed})"
            )
            events.append(Rolled.of(roll))
            if roll.total > ship.velocity.speed:
                caught.append(ship)
        if not caught:
            return state
        fastest = max(s.velocity.speed for s in caught)
        caught = [s for s in caught if s.velocity.speed == fastest]
        while len({s.side for s in caught}) > 1:
            rolls = {}
            for s in caught:
                roll = dice.roll("d6", f"contested grab of the pod: {s.id}")
                events.append(Rolled.of(roll))
                rolls[s.id] = roll.total
            best = max(rolls.values())
            caught = [s for s in caught if rolls[s.id] == best]
        winner = caught[0]
        events.append(Note(f"{winner.id} has the stasis pod in its traction beam"))
        return replace(state, special=replace(pod, holder=winner.id, pod=winner.hex))

    def game_over(self, state: VV5State) -> str | None:
        pod = _pod(state)
        if pod.exited_at is not None:
            return f"the stasis pod left the board at {pod.exited_at}"
        # Nobody can win once no ship in play can grab the free pod: the draw the turn limit would bring, now
        # (docs/rulings/vv5.md, "VV5 the Stasis Pod out of reach").
        if not pod.holder and not tugs(state):
            return "no ship left in play can take the stasis pod"
        return None

    def progress(self, state: VV5State) -> dict[str, float]:
        # Only the pod taken home wins, which no VP counts: a trial stopped early gives the side holding it
        # its way home from the body (``homeward``) against the whole game, and while it floats free each
        # side the grab it is set up to make (``approach``) against the grab's quarter of the game; and each
        # side, always, its ships still in the fight (``presence``).
        pod = _pod(state)
        prize: dict[str, float] = {}
        if not pod.holder:
            grab = whole_game(state) / 4
            for ship in tugs(state):
                chance = approach(ship.hex.distance(pod.pod), ship.velocity.speed)
                prize[ship.side] = max(prize.get(ship.side, 0.0), grab * chance)
        else:
            holder = state.ship(pod.holder)
            corner = dict(pod.corners).get(holder.side)
            if corner is not None and holder.active:
                prize[holder.side] = homeward(whole_game(state), pod.body, holder.hex, corner)
        fight = presence(state, pod.holder)
        return {
            side: fight.get(side, 0.0) + prize.get(side, 0.0) for side in state.sides if side in fight or side in prize
        }

    def decide(self, state: VV5State, points: dict[str, int]) -> tuple[tuple[str, ...], str] | None:
        pod = _pod(state)
        if pod.exited_at is None:
            return (), "nobody took the stasis pod off the board: a draw"
        side = state.ship(pod.holder).side
        corner = dict(pod.corners)[side]
        if pod.exited_at.distance(corner) <= pod.exit_radius:
            return (side,), f"{side} took the stasis pod home at {pod.exited_at}"
        return (), f"the stasis pod left the board at {pod.exited_at}, away from {side}'s corner: a draw"


def tugs(state: VV5State) -> list[Ship]:
    """The ships that can grab the pod: in play, of a side in the game, with a traction unit."""
    return [s for s in state.ships if s.active and "traction" in s.loadout and s.side in state.sides]


#: What the best approach short of the hex next to the pod counts for, as a share of a grab.
APPROACH_SHARE = 0.5
#: Hexes from the pod beyond which a traction ship's approach counts for nothing.
APPROACH_REACH = 20


#: What a side's ships still in the fight count for together, as a share of the whole game.
PRESENCE = 0.25


def presence(state: VV5State, holder: str) -> dict[str, float]:
    """Each side's share of ``PRESENCE`` by the mass of its starships still in the fight over the pod: in play
    and able to stop on the board. Not a rule: the search bot's yardstick (``progress``). Only the pod wins, so
    a ship that is lost or flies off the board takes its side's hold on the game with it, which no victory
    point counts. The side holding the pod counts whole: its ships are on their way off the board at home.
    """
    worth = whole_game(state) * PRESENCE
    holding = state.ship(holder).side if holder and state.ship(holder).active else ""
    out: dict[str, float] = {}
    for side in state.sides:
        if side in state.automated:
            continue
        if side == holding:
            out[side] = worth
            continue
        fleet = [s for s in state.ships if s.side == side]
        total = sum(s.mass for s in fleet)
        if total:
            there = sum(s.mass for s in fleet if s.active and resting_place(state, s) is not None)
            out[side] = worth * there / total
    return out


def approach(distance: int, speed: int) -> float:
    """How far a traction ship ``distance`` hexes from the free pod at ``speed`` is set up to grab it (not a
    rule: the search bot's yardstick, ``progress``): next to it, the chance of the next grab (1D6 over the
    speed); farther, a share of one, less for every hex still to go (nothing from ``APPROACH_REACH`` on) and
    for every point of speed over what it could still shed before arriving (about two hexes a turn of the
    way left).

    >>> approach(1, 1), approach(1, 6), approach(3, 1) > approach(9, 4) > approach(9, 8) == 0
    (0.8333333333333334, 0.0, True)
    >>> approach(2, 1), approach(11, 4)
    (0.475, 0.25)
    """
    if distance <= 1:
        return max(0, 6 - speed) / 6
    near = max(0.0, 1 - (distance - 1) / APPROACH_REACH)
    wanted = max(1, min(4, (distance - 1) // 2))
    slow = max(0.0, 1 - max(0, speed - wanted) / 4)
    return APPROACH_SHARE * near * slow


def _pod(state: VV5State) -> PodState:
    if not isinstance(state.special, PodState):  # pragma: no cover - only called for this scenario
        raise TypeError("not a stasis-pod game")
    return state.special


def _place_platform(state: VV5State, body: Hex, pod: Hex) -> VV5State:
    design = catalogue.designs()["adp"]
    spot = next(
        h
        for h in (pod.neighbour(d) for d in Direction)
        if h != body and state.occupant(h) is None and state.map.contains(h)
    )
    platform = build_ship("ADP1", "defences", "adp", design, hex=spot, facing=Direction.A, velocity=Velocity())
    return replace(state, ships=(*state.ships, platform), automated=(*state.automated, "defences"))
