"""Initiative and the movement subphases (Rules Changes, Initiative Examples).

Each class moves in its own subphase, every ship in it plotting and then
moving at the same time. Before movement each ship totals its initiative
modifiers and rolls a d20; a roll at or under the absolute total lets the
ship move one subphase earlier or later (positive total) or makes it move
one earlier (negative total). The text's light fighter at +5:

>>> choices(NORMAL_SUBPHASE["fighter"], 5, 4)
('fighters', 'medium warships', 'all remaining ships')
>>> choices(NORMAL_SUBPHASE["fighter"], 5, 6)
('fighters',)

The same fighter launched this turn (-10, total -5) must move earlier:

>>> choices(NORMAL_SUBPHASE["fighter"], -5, 4)
('medium warships',)

The text names only part of the order; the rest is a ruling with an
alternative (option ``vms_subphase_order``), both agreeing with the examples:

>>> SUBPHASE_ORDERS["shuttles-first"]
('shuttles', 'capital ships', 'medium warships', 'fighters', 'all remaining ships')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from vectorwar.dice import Dice
from vectorwar.events import Rolled
from vectorwar.systems.vms.ships import ShipClass

CAPITAL, MEDIUM, SHUTTLES, FIGHTERS, REMAINING = (
    "capital ships",
    "medium warships",
    "shuttles",
    "fighters",
    "all remaining ships",
)
NORMAL_SUBPHASE: dict[ShipClass, str] = {
    "capital": CAPITAL,
    "medium": MEDIUM,
    "shuttle": SHUTTLES,
    "fighter": FIGHTERS,
    # Civilians and transports have no subphase of their own in the text:
    # they are among the "remaining" ships (ruling *Full subphase order*).
    "civilian": REMAINING,
}
# Fixed by the text: medium warships directly before fighters (example 2) and
# "all remaining ships" inserted directly after fighters. Shuttles cannot sit
# between those, so they go before the medium warships, in one of two places.
SUBPHASE_ORDERS: dict[str, tuple[str, ...]] = {
    "shuttles-first": (SHUTTLES, CAPITAL, MEDIUM, FIGHTERS, REMAINING),
    "shuttles-after-capital": (CAPITAL, SHUTTLES, MEDIUM, FIGHTERS, REMAINING),
}
DEFAULT_ORDER = "shuttles-first"


def total(modifiers: Iterable[int]) -> int:
    """All modifiers from ship sheet, scenario and circumstances added together."""
    return sum(modifiers)


def choices(
    normal: str, total: int, roll: int, order: tuple[str, ...] = SUBPHASE_ORDERS[DEFAULT_ORDER]
) -> tuple[str, ...]:
    """The subphases a ship may move in: the first is where it moves unless the owner picks another.

    A shift off either end of the order is lost: there is no subphase to move
    into (ruling *Initiative at the ends of the order*).
    """
    if roll > abs(total) or total == 0:
        return (normal,)
    i = order.index(normal)
    earlier = order[i - 1 : i] if i > 0 else ()
    if total < 0:
        return earlier or (normal,)
    later = order[i + 1 : i + 2]
    return (normal, *earlier, *later)


@dataclass(frozen=True, slots=True)
class Initiative:
    """One ship's initiative for a turn: the roll and the subphases it may (or must) move in."""

    ship: str
    total: int
    roll: int
    choices: tuple[str, ...]

    @property
    def forced(self) -> bool:
        """A negative total that came up: the ship has no say."""
        return self.total < 0 and self.roll <= -self.total


def roll_initiative(
    ship: str,
    ship_class: ShipClass,
    modifiers: Iterable[int],
    dice: Dice,
    order: tuple[str, ...] = SUBPHASE_ORDERS[DEFAULT_ORDER],
) -> tuple[Initiative, Rolled]:
    """Roll a ship's d20 initiative; the event is to go in the game's log."""
    t = total(modifiers)
    roll = dice.roll("d20", f"initiative for {ship} ({t:+d})")
    return Initiative(ship, t, roll.total, choices(NORMAL_SUBPHASE[ship_class], t, roll.total, order)), Rolled.of(roll)
