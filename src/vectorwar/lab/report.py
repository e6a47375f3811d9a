"""The lab report: an HTML page with the plots (lab/plots.py), every cell's figures and a sample game per cell.

It also writes the design search's page (``lab optimise``): the best designs against the catalogue's and
the search's progress.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vectorwar.lab.metrics import cell_metrics
from vectorwar.lab.plots import (
    pyplot,
    report_panels,
    save_panel,
    save_summary,
    show_value,
    sides_of,
    swept,
    tournament_table,
)

if TYPE_CHECKING:
    from vectorwar.lab.optimise import Entry, Search

# The results-table readers live with the plots; the report has always offered them too.
__all__ = ["Report", "make_report", "optimise_report", "swept", "tournament_table"]


@dataclass
class Report:
    html: Path
    #: Plot name -> PNG file.
    plots: dict[str, Path] = field(default_factory=dict)
    #: Plot name -> the category labels along its x axis, as drawn.
    labels: dict[str, list[str]] = field(default_factory=dict)
    #: Plot name -> its caption on the page, in words.
    captions: dict[str, str] = field(default_factory=dict)
    #: Cell (job) -> the sample game's save file, beside the page.
    samples: dict[int, Path] = field(default_factory=dict)


def make_report(frame: Any, out_dir: Path, title: str = "vectorwar lab report") -> Report:
    """Write the report of a results table into ``out_dir``: one PNG per plot, a summary PNG, samples, the page."""
    out_dir.mkdir(parents=True, exist_ok=True)
    report = Report(html=out_dir / "report.html")
    table = tournament_table(frame)
    panels = report_panels(frame, table)
    for panel in panels:
        report.captions[panel.name] = panel.caption
        path = out_dir / f"{panel.name}.png"
        report.labels[panel.name] = save_panel(panel, path)
        report.plots[panel.name] = path
    report.plots["summary"] = out_dir / "report.png"
    save_summary(panels, report.plots["summary"], title)
    cells = cell_metrics(frame)
    report.samples = _write_samples(frame, out_dir)
    sections = [_about_html(frame, cells)]
    for name, path in report.plots.items():
        if name != "summary":
            caption = html.escape(report.captions[name])
            sections.append(
                f'<figure><img src="{path.name}" alt="{caption}"><figcaption>{caption}</figcaption></figure>'
            )
    if table:
        sections.append(_tournament_html(table))
    sections.append(_cells_html(cells, report.samples))
    report.html.write_text(_page(title, "".join(sections)), encoding="utf-8")
    return report


def _page(title: str, body: str) -> str:
    """A whole report page: the title, the shared style, ``body``."""
    return (
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title>"
        "<style>body{font-family:sans-serif;max-width:70em;margin:auto}figure{display:inline-block}"
        "table{border-collapse:collapse}td,th{border:1px solid #aaa;padding:2px 6px}</style></head>"
        f"<body><h1>{html.escape(title)}</h1>{body}</body></html>"
    )


def _tournament_html(table: dict[str, dict[str, tuple[float, int]]]) -> str:
    bots = sorted(table)
    head = "".join(f"<th>{html.escape(b)}</th>" for b in bots)
    body = ""
    for a in bots:
        cells = "".join(
            f"<td>{table[a][b][0]:.0%} of {table[a][b][1]}</td>" if b in table[a] else "<td></td>" for b in bots
        )
        body += f"<tr><th>{html.escape(a)}</th>{cells}</tr>"
    return f"<h2>Tournament</h2><table><tr><th>entrant \\ against</th>{head}</tr>{body}</table>"


def _write_samples(frame: Any, out_dir: Path) -> dict[int, Path]:
    """Each cell's sample game (its first seed) as a save file in ``samples/``, for ``vectorwar show`` and ``log``."""
    out: dict[int, Path] = {}
    for job, seed, sample in zip(frame["job"], frame["seed"], frame["sample"], strict=True):
        if not sample:
            continue
        folder = out_dir / "samples"
        folder.mkdir(exist_ok=True)
        path = folder / f"cell-{int(job)}-seed-{int(seed)}.json"
        path.write_text(json.dumps(json.loads(sample), indent=1), encoding="utf-8")
        out[int(job)] = path
    return out


