"""VMS game state: plain, frozen data.

A ship carries its movement record (hex, vector, facing, rotation speed, the
thrust and rotation limit lost to damage), what it did this turn (the subphase it moves in,
thrust by direction, hexsides turned, the vector it started with, for the
current/next record pair) and its combat module's card, which only the
module reads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from vectorwar.combat.base import Status
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.roster import Roster
from vectorwar.rules import OptionValue
from vectorwar.systems.vms.modifiers import InitiativeModifier
from vectorwar.systems.vms.modules import CombatCard
from vectorwar.systems.vms.ships import Design
from vectorwar.vectors import Velocity

Phase = Literal["initiative", "plot", "fire-order", "fire", "over"]


# A ship and the state keep their fields in an instance dictionary, not slots (as VV5's do): a turn copies them
# dozens of times (roster.replace_fields), and a dictionary's copy is one step where slots are stored a field at a
# time (a ship has some thirty).
@dataclass(frozen=True)
class VMSShip:
    id: str
    side: str
    design: str
    name: str
    spec: Design  # the movement data of the design, kept so resolution needs no catalogue
    hex: Hex
    velocity: Velocity
    facing: Direction
    card: CombatCard
    rotation: int = 0  # hexsides/turn, + clockwise (large ships only); whole hexsides under the advanced variant
    # The advanced rotation variant's exact rate and the part-hexside carried,
    # in units of 1/(start x stop) hexside (rotation:AdvancedRotation).
    spin_rate: int = 0
    spin_carried: int = 0
    status: Status = "active"
    thrust_lost: int = 0
    rotation_limit_lost: int = 0  # hexsides of the class limit lost to hull damage
    initiative_modifiers: tuple[InitiativeModifier, ...] = ()  # the scenario's, beside the sheet's
    # This turn:
    choices: tuple[str, ...] = ()  # subphases initiative allows, the normal one first
    initiative_roll: int = 0
    subphase: str = ""
    moved: bool = False
    start_hex: Hex | None = None
    start_velocity: Velocity = Velocity(0, 0)  # noqa: RUF009 - a frozen value, safe to share
    start_rotation: int = 0
    start_facing: Direction = Direction.A
    thrust: tuple[tuple[Direction, int], ...] = ()  # hexes of velocity change bought, by direction
    thrust_used: int = 0
    hexsides_turned: int = 0
    overspeed: int = 0
    plot: str = ""

    @property
    def active(self) -> bool:
        return self.status == "active"

    def initiative_terms(self, turn: int) -> tuple[int, ...]:
        """Every initiative modifier holding on ``turn``: the sheet's, then the scenario's."""
        return (self.spec.initiative, *[m.value for m in self.initiative_modifiers if m.applies(turn)])


@dataclass(frozen=True)
class VMSState(Roster[VMSShip]):
    turn: int
    phase: Phase
    sides: tuple[str, ...]
    ships: tuple[VMSShip, ...]
    map: HexMap
    max_turns: int
    options: dict[str, OptionValue]
    subphase: str = ""
    fire_order: tuple[str, ...] = ()
    firing: int = 0
    #: The side holding the combat module's fire initiative, kept from turn to turn (VV5: a tie keeps it).
    initiative: str = ""
    winners: tuple[str, ...] = ()
    end_reason: str = ""

    @property
    def combat(self) -> str:
        return str(self.options["combat"])

    def choosers(self, side: str) -> tuple[VMSShip, ...]:
        """The side's ships whose initiative roll lets them choose their subphase this turn."""
        return tuple([s for s in self.ships_of(side) if len(s.choices) > 1])

    def movers(self, side: str) -> tuple[VMSShip, ...]:
        """The side's ships that plot now: those of the subphase moving, not yet moved."""
        return tuple([s for s in self.ships_of(side) if s.subphase == self.subphase and not s.moved])
