"""Drawing the display protocol (:mod:`vectorwar.display`) with rich.

The map is drawn hex by hex with outlines, flat-topped, odd columns half a
hex lower, four characters per column::

      0   1   2
     ___     ___
  0 /   \\___/   \\  0
    \\___/↗Ha\\___/
  1 /   \\___/   \\  1

Each hex's inside is the three characters on its upper line; the row number
in the margins belongs to the hexes whose insides are on that line, the
column number above them to their column. So ``↗Ha`` above is in 1,0.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from rich.color import Color, ColorParseError
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from vectorwar.display import Card, Counter
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap

ARROWS: dict[Direction, str] = {
    Direction.A: "↑",
    Direction.B: "↗",
    Direction.C: "↘",
    Direction.D: "↓",
    Direction.E: "↙",
    Direction.F: "↖",
}
WRECK = "✕"
CELL = 4  # characters per map column
INSIDE = 3  # characters inside a hex

TERRAIN_MARKS: dict[str, tuple[str, str]] = {"blocking": ("▓▓▓", "grey62")}
OUTLINE_STYLE = "grey42"
ARC_STYLE = "bold yellow on grey23"
MULTI_ARC = "*"

# Sides whose id is not a colour get these, in scenario order.
PALETTE: tuple[str, ...] = ("red", "blue", "green", "magenta", "cyan", "yellow")

RECORD_ROWS_SHOWN = 8


def side_styles(sides: Sequence[str]) -> dict[str, str]:
    """A colour per side: the side's own name if it is one ("red"), else the palette's."""
    styles: dict[str, str] = {}
    for index, side in enumerate(sides):
        try:
            Color.parse(side.lower())
            colour = side.lower()
        except ColorParseError:
            colour = PALETTE[index % len(PALETTE)]
        styles[side] = f"bold {colour}"
    return styles


def counter_mark(counters: Sequence[Counter]) -> str:
    """The three characters a hex shows for the counters in it."""
    first = counters[0]
    if len(counters) > 1:
        return f"{len(counters)}{first.label[:1]}+"[:INSIDE]
    return f"{counter_head(first)}{first.label[: INSIDE - 1]:<{INSIDE - 1}}"


def counter_head(counter: Counter) -> str:
    """A wreck mark, the facing arrow, or a dot for a piece without a facing."""
    if counter.status == "destroyed":
        return WRECK
    return "●" if counter.facing is None else ARROWS[counter.facing]


def arc_mark(weapons: Sequence[str]) -> str:
    return f"{weapons[0][:INSIDE]:^{INSIDE}}" if len(weapons) == 1 else f"{MULTI_ARC:^{INSIDE}}"


@dataclass
class _Canvas:
    width: int
    height: int
    chars: list[list[str]] = field(init=False)
    styles: list[list[str]] = field(init=False)

    def __post_init__(self) -> None:
        self.chars = [[" "] * self.width for _ in range(self.height)]
        self.styles = [[""] * self.width for _ in range(self.height)]

    def put(self, line: int, x: int, text: str, style: str = "") -> None:
        for i, ch in enumerate(text):
            self.chars[line][x + i] = ch
            self.styles[line][x + i] = style

    def line(self, number: int) -> Text:
        out = Text()
        chars, styles = self.chars[number], self.styles[number]
        start = 0
        # Runs of one style keep the Text small for 30x20 maps.
        for i in range(1, len(chars) + 1):
            if i == len(chars) or styles[i] != styles[start]:
                out.append("".join(chars[start:i]), style=styles[start] or None)
                start = i
        return out


def map_hexes(hex_map: HexMap) -> list[Hex]:
    seen: dict[Hex, None] = {}
    for section in hex_map.sections:
        for h in section.hexes():
            seen.setdefault(h)
    return list(seen)


Window = tuple[int, int, int, int]


def view_window(hex_map: HexMap, focus: Iterable[Hex], max_cols: int = 36, max_rows: int = 22) -> Window:
    """The part of the map to draw: all of it if it fits, else a window centred on ``focus``.

    The window is ``(min_col, min_row, max_col, max_row)`` inclusive and never
    larger than ``max_cols x max_rows``, so a big board stays terminal-sized.
    """
    c0, r0, c1, r1 = hex_map.extent
    if c1 - c0 < max_cols and r1 - r0 < max_rows:
        return c0, r0, c1, r1
    spots = list(focus) or [Hex.from_offset((c0 + c1) // 2, (r0 + r1) // 2)]

    def span(values: list[int], lo_map: int, hi_map: int, size: int) -> tuple[int, int]:
        if hi_map - lo_map < size:
            return lo_map, hi_map
        centre = (min(values) + max(values)) // 2
        start = max(lo_map, min(centre - size // 2, hi_map - size + 1))
        return start, start + size - 1

    wc0, wc1 = span([h.col for h in spots], c0, c1, max_cols)
    wr0, wr1 = span([h.row for h in spots], r0, r1, max_rows)
    return wc0, wr0, wc1, wr1


def render_map(
    hex_map: HexMap,
    counters: Iterable[Counter] = (),
    styles: Mapping[str, str] | None = None,
    arcs: Mapping[str, AbstractSet[Hex]] | None = None,
    window: Window | None = None,
) -> Text:
    """The map as rich Text: outlines, terrain, arc highlights, counters, labels.

    ``window`` limits the drawing to part of the map (see :func:`view_window`).
    """
    styles = styles or {}
    min_col, min_row, max_col, max_row = window or hex_map.extent

    def shown(h: Hex) -> bool:
        return min_col <= h.col <= max_col and min_row <= h.row <= max_row and hex_map.contains(h)

    ncols, nrows = max_col - min_col + 1, max_row - min_row + 1
    canvas = _Canvas(CELL * ncols + 1, 2 * nrows + 2)

    def origin(h: Hex) -> tuple[int, int]:
        """Line of the hex's top edge and column of its left corner."""
        return 2 * (h.row - min_row) + (h.col & 1), CELL * (h.col - min_col)

    row_of_line: dict[int, int] = {}
    for h in map_hexes(hex_map):
        if not shown(h):
            continue
        top, x = origin(h)
        canvas.put(top, x + 1, "_" * INSIDE, OUTLINE_STYLE)
        canvas.put(top + 1, x, "/", OUTLINE_STYLE)
        canvas.put(top + 1, x + CELL, "\\", OUTLINE_STYLE)
        canvas.put(top + 2, x, "\\" + "_" * INSIDE + "/", OUTLINE_STYLE)
        row_of_line[top + 1] = h.row

    def inside(h: Hex, text: str, style: str) -> None:
        if shown(h):
            top, x = origin(h)
            canvas.put(top + 1, x + 1, text, style)

    for where, kind in hex_map.terrain:
        mark, style = TERRAIN_MARKS.get(kind, (f"{kind[:INSIDE]:^{INSIDE}}", "grey62"))
        inside(where, mark, style)

    if arcs:
        weapons_at: dict[Hex, list[str]] = {}
        for weapon, hexes in arcs.items():
            for h in hexes:
                weapons_at.setdefault(h, []).append(weapon)
        for h, weapons in weapons_at.items():
            inside(h, arc_mark(weapons), ARC_STYLE)

    stacks: dict[Hex, list[Counter]] = {}
    for counter in counters:
        stacks.setdefault(counter.position.hex, []).append(counter)
    for h, stack in stacks.items():
        # Live ships above wrecks: the live one is what the players act on.
        stack.sort(key=lambda c: c.status != "active")
        lead = stack[0]
        style = styles.get(lead.side, "bold")
        if lead.status != "active":
            style += " dim"
        if arcs and h in {x for hexes in arcs.values() for x in hexes}:
            style += " on grey23"
        inside(h, counter_mark(stack), style)

    label_width = max(len(str(min_row)), len(str(max_row)))
    header = Text(" " * (label_width + 1))
    for c in range(min_col, max_col + 1):
        header.append(f" {c:^{INSIDE}}"[:CELL], style="bold")
    out = Text()
    out.append_text(header)
    out.append("\n")
    for number in range(canvas.height):
        row = row_of_line.get(number)
        label = "" if row is None else str(row)
        out.append(f"{label:>{label_width}} ", style="bold")
        out.append_text(canvas.line(number))
        out.append(f" {label}".rstrip(), style="bold")
        out.append("\n")
    out.append_text(header)
    return out


