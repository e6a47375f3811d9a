"""The design search: which design, within a system's design rules and a point budget, wins most.

One side's ships all fly the searched design; the other sides fly a fixed
opponent design. Optuna's TPE sampler proposes designs; each is checked by the
system's own design checker (``RuleSystem.design_cards``) and the budget, and
the legal ones are played ``games`` times on the lab's runner (the same Dask
cluster as ``lab run``), a batch of trials at a time. The sampler is seeded and
told the results in a fixed order, so the search is the same whatever the
number of workers.

The space comes from the system's design format and catalogue, so no system
is named here: each integer field between its schema limits, and for each list
of names (MSC's weapon sides) which of the names the catalogue's designs use.
Every other field stays as the opponent design has it. The cost is the number
the checker's card gives on its build-points line.

At the end the best designs and every catalogue design within the budget are
played again on fresh seeds (``confirm`` games each), so the win rates the
report compares are not the lucky draws the search picked them for.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vectorwar.catalogue import builtin_scenario, scenario_paths, ship_catalogue
from vectorwar.errors import VectorwarError
from vectorwar.lab.adapter import bot_names, check_setup
from vectorwar.lab.games import Job
from vectorwar.lab.metrics import wilson
from vectorwar.lab.runner import LabError, Rows, Runner
from vectorwar.registry import get_system
from vectorwar.scenario import Scenario, scenario_from_data

#: A card line that states a design's cost: its label names build points.
_COST_LABEL = re.compile(r"build points|\bBP\b", re.IGNORECASE)
#: Every ask that is refused (illegal, over budget) counts; the search stops after this many asks a trial.
ASKS_PER_TRIAL = 20


@dataclass(frozen=True)
class Space:
    """What the search may change: integer fields with their limits, list fields with their possible names."""

    integers: Mapping[str, tuple[int, int]]
    names: Mapping[str, tuple[str, ...]]


@dataclass
class Trial:
    """One design tried: its number, the design, its cost, why it was refused (or its games and wins)."""

    number: int
    design: dict[str, Any]
    cost: int | None
    refused: str = ""
    games: int = 0
    wins: int = 0
    #: The batch it was played in (0: refused or known before its batch).
    batch: int = 0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_row(self) -> dict[str, Any]:
        return {
            "trial": self.number,
            "design": json.dumps(self.design, sort_keys=True),
            "cost": self.cost,
            "refused": self.refused,
            "games": self.games,
            "wins": self.wins,
            "win": self.win_rate,
        }


@dataclass
class Entry:
    """A design played again to confirm it: where it came from, and its win rate with an interval."""

    name: str
    design: dict[str, Any]
    cost: int | None
    games: int
    wins: int
    #: ``"search"`` for a design the search found, ``"catalogue"`` for a built-in one.
    source: str

    @property
    def interval(self) -> tuple[float, float, float]:
        return wilson(self.wins, self.games)


@dataclass
class Search:
    """A search's request and results."""

    system: str
    scenario: str
    side: str
    against: str
    budget: int | None
    trials: list[Trial] = field(default_factory=list)
    confirmed: list[Entry] = field(default_factory=list)
    seeds: tuple[int, int] = (0, 0)
    confirm_seeds: tuple[int, int] = (0, 0)

    @property
    def played(self) -> list[Trial]:
        return [t for t in self.trials if not t.refused]


def design_space(system_name: str) -> Space:
    """The searchable fields of a system's designs, from its design format and its catalogue."""
    schema = get_system(system_name).design_schema()
    if schema is None:
        raise LabError(f"{system_name} has no ship design format to search")
    catalogue = ship_catalogue(system_name)
    integers: dict[str, tuple[int, int]] = {}
    names: dict[str, tuple[str, ...]] = {}
    for key, spec in schema.get("properties", {}).items():
        kind = spec.get("type")
        if kind == "integer" and "minimum" in spec and "maximum" in spec:
            integers[key] = (int(spec["minimum"]), int(spec["maximum"]))
        elif kind == "array" and spec.get("items", {}).get("type") == "string":
            seen: list[str] = []
            for design in catalogue.values():
                for name in design.get(key, []):
                    if isinstance(name, str) and name not in seen:
                        seen.append(name)
            if seen:
                names[key] = tuple(seen)
    if not integers and not names:
        raise LabError(f"{system_name}'s design format has no field the search can vary")
    return Space(integers, names)


