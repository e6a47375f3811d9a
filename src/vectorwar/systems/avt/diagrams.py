"""The AVID and the firing arc diagrams as plain data, for front ends that draw them.

The rule modules decide which window everything is in; this module only
gathers it, so a front end draws the paper card's layout without any AV:T
geometry of its own (the browser's ``avid.js`` and the terminal's text AVID
in ``vectorwar show`` both read it):

* ``windows`` and ``arc_windows``: the 50 windows of the AVID (fixed to the
  map) and of the firing arc diagrams (fixed to the ship), each with its
  name, ``level`` (-3..3, the ring counted from the map's plane or the
  ship's middle row) and ``ray`` (0-11 clockwise from A or from the Nose).
* ``ships``: per ship, the orientation symbols' windows, the eight vector
  arrows with the value in their white part and the dots this burn has laid
  in their gray part, a target marker per enemy (its window, range, ring,
  whether the tutorial circles it, the firing arc window(s) it maps to and
  the mounts that reach it), the window marked "I", the pivot or roll under
  way with the segment each window is reached, and each mount's arc.

Everything here is public on the table: orientation and vectors are on the
box miniature and counter, the thrust setting is announced (A5.243), and the
cards already print the rest.
"""

from __future__ import annotations

from typing import Any

from vectorwar.memo import Kept
from vectorwar.systems.avt.arcs import ALL_ARC_WINDOWS, ArcWindow, map_to_arc, middle_row
from vectorwar.systems.avt.arrows import Arrow, arrows_of
from vectorwar.systems.avt.avid import ALL_WINDOWS, Window, shoot_bearing
from vectorwar.systems.avt.design import Design
from vectorwar.systems.avt.grid import SEGMENTS
from vectorwar.systems.avt.lasers import max_range
from vectorwar.systems.avt.orientation import MARKERS, Orientation
from vectorwar.systems.avt.state import AVTState, Ship

#: The symbols' names as the card's key gives them; the browser draws each in the paper's shape.
SYMBOL_LABELS = {
    "nose": "Nose",
    "top": "Top",
    "starboard": "Starboard",
    "port": "Port",
    "aft": "Aft",
    "bottom": "Bottom",
}


def window_data(window: Window) -> dict[str, Any]:
    return {
        "name": str(window),
        "level": window.level,
        "ray": window.ray,
        "colour": window.colour,
        "below": window.below,
    }


def arc_window_data(window: ArcWindow) -> dict[str, Any]:
    return {"name": str(window), "level": window.level, "ray": window.ray}


#: The two spheres never change, so their descriptions are built once.
WINDOWS: tuple[dict[str, Any], ...] = tuple(window_data(w) for w in sorted(ALL_WINDOWS))
ARC_WINDOWS: tuple[dict[str, Any], ...] = tuple(arc_window_data(w) for w in sorted(ALL_ARC_WINDOWS))


