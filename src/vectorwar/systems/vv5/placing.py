"""Placements the players make before turn 1 (VV5 scenario 4, Stasis Pod).

The Stasis Pod text has one player put the orbited body at the centre of the
map and another put the pod next to it, before anyone decides where to come
in. A scenario asks for that by leaving ``body`` and ``pod`` out of its
``[special]`` table; the special then lists the placements still owed in
``VV5State.placing`` (``"red:body"``, ``"blue:pod"``) and the game opens in
the ``place`` phase. Each owed placement is one order, ``place body H@4,3``,
from the hexes :func:`choices` offers; once all are made the special's own
start (the feature roll) runs and turn 1 begins.

>>> Place.parse("place body H@4,3"), str(Place.parse("Pod h@5,3"))
(Place(what='body', at='H@4,3'), 'place pod H@5,3')
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace

from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.events import Event, Note
from vectorwar.hexes import Direction, Hex
from vectorwar.rules import Clock, Prompt
from vectorwar.systems.vv5.state import PodState, VV5State

RULE = "VV5 Scenario 4 (Stasis Pod: placing the body and the pod)"
WHAT = ("body", "pod")
_PLACE = re.compile(r"^\s*(?:place\s+)?(body|pod)\s+(\S+)\s*$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Place:
    """Put ``what`` (the orbited body or the stasis pod) at the hex named ``at``."""

    what: str
    at: str

    @classmethod
    def parse(cls, text: str) -> Place:
        m = _PLACE.match(text)
        if not m:
            raise OrderSyntaxError(text, "write 'place body HEX' or 'place pod HEX', e.g. 'place body H@4,3'")
        return cls(m.group(1).lower(), m.group(2).upper())

    def __str__(self) -> str:
        return f"place {self.what} {self.at}"


def owed(state: VV5State) -> tuple[str, str]:
    """(side, what) of the next placement."""
    side, _, what = state.placing[0].partition(":")
    return side, what


def centre_hexes(state: VV5State) -> list[Hex]:
    """The hexes nearest the middle of the board: on an even board the centre is a corner of four."""
    c0, r0, c1, r1 = state.map.extent
    cols = sorted({(c0 + c1) // 2, (c0 + c1 + 1) // 2})
    rows = sorted({(r0 + r1) // 2, (r0 + r1 + 1) // 2})
    return [Hex.from_offset(c, r) for c in cols for r in rows if state.map.contains(Hex.from_offset(c, r))]


def choices(state: VV5State) -> list[Hex]:
    """Where the next placement may go."""
    _, what = owed(state)
    if what == "body":
        return centre_hexes(state)
    pod = _pod(state)
    return [
        h for h in (pod.body.neighbour(d) for d in Direction) if state.map.contains(h) and state.occupant(h) is None
    ]


def name(state: VV5State, h: Hex) -> str:
    """The hex as a player writes it on a map of sections, ``H@4,3``."""
    section = state.map.section_of(h)
    if section is None or len(state.map.sections) == 1:
        return str(h)
    return f"{section.name}@{h.col - section.col},{h.row - section.row}"


def prompt(state: VV5State) -> Prompt:
    side, what = owed(state)
    where = ", ".join(name(state, h) for h in choices(state))
    help = (
        f"place the orbited body at the centre of the map ('place body HEX'): {where}"
        if what == "body"
        else f"place the stasis pod next to the body ('place pod HEX'): {where}"
    )
    return Prompt(Clock(0, "place"), (side,), "place", False, help)


def check(state: VV5State, seat: str, order: Place) -> None:
    side, what = owed(state)
    if seat != side:  # pragma: no cover - the kernel asks only the prompted seat
        raise IllegalOrderError(str(order), f"{side} places the {what} now", RULE)
    if order.what != what:
        raise IllegalOrderError(str(order), f"the {what} is to be placed now, not the {order.what}", RULE)
    at = _locate(state, order)
    allowed = choices(state)
    if at not in allowed:
        where = ", ".join(name(state, h) for h in allowed)
        rule = "at the centre of the map" if what == "body" else "in a free hex next to the body"
        raise IllegalOrderError(str(order), f"the {what} goes {rule}: one of {where}", RULE)


def resolve(state: VV5State, seat: str, order: Place, events: list[Event]) -> VV5State:
    at = _locate(state, order)
    pod = _pod(state)
    if order.what == "body":
        # The pod waits beside the body until it is placed, so the board never shows them apart.
        spot = next(h for h in (at.neighbour(d) for d in Direction) if state.map.contains(h))
        pod = replace(pod, body=at, pod=spot)
    else:
        pod = replace(pod, pod=at)
    events.append(Note(f"{seat} places the {'orbited body' if order.what == 'body' else 'stasis pod'} at {order.at}"))
    return replace(state, special=pod, placing=state.placing[1:])


def random_place(state: VV5State, seat: str, rng: random.Random) -> Place:
    _, what = owed(state)
    return Place(what, name(state, rng.choice(choices(state))))


def greedy_place(state: VV5State, seat: str) -> Place:
    """The body and pod as near the placing side's own corner as the choices allow."""
    _, what = owed(state)
    corner = dict(_pod(state).corners).get(seat)
    options = choices(state)
    best = min(options, key=lambda h: (h.distance(corner) if corner else 0, str(h)))
    return Place(what, name(state, best))


def _locate(state: VV5State, order: Place) -> Hex:
    try:
        return state.map.locate(order.at)
    except (KeyError, ValueError) as err:
        raise IllegalOrderError(str(order), f"no hex {order.at!r} on this map ({err})", RULE) from None


def _pod(state: VV5State) -> PodState:
    if not isinstance(state.special, PodState):  # pragma: no cover - only the Stasis Pod places
        raise TypeError("not a stasis-pod game")
    return state.special
