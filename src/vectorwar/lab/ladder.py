"""A rule system's ladder: every computer player against every other, rated on the Elo scale.

The players are the system's menu (:func:`vectorwar.players.computer_players`), the scenarios its
built-in two-side ones where both sides give orders (a side the engine plays, or a tutorial's
targets, measures nothing). Each pairing plays its games in pairs, one game from each side with the
same seed, spread over the scenarios in turn: its pair ``k`` plays the ``k``-th scenario after the
one where the previous pairing left off (so a few games a pairing still cover every scenario over
the ladder), with seed ``SEED + k // S`` for ``S`` scenarios. So a ladder is the same games whatever
the cluster, and every pairing's games are balanced over the sides.

The games go through the lab's runner (:mod:`.runner`: local cores, or a Dask cluster) and are rated
by :mod:`.ratings`; the tables are written as CSV, Parquet and a Markdown table ready to paste, and
the lab report draws the ratings with their intervals. A ladder may be rated together with the games
of earlier ones (:func:`earlier_games`, ``vectorwar ladder --with DIR``), so a close step can be
settled by more games played later, elsewhere, or on other seeds, without playing the first ones again.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.lab.adapter import players_of, sides_giving_orders
from vectorwar.lab.games import Job
from vectorwar.lab.ratings import Fit, fit_ratings, outcomes_of
from vectorwar.lab.runner import LabError, Progress, Rows, Runner

#: The columns of the ratings table, in order (docs/bots.md, "How the figures are made").
RATING_COLUMNS = (
    "system",
    "player",
    "elo",
    "elo_lo",
    "elo_hi",
    "games",
    "wins",
    "draws",
    "losses",
    "score",
    "below",
    "step",
    "step_lo",
    "step_hi",
)


@dataclass(frozen=True)
class Ladder:
    """What a ladder plays: its players (weakest expected first), scenarios, games a pairing, and the jobs."""

    system: str
    players: tuple[str, ...]
    scenarios: tuple[str, ...]
    #: (lower player, upper player) -> games the pairing plays (an even number: both sides each seed).
    games: Mapping[tuple[str, str], int]
    seed: int
    jobs: tuple[Job, ...] = field(default=())

    @property
    def total(self) -> int:
        return sum(job.games for job in self.jobs)


def ladder_scenarios(system: str) -> list[str]:
    """The system's built-in scenarios with two sides that both give orders, by id."""
    out = []
    for scenario_id in sorted(scenario_paths()):
        scenario = builtin_scenario(scenario_id)
        if scenario.system != system or len(scenario.sides) != 2:
            continue
        if sides_giving_orders(scenario) == {side.id for side in scenario.sides}:
            out.append(scenario_id)
    return out


def plan_ladder(
    system: str,
    *,
    players: Sequence[str] = (),
    scenarios: Sequence[str] = (),
    games: int = 20,
    games_with: Mapping[str, int] | None = None,
    seed: int = 0,
) -> Ladder:
    """The jobs of a ladder. ``games`` is each pairing's count, ``games_with`` a smaller count for every
    pairing of a named player (a slow one); either rounds up to an even number, a game from each side."""
    menu = players_of(system)
    chosen = _players(menu, players)
    caps = dict(games_with or {})
    unknown = sorted(set(caps) - set(menu))
    if unknown:
        raise LabError(f"--games-with {unknown[0]}: no computer player of that name (known: {', '.join(menu)})")
    for name, count in [("games", games), *caps.items()]:
        if count < 1:
            raise LabError(f"{name}: give at least 1 game a pairing, got {count}")
    contested = ladder_scenarios(system)
    chosen_scenarios = list(scenarios) or contested
    for scenario_id in chosen_scenarios:
        if scenario_id not in contested:
            raise LabError(
                f"scenario {scenario_id!r} is not a two-side {system} scenario where both sides give orders "
                f"(the ladder's: {', '.join(contested) or 'none'})"
            )
    if not chosen_scenarios:
        raise LabError(f"{system} has no two-side scenario where both sides give orders: nothing to play")
    counts: dict[tuple[str, str], int] = {}
    jobs: list[Job] = []
    start = 0  # where the next pairing's first pair of games goes in the list of scenarios
    size = len(chosen_scenarios)
    for lower, upper in itertools.combinations(chosen, 2):
        count = min([games, *(caps[p] for p in (lower, upper) if p in caps)])
        pairs = math.ceil(count / 2)
        counts[(lower, upper)] = 2 * pairs
        for s in range(min(pairs, size)):
            scenario_id = chosen_scenarios[(start + s) % size]
            seeds = len(range(s, pairs, size))
            scenario = builtin_scenario(scenario_id)
            first, second = (side.id for side in scenario.sides)
            for a, b in ((lower, upper), (upper, lower)):
                jobs.append(
                    Job(
                        index=len(jobs),
                        scenario=scenario.to_data(),
                        controllers={first: a, second: b},
                        games=seeds,
                        first_seed=seed,
                        label=f"{scenario_id}: {first} {a}, {second} {b}",
                        details=False,
                    )
                )
        start = (start + pairs) % size
    return Ladder(system, tuple(chosen), tuple(chosen_scenarios), counts, seed, tuple(jobs))


