"""AV:T orders: what a captain intends this segment, in a text notation.

The paper game has players check boxes on the orders console every segment
(A4.12, A5.212); here a side writes its intentions and the computer keeps
every chart. One entry per ship that does something, entries separated by
``;``, actions by ``,`` or by spaces alone (a new action begins at each
action word: thrust, bias, pivot, roll, fire, reactors, radiators), which is
how a front end joins the pieces a player picked
(docs/rulings/avt.md, *AV:T actions separated by spaces*):

* ``thrust N``: set the engine to thrust N (0 turns it off); it stays on
  until changed (A5.242);
* ``bias X``: the direction odd acceleration dots go to when thrusting at a
  hex corner (A5.272);
* ``pivot W``: begin a pivot that brings the nose to AVID window ``W``
  (``A``, ``B/C``, ``C+``, ``up`` ...) by the quickest path (A5.221);
* ``roll stbd N`` or ``roll port N``: begin a roll of N x 30 degrees;
* ``fire A1>Square B1>Square``: fire lasers (mount letter and row) at targets,
  shots separated by spaces; the word may be repeated before each shot
  (``fire A1>Square fire B1>Square``), which is how a front end adds shots one
  piece at a time (``fire_options``). Shots written with commas
  (``fire A1>Square, B1>Square``) are read as the same list, since that is
  how a list is usually written; a shot with no ``fire`` before it is refused;
* ``aim REGION``: where the ship's shots land when the target sees them on
  the boundary of two armour regions (A5.431), like ``aim nose-top``; without
  it the thinner armour is chosen;
* ``electronics BOX``: the defender's choice (A5.457) of the electronics box
  this ship gives up first when its Electronics are hit, like
  ``electronics communications``; it stands until changed;
* ``repair SYSTEM``: set a free repair team on one damaged box of a system
  (``repair reactors``, ``repair A1``, ``repair sensors``); two turns, 6+ on
  a d10 (A5.48);
* ``reactors on`` or ``reactors off``, ``radiators out`` or ``radiators in``:
  the choices of the end-of-turn procedure, written during the turn and
  carried out between segment 8 and segment 1 (A5.39, A5.392).

``hold`` changes nothing; so does a ship's own entry ``Rafik hold``, which
lets a side write an entry for every ship. Printing an order gives the
canonical text, which reads back to the same order.

>>> o = parse_orders("Rafik pivot c+, thrust 4; ", {"rafik": "Rafik"}, {"square": "Square"})
>>> str(o)
'Rafik thrust 4, pivot C+'
>>> str(parse_orders("rafik fire a1>square B1>Square, roll port 2", {"rafik": "Rafik"}, {"square": "Square"}))
'Rafik roll port 2, fire A1>Square B1>Square'
>>> str(parse_orders("Rafik fire A1>Square fire B1>Square", {"rafik": "Rafik"}, {"square": "Square"}))
'Rafik fire A1>Square B1>Square'
>>> str(parse_orders("Rafik fire A1>Square, B1>Square, thrust 2", {"rafik": "Rafik"}, {"square": "Square"}))
'Rafik thrust 2, fire A1>Square B1>Square'
>>> str(parse_orders("Rafik thrust 3 pivot B/C fire A1>Square fire A2>Square", {"rafik": "Rafik"}, {}))
'Rafik thrust 3, pivot B/C, fire A1>Square A2>Square'
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from vectorwar.errors import OrderLimitError, OrderSyntaxError
from vectorwar.hexes import Direction
from vectorwar.limits import MAX_PIECES_PER_SHIP, MAX_THRUST_POINTS, cite, read_number
from vectorwar.systems.avt.avid import Window
from vectorwar.systems.avt.design import REGIONS

_SHOT = re.compile(r"^([A-Za-z])(\d)>([A-Za-z][A-Za-z0-9_-]*)$")
HOLD = ("hold", "-", "pass")
#: Actions whose next word is their object, whatever it is (``repair reactors``, ``electronics fire control``).
_OBJECT_VERBS = frozenset({"repair", "electronics"})
#: A roll of 12 x 30 degrees is a whole turn, the most any roll chart could hold (A2.4).
MAX_ROLL_STEPS = 12
RULE_ROLL_STEPS = "a whole turn, AV:T (A2.4) rolls"
#: Characters of a pivot's window: the longest written form is a dozen.
MAX_WINDOW_CHARS = 24
#: The words that begin an action: with no comma before it, a new action starts at each of them.
VERBS = frozenset(
    {
        "thrust",
        "bias",
        "pivot",
        "roll",
        "fire",
        "aim",
        "electronics",
        "repair",
        "reactors",
        "reactor",
        "radiators",
        "radiator",
    }
)


@dataclass(frozen=True, slots=True)
class Shot:
    laser: str
    target: str

    def __str__(self) -> str:
        return f"{self.laser}>{self.target}"


@dataclass(frozen=True, slots=True)
class ShipOrders:
    """One ship's orders for the segment; ``None``/0/empty means no change."""

    ship: str
    thrust: int | None = None
    bias: Direction | None = None
    pivot: Window | None = None
    roll: int = 0
    shots: tuple[Shot, ...] = ()
    aim: str | None = None
    electronics: str | None = None
    repair: str | None = None
    reactors: bool | None = None
    radiators: Literal["in", "out"] | None = None

    def actions(self) -> list[str]:
        out: list[str] = []
        if self.thrust is not None:
            out.append(f"thrust {self.thrust}")
        if self.bias is not None:
            out.append(f"bias {self.bias}")
        if self.pivot is not None:
            out.append(f"pivot {self.pivot}")
        if self.roll:
            out.append(f"roll {'stbd' if self.roll > 0 else 'port'} {abs(self.roll)}")
        if self.shots:
            out.append("fire " + " ".join(str(s) for s in self.shots))
        if self.aim is not None:
            out.append(f"aim {self.aim}")
        if self.electronics is not None:
            out.append(f"electronics {self.electronics}")
        if self.repair is not None:
            out.append(f"repair {self.repair}")
        if self.reactors is not None:
            out.append(f"reactors {'on' if self.reactors else 'off'}")
        if self.radiators is not None:
            out.append(f"radiators {self.radiators}")
        return out

    @property
    def empty(self) -> bool:
        return (
            self.thrust is None
            and self.bias is None
            and self.pivot is None
            and not self.roll
            and not self.shots
            and self.aim is None
            and self.electronics is None
            and self.repair is None
            and self.reactors is None
            and self.radiators is None
        )

    def __str__(self) -> str:
        return " ".join([self.ship, ", ".join(self.actions())]) if not self.empty else self.ship


