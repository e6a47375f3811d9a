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
from collections.abc import Callable, Iterable
from functools import cached_property
from operator import attrgetter
from types import MemberDescriptorType
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar


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


class NamedShip(RosterShip, Protocol):
    """A ship as a check of an order naming it reads it (a shot's target, a launch's): on any system's board or a
    combat module's view of one."""

    @property
    def status(self) -> str: ...


ShipT = TypeVar("ShipT", bound=RosterShip)


class Roster(Generic[ShipT]):
    """Look-ups over ``ships`` and ``sides``; finding a ship by id is a dict look-up.

    The index (ship id -> place in ``ships``) lives in a slot of its own, not a
    dataclass field: it is built on first use, is not part of the state's
    equality, repr or plain data, and so never reaches a save file. The state is
    frozen, so an index once built stays true; ``with_ship`` keeps every id in
    its place and hands the index on to the new state.
    """

    __slots__ = ("_asked", "_ship_index")

    ships: tuple[ShipT, ...]
    sides: tuple[str, ...]
    _ship_index: dict[str, int]
    #: What :meth:`ships_of`, :meth:`enemies_of` and :meth:`sides_in_play` answered, kept like the index
    #: (the state is frozen): the rules, their prompt and the bots ask them many times of one state.
    _asked: dict[tuple[str, str, bool], Any]
    #: The fields the kept answers (the index and :meth:`_answers`) are read from: a copy by
    #: :func:`replace_fields` in which these stay the same objects hands the answers on. A state that keeps
    #: answers read from more of its fields names them here.
    ANSWERS_READ: ClassVar[tuple[str, ...]] = ("ships", "sides")

    def __getstate__(self) -> object:
        """What pickling keeps (a state sent to a worker process): the fields, never the kept answers.

        A slotted dataclass makes its own; this serves one that keeps its fields in a
        ``__dict__`` (VV5's), whose default pickle would restore the answers' slots through
        the frozen class's ``__setattr__`` and fail. Answers are built again on first use.
        """
        return dict(self.__dict__)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)

    def _index(self) -> dict[str, int]:
        try:
            index: dict[str, int] = self._ship_index
        except AttributeError:
            index = {}
            for i, s in enumerate(self.ships):
                index.setdefault(s.id, i)  # the first ship of an id, as a scan would find
            object.__setattr__(self, "_ship_index", index)
        return index

    def ship(self, ship_id: str) -> ShipT:
        try:
            return self.ships[self._ship_index[ship_id]]
        except AttributeError:  # the index not built yet
            i = self._index().get(ship_id)
        except KeyError:
            raise KeyError(ship_id) from None
        if i is None:
            raise KeyError(ship_id)
        return self.ships[i]

    def _answers(self) -> dict[tuple[str, str, bool], Any]:
        try:
            asked: dict[tuple[str, str, bool], Any] = self._asked
        except AttributeError:
            asked = {}
            object.__setattr__(self, "_asked", asked)
        return asked

    def ships_of(self, side: str, active_only: bool = True) -> tuple[ShipT, ...]:
        asked = self._answers()
        key = ("of", side, active_only)
        found: tuple[ShipT, ...] | None = asked.get(key)
        if found is None:
            found = asked[key] = tuple([s for s in self.ships if s.side == side and (s.active or not active_only)])
        return found

    def enemies_of(self, side: str) -> tuple[ShipT, ...]:
        asked = self._answers()
        key = ("against", side, True)
        found: tuple[ShipT, ...] | None = asked.get(key)
        if found is None:
            found = asked[key] = tuple([s for s in self.ships if s.side != side and s.active])
        return found

    def sides_in_play(self) -> tuple[str, ...]:
        asked = self._answers()
        key = ("in play", "", True)
        found: tuple[str, ...] | None = asked.get(key)
        if found is None:
            found = asked[key] = tuple([side for side in self.sides if self.ships_of(side)])
        return found

    def with_ship(self, ship: ShipT) -> Self:
        """The same state with ``ship`` replacing the ship of the same id."""
        index = self._index()
        i = index.get(ship.id)
        if len(index) != len(self.ships):  # an id twice (never from a scenario): replace every one
            ships = tuple(ship if s.id == ship.id else s for s in self.ships)
        else:
            ships = self.ships if i is None else (*self.ships[:i], ship, *self.ships[i + 1 :])
        # Every state change of a turn passes here: the fields copied as __init__ would store them, without
        # dataclasses.replace's checks of every field (a third of an MSC resolution's time).
        result: Self = replace_fields(self, ships=ships)
        if result.ships is ships:  # no __post_init__ rebuilt the tuple: the ids sit where they were
            object.__setattr__(result, "_ship_index", index)
        return result

    def with_ships(self, ships: Iterable[ShipT], **fields: Any) -> Self:
        """The same state with each of ``ships`` replacing the ship of its id: :meth:`with_ship` for each in
        turn, in one copy of the state (a movement phase changes every ship), with any other ``fields`` changed
        in the same copy (:func:`replace_fields`)."""
        state = self
        index = self._index()
        changes = list(ships)
        if len(index) != len(self.ships) or any(s.id not in index for s in changes):
            for ship in changes:  # what with_ship does with an id twice or none: its way, one at a time
                state = state.with_ship(ship)
            return replace_fields(state, **fields) if fields else state
        if not changes:
            return replace_fields(self, **fields) if fields else self
        listed = list(self.ships)
        for ship in changes:
            listed[index[ship.id]] = ship
        return self._with_all(tuple(listed), index, fields)

    def _with_all(self, ships: tuple[ShipT, ...], index: dict[str, int], fields: dict[str, Any]) -> Self:
        """This state with ``ships`` (the same ids in the same places) and ``fields``, the index handed on."""
        result: Self = replace_fields(self, ships=ships, **fields)
        if result.ships is ships:
            object.__setattr__(result, "_ship_index", index)
        return result


