"""VV5 firing arcs, relative to the ship's heading.

The text's arc diagrams are missing; these are vectorwar's rulings
(docs/rulings/vv5.md, "VV5 arcs"), in 30-degree rays from the nose:

* missiles launch into the **forward arc**: 60 degrees either side of the
  nose, up to and including the hex rows straight out of the two front
  hexsides (rays 10 to 2);
* **forward guns** have the narrower forward gun arc: 30 degrees either side,
  corner lines included (rays 11 to 1), the same 60-degree wedge MSC uses;
* **180-degree fwd / aft** turrets cover the front or back half, the
  beam lines (rays 3 and 9) in both;
* **180-degree left / right** turrets cover one side, the line of hexes
  straight ahead in both and the line straight behind in neither, as the
  text says;
* **360-degree turrets** fire anywhere;
* the **rear arc** (Shock rule) is the forward gun arc reversed.

tests/vv5/test_arcs.py draws each arc as a hex picture.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from vectorwar.hexes import Arc, Bearing, Direction, Hex

MISSILE_ARC = Arc(10, 2)
REAR_ARC = Arc(5, 7)

GUN_ARCS: dict[str, Arc] = {
    "forward": Arc(11, 1),
    "fwd180": Arc(9, 3),
    "aft180": Arc(3, 9),
    "left180": Arc(6, 12, include_start=False, include_end=True),
    "right180": Arc(0, 6, include_start=True, include_end=False),
    "turret360": Arc(0, 12),
}

# Short names used in gunfire orders.
ARC_CODES: dict[str, str] = {
    "fwd": "forward",
    "f180": "fwd180",
    "a180": "aft180",
    "l180": "left180",
    "r180": "right180",
    "t360": "turret360",
}
CODE_OF: dict[str, str] = {v: k for k, v in ARC_CODES.items()}

#: Each weapon in words, as a player reads it (the fire panel's buttons): gun mounts by arc, and the launchers.
WEAPON_WORDS: dict[str, str] = {
    "forward": "forward guns",
    "fwd180": "forward turret (180°)",
    "aft180": "aft turret (180°)",
    "left180": "left turret (180°)",
    "right180": "right turret (180°)",
    "turret360": "turret (360°)",
    "missiles": "missile launcher",
}


@cache
def _relative(dq: int, dr: int, facing: Direction) -> Bearing:
    return Bearing.between(Hex(0, 0), Hex(dq, dr)).relative_to(facing)


def in_arc(arc: Arc, origin: Hex, facing: Direction, target: Hex) -> bool:
    """Is ``target`` inside ``arc`` of a ship at ``origin`` heading ``facing``?

    The same hex is never in an arc: VV5 allows one ship per hex.
    """
    if origin == target:
        return False
    return arc.contains(_relative(target.q - origin.q, target.r - origin.r, facing))


@cache
def _offsets_in_arc(arc: Arc, facing: Direction, radius: int) -> tuple[tuple[int, int], ...]:
    origin = Hex(0, 0)
    return tuple((h.q, h.r) for h in origin.within(radius) if in_arc(arc, origin, facing, h))


def covered_hexes(
    arc: Arc, origin: Hex, facing: Direction, radius: int, on_map: Callable[[Hex], bool]
) -> frozenset[Hex]:
    """Every hex on the map within ``radius`` of ``origin`` that ``arc`` covers.

    Arcs are the same shape wherever the ship is, so the shape for each
    heading and reach is worked out once and moved to the ship; a viewer's
    scene asks for these every time the game changes.

    >>> sorted(str(h) for h in covered_hexes(GUN_ARCS["forward"], Hex(0, 0), Direction.A, 1, lambda h: True))
    ['0,-1']
    """
    hexes = (Hex(origin.q + dq, origin.r + dr) for dq, dr in _offsets_in_arc(arc, facing, radius))
    return frozenset(h for h in hexes if on_map(h))
