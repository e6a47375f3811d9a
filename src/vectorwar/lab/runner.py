"""Running lab jobs: split into seed ranges, played on Dask distributed (or in this process).

Each job's seeds are cut into chunks; every chunk is one Dask task returning
its rows. Rows are sorted by job and seed at the end, so the table is the same
whatever the number of workers or the order chunks finish in.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from vectorwar.errors import VectorwarError
from vectorwar.lab.games import COLUMNS, Job, play_seeds

Rows = list[dict[str, Any]]
Progress = Callable[[int, int], None]


class LabError(VectorwarError, ValueError):
    """A lab request that cannot be met (bad plan, unreadable results, no cluster)."""


def require_extra(*modules: str) -> None:
    """Refuse clearly when the ``lab`` extra is not installed (the base install has no Dask or pandas)."""
    import importlib.util

    missing = [m for m in modules if importlib.util.find_spec(m) is None]
    if missing:
        raise LabError(f"the lab needs its extra: pip install 'vectorwar[lab]' (missing: {', '.join(missing)})")


def chunks(jobs: Sequence[Job], size: int) -> list[tuple[Job, list[int]]]:
    """Every job's seeds cut into runs of at most ``size``."""
    if size < 1:
        raise LabError(f"chunk size must be at least 1, got {size}")
    out: list[tuple[Job, list[int]]] = []
    for job in jobs:
        seeds = list(job.seeds)
        out.extend((job, seeds[i : i + size]) for i in range(0, len(seeds), size))
    return out


def run_jobs(
    jobs: Sequence[Job],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    chunk: int = 8,
    progress: Progress | None = None,
    local_directory: str | Path | None = None,
) -> Rows:
    """Play every job's games; one row per game, sorted by job then seed.

    ``scheduler`` is the address of a running Dask scheduler; otherwise a
    LocalCluster of ``workers`` processes is started (default: one per core).
    ``workers=0`` plays in this process without Dask.
    """
    with open_runner(workers=workers, scheduler=scheduler, local_directory=local_directory) as run:
        return run(jobs, chunk, progress)


Runner = Callable[[Sequence[Job], int, Progress | None], Rows]


@contextmanager
def open_runner(
    *, workers: int | None = None, scheduler: str | None = None, local_directory: str | Path | None = None
) -> Iterator[Runner]:
    """A way to play many batches of jobs on one cluster (:func:`run_jobs` plays one batch).

    The design search (:mod:`.optimise`) plays a batch of trials at a time and
    decides the next from their results, so it keeps its cluster open between
    batches instead of starting one a batch.
    """
    if scheduler is not None and workers is not None:
        raise LabError("give a number of local workers or a scheduler address, not both (the cluster has its own)")
    if scheduler is None and workers == 0:
        yield _play_here
        return
    with _client(workers, scheduler, local_directory) as client:

        def run(jobs: Sequence[Job], chunk: int, progress: Progress | None = None) -> Rows:
            return _play_on(client, jobs, chunk, progress)

        yield run


def _play_here(jobs: Sequence[Job], chunk: int, progress: Progress | None = None) -> Rows:
    pieces = chunks(jobs, chunk)
    total = sum(len(seeds) for _, seeds in pieces)
    done = 0
    rows: Rows = []
    for job, seeds in pieces:
        rows.extend(play_seeds(job, seeds))
        done += len(seeds)
        if progress is not None:
            progress(done, total)
    return sort_rows(rows)


def _play_on(client: Any, jobs: Sequence[Job], chunk: int, progress: Progress | None) -> Rows:
    from distributed import as_completed

    pieces = chunks(jobs, chunk)
    total = sum(len(seeds) for _, seeds in pieces)
    done = 0
    rows: Rows = []
    futures = [client.submit(play_seeds, job, seeds, pure=False) for job, seeds in pieces]
    for future in as_completed(futures):
        part = future.result()
        rows.extend(part)
        done += len(part)
        if progress is not None:
            progress(done, total)
    return sort_rows(rows)


def sort_rows(rows: Rows) -> Rows:
    return sorted(rows, key=lambda r: (r["job"], r["seed"]))


@contextmanager
def _client(workers: int | None, scheduler: str | None, local_directory: str | Path | None) -> Iterator[Any]:
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as err:
            raise LabError(f"cannot reach the Dask scheduler at {scheduler}: {err}") from None
        with client:
            yield client
        return
    n = workers if workers is not None else (os.cpu_count() or 1)
    if n < 1:
        raise LabError(f"workers must be at least 1 (0 plays in this process), got {n}")
    # No dashboards: they bind fixed ports that parallel runs (and test workers) would fight over.
    with (
        LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            host="127.0.0.1",
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
            local_directory=None if local_directory is None else str(local_directory),
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def write_rows(rows: Rows, path: Path, csv: Path | None = None, command: str = "") -> Path:
    """Write rows to Parquet (and CSV), columns in the documented order, and each cell's figures beside them.

    The cells table (:mod:`.metrics`) goes to ``STEM-cells.parquet``, which is returned. ``command``, the
    command line that made the rows, is kept in both files' metadata for the report.
    """
    import pandas as pd

    from vectorwar.lab.metrics import CELL_COLUMNS, cell_metrics

    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame.attrs["command"] = command
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(path, index=False)
    cells = pd.DataFrame(cell_metrics(frame), columns=list(CELL_COLUMNS))
    cells.attrs["command"] = command
    cells_path = cells_file(path)
    cells.to_parquet(cells_path, index=False)
    if csv is not None:
        frame.to_csv(csv, index=False)
    return cells_path


def cells_file(results: Path) -> Path:
    """Where the cells table of a results file goes."""
    return results.with_name(results.stem + "-cells.parquet")


def read_rows(path: Path) -> Any:
    """A results file as a pandas DataFrame."""
    import pandas as pd

    if not path.is_file():
        raise LabError(f"{path}: no such results file (make one with `vectorwar lab run` or `lab sweep`)")
    try:
        frame = pd.read_parquet(path)
    except (OSError, ValueError) as err:
        raise LabError(f"{path}: not a lab results file (Parquet): {err}") from None
    if "winner" in frame.columns:  # a games table (a cells table has its own columns)
        missing = [c for c in COLUMNS if c not in frame.columns]
        if missing:
            raise LabError(
                f"{path}: no column {missing[0]!r}: the file was made by an older vectorwar; play the games again"
            )
    return frame
