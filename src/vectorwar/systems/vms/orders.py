"""VMS order notation: movement plots and initiative choices.

A ship's plot lists its burns, then its rotation, then a flat turn:

* ``aft1:B=4``: 4 thrust points through thruster ``aft1`` pushing the ship
  toward direction B (translational thrust, bought at the accel/decel cost,
  so 4 points are 2 hexes/turn for a cost of 2);
* ``port1:rot=1``: 1 rotational thrust point through ``port1``;
* ``R1`` / ``L2``: the rotation this turn, right (clockwise) or left. For
  capital and medium ships and civilians it is the *change* of rotation
  speed, the text's "This" boxes (the rotational burns must pay its pivot
  cost exactly); for fighters and shuttles, the hexsides turned at the end of
  the move (1 rotational point each);
* ``flat:R1``: a flat turn of the vector and the facing (ships with a flat
  turn cost only);
* ``drift``: no thrust and no rotation change (a rotating ship keeps turning).

A side's plot gives every ship of the subphase: ``Hawk aft1:B=4 port1:rot=1 R1;
Kite drift``. The text's movement example, turn 3, is ``aft1:B=4 port1:rot=1 R1``.

>>> p = parse_ship_plot("AFT1:b=4 port1:ROT=1 r1")
>>> str(p), p.rotation
('aft1:B=4 port1:rot=1 R1', 1)
>>> str(parse_ship_plot("drift")), str(parse_ship_plot("flat:L1"))
('drift', 'flat:L1')

Initiative choices name a subphase for each ship that may move early or
late: ``Viper remaining; Wasp fighters`` (``capital``, ``shuttles``,
``medium``, ``fighters``, ``remaining``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from vectorwar.errors import OrderLimitError, OrderSyntaxError
from vectorwar.hexes import Direction
from vectorwar.limits import MAX_PIECES_PER_SHIP, MAX_ROTATION, MAX_THRUST_POINTS, cite, read_number
from vectorwar.notation import entries
from vectorwar.systems.vms.initiative import CAPITAL, FIGHTERS, MEDIUM, REMAINING, SHUTTLES
from vectorwar.systems.vms.movement import Plot
from vectorwar.systems.vms.thrust import Burn

_BURN = re.compile(r"^([a-z]+[1-4]):(rot|[a-f])=(\d+)$", re.IGNORECASE)
_TURN = re.compile(r"^(flat:)?([rl])(\d+)$", re.IGNORECASE)
DRIFT = "drift"

SUBPHASE_WORDS: dict[str, str] = {
    "capital": CAPITAL,
    "shuttles": SHUTTLES,
    "medium": MEDIUM,
    "fighters": FIGHTERS,
    "remaining": REMAINING,
}
WORD_OF: dict[str, str] = {v: k for k, v in SUBPHASE_WORDS.items()}


def parse_ship_plot(text: str) -> Plot:
    """Read one ship's plot (the part after its name); ``str`` of the result prints it back."""
    burns: list[Burn] = []
    rotation: int | None = None
    flat: int | None = None
    words = text.split()
    if not words:
        raise OrderSyntaxError(text, "a plot is burns like aft1:B=4, a rotation like R1, or 'drift'")
    for word in words:
        if word.lower() == DRIFT:
            if len(words) > 1:
                raise OrderSyntaxError(text, "'drift' stands alone: it means no thrust at all")
            continue
        burn = _BURN.match(word)
        if burn:
            thruster, push, digits = burn.groups()
            if len(burns) >= MAX_PIECES_PER_SHIP:
                raise OrderLimitError(
                    text, "burns in one plot", str(len(burns) + 1), MAX_PIECES_PER_SHIP, cite(MAX_PIECES_PER_SHIP)
                )
            points = read_number(digits, f"{word!r}: thrust points", MAX_THRUST_POINTS, text)
            if points < 1:
                raise OrderSyntaxError(text, f"{word!r}: a burn is at least 1 thrust point")
            direction = None if push.lower() == "rot" else Direction.parse(push.upper())
            burns.append(Burn(thruster.lower(), points, direction))
            continue
        turn = _TURN.match(word)
        if not turn:
            raise OrderSyntaxError(
                text, f"{word!r}: expected a burn (aft1:B=4, port1:rot=1), a rotation (R1, L2), flat:R1 or drift"
            )
        is_flat, way, amount = turn.groups()
        size = read_number(amount, f"{word!r}: {'flat turn' if is_flat else 'rotation'}", MAX_ROTATION, text)
        value = size * (1 if way.upper() == "R" else -1)
        if value == 0:
            raise OrderSyntaxError(text, f"{word!r}: leave out a rotation of 0")
        if is_flat:
            if flat is not None:
                raise OrderSyntaxError(text, "one flat turn per plot")
            flat = value
        else:
            if rotation is not None:
                raise OrderSyntaxError(text, "one rotation per plot (R or L with the hexsides)")
            rotation = value
    return Plot(tuple(burns), rotation or 0, flat or 0)


@dataclass(frozen=True, slots=True)
class MovePlot:
    """A side's plot for one subphase: one entry per ship moving in it."""

    moves: tuple[tuple[str, Plot], ...]

    def __str__(self) -> str:
        return "; ".join(f"{ship} {plot}" for ship, plot in self.moves)

    @classmethod
    def parse(cls, text: str, ships: dict[str, str]) -> MovePlot:
        """``ships`` maps lower-case ids of the ships that move now to their ids."""
        moves: list[tuple[str, Plot]] = []
        for entry in entries(text):
            name, _, rest = entry.partition(" ")
            ship = ships.get(name.lower())
            if ship is None:
                raise OrderSyntaxError(
                    text, f"{entry!r}: no ship of yours moving now called {name!r} (now: {', '.join(ships.values())})"
                )
            moves.append((ship, parse_ship_plot(rest)))
        if not moves:
            raise OrderSyntaxError(text, "a plot lists each ship moving now, like 'Hawk aft1:B=4 R1; Kite drift'")
        return cls(tuple(moves))


@dataclass(frozen=True, slots=True)
class SubphaseChoice:
    """The subphase each ship with an initiative choice moves in this turn."""

    picks: tuple[tuple[str, str], ...]

    def __str__(self) -> str:
        return "; ".join(f"{ship} {WORD_OF[subphase]}" for ship, subphase in self.picks)

    @classmethod
    def parse(cls, text: str, ships: dict[str, str]) -> SubphaseChoice:
        picks: list[tuple[str, str]] = []
        for entry in entries(text):
            parts = entry.split()
            if len(parts) != 2:
                raise OrderSyntaxError(text, f"{entry!r}: each entry is SHIP SUBPHASE, like 'Viper remaining'")
            ship = ships.get(parts[0].lower())
            if ship is None:
                raise OrderSyntaxError(
                    text, f"{entry!r}: no ship of yours with a choice called {parts[0]!r} ({', '.join(ships.values())})"
                )
            word = parts[1].lower()
            if word not in SUBPHASE_WORDS:
                raise OrderSyntaxError(text, f"{entry!r}: {word!r} is not a subphase ({', '.join(SUBPHASE_WORDS)})")
            picks.append((ship, SUBPHASE_WORDS[word]))
        if not picks:
            raise OrderSyntaxError(text, "name a subphase for each ship with a choice, like 'Viper remaining'")
        return cls(tuple(picks))
