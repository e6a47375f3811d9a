"""Buying starships for a Dogfight (VV5 scenario 1).

One roll of 2D6 + 8 gives the tons of purchase points every side has to
spend (the text: "the number of tons available to both sides"; double for
larger fights), and each side buys one to three starships, a starship costing its mass in tons, in
pairs of a type where it can. Points left over carry to the player's next
pick; once they are below the lightest starship on offer they are lost.

>>> from vectorwar.systems.vv5.rules import system
>>> catalogue = system.designs()
>>> [(d, n) for d, n in purchase_choices(15, 0, {"dynamo": catalogue["dynamo"], "ghost": catalogue["ghost"]})]
[('dynamo', 2), ('ghost', 2), ('ghost', 3)]
"""

from __future__ import annotations

from collections.abc import Mapping

from vectorwar.dice import Dice
from vectorwar.events import Event, Rolled
from vectorwar.systems.vv5.design import Design

MAX_SHIPS = 3


def roll_budget(dice: Dice, events: list[Event], large: bool = False, plus: int = 8) -> int:
    """2D6 + 8 tons of purchase points for every side (doubled for a larger dogfight; + 10 in scenario 6).

    One roll serves all sides (docs/rulings/vv5.md, *VV5 the purchase phase*).
    """
    roll = dice.roll("2d6", "purchase points for every side")
    events.append(Rolled.of(roll))
    points = roll.total + plus
    return 2 * points if large else points


def purchase_choices(points: int, owned: int, offered: Mapping[str, Design]) -> list[tuple[str, int]]:
    """Every (design, how many) a player may buy now.

    Ships come in pairs where the points allow; a single ship only when a
    pair of that type is out of reach; never more than three ships in all.
    """
    room = MAX_SHIPS - owned
    choices: list[tuple[str, int]] = []
    for key, design in sorted(offered.items()):
        affordable = min(room, points // design.mass)
        if affordable >= 2:
            choices.extend((key, n) for n in range(2, affordable + 1))
        elif affordable == 1:
            choices.append((key, 1))
    return choices


def points_wasted(points: int, catalogue: Mapping[str, Design]) -> bool:
    """True when no starship at all fits in the points left."""
    return all(design.mass > points for design in catalogue.values())


def escorts_for(fighters: int) -> int:
    """Transports an Assault Force adds: one per element (a pair, the last one maybe single) of fighters."""
    return max(1, (fighters + 1) // 2)
