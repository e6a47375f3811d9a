"""What lasers are expected to do, as the greedy player (:mod:`.bots`) weighs a volley before it fires.

Worked out from the laser tables (:mod:`.lasers`), with a table's ``Dn`` entries read as the game reads
them (option ``laser_d_entries``): a shot's mean damage, a pool's mean past the armour and an average
soak roll, and a volley's chance to put a target's toughness into it in one segment.
"""

from __future__ import annotations

from functools import lru_cache

from vectorwar.systems.avt.lasers import TABLES

#: The mean of a 2d10- soak roll (the larger d10 less the smaller): 3.3.
MEAN_SOAK = 3.3


@lru_cache(maxsize=4096)
def eat_chance(weapon: str, range_: int, lasers: int, toughness: int, d_chance: bool = True) -> float:
    """The chance that ``lasers`` shots at ``range_`` add up to ``toughness`` (a target eaten, A5.113)."""
    if lasers <= 0:
        return 0.0
    brackets, rows = TABLES[weapon]
    column = next((c for c, (low, high) in enumerate(brackets) if low <= range_ <= high), None)
    if column is None:
        return 0.0
    # One shot's points, capped at the toughness: beyond it nothing more is needed.
    one = [0.0] * (toughness + 1)
    for row in rows:
        text = row[column]
        if text.startswith("D"):
            chance = int(text[1:]) / 10.0 if d_chance else 0.0
            one[min(1, toughness)] += chance / len(rows)
            one[0] += (1.0 - chance) / len(rows)
        else:
            one[min(int(text), toughness)] += 1.0 / len(rows)
    total = [1.0] + [0.0] * toughness
    for _ in range(lasers):
        nxt = [0.0] * (toughness + 1)
        for have, p in enumerate(total):
            if p:
                for points, q in enumerate(one):
                    if q:
                        nxt[min(have + points, toughness)] += p * q
        total = nxt
    return total[toughness]


@lru_cache(maxsize=1024)
def expected_damage(weapon: str, range_: int, d_chance: bool = True) -> float:
    """A shot's mean damage at ``range_`` (a ``Dn`` entry scores 1 with chance n/10 under ``chance``); read from
    the weapon table once for each weapon, range and mode (the greedy player asks it on every fire decision)."""
    brackets, rows = TABLES[weapon]
    for column, (low, high) in enumerate(brackets):
        if low <= range_ <= high:
            total = 0.0
            for row in rows:
                text = row[column]
                if text.startswith("D"):
                    total += int(text[1:]) / 10.0 if d_chance else 0.0
                else:
                    total += int(text)
            return total / len(rows)
    return 0.0


def net_damage(pool: float, armour: int) -> float:
    """A pool's expected damage past the skin: its armour and an average soak (none at armour 0)."""
    return pool - armour - (MEAN_SOAK if armour else 0.0)
