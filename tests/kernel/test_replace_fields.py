"""``roster.replace_fields``, the one copier of the hot paths, is ``dataclasses.replace`` for every layout.

Each kind of class it learns (fields in slots, fields in an instance ``__dict__``, a class whose
``__init__`` does more than store) is copied with random changes and compared with
``dataclasses.replace``; names that are no field are refused; and a :class:`Roster`'s kept answers
go to the copy exactly when every field named in its ``ANSWERS_READ`` is the same object there.
"""

from __future__ import annotations

import dataclasses
import pickle
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vectorwar.roster import Roster, replace_fields


@dataclass(frozen=True, slots=True)
class Slotted:
    a: int
    b: str = "x"
    c: tuple[int, ...] = ()


@dataclass(frozen=True)
class InDict:
    a: int
    b: str = "x"
    c: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Single:
    a: int


@dataclass(frozen=True)
class Empty:
    pass


@dataclass(frozen=True)
class Normalised:
    """A ``__post_init__`` that rewrites a field: a copy must run it, as ``replace`` does."""

    a: int
    b: str = "x"
    c: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "c", tuple(sorted(self.c)))


@dataclass(frozen=True)
class Counted:
    """A field ``__init__`` does not set: a copy must go through ``__init__``."""

    a: int
    b: str = "x"
    c: tuple[int, ...] = ()
    seen: int = field(default=0, init=False)


@dataclass(frozen=True)
class Cached:
    """A ``cached_property`` lives in the instance ``__dict__``: a copy of that dictionary would carry it."""

    a: int
    b: str = "x"
    c: tuple[int, ...] = ()

    @cached_property
    def total(self) -> int:
        return self.a + sum(self.c)


KINDS = (Slotted, InDict, Normalised, Counted, Cached)


@dataclass(frozen=True, slots=True)
class Boat:
    id: str
    side: str
    active: bool = True


@dataclass(frozen=True, slots=True)
class SlotFleet(Roster[Boat]):
    sides: tuple[str, ...]
    ships: tuple[Boat, ...]
    allies: tuple[str, ...] = ()
    turn: int = 0


@dataclass(frozen=True)
class DictFleet(Roster[Boat]):
    """A fleet in a ``__dict__`` whose kept answers also read its allies (as VV5's state does)."""

    sides: tuple[str, ...]
    ships: tuple[Boat, ...]
    allies: tuple[str, ...] = ()
    turn: int = 0

    ANSWERS_READ: ClassVar[tuple[str, ...]] = ("ships", "sides", "allies")


@dataclass(frozen=True)
class Misnamed(Roster[Boat]):
    sides: tuple[str, ...]
    ships: tuple[Boat, ...]

    ANSWERS_READ: ClassVar[tuple[str, ...]] = ("ships", "sides", "board")


ints = st.integers(-5, 5)
tuples = st.lists(ints, max_size=4).map(tuple)
values = {"a": ints, "b": st.text(max_size=3), "c": tuples}
changes = st.fixed_dictionaries({}, optional=values)


@given(kind=st.sampled_from(KINDS), a=ints, b=st.text(max_size=3), c=tuples, given_changes=changes)
def test_a_copy_is_dataclasses_replace_for_every_layout(
    kind: type[Any], a: int, b: str, c: tuple[int, ...], given_changes: dict[str, Any]
) -> None:
    value = kind(a, b, c)
    if isinstance(value, Cached):
        assert value.total == a + sum(c)  # filled before the copy: it must not travel with it
    copy = replace_fields(value, **given_changes)
    expected = dataclasses.replace(value, **given_changes)
    assert type(copy) is kind
    assert copy == expected
    for name in ("a", "b", "c"):
        if name in given_changes and not isinstance(value, Normalised):
            assert getattr(copy, name) is given_changes[name]  # stored as given, as __init__ stores it
    if isinstance(copy, Cached):
        assert copy.total == copy.a + sum(copy.c)
    if isinstance(copy, Normalised):
        assert list(copy.c) == sorted(copy.c)


@given(a=ints)
def test_a_class_of_one_field_or_none_is_copied(a: int) -> None:
    assert replace_fields(Single(a)) == Single(a)
    assert replace_fields(Single(a), a=a + 1) == Single(a + 1)
    assert replace_fields(Empty()) == Empty()


names = st.text(min_size=1, max_size=6).filter(lambda n: n not in {"a", "b", "c", "seen"})


