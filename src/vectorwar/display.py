"""What a rule system shows a player, as plain data any front end can draw.

A system describes its pieces on the map (:class:`Counter`), its record
sheets (:class:`Card`) and, for one ship, the hexes each weapon can reach.
The terminal front end turns these into pictures; a web or GUI front end
could draw the same data without knowing anything about the system.

>>> short_labels(["Raven", "Rook", "Hawk", "Hornet", "R"])
{'Raven': 'Ra', 'Rook': 'Ro', 'Hawk': 'Ha', 'Hornet': 'Ho', 'R': 'R'}
>>> short_labels(["Alpha1", "Alpha2"])
{'Alpha1': 'Al', 'Alpha2': 'A2'}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from vectorwar.hexes import Direction, Hex, Position
from vectorwar.odds import Odds


@dataclass(frozen=True, slots=True)
class Counter:
    """One playing piece on the map."""

    id: str
    side: str
    position: Position
    facing: Direction | None
    status: str = "active"
    label: str = ""
    #: Velocity the way the system's players write it ("A=4, B=2", "speed 3").
    velocity: str = ""
    #: Where the system draws velocity on the map (VV5's vector marker), if anywhere.
    markers: tuple[Hex, ...] = ()


@dataclass(frozen=True, slots=True)
class PlotWarning:
    """Why a legal plot may not be what the player wants, in plain words, and the rule behind it.

    ``mark`` is the few words a plot list shows beside the plot (the default:
    ``reason`` up to its first colon); the whole reason goes in its title.
    """

    reason: str
    rule: str
    mark: str = ""

    @property
    def short(self) -> str:
        return self.mark or self.reason.split(":")[0]


@dataclass(frozen=True, slots=True)
class News:
    """Something a player may want to decide anew about, in plain words (a laser ready with a target in arc).

    ``ship``, ``weapon`` and ``target`` say which shot it is about, when it is
    about one, so that a standing fire order that will take that very shot can
    count it as answered (:mod:`vectorwar.autopilot`).
    """

    text: str
    ship: str = ""
    weapon: str = ""
    target: str = ""


@dataclass(frozen=True, slots=True)
class MoveOption:
    """One legal movement plot for one ship, and what it would do.

    ``text`` is the ship's entry in the side's order ("Hawk 2L1"); a side's
    order is its ships' entries joined by ``"; "``. ``path`` runs from the
    ship's current position to where the plot leaves it (a front end draws it
    as the ghost), and ``facing`` is the facing it ends with.
    """

    text: str
    path: tuple[Position, ...]
    facing: Direction | None

    @property
    def end(self) -> Position:
        return self.path[-1]


@dataclass(frozen=True, slots=True)
class ShotOption:
    """One legal shot a ship may add to a fire declaration.

    ``piece`` is written after the ship's id in the side's order, and a ship's
    pieces are separated by spaces ("Hawk F>Raven FL>Raven"; "X1 fwd*1>Y1").
    ``weapon`` names the entry in :meth:`RuleSystem.arc_hexes` it fires and
    ``label`` says what it is in words ("missile launcher", "mount A: 3 MRLS").
    ``odds`` is what the rules give the shot now (:mod:`vectorwar.odds`), from
    the function resolution reads its number from.

    ``uses`` and ``limit`` let a front end refuse a queue the rules refuse: a
    ship's pieces for one ``weapon`` may add up to at most ``limit`` uses in
    one declaration (VV5: each gun fires twice, so a mount of two guns has 4
    and ``fwd*2`` uses 2), ``limit_rule`` naming the rule; 0 means no limit
    is known beyond the order check.

    ``unit`` names the one gun that fires the shot when it may fire only
    once a declaration (AV:T: the laser, ``A1``): two pieces with the same
    non-empty unit are never legal together. ``cost`` is what the shot
    spends of the ship's ``budget`` for one declaration (AV:T: a laser's
    power against the batteries), ``budget_rule`` naming the rule; a budget
    of 0 sets no such limit.

    ``volley`` is how many times "every weapon that reaches this target"
    queues the piece: 1 for one shot per weapon, more where firing it again
    at the same target is legal and costs nothing lasting (VV5: a mount's
    guns fire together, twice, under rapid fire), 0 for a piece that is not
    the weapon's default shot (a smaller gun group; more than one missile).
    """

    weapon: str
    target: str
    piece: str
    label: str = ""
    odds: Odds | None = None
    uses: int = 1
    limit: int = 0
    limit_rule: str = ""
    unit: str = ""
    cost: int = 0
    budget: int = 0
    budget_rule: str = ""
    volley: int = 1


@dataclass(frozen=True, slots=True)
class OrderPiece:
    """One more action a ship may add to its entry, besides its move and its shots.

    Systems whose single order entry per ship combines movement with other
    choices (AV:T: ``Rafik thrust 5 bias A pivot B/C fire A1>Square``) offer
    them as pieces. ``group`` is a player-facing label for a set of
    alternatives, of which a front end lets the player pick at most one
    ("pivot", "roll", "bias", "reactors", "radiators"); ``text`` is what the
    piece writes into the ship's entry ("pivot B/C").

    A front end composes a ship's entry from, separated by spaces:

    1. the ship's id;
    2. the chosen :class:`MoveOption`'s text without the ship's id (its
       body); a body of ``hold`` contributes nothing when anything else is
       chosen;
    3. the text of each chosen piece, in the order of the groups;
    4. the piece of each chosen :class:`ShotOption`.

    Each piece offered is legal on its own with no other action; pieces
    together may still break a rule (a pivot and a roll at once), which the
    order check reports.
    """

    group: str
    text: str
    #: The pieces alone write the whole entry (VMS: burns, rotation, flat turn): a front end composes
    #: the entry from the ship id and the chosen pieces ("drift" when none), and shows the ghost of the
    #: move option whose text is the same.
    whole: bool = False


@dataclass(frozen=True, slots=True)
class SetupOption:
    """One choice a set-up phase offers: the order text it gives, and what it is and costs."""

    order: str  # a "pick" menu's whole order ("buy 2 harpy"); a "fleet" menu's design for one entry ("ship1")
    label: str
    cost: int = 0
    stats: str = ""
    group: str = ""  # options of one design or kind, shown together


@dataclass(frozen=True, slots=True)
class SetupMenu:
    """A set-up phase (a purchase, a placement, a fleet to build) as a menu for front ends.

    ``kind`` is ``"pick"`` (one option is the whole order; ``finish``, when
    not empty, is the order that ends the side's set-up), ``"fleet"``
    (options are designs, each chosen one becomes an entry ``NAME DESIGN``
    and the entries, joined by ``"; "``, are the order; ``custom`` describes
    the ratings a design written out may have, for a designer) or ``"deploy"``
    (``custom`` holds the zone's hexes and each ship's choices: a start hex
    and a SPEED up to ``max_speed``; entries ``NAME HEX SPEED``). ``budget``
    and ``left`` are in ``unit`` (``None``: nothing to spend).
    """

    kind: str
    title: str
    options: tuple[SetupOption, ...]
    unit: str = ""
    budget: int | None = None
    left: int | None = None
    finish: str = ""
    custom: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class CardTable:
    """A table on a card, like a record sheet's turn-by-turn lines."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Card:
    """A record sheet: a title, label/value lines and an optional table."""

    title: str
    side: str
    rows: tuple[tuple[str, str], ...]
    table: CardTable | None = None
    status: str = "active"


def short_labels(ids: Iterable[str], width: int = 2) -> dict[str, str]:
    """Unique labels of at most ``width`` characters for map counters.

    The first letters are tried first because players recognise them;
    a clash falls back to the first letter plus a distinguishing character.
    """
    ids = list(ids)
    labels: dict[str, str] = {}
    used: set[str] = set()
    for ident in ids:
        candidates = [ident[:width], *(ident[0] + c for c in ident[1:][::-1]), *(ident[0] + str(n) for n in range(10))]
        label = next((c for c in candidates if c not in used), ident[:width])
        labels[ident] = label
        used.add(label)
    return labels
