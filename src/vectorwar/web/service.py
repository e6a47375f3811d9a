"""The async layer around the referee: games in memory, the store, locks, worker threads and budgets.

The referee (:mod:`vectorwar.web.referee`) decides; this layer does the
waiting, the storing and the sending, and draws seeds, tokens and game ids.
Every change to a game (an order, a withdrawn plot, a bot's move) happens
under that game's asyncio lock, and is written to the store before the new
game is put on its table and anyone is told: an acknowledged order is a
committed order. If a write fails, the game is dropped from memory and the
next request rebuilds it from what the store holds, so memory is never
ahead of the database.

Several servers may share one PostgreSQL (docs/web.md, "Several
processes"): each change is then written for the version of the game it
was decided on, and refused if another process changed the game first
(:class:`StaleGame`); the game is read again and the change decided again
(:func:`~vectorwar.web.service_core.decided_again`). Every use of a game
first checks that the copy in memory is the stored version.

Game work never runs on the event loop. Checks, orders, scenes, the bots'
turns, set-ups, replays and rebuilds run on a pool of worker threads of
their own (the store's I/O uses asyncio's default pool, so a game's work
can never hold up another game's commit), and each kind but rebuilds has a
time budget (:class:`Budgets`). A request whose work runs over its budget is
refused with :class:`OverBudget`; as that work runs on a copy of the game
(or only reads it), the game is unchanged, and the thread's late result is
dropped. A thread cannot be stopped, so it runs to its end; the pool's
size bounds how many such threads there can be, and work waiting for a free
thread counts against its budget like any other.

Given a :class:`~vectorwar.web.botpool.BotPool` (``vectorwar serve`` gives
one), the computer players think in its worker processes instead, a decision
at a time: one over its budget is stopped with its process and asked again
later, people's games are served first, and games of computer players only
are played on in the background, so many per client address at once.
"""

from __future__ import annotations

import functools
from typing import Any

from vectorwar.catalogue import scenario_paths
from vectorwar.errors import ScenarioError
from vectorwar.players import computer_players
from vectorwar.registry import systems
from vectorwar.scenario import load_scenario
from vectorwar.web.referee import GameNotFound, SideForbidden, StalePrompt
from vectorwar.web.service_core import (
    STALE_TRIES,
    Budgets,
    Created,
    LiveGame,
    OverBudget,
    Player,
    Submitted,
    TooManyBotGames,
)
from vectorwar.web.service_ending import Ending
from vectorwar.web.service_orders import Changing
from vectorwar.web.service_sides import PracticeGame, RematchRefused, SideKeeping
from vectorwar.web.store import SideTaken, StaleGame

__all__ = [
    "STALE_TRIES",
    "Budgets",
    "Created",
    "GameNotFound",
    "GameService",
    "LiveGame",
    "OverBudget",
    "Player",
    "PracticeGame",
    "RematchRefused",
    "SideForbidden",
    "SideTaken",
    "StaleGame",
    "StalePrompt",
    "Submitted",
    "TooManyBotGames",
    "catalogue",
]

QUICKSTART_SCENARIO = "vv5-dogfight"
QUICKSTART_SIDES = {"red": "human", "blue": "bot:greedy"}


class GameService(SideKeeping, Changing, Ending):
    """The web server's games: read, created and joined, changed, ended and chatted about, bots and all.

    Built of one class per concern: reading, storing and budgets
    (:class:`~vectorwar.web.service_core.ServiceCore`), the computer players
    (:class:`~vectorwar.web.service_bots.BotDriving`), sides
    (:class:`~vectorwar.web.service_sides.SideKeeping`), orders and other changes
    (:class:`~vectorwar.web.service_orders.Changing`), and ending and chat
    (:class:`~vectorwar.web.service_ending.Ending`).
    """

    async def quickstart(self) -> Created:
        """A game a newcomer can play at once: the VV5 Dogfight against the greedy bot."""
        return await self.create(QUICKSTART_SCENARIO, QUICKSTART_SIDES)


@functools.cache
def catalogue() -> list[dict[str, Any]]:
    """Every registered system with its bots, built-in scenarios and rule options, for the lobby (read from files)."""
    paths = scenario_paths()
    out: list[dict[str, Any]] = []
    for name, system in systems().items():
        scenarios = []
        for sid, path in paths.items():
            try:
                sc = load_scenario(path)
            except ScenarioError:
                continue
            if sc.system == name:
                scenarios.append(
                    {
                        "id": sid,
                        "title": sc.title,
                        "description": sc.description,
                        "sides": [s.id for s in sc.sides],
                        "options": dict(sc.options),
                    }
                )
        options = [
            {
                "name": o.name,
                "default": o.default,
                "description": o.description,
                "choices": list(o.choices),
                "least": o.least,
                "most": o.most,
            }
            for o in system.manifest.options
        ]
        out.append(
            {
                "name": name,
                "title": system.manifest.title,
                "bots": list(computer_players(system)),
                "scenarios": scenarios,
                "options": options,
            }
        )
    return out
