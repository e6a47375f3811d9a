"""The engine's limits on numbers that come from outside: orders, scenarios, designs, save files.

Every number a player, a scenario author or a save file gives is checked
against these (or against a tighter rule of its system) before anything is
expanded, searched or allocated, so that no request costs more than a
little work however large the number written. Where a rule text sets a
limit, the system checks that one too and its error cites the rule; these
limits only make sure a number never reaches the rules large enough to make
them slow. They sit far above anything the rule texts or the built-in
scenarios use (docs/engine.md, *Limits*).

>>> read_number("12", "hexes forward", MAX_MOVE_STEPS, "Hawk 12")
12
>>> try:
...     read_number("99999999", "hexes forward", MAX_MOVE_STEPS, "Hawk 99999999")
... except OrderLimitError as err:
...     print(err.problem)
hexes forward 99999999 is above the limit of 60 (vectorwar limit MAX_MOVE_STEPS)
"""

from __future__ import annotations

from vectorwar.errors import OrderLimitError, OrderSyntaxError


class Limit(int):
    """A limit's value that also knows its name, so that an error can say which limit it was."""

    name: str

    def __new__(cls, value: int, name: str) -> Limit:
        self = super().__new__(cls, value)
        self.name = name
        return self

    def __getnewargs__(self) -> tuple[int, str]:  # type: ignore[override]  # copies (pydantic's schema) keep the name
        return int(self), self.name


# -- orders ---------------------------------------------------------------------

#: Characters in one order (a whole side's orders for one prompt).
MAX_ORDER_CHARS = Limit(4000, "MAX_ORDER_CHARS")
#: Steps in one MSC move or VV5 manoeuvre (hexes forward, G of thrust, turns).
MAX_MOVE_STEPS = Limit(60, "MAX_MOVE_STEPS")
#: Thrust points in one VMS burn, and an AV:T thrust setting.
MAX_THRUST_POINTS = Limit(999, "MAX_THRUST_POINTS")
#: Hexsides (or advanced rotation points) of one VMS rotation or flat turn.
MAX_ROTATION = Limit(999, "MAX_ROTATION")
#: Missiles in one launch, guns in one VV5 shot.
MAX_WEAPONS = Limit(99, "MAX_WEAPONS")
#: Pieces (shots, launches, burns, actions) given to one ship in one order.
MAX_PIECES_PER_SHIP = Limit(64, "MAX_PIECES_PER_SHIP")

# -- scenarios, designs and save files -------------------------------------------

#: Hexes on a side of one map or map section.
MAX_MAP_SIDE = Limit(200, "MAX_MAP_SIDE")
#: Hexes on the whole map.
MAX_MAP_HEXES = Limit(40_000, "MAX_MAP_HEXES")
#: Sections of one map.
MAX_MAP_SECTIONS = Limit(100, "MAX_MAP_SECTIONS")
#: How far (in hexes) a section's corner may lie from the map's origin.
MAX_MAP_OFFSET = Limit(10_000, "MAX_MAP_OFFSET")
#: Sides in one game.
MAX_SIDES = Limit(8, "MAX_SIDES")
#: Ships in one scenario, all sides together.
MAX_SHIPS = Limit(100, "MAX_SHIPS")
#: A starting velocity's horizontal size (hexes per turn), and a starting SPEED.
MAX_VELOCITY = Limit(60, "MAX_VELOCITY")
#: One count of any velocity written as text (``A=4``), in a scenario, a state or a save file.
MAX_VELOCITY_TERM = Limit(1_000_000, "MAX_VELOCITY_TERM")
#: A starting velocity's vertical part (levels per turn), either way.
MAX_CLIMB = Limit(60, "MAX_CLIMB")
#: A starting altitude (levels above or below the plane), either way.
MAX_ALTITUDE = Limit(200, "MAX_ALTITUDE")
#: Turns a scenario may last.
MAX_TURNS = Limit(200, "MAX_TURNS")
#: Equipment tags on one ship.
MAX_LOADOUT = Limit(32, "MAX_LOADOUT")
#: Any one rating of a design the rules leave open (thrust, pivot cost, boxes of armour, cargo...).
MAX_DESIGN_NUMBER = Limit(99, "MAX_DESIGN_NUMBER")
#: Characters of one equipment tag (``bombs:2``, ``crew:Ivanova:12``).
MAX_TAG_CHARS = Limit(80, "MAX_TAG_CHARS")
#: Any number in a scenario's own designs and in its [setup] and [special] tables, whatever the system
#: (each system's models may bound a field tighter; this holds even where one does not).
MAX_TABLE_NUMBER = Limit(999, "MAX_TABLE_NUMBER")
#: Items of any list in those tables.
MAX_TABLE_ITEMS = Limit(1000, "MAX_TABLE_ITEMS")
#: Tables and lists nested in one another in those tables.
MAX_TABLE_DEPTH = Limit(16, "MAX_TABLE_DEPTH")
#: Designs of a scenario's own.
MAX_DESIGNS = Limit(100, "MAX_DESIGNS")
#: Resolved order batches in a save file (every prompt of the longest game is far fewer).
MAX_HISTORY = Limit(100_000, "MAX_HISTORY")
#: Bits of a game's seed, whoever chose it (a drawn seed has 128: vectorwar.dice.SEED_BITS).
MAX_SEED_BITS = Limit(256, "MAX_SEED_BITS")
#: Commitments and reveals in one play-by-e-mail game file (each resolved prompt takes two a side).
MAX_PBEM_ACTIONS = Limit(200_000, "MAX_PBEM_ACTIONS")
#: Bytes of a play-by-e-mail game file or keyring, refused before it is parsed.
MAX_PBEM_FILE_BYTES = Limit(16 * 1024 * 1024, "MAX_PBEM_FILE_BYTES")
#: Bytes of a save file, refused before it is parsed (the longest game's file is a few hundred kB).
MAX_SAVE_FILE_BYTES = Limit(16 * 1024 * 1024, "MAX_SAVE_FILE_BYTES")
#: Decimal digits of any number read from text before it is compared with its limit.
MAX_DIGITS = Limit(12, "MAX_DIGITS")