def _about_html(frame: Any, cells: list[dict[str, Any]]) -> str:
    """What was played: scenarios, bots by side, seeds, games, and the command that made the results."""
    scenarios = ", ".join(sorted(set(frame["scenario"])))
    bots = sorted({str(c["bots"]) for c in cells})
    sides = sides_of(frame)
    shown_bots = "; ".join(
        ", ".join(f"{side} {by_side[side]}" for side in sides if side in by_side)
        for by_side in (json.loads(b) for b in bots)
    )
    seeds = sorted({str(c["seeds"]) for c in cells})
    job_count = len({c["job"] for c in cells})
    per_cell = sorted({int(c["games"]) for c in cells})
    command = str(frame.attrs.get("command", "")) if hasattr(frame, "attrs") else ""
    items = [
        f"<li>Scenario: {html.escape(scenarios)}</li>",
        f"<li>Computer players: {html.escape(shown_bots)}</li>",
        f"<li>Games: {len(frame)} in {job_count} set-up{'s' if job_count != 1 else ''}, "
        f"{'/'.join(str(n) for n in per_cell)} a set-up</li>",
        f"<li>Seeds: {html.escape(', '.join(seeds))} (the same seeds for every set-up)</li>",
        "<li>Made by: "
        + (f"<code>{html.escape(command)}</code>" if command else "(the command was not recorded)")
        + "</li>",
    ]
    return f"<ul>{''.join(items)}</ul>"


