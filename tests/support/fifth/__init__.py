"""A fifth rule system that ships only with the tests: the smallest system the kernel, the web app
and the conformance kit must carry like the four real ones (issue 55).

One boat a side on a hex map. Each turn both players secretly plot one step (a direction letter,
or ``stay``); the boats move together, then each shoots at the other if it is within
:data:`REACH` hexes, hitting on a d6 roll of at least 3 plus the range (it rolls *over*, where
MSC rolls under, so it has its own shot event). One hit sinks a boat.

The test session registers it from ``tests/conftest.py``; a ``vectorwar serve`` subprocess
finds it through ``VECTORWAR_EXTRA_SYSTEMS`` (docs/architecture.md, *Adding a rule system*).
"""

from __future__ import annotations

from tests.support.fifth.rules import FifthSystem

system = FifthSystem()

__all__ = ["FifthSystem", "system"]
