"""``vectorwar lab``: many bot games on Dask, sweeps and tournaments, and their report (docs/lab.md)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Annotated

import typer

from vectorwar.cli.common import (
    HUMAN,
    UserError,
    games_progress,
    out_console,
    parse_options,
    parse_sides,
    reports_errors,
)
from vectorwar.cli.session import OptionOpt, SideOpt
from vectorwar.lab.games import Job
from vectorwar.setup import find_scenario, system_of

lab_app = typer.Typer(
    help="The designers' lab: thousands of bot games on Dask, sweeps, tournaments and reports.",
    no_args_is_help=True,
    rich_markup_mode=None,
)

WorkersOpt = Annotated[
    int | None,
    typer.Option("--workers", min=0, help="Local worker processes (default: one per core; 0: no Dask)", metavar="N"),
]
SchedulerOpt = Annotated[
    str | None,
    typer.Option("--scheduler", help="A running Dask scheduler, e.g. tcp://10.0.0.5:8786", metavar="ADDRESS"),
]
OutOpt = Annotated[Path, typer.Option("--out", "-o", help="Parquet file to write", metavar="FILE")]
CsvOpt = Annotated[Path | None, typer.Option("--csv", help="Also write the rows as CSV here", metavar="FILE")]
ChunkOpt = Annotated[int, typer.Option("--chunk", min=1, help="Games per Dask task", metavar="N")]


def command_line(*words: object) -> str:
    """The command line as a person would type it again (shell-quoted), for the report."""
    return shlex.join(["vectorwar", *(str(w) for w in words)])


def _run(
    jobs: list[Job],
    out: Path,
    csv: Path | None,
    workers: int | None,
    scheduler: str | None,
    chunk: int,
    command: str,
) -> None:
    from vectorwar.lab.runner import require_extra, run_jobs, write_rows

    require_extra("pandas", "pyarrow", *(() if workers == 0 and scheduler is None else ("distributed",)))
    total = sum(job.games for job in jobs)
    progress = games_progress()
    with progress:
        task = progress.add_task("games", total=total)
        rows = run_jobs(
            jobs,
            workers=workers,
            scheduler=scheduler,
            chunk=chunk,
            progress=lambda done, _total: progress.update(task, completed=done),
        )
    cells = write_rows(rows, out, csv, command=command)
    draws = sum(1 for r in rows if r["draw"])
    out_console().print(
        f"{len(rows)} games ({len(jobs)} set-ups, {draws} draws) written to {out}; figures by set-up in {cells}"
    )


@lab_app.command("run")
@reports_errors
def run_command(
    scenario: Annotated[str, typer.Argument(help="Built-in scenario id or a .toml file", metavar="SCENARIO")],
    games: Annotated[int, typer.Option("-n", "--games", min=1, help="How many games", metavar="N")] = 1000,
    side: SideOpt = None,
    seed: Annotated[int, typer.Option(help="Seed of the first game; game i uses SEED + i", metavar="N")] = 0,
    option: OptionOpt = None,
    out: OutOpt = Path("lab-results.parquet"),
    csv: CsvOpt = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    chunk: ChunkOpt = 8,
) -> None:
    """Play one set-up many times, split by seed ranges over a Dask cluster; one row per game.

    Sides not given with --side are played by the greedy computer player (random where there is none).
    """
    sc = find_scenario(scenario)
    system = system_of(sc)
    controllers = parse_sides(side or [], sc, system, "greedy" if "greedy" in system.bots() else "random")
    people = [s for s, player in controllers.items() if player == HUMAN]
    if people:
        raise UserError(f"the lab needs a computer player in every side; {', '.join(people)} set to human")
    options = parse_options(option or [], system, sc)
    job = Job(0, sc.to_data(), controllers, options, games=games, first_seed=seed)
    command = command_line(
        "lab",
        "run",
        scenario,
        "-n",
        games,
        "--seed",
        seed,
        *(w for s in controllers.items() for w in ("--side", "=".join(s))),
        *(w for o in option or [] for w in ("--option", o)),
        "--out",
        out,
    )
    _run([job], out, csv, workers, scheduler, chunk, command)


@lab_app.command("sweep")
@reports_errors
def sweep_command(
    plan: Annotated[Path, typer.Argument(help="Sweep or tournament plan (TOML, see docs/lab.md)", metavar="PLAN")],
    out: OutOpt = Path("lab-results.parquet"),
    csv: CsvOpt = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    chunk: ChunkOpt = 8,
) -> None:
    """Play every set-up of a sweep or tournament plan; one row per game."""
    from vectorwar.lab.plan import load_plan

    _run(load_plan(plan), out, csv, workers, scheduler, chunk, command_line("lab", "sweep", plan, "--out", out))


@lab_app.command("report")
@reports_errors
def report_command(
    results: Annotated[Path, typer.Argument(help="Results file from `lab run` or `lab sweep`", metavar="RESULTS")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Folder for the report", metavar="DIR")] = None,
) -> None:
    """Draw the report (HTML page and PNG plots) of a results file."""
    from vectorwar.lab.report import make_report
    from vectorwar.lab.runner import read_rows, require_extra

    require_extra("pandas", "pyarrow", "matplotlib")
    folder = out or results.with_name(results.stem + "-report")
    report = make_report(read_rows(results), folder)
    out_console().print(f"report: {report.html} ({len(report.plots)} plots)")


@lab_app.command("optimise")
@reports_errors
def optimise_command(
    system: Annotated[str, typer.Argument(help="Rule system whose designs to search", metavar="SYSTEM")],
    against: Annotated[
        str, typer.Option("--against", help="The catalogue design every other side's ships fly", metavar="KEY")
    ],
    budget: Annotated[
        int | None,
        typer.Option("--budget", min=1, help="Points for the searched side's whole fleet", metavar="POINTS"),
    ] = None,
    trials: Annotated[int, typer.Option("--trials", min=1, help="Designs to play", metavar="N")] = 200,
    games: Annotated[int, typer.Option("--games", min=1, help="Games a trial", metavar="N")] = 40,
    confirm: Annotated[
        int, typer.Option("--confirm", min=1, help="Games to confirm the best and the catalogue's", metavar="N")
    ] = 400,
    top: Annotated[int, typer.Option("--top", min=1, help="Best designs to confirm", metavar="N")] = 3,
    batch: Annotated[int, typer.Option("--batch", min=1, help="Trials played at once", metavar="N")] = 8,
    seed: Annotated[int, typer.Option(help="Seed of the sampler and of the first game", metavar="N")] = 0,
    scenario: Annotated[
        str | None,
        typer.Option(
            help="Built-in scenario id or a .toml file (default: the system's with the most ships a side)",
            metavar="SCENARIO",
        ),
    ] = None,
    side: Annotated[
        str | None, typer.Option("--side", help="The side that flies the searched design (default: the first)")
    ] = None,
    bot: Annotated[str | None, typer.Option("--bot", help="Computer player in every side (default: greedy)")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", help="Folder for the results and report", metavar="DIR")
    ] = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    chunk: ChunkOpt = 8,
) -> None:
    """Search a system's designs, within its design rules and a budget, for the one that wins most against a fixed
    opponent (Optuna's TPE sampler; the trials play on the lab's Dask runner)."""
    from vectorwar.lab.optimise import optimise, trials_frame
    from vectorwar.lab.report import optimise_report
    from vectorwar.lab.runner import open_runner, require_extra

    require_extra(
        "optuna", "pandas", "pyarrow", "matplotlib", *(() if workers == 0 and scheduler is None else ("distributed",))
    )
    command = command_line(
        "lab",
        "optimise",
        system,
        "--against",
        against,
        *(("--budget", budget) if budget is not None else ()),
        "--trials",
        trials,
        "--games",
        games,
        "--confirm",
        confirm,
        "--seed",
        seed,
        *(("--scenario", scenario) if scenario else ()),
        *(("--side", side) if side else ()),
        *(("--bot", bot) if bot else ()),
    )
    folder = out or Path(f"optimise-{system}")
    progress = games_progress()
    with progress, open_runner(workers=workers, scheduler=scheduler) as run:
        task = progress.add_task("trials", total=trials)
        search = optimise(
            system,
            run,
            against=against,
            budget=budget,
            trials=trials,
            games=games,
            confirm=confirm,
            top=top,
            batch=batch,
            seed=seed,
            scenario_id=scenario,
            side=side,
            bot=bot,
            chunk=chunk,
            progress=lambda done, _total: progress.update(task, completed=done),
        )
    folder.mkdir(parents=True, exist_ok=True)
    trials_frame(search).to_parquet(folder / "trials.parquet", index=False)
    report = optimise_report(search, folder, command)
    best = max((e for e in search.confirmed if e.source == "search"), key=lambda e: e.interval[0], default=None)
    if best is None:
        raise UserError(f"no design was legal within the budget in {len(search.trials)} tries; see {report.html}")
    p, lo, hi = best.interval
    out_console().print(
        f"{len(search.played)} designs played; best {best.name}: win rate {p:.3f} ({lo:.3f}-{hi:.3f}) "
        f"over {best.games} games; report: {report.html}"
    )