def _when(absolute: int) -> dict[str, int]:
    return {"turn": (absolute - 1) // SEGMENTS + 1, "segment": (absolute - 1) % SEGMENTS + 1}


def _arc_of(state: AVTState, ship: Ship, window: Window) -> tuple[ArcWindow, ...]:
    """The firing arc window(s) a target seen through ``window`` lies in (the 2-D option: the middle row only)."""
    if state.three_d:
        return map_to_arc(ship.orientation, window)
    return (middle_row(ship.orientation, window),)


#: One mount of a design as the diagrams show it: (mount, weapon, range, lasers, arc windows' names in order, arc).
_Mount = tuple[str, str, int, tuple[str, ...], tuple[str, ...], frozenset[ArcWindow]]

_MOUNTS_KEPT = 64
#: :func:`_mounts`' rows by the design's identity, the design kept beside them so the identity stays its own.
_MOUNTS: Kept[int, tuple[Design, tuple[_Mount, ...]]] = Kept(_MOUNTS_KEPT)


def _mounts(design: Design) -> tuple[_Mount, ...]:
    """The design's mounts in name order, as every diagram of a ship of it shows them: worked out once a design."""
    kept = _MOUNTS.get(id(design))
    if kept is not None and kept[0] is design:
        return kept[1]
    rows = tuple(
        (
            mount,
            spec.weapon,
            max_range(spec.weapon),
            tuple(laser for laser, m in design.lasers.items() if m == mount),
            tuple(sorted(str(w) for w in design.arcs[mount])),
            design.arcs[mount],
        )
        for mount, spec in sorted(design.mounts.items())
    )
    _MOUNTS.keep(id(design), (design, rows))
    return rows


def _holding(design: Design, arc: tuple[ArcWindow, ...]) -> list[tuple[str, int]]:
    """Mounts whose arc holds a target's window, with their weapon's range, in name order."""
    return [(mount, reach) for mount, _, reach, _, _, windows in _mounts(design) if any(w in windows for w in arc)]


def _targets(state: AVTState, ship: Ship, design: Design) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    # The arc windows a marker maps to, and the mounts they hold, by the marker's window (the same for every enemy
    # seen through it) and, for the mounts, its range.
    arcs: dict[Window, tuple[tuple[ArcWindow, ...], list[str], list[tuple[str, int]]]] = {}
    for enemy in state.enemies_of(ship.side):
        marker = shoot_bearing(ship.position, enemy.position, state.three_d)
        window = marker.window
        if window is None:
            out.append({"id": enemy.id, "window": None, "range": 0, "here": True})
            continue
        found = arcs.get(window)
        if found is None:
            arc = _arc_of(state, ship, window)
            found = arcs[window] = (arc, [str(w) for w in arc], _holding(design, arc))
        # The mounts whose arc holds the window and whose weapon reaches the range (A5.166).
        mounts = [mount for mount, reach in found[2] if marker.range <= reach]
        out.append(
            {
                "id": enemy.id,
                "window": str(window),
                "range": marker.range,
                "ring": window.colour,
                "below": window.below,
                # The tutorial circles a marker below the amber ring (A5.162).
                "circled": window.below,
                "text": str(marker),
                "arc": list(found[1]),
                "mounts": list(mounts),
                "here": False,
            }
        )
    return out


def _turning(ship: Ship, now: int) -> dict[str, Any] | None:
    """The pivot or roll arrow: the window it leaves and each window reached, with its segment (A5.222-A5.223).

    A pivot's arrow follows the Nose; a roll turns the ship about its Nose,
    so its arrow follows the Top.
    """
    turning = ship.turning
    if turning is None:
        return None

    def tracked(o: Orientation) -> str:
        return str(o.nose) if turning.kind == "pivot" else str(o.marker("top")[0])

    return {
        "kind": turning.kind,
        "order": turning.order,
        "from": tracked(ship.orientation),
        # The paper keeps the whole arrow until the turn is done; windows already passed say so.
        "stops": [{"window": tracked(o), **_when(at), "passed": at < now} for at, o in turning.stops],
    }


def _vectors(ship: Ship) -> list[dict[str, Any]]:
    values = arrows_of(ship.velocity)
    pending = ship.chart.pending_dots()
    return [{"arrow": str(a), "value": values.get(a, 0), "dots": pending.get(a, 0)} for a in Arrow]


def ship_diagram(state: AVTState, ship: Ship) -> dict[str, Any]:
    """One ship's AVID and firing arc diagrams (see the module notes)."""
    design = state.designs[ship.design]
    shown = MARKERS if state.three_d else ("nose", "starboard", "port", "aft")
    targets = _targets(state, ship, design)
    return {
        "ship": ship.id,
        "side": ship.side,
        "name": ship.name,
        "status": ship.status,
        "orientation": str(ship.orientation),
        "symbols": [
            {"name": name, "label": SYMBOL_LABELS[name], "windows": [str(w) for w in ship.orientation.marker(name)]}
            for name in shown
        ],
        "vectors": _vectors(ship),
        "thrust": {"setting": ship.chart.setting, "cell": ship.chart.cell},
        "targets": targets,
        "incoming": ship.incoming or None,
        "turning": _turning(ship, state.now),
        "mounts": [
            {"mount": mount, "weapon": weapon, "range": reach, "lasers": list(lasers), "arc": list(arc)}
            for mount, weapon, reach, lasers, arc, _ in _mounts(design)
        ],
    }


def diagrams(state: AVTState) -> dict[str, Any]:
    """Every ship's AVID and firing arc diagrams, with the two spheres' windows, as plain data."""
    return {
        "kind": "avid",
        "turn": state.turn,
        "segment": state.segment,
        "three_d": state.three_d,
        "windows": list(WINDOWS),
        "arc_windows": list(ARC_WINDOWS),
        "ships": {s.id: ship_diagram(state, s) for s in state.ships if s.kind == "ship"},
    }
