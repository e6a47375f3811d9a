"""The lab report: plots (PNG) and an HTML page, drawn from a results table with matplotlib.

* win rate of each seat, with a 95% Wilson interval, against each swept value;
* side advantage: each seat's share of wins (and draws) over all games;
* first-mover advantage: how the seat holding turn 1's initiative fares;
* a histogram of game length in turns;
* a tournament table: each bot's (or design's) win rate against each other one.
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vectorwar.lab.metrics import cell_metrics, wilson

if TYPE_CHECKING:
    from vectorwar.lab.optimise import Search


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


def swept(frame: Any) -> dict[str, list[str]]:
    """Each parameter that takes more than one value, with its values in the order first played."""
    values: dict[str, list[str]] = {}
    for text in frame["params"]:
        for key, value in json.loads(text).items():
            shown = _show(value)
            if shown not in values.setdefault(key, []):
                values[key].append(shown)
    return {k: v for k, v in values.items() if len(v) > 1}


def make_report(frame: Any, out_dir: Path, title: str = "vectorwar lab report") -> Report:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    report = Report(html=out_dir / "report.html")
    seats = _seats(frame)
    params = [json.loads(t) for t in frame["params"]]
    winners = [set(w.split(",")) if w else set() for w in frame["winner"]]
    sections: list[str] = []

    panels: list[tuple[str, Any, str]] = []
    for name, values in swept(frame).items():

        def draw_sweep(ax: Any, name: str = name, values: list[str] = values) -> list[str]:
            for offset, seat in enumerate(seats):
                rates = []
                for value in values:
                    rows = [i for i, p in enumerate(params) if name in p and _show(p[name]) == value]
                    rates.append(wilson(sum(seat in winners[i] for i in rows), len(rows)))
                xs = [i + (offset - (len(seats) - 1) / 2) * 0.08 for i in range(len(values))]
                ax.errorbar(
                    xs,
                    [r[0] for r in rates],
                    yerr=[[r[0] - r[1] for r in rates], [r[2] - r[0] for r in rates]],
                    marker="o",
                    capsize=3,
                    label=seat,
                )
            ax.set_xticks(range(len(values)), values)
            ax.set_ylim(0, 1)
            ax.set_xlabel(name)
            ax.set_ylabel("win rate (95% CI)")
            ax.set_title(f"win rate against {name}")
            ax.legend(fontsize="small")
            return values

        per_value = len(frame) // max(1, len(values))
        panels.append(
            (
                f"winrate-{_slug(name)}",
                draw_sweep,
                f"Win rate of each seat for each value of {name}, with 95% Wilson intervals "
                f"(about {per_value} games a value, the other swept values mixed in).",
            )
        )

    jobs = sorted({int(j) for j in frame["job"]})
    if len(jobs) > 1:
        names = {
            int(j): str(label) or f"set-up {int(j)}" for j, label in zip(frame["job"], frame["label"], strict=True)
        }

        def draw_setups(ax: Any) -> list[str]:
            for offset, seat in enumerate(seats):
                rates = []
                for job in jobs:
                    rows = [i for i, j in enumerate(frame["job"]) if int(j) == job]
                    rates.append(wilson(sum(seat in winners[i] for i in rows), len(rows)))
                xs = [i + (offset - (len(seats) - 1) / 2) * 0.08 for i in range(len(jobs))]
                ax.errorbar(
                    xs,
                    [r[0] for r in rates],
                    yerr=[[r[0] - r[1] for r in rates], [r[2] - r[0] for r in rates]],
                    marker="o",
                    linestyle="none",
                    capsize=3,
                    label=seat,
                )
            shown = [names[job] for job in jobs]
            ax.set_xticks(range(len(jobs)), shown, rotation=20, ha="right", fontsize="small")
            ax.set_ylim(0, 1)
            ax.set_ylabel("win rate (95% CI)")
            ax.set_title("win rate by set-up")
            ax.legend(fontsize="small")
            return shown

        panels.append(
            (
                "winrate-setups",
                draw_setups,
                f"Win rate of each seat in each set-up, with 95% Wilson intervals ({len(frame) // len(jobs)} games "
                "a set-up where all are alike).",
            )
        )

    def draw_sides(ax: Any) -> list[str]:
        names = [*seats, "draw"]
        stats = [wilson(sum(s in w for w in winners), len(winners)) for s in seats]
        stats.append(wilson(sum(not w for w in winners), len(winners)))
        ax.bar(names, [s[0] for s in stats], yerr=[[s[0] - s[1] for s in stats], [s[2] - s[0] for s in stats]])
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of games (95% CI)")
        ax.set_title(f"side advantage ({len(winners)} games)")
        return names

    def draw_lengths(ax: Any) -> list[str]:
        turns = [int(t) for t in frame["turns"]]
        ax.hist(turns, bins=range(min(turns, default=0), max(turns, default=0) + 2), align="left")
        ax.set_xlabel("turns")
        ax.set_ylabel("games")
        ax.set_title("game length")
        return []

    panels += [
        (
            "sides",
            draw_sides,
            f"Side advantage: each seat's share of wins and the share of draws over all {len(frame)} games, "
            "with 95% Wilson intervals.",
        ),
        ("length", draw_lengths, "Game length: how many games lasted each number of turns."),
    ]
    lucks = {seat: _lucks(frame, seat) for seat in seats}
    if any(lucks.values()):

        def draw_luck(ax: Any) -> list[str]:
            shown = [seat for seat in seats if lucks[seat]]
            ax.hist([lucks[seat] for seat in shown], bins=20, label=shown)
            ax.axvline(0, color="black", linewidth=0.8)
            ax.set_xlabel("hits scored less hits expected, per game")
            ax.set_ylabel("games")
            ax.set_title("luck")
            ax.legend(fontsize="small")
            return shown

        panels.append(
            (
                "luck",
                draw_luck,
                "Luck: in each game, the hits a seat's dice scored less the hits the odds of its shots promised "
                "(right of 0: luckier than the odds).",
            )
        )
    movers = [(str(m), w) for m, w in zip(frame["initiative"], winners, strict=True) if m]
    if movers:

        def draw_initiative(ax: Any) -> list[str]:
            names = ["first mover wins", "draw", "first mover loses"]
            counts = [
                sum(m in w for m, w in movers),
                sum(not w for _, w in movers),
                sum(bool(w) and m not in w for m, w in movers),
            ]
            stats = [wilson(c, len(movers)) for c in counts]
            ax.bar(names, [s[0] for s in stats], yerr=[[s[0] - s[1] for s in stats], [s[2] - s[0] for s in stats]])
            ax.set_ylim(0, 1)
            ax.set_ylabel("share of games (95% CI)")
            ax.set_title(f"first-mover advantage (turn-1 initiative, {len(movers)} games)")
            return names

        panels.append(
            (
                "first-mover",
                draw_initiative,
                f"First-mover advantage: how the seat first in turn 1's initiative fared in {len(movers)} games, "
                "with 95% Wilson intervals.",
            )
        )
    table = tournament_table(frame)
    if table:

        def draw_tournament(ax: Any) -> list[str]:
            bots = sorted(table)
            grid = [[table[a].get(b, (math.nan, 0))[0] for b in bots] for a in bots]
            ax.imshow(grid, vmin=0, vmax=1, cmap="RdYlGn")
            ax.set_xticks(range(len(bots)), bots)
            ax.set_yticks(range(len(bots)), bots)
            for i, a in enumerate(bots):
                for j, b in enumerate(bots):
                    if b in table[a]:
                        ax.text(j, i, f"{table[a][b][0]:.0%}", ha="center", va="center")
            ax.set_xlabel("against")
            ax.set_title("tournament: win rate of row entrant")
            return bots

        panels.append(
            (
                "tournament",
                draw_tournament,
                "Tournament: each row entrant's win rate against each column entrant, over both seatings.",
            )
        )

    for name, draw, caption in panels:
        report.captions[name] = caption
        fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
        report.labels[name] = draw(ax)
        path = out_dir / f"{name}.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        report.plots[name] = path
    # One picture with every panel, for a quick look (and the README).
    cols = 2
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(11, 3.6 * rows), layout="constrained", squeeze=False)
    for ax, (_, draw, _caption) in zip(axes.flat, panels, strict=False):
        draw(ax)
    for ax in list(axes.flat)[len(panels) :]:
        ax.axis("off")
    fig.suptitle(title)
    summary = out_dir / "report.png"
    fig.savefig(summary, dpi=80)
    plt.close(fig)
    report.plots["summary"] = summary

    cells = cell_metrics(frame)
    report.samples = _write_samples(frame, out_dir)
    sections.append(_about_html(frame, cells))
    for name, path in report.plots.items():
        if name != "summary":
            caption = html.escape(report.captions[name])
            sections.append(
                f'<figure><img src="{path.name}" alt="{caption}"><figcaption>{caption}</figcaption></figure>'
            )
    if table:
        sections.append(_tournament_html(table))
    sections.append(_cells_html(cells, report.samples))
    report.html.write_text(
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title>"
        "<style>body{font-family:sans-serif;max-width:70em;margin:auto}figure{display:inline-block}"
        "table{border-collapse:collapse}td,th{border:1px solid #aaa;padding:2px 6px}</style></head>"
        f"<body><h1>{html.escape(title)}</h1>{''.join(sections)}</body></html>",
        encoding="utf-8",
    )
    return report


def tournament_table(frame: Any) -> dict[str, dict[str, tuple[float, int]]]:
    """Entrant -> opponent -> (win rate, games), over two-seat games between different entrants.

    A seat's entrant is its fleet's design where a plan set one for every seat (``fleet.SEAT``), else its
    bot: a design in one seat against a bot in the other is no pairing of like with like.
    """
    tally: dict[str, dict[str, list[int]]] = {}
    rows = zip(frame["bots"], frame["seats"], frame["params"], frame["winner"], strict=True)
    for bots_text, seats_text, params_text, winner in rows:
        bots, seats, params = json.loads(bots_text), json.loads(seats_text), json.loads(params_text)
        by_fleet = all(f"fleet.{seat}" in params for seat in seats)
        entrant = {seat: str(params[f"fleet.{seat}"] if by_fleet else bots[seat]) for seat in seats}
        if len(seats) != 2 or entrant[seats[0]] == entrant[seats[1]]:
            continue
        for seat, other in (seats, seats[::-1]):
            cell = tally.setdefault(entrant[seat], {}).setdefault(entrant[other], [0, 0])
            cell[0] += seat in winner.split(",")
            cell[1] += 1
    return {a: {b: (w / n, n) for b, (w, n) in row.items()} for a, row in tally.items()}


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


def _lucks(frame: Any, seat: str) -> list[float]:
    out = []
    for text in frame["luck"]:
        figure = json.loads(text).get(seat, {}).get("luck")
        if figure is not None:
            out.append(float(figure))
    return out


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
    """What was played: scenarios, bots by seat, seeds, games, and the command that made the results."""
    scenarios = ", ".join(sorted(set(frame["scenario"])))
    bots = sorted({str(c["bots"]) for c in cells})
    seats = _seats(frame)
    shown_bots = "; ".join(
        ", ".join(f"{seat} {by_seat[seat]}" for seat in seats if seat in by_seat)
        for by_seat in (json.loads(b) for b in bots)
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
    """Every cell's figures: per seat, then the cell's own (shown on its first seat's row)."""
    head = (
        "<tr><th>set-up</th><th>games</th><th>seat</th><th>win</th><th>draw</th><th>loss</th>"
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
            f"<td>{html.escape(c['seat'])}</td>"
            f"<td>{_interval(c['win'], c['win_lo'], c['win_hi'])}</td>"
            f"<td>{_interval(c['draw'], c['draw_lo'], c['draw_hi'])}</td>"
            f"<td>{_interval(c['loss'], c['loss_lo'], c['loss_hi'])}</td>"
            f"<td>{c['damage_per_turn']:.3f}</td><td>{luck}</td>{cell}</tr>"
        )
    notes = (
        "<p>Rates are shares of the set-up's games with 95% Wilson intervals. The draw share is the "
        "set-up's drawishness; completion is the share decided before the turn limit. Damage a turn is "
        "the damage the seat dealt per turn played, averaged over games. Luck is hits scored less hits "
        "expected from the odds, averaged over games where the seat fired a shot with settled odds. The "
        "first mover is the seat first in turn 1's initiative; its score counts a win 1 and a draw a half "
        "(0.5: no advantage). A sample game is the set-up's first seed as a save file: "
        "<code>vectorwar show FILE</code> and <code>vectorwar log FILE</code> replay it.</p>"
    )
    return f"<h2>Set-ups</h2><table>{head}{body}</table>{notes}"


def _seats(frame: Any) -> list[str]:
    seats: list[str] = []
    for text in frame["seats"]:
        for seat in json.loads(text):
            if seat not in seats:
                seats.append(seat)
    return seats


def _show(value: object) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name)


