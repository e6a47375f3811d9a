"""A lab job (one scenario set-up played over a range of seeds) and the row each game becomes.

A row depends only on the job and the seed, never on which worker played it,
so results are the same whatever the cluster.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vectorwar.events import event_to_data
from vectorwar.game import Game
from vectorwar.lab.adapter import play_game
from vectorwar.lab.luck import game_luck
from vectorwar.savefile import game_to_data
from vectorwar.scenario import Scenario, scenario_from_data

#: The columns of every row, in order (docs/lab.md describes each).
COLUMNS = (
    "job",
    "label",
    "params",
    "scenario",
    "system",
    "options",
    "sides",
    "bots",
    "seed",
    "winner",
    "draw",
    "reason",
    "turns",
    "steps",
    "initiative",
    "scores",
    "ships",
    "decided",
    "damage",
    "luck",
    "sample",
)


@dataclass(frozen=True)
class Job:
    """One set-up to play ``games`` times with seeds ``first_seed, first_seed + 1, ...``."""

    index: int
    scenario: Mapping[str, Any]  # scenario data (Scenario.to_data), so a design sweep can change it
    controllers: Mapping[str, str]
    options: Mapping[str, object] = field(default_factory=dict)
    games: int = 1
    first_seed: int = 0
    label: str = ""
    #: The swept values this job stands for ("design.ship1.engine" -> 3), for the report.
    params: Mapping[str, object] = field(default_factory=dict)
    #: Whether rows carry luck and the sample game. Luck replays the game (with greedy bots, about three
    #: quarters again of its time), so the design search, which needs only who won, goes without.
    details: bool = True

    @property
    def seeds(self) -> range:
        return range(self.first_seed, self.first_seed + self.games)


def play_seeds(job: Job, seeds: Sequence[int]) -> list[dict[str, Any]]:
    """Play ``job`` once per seed; one row per game."""
    scenario = scenario_from_data(job.scenario, f"lab job {job.index}")
    return [game_row(job, scenario, play_game(scenario, job.controllers, seed, job.options)) for seed in seeds]


def game_row(job: Job, scenario: Scenario, game: Game) -> dict[str, Any]:
    result = game.result
    winners = list(result.winners) if result is not None else []
    sides = [s.id for s in scenario.sides]
    reason = "" if result is None else result.reason
    ships = ship_tallies(game, scenario)
    damage = dict.fromkeys(sides, 0)
    for tally in ships.values():
        if tally["side"] in damage:
            damage[tally["side"]] += tally["dealt"]
    return {
        "job": job.index,
        "label": job.label,
        "params": _json(job.params),
        "scenario": scenario.id,
        "system": scenario.system,
        "options": _json(game.options),
        "sides": _json(sides),
        "bots": _json({s: job.controllers[s] for s in sides}),
        "seed": game.seed,
        "winner": ",".join(winners),
        "draw": not winners,
        "reason": reason,
        "turns": game.history[-1].clock.turn if game.history else 0,
        "steps": len(game.history),
        "initiative": first_initiative(game),
        "scores": _json({} if result is None else {s: float(v) for s, v in result.scores.items()}),
        "ships": _json(ships),
        "decided": bool(winners) and not ended_by_turn_limit(reason),
        "damage": _json(damage),
        "luck": _json({side: luck.to_data() for side, luck in game_luck(game).items()} if job.details else {}),
        # The first game of each set-up is kept whole, so a report can offer one game of every cell to replay.
        "sample": _json(game_to_data(game, dict(job.controllers)))
        if job.details and game.seed == job.first_seed
        else "",
    }


def ended_by_turn_limit(reason: str) -> bool:
    """Whether the rules ended the game at the scenario's turn limit (every system words it so)."""
    return reason.startswith("turn limit")


def first_initiative(game: Game) -> str:
    """The side the rules put first on turn 1's initiative (the first mover); "" where the system rolls none."""
    return next((side for side in (event.initiative_to() for event in game.events) if side), "")


def ship_tallies(game: Game, scenario: Scenario) -> dict[str, dict[str, Any]]:
    """Per ship: its side, shots fired, hits scored, damage dealt and taken, read from the event log.

    Damage taken is what the rules' damage events say (``Event.damage_points``). A shot's damage lands
    in later events, so damage dealt goes to the ship that last shot at the damaged one.
    """
    sides = {placed.id: side for _, side, placed in scenario.placements()}
    tallies: dict[str, dict[str, Any]] = {
        ship: {"side": side, "shots": 0, "hits": 0, "dealt": 0, "taken": 0} for ship, side in sides.items()
    }

    def tally(ship: str) -> dict[str, Any]:
        return tallies.setdefault(ship, {"side": "", "shots": 0, "hits": 0, "dealt": 0, "taken": 0})

    last_shooter: dict[str, str] = {}
    for event in game.events:
        data = event_to_data(event)
        ship = data.get("ship")
        if not isinstance(ship, str):
            continue
        target = data.get("target")
        if isinstance(target, str):
            tally(ship)["shots"] += 1
            if data.get("hit") is True or (data.get("hit") is None and _number(data.get("damage")) > 0):
                tally(ship)["hits"] += 1
            last_shooter[target] = ship
            continue
        amount = event.damage_points()
        if amount:
            tally(ship)["taken"] += amount
            if ship in last_shooter:
                tally(last_shooter[ship])["dealt"] += amount
    return tallies


def _number(value: object) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _json(value: object) -> str:
    return json.dumps(value, sort_keys=True)