def map_legend(
    counters: Iterable[Counter],
    styles: Mapping[str, str],
    hex_map: HexMap,
    arcs_of: str | None = None,
) -> Text:
    """One line naming each counter's label, plus terrain and arc marks."""
    parts: list[Text] = []
    for c in counters:
        where = str(c.position) if hex_map.contains(c.position.hex) else "off the map"
        state = "" if c.status == "active" else f", {c.status}"
        mark = counter_mark([c]).rstrip()
        parts.append(Text(f"{mark} {c.id} ({where}{state})", style=styles.get(c.side, "")))
    kinds = sorted({kind for _, kind in hex_map.terrain})
    for kind in kinds:
        mark, style = TERRAIN_MARKS.get(kind, (kind[:INSIDE], "grey62"))
        parts.append(Text(f"{mark.strip()} {kind}", style=style))
    if arcs_of:
        parts.append(Text(f"F/FL/... = {arcs_of}'s weapon arcs, {MULTI_ARC} = in more than one", style=ARC_STYLE))
    return Text("   ").join(parts)


def render_card(card: Card, styles: Mapping[str, str], record_rows: int = RECORD_ROWS_SHOWN) -> Panel:
    """A card as a panel: label/value lines, then the last ``record_rows`` table rows."""
    body = Table.grid(padding=(0, 1))
    body.add_column(style="bold", no_wrap=True)
    body.add_column(no_wrap=True)
    for label, value in card.rows:
        body.add_row(Text(label), Text(value))
    parts: list[RenderableType] = [body]
    if card.table is not None:
        record = Table(*card.table.headers, box=None, pad_edge=False, show_edge=False, header_style="bold")
        rows = card.table.rows
        hidden = max(0, len(rows) - record_rows)
        for row in rows[hidden:]:
            record.add_row(*(Text(v) for v in row))
        if not rows:
            record.add_row(*(Text("-") for _ in card.table.headers))
        parts.append(Text(""))
        if hidden:
            parts.append(Text(f"({hidden} earlier turns)", style="dim"))
        parts.append(record)
    style = styles.get(card.side, "")
    title = Text(card.title, style=style)
    return Panel(Group(*parts), title=title, title_align="left", border_style=style or "none", expand=False)


def render_cards(cards: Sequence[Card], styles: Mapping[str, str]) -> RenderableType:
    return Columns([render_card(c, styles) for c in cards], padding=(0, 1))