def design_cost(system_name: str, design: Mapping[str, Any], key: str = "trial") -> int | None:
    """The design's cost from the checker's card (``None``: the card states none).

    Raises :class:`~vectorwar.errors.VectorwarError` (the checker's ``DesignError``) for a design its rules refuse.
    """
    cards = get_system(system_name).design_cards({key: dict(design)}, "the design search")
    if not cards:
        return None
    for label, value in cards[0].rows:
        if _COST_LABEL.search(label):
            number = re.match(r"\s*(\d+)", value)
            if number:
                return int(number.group(1))
    return None


def default_scenario(system_name: str) -> str:
    """The system's built-in scenario with two sides and the most ships a side: the fullest test of a design.

    A scenario whose set-up asks the players to choose (a build, a deployment) is passed over: what the
    placing bot chooses would weigh on the result beside the design.
    """
    best: tuple[int, str] | None = None
    for scenario_id in sorted(scenario_paths()):
        scenario = builtin_scenario(scenario_id)
        if scenario.system != system_name or len(scenario.sides) != 2 or scenario.setup:
            continue
        ships = min(len(side.ships) for side in scenario.sides)
        if best is None or ships > best[0]:
            best = (ships, scenario_id)
    if best is None:
        raise LabError(f"{system_name} has no built-in scenario with two sides; give one with --scenario")
    return best[1]


def optimise(
    system_name: str,
    run: Runner,
    *,
    against: str,
    budget: int | None = None,
    trials: int = 200,
    games: int = 40,
    confirm: int = 200,
    top: int = 3,
    batch: int = 8,
    seed: int = 0,
    scenario_id: str | None = None,
    side: str | None = None,
    bot: str | None = None,
    chunk: int = 8,
    progress: Callable[[int, int], None] | None = None,
) -> Search:
    """Search ``system_name``'s designs for the one that wins most against a fleet of ``against``.

    ``budget`` bounds the searched side's whole fleet: the design's cost times
    its ships. Trials ``0..trials-1`` are the designs played; refused ones are
    recorded too but do not count. Seeds ``seed .. seed + games - 1`` serve
    every trial, and ``confirm`` fresh seeds after them the final comparison.
    """
    import optuna

    for name, value in (("trials", trials), ("games", games), ("confirm", confirm), ("batch", batch), ("top", top)):
        if value < 1:
            raise LabError(f"{name} must be at least 1, got {value}")
    match = _match(system_name, against, budget, scenario_id, side, bot)
    search = Search(system_name, match.scenario.id, match.side, against, budget, seeds=(seed, seed + games - 1))
    search.confirm_seeds = (seed + games, seed + games + confirm - 1)
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed))
    proposals = _Proposals(study, match, search, limit=ASKS_PER_TRIAL * trials)
    batch_number = 0
    while len(search.played) < trials:
        batch_number += 1
        waiting, new = proposals.batch(batch_number, trials, batch)
        if not waiting:
            break  # the sampler keeps proposing refused designs: stop with what was played
        jobs = [match.job(i, t.design, games, seed) for i, t in enumerate(new)]
        rows = run(jobs, chunk, None) if jobs else []
        for trial, (wins, played) in zip(new, _tally(rows, match.side, len(new)), strict=True):
            trial.wins, trial.games = wins, played
        for asked, trial in waiting:
            study.tell(asked, trial.win_rate)
        if progress is not None:
            progress(len(search.played), trials)
        if proposals.exhausted:
            break
    search.confirmed.extend(
        _confirm(match, run, search.played, top=top, games=confirm, first_seed=seed + games, chunk=chunk)
    )
    return search