# -- text from outside -------------------------------------------------------------

#: Characters of a side's or a ship's id (the names orders and sides use).
MAX_NAME_CHARS = Limit(40, "MAX_NAME_CHARS")
#: Characters of a scenario's id.
MAX_SCENARIO_ID_CHARS = Limit(80, "MAX_SCENARIO_ID_CHARS")
#: Characters of a scenario's title or a side's name: one line.
MAX_TITLE_CHARS = Limit(120, "MAX_TITLE_CHARS")
#: Characters of a scenario's description.
MAX_DESCRIPTION_CHARS = Limit(4000, "MAX_DESCRIPTION_CHARS")

#: Characters that show nothing but change how the text around them is shown: the direction
#: overrides, embeddings, isolates and marks, and the zero-width spaces, joiners and the byte-order
#: mark. In a title or a chat line they can make one text look like another.
INVISIBLE = frozenset(
    chr(c) for c in (*range(0x200B, 0x2010), *range(0x202A, 0x202F), *range(0x2060, 0x2065), *range(0x2066, 0x206A))
) | {"\ufeff"}


def text_problem(text: str, limit: int, *, lines: bool = False) -> str:
    """Why ``text`` from outside may not be kept ("" if it may): too long, or holding a NUL, another
    control character (line breaks and tabs pass when ``lines``) or an :data:`INVISIBLE` one.

    >>> text_problem("Duel at Vega", MAX_TITLE_CHARS)
    ''
    >>> text_problem("x" * 121, MAX_TITLE_CHARS)
    'may be at most 120 characters; this has 121 (vectorwar limit MAX_TITLE_CHARS)'
    >>> text_problem("a\\x00b", MAX_TITLE_CHARS)
    'may hold no control characters (found U+0000 at 2)'
    """
    if len(text) > limit:
        return f"may be at most {limit} characters; this has {len(text)} ({cite(limit)})"
    allowed = "\n\r\t" if lines else ""
    for i, c in enumerate(text):
        if (ord(c) < 32 and c not in allowed) or 0x7F <= ord(c) < 0xA0:
            but = " but line breaks and tabs" if lines else ""
            return f"may hold no control characters{but} (found U+{ord(c):04X} at {i + 1})"
        if c in INVISIBLE:
            return f"may hold no invisible or direction-changing characters (found U+{ord(c):04X} at {i + 1})"
    return ""


def strip_invisible(text: str) -> str:
    """``text`` without its :data:`INVISIBLE` characters."""
    return "".join(c for c in text if c not in INVISIBLE)


def read_number(digits: str, field: str, limit: int, text: str, rule: str = "") -> int:
    """``digits`` as an int, refused when above ``limit`` without building anything from it.

    ``field`` names what the number is for and ``rule`` cites the rule that
    sets ``limit`` (the engine's own limit, by its name here, when empty). A
    number too long to hold is refused on its length alone.
    """
    if not digits.isdecimal():  # str.isdigit() also passes superscripts, which int() refuses
        raise OrderSyntaxError(text, f"{field}: {digits[:24]!r} is not a whole number")
    stripped = digits.lstrip("0") or "0"
    if len(stripped) > MAX_DIGITS or int(stripped) > limit:
        raise OrderLimitError(text, field, stripped, int(limit), rule or cite(limit))
    return int(stripped)


def cite(limit: int) -> str:
    """How an error names an engine limit: ``vectorwar limit MAX_MOVE_STEPS``."""
    return f"vectorwar limit {limit.name}" if isinstance(limit, Limit) else f"vectorwar limit {limit}"
