"""VV5 game state: plain, frozen data.

A :class:`Ship` is its status card: boxes and armour ovals per damage
location, gun mounts, missile launchers, and the plot record. Its movement
is its position and its *vector marker*, kept as a :class:`Velocity` (the
marker sits at ``hex + velocity``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import Field

from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.roster import Roster, replace_fields
from vectorwar.rules import OptionValue
from vectorwar.vectors import Velocity

Status = Literal["active", "destroyed", "knocked-out", "exited", "crashed", "abandoned"]
Phase = Literal["purchase", "place", "choose-order", "missiles", "guns", "plot", "ace-replot", "over"]
Launcher = Literal["ready", "spent", "destroyed", "bomb"]  # a bomb fills a launcher slot, never launched


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


@dataclass(frozen=True)
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
    footprint: tuple[tuple[int, int], ...] = ()  # a huge ship's further hexes, as (dq, dr) from ``hex``
    steadfast: bool = False  # a derelict far heavier than any starship: never the one knocked aside
    cargo_lost_by: tuple[tuple[str, int], ...] = ()  # (side, points) of ``damage_by`` that fell on cargo boxes
    # Optional rules Experienced Crews and Shock (vectorwar.systems.vv5.crews, .shock):
    crew: str = ""  # the crew's name, "" for an unnamed crew
    experience: int = 0  # the crew's experience points at the start of the game
    shock: tuple[str, ...] = ()  # shock categories marked since the last panic check (one point each)
    panicked: bool = False  # panicked at the last panic check (until the next one)
    panic_move: str = ""  # the plot the panic table forces on it this turn
    hit_by: tuple[str, ...] = ()  # ships whose gunfire or missiles damaged it (kill credit)
    crew_fate: str = ""  # after the game, for a ship lost or abandoned: "escaped", "captured" or "killed"

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def hexes(self) -> tuple[Hex, ...]:
        """Every hex the ship fills (one, unless it is a huge ship such as the Ghost Ship)."""
        return self.hexes_at(self.hex)

    def hexes_at(self, where: Hex) -> tuple[Hex, ...]:
        """Every hex the ship would fill at ``where``."""
        if not self.footprint:
            return (where,)
        return (where, *(where.shifted(dq, dr) for dq, dr in self.footprint))

    @property
    def vector_marker(self) -> Hex:
        return self.hex.shifted(self.velocity.dq, self.velocity.dr)

    @property
    def can_accelerate(self) -> bool:
        return self.acceleration.boxes > 0

    @property
    def missiles_ready(self) -> int:
        return self.launchers.count("ready")

    def mount(self, arc: str) -> Mount | None:
        return next((m for m in self.mounts if m.arc == arc), None)

    def with_mount(self, mount: Mount) -> Ship:
        return replace_fields(self, mounts=tuple(mount if m.arc == mount.arc else m for m in self.mounts))


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


@dataclass(frozen=True, slots=True)
class BoardingState:
    """Scenarios 6 and 7: starship troopers boarding a derelict (``target``) for its data.

    ``boarded`` holds (transport, troopers it sent across); ``aboard`` and
    ``lost`` count troopers by side; ``log`` is the sides that downloaded the
    data and ``carriers`` the ships that held it at that moment.
    """

    kind: Literal["alien-starship", "ghost-ship"]
    target: str
    corners: tuple[tuple[str, Hex], ...] = ()
    exit_radius: int = 5
    transport: str = "fixed"
    transports: tuple[tuple[str, str], ...] = ()
    boarded: tuple[tuple[str, int], ...] = ()
    aboard: tuple[tuple[str, int], ...] = ()
    lost: tuple[tuple[str, int], ...] = ()
    log: tuple[str, ...] = ()
    carriers: tuple[str, ...] = ()
    escaped: tuple[str, ...] = ()
    gone: str = ""  # why the derelict is out of the game, once it is


@dataclass(frozen=True, slots=True)
class CargoRunState:
    """Scenarios 2, 3 and 8: one side must fly across the board with bombs, troopers or refugees.

    ``exits`` holds (ship, edge) for every ship that left the board; ``deliveries``
    the (ship, what, VP) results, rolled or counted as each ship left.
    """

    kind: Literal["strike-force", "assault-force", "refugees"]
    crossing: str
    interceptor: str
    exit_edges: tuple[str, ...]
    exits: tuple[tuple[str, str], ...] = ()
    deliveries: tuple[tuple[str, str, int], ...] = ()
    asteroid: Hex | None = None  # Refugees: the rock the crossing side lifts off
    min_distance: int = 10  # Refugees: how near the rock the interceptors may be placed


@dataclass(frozen=True, slots=True)
class PirateState:
    """Scenario 5: the pirate side's run for its asteroid-field base.

    ``field_bonus`` is added to the pirate side's asteroid-field rolls;
    ``escaped`` is set once an evasion roll succeeds.
    """

    kind: Literal["pirates"]
    pirate_side: str
    field_bonus: int = 1
    escaped: bool = False


@dataclass(frozen=True, slots=True)
class Body:
    """Scenario 9: a moving strangely dense body (gravity ``gravity`` G).

    ``status`` is ``on-board``, ``exited`` (and ``edge`` says where) or
    ``removed`` (taken away when a defence platform was destroyed).
    """

    name: str
    gravity: int
    hex: Hex
    velocity: Velocity
    status: Literal["on-board", "exited", "removed"] = "on-board"
    edge: str = ""


@dataclass(frozen=True, slots=True)
class InvasionState:
    """Scenario 9: the bodies, the engine's alien side, and the platforms already paid for with a body."""

    kind: Literal["invasion"]
    alien_side: str
    bodies: tuple[Body, ...]
    platforms_lost: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StartSlots:
    """Where a side's bought starships start: hexes in order, one heading and velocity."""

    side: str
    hexes: tuple[Hex, ...]
    facing: Direction
    velocity: Velocity
    prefix: str
    bombs: int = 0  # bombs the side must carry in place of missiles (scenario 2), chosen as it buys
    escort: str = ""  # a transport design added per element (pair) of fighters (scenario 3)
    escort_prefix: str = "T"
    facings: tuple[Direction, ...] = ()  # a heading per hex, when they differ (Pirates' two corners)
    velocities: tuple[Velocity, ...] = ()


