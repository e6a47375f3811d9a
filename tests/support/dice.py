"""Dice for tests that reproduce the texts' worked examples roll for roll."""

from __future__ import annotations

from vectorwar.dice import Dice


class LoadedDice(Dice):
    """Real dice whose faces are scripted, for reproducing exact table results."""

    def __init__(self, *faces: int, then_seed: int | None = None) -> None:
        super().__init__(seed=then_seed or 0)
        self.script = list(faces)
        self.then_random = then_seed is not None

    def _face(self, sides: int) -> int:
        if not self.script and self.then_random:
            return super()._face(sides)
        if not self.script:
            raise AssertionError("the test ran out of scripted dice")
        face = self.script.pop(0)
        if not 1 <= face <= sides:
            raise AssertionError(f"scripted face {face} is not on a d{sides}")
        self.count += 1
        return face
