"""Plain-data conversion: frozen dataclasses to JSON-ready data and back.

States, orders and events are stdlib frozen dataclasses; pydantic's
``TypeAdapter`` does the conversion, and value types (hexes, directions,
velocities) store themselves as their text notation so that save files stay
readable.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import TypeAdapter

T = TypeVar("T")


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _adapter(tp: Any) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(tp)
    if adapter is None:
        adapter = _ADAPTERS[tp] = TypeAdapter(tp)
    return adapter


def to_data(value: Any, tp: Any | None = None) -> Any:
    """JSON-ready data for ``value`` (of type ``tp``, default its own class)."""
    return _adapter(tp if tp is not None else type(value)).dump_python(value, mode="json")


def from_data(tp: type[T], data: Any) -> T:
    """Rebuild a ``tp`` from :func:`to_data` output, validating it."""
    result: T = _adapter(tp).validate_python(data)
    return result
