"""VV5 order notation.

* Declaration order (the initiative side's choice): ``blue, red``: the sides
  in the order they declare missiles and gunfire. Naming only the first side
  is enough; the rest follow in side order.
* Missile launches: ``X1 2>Y1; X2 1>Y2`` (ship, missiles, target) or ``hold``.
* Gunfire: ``X1 fwd*2>Y1 fwd*2>Y1; X2 t360*1>Y3``: each shot is a gun mount
  (``fwd`` forward guns, ``f180``/``a180``/``l180``/``r180`` 180-degree turrets,
  ``t360`` 360-degree turret), how many of its guns fire together, and the
  target. Each gun may fire twice a turn (rapid fire). ``hold`` fires nothing.
* Movement plot, written as the text writes it: ``RR1`` turns right twice
  then accelerates 1G in the new heading; digits are G of acceleration, ``L``
  and ``R`` 60-degree rotations, ``0`` drifts. A side's plot: ``X1 RR1; X2 0``.
  With Experienced Crews, ``X2 escape`` in place of a plot: the crew leave
  their ship (a voluntary escape). In a Dogfight played with ``board_shift``,
  ``X1 2 retreat`` lets the ship leave the board if its move ends off it
  (otherwise every ship is shifted back on).

>>> m = Manoeuvre.parse("RR1")
>>> m.steps, m.turns, m.thrust, str(m)
(('R', 'R', '1'), 2, 1, 'RR1')
>>> str(Manoeuvre.parse("1 1L0"))
'2L'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from vectorwar.errors import OrderLimitError, OrderSyntaxError
from vectorwar.limits import MAX_MOVE_STEPS, MAX_PIECES_PER_SHIP, MAX_WEAPONS, cite, read_number
from vectorwar.notation import entries, grouped, is_hold, ship_pieces
from vectorwar.roster import id_lookup
from vectorwar.systems.vv5.arcs import ARC_CODES, CODE_OF

_PLOT = re.compile(r"^[0-9LRlr ]+$")
_TOKENS = re.compile(r"\d+|[LRlr]")
_LAUNCH = re.compile(r"^(\d+)\s*>\s*([A-Za-z][A-Za-z0-9_-]*)$")
_SHOT = re.compile(r"^([a-z0-9]+)(?:\*(\d+))?>([A-Za-z][A-Za-z0-9_-]*)$", re.IGNORECASE)


def _ship(name: str, ships: dict[str, str], text: str) -> str:
    ship = ships.get(name.lower())
    if ship is None:
        raise OrderSyntaxError(text, f"no ship of yours called {name!r} (yours: {', '.join(ships.values()) or 'none'})")
    return ship


def _count_piece(given: list[Launch] | list[Shot], ship: str, text: str, what: str) -> None:
    """Refuse one more launch or shot by ``ship`` once it has the most one entry may hold."""
    if sum(1 for g in given if g.ship == ship) >= MAX_PIECES_PER_SHIP:
        raise OrderLimitError(
            text, f"{what} by {ship}", str(MAX_PIECES_PER_SHIP + 1), MAX_PIECES_PER_SHIP, cite(MAX_PIECES_PER_SHIP)
        )


@dataclass(frozen=True, slots=True)
class DeclareOrder:
    sides: tuple[str, ...]

    def __str__(self) -> str:
        return ", ".join(self.sides)

    @classmethod
    def parse(cls, text: str, sides: tuple[str, ...]) -> DeclareOrder:
        lookup = id_lookup(sides)
        named: list[str] = []
        for word in re.split(r"[,\s]+", text.strip()):
            if not word or word.lower() == "first":
                continue
            side = lookup.get(word.lower())
            if side is None:
                raise OrderSyntaxError(text, f"{word!r} is not a side in play ({', '.join(sides)})")
            if side in named:
                raise OrderSyntaxError(text, f"{side} is named twice")
            named.append(side)
        if not named:
            example = f", e.g. '{sides[0]} first'" if sides else ""
            raise OrderSyntaxError(text, f"name the side that declares first{example}")
        return cls((*named, *(s for s in sides if s not in named)))


@dataclass(frozen=True, slots=True)
class Launch:
    ship: str
    missiles: int
    target: str


@dataclass(frozen=True, slots=True)
class Launches:
    launches: tuple[Launch, ...]

    def __str__(self) -> str:
        return "; ".join(f"{x.ship} {x.missiles}>{x.target}" for x in self.launches) or "hold"

    @classmethod
    def parse(cls, text: str, own: dict[str, str], targets: dict[str, str]) -> Launches:
        if is_hold(text):
            return cls(())
        out: list[Launch] = []
        usage = "give COUNT>TARGET after the ship, like 'X1 2>Y1'"
        for ship, piece in ship_pieces(text, lambda name, _: _ship(name, own, text), usage):
            m = _LAUNCH.match(piece)
            if not m:
                raise OrderSyntaxError(text, f"{piece!r}: a launch is COUNT>TARGET, like 2>Y1")
            _count_piece(out, ship, text, "launches")
            missiles = read_number(m.group(1), "missiles in one launch", MAX_WEAPONS, text)
            out.append(Launch(ship, missiles, targets.get(m.group(2).lower(), m.group(2))))
        if not out:
            raise OrderSyntaxError(text, "give launches like 'X1 2>Y1', or 'hold'")
        return cls(tuple(out))


@dataclass(frozen=True, slots=True)
class Shot:
    ship: str
    mount: str  # the mount's arc name, e.g. "forward"
    guns: int
    target: str


@dataclass(frozen=True, slots=True)
class Gunfire:
    shots: tuple[Shot, ...]

    def __str__(self) -> str:
        return grouped((s.ship, f"{CODE_OF[s.mount]}*{s.guns}>{s.target}") for s in self.shots) or "hold"

    @classmethod
    def parse(
        cls, text: str, own: dict[str, str], targets: dict[str, str], guns: dict[tuple[str, str], int]
    ) -> Gunfire:
        """``guns`` maps (ship, mount arc) to working guns, the default count for a shot."""
        if is_hold(text):
            return cls(())
        out: list[Shot] = []
        usage = "give MOUNT*GUNS>TARGET after the ship, like 'X1 fwd*2>Y1'"
        for ship, piece in ship_pieces(text, lambda name, _: _ship(name, own, text), usage):
            m = _SHOT.match(piece)
            if not m:
                raise OrderSyntaxError(text, f"{piece!r}: a shot is MOUNT*GUNS>TARGET, like fwd*2>Y1")
            code = m.group(1).lower()
            if code not in ARC_CODES:
                raise OrderSyntaxError(text, f"{piece!r}: {code!r} is not a mount ({', '.join(ARC_CODES)})")
            mount = ARC_CODES[code]
            _count_piece(out, ship, text, "shots")
            count = (
                read_number(m.group(2), "guns in one shot", MAX_WEAPONS, text)
                if m.group(2)
                else guns.get((ship, mount), 0)
            )
            out.append(Shot(ship, mount, count, targets.get(m.group(3).lower(), m.group(3))))
        if not out:
            raise OrderSyntaxError(text, "give shots like 'X1 fwd*2>Y1', or 'hold'")
        return cls(tuple(out))


@dataclass(frozen=True, slots=True)
class Manoeuvre:
    """One ship's plot: rotations (L, R) and accelerations (digits, in G)."""

    steps: tuple[str, ...]

    @property
    def turns(self) -> int:
        return _sizes(self.steps)[0]

    @property
    def thrust(self) -> int:
        return _sizes(self.steps)[1]

    @classmethod
    def parse(cls, text: str) -> Manoeuvre:
        t = text.strip()
        if not t or not _PLOT.match(t):
            raise OrderSyntaxError(text, "a plot is L/R (60-degree rotations) and digits (G of thrust), like RR1, or 0")
        steps: list[str] = []
        size = 0  # G and turns so far: the plot is refused as soon as it passes the limit
        for token in _TOKENS.findall(t):
            token = token.upper()
            size += read_number(token, "G of thrust", MAX_MOVE_STEPS, text) if token.isdigit() else 1
            if size > MAX_MOVE_STEPS:
                raise OrderLimitError(text, "G and turns in one plot", str(size), MAX_MOVE_STEPS, cite(MAX_MOVE_STEPS))
            if token.isdigit():
                if int(token) == 0:
                    continue
                if steps and steps[-1].isdigit():
                    steps[-1] = str(int(steps[-1]) + int(token))  # "1 1" is 2G in one heading
                    continue
                token = str(int(token))
            steps.append(token)
        return cls(tuple(steps))

    def __str__(self) -> str:
        return "".join(self.steps) or "0"


