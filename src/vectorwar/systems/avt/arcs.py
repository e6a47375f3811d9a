"""Firing arc diagrams: the 50-window sphere fixed to the ship, and mapping targets onto it.

The firing arc diagram is the AVID's sphere seen from inside the ship
(A5.163): its windows turn with the ship. An :class:`ArcWindow` is named by
clock hour around the ship's middle row, 12 at the Nose, 3 at Starboard, 6
Aft and 9 at Port (A5.1631; the diagram puts port on the left), with ``+``
or ``-`` per 30 degrees toward the Top or the Bottom, and ``top`` and
``bottom`` for the two poles: ``12`` is the Nose window, ``11-`` the window
one down and to port of it.

Mapping a target marker (A5.164-A5.1652) takes the AVID window the target
is seen through and finds the diagram window at the same place relative to
the ship. The tutorial does it by counting windows from the Top (the row)
and then from the nearest orientation symbol; here the window's direction is
turned into the ship's frame and the nearest diagram window taken, which
gives the same answers and also settles odd orientations. A direction that
lies exactly between diagram windows maps to all of them, and a weapon
whose arc holds any of them may fire (docs/rulings/avt.md, *AV:T between two arc windows*).

A mount's arc is data: a list of windows and clockwise ranges such as
``"10..2"`` (the middle row from 10 to 2 o'clock), ``"10+..2+"`` or
``"10++..2++"`` (green rows step two hours at a time), ``top``, ``bottom``,
or ``all``.

>>> from vectorwar.systems.avt.orientation import Orientation
>>> [str(w) for w in map_to_arc(Orientation.level(0), Window.parse("F/A-"))]
['11-']
>>> sorted(str(w) for w in parse_arc(["11..1", "top"]))
['1', '11', '12', 'top']
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from vectorwar.errors import OrderSyntaxError
from vectorwar.hexes import text_schema
from vectorwar.systems.avt import sphere
from vectorwar.systems.avt.avid import Window
from vectorwar.systems.avt.orientation import Orientation

_HOUR = re.compile(r"^(\d{1,2})(\+{1,2}|-{1,2})?$")


@dataclass(frozen=True, slots=True, order=True)
class ArcWindow:
    """A window of the firing arc diagram: ``level`` toward the Top (-3..3), ``ray`` clockwise from the Nose."""

    level: int
    ray: int

    def __post_init__(self) -> None:
        if not sphere.valid(self.level, self.ray):
            raise ValueError(f"no firing arc window at level {self.level}, ray {self.ray}")

    @classmethod
    def parse(cls, text: str) -> ArcWindow:
        t = text.strip().lower()
        if t in ("top", "bottom"):
            return cls(3 if t == "top" else -3, 0)
        m = _HOUR.match(t)
        if not m or not 1 <= int(m.group(1)) <= 12:
            raise OrderSyntaxError(text, "a firing arc window is a clock hour 1-12 with + or - marks, top or bottom")
        marks = m.group(2) or ""
        level = len(marks) * (1 if marks[:1] == "+" else -1)
        ray = int(m.group(1)) % 12
        if abs(level) == 2 and ray % 2:
            raise OrderSyntaxError(text, "the green rows of the diagram have windows only on even hours")
        return cls(level, ray)

    def __str__(self) -> str:
        if abs(self.level) == 3:
            return "top" if self.level > 0 else "bottom"
        return str(self.ray or 12) + ("+" if self.level > 0 else "-") * abs(self.level)

    def __repr__(self) -> str:
        return f"ArcWindow.parse({str(self)!r})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return text_schema(cls, cls.parse)


ALL_ARC_WINDOWS: frozenset[ArcWindow] = frozenset(ArcWindow(lv, r) for lv, r in sphere.SPOTS)


def map_to_arc(orientation: Orientation, window: Window) -> tuple[ArcWindow, ...]:
    """The firing arc window(s) a target seen through AVID ``window`` lies in."""
    return _map(orientation, window)


_CACHE: dict[tuple[Orientation, Window], tuple[ArcWindow, ...]] = {}


def _map(orientation: Orientation, window: Window) -> tuple[ArcWindow, ...]:
    key = (orientation, window)
    found = _CACHE.get(key)
    if found is None:
        sixths = orientation.heading // 2
        if sixths:
            # Ship and window turned together about the map's vertical by whole sixths (the AVID's own symmetry) see
            # the same arc windows, which are the ship's own: each is worked out once, for the first sixth of
            # headings (tests/avt/test_arcs.py compares every orientation and window with working it out).
            found = _map(orientation.rotated(-sixths), window.rotated(-sixths))
        else:
            body = orientation.body(window.centre)
            found = tuple(ArcWindow(lv, r) for lv, r in sphere.nearest(body))
        _CACHE[key] = found
    return found


def middle_row(orientation: Orientation, window: Window) -> ArcWindow:
    """The 2-D option's mapping: only the middle row, by the difference in rays (Design Note: 2-D)."""
    return ArcWindow(0, (window.ray - orientation.heading) % 12)


def parse_arc(entries: Iterable[str]) -> frozenset[ArcWindow]:
    """A mount's arc from its data entries (see the module notes)."""
    out: set[ArcWindow] = set()
    for entry in entries:
        text = entry.strip()
        if text.lower() == "all":
            out |= ALL_ARC_WINDOWS
            continue
        first, sep, last = text.partition("..")
        if not sep:
            out.add(ArcWindow.parse(text))
            continue
        a, b = ArcWindow.parse(first), ArcWindow.parse(last)
        if a.level != b.level or abs(a.level) == 3:
            raise OrderSyntaxError(entry, "a range of arc windows runs along one row, like 10..2 or 10+..2+")
        step = 2 if abs(a.level) == 2 else 1
        ray = a.ray
        out.add(a)
        while ray != b.ray:
            ray = (ray + step) % 12
            out.add(ArcWindow(a.level, ray))
    return frozenset(out)
