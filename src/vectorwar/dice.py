"""Seeded dice: one random source per game, every roll logged with its purpose.

The source is counter based: die number ``n`` of a game with seed ``s`` is a
hash of ``(s, n)``. So the whole random state of a game is two integers that
live in its plain-data state, a game replays exactly from its seed, and a
rule system's resolution is a pure function of state and orders.

Since every die is a public function of the seed, whoever knows the seed
knows every future roll, and a small seed can be found from a few rolls
shown. So a seed nobody chose is drawn by :func:`vectorwar.setup.new_seed` with 128 bits
from the operating system's secret source, and the front ends keep it from
the players until the game is over. A seed a player chooses (for a local or
a test game) is allowed, but its chooser can foresee every roll.

>>> dice = Dice(seed=7)
>>> roll = dice.roll("d6", "initiative for red")
>>> 1 <= roll.total <= 6, roll.purpose, dice.count
(True, 'initiative for red', 1)
>>> Dice(seed=7).roll("d6", "again").faces == roll.faces
True
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Literal

DiceKind = Literal["d6", "2d6", "d10", "d20", "2d10-diff", "xd10"]

#: Bits of a drawn seed: far too many to search for from the rolls a game shows.
SEED_BITS = 128

#: The hash every die is drawn from, empty: each throw feeds a copy of it (:meth:`Dice._face`).
_EMPTY_HASH = hashlib.blake2b(digest_size=8)

_SIDES: dict[str, int] = {"d6": 6, "2d6": 6, "d10": 10, "d20": 20, "2d10-diff": 10, "xd10": 10}
#: The kinds that throw one die whatever ``number`` says, and its sides.
_ONE_DIE: dict[str, int] = {"d6": 6, "d10": 10, "d20": 20}
#: Dice thrown at once by each kind (one unless named; ``xd10`` throws the number asked for).
_DICE: dict[str, int] = {"2d6": 2, "2d10-diff": 2}


@dataclass(frozen=True, slots=True)
class Roll:
    """One logged roll: what it was for, what was thrown and what it came to.

    ``total`` is the sum of the faces, except for ``2d10-diff`` (AV:T's
    "larger minus smaller") where it is the difference.
    """

    purpose: str
    kind: str
    faces: tuple[int, ...]
    total: int

    def __str__(self) -> str:
        faces = "+".join(str(f) for f in self.faces)
        return f"{self.purpose}: {self.kind} [{faces}] = {self.total}"


@dataclass(slots=True)
class Dice:
    """The game's dice cup. Mutable only in ``count`` and ``log``."""

    seed: int
    count: int = 0
    log: list[Roll] = field(default_factory=list)

    def _face(self, sides: int) -> int:
        # b"%d:%d" writes the bytes f"{seed}:{count}".encode() would, in one step; a copy of an empty hash fed
        # them gives the digest ``blake2b(those bytes, digest_size=8)`` would, without reading its options.
        hasher = _EMPTY_HASH.copy()
        hasher.update(b"%d:%d" % (self.seed, self.count))
        digest = hasher.digest()
        self.count += 1
        # 2**64 is so much larger than the die that the modulo bias is ~1e-18.
        return int.from_bytes(digest, "big") % sides + 1

    def roll(self, kind: DiceKind, purpose: str, number: int = 1) -> Roll:
        """Throw ``kind`` for ``purpose``; ``number`` is X for ``xd10``."""
        sides = _ONE_DIE.get(kind)
        if sides is not None:
            # Most throws: one die, its face the total, and the kind its label (a resolution throws dozens).
            total = self._face(sides)
            thrown = Roll(purpose, kind, (total,), total)
            self.log.append(thrown)
            return thrown
        sides = _SIDES.get(kind)
        if sides is None:
            raise ValueError(f"unknown dice {kind!r}; known: {', '.join(_SIDES)}")
        n = number if kind == "xd10" else _DICE.get(kind, 1)
        if n < 1:
            raise ValueError(f"cannot roll {n} dice")
        if n == 1:  # most throws: one die, its face the total
            total = self._face(sides)
            faces: tuple[int, ...] = (total,)
        else:
            if n == 2:  # most others two dice (2d6, 2d10-diff), thrown one after the other
                first = self._face(sides)
                faces = (first, self._face(sides))
            else:
                faces = tuple([self._face(sides) for _ in range(n)])
            total = abs(faces[0] - faces[1]) if kind == "2d10-diff" else sum(faces)
        label = f"{n}d10" if kind == "xd10" else kind
        result = Roll(purpose, label, faces, total)
        self.log.append(result)
        return result

    def take_log(self) -> list[Roll]:
        """The rolls since the last call, clearing the log."""
        rolls, self.log = self.log, []
        return rolls
