"""Typed events: what happened when orders were resolved.

Each event type has a ``kind`` tag, serialises to plain data and describes
itself in words for the dice and event log. Rule systems add their own event
types by subclassing :class:`Event`. Logs are written (save files, the
browser) but never read back into events: a save is checked by replaying its
orders, so no registry of event types is needed (tests/kernel/test_events.py
keeps the tags unique, since front ends switch on them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from vectorwar.dice import Roll
from vectorwar.hexes import Direction, Position
from vectorwar.serial import to_data


@dataclass(frozen=True, slots=True)
class Event:
    """Base of every event; subclasses set a unique ``kind`` tag."""

    kind: ClassVar[str] = "event"

    def describe(self) -> str:
        return self.kind

    def initiative_to(self) -> str:
        """The side this event puts first in the turn's order of play, or "" (the lab's first mover)."""
        return ""

    def damage_points(self) -> int:
        """The damage this event says its ``ship`` took, in the system's own points (0: none; the lab's tallies)."""
        return 0


def event_to_data(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = to_data(event)
    return {"kind": event.kind, **data}


@dataclass(frozen=True, slots=True)
class TurnBegan(Event):
    kind: ClassVar[str] = "turn-began"
    turn: int

    def describe(self) -> str:
        return f"--- turn {self.turn} ---"


@dataclass(frozen=True, slots=True)
class Rolled(Event):
    kind: ClassVar[str] = "rolled"
    purpose: str
    dice: str
    faces: tuple[int, ...]
    total: int

    @classmethod
    def of(cls, roll: Roll) -> Rolled:
        return cls(roll.purpose, roll.kind, roll.faces, roll.total)

    def describe(self) -> str:
        faces = "+".join(str(f) for f in self.faces)
        return f"roll {self.dice} for {self.purpose}: [{faces}] = {self.total}"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    kind: ClassVar[str] = "moved"
    ship: str
    plot: str
    path: tuple[Position, ...]
    facing: Direction

    def describe(self) -> str:
        return f"{self.ship} plots {self.plot}: {self.path[0]} -> {self.path[-1]}, facing {self.facing}"


@dataclass(frozen=True, slots=True)
class InitiativeSet(Event):
    kind: ClassVar[str] = "initiative"
    order: tuple[str, ...]

    def describe(self) -> str:
        return "initiative order: " + ", ".join(self.order)

    def initiative_to(self) -> str:
        return self.order[0] if self.order else ""


@dataclass(frozen=True, slots=True)
class Fired(Event):
    """A shot that hits on a roll of ``need`` or less (MSC's, and VMS's under MSC combat). A system
    whose shots roll over, or read otherwise, logs an event of its own (VV5's ``GunsFired``)."""

    kind: ClassVar[str] = "fired"
    ship: str
    weapon: str
    target: str
    range: int
    need: int
    roll: int
    hit: bool
    note: str = ""

    def describe(self) -> str:
        verdict = "hit" if self.hit else "miss"
        extra = f" ({self.note})" if self.note else ""
        return (
            f"{self.ship} fires {self.weapon} at {self.target}, range {self.range}, "
            f"needs {self.need} or less, rolls {self.roll}: {verdict}{extra}"
        )


@dataclass(frozen=True, slots=True)
class Damaged(Event):
    kind: ClassVar[str] = "damaged"
    ship: str
    location: str
    amount: int
    remaining: int

    def describe(self) -> str:
        return f"{self.ship} loses {self.amount} {self.location} ({self.remaining} left)"

    def damage_points(self) -> int:
        return self.amount


@dataclass(frozen=True, slots=True)
class Destroyed(Event):
    kind: ClassVar[str] = "destroyed"
    ship: str

    def describe(self) -> str:
        return f"{self.ship} is destroyed"


@dataclass(frozen=True, slots=True)
class LeftMap(Event):
    kind: ClassVar[str] = "left-map"
    ship: str
    at: Position

    def describe(self) -> str:
        return f"{self.ship} leaves the map at {self.at} and is out of the battle"


@dataclass(frozen=True, slots=True)
class Note(Event):
    """A plain remark in the log (a shot wasted on a wreck, a forced slow-down)."""

    kind: ClassVar[str] = "note"
    text: str

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class GameOver(Event):
    kind: ClassVar[str] = "game-over"
    winners: tuple[str, ...]
    reason: str

    def describe(self) -> str:
        if not self.winners:
            who = "a draw"
        elif len(self.winners) == 1:
            who = f"{self.winners[0]} wins"
        else:
            who = " and ".join(self.winners) + " win"
        return f"game over: {who} ({self.reason})"


@dataclass(frozen=True, slots=True)
class Conceded(Event):
    """A side gave up the battle (docs/rulings/every-system.md, *Conceding and ending by agreement*)."""

    kind: ClassVar[str] = "conceded"
    side: str

    def describe(self) -> str:
        return f"{self.side} concedes"


@dataclass(frozen=True, slots=True)
class EndedByAgreement(Event):
    """Every side agreed to stop the battle here."""

    kind: ClassVar[str] = "ended-by-agreement"
    sides: tuple[str, ...]

    def describe(self) -> str:
        return f"{', '.join(self.sides)} agree to end the game"
