"""A ship's orientation on the AVID, and the pivots and rolls that change it.

An :class:`Orientation` is three counts of 30-degree steps: the nose's
``heading`` (the ray its azimuth lies on), its ``pitch`` above or below the
map's plane (-3..3) and the ``roll`` about the nose (positive to starboard,
0 with the top as high as it can be). The nose always sits in an AVID
window: at 60 degrees of pitch only the hexside headings have a (green)
window, so the nose pitches that far only on a hexside; straight up or down
the heading means nothing and is written 0.

The other orientation symbols of the tutorial (Top, Starboard, Port, Aft,
Bottom) follow from the nose and the roll by exact geometry, and each is
shown in the window nearest to it. Most orientations put every symbol in a
window; where a symbol falls exactly between two windows (a level ship
rolled 30 degrees puts its Top between two green windows) both are given.
See docs/rulings/avt.md, *AV:T orientation model* and *AV:T pivot paths and diagonals*.

A pivot moves the nose from window to window along its path (A5.221):

* along a ring: one 30-degree step per window (the green ring's windows are
  60 degrees of azimuth but only 30 degrees of arc apart, so one step too);
  the ship turns about the map's vertical, keeping its roll;
* up or down a meridian, through the poles if need be: one step per window;
  the ship turns about its level lateral axis;
* a diagonal (heading and ring change together, like B/C amber to C blue):
  one window but two 30-degree wedges of the pivot chart, and the nose is
  shown in the new window only when both are done (A5.32, A5.322, A5.331).

A roll turns the ship about its nose, 30 degrees per wedge. The time a
facing change takes comes from the ship's caterpillar charts
(:func:`schedule`).

>>> level_a = Orientation.level(0)
>>> [str(w) for w in level_a.marker("top")], [str(w) for w in level_a.marker("starboard")]
(['up'], ['B/C'])
>>> pitched = Orientation(4, 1, 0)          # nose C+, as in the third sample game
>>> {name: str(pitched.marker(name)[0]) for name in MARKERS}
{'nose': 'C+', 'top': 'F++', 'starboard': 'D/E', 'port': 'A/B', 'aft': 'F-', 'bottom': 'C--'}
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from vectorwar.errors import OrderSyntaxError
from vectorwar.hexes import text_schema
from vectorwar.systems.avt import sphere
from vectorwar.systems.avt.avid import ALL_WINDOWS, Window

MARKERS = ("nose", "top", "starboard", "port", "aft", "bottom")
Frame = tuple[sphere.Vec, sphere.Vec, sphere.Vec]
_TEXT = re.compile(r"^\s*(\S+)(?:\s+roll\s+([+-]?\d+))?\s*$", re.IGNORECASE)


@cache
def _frame(heading: int, pitch: int, roll: int) -> Frame:
    """World vectors of the ship's nose, starboard and top."""
    s, c = sphere.SIN, sphere.COS
    nose = sphere.direction(pitch, heading)
    level_starboard: sphere.Vec = (c[heading % 12], -s[heading % 12], 0.0)
    level_top = sphere.cross(level_starboard, nose)
    top = sphere.add(sphere.scale(level_top, c[roll % 12]), sphere.scale(level_starboard, s[roll % 12]))
    starboard = sphere.add(sphere.scale(level_starboard, c[roll % 12]), sphere.scale(level_top, -s[roll % 12]))
    return nose, starboard, top


def _pole_roll(pitch: int, heading: int, roll: int, new_heading: int) -> int:
    """The roll that gives the same body at a pole when the heading is written as ``new_heading``.

    With the nose straight up, writing the heading ``d`` rays round is rolling ``d`` steps the same way; straight
    down, the other way (tests/avt/test_orientation.py compares the ship's axes for every case).
    """
    turn = new_heading - heading
    return (roll + turn if pitch > 0 else roll - turn) % 12