@lru_cache(maxsize=4096)
def _sizes(steps: tuple[str, ...]) -> tuple[int, int]:
    """A plot's rotations and G of thrust (asked for every plot checked and flown; few plots recur)."""
    return sum(1 for s in steps if s in ("L", "R")), sum(int(s) for s in steps if s.isdigit())


ESCAPE = "escape"
RETREAT = "retreat"


@dataclass(frozen=True, slots=True)
class Plot:
    """A side's plot: each ship's manoeuvre, the ships whose crews escape instead (``X1 escape``),
    and the ships let retreat off the board (``X1 2 retreat``)."""

    moves: tuple[tuple[str, Manoeuvre], ...]
    escapes: tuple[str, ...] = ()
    retreats: tuple[str, ...] = ()

    def __str__(self) -> str:
        retreats = self.retreats
        entries = [f"{ship} {move} {RETREAT}" if ship in retreats else f"{ship} {move}" for ship, move in self.moves]
        return "; ".join([*entries, *(f"{s} {ESCAPE}" for s in self.escapes)] if self.escapes else entries)

    @classmethod
    def parse(cls, text: str, own: dict[str, str]) -> Plot:
        moves: list[tuple[str, Manoeuvre]] = []
        escapes: list[str] = []
        retreats: list[str] = []
        for entry in entries(text):
            parts = entry.split(None, 1)
            if len(parts) != 2:
                raise OrderSyntaxError(text, f"{entry!r}: each entry is SHIP PLOT, like 'X1 RR1'")
            ship = _ship(parts[0], own, text)
            body = parts[1].strip()
            if body.lower() == ESCAPE:
                escapes.append(ship)
                continue
            words = body.rsplit(None, 1)
            if words[-1].lower() == RETREAT:
                retreats.append(ship)
                body = words[0] if len(words) == 2 else "0"  # "X1 retreat" drifts off
            moves.append((ship, Manoeuvre.parse(body)))
        if not moves and not escapes:
            raise OrderSyntaxError(text, "a plot lists each ship, like 'X1 RR1; X2 0'")
        return cls(tuple(moves), tuple(escapes), tuple(retreats))