def _interval(value: object, lo: object, hi: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{float(value):.3f} ({float(lo):.3f}–{float(hi):.3f})"  # type: ignore[arg-type]


def _cells_html(cells: list[dict[str, Any]], samples: dict[int, Path]) -> str:
    """Every cell's figures: per side, then the cell's own (shown on its first side's row)."""
    head = (
        "<tr><th>set-up</th><th>games</th><th>side</th><th>win</th><th>draw</th><th>loss</th>"
        "<th>damage a turn</th><th>luck (sd)</th><th>completion</th><th>turns mean (sd, range)</th>"
        "<th>first mover wins</th><th>first mover score</th><th>sample game</th></tr>"
    )
    body = ""
    seen: set[int] = set()
    for c in cells:
        first = c["job"] not in seen
        seen.add(c["job"])
        luck = (
            "–"
            if c["luck"] is None
            else f"{c['luck']:+.3f}" + ("" if c["luck_sd"] is None else f" ({c['luck_sd']:.3f})")
        )
        label = html.escape(c["label"] or "(base)")
        if first:
            sample = samples.get(int(c["job"]))
            link = f'<a href="samples/{sample.name}">seed {c["sample_seed"]}</a>' if sample is not None else "–"
            cell = (
                f"<td>{_interval(c['completion'], c['completion_lo'], c['completion_hi'])}</td>"
                f"<td>{c['turns_mean']:.2f} ({c['turns_sd']:.2f}, {c['turns_min']}–{c['turns_max']})</td>"
                f"<td>{_interval(c['first_mover_win'], c['first_mover_win_lo'], c['first_mover_win_hi'])}</td>"
                f"<td>{_interval(c['first_mover_score'], c['first_mover_score_lo'], c['first_mover_score_hi'])}</td>"
                f"<td>{link}</td>"
            )
        else:
            cell = "<td></td>" * 5
        body += (
            f"<tr><td>{label if first else ''}</td><td>{c['games'] if first else ''}</td>"
            f"<td>{html.escape(c['side'])}</td>"
            f"<td>{_interval(c['win'], c['win_lo'], c['win_hi'])}</td>"
            f"<td>{_interval(c['draw'], c['draw_lo'], c['draw_hi'])}</td>"
            f"<td>{_interval(c['loss'], c['loss_lo'], c['loss_hi'])}</td>"
            f"<td>{c['damage_per_turn']:.3f}</td><td>{luck}</td>{cell}</tr>"
        )
    notes = (
        "<p>Rates are shares of the set-up's games with 95% Wilson intervals. The draw share is the "
        "set-up's drawishness; completion is the share decided before the turn limit. Damage a turn is "
        "the damage the side dealt per turn played, averaged over games. Luck is hits scored less hits "
        "expected from the odds, averaged over games where the side fired a shot with settled odds. The "
        "first mover is the side first in turn 1's initiative; its score counts a win 1 and a draw a half "
        "(0.5: no advantage). A sample game is the set-up's first seed as a save file: "
        "<code>vectorwar show FILE</code> and <code>vectorwar log FILE</code> replay it, and a vectorwar "
        "server's workshop (<code>/workshop</code>, <em>Watch a saved game</em>) opens it in the browser's "
        "replay.</p>"
    )
    return f"<h2>Set-ups</h2><table>{head}{body}</table>{notes}"


def optimise_report(search: Search, out_dir: Path, command: str = "") -> Report:
    """The design search's page: what was searched, the best designs against the catalogue's, and the progress."""
    out_dir.mkdir(parents=True, exist_ok=True)
    report = Report(html=out_dir / "report.html")
    catalogue = [e for e in search.confirmed if e.source == "catalogue"]
    found = [e for e in search.confirmed if e.source == "search"]
    best_catalogue = max(catalogue, key=lambda e: e.interval[0], default=None)
    report.plots["progress"] = _progress_plot(search, best_catalogue, out_dir / "progress.png")
    report.captions["progress"] = (
        "Search progress: the win rate of each legal design tried, in the order tried, and the best so far; "
        "the dashed line is the best catalogue design's win rate on the confirming games."
    )
    caption = html.escape(report.captions["progress"])
    report.html.write_text(
        _page(
            f"vectorwar design search: {search.system}",
            f"{_search_html(search, command)}{_verdict_html(found, best_catalogue)}{_designs_html(search)}"
            f'<figure><img src="progress.png" alt="{caption}"><figcaption>{caption}</figcaption></figure>',
        ),
        encoding="utf-8",
    )
    return report


def _progress_plot(search: Search, best_catalogue: Entry | None, path: Path) -> Path:
    """Each legal design's win rate in the order tried, the best so far, and the best catalogue design's line."""
    plt = pyplot()
    played = search.played
    fig, ax = plt.subplots(figsize=(7, 4), layout="constrained")
    xs = list(range(1, len(played) + 1))  # refused designs cost no games, so they take no place here
    ax.plot(xs, [t.win_rate for t in played], "o", markersize=3, alpha=0.6, label="each design tried")
    best_so_far: list[float] = []
    for trial in played:
        best_so_far.append(max(trial.win_rate, best_so_far[-1] if best_so_far else 0.0))
    ax.step(xs, best_so_far, where="post", label="best so far")
    if best_catalogue is not None:
        ax.axhline(best_catalogue.interval[0], linestyle="--", color="grey", label=f"{best_catalogue.name} (confirmed)")
    ax.set_ylim(-0.02, 1.02)  # a best of 1.0 stays in sight
    ax.set_xlabel("designs played")
    ax.set_ylabel(f"win rate over {search.seeds[1] - search.seeds[0] + 1} games")
    ax.set_title("design search progress")
    ax.legend(fontsize="small")
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def _search_html(search: Search, command: str) -> str:
    """What was searched: system, scenario, sides, budget, trials, seeds and the command."""
    refused = len(search.trials) - len(search.played)
    items = [
        f"<li>System: {html.escape(search.system)}; scenario: {html.escape(search.scenario)}</li>",
        f"<li>Searched: every ship of {html.escape(search.side)}; against: a fleet of "
        f"{html.escape(search.against)}</li>",
        f"<li>Budget: {'none' if search.budget is None else search.budget} points for the searched side's fleet</li>",
        f"<li>Trials: {len(search.played)} designs played, {refused} refused by the design rules, the budget or the "
        "scenario</li>",
        f"<li>Seeds: {search.seeds[0]}-{search.seeds[1]} for every trial; "
        f"{search.confirm_seeds[0]}-{search.confirm_seeds[1]} to confirm the best and the catalogue's</li>",
        "<li>Made by: "
        + (f"<code>{html.escape(command)}</code>" if command else "(the command was not recorded)")
        + "</li>",
    ]
    return f"<ul>{''.join(items)}</ul>"


def _verdict_html(found: list[Entry], best_catalogue: Entry | None) -> str:
    """Whether the best found design's interval clears the best catalogue design's ("" with either missing)."""
    if not found or best_catalogue is None:
        return ""
    best = max(found, key=lambda e: e.interval[0])
    p, lo, hi = best.interval
    cp, clo, chi = best_catalogue.interval
    if lo > chi:
        outcome = "clear of it: the found design is better"
    elif hi < clo:
        outcome = "clear of it: the catalogue design is better"
    else:
        outcome = "overlapping it: more games would be needed to tell them apart"
    return (
        f"<p>Best found: {html.escape(best.name)}, win rate {p:.3f} ({lo:.3f}–{hi:.3f}); best catalogue design "
        f"within the budget: {html.escape(best_catalogue.name)}, {cp:.3f} ({clo:.3f}–{chi:.3f}). "
        f"The found design's interval is {outcome}.</p>"
    )


def _designs_html(search: Search) -> str:
    """Every confirmed design, best first, with its fields and its win rate on the confirming games."""
    rows = ""
    for entry in sorted(search.confirmed, key=lambda e: -e.interval[0]):
        p, lo, hi = entry.interval
        design = ", ".join(f"{k} {show_value(v)}" for k, v in entry.design.items() if k not in ("name", "notes"))
        rows += (
            f"<tr><td>{html.escape(entry.name)}</td><td>{entry.source}</td><td>{entry.cost}</td>"
            f"<td>{html.escape(design)}</td><td>{entry.games}</td><td>{p:.3f} ({lo:.3f}–{hi:.3f})</td></tr>"
        )
    return (
        "<h2>Best designs and the catalogue's</h2><table><tr><th>design</th><th>from</th><th>cost</th>"
        f"<th>fields</th><th>games</th><th>win rate (95% CI)</th></tr>{rows}</table>"
    )