@dataclass(frozen=True, slots=True, order=True)
class Orientation:
    """Nose heading (ray 0-11), pitch (-3..3) and roll (0-11, to starboard) in 30-degree steps."""

    heading: int
    pitch: int
    roll: int = 0

    def __post_init__(self) -> None:
        if not (0 <= self.heading < 12 and -3 <= self.pitch <= 3 and 0 <= self.roll < 12):
            raise ValueError(f"orientation out of range: {self.heading}, {self.pitch}, {self.roll}")
        if abs(self.pitch) == 2 and self.heading % 2:
            raise ValueError("at 60 degrees of pitch the nose has a window only on a hexside heading")
        if abs(self.pitch) == 3 and self.heading:
            raise ValueError("straight up or down the heading is written 0 (use Orientation.make)")

    @classmethod
    def make(cls, heading: int, pitch: int, roll: int = 0) -> Orientation:
        """Any heading, pitch and roll, brought to the canonical form."""
        heading, roll = heading % 12, roll % 12
        if abs(pitch) == 3 and heading:
            roll, heading = _pole_roll(pitch, heading, roll, 0), 0
        return cls(heading, pitch, roll)

    @classmethod
    def level(cls, ray: int) -> Orientation:
        """Level with the map, upright, nose toward ``ray``."""
        return cls(ray % 12, 0, 0)

    @classmethod
    def parse(cls, text: str) -> Orientation:
        """``NOSE`` or ``NOSE roll N`` (N in 30-degree steps, + to starboard, - to port).

        >>> Orientation.parse("C/D+ roll -1")
        Orientation.parse('C/D+ roll -1')
        """
        m = _TEXT.match(text)
        if not m:
            raise OrderSyntaxError(text, "an orientation is a nose window and an optional roll, like 'C+ roll -1'")
        nose = Window.parse(m.group(1))
        roll = int(m.group(2) or 0)
        heading = 0 if abs(nose.level) == 3 else nose.ray
        return cls(heading, nose.level, roll % 12)

    def __str__(self) -> str:
        nose = str(self.nose)
        signed = self.roll if self.roll <= 6 else self.roll - 12
        return nose if signed == 0 else f"{nose} roll {signed:+d}"

    def __repr__(self) -> str:
        return f"Orientation.parse({str(self)!r})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return text_schema(cls, cls.parse)

    @property
    def frame(self) -> Frame:
        return _frame(self.heading, self.pitch, self.roll)

    @property
    def nose(self) -> Window:
        return _WINDOWS[self.pitch, self.heading]

    def marker(self, name: str) -> tuple[Window, ...]:
        """The window(s) an orientation symbol is shown in: nose, top, starboard, port, aft or bottom."""
        return _marker(self, name)

    def body(self, v: sphere.Vec) -> sphere.Vec:
        """``v`` in the ship's own frame: (to starboard, forward, to the top)."""
        nose, starboard, top = self.frame
        return (sphere.dot(v, starboard), sphere.dot(v, nose), sphere.dot(v, top))

    def rotated(self, sixths: int) -> Orientation:
        """The same attitude turned ``sixths`` x 60 degrees clockwise about the map's vertical."""
        if abs(self.pitch) == 3:
            return Orientation.make(2 * sixths, self.pitch, self.roll)
        return _at((self.heading + 2 * sixths) % 12, self.pitch, self.roll)  # each made once: tables turn thousands

    def rolled(self, steps: int) -> Orientation:
        return Orientation.make(self.heading, self.pitch, self.roll + steps)


@cache
def _marker(o: Orientation, name: str) -> tuple[Window, ...]:
    nose, starboard, top = o.frame
    vectors = {
        "nose": nose,
        "top": top,
        "starboard": starboard,
        "port": sphere.neg(starboard),
        "aft": sphere.neg(nose),
        "bottom": sphere.neg(top),
    }
    if name not in vectors:
        raise KeyError(f"no orientation symbol {name!r} (known: {', '.join(MARKERS)})")
    return tuple(Window(lv, r) for lv, r in sphere.nearest(vectors[name]))


