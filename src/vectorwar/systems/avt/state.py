"""AV:T game state: plain, frozen data that serialises to JSON and back.

A ship carries what its Ship Control Card and SSD record: position
(hex and altitude), vectors, orientation, the thrust chart with the AVID's
pending dots, the bias direction, any facing change under way, fuel,
battery, each laser's cooling (the timing track) and the Heat Management
Console: heat stored, reactors and radiators, with the choices written for
the end of the turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from vectorwar.hexes import Direction, Hex, Position
from vectorwar.maps import HexMap
from vectorwar.roster import Roster, replace_fields
from vectorwar.rules import OptionValue
from vectorwar.systems.avt.arrows import Arrow
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.grid import SEGMENTS, MovementGrid
from vectorwar.systems.avt.orientation import Orientation
from vectorwar.systems.avt.thrust import ThrustChart
from vectorwar.vectors import Velocity

Status = Literal["active", "destroyed"]
Phase = Literal["orders", "over"]
Kind = Literal["ship", "target"]
#: Radiators take a full turn to extend or retract (A5.391).
RadiatorStatus = Literal["in", "extending", "out", "retracting"]
RadiatorChoice = Literal["in", "out"]

#: Heat is kept in tenths of a point: radiators dump 0.4 a turn each (A5.391).
HEAT_TENTHS = 10


def heat_text(tenths: int) -> str:
    """Heat points as a player writes them.

    >>> heat_text(30), heat_text(18)
    ('3', '1.8')
    """
    whole, part = divmod(tenths, HEAT_TENTHS)
    return f"{whole}" if not part else f"{whole}.{part}"


@lru_cache(maxsize=4096)
def _grid(velocity: Velocity) -> MovementGrid:
    return MovementGrid.of(velocity)


@lru_cache(maxsize=16384)
def grid_steps(velocity: Velocity, segment: int) -> tuple[Arrow, ...]:
    """The hexes a velocity moves on ``segment`` (its movement grid row), as unit steps."""
    return _grid(velocity).steps(segment)


def absolute(turn: int, segment: int) -> int:
    """Segments since the start of the game, counting from 1."""
    return (turn - 1) * SEGMENTS + segment


def when(absolute_segment: int) -> str:
    """An absolute segment as a player reads it.

    >>> when(11)
    'turn 2 segment 3'
    """
    return f"turn {(absolute_segment - 1) // SEGMENTS + 1} segment {(absolute_segment - 1) % SEGMENTS + 1}"


@dataclass(frozen=True, slots=True)
class Turning:
    """A facing change under way: each window reached and the segment (absolute) it is reached in."""

    kind: Literal["pivot", "roll"]
    order: str
    stops: tuple[tuple[int, Orientation], ...]

    @property
    def ends(self) -> int:
        return self.stops[-1][0]


@dataclass(frozen=True, slots=True)
class Repair:
    """A repair team at work (A5.48): one damage point of ``system``, done at the start of turn ``done``."""

    system: str
    done: int


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    side: str
    design: str
    name: str
    kind: Kind
    position: Position
    velocity: Velocity = field(default_factory=Velocity)
    orientation: Orientation = field(default_factory=lambda: Orientation(0, 0))
    chart: ThrustChart = field(default_factory=ThrustChart)
    bias: Direction | None = None
    turning: Turning | None = None
    fuel: int = 0
    battery: int = 0
    cooling: tuple[tuple[str, int], ...] = ()
    status: Status = "active"
    #: Heat Management Console (A5.314, A5.39-A5.392); heat in tenths of a point.
    heat_tenths: int = 0
    reactors_on: bool = True
    radiators: RadiatorStatus = "in"
    #: Choices written during the turn for the end-of-turn procedure (A5.392); ``None``: no change.
    reactors_next: bool | None = None
    radiators_next: RadiatorChoice | None = None
    #: The SSD's damage record (A5.452): how many boxes of each system are marked (``laser A1`` for a laser).
    marks: tuple[tuple[str, int], ...] = ()
    #: Electronics boxes marked, by name, in the order lost (the defender chooses them, A5.457).
    electronics_lost: tuple[str, ...] = ()
    #: Fuel units lost with destroyed tanks (A5.452: whole columns), apart from fuel burned.
    fuel_lost: int = 0
    #: The AVID window last marked "I" for incoming damage (A5.42), or "".
    incoming: str = ""
    repairs: tuple[Repair, ...] = ()
    #: Systems used this turn: a repair of one of them fails at the turn break (A5.48).
    used: tuple[str, ...] = ()
    #: The defender's standing choice of which electronics boxes go first (A5.457); unnamed ones after.
    electronics_order: tuple[str, ...] = ()

    @property
    def active(self) -> bool:
        return self.status == "active"

    @property
    def grid(self) -> MovementGrid:
        return _grid(self.velocity)

    def marked(self, system: str) -> int:
        """Boxes of ``system`` marked off so far."""
        for name, n in self.marks:  # a plain loop: asked for every laser of every ship on every bot decision
            if name == system:
                return n
        return 0

    def with_marks(self, system: str, count: int) -> Ship:
        """The ship with ``count`` boxes of ``system`` marked (0 clears the entry)."""
        rest = tuple((name, n) for name, n in self.marks if name != system)
        return replace_fields(self, marks=tuple(sorted((*rest, (system, count)) if count else rest)))

    def using(self, system: str) -> Ship:
        return self if system in self.used else replace_fields(self, used=(*self.used, system))

    def ready_at(self, laser: str) -> int:
        """The absolute segment from which ``laser`` may fire again (0: ready now)."""
        for name, at in self.cooling:
            if name == laser:
                return at
        return 0


@dataclass(frozen=True, slots=True)
class AVTState(Roster[Ship]):
    turn: int
    segment: int
    phase: Phase
    sides: tuple[str, ...]
    ships: tuple[Ship, ...]
    map: HexMap
    max_turns: int
    options: dict[str, OptionValue]
    designs: dict[str, Design]
    winners: tuple[str, ...] = ()
    end_reason: str = ""

    @property
    def now(self) -> int:
        return absolute(self.turn, self.segment)

    @property
    def three_d(self) -> bool:
        return bool(self.options.get("three_d", True))

    def commanders(self) -> tuple[str, ...]:
        """Sides with an active ship (not a target) to give orders to: kept with the roster's answers (read from the
        ships and sides alone), as every segment's prompt and its end ask it."""
        asked = self._answers()
        found: tuple[str, ...] | None = asked.get(_COMMANDERS)
        if found is None:
            found = asked[_COMMANDERS] = tuple(
                side for side in self.sides if any(s.kind == "ship" for s in self.ships_of(side))
            )
        return found

    def same_commanders(self, before: AVTState) -> AVTState:
        """This state, its :meth:`commanders` those of ``before``, a state of the same sides whose ships are of the
        same kinds and as active (a segment that marked nothing): kept, not worked out again."""
        self._answers()[_COMMANDERS] = before.commanders()
        return self


#: :meth:`AVTState.commanders`' key among the roster's kept answers.
_COMMANDERS = ("commanders", "", True)


#: Where :func:`unplaced` puts every ship.
_NOWHERE = Position(Hex(0, 0), 0)


def unplaced(ship: Ship) -> Ship:
    """``ship`` without its id, name and place: ships equal in this move alike, are offered the same order pieces
    and pass the same checks of their own entries (a fleet in formation), wherever each is."""
    return replace_fields(ship, id="", name="", position=_NOWHERE)
