"""VV5 Initiative: who holds it this turn."""

from __future__ import annotations

from vectorwar.dice import Dice
from vectorwar.events import Event, Rolled
from vectorwar.systems.vv5.state import VV5State


def roll_initiative(state: VV5State, dice: Dice, events: list[Event]) -> tuple[str, bool]:
    """1D6 per side, +2 to the side(s) with fewest ships in play; a tie keeps last turn's holder."""
    sides = state.sides_in_play() or state.sides
    counts = {s: len(state.ships_of(s)) for s in sides}
    fewest = min(counts.values())
    bonus = {s: 2 if counts[s] == fewest and len(set(counts.values())) > 1 else 0 for s in sides}
    contenders = list(sides)
    while True:
        totals: dict[str, int] = {}
        for side in contenders:
            roll = dice.roll("d6", f"initiative for {side}" + (" (+2, fewest ships)" if bonus[side] else ""))
            events.append(Rolled.of(roll))
            totals[side] = roll.total + bonus[side]
        best = max(totals.values())
        top = [s for s in contenders if totals[s] == best]
        if len(top) == 1:
            return top[0], False
        if state.initiative in top:
            return state.initiative, True
        contenders = top  # no holder yet (turn 1) or the holder lost: the tied re-roll
