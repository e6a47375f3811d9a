"""Remembering answers: the last one for the very same frozen state, and a bounded table of them.

Game states are frozen values, so a pure function of one gives the same
answer for the same object. The search bot asks some of them twice in a row
for one position (a trial's stop reads the standing, which counts the fire
in prospect, and then the fire in prospect itself); :func:`last_answer` works
such a function out once per state. :class:`Kept` holds the many answers a hot
path works out again and again, never more than its limit.

>>> calls = []
>>> @last_answer
... def double(state: tuple[int, ...]) -> int:
...     calls.append(state)
...     return 2 * sum(state)
>>> state = (1, 2)
>>> double(state), double(state), len(calls)
(6, 6, 1)
>>> double((1, 2)), len(calls)  # an equal state, but another object: worked out again
(6, 2)
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from itertools import count
from typing import TypeVar

__all__ = ["Kept", "Numbers", "Values", "last_answer"]

S = TypeVar("S")
T = TypeVar("T")
K = TypeVar("K")
V = TypeVar("V")


class Kept(dict[K, V]):
    """Answers kept by key, at most ``limit`` of them: read with ``get`` (a plain dictionary's), stored with
    :meth:`keep`, which empties the whole table first when it is full.

    Emptying it whole costs no bookkeeping on a hit, as an ``lru_cache``'s order does, and each answer is one entry,
    not a linked record: a hot path's tables hold thousands, and fewer objects are less for the garbage collector to
    walk. A dictionary's single steps are atomic, so threads sharing a table read a kept answer or work it out again.

    >>> kept: Kept[str, int] = Kept(2)
    >>> kept.keep("a", 1), kept.keep("b", 2), kept.get("a")
    (1, 2, 1)
    >>> kept.keep("c", 3), sorted(kept)  # full: emptied, then "c" kept
    (3, ['c'])
    """

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: K, value: V) -> V:
        """``value`` kept for ``key``, the table emptied first if it holds ``limit`` answers; returns ``value``."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


class Numbers:
    """A whole number standing for each whole key, for keys that hold it in place of the whole: a hot path that puts
    one large part (a side's every enemy, say) into many keys hashes and compares the number, not the part.

    Each new whole is given a number never given before (so a number never stands for two wholes, even once the
    table has been emptied), and is kept with ``held``, the objects it names by identity, so that no other object
    takes their identities while the whole stands for them. At most ``limit`` wholes are kept (:class:`Kept`).

    >>> numbers = Numbers(2)
    >>> numbers.number(("a",), ()), numbers.number(("b",), ()), numbers.number(("a",), ())
    (1, 2, 1)
    >>> numbers.number(("c",), ()), numbers.number(("a",), ())  # full: emptied, so "a" is given a new number
    (3, 4)
    """

    __slots__ = ("counter", "kept")

    def __init__(self, limit: int) -> None:
        self.kept: Kept[object, tuple[int, object]] = Kept(limit)
        self.counter = count(1)

    def number(self, whole: object, held: object) -> int:
        """The number standing for ``whole`` (hashable), kept with ``held``."""
        found = self.kept.get(whole)
        if found is None:
            found = self.kept.keep(whole, (next(self.counter), held))
        return found[0]


class Values:
    """A whole number standing for each value (hashable, compared by its equality), found by the object's identity
    first: a hot path whose keys hold a large value hashed by Python calls (a tuple of frozen dataclasses) hashes its
    number instead, and an object already numbered is found without its value hashed again.

    A number is given to one value only, never again (even once the tables have been emptied), so keys of numbers are
    equal only where the values are: after emptying, an equal value may get a new number (a key missed, never a wrong
    one found). Each object found by identity is kept beside its number, so that no other takes its identity while
    kept. At most ``limit`` of each are kept (:class:`Kept`).

    >>> values = Values(4)
    >>> a, b = (1, 2), (1, 2)
    >>> values.number(a), values.number(b), values.number((3,)), values.number(a)
    (1, 1, 2, 1)
    """

    __slots__ = ("by_id", "by_value", "counter")

    def __init__(self, limit: int) -> None:
        self.by_id: Kept[int, tuple[object, int]] = Kept(limit)
        self.by_value: Kept[object, int] = Kept(limit)
        self.counter = count(1)

    def number(self, value: object) -> int:
        """The number standing for ``value``."""
        found = self.by_id.get(id(value))
        if found is not None and found[0] is value:
            return found[1]
        number = self.by_value.get(value)
        if number is None:
            number = self.by_value.keep(value, next(self.counter))
        self.by_id.keep(id(value), (value, number))
        return number


def last_answer(fn: Callable[[S], T]) -> Callable[[S], T]:
    """``fn`` with its last argument and answer kept: asked again with that very object (``is``), it answers
    without working. The answer is shared, so callers must not change it.

    It keeps one argument alive at most. The argument and its answer are kept as one pair, swapped in one
    step, so threads sharing the function never read one state's answer for another.
    """
    last: list[tuple[S, T]] = []

    @wraps(fn)
    def remembered(state: S) -> T:
        if last:
            seen, answer = last[0]
            if seen is state:
                return answer
        answer = fn(state)
        last[:] = [(state, answer)]
        return answer

    return remembered
