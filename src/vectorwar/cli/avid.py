"""AV:T's AVID as text: one row per ring, one column per ray, drawn from the system's diagram data.

The rule system says which window everything is in (``RuleSystem.diagrams``,
kind ``avid``); this only lays it out, as the browser's AVID does. Rows run
from the purple window straight up through the green, blue and amber rings
to straight down, so a window below the map's plane has a row of its own;
brackets still circle what is below, as the tutorial circles it (A5.162).
Columns are the twelve rays clockwise from A (a pole's one window sits in
the first column; the green rings have windows only on hexsides).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_RAYS = ("A", "A/B", "B", "B/C", "C", "C/D", "D", "D/E", "E", "E/F", "F", "F/A")
_ROWS = ((3, "up"), (2, "green+"), (1, "blue+"), (0, "amber"), (-1, "blue-"), (-2, "green-"), (-3, "down"))
#: The card's own short names for the orientation symbols.
_SHORT = {"nose": "Nose", "top": "Top", "starboard": "Stbd", "port": "Port", "aft": "Aft", "bottom": "Bottom"}


def _exists(level: int, ray: int) -> bool:
    if abs(level) == 3:
        return ray == 0
    return abs(level) != 2 or ray % 2 == 0


def avid_text(data: Mapping[str, Any], ship_id: str) -> list[str]:
    """The text AVID of one ship from ``diagrams`` data (kind ``avid``)."""
    ship = data["ships"][ship_id]
    lines = [f"AVID of {ship_id} ({ship['orientation']}), turn {data['turn']} segment {data['segment']}"]
    return lines + _grid(_cells(data, ship), bool(data["three_d"])) + _legend(ship)


def _cells(data: Mapping[str, Any], ship: Mapping[str, Any]) -> dict[tuple[int, int], list[str]]:
    """What each window (level, ray) shows: orientation symbols, target ranges, "I", turning stops."""
    where = {w["name"]: (w["level"], w["ray"]) for w in data["windows"]}
    below = {w["name"] for w in data["windows"] if w["below"]}
    marks = [(window, _SHORT[symbol["name"]]) for symbol in ship["symbols"] for window in symbol["windows"]]
    marks += [(t["window"], str(t["range"])) for t in ship["targets"] if t["window"] is not None]
    if ship["incoming"]:
        marks.append((ship["incoming"], "I"))
    if ship["turning"]:
        marks += [(stop["window"], f"@{stop['segment']}") for stop in ship["turning"]["stops"]]
    cells: dict[tuple[int, int], list[str]] = {}
    for window, text in marks:
        cells.setdefault(where[window], []).append(f"({text})" if window in below else text)
    return cells


def _grid(cells: Mapping[tuple[int, int], list[str]], three_d: bool) -> list[str]:
    rows: list[tuple[str, ...]] = [("", *_RAYS)]
    for level, label in _ROWS:
        if level and not three_d:
            continue
        texts = (",".join(cells.get((level, r), ["."])) if _exists(level, r) else "" for r in range(12))
        rows.append((label, *texts))
    # A pole is one window: its row is not a column of the grid, so it does not widen column A.
    poles = {"up", "down"}
    widths = [max(len(row[i]) for row in rows if row[0] not in poles) for i in range(len(rows[0]))]
    return [
        (row[0].ljust(widths[0]) + "  " + row[1])
        if row[0] in poles
        else "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]


def _legend(ship: Mapping[str, Any]) -> list[str]:
    """The lines under the grid: vectors, targets, the turning order and incoming damage in words."""
    vectors = ", ".join(f"{v['value']} {v['arrow']}" for v in ship["vectors"] if v["value"]) or "none"
    dots = ", ".join(f"{v['dots']} {v['arrow']}" for v in ship["vectors"] if v["dots"]) or "none"
    lines = [f"vectors: {vectors}; dots this burn: {dots}"]
    for target in ship["targets"]:
        if target["window"] is None:
            lines.append(f"target {target['id']}: in this space")
            continue
        mounts = " ".join(target["mounts"]) or "none"
        lines.append(f"target {target['id']}: {target['text']}, arc window {'/'.join(target['arc'])}, mounts {mounts}")
    turning = ship["turning"]
    if turning:
        stops = ", ".join(f"{s['window']} in segment {s['segment']} of turn {s['turn']}" for s in turning["stops"])
        lines.append(f"{turning['kind']} ({turning['order']}) from {turning['from']}: {stops}")
    if ship["incoming"]:
        lines.append(f'incoming damage "I" in {ship["incoming"]}')
    return lines


def avid_texts(data: Mapping[str, Any]) -> list[list[str]]:
    """A text AVID for every ship in ``data``, or none when the data is not an AVID's."""
    if data.get("kind") != "avid":
        return []
    return [avid_text(data, ship_id) for ship_id in data["ships"]]