@dataclass(frozen=True)
class _Match:
    """What every trial shares: the scenario, the searched side and its ships, the bot, the opponent design."""

    system: str
    space: Space
    catalogue: Mapping[str, Mapping[str, Any]]
    scenario: Scenario
    side: str
    bot: str
    against: str
    #: The opponent's design: a proposal starts from it, so the fields the search does not vary stay as it has them.
    base: dict[str, Any]
    ships: int
    budget: int | None

    def job(self, index: int, design: Mapping[str, Any], games: int, first_seed: int) -> Job:
        return _job(index, self.scenario, self.side, self.bot, design, self.against, games, first_seed)

    def over_budget(self, cost: int | None) -> str:
        """Why a fleet of ``cost`` designs breaks the budget; "" within it (or with no budget or no cost)."""
        if self.budget is None or cost is None or cost * self.ships <= self.budget:
            return ""
        return f"{self.ships} ships at {cost} points cost {cost * self.ships}, over the budget {self.budget}"

    def judge(self, design: Mapping[str, Any]) -> tuple[int | None, str]:
        """The design's cost and why it is refused: the design rules, then the budget, then the scenario's set-up."""
        try:
            cost, refused = design_cost(self.system, design), ""
        except VectorwarError as err:
            cost, refused = None, str(err)
        return cost, refused or self.over_budget(cost) or self.setup_problem(design)

    def setup_problem(self, design: Mapping[str, Any]) -> str:
        """Why the scenario cannot be set up with ``design`` in the searched side; ""."""
        return _setup_problem(self.scenario, self.side, self.bot, design, self.against)


def _match(
    system_name: str, against: str, budget: int | None, scenario_id: str | None, side: str | None, bot: str | None
) -> _Match:
    """The search's set-up from the request, each part checked with an error naming the option at fault."""
    get_system(system_name)  # an unknown system is refused with the known ones
    space = design_space(system_name)
    catalogue = ship_catalogue(system_name)
    if against not in catalogue:
        raise LabError(f"--against: no design {against!r} in {system_name}'s catalogue (known: {', '.join(catalogue)})")
    scenario = builtin_scenario(scenario_id or default_scenario(system_name))
    if scenario.system != system_name:
        raise LabError(f"scenario {scenario.id!r} is for {scenario.system}, not {system_name}")
    sides = [s.id for s in scenario.sides]
    side = side or sides[0]
    if side not in sides:
        raise LabError(f"--side: no side {side!r} in {scenario.id} (sides: {', '.join(sides)})")
    bots = bot_names(system_name)
    bot = bot or ("greedy" if "greedy" in bots else "random")
    if bot not in bots:
        raise LabError(f"--bot: no computer player {bot!r} (known: {', '.join(bots)})")
    ships = len(next(entry for entry in scenario.sides if entry.id == side).ships)
    base = dict(catalogue[against])
    if budget is not None and design_cost(system_name, base, against) is None:
        raise LabError(f"{system_name}'s designs state no build points, so --budget cannot be checked")
    return _Match(system_name, space, catalogue, scenario, side, bot, against, base, ships, budget)


class _Proposals:
    """The sampler's proposals, judged as they come; each distinct design becomes one trial, played at most once."""

    def __init__(self, study: Any, match: _Match, search: Search, limit: int) -> None:
        self.study = study
        self.match = match
        self.search = search
        self.limit = limit
        self.asks = 0
        self.known: dict[str, Trial] = {}

    @property
    def exhausted(self) -> bool:
        """Whether the asks allowed are spent: a sampler stuck on refused designs must not loop for ever."""
        return self.asks >= self.limit

    def batch(self, number: int, trials: int, size: int) -> tuple[list[tuple[Any, Trial]], list[Trial]]:
        """Ask until ``size`` proposals await a result; those to tell the sampler of, and the new trials to play."""
        waiting: list[tuple[Any, Trial]] = []
        new: list[Trial] = []
        # search.played counts the new trials too (each is recorded as it is judged).
        while len(self.search.played) < trials and len(waiting) < size and not self.exhausted:
            self.asks += 1
            asked = self.study.ask()
            design = _suggest(asked, self.match.space, self.match.base)
            key = json.dumps(design, sort_keys=True)
            if key in self.known:  # asked again: its games are known (or about to be), so none are played twice
                waiting.append((asked, self.known[key]))
                continue
            trial = self._trial(key, design)
            if trial.refused:
                self.study.tell(asked, 0.0)  # refused designs steer the sampler away, at no cost in games
                continue
            trial.batch = number
            new.append(trial)
            waiting.append((asked, trial))
        return waiting, new

    def _trial(self, key: str, design: dict[str, Any]) -> Trial:
        trial = Trial(len(self.search.trials), design, None)
        self.search.trials.append(trial)
        self.known[key] = trial
        trial.cost, trial.refused = self.match.judge(design)
        return trial