def _players(menu: list[str], wanted: Sequence[str]) -> list[str]:
    unknown = [p for p in wanted if p not in menu]
    if unknown:
        raise LabError(f"--player {unknown[0]}: no computer player of that name (known: {', '.join(menu)})")
    chosen = [p for p in menu if p in wanted] if wanted else menu
    if len(chosen) < 2:
        raise LabError(f"a ladder needs two players or more, got {', '.join(chosen) or 'none'}")
    return chosen


def play_ladder(ladder: Ladder, run: Runner, chunk: int = 2, progress: Progress | None = None) -> Rows:
    """Every game of the ladder, one row each (:data:`vectorwar.lab.games.COLUMNS`)."""
    return run(ladder.jobs, chunk, progress)


def earlier_games(ladder: Ladder, folders: Sequence[Path]) -> Rows:
    """The games kept in earlier ladders' folders (each ``DIR/games.parquet``), to be rated with this one's.

    Refused, before anything is played, where a folder holds another system's games or a game this ladder
    (or another folder) would play again: the same scenario, players in the same sides and seed is the same
    game, and counted twice it would narrow the intervals on no new evidence.
    """
    from vectorwar.lab.runner import read_rows

    planned = {(str(job.scenario["id"]), _bots_key(job.controllers), seed) for job in ladder.jobs for seed in job.seeds}
    seen: dict[tuple[str, str, int], str] = dict.fromkeys(planned, "this ladder")
    rows: Rows = []
    for folder in folders:
        frame = read_rows(folder / "games.parquet")
        systems = sorted(set(frame["system"])) if len(frame) else []
        if systems and systems != [ladder.system]:
            raise LabError(f"--with {folder}: its games are {', '.join(systems)}'s, not {ladder.system}'s")
        for row in frame.to_dict("records"):
            key = (str(row["scenario"]), _bots_key(json.loads(row["bots"])), int(row["seed"]))
            if key in seen:
                raise LabError(
                    f"--with {folder}: {key[0]} with {row['bots']} on seed {key[2]} is also in {seen[key]}; "
                    "a game counts once (give this ladder a --seed past the earlier ones')"
                )
            seen[key] = str(folder)
            rows.append(row)
    return rows


def _bots_key(controllers: Mapping[str, str]) -> str:
    return json.dumps(dict(sorted(controllers.items())))


def with_earlier(earlier: Rows, rows: Rows) -> Rows:
    """Earlier ladders' games, then this one's, each set-up a cell of its own: this ladder's job numbers
    follow the earlier ones' (the lab's cells are its jobs)."""
    offset = 1 + max((int(r["job"]) for r in earlier), default=-1)
    return [*earlier, *({**r, "job": int(r["job"]) + offset} for r in rows)]


def rated_players(system: str, rows: Rows, chosen: Sequence[str]) -> list[str]:
    """The players to rate, in the system's menu order: this ladder's and any an earlier one played."""
    present = set(chosen) | {p for r in rows for p in json.loads(r["bots"]).values()}
    return [p for p in players_of(system) if p in present]