@dataclass(frozen=True, slots=True)
class PurchaseState:
    """The Dogfight purchase before turn 1 (see vv5/buying.py)."""

    points: tuple[tuple[str, int], ...]  # each buying side's points left
    order: tuple[str, ...]  # buying sides, in picking order
    slots: tuple[StartSlots, ...]
    pool: tuple[str, ...]  # design ids on offer (the cup's counters, in the draw variant)
    budget: int = 0  # tons per side; 0 rolls 2D6 + ``bonus`` once for every side
    bonus: int = 8  # the roll's addition: 8 for the Dogfight and Pirates, 10 at the Alien Starship
    double: bool = False  # a larger dogfight
    draw: bool = False
    cup: tuple[str, ...] = ()  # counters still in the cup (draw variant)
    left: tuple[str, ...] = ()  # types the last pick left on the table (draw variant)
    offered: tuple[str, ...] = ()  # types the side to pick may choose from (draw variant)
    picking: int = 0  # index into ``order``
    bought: tuple[tuple[str, str], ...] = ()  # (side, design), in buying order
    bombs: tuple[int, ...] = ()  # bombs aboard each bought ship, beside ``bought``
    finished: tuple[str, ...] = ()

    def points_of(self, side: str) -> int:
        return dict(self.points)[side]


SpecialState = Annotated[
    PodState | BoardingState | CargoRunState | PirateState | InvasionState, Field(discriminator="kind")
]


@dataclass(frozen=True)
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
    ace_replot: tuple[str, ...] = ()  # aces with an Ace Moment still to re-plot (phase "ace-replot")
    purchase: PurchaseState | None = None  # the set-up purchase, until it is over
    placing: tuple[str, ...] = ()  # set-up placements still to make, in order, as "side:what" (phase "place")
    allies: tuple[str, ...] = ()  # sides that fight together (Invasion's several human players)

    #: The roster's answers and :meth:`kept_answers` are read from these: a copy in which they stay hands
    #: them on (:func:`vectorwar.roster.replace_fields`).
    ANSWERS_READ: ClassVar[tuple[str, ...]] = ("ships", "sides", "allies", "map")

    def enemies_of(self, side: str) -> tuple[Ship, ...]:
        asked = self._answers()
        key = ("foes", side, True)  # kept like the roster's own answers (the state is frozen)
        found: tuple[Ship, ...] | None = asked.get(key)
        if found is None:
            friends = self.allies if side in self.allies else (side,)
            found = asked[key] = tuple([s for s in self.ships if s.side not in friends and s.active])
        return found

    def kept_answers(self) -> dict[tuple[str, str, bool], Any]:
        """Answers kept on this state, as the roster keeps its own (``enemies_of``): a copy whose ships, sides,
        allies and board stay (:attr:`ANSWERS_READ`) hands them on, so only what depends on nothing else of
        the state may be kept here."""
        return self._answers()

    def allied(self, a: str, b: str) -> bool:
        return a == b or (a in self.allies and b in self.allies)

    def occupant(self, where: Hex) -> Ship | None:
        return next((s for s in self.ships if s.active and where in s.hexes), None)