# -- pivots ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One window of a facing change: the orientation reached and the wedges it takes (1 or 2)."""

    orientation: Orientation
    wedges: int


def _pivot_moves(o: Orientation, three_d: bool) -> list[tuple[Orientation, int, int]]:
    """Single pivot steps from ``o``: (orientation, wedges, pitch wedges), in a fixed order.

    The order matters: :func:`pivot_paths` breaks ties by it. Turns about the vertical come first, then (3-D
    only) pitches straight up or down, then the diagonal steps that turn and pitch at once; a nose at a pole
    pitches off it into any of the six windows of the green ring next to it.
    """
    h, p, r = o.heading, o.pitch, o.roll
    out = _yaw_moves(h, p, r)
    if not three_d:
        return [m for m in out if m[0].pitch == 0]
    if abs(p) == 3:
        toward = 2 if p > 0 else -2
        return out + [(_at(k, toward, _pole_roll(p, 0, r, k)), 1, 1) for k in range(0, 12, 2)]
    return out + _pitch_moves(h, p, r) + _diagonal_moves(h, p, r)


#: Each orientation a pivot step reaches, made once, by its number (:func:`orientation_number`): a fresh process's
#: pivot searches step through hundreds of them many times over.
_MADE: dict[int, Orientation] = {}


def _at(heading: int, pitch: int, roll: int) -> Orientation:
    """``Orientation(heading, pitch, roll)``, made once."""
    number = ((pitch + 3) * 12 + heading) * 12 + roll
    made = _MADE.get(number)
    if made is None:
        made = _MADE[number] = Orientation(heading, pitch, roll)
    return made


def _yaw_moves(h: int, p: int, r: int) -> list[tuple[Orientation, int, int]]:
    """Turns about the vertical: a ray either way in the amber and blue rings, two in the green (no corners)."""
    if abs(p) <= 1:
        return [(_at((h + d) % 12, p, r), 1, 0) for d in (1, -1)]
    if abs(p) == 2:
        return [(_at((h + d) % 12, p, r), 1, 0) for d in (2, -2)]
    return []


def _pitch_moves(h: int, p: int, r: int) -> list[tuple[Orientation, int, int]]:
    """Pitches one ring up or down on the same ray (onto a pole, or into the green ring from a side window)."""
    out: list[tuple[Orientation, int, int]] = []
    for d in (1, -1):
        q = p + d
        if abs(q) == 3:
            out.append((Orientation.make(h, q, r), 1, 1))
        elif abs(q) != 2 or h % 2 == 0:
            out.append((_at(h, q, r), 1, 1))
    return out


def _diagonal_moves(h: int, p: int, r: int) -> list[tuple[Orientation, int, int]]:
    """A ray round and a ring up or down at once (two wedges): never onto a pole or a green corner, and out of
    the green ring only back toward the amber."""
    out: list[tuple[Orientation, int, int]] = []
    if abs(p) <= 2:
        for dh in (1, -1):
            for dp in (1, -1):
                q, k = p + dp, (h + dh) % 12
                if abs(q) <= 2 and (abs(q) != 2 or k % 2 == 0) and (abs(p) != 2 or abs(q) < 2):
                    out.append((_at(k, q, r), 2, 1))
    return out


@cache
def pivot_paths(start: Orientation, three_d: bool = True) -> dict[Window, tuple[Step, ...]]:
    """The quickest pivot to each nose window: fewest wedges, then fewest windows, then least pitching.

    >>> [str(s.orientation) for s in pivot_paths(Orientation.level(10))[Window.parse("A")]]
    ['F/A', 'A']
    >>> [(str(s.orientation), s.wedges) for s in pivot_paths(Orientation.level(3))[Window.parse("C+")]]
    [('C+', 2)]
    """
    came, first = _search(start, three_d)
    return {came[key][1].nose: _walk_back(came, key) for key in first}