@dataclass(frozen=True, slots=True)
class SegmentOrders:
    """A side's orders for one segment, one entry per ship given orders, in the side's ship order."""

    ships: tuple[ShipOrders, ...] = ()

    def __str__(self) -> str:
        given = [str(s) for s in self.ships if not s.empty]
        return "; ".join(given) if given else "hold"

    def for_ship(self, ship: str) -> ShipOrders | None:
        return next((s for s in self.ships if s.ship == ship), None)

    def with_entry(self, entry: ShipOrders) -> SegmentOrders:
        """These orders with ``entry`` in place of its ship's entry, or added last if the ship has none."""
        if self.for_ship(entry.ship) is None:
            return SegmentOrders((*self.ships, entry))
        return SegmentOrders(tuple(entry if s.ship == entry.ship else s for s in self.ships))


def _action(text: str, entry: str, current: ShipOrders, targets: dict[str, str]) -> ShipOrders:
    """``current`` with the one action ``entry`` (a part of the order ``text``) added to it."""
    words = entry.split()
    verb = words[0].lower() if words else ""
    verb = {"reactor": "reactors", "radiator": "radiators"}.get(verb, verb)
    read = _VERBS.get(verb)
    if read is None:
        if words and _SHOT.match(words[0]):
            raise OrderSyntaxError(
                text,
                f"{entry!r}: a shot goes after the word fire, shots separated by spaces: 'fire A1>Square A2>Square'",
            )
        raise OrderSyntaxError(
            text,
            f"{entry!r}: an action is thrust, bias, pivot, roll, fire, aim, electronics, repair, reactors or radiators "
            "(or hold alone)",
        )
    given = _GIVEN.get(verb)
    if given is not None and given(current):
        raise OrderSyntaxError(text, f"{verb!r} given twice for {current.ship}")
    return read(_Entry(text, entry, words[1:], current, targets))


@dataclass(frozen=True, slots=True)
class _Entry:
    """One action being read: the whole order (for messages), the action, its words after the verb."""

    text: str
    entry: str
    rest: list[str]
    current: ShipOrders
    targets: dict[str, str]

    def wrong(self, problem: str) -> OrderSyntaxError:
        return OrderSyntaxError(self.text, f"{self.entry!r}: {problem}")


