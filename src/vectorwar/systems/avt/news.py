"""What is new for a side to decide at a segment, against the segment before.

An AV:T turn is eight segments, and a captain's orders stand until changed:
the engine keeps its thrust (A5.242), a pivot or roll runs on through the
segments it takes, and nothing is fired unless ordered. So a segment is a
decision only when something changed that the standing orders cannot
answer: a laser became ready with a target in its arc, a target came into
or went out of an arc, one of the side's ships took damage, or a repair
came to its end (A5.48). A player who skips ahead is stopped at such a
segment and nowhere else (:mod:`vectorwar.autopilot`).
"""

from __future__ import annotations

from vectorwar.display import News
from vectorwar.systems.avt.display import fire_options
from vectorwar.systems.avt.state import AVTState, Ship

#: (ship id, mount, laser, target id) of every shot a side may declare now.
_Shot = tuple[str, str, str, str]


def decision_news(before: AVTState, after: AVTState, side: str) -> list[News]:
    """What ``side`` may want to decide at ``after``'s segment that it could not at ``before``'s."""
    found: list[News] = []
    earlier = {s.id: s for s in before.ships_of(side)}
    for ship in after.ships_of(side):
        old = earlier.get(ship.id)
        if old is None or ship.kind != "ship":
            continue
        found.extend(_damage(old, ship))
        found.extend(_repairs(old, ship))
    found.extend(_arcs(before, after, side))
    return found


def _damage(old: Ship, ship: Ship) -> list[News]:
    if sum(n for _, n in ship.marks) > sum(n for _, n in old.marks) or ship.status != old.status:
        return [News(f"{ship.name} took damage")]
    return []


def _repairs(old: Ship, ship: Ship) -> list[News]:
    ended = [r for r in old.repairs if r not in ship.repairs]
    return [News(f"{ship.name}: the repair of {r.system} came to its end") for r in ended]


def _arcs(before: AVTState, after: AVTState, side: str) -> list[News]:
    was, now = _shots(before, side), _shots(after, side)
    names = {s.id: s.name for s in after.ships}
    found = [
        News(f"{names[ship]}'s laser {laser} can fire at {names[target]}", ship, mount, target)
        for ship, mount, laser, target in sorted(now - was)
    ]
    for ship_id, _mount, laser, target in sorted(was - now):
        ship = after.ship(ship_id)
        # A laser that fired is cooling: that the shot is gone is no news. One still ready lost its target.
        if ship.active and ship.ready_at(laser) == 0 and after.ship(target).active:
            found.append(News(f"{names[target]} left the arc of {names[ship_id]}'s laser {laser}", ship_id))
    return found


def _shots(state: AVTState, side: str) -> set[_Shot]:
    return {
        (ship, option.weapon, option.piece.removeprefix("fire ").split(">")[0], option.target)
        for ship, options in fire_options(state, side).items()
        for option in options
    }