@cache
def pivot_ends(start: Orientation, three_d: bool = True) -> tuple[tuple[Window, Orientation, int], ...]:
    """(nose window, orientation at the end, wedges) of each of :func:`pivot_paths`, in its order, without the
    steps between: all the greedy player asks of a pivot it weighs.

    >>> [(str(w), str(o), n) for w, o, n in pivot_ends(Orientation.level(3))[:3]]
    [('B/C', 'B/C', 0), ('C', 'C', 1), ('B', 'B', 1)]
    """
    sixths = start.heading // 2
    if sixths:
        # Away from the poles a pivot search turned by whole sixths about the map's vertical finds the same pivots
        # turned, in the same order (tests/avt/test_orientation.py checks every orientation): searched once, for
        # the first sixth of headings.
        ends = pivot_ends(start.rotated(-sixths), three_d)
        return tuple((w.rotated(sixths), end.rotated(sixths), n) for w, end, n in ends)
    came, first = _search(start, three_d)
    return tuple((here.nose, here, total) for _, here, _, total in (came[key] for key in first))


#: How the search reached an orientation, by its number: (parent's number or -1, the orientation, the last step's
#: wedges, the wedges from the start).
_Came = dict[int, tuple[int, Orientation, int, int]]


@lru_cache(maxsize=8)  # pivot_paths and pivot_ends keep their own answers: this shares one search
def _search(start: Orientation, three_d: bool) -> tuple[_Came, tuple[int, ...]]:
    """The pivot search from ``start``: how each orientation taken off the queue was reached, and the numbers of
    those that first brought the nose to each window, in the order found.

    Orientations leave the queue in the order of (wedges, windows, pitching wedges, when they joined it), the
    quickest first. Every step costs a wedge or two, so an orientation joins a later wedge count than the one
    being taken off: the queue is a list per wedge count, each put in order of (windows, pitching) once every
    step into it has been taken (a stable sort keeps the order they joined in), which takes them off in the
    same order a heap would, for less work.
    """
    # Orientations are tracked by their number (:func:`_moves`): a dataclass's hash is worked out in Python on
    # every look-up, and a nose window by the number without the roll. Only the paths asked for are then built,
    # by walking back (:func:`_walk_back`).
    came: _Came = {}
    first: dict[int, int] = {}  # nose window's number -> the number of the orientation that reached it first
    noses = _NOSES[three_d]
    known = _MOVES[three_d]
    # By wedge count: (windows, pitching wedges, number, orientation, parent's number, the last step's wedges).
    queue: dict[int, list[tuple[int, int, int, Orientation, int, int]]] = {
        0: [(0, 0, orientation_number(start), start, -1, 0)]
    }
    wedges = 0
    while queue:
        waiting = queue.pop(wedges, None)
        if waiting is None:
            wedges += 1
            continue
        waiting.sort(key=_windows_and_pitching)
        for steps, pitching, key, here, parent, cost in waiting:
            if key in came:
                continue
            came[key] = (parent, here, cost, wedges)
            if key // 12 not in first:
                first[key // 12] = key
                if len(first) == noses:
                    return came, tuple(first.values())  # every window the nose can be in has its quickest path
            moves = known.get(key)
            if moves is None:
                moves = known[key] = _moves(here, three_d)
            for nxt, nxt_key, step_cost, pitch_cost in moves:
                if nxt_key not in came:
                    queue.setdefault(wedges + step_cost, []).append(
                        (steps + 1, pitching + pitch_cost, nxt_key, nxt, key, step_cost)
                    )
        wedges += 1
    return came, tuple(first.values())


def _windows_and_pitching(entry: tuple[int, int, int, Orientation, int, int]) -> tuple[int, int]:
    return entry[0], entry[1]


def _walk_back(came: _Came, key: int) -> tuple[Step, ...]:
    """The steps from the search's start to the orientation numbered ``key``, from each one's parent."""
    steps: list[Step] = []
    parent, here, cost, _ = came[key]
    while parent >= 0:
        steps.append(Step(here, cost))
        parent, here, cost, _ = came[parent]
    steps.reverse()
    return tuple(steps)


#: Every window by (level, ray), built once: the nose is asked for on every step of a pivot search.
_WINDOWS: dict[tuple[int, int], Window] = {(w.level, w.ray): w for w in ALL_WINDOWS}
#: The windows a nose may be in: every window, or (altitude switched off) the middle row's.
_NOSES = {True: len(ALL_WINDOWS), False: sum(1 for w in ALL_WINDOWS if w.level == 0)}


def orientation_number(o: Orientation) -> int:
    """A number of its own for each orientation."""
    return ((o.pitch + 3) * 12 + o.heading) * 12 + o.roll


#: :func:`_moves` by the orientation's number, for the search: a look-up by a number hashes no dataclass.
_MOVES: dict[bool, dict[int, tuple[tuple[Orientation, int, int, int], ...]]] = {True: {}, False: {}}


@cache
def _moves(o: Orientation, three_d: bool) -> tuple[tuple[Orientation, int, int, int], ...]:
    """:func:`_pivot_moves` with each orientation's number: (orientation, number, wedges, pitch wedges)."""
    return tuple((nxt, orientation_number(nxt), cost, pitch_cost) for nxt, cost, pitch_cost in _pivot_moves(o, three_d))


@lru_cache(maxsize=4096)
def pivot_path(start: Orientation, nose: Window, three_d: bool = True) -> tuple[Step, ...]:
    """The steps of the quickest pivot that brings the nose to ``nose`` (empty if already there).

    Away from the poles, the path of the start and nose turned back by whole sixths to the first sixth of headings,
    turned again (as :func:`pivot_ends`): a game searches few starts.
    """
    sixths = start.heading // 2
    path = (
        _path_in(start.rotated(-sixths), nose.rotated(-sixths), three_d) if sixths else _path_in(start, nose, three_d)
    )
    if path is None:
        raise ValueError(f"the nose cannot reach {nose} with altitude switched off")
    return tuple(Step(s.orientation.rotated(sixths), s.wedges) for s in path) if sixths else path


def _path_in(start: Orientation, nose: Window, three_d: bool) -> tuple[Step, ...] | None:
    return pivot_paths(start, three_d).get(nose)


def roll_path(start: Orientation, steps: int) -> tuple[Step, ...]:
    """A roll of ``steps`` x 30 degrees (positive to starboard), one wedge per step."""
    sign = 1 if steps > 0 else -1
    out: list[Step] = []
    here = start
    for _ in range(abs(steps)):
        here = here.rolled(sign)
        out.append(Step(here, 1))
    return tuple(out)


def wedges(path: Sequence[Step]) -> int:
    return sum(s.wedges for s in path)


Chart = tuple[tuple[int, ...], ...]


def schedule(path: Sequence[Step], chart: Chart) -> tuple[tuple[int, Orientation], ...]:
    """When each window of a facing change is reached: ``(segments after the order, orientation)``.

    ``chart`` is a caterpillar chart: ``chart[w - 1]`` lists, for a facing
    change of ``w`` wedges, the segment (+0, +1 ...) by which each wedge is
    done. A window taking two wedges is reached with its second.

    >>> rafik = ((0,), (0, 1), (0, 1, 2))
    >>> [(t, str(o)) for t, o in schedule(pivot_path(Orientation.level(0), Window.parse("B/C")), rafik)]
    [(0, 'A/B'), (1, 'B'), (2, 'B/C')]
    """
    total = wedges(path)
    if total == 0:
        return ()
    if total > len(chart):
        raise ValueError(f"a {30 * total}-degree facing change is off the chart (largest {30 * len(chart)})")
    timing = chart[total - 1]
    out: list[tuple[int, Orientation]] = []
    done = 0
    for step in path:
        done += step.wedges
        out.append((timing[done - 1], step.orientation))
    return tuple(out)
