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
from typing import Any

Z95 = 1.959964


@dataclass
class Report:
    html: Path
    #: Plot name -> PNG file.
    plots: dict[str, Path] = field(default_factory=dict)
    #: Plot name -> the category labels along its x axis, as drawn.
    labels: dict[str, list[str]] = field(default_factory=dict)


def wilson(wins: int, games: int) -> tuple[float, float, float]:
    """Win rate and its 95% Wilson score interval (honest at small counts and at 0 or 1)."""
    if games == 0:
        return 0.0, 0.0, 0.0
    p = wins / games
    denom = 1 + Z95**2 / games
    centre = (p + Z95**2 / (2 * games)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / games + Z95**2 / (4 * games**2)) / denom
    # Rounding can leave the bounds a hair inside the rate at 0% or 100%; error bars need lo <= p <= hi.
    lo = 0.0 if wins == 0 else min(p, max(0.0, centre - half))
    hi = 1.0 if wins == games else max(p, min(1.0, centre + half))
    return p, lo, hi


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

    panels: list[tuple[str, Any]] = []
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

        panels.append((f"winrate-{_slug(name)}", draw_sweep))

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

    panels += [("sides", draw_sides), ("length", draw_lengths)]
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

        panels.append(("first-mover", draw_initiative))
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

        panels.append(("tournament", draw_tournament))

    for name, draw in panels:
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
    for ax, (_, draw) in zip(axes.flat, panels, strict=False):
        draw(ax)
    for ax in list(axes.flat)[len(panels) :]:
        ax.axis("off")
    fig.suptitle(title)
    summary = out_dir / "report.png"
    fig.savefig(summary, dpi=80)
    plt.close(fig)
    report.plots["summary"] = summary

    scenarios = ", ".join(sorted(set(frame["scenario"])))
    sections.append(f"<p>{len(frame)} games of {html.escape(scenarios)}.</p>")
    for name, path in report.plots.items():
        if name != "summary":
            sections.append(f'<figure><img src="{path.name}" alt="{name}"><figcaption>{name}</figcaption></figure>')
    if table:
        sections.append(_tournament_html(table))
    sections.append(_jobs_html(frame, seats, winners))
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

    A seat's entrant is its fleet's design where a plan set one (``fleet.SEAT``), else its bot.
    """
    tally: dict[str, dict[str, list[int]]] = {}
    rows = zip(frame["bots"], frame["seats"], frame["params"], frame["winner"], strict=True)
    for bots_text, seats_text, params_text, winner in rows:
        bots, seats, params = json.loads(bots_text), json.loads(seats_text), json.loads(params_text)
        entrant = {seat: str(params.get(f"fleet.{seat}", bots[seat])) for seat in seats}
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


def _jobs_html(frame: Any, seats: list[str], winners: list[set[str]]) -> str:
    by_label: dict[str, list[int]] = {}
    for i, label in enumerate(frame["label"]):
        by_label.setdefault(str(label) or "(base)", []).append(i)
    head = "".join(f"<th>{html.escape(s)} wins</th>" for s in seats)
    body = ""
    for label, rows in by_label.items():
        cells = ""
        for seat in seats:
            p, lo, hi = wilson(sum(seat in winners[i] for i in rows), len(rows))
            cells += f"<td>{p:.0%} ({lo:.0%}-{hi:.0%})</td>"
        body += f"<tr><td>{html.escape(label)}</td><td>{len(rows)}</td>{cells}</tr>"
    return f"<h2>Set-ups</h2><table><tr><th>set-up</th><th>games</th>{head}</tr>{body}</table>"


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
