"""VV5 game state: plain, frozen data.

A :class:`Ship` is its status card: boxes and armour ovals per damage
location, gun mounts, missile launchers, and the plot record. Its movement
is its position and its *vector marker*, kept as a :class:`Velocity` (the
marker sits at ``hex + velocity``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.roster import Roster
from vectorwar.rules import OptionValue
from vectorwar.vectors import Velocity

Status = Literal["active", "destroyed", "knocked-out", "exited", "crashed"]
Phase = Literal["choose-order", "missiles", "guns", "plot", "over"]
Launcher = Literal["ready", "spent", "destroyed"]


@dataclass(frozen=True, slots=True)
class Box:
    """A damage location's boxes and armour ovals still open, and the originals."""

    boxes: int
    armour: int = 0
    fitted: int = 0
    armour_fitted: int = 0

    @classmethod
    def new(cls, boxes: int, armour: int = 0) -> Box:
        return cls(boxes, armour, boxes, armour)


@dataclass(frozen=True, slots=True)
class Mount:
    """A gun mount: its arc, working guns and armour."""

    arc: str
    guns: Box


@dataclass(frozen=True, slots=True)
class PlotEntry:
    turn: int
    plot: str


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    side: str
    design: str
    name: str
    mass: int
    kind: str
    hex: Hex
    facing: Direction
    velocity: Velocity
    structure: Box
    cargo: Box
    agility: Box
    acceleration: Box
    life_support: Box
    mounts: tuple[Mount, ...]
    launchers: tuple[Launcher, ...]
    missile_armour: Box
    status: Status = "active"
    accelerated: int = 0  # G of acceleration this turn (moves incoming missiles down the track)
    damage_taken: int = 0  # non-armour damage points, for victory points
    damage_by: tuple[tuple[str, int], ...] = ()  # (side, points) who did that damage
    destroyed_by: str = ""  # the side whose fire put it out of the game
    record: tuple[PlotEntry, ...] = ()
    loadout: tuple[str, ...] = ()  # scenario equipment: "traction" (a launcher converted), ...

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def vector_marker(self) -> Hex:
        return self.hex.shifted(self.velocity.dq, self.velocity.dr)

    @property
    def can_accelerate(self) -> bool:
        return self.acceleration.boxes > 0

    @property
    def missiles_ready(self) -> int:
        return sum(1 for launcher in self.launchers if launcher == "ready")

    def mount(self, arc: str) -> Mount | None:
        return next((m for m in self.mounts if m.arc == arc), None)

    def with_mount(self, mount: Mount) -> Ship:
        return replace(self, mounts=tuple(mount if m.arc == mount.arc else m for m in self.mounts))


@dataclass(frozen=True, slots=True)
class Missile:
    """An incoming missile: its marker on the target's to-hit track."""

    shooter: str
    target: str
    to_hit: int


@dataclass(frozen=True, slots=True)
class GunDamage:
    """Gun damage noted on a target's card, resolved in the Gun Damage phase."""

    target: str
    points: int
    attacker: str


@dataclass(frozen=True, slots=True)
class PodState:
    """Scenario 4: where the stasis pod is, who holds it, and the sides' start corners."""

    kind: Literal["stasis-pod"]
    pod: Hex
    body: Hex
    holder: str = ""
    corners: tuple[tuple[str, Hex], ...] = ()
    exit_radius: int = 5
    feature: str = ""
    exited_at: Hex | None = None


SpecialState = PodState


@dataclass(frozen=True, slots=True)
class VV5State(Roster[Ship]):
    turn: int
    phase: Phase
    sides: tuple[str, ...]
    ships: tuple[Ship, ...]
    map: HexMap
    max_turns: int
    options: dict[str, OptionValue]
    initiative: str = ""
    declare_order: tuple[str, ...] = ()
    declaring: int = 0
    incoming: tuple[Missile, ...] = ()
    gun_damage: tuple[GunDamage, ...] = ()
    guns_fired: tuple[tuple[str, str, int], ...] = ()  # (ship, mount arc, shots used) this turn
    winners: tuple[str, ...] = ()
    end_reason: str = ""
    special: SpecialState | None = None
    automated: tuple[str, ...] = ()  # sides the engine plays (defence platforms); not in ``sides``

    def occupant(self, where: Hex) -> Ship | None:
        return next((s for s in self.ships if s.active and s.hex == where), None)