def optimise_report(search: Search, out_dir: Path, command: str = "") -> Report:
    """The design search's page: what was searched, the best designs against the catalogue's, and the progress."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    report = Report(html=out_dir / "report.html")
    played = search.played
    catalogue = [e for e in search.confirmed if e.source == "catalogue"]
    found = [e for e in search.confirmed if e.source == "search"]
    best_catalogue = max(catalogue, key=lambda e: e.interval[0], default=None)

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
    path = out_dir / "progress.png"
    fig.savefig(path, dpi=90)
    plt.close(fig)
    report.plots["progress"] = path
    report.captions["progress"] = (
        "Search progress: the win rate of each legal design tried, in the order tried, and the best so far; "
        "the dashed line is the best catalogue design's win rate on the confirming games."
    )

    refused = len(search.trials) - len(played)
    items = [
        f"<li>System: {html.escape(search.system)}; scenario: {html.escape(search.scenario)}</li>",
        f"<li>Searched: every ship of {html.escape(search.seat)}; against: a fleet of "
        f"{html.escape(search.against)}</li>",
        f"<li>Budget: {'none' if search.budget is None else search.budget} points for the searched seat's fleet</li>",
        f"<li>Trials: {len(played)} designs played, {refused} refused by the design rules, the budget or the "
        "scenario</li>",
        f"<li>Seeds: {search.seeds[0]}-{search.seeds[1]} for every trial; "
        f"{search.confirm_seeds[0]}-{search.confirm_seeds[1]} to confirm the best and the catalogue's</li>",
        "<li>Made by: "
        + (f"<code>{html.escape(command)}</code>" if command else "(the command was not recorded)")
        + "</li>",
    ]
    verdict = ""
    if found and best_catalogue is not None:
        best = max(found, key=lambda e: e.interval[0])
        p, lo, hi = best.interval
        cp, clo, chi = best_catalogue.interval
        if lo > chi:
            outcome = "clear of it: the found design is better"
        elif hi < clo:
            outcome = "clear of it: the catalogue design is better"
        else:
            outcome = "overlapping it: more games would be needed to tell them apart"
        verdict = (
            f"<p>Best found: {html.escape(best.name)}, win rate {p:.3f} ({lo:.3f}–{hi:.3f}); best catalogue design "
            f"within the budget: {html.escape(best_catalogue.name)}, {cp:.3f} ({clo:.3f}–{chi:.3f}). "
            f"The found design's interval is {outcome}.</p>"
        )
    rows = ""
    for entry in sorted(search.confirmed, key=lambda e: -e.interval[0]):
        p, lo, hi = entry.interval
        design = ", ".join(f"{k} {_show(v)}" for k, v in entry.design.items() if k not in ("name", "notes"))
        rows += (
            f"<tr><td>{html.escape(entry.name)}</td><td>{entry.source}</td><td>{entry.cost}</td>"
            f"<td>{html.escape(design)}</td><td>{entry.games}</td><td>{p:.3f} ({lo:.3f}–{hi:.3f})</td></tr>"
        )
    table = (
        "<h2>Best designs and the catalogue's</h2><table><tr><th>design</th><th>from</th><th>cost</th>"
        f"<th>fields</th><th>games</th><th>win rate (95% CI)</th></tr>{rows}</table>"
    )
    caption = html.escape(report.captions["progress"])
    title = f"vectorwar design search: {search.system}"
    report.html.write_text(
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title>"
        "<style>body{font-family:sans-serif;max-width:70em;margin:auto}figure{display:inline-block}"
        "table{border-collapse:collapse}td,th{border:1px solid #aaa;padding:2px 6px}</style></head>"
        f"<body><h1>{html.escape(title)}</h1><ul>{''.join(items)}</ul>{verdict}{table}"
        f'<figure><img src="progress.png" alt="{caption}"><figcaption>{caption}</figcaption></figure>'
        "</body></html>",
        encoding="utf-8",
    )
    return report
