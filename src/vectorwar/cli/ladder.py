"""``vectorwar ladder SYSTEM``: a round robin of a system's computer players, rated on the Elo scale (docs/bots.md)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from vectorwar.cli.common import games_progress, out_console, reports_errors, split_assignment
from vectorwar.cli.lab import ChunkOpt, SchedulerOpt, WorkersOpt, command_line
from vectorwar.registry import get_system


@reports_errors
def ladder_command(
    system: Annotated[str, typer.Argument(help="Rule system whose computer players to rate", metavar="SYSTEM")],
    games: Annotated[
        int, typer.Option("-n", "--games", min=1, help="Games a pairing plays, half from each side", metavar="N")
    ] = 20,
    games_with: Annotated[
        list[str] | None,
        typer.Option(
            "--games-with",
            help="Fewer games for every pairing of a slow player, e.g. search:3=6",
            metavar="PLAYER=N",
        ),
    ] = None,
    player: Annotated[
        list[str] | None,
        typer.Option("--player", help="A player to rate (repeat; default: every computer player)", metavar="PLAYER"),
    ] = None,
    scenario: Annotated[
        list[str] | None,
        typer.Option(
            "--scenario",
            help="A scenario to play (repeat; default: every two-side one where both sides give orders)",
            metavar="SCENARIO",
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of each pairing's first games", metavar="N")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Folder for the games, ratings and report (default: ladder-SYSTEM)", metavar="DIR"
        ),
    ] = None,
    with_: Annotated[
        list[Path] | None,
        typer.Option(
            "--with",
            help="An earlier ladder's folder whose games to rate with these (repeat; give this ladder another --seed)",
            metavar="DIR",
        ),
    ] = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    chunk: ChunkOpt = 2,
) -> None:
    """Play every computer player of SYSTEM against every other over its two-side scenarios, from both sides,
    and rate them (Bradley-Terry on the Elo scale, with 95% intervals, a draw counting half)."""
    from vectorwar.lab.ladder import earlier_games, plan_ladder, play_ladder, with_earlier, write_ladder
    from vectorwar.lab.runner import open_runner, require_extra

    get_system(system)  # an unknown system is named before anything else is checked
    require_extra("pandas", "pyarrow", "matplotlib", *(() if workers == 0 and scheduler is None else ("distributed",)))
    caps: dict[str, int] = {}
    for spec in games_with or []:
        name, count = split_assignment(spec, "PLAYER=N, like search:3=6")
        if not count.isdigit():
            raise typer.BadParameter(f"{spec!r}: N must be a whole number of games", param_hint="--games-with")
        caps[name] = int(count)
    ladder = plan_ladder(
        system, players=player or [], scenarios=scenario or [], games=games, games_with=caps, seed=seed
    )
    earlier = earlier_games(ladder, with_ or [])
    command = command_line(
        "ladder",
        system,
        "-n",
        games,
        *_repeated("--games-with", games_with),
        *_repeated("--player", player),
        *_repeated("--scenario", scenario),
        *(("--seed", seed) if seed else ()),
        *_repeated("--with", with_),
    )
    folder = out or Path(f"ladder-{system}")
    progress = games_progress()
    with progress, open_runner(workers=workers, scheduler=scheduler) as run:
        task = progress.add_task("games", total=ladder.total)
        rows = play_ladder(ladder, run, chunk, lambda done, _total: progress.update(task, completed=done))
    rows = with_earlier(earlier, rows)
    files = write_ladder(ladder, rows, folder, command)
    out_console().print(files["markdown"].read_text(encoding="utf-8"))
    out_console().print(
        f"{len(rows)} games written to {files['games']}; ratings in {files['csv']}, {files['parquet']} "
        f"and {files['markdown']}; report: {files['report']}"
    )


def _repeated(option: str, values: Sequence[object] | None) -> list[object]:
    """A repeatable option's words as typed: ``--player a --player b``."""
    return [word for value in values or [] for word in (option, value)]