def _confirm(
    match: _Match, run: Runner, played: list[Trial], *, top: int, games: int, first_seed: int, chunk: int
) -> list[Entry]:
    """The ``top`` best trials and every catalogue design the budget and scenario allow, played on fresh seeds."""
    best = sorted(played, key=lambda t: (-t.win_rate, t.number))[:top]
    entries = [(f"trial {t.number}", t.design, t.cost, "search") for t in best]
    for key, design in match.catalogue.items():
        cost = design_cost(match.system, design, key)
        if not match.over_budget(cost) and not match.setup_problem(design):
            entries.append((key, dict(design), cost, "catalogue"))
    rows = run([match.job(i, e[1], games, first_seed) for i, e in enumerate(entries)], chunk, None)
    tallies = _tally(rows, match.side, len(entries))
    return [
        Entry(name, design, cost, played, wins, source)
        for (name, design, cost, source), (wins, played) in zip(entries, tallies, strict=True)
    ]


def _setup_problem(scenario: Scenario, side: str, bot: str, design: Mapping[str, Any], against: str) -> str:
    """Why the scenario cannot be set up with ``design`` in ``side`` (MSC: a starting speed above its engine); ""."""
    job = _job(0, scenario, side, bot, design, against, 1, 0)
    try:
        check_setup(scenario_from_data(job.scenario, scenario.id), job.options)
    except VectorwarError as err:
        return str(err)
    return ""


def _suggest(asked: Any, space: Space, base: Mapping[str, Any]) -> dict[str, Any]:
    design = dict(base)
    design["name"] = "Searched design"
    design.pop("notes", None)
    for key, (lo, hi) in space.integers.items():
        design[key] = int(asked.suggest_int(key, lo, hi))
    for key, names in space.names.items():
        design[key] = [name for name in names if asked.suggest_categorical(f"{key}:{name}", [False, True])]
    return design


#: The key the searched design has in a trial's scenario: not a catalogue key, so nothing else flies it.
SEARCHED = "searched"


def _job(
    index: int,
    scenario: Scenario,
    side: str,
    bot: str,
    design: Mapping[str, Any],
    against: str,
    games: int,
    first_seed: int,
) -> Job:
    data = scenario.to_data()
    data["designs"] = {**data.get("designs", {}), SEARCHED: dict(design)}
    data["sides"] = [
        {
            **entry,
            "ships": [{**ship, "design": SEARCHED if entry["id"] == side else against} for ship in entry["ships"]],
        }
        for entry in data["sides"]
    ]
    controllers = {entry["id"]: bot for entry in data["sides"]}
    return Job(index, data, controllers, games=games, first_seed=first_seed, label=f"design {index}", details=False)


def _tally(rows: Rows, side: str, jobs: int) -> Sequence[tuple[int, int]]:
    out = [[0, 0] for _ in range(jobs)]
    for row in rows:
        tally = out[int(row["job"])]
        tally[0] += side in str(row["winner"]).split(",")
        tally[1] += 1
    return [(wins, played) for wins, played in out]


def trials_frame(search: Search) -> Any:
    """Every trial as a pandas DataFrame (columns of :meth:`Trial.to_row`), for ``trials.parquet``."""
    import pandas as pd

    return pd.DataFrame([t.to_row() for t in search.trials], columns=list(TRIAL_COLUMNS))


#: The columns of ``trials.parquet``, in order.
TRIAL_COLUMNS = ("trial", "design", "cost", "refused", "games", "wins", "win")