T = TypeVar("T")


def replace_fields(obj: T, **changes: Any) -> T:
    """``dataclasses.replace(obj, **changes)`` for the frozen states and ships of the hot paths: the one copier
    every system uses (a turn copies its ships and its state hundreds of times).

    A class's layout is learnt once (:func:`_layout`). Where its ``__init__`` only stores its fields, the copy
    stores them itself, without ``replace``'s checks of every field: fields kept in slots are read in one call
    and each stored by its slot's own setter, bound (a loop of those calls costs two thirds of one pass of ``map``
    over the slots' unbound ``__set__``, which checks each slot's type on every call), then the changes stored over
    them the same way; fields kept in an instance ``__dict__`` are one copy of that dictionary with the changes
    over it. A class whose ``__init__`` does more (a ``__post_init__``, a field it does not set, a
    ``cached_property`` in its ``__dict__``) is copied through that ``__init__``. A name that is no field is
    refused, naming the class and the name.

    A :class:`Roster` keeps its index and its answers when the fields they are read from
    (:attr:`Roster.ANSWERS_READ`) are the same objects in the copy.
    """
    cls: type[Any] = type(obj)
    layout = _LAYOUTS.get(cls)
    if layout is None:
        layout = _LAYOUTS[cls] = _layout(cls)
    names, values_of, slots, stores, read = layout
    if slots is _IN_SLOTS:
        made = object.__new__(cls)
        for store, value in zip(stores.values(), values_of(obj), strict=True):  # the setters in field order
            store(made, value)
        try:
            for name, given in changes.items():
                stores[name](made, given)
        except KeyError:  # a name that is no field (told without a set operation for every copy)
            raise TypeError(f"{cls.__name__} has no field {', '.join(sorted(changes.keys() - names))}") from None
    elif not changes.keys() <= names:
        raise TypeError(f"{cls.__name__} has no field {', '.join(sorted(changes.keys() - names))}")
    elif slots is _IN_DICT:  # the fields in the instance's dictionary, and nothing else there
        made = object.__new__(cls)
        # A copy of the dictionary, set as the new one's: a dictionary's copy is one step, filling an empty
        # one from it a store a field (thrice the time for a VV5 ship's 34 fields).
        fields_of = _FIELDS_OF(obj).copy()
        fields_of.update(changes)
        object.__setattr__(made, "__dict__", fields_of)
    else:
        made = dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    if read:
        # A read field given anew: the answers go (the common case, a copy with new ships). Most copies give
        # none of them, which one set operation tells.
        if not changes.keys().isdisjoint(read):
            for name in read:
                if name in changes and changes[name] is not getattr(obj, name):
                    return made  # type: ignore[no-any-return]
        # A copy through __init__ may rebuild a field it was not given: its fields are compared.
        if slots is not _BY_INIT or _read_stay(obj, made, read):
            _hand_on_answers(obj, made)
    return made  # type: ignore[no-any-return]


