"""Events particular to VMS (the kernel's Moved, Rolled, Damaged... cover the rest)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from vectorwar.events import Event


@dataclass(frozen=True, slots=True)
class SubphaseSet(Event):
    """A ship's initiative result: the subphase it moves in, and whether its owner chose it."""

    kind: ClassVar[str] = "vms-subphase"
    ship: str
    total: int
    roll: int
    subphase: str
    choices: tuple[str, ...]

    def describe(self) -> str:
        if len(self.choices) > 1:
            how = f"may move in {' or '.join(self.choices)}"
        elif self.roll <= abs(self.total) and self.total < 0:
            how = f"must move early, in {self.subphase}"
        else:
            how = f"moves in {self.subphase}"
        return f"{self.ship} initiative {self.total:+d}, rolls {self.roll}: {how}"


@dataclass(frozen=True, slots=True)
class CourseSet(Event):
    """The record after a ship's move: next turn's vector, rotation speed and facing."""

    kind: ClassVar[str] = "vms-course"
    ship: str
    vector: str
    rotation: int
    thrust_spent: int
    hexsides_turned: int

    def describe(self) -> str:
        spin = (
            "no rotation"
            if not self.rotation
            else f"rotating {abs(self.rotation)} {'right' if self.rotation > 0 else 'left'}"
        )
        return (
            f"{self.ship} now {self.vector or 'at rest'}, {spin}; spent {self.thrust_spent} thrust, "
            f"turned {self.hexsides_turned} hexside(s)"
        )


@dataclass(frozen=True, slots=True)
class ThrustLost(Event):
    kind: ClassVar[str] = "vms-thrust-lost"
    ship: str
    lost: int
    left: int

    def describe(self) -> str:
        return f"{self.ship} loses {self.lost} thrust to damage ({self.left} left)"


@dataclass(frozen=True, slots=True)
class RotationLimitCut(Event):
    kind: ClassVar[str] = "vms-rotation-limit-cut"
    ship: str
    limit: int
    was: int

    def describe(self) -> str:
        return (
            f"{self.ship}'s damaged hull now takes at most {self.limit} hexside(s) a turn of rotation (was {self.was})"
        )