def _thrust(e: _Entry) -> ShipOrders:
    if len(e.rest) != 1 or not e.rest[0].isdigit():
        raise e.wrong("write thrust and a whole number, like 'thrust 5'")
    return replace(e.current, thrust=read_number(e.rest[0], "thrust", MAX_THRUST_POINTS, e.text))


def _bias(e: _Entry) -> ShipOrders:
    if len(e.rest) != 1:
        raise e.wrong("write bias and a direction, like 'bias A'")
    try:
        return replace(e.current, bias=Direction.parse(e.rest[0]))
    except OrderSyntaxError as err:
        raise e.wrong(err.problem) from None


def _pivot(e: _Entry) -> ShipOrders:
    if not e.rest:
        raise e.wrong("write pivot and the nose's new window, like 'pivot B/C'")
    window = " ".join(e.rest)
    if len(window) > MAX_WINDOW_CHARS:
        # The longest window name ("F/A (amber +)") is far shorter; nothing longer is worth matching.
        raise OrderLimitError(
            e.text, "the pivot's window, in characters", str(len(window)), MAX_WINDOW_CHARS, "AV:T window names"
        )
    try:
        return replace(e.current, pivot=Window.parse(window))
    except OrderSyntaxError as err:
        raise e.wrong(err.problem) from None


def _roll(e: _Entry) -> ShipOrders:
    rest = e.rest
    side = rest[0].lower() if rest else ""
    if len(rest) != 2 or side not in ("stbd", "starboard", "port") or not rest[1].isdigit() or rest[1] == "0":
        raise e.wrong("write roll, stbd or port, and 30-degree steps: 'roll stbd 2'")
    steps = read_number(rest[1], "roll steps", MAX_ROLL_STEPS, e.text, RULE_ROLL_STEPS)
    return replace(e.current, roll=steps * (-1 if side == "port" else 1))


def _fire(e: _Entry) -> ShipOrders:
    if not e.rest:
        raise e.wrong("list shots as LASER>TARGET, like 'fire A1>Square'")
    # Shots add to any already listed: the word fire may come before each of them.
    shots: list[Shot] = list(e.current.shots)
    for piece in e.rest:
        if piece.lower() == "fire":
            continue
        m = _SHOT.match(piece)
        if not m:
            raise OrderSyntaxError(e.text, f"{piece!r}: a shot is a laser (mount letter and row) > target: A1>Square")
        if len(shots) >= MAX_PIECES_PER_SHIP:
            raise OrderLimitError(
                e.text,
                f"shots by {e.current.ship}",
                str(len(shots) + 1),
                MAX_PIECES_PER_SHIP,
                cite(MAX_PIECES_PER_SHIP),
            )
        target = e.targets.get(m.group(3).lower(), m.group(3))
        shots.append(Shot(f"{m.group(1).upper()}{m.group(2)}", target))
    if len(shots) == len(e.current.shots):
        raise e.wrong("list shots as LASER>TARGET, like 'fire A1>Square'")
    return replace(e.current, shots=tuple(shots))


def _aim(e: _Entry) -> ShipOrders:
    if len(e.rest) != 1 or e.rest[0].lower() not in REGIONS:
        raise e.wrong(f"write aim and an armour region: {', '.join(REGIONS)}")
    return replace(e.current, aim=e.rest[0].lower())


def _electronics(e: _Entry) -> ShipOrders:
    if not e.rest or len(" ".join(e.rest)) > 40:
        raise e.wrong("write electronics and the box to give up first, like 'electronics sensors'")
    return replace(e.current, electronics=" ".join(e.rest).lower())


#: A laser named as a repair's object: ``A1``, or ``laser A1`` in full.
_LASER_NAME = re.compile(r"^(?:laser\s+)?([a-z])(\d)$")


def repair_object(text: str) -> str:
    """A repair's object as an order prints it: a laser by its name as the SSD writes it, any other system in
    lower case, so an order reads back as it was written.

    >>> repair_object("laser a1"), repair_object("A1"), repair_object("Heat  Sinks")
    ('A1', 'A1', 'heat sinks')
    """
    t = " ".join(text.lower().split())
    m = _LASER_NAME.match(t)
    return f"{m.group(1).upper()}{m.group(2)}" if m else t


def _repair(e: _Entry) -> ShipOrders:
    if not e.rest or len(" ".join(e.rest)) > 40:
        raise e.wrong("write repair and the damaged system, like 'repair reactors'")
    return replace(e.current, repair=repair_object(" ".join(e.rest)))


