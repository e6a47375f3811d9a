"""Every computer player a rule system offers: its own (``random``, ``greedy``) and the ``search`` levels.

The search bot plays any system through the rules contract alone, so it stands above the contract
(:mod:`vectorwar.rules`) rather than inside it; this is where the two menus meet.

>>> from vectorwar.registry import systems
>>> all({"random", "search", "search:2", "search:3"} <= set(computer_players(s)) for s in systems().values())
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from vectorwar.rules import Bot, RuleSystem
from vectorwar.search import search_bots


def computer_players(system: RuleSystem[Any]) -> Mapping[str, Callable[[], Bot]]:
    """The computer players of ``system`` by name: the system's own first, then the search levels."""
    return {**system.bots(), **search_bots(system)}


__all__ = ["computer_players"]