def slot_stores(cls: type[object]) -> tuple[Callable[[object, Any], None], ...]:
    """How each field of a frozen dataclass kept in slots is stored, in field order: its slot's own setter, one C
    call with no look-up by name (a frozen class refuses ``setattr``). A hot path's class whose ``__init__`` stores
    its fields through these builds an object in about half the time of the dataclass's own ``__init__``.

    >>> @dataclasses.dataclass(frozen=True, slots=True)
    ... class Pair:
    ...     a: int
    ...     b: int
    >>> pair = object.__new__(Pair)
    >>> store_a, store_b = slot_stores(Pair)
    >>> store_a(pair, 1); store_b(pair, 2)
    >>> pair
    Pair(a=1, b=2)
    """
    return tuple(getattr(cls, f.name).__set__ for f in dataclasses.fields(cls))  # type: ignore[arg-type]


def _hand_on_answers(old: Any, new: Any) -> None:
    for slot in Roster.__slots__:
        kept = getattr(old, slot, None)  # a slot not filled yet: nothing asked of the old state
        if kept is not None:
            object.__setattr__(new, slot, kept)


def _read_stay(old: Any, new: Any, read: tuple[str, ...]) -> bool:
    """Whether every field the kept answers are read from is the same object in ``new`` as in ``old``."""
    return all(getattr(new, name) is getattr(old, name) for name in read)


#: An object's instance dictionary, past a frozen class's attribute look-up.
_FIELDS_OF = attrgetter("__dict__")
#: Where a class keeps its fields: in slots, in an instance ``__dict__``, or a copy through ``__init__``.
_IN_SLOTS: tuple[Any, ...] = ("in slots",)
_IN_DICT: tuple[Any, ...] = ("in __dict__",)
_BY_INIT: tuple[Any, ...] = ("by __init__",)

#: What :func:`replace_fields` knows of a class: its field names, a reader of all their values at once, where
#: it keeps them (:data:`_IN_SLOTS`, :data:`_IN_DICT` or :data:`_BY_INIT`), each field's slot setter by name in
#: field order (fields in slots only), and the fields a :class:`Roster`'s kept answers are read from (none for
#: any other class).
_Layout = tuple[
    frozenset[str],
    Callable[[Any], tuple[Any, ...]],
    tuple[Any, ...],
    dict[str, Callable[[Any, Any], None]],
    tuple[str, ...],
]
_LAYOUTS: dict[type[Any], _Layout] = {}


def _layout(cls: type[Any]) -> _Layout:
    """A class's :data:`_Layout`; a class that is no dataclass, or a Roster that names as read a field it
    does not have, is refused."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls.__name__} is no dataclass: replace_fields copies dataclasses only")
    fields = dataclasses.fields(cls)
    names = tuple(f.name for f in fields)
    read: tuple[str, ...] = cls.ANSWERS_READ if issubclass(cls, Roster) else ()
    if not set(read) <= set(names):
        raise TypeError(
            f"{cls.__name__} reads its kept answers from {', '.join(sorted(set(read) - set(names)))}: no field"
        )
    getter = attrgetter(*names) if names else None
    values_of: Callable[[Any], tuple[Any, ...]] = (
        (lambda v: ()) if getter is None else getter if len(names) > 1 else (lambda v: (getter(v),))
    )
    slots = tuple(getattr(cls, name, None) for name in names)
    only_stores = not hasattr(cls, "__post_init__") and all(f.init for f in fields)
    if only_stores and all(isinstance(slot, MemberDescriptorType) for slot in slots):
        stores = dict(zip(names, slot_stores(cls), strict=True))
        return frozenset(names), values_of, _IN_SLOTS, stores, read
    in_dict = not any(isinstance(slot, MemberDescriptorType) for slot in slots) and not _caches(cls)
    return frozenset(names), values_of, _IN_DICT if only_stores and in_dict else _BY_INIT, {}, read


def _caches(cls: type[Any]) -> bool:
    """Whether the class keeps a ``cached_property`` in its instances' ``__dict__`` (no copy of it may carry)."""
    return any(isinstance(value, cached_property) for klass in cls.__mro__ for value in vars(klass).values())
