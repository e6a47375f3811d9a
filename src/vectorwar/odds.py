"""The odds of one shot, worked out the way the rules will resolve it.

Every rule system answers the same question before a shot is fired: what
must the die show, how likely is that, which modifiers went into the number
(each named, with its rule), and what can a hit do. The answer is an
:class:`Odds`; each system builds it with the one function its own
resolution reads the number from, so what a player is shown before firing
is what the dice are compared with afterwards (tests compare the two).

Two ways of applying modifiers occur in the texts, and ``Odds`` keeps both
as the log prints them: a modified *number* (MSC: "needs 4 or less", the
modifiers already in ``need``) or a modified *roll* (VV5 guns: "needs 9+,
rolls 7+2", the modifiers in ``modifier``). AV:T reads a damage table
instead of a to-hit number: ``need`` is ``None``, and ``bracket`` and
``column`` name the table column the range picks.

>>> chance_at_most("d6", 4), chance_at_least("2d6", 7), chance_at_least("2d6", 13)
(Fraction(2, 3), Fraction(7, 12), Fraction(0, 1))
>>> odds = Odds("Hawk", "F", "Raven", 3, "d6", 4, "at most", 0, chance_at_most("d6", 4),
...             (Modifier("TO-HIT rating", 4, "MSC 7.0"),), "1 point")
>>> odds.summary()
'needs 4 or less on d6: 67%'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product
from typing import Any, Literal

#: How a roll is compared with the number: at most (MSC), at least (VV5), or a table is read (AV:T).
RollTest = Literal["at most", "at least", "table"]

_FACES = {"d6": (6, 1), "2d6": (6, 2), "d10": (10, 1)}


@cache
def _distribution(dice: str) -> dict[int, Fraction]:
    if dice not in _FACES:
        raise KeyError(f"no distribution for dice {dice!r} (known: {', '.join(_FACES)})")
    faces, count = _FACES[dice]
    totals: dict[int, int] = {}
    for throw in product(range(1, faces + 1), repeat=count):
        totals[sum(throw)] = totals.get(sum(throw), 0) + 1
    whole = faces**count
    return {total: Fraction(n, whole) for total, n in totals.items()}


@cache  # asked for every shot's odds; a Fraction is immutable, so one answer serves every asker
def chance_at_most(dice: str, need: int) -> Fraction:
    """The chance that ``dice`` total ``need`` or less."""
    return sum((p for total, p in _distribution(dice).items() if total <= need), Fraction(0))


@cache
def chance_at_least(dice: str, need: int) -> Fraction:
    """The chance that ``dice`` total ``need`` or more."""
    return sum((p for total, p in _distribution(dice).items() if total >= need), Fraction(0))


def convolve(a: Sequence[float], b: Sequence[float]) -> list[float]:
    """The chances of each total of two independent scores, each given as its chance by points (index = points).

    The search bot's judges add up several shots at one target this way (VV5's and AV:T's).

    >>> convolve([0.5, 0.5], [0.5, 0.5])
    [0.25, 0.5, 0.25]
    """
    size = len(a)
    out = [0.0] * (size + len(b) - 1)
    # Each total adds its products ``a[i] * b[j]`` in the order of ``i``, so of ``j`` backwards: one pass over ``a``
    # for each chance of ``b``, last first. A zero chance adds a zero, which changes no total (each starts at +0.0, so
    # none is ever -0.0): a zero of ``b`` is left out, one of ``a`` added.
    for j in range(len(b) - 1, -1, -1):
        y = b[j]
        if y:
            out[j : j + size] = [total + x * y for total, x in zip(out[j : j + size], a, strict=True)]
    return out


def percent(chance: Fraction) -> str:
    """A chance in whole percent, never rounding a possible shot to 0% or a possible miss to 100%."""
    value = round(float(chance) * 100)
    if chance > 0 and value == 0:
        return "<1%"
    if chance < 1 and value == 100:
        return ">99%"
    return f"{value}%"


@dataclass(frozen=True, slots=True)
class Modifier:
    """One thing that moved the number or the roll, in words, by how much, and the rule that says so."""

    name: str
    value: int
    rule: str = ""

    def describe(self) -> str:
        rule = f" ({self.rule})" if self.rule else ""
        return f"{self.name} {self.value:+d}{rule}"


@dataclass(frozen=True, slots=True)
class Odds:
    """What one shot needs and may do, as the rules will resolve it now (see the module notes)."""

    ship: str
    weapon: str
    target: str
    range: int
    #: The dice thrown: ``d6``, ``2d6`` or ``d10``.
    dice: str
    #: The number the roll is compared with, as the log prints it (``None`` where a table is read).
    need: int | None
    test: RollTest
    #: Added to the roll before it is compared (VV5 guns); 0 where the modifiers are in ``need``.
    modifier: int
    #: The chance to hit (AV:T: to score at least one point of damage).
    chance: Fraction
    #: Every modifier applied, each named; the base number comes first where there is one.
    modifiers: tuple[Modifier, ...]
    #: What a hit can do, in words.
    damage: str
    #: AV:T: the range bracket (``"0-10"``) and the table column (1 for the first).
    bracket: str = ""
    column: int = 0
    #: Anything else the player should know before firing (a 12 always hits, the target may still accelerate).
    notes: tuple[str, ...] = ()
    #: Where the chance still turns on what the target does before the roll (a VV5 missile: the target's
    #: burn moves the marker): ``chance`` is the best case, in words in ``best``, and ``worst`` the chance
    #: at the other end, in words in ``worst_if``. ``None``: the chance is settled at firing.
    worst: Fraction | None = None
    best_if: str = ""
    worst_if: str = ""

    def summary(self) -> str:
        """One line: what the die must show and the chance, e.g. ``needs 9+ on 2d6 +2: 58%``.

        With a range: ``needs 8+ on 2d6: 42% if Y1 does not accelerate, 8% if it burns 4 G``.
        """
        if self.need is None:
            return f"range {self.range}, column {self.column} ({self.bracket}): {percent(self.chance)} to score"
        mod = f" {self.modifier:+d}" if self.modifier else ""
        wanted = f"{self.need} or less" if self.test == "at most" else f"{self.need}+"
        return f"needs {wanted} on {self.dice}{mod}: {self.chances()}"

    def chances(self) -> str:
        """The chance in words: one percentage, or the range from the best case to the worst."""
        if self.worst is None or self.worst == self.chance:
            return percent(self.chance)
        return f"{percent(self.chance)} {self.best_if}, {percent(self.worst)} {self.worst_if}"

    def to_data(self) -> dict[str, Any]:
        """Plain data for a front end (the chance as a float and in words)."""
        return {
            "ship": self.ship,
            "weapon": self.weapon,
            "target": self.target,
            "range": self.range,
            "dice": self.dice,
            "need": self.need,
            "test": self.test,
            "modifier": self.modifier,
            "chance": float(self.chance),
            # The chance for a button: one percentage, or the range from worst to best ("8%–42%").
            "percent": percent(self.chance)
            if self.worst is None or self.worst == self.chance
            else f"{percent(self.worst)}–{percent(self.chance)}",
            "modifiers": [{"name": m.name, "value": m.value, "rule": m.rule} for m in self.modifiers],
            "damage": self.damage,
            "bracket": self.bracket,
            "column": self.column,
            "notes": list(self.notes),
            "summary": self.summary(),
            # The range where the chance still turns on the target (``None``: settled at firing).
            "range_of_chance": None
            if self.worst is None
            else {
                "best": float(self.chance),
                "best_percent": percent(self.chance),
                "best_if": self.best_if,
                "worst": float(self.worst),
                "worst_percent": percent(self.worst),
                "worst_if": self.worst_if,
            },
        }
