"""Event kinds: every tag names one event type, across every registered system."""

from __future__ import annotations

from collections import defaultdict

from vectorwar.events import Event
from vectorwar.registry import systems


def test_every_event_kind_is_used_by_one_event_type() -> None:
    assert systems()  # loads every system, so their event types exist
    seen: dict[str, set[str]] = defaultdict(set)
    stack: list[type[Event]] = list(Event.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if "__slots__" in cls.__dict__:  # dataclass(slots=True) leaves the pre-slots class behind too
            seen[cls.kind].add(f"{cls.__module__}.{cls.__qualname__}")
    assert {"rolled", "vms-course"} <= set(seen)
    assert len(seen) > 30
    assert {k: v for k, v in seen.items() if len(v) > 1} == {}
