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
from typing import TypeVar

__all__ = ["Kept", "last_answer"]

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