@given(kind=st.sampled_from((*KINDS, Single, Empty)), name=names)
def test_a_name_that_is_no_field_is_refused_naming_the_class_and_the_name(kind: type[Any], name: str) -> None:
    value = kind() if kind is Empty else kind(1)
    with pytest.raises(TypeError) as refused:
        replace_fields(value, **{name: 1})
    assert kind.__name__ in str(refused.value)
    assert name in str(refused.value)


def test_a_field_init_does_not_set_is_refused_as_replace_refuses_it() -> None:
    with pytest.raises(ValueError, match="seen"):
        replace_fields(Counted(1), seen=2)


def test_what_is_no_dataclass_is_refused() -> None:
    with pytest.raises(TypeError, match="Boats is no dataclass"):
        replace_fields(type("Boats", (), {})())


def test_a_roster_naming_a_field_it_lacks_is_refused() -> None:
    with pytest.raises(TypeError, match="Misnamed reads its kept answers from board"):
        replace_fields(Misnamed(("red",), (Boat("A", "red"),)))


boats = st.lists(
    st.builds(Boat, st.sampled_from("ABCDE"), st.sampled_from(("red", "blue", "green")), st.booleans()),
    min_size=1,
    max_size=5,
    unique_by=lambda b: b.id,
).map(tuple)
FIELDS = ("sides", "ships", "allies", "turn")


def _fresh(value: Any) -> Any:
    """An equal value that is another object (a tuple rebuilt; a number is kept as it is)."""
    if not isinstance(value, tuple):
        return value
    rebuilt = (*value,)
    assert rebuilt is not value  # the fields rebuilt here are never empty
    return rebuilt


@given(
    fleet_kind=st.sampled_from((SlotFleet, DictFleet)),
    ships=boats,
    turn=ints,
    # each field: left out, given as the same object, given as an equal other object, or changed
    how=st.fixed_dictionaries({}, optional=dict.fromkeys(FIELDS, st.sampled_from(("same", "equal", "other")))),
)
def test_kept_answers_go_to_the_copy_exactly_while_the_fields_they_read_stay(
    fleet_kind: type[SlotFleet | DictFleet], ships: tuple[Boat, ...], turn: int, how: dict[str, str]
) -> None:
    fleet = fleet_kind(("red", "blue", "green"), ships, ("red", "green"), turn)
    asked = fleet.ships_of("red"), fleet.enemies_of("blue"), fleet.sides_in_play(), fleet.ship(ships[0].id)
    others: dict[str, Any] = {"sides": ("blue", "red"), "ships": ships[1:] or (Boat("Z", "red"),)}
    others |= {"allies": ("blue",), "turn": turn + 1}
    given_changes = {
        name: getattr(fleet, name)
        if way == "same"
        else _fresh(getattr(fleet, name))
        if way == "equal"
        else others[name]
        for name, way in how.items()
    }
    copy = replace_fields(fleet, **given_changes)
    assert copy == dataclasses.replace(fleet, **given_changes)
    stay = all(
        name not in given_changes or given_changes[name] is getattr(fleet, name) for name in fleet_kind.ANSWERS_READ
    )
    assert (copy._answers() is fleet._answers()) is stay
    assert (getattr(copy, "_ship_index", None) is fleet._index()) is stay
    # whatever was handed on or not, the copy answers as a fresh state with its fields would
    fresh = fleet_kind(copy.sides, copy.ships, copy.allies, copy.turn)
    assert copy.ships_of("red") == fresh.ships_of("red")
    assert copy.enemies_of("blue") == fresh.enemies_of("blue")
    assert copy.sides_in_play() == fresh.sides_in_play()
    assert [copy.ship(s.id) for s in copy.ships] == [fresh.ship(s.id) for s in fresh.ships]
    assert asked == (fleet.ships_of("red"), fleet.enemies_of("blue"), fleet.sides_in_play(), fleet.ship(ships[0].id))


def test_the_slotted_roster_reads_ships_and_sides_only() -> None:
    assert SlotFleet.ANSWERS_READ == ("ships", "sides")
    fleet = SlotFleet(("red", "blue"), (Boat("A", "red"),), ("red",))
    fleet.ships_of("red")
    assert replace_fields(fleet, allies=("blue",))._answers() is fleet._answers()


def test_a_copy_with_kept_answers_pickles_without_them() -> None:
    fleet = DictFleet(("red", "blue"), (Boat("A", "red"), Boat("B", "blue")))
    fleet.ships_of("red")
    copy = replace_fields(fleet, turn=3)
    back = pickle.loads(pickle.dumps(copy))
    assert back == copy
    assert back._answers() == {}
