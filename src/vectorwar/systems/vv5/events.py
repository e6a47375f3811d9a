"""Events particular to VV5 (the kernel's Moved, Fired, Damaged... cover the rest)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from vectorwar.events import Event
from vectorwar.hexes import Position


@dataclass(frozen=True, slots=True)
class InitiativeWon(Event):
    kind: ClassVar[str] = "vv5-initiative"
    side: str
    kept: bool

    def describe(self) -> str:
        how = " (a tie: last turn's holder keeps it)" if self.kept else ""
        return f"{self.side} has the initiative{how}"

    def initiative_to(self) -> str:
        return self.side


@dataclass(frozen=True, slots=True)
class MissileLaunched(Event):
    kind: ClassVar[str] = "vv5-launch"
    ship: str
    target: str
    range: int
    to_hit: int

    def describe(self) -> str:
        return f"{self.ship} launches a missile at {self.target}, range {self.range}: it will need {self.to_hit}+"


@dataclass(frozen=True, slots=True)
class MissileResolved(Event):
    kind: ClassVar[str] = "vv5-missile"
    ship: str
    target: str
    to_hit: int
    roll: int
    hit: bool
    note: str = ""

    def describe(self) -> str:
        extra = f" ({self.note})" if self.note else ""
        verdict = "hit" if self.hit else "miss"
        return f"{self.ship}'s missile at {self.target} needs {self.to_hit}+, rolls {self.roll}: {verdict}{extra}"


@dataclass(frozen=True, slots=True)
class GunsFired(Event):
    kind: ClassVar[str] = "vv5-guns"
    ship: str
    mount: str
    guns: int
    target: str
    range: int
    need: int
    modifier: int
    roll: int
    hit: bool
    damage: int

    def describe(self) -> str:
        mod = f"{self.modifier:+d}" if self.modifier else ""
        verdict = f"hit for {self.damage}" if self.hit else "miss"
        return (
            f"{self.ship} fires {self.guns} {self.mount} gun(s) at {self.target}, range {self.range}, "
            f"needs {self.need}+, rolls {self.roll}{mod}: {verdict}"
        )


@dataclass(frozen=True, slots=True)
class Deflected(Event):
    kind: ClassVar[str] = "vv5-deflected"
    ship: str
    meant_for: str
    at: Position

    def describe(self) -> str:
        return f"the shot meant for {self.meant_for} hits {self.ship} in the way at {self.at}"


@dataclass(frozen=True, slots=True)
class ArmourHit(Event):
    kind: ClassVar[str] = "vv5-armour"
    ship: str
    location: str
    remaining: int

    def describe(self) -> str:
        return f"{self.ship}'s {self.location} armour takes the hit ({self.remaining} ovals left)"


@dataclass(frozen=True, slots=True)
class KnockedOut(Event):
    kind: ClassVar[str] = "vv5-knocked-out"
    ship: str

    def describe(self) -> str:
        return f"{self.ship}'s life support is gone: knocked out"


@dataclass(frozen=True, slots=True)
class Collided(Event):
    kind: ClassVar[str] = "vv5-collision"
    ship: str
    winner: str
    at: Position
    to: Position

    def describe(self) -> str:
        return f"{self.ship} and {self.winner} both plotted {self.at}; {self.ship} is knocked aside to {self.to}"


@dataclass(frozen=True, slots=True)
class Crashed(Event):
    kind: ClassVar[str] = "vv5-crash"
    ship: str
    at: Position
    into: str

    def describe(self) -> str:
        return f"{self.ship} ends its move in the {self.into} at {self.at} and is destroyed"


@dataclass(frozen=True, slots=True)
class Pulled(Event):
    kind: ClassVar[str] = "vv5-gravity"
    ship: str
    pull: str

    def describe(self) -> str:
        return f"gravity pulls {self.ship}'s vector marker {self.pull}"


@dataclass(frozen=True, slots=True)
class BoardShifted(Event):
    kind: ClassVar[str] = "vv5-board-shifted"
    by: str
    to_keep: tuple[str, ...]

    def describe(self) -> str:
        return (
            f"every starship and vector marker is shifted {self.by} to keep {', '.join(self.to_keep)} on the board "
            "(the Dogfight's shift by agreement)"
        )
