"""The playing area: a map built from rectangular map sections.

A section is a block of ``width x height`` hexes in offset coordinates whose
top-left hex is ``origin``. VV5 lays fifteen lettered sections in three rows
of five; MSC plays on one blank map. Terrain is a per-hex tag that the rule
systems interpret (for example ``"blocking"`` stops line of sight in MSC).

>>> m = HexMap.single(10, 8)
>>> m.contains(Hex.parse("9,7")), m.contains(Hex.parse("10,7"))
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import compress

from vectorwar.hexes import Hex


@dataclass(frozen=True, slots=True)
class MapSection:
    name: str
    col: int
    row: int
    width: int
    height: int

    def contains(self, h: Hex) -> bool:
        return self.col <= h.col < self.col + self.width and self.row <= h.row < self.row + self.height

    def hexes(self) -> Iterator[Hex]:
        for c in range(self.col, self.col + self.width):
            for r in range(self.row, self.row + self.height):
                yield Hex.from_offset(c, r)


@cache
def _cells(sections: tuple[MapSection, ...]) -> frozenset[tuple[int, int]]:
    # Asked for every hex of every path and arc, so it is worth one set per layout.
    return frozenset(
        (c, r) for s in sections for c in range(s.col, s.col + s.width) for r in range(s.row, s.row + s.height)
    )


# The last layout asked about, recognised by identity: hashing a tuple of many sections
# for the cache above costs more than the look-up, and callers ask about one map in bursts.
_last_cells: tuple[tuple[MapSection, ...], frozenset[tuple[int, int]]] = ((), frozenset())
_last_terrain: tuple[tuple[tuple[Hex, str], ...], dict[Hex, str]] = ((), {})
_last_kind: tuple[tuple[tuple[Hex, str], ...], str, frozenset[Hex]] = ((), "", frozenset())
_last_steps: tuple[tuple[tuple[Hex, str], ...], str, dict[Hex, int | None]] = ((), "", {})
_last_where: tuple[tuple[tuple[Hex, str], ...], dict[Callable[[str], bool], frozenset[Hex]]] = ((), {})


class _Kept:
    """Slots outside the dataclass fields for :attr:`HexMap.extent`, whether the map fills it and the
    :meth:`HexMap.clear_radius` of each hex asked, worked out on first use.

    Not fields, so they are no part of a map's equality, repr or plain data; the map is frozen, so what is
    once worked out stays true (as :class:`~vectorwar.roster.Roster` keeps its ship index).
    """

    __slots__ = ("_clear", "_extent", "_whole")

    _extent: tuple[int, int, int, int]
    _whole: bool
    _clear: dict[tuple[int, int], int]


@dataclass(frozen=True, slots=True)
class HexMap(_Kept):
    """Map bounds (the union of its sections) and terrain by hex."""

    sections: tuple[MapSection, ...]
    terrain: tuple[tuple[Hex, str], ...] = field(default=())

    @classmethod
    def single(cls, width: int, height: int, terrain: tuple[tuple[Hex, str], ...] = ()) -> HexMap:
        return cls((MapSection("map", 0, 0, width, height),), terrain)

    @classmethod
    def grid(cls, names: list[list[str]], width: int, height: int, terrain: tuple[tuple[Hex, str], ...] = ()) -> HexMap:
        """Sections laid out in rows, as VV5 lays sections A-O."""
        sections = tuple(
            MapSection(name, c * width, r * height, width, height)
            for r, row in enumerate(names)
            for c, name in enumerate(row)
        )
        return cls(sections, terrain)

    def contains(self, h: Hex) -> bool:
        global _last_cells
        sections, cells = _last_cells
        if sections is not self.sections:
            cells = _cells(self.sections)
            _last_cells = (self.sections, cells)
        # The offset ``(col, row)`` worked out here (``Hex.col``, ``Hex.row``): asked for every hex of every path.
        q = h.q
        return (q, h.r + (q - (q & 1)) // 2) in cells

    def contains_axial(self, q: int, r: int) -> bool:
        """:meth:`contains` for the hex at axial ``(q, r)``, for bots that walk paths without building hexes."""
        global _last_cells
        sections, cells = _last_cells
        if sections is not self.sections:
            cells = _cells(self.sections)
            _last_cells = (self.sections, cells)
        return (q, r + (q - (q & 1)) // 2) in cells

    def section(self, name: str) -> MapSection:
        for s in self.sections:
            if s.name == name:
                return s
        raise KeyError(f"no map section {name!r} (sections: {', '.join(s.name for s in self.sections)})")

    def locate(self, text: str) -> Hex:
        """A hex from ``col,row`` or section-relative ``SECTION@col,row``.

        Section-relative coordinates count from the section's top-left hex,
        so ``F@0,3`` is on the left edge of section F.

        >>> HexMap.grid([["A", "B"]], 10, 8).locate("B@0,2")
        Hex.parse('10,2')
        """
        name, at, local = text.partition("@")
        if not at:
            return Hex.parse(text)
        section = self.section(name.strip())
        offset = Hex.parse(local)
        if not (0 <= offset.col < section.width and 0 <= offset.row < section.height):
            raise ValueError(f"{text!r}: section {section.name} is {section.width}x{section.height} hexes")
        return Hex.from_offset(section.col + offset.col, section.row + offset.row)

    def section_of(self, h: Hex) -> MapSection | None:
        return next((s for s in self.sections if s.contains(h)), None)

    @property
    def extent(self) -> tuple[int, int, int, int]:
        """``(min_col, min_row, max_col, max_row)`` inclusive."""
        try:
            kept: tuple[int, int, int, int] = self._extent
        except AttributeError:  # first asked: every bot's candidate end asks it for the distance to the edge
            kept = (
                min(s.col for s in self.sections),
                min(s.row for s in self.sections),
                max(s.col + s.width - 1 for s in self.sections),
                max(s.row + s.height - 1 for s in self.sections),
            )
            object.__setattr__(self, "_extent", kept)
        return kept

    def terrain_at(self, h: Hex) -> str | None:
        """The terrain of ``h`` (the first listed, should a hex be listed twice), or ``None``.

        >>> a, b = Hex.parse("1,1"), Hex.parse("2,0")
        >>> rocks = HexMap.single(4, 4, ((a, "asteroid"), (a, "dense"), (b, "asteroid")))
        >>> rocks.terrain_at(a), rocks.terrain_at(Hex(0, 0)), sorted(map(str, rocks.hexes_with("asteroid")))
        ('asteroid', None, ['1,1', '2,0'])
        """
        global _last_terrain
        terrain, by_hex = _last_terrain
        if terrain is not self.terrain:
            # Asked for every hex a planner or a bot tries, so it is worth one table per terrain. The first
            # entry for a hex is its terrain, as a walk along the tuple would find.
            by_hex = {}
            for where, kind in self.terrain:
                by_hex.setdefault(where, kind)
            _last_terrain = (self.terrain, by_hex)
        return by_hex.get(h)

    def hexes_with(self, kind: str) -> frozenset[Hex]:
        global _last_kind
        terrain, asked, found = _last_kind
        if terrain is not self.terrain or asked != kind:
            # Asked for every line of sight a bot draws, so it is worth one set per terrain and kind.
            found = frozenset(h for h, k in self.terrain if k == kind)
            _last_kind = (self.terrain, kind, found)
        return found

    def hexes_where(self, test: Callable[[str], bool]) -> frozenset[Hex]:
        """Hexes with a terrain entry that passes ``test`` (a rule system's reading of its tags).

        >>> rocks = HexMap.single(4, 4, ((Hex.parse("1,1"), "asteroid"), (Hex.parse("2,0"), "dust")))
        >>> sorted(map(str, rocks.hexes_where(lambda kind: kind != "dust")))
        ['1,1']
        """
        global _last_where
        terrain, found = _last_where
        if terrain is not self.terrain:
            # Asked for every line of fire and every path a search bot's trials draw, against a field of
            # hundreds of hexes: one set per terrain and test (``test`` is a module's function, so few).
            found = {}
            _last_where = (self.terrain, found)
        if test not in found:
            found[test] = frozenset(h for h, k in self.terrain if test(k))
        return found[test]

    def steps_to(self, kind: str, h: Hex) -> int | None:
        """Steps from ``h`` to the nearest hex of terrain ``kind`` (0 on one), or ``None`` if the map has none.

        >>> rocks = HexMap.single(6, 6, ((Hex.parse("4,2"), "asteroid"), (Hex.parse("5,5"), "asteroid")))
        >>> rocks.steps_to("asteroid", Hex.parse("1,2")), rocks.steps_to("asteroid", Hex.parse("4,2"))
        (3, 0)
        >>> rocks.steps_to("dense", Hex.parse("1,2")) is None
        True
        """
        global _last_steps
        terrain, asked, known = _last_steps
        if terrain is not self.terrain or asked != kind:
            # A bot asks this for every move it weighs, against a field of hundreds of hexes: each hex's answer
            # is kept for as long as the same terrain is asked about.
            known = {}
            _last_steps = (self.terrain, kind, known)
        if h not in known:
            known[h] = min((h.distance(f) for f in self.hexes_with(kind)), default=None)
        return known[h]

    def clear_radius(self, h: Hex) -> int:
        """Steps from ``h`` within which every hex is on the map: -1 if ``h`` is off it, and at most 0 unless the
        map fills its :attr:`extent` (a rectangle, where a step changes the column and the row by 1 at most).

        >>> m = HexMap.single(10, 8)
        >>> m.clear_radius(Hex.parse("4,3")), m.clear_radius(Hex.parse("0,5")), m.clear_radius(Hex.parse("10,0"))
        (3, 0, -1)
        >>> HexMap.grid([["A"], ["B"]], 4, 4).clear_radius(Hex.parse("1,3"))
        1
        """
        try:
            known = self._clear
        except AttributeError:  # a bot asks it for each ship it plots: one answer a hex for the map's life
            known = {}
            object.__setattr__(self, "_clear", known)
        at = (h.q, h.r)
        radius = known.get(at)
        if radius is None:
            radius = known[at] = self._clear_radius(h)
        return radius

    def _clear_radius(self, h: Hex) -> int:
        if not self.contains(h):
            return -1
        try:
            whole = self._whole
        except AttributeError:  # first asked: a bot asks it for each ship it plots, to skip walking paths
            c0, r0, c1, r1 = self.extent
            whole = len(_cells(self.sections)) == (c1 - c0 + 1) * (r1 - r0 + 1)
            object.__setattr__(self, "_whole", whole)
        if not whole:
            return 0
        return self.distance_to_edge(h) - 1

    def distance_to_edge(self, h: Hex) -> int:
        """Steps from ``h`` to the nearest hex outside the map (0 if outside)."""
        if not self.contains(h):
            return 0
        c0, r0, c1, r1 = self.extent
        return 1 + min(h.col - c0, c1 - h.col, h.row - r0, r1 - h.row)


@dataclass(frozen=True, eq=False)
class HexOrder:
    """A map's hexes in the order of their names (as ``sorted(map(str, hexes))`` puts them), each with a bit.

    The bit of the hex at ``place`` is ``1 << (len(hexes) - 1 - place)``, so a :class:`HexSet`'s binary digits,
    left to right, are its hexes in name order: its names come out in order without hashing or sorting a hex.
    """

    hexes: tuple[Hex, ...]
    names: tuple[str, ...]
    place: dict[Hex, int]

    def bit(self, place: int) -> int:
        """The bit of the hex at ``place``."""
        return 1 << (len(self.hexes) - 1 - place)


#: The layout last ordered, recognised by identity (a game's states share one map); another goes to the cache.
_last_order: tuple[tuple[MapSection, ...], HexOrder | None] = ((), None)


def hex_order(hex_map: HexMap) -> HexOrder:
    """The :class:`HexOrder` of ``hex_map``'s hexes, one for each layout (a map is frozen)."""
    global _last_order
    sections, order = _last_order
    if sections is not hex_map.sections or order is None:
        order = _order(hex_map.sections)
        # One tuple stored at once: a scene built on another thread reads a layout with its own order.
        _last_order = (hex_map.sections, order)
    return order


@lru_cache(maxsize=16)
def _order(sections: tuple[MapSection, ...]) -> HexOrder:
    named = sorted((str(h), h) for h in dict.fromkeys(h for section in sections for h in section.hexes()))
    hexes = tuple(h for _, h in named)
    return HexOrder(hexes, tuple(text for text, _ in named), {h: place for place, h in enumerate(hexes)})


#: Binary digits as the bytes ``compress`` reads as false and true.
_DIGITS = bytes.maketrans(b"01", b"\x00\x01")


class HexSet(AbstractSet[Hex]):
    """Hexes of one map as the sum of their bits in its :class:`HexOrder`.

    A union is ``|`` of two whole numbers, and the names come in order from the binary digits, where a
    ``frozenset`` of hexes hashes each (a :class:`~vectorwar.hexes.Hex` hashes by a Python call) and
    its names must be sorted: an AV:T side's arcs hold some 28,000 hexes.

    >>> order = hex_order(HexMap.single(3, 2))
    >>> arc = HexSet(order, order.bit(order.place[Hex.parse("2,0")]) | order.bit(order.place[Hex.parse("0,1")]))
    >>> arc.names(), Hex.parse("2,0") in arc, Hex.parse("1,1") in arc, arc == {Hex.parse("0,1"), Hex.parse("2,0")}
    (['0,1', '2,0'], True, False, True)
    """

    __slots__ = ("bits", "order")

    def __init__(self, order: HexOrder, bits: int) -> None:
        if bits >> len(order.hexes):
            raise ValueError(f"bits {bits:#x} name hexes beyond the map's {len(order.hexes)}")
        self.order = order
        self.bits = bits

    def __contains__(self, h: object) -> bool:
        place = self.order.place.get(h) if isinstance(h, Hex) else None
        return place is not None and bool(self.bits & self.order.bit(place))

    def __iter__(self) -> Iterator[Hex]:
        return compress(self.order.hexes, self._digits())

    def __len__(self) -> int:
        return self.bits.bit_count()

    def __repr__(self) -> str:
        return f"HexSet({self.names()!r})"

    def names(self) -> list[str]:
        """The hexes' names, sorted (as ``sorted(map(str, self))``)."""
        return list(compress(self.order.names, self._digits()))

    def _digits(self) -> bytes:
        return format(self.bits, f"0{len(self.order.hexes)}b").encode().translate(_DIGITS)
