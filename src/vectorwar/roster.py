"""The ship roster every system's state keeps: look-ups by ship and by side.

A system's state dataclass inherits :class:`Roster` and declares ``ships``
and ``sides`` fields; its ship type needs ``id``, ``side`` and ``active``.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Boat:
...     id: str
...     side: str
...     active: bool = True
>>> @dataclass(frozen=True)
... class Fleet(Roster[Boat]):
...     sides: tuple[str, ...]
...     ships: tuple[Boat, ...]
>>> fleet = Fleet(("red", "blue"), (Boat("A", "red"), Boat("B", "blue", active=False)))
>>> [s.id for s in fleet.enemies_of("blue")], fleet.sides_in_play()
(['A'], ('red',))
>>> fleet.with_ship(Boat("B", "blue")).sides_in_play()
('red', 'blue')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, Generic, Protocol, Self, TypeVar


def id_lookup(ids: Iterable[str]) -> dict[str, str]:
    """Ids by their lower-case form, so orders may name ships and sides in any case.

    >>> id_lookup(["Hawk", "X1"])["hawk"]
    'Hawk'
    """
    return {i.lower(): i for i in ids}


class RosterShip(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def side(self) -> str: ...

    @property
    def active(self) -> bool: ...


ShipT = TypeVar("ShipT", bound=RosterShip)


class Roster(Generic[ShipT]):
    __slots__ = ()

    ships: tuple[ShipT, ...]
    sides: tuple[str, ...]

    def ship(self, ship_id: str) -> ShipT:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def ships_of(self, side: str, active_only: bool = True) -> tuple[ShipT, ...]:
        return tuple(s for s in self.ships if s.side == side and (s.active or not active_only))

    def enemies_of(self, side: str) -> tuple[ShipT, ...]:
        return tuple(s for s in self.ships if s.side != side and s.active)

    def sides_in_play(self) -> tuple[str, ...]:
        return tuple(side for side in self.sides if self.ships_of(side))

    def with_ship(self, ship: ShipT) -> Self:
        """The same state with ``ship`` replacing the ship of the same id."""
        ships = tuple(ship if s.id == ship.id else s for s in self.ships)
        this: Any = self
        result: Self = dataclasses.replace(this, ships=ships)
        return result
