"""The cyclic garbage collector paused while a search decides (:mod:`vectorwar.search`).

A decision's trials make many small objects and keep many in the systems' tables, but no garbage in cycles (the
decisions at ``benchmarks/search.py``'s positions, every system, levels 1 and 3, left none), so the collector's
passes over the new objects find nothing and cost up to 5 % of the decision (VMS, AV:T; 1 % in MSC and VV5). It is
paused for the decision (a cycle made meanwhile is collected after) and resumed when the last decision under way
ends, if it was running when the first began: decisions may overlap in threads, and the one that ends first must
not resume it under the others, nor the last leave it off.
"""

from __future__ import annotations

import gc
import threading
from types import TracebackType


class CollectorPause:
    """A context in which the cyclic garbage collector does not run; nests and overlaps across threads.

    >>> pause = CollectorPause()
    >>> running = gc.isenabled()
    >>> with pause:
    ...     with pause:
    ...         gc.isenabled()
    ...     gc.isenabled()
    False
    False
    >>> gc.isenabled() == running
    True
    """

    __slots__ = ("_depth", "_lock", "_resume")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._resume = False

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                self._resume = gc.isenabled()
                gc.disable()
            self._depth += 1

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._resume:
                gc.enable()


#: The one pause every search decision of the process shares.
DECIDING = CollectorPause()
