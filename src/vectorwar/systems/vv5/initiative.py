"""VV5 Initiative: who holds it this turn."""

from __future__ import annotations

from collections.abc import Mapping

from vectorwar.dice import Dice
from vectorwar.events import Event, Rolled
from vectorwar.systems.vv5.state import VV5State


def roll_initiative(state: VV5State, dice: Dice, events: list[Event]) -> tuple[str, bool]:
    """1D6 per side, +2 to the side(s) with fewest ships in play; a tie keeps last turn's holder."""
    sides = state.sides_in_play() or state.sides
    return initiative_roll({s: len(state.ships_of(s)) for s in sides}, state.initiative, dice, events)


def initiative_roll(counts: Mapping[str, int], holder: str, dice: Dice, events: list[Event]) -> tuple[str, bool]:
    """VV5 Initiative over ``counts`` (each side's ships in play): who holds it, and whether a tie kept
    ``holder`` (last turn's; none on the first turn). VV5's own turn and its combat played under another
    system's movement (:mod:`vectorwar.systems.vv5.module`) both roll it here."""
    sides = list(counts)
    fewest = min(counts.values())
    uneven = len(set(counts.values())) > 1
    bonus = {s: 2 if uneven and counts[s] == fewest else 0 for s in sides}
    contenders = sides
    while True:
        totals: dict[str, int] = {}
        for side in contenders:
            roll = dice.roll(
                "d6", f"initiative for {side} (+2, fewest ships)" if bonus[side] else f"initiative for {side}"
            )
            events.append(Rolled.of(roll))
            totals[side] = roll.total + bonus[side]
        best = max(totals.values())
        top = [s for s in contenders if totals[s] == best]
        if len(top) == 1:
            return top[0], False
        if holder in top:
            return holder, True
        contenders = top  # no holder yet (turn 1) or the holder lost: the tied re-roll