def _reactors(e: _Entry) -> ShipOrders:
    if len(e.rest) != 1 or e.rest[0].lower() not in ("on", "off"):
        raise e.wrong("write 'reactors on' or 'reactors off' (for the next turn)")
    return replace(e.current, reactors=e.rest[0].lower() == "on")


def _radiators(e: _Entry) -> ShipOrders:
    wanted = e.rest[0].lower() if len(e.rest) == 1 else ""
    if wanted not in ("in", "out"):
        raise e.wrong("write 'radiators out' or 'radiators in' (they move next turn)")
    return replace(e.current, radiators="out" if wanted == "out" else "in")


#: How each action word is read.
_VERBS: dict[str, Callable[[_Entry], ShipOrders]] = {
    "thrust": _thrust,
    "bias": _bias,
    "pivot": _pivot,
    "roll": _roll,
    "fire": _fire,
    "aim": _aim,
    "electronics": _electronics,
    "repair": _repair,
    "reactors": _reactors,
    "radiators": _radiators,
}

#: The actions a ship gives at most once a segment, and whether ``current`` already has each.
_GIVEN: dict[str, Callable[[ShipOrders], bool]] = {
    "thrust": lambda c: c.thrust is not None,
    "bias": lambda c: c.bias is not None,
    "pivot": lambda c: c.pivot is not None,
    "roll": lambda c: c.roll != 0,
    "aim": lambda c: c.aim is not None,
    "electronics": lambda c: c.electronics is not None,
    "repair": lambda c: c.repair is not None,
    "reactors": lambda c: c.reactors is not None,
    "radiators": lambda c: c.radiators is not None,
}


def split_actions(rest: str) -> list[str]:
    """A ship's actions, split at commas and before every action word.

    A bare shot right after a fire action continues its list, since players
    list shots with commas too (``fire A1>Square, A2>Square``).

    >>> split_actions("thrust 3 bias A, pivot B/C fire A1>Square, A2>Square fire B1>Square")
    ['thrust 3', 'bias A', 'pivot B/C', 'fire A1>Square', 'fire A2>Square', 'fire B1>Square']
    >>> split_actions("repair reactors thrust 2 electronics fire control")
    ['repair reactors', 'thrust 2', 'electronics fire control']
    """
    out: list[str] = []
    for part in rest.split(","):
        words = part.split()
        if not words:
            continue
        if out and out[-1].split()[0].lower() == "fire" and _SHOT.match(words[0]):
            words.insert(0, "fire")
        actions: list[list[str]] = []
        for word in words:
            # The word after repair or electronics names a system, even one spelt like an action (reactors).
            names_object = bool(actions) and len(actions[-1]) == 1 and actions[-1][0].lower() in _OBJECT_VERBS
            if not actions or (word.lower() in VERBS and not names_object):
                actions.append([word])
            else:
                actions[-1].append(word)
        out.extend(" ".join(a) for a in actions)
    return out


def parse_orders(text: str, own: dict[str, str], targets: dict[str, str]) -> SegmentOrders:
    """Read a side's orders. ``own`` and ``targets`` map lower-case ship ids to ids."""
    if text.strip().lower() in HOLD:
        return SegmentOrders()
    if not text.strip():
        raise OrderSyntaxError(text, "give each ship's actions, or 'hold' to change nothing")
    entries: dict[str, ShipOrders] = {}
    named: set[str] = set()
    for raw in text.split(";"):
        chunk = raw.strip()
        if not chunk:
            continue
        name, _, rest = chunk.partition(" ")
        ship = own.get(name.lower())
        if ship is None:
            raise OrderSyntaxError(
                text, f"{chunk!r}: no ship of yours called {name!r} (yours: {', '.join(own.values()) or 'none'})"
            )
        if ship in named:
            raise OrderSyntaxError(text, f"{ship} has two entries; put all its actions in one")
        named.add(ship)
        if rest.strip().lower() in HOLD:
            continue
        orders = ShipOrders(ship)
        for piece in split_actions(rest):
            orders = _action(text, piece, orders, targets)
        if orders.empty:
            raise OrderSyntaxError(
                text, f"{chunk!r}: give {ship} an action (thrust, bias, pivot, roll, fire, reactors, radiators) or hold"
            )
        entries[ship] = orders
    order = list(own.values())
    return SegmentOrders(tuple(sorted(entries.values(), key=lambda o: order.index(o.ship))))