def rate(frame: Any, players: Sequence[str] = ()) -> Fit:
    """The ratings of a results table's two-side games (``players`` first, in that order)."""
    return fit_ratings(outcomes_of(frame), players)


def rating_rows(fit: Fit, system: str) -> list[dict[str, Any]]:
    """One row per player (columns :data:`RATING_COLUMNS`), each with its step over the player listed before it."""
    out = []
    for k, r in enumerate(fit.ratings):
        step = fit.step(fit.ratings[k - 1].player, r.player) if k else None
        out.append(
            {
                "system": system,
                "player": r.player,
                "elo": round(r.elo, 1),
                "elo_lo": round(r.lo, 1),
                "elo_hi": round(r.hi, 1),
                "games": r.games,
                "wins": r.wins,
                "draws": r.draws,
                "losses": r.losses,
                "score": round(r.score, 4),
                "below": "" if step is None else step.lower,
                "step": None if step is None else round(step.elo, 1),
                "step_lo": None if step is None else round(step.lo, 1),
                "step_hi": None if step is None else round(step.hi, 1),
            }
        )
    return out


def markdown_table(rows: Sequence[Mapping[str, Any]]) -> str:
    """The ratings as a Markdown table, ready to paste into docs/bots.md."""
    lines = [
        "| player | Elo | 95 % interval | games | won / drawn / lost | over the row above (95 % interval) |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        step = (
            ""
            if r["step"] is None
            else f"{_elo(r['step'])} ({_elo(r['step_lo'])} to {_elo(r['step_hi'])})"
            + ("" if r["step_lo"] > 0 else ": not clear")
        )
        lines.append(
            f"| `{r['player']}` | {_elo(r['elo'])} | {_elo(r['elo_lo'])} to {_elo(r['elo_hi'])} | {r['games']} "
            f"| {r['wins']} / {r['draws']} / {r['losses']} | {step} |"
        )
    return "\n".join(lines) + "\n"


def _elo(value: float) -> str:
    shown = round(value)
    return f"+{shown}" if shown > 0 else str(shown)


def write_ladder(ladder: Ladder, rows: Rows, folder: Path, command: str) -> dict[str, Path]:
    """Write the games, the ratings (CSV, Parquet, Markdown) and the lab report into ``folder``; the files by name.

    ``rows`` may hold earlier ladders' games too (:func:`with_earlier`): every game is written and rated.
    """
    import pandas as pd

    from vectorwar.lab.report import make_report
    from vectorwar.lab.runner import read_rows, write_rows

    folder.mkdir(parents=True, exist_ok=True)
    files = {"games": folder / "games.parquet"}
    files["cells"] = write_rows(rows, files["games"], command=command)
    frame = read_rows(files["games"])
    table = rating_rows(rate(frame, rated_players(ladder.system, rows, ladder.players)), ladder.system)
    files["csv"] = folder / "ratings.csv"
    with files["csv"].open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=list(RATING_COLUMNS))
        writer.writeheader()
        writer.writerows(table)
    files["parquet"] = folder / "ratings.parquet"
    ratings = pd.DataFrame(table, columns=list(RATING_COLUMNS))
    ratings.attrs["command"] = command
    ratings.to_parquet(files["parquet"], index=False)
    files["markdown"] = folder / "ratings.md"
    files["markdown"].write_text(_markdown_page(ladder, table, command, len(rows)), encoding="utf-8")
    files["report"] = make_report(frame, folder / "report", title=f"vectorwar ladder: {ladder.system}").html
    return files


def _markdown_page(ladder: Ladder, table: Sequence[Mapping[str, Any]], command: str, rated: int) -> str:
    counts = sorted(set(ladder.games.values()))
    per_pairing = str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
    earlier = f"; rated with {rated - ladder.total} games of earlier ladders" if rated > ladder.total else ""
    return (
        f"{markdown_table(table)}\n"
        f"`{command}`: {ladder.total} games, {per_pairing} a pairing, half from each side, over "
        f"{', '.join(f'`{s}`' for s in ladder.scenarios)} (seeds from {ladder.seed}){earlier}.\n"
    )
