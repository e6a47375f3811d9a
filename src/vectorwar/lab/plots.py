"""The lab report's plots: one panel per question a designer asks of a results table.

* win rate of each side, with a 95% Wilson interval, against each swept value (and each set-up);
* side advantage: each side's share of wins (and draws) over all games;
* game length, luck, and first-mover advantage: how the side holding turn 1's initiative fares;
* a tournament table: each bot's (or design's) win rate against each other one;
* ratings: each entrant's Elo (Bradley-Terry) with its 95% interval, from the same games.

A panel draws itself on any matplotlib axis, so the same panel makes its own
PNG and its place in the one-page summary.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vectorwar.lab.metrics import wilson
from vectorwar.lab.ratings import RatingError, fit_ratings, outcomes_of

#: Draws a panel on an axis and returns the category labels along its x axis, as drawn.
Draw = Callable[[Any], list[str]]


@dataclass(frozen=True)
class Panel:
    """One plot: its file name (without ``.png``), how to draw it, and its caption in words."""

    name: str
    draw: Draw
    caption: str


@dataclass(frozen=True)
class Games:
    """The columns of a results table the plots read, parsed once: sides in order, swept values, winners."""

    frame: Any
    sides: list[str]
    params: list[dict[str, Any]]
    winners: list[set[str]]

    @classmethod
    def of(cls, frame: Any) -> Games:
        params = [json.loads(t) for t in frame["params"]]
        winners = [set(w.split(",")) if w else set() for w in frame["winner"]]
        return cls(frame, sides_of(frame), params, winners)


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend: the lab draws to files, never to a window."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def report_panels(frame: Any, table: dict[str, dict[str, tuple[float, int]]]) -> list[Panel]:
    """Every panel the results call for, in page order; panels with nothing to show are left out."""
    games = Games.of(frame)
    return [
        *_sweep_panels(games),
        *_setup_panels(games),
        _sides_panel(games),
        _length_panel(frame),
        *_luck_panels(games),
        *_first_mover_panels(games),
        *_tournament_panels(table),
        *_rating_panels(frame),
    ]


def save_panel(panel: Panel, path: Path) -> list[str]:
    """Draw ``panel`` alone as a PNG at ``path``; its x-axis labels as drawn."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(6, 4), layout="constrained")
    labels = panel.draw(ax)
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return labels


def save_summary(panels: list[Panel], path: Path, title: str) -> None:
    """Every panel on one picture, two a row, for a quick look (and the README)."""
    plt = pyplot()
    cols = 2
    rows = math.ceil(len(panels) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(11, 3.6 * rows), layout="constrained", squeeze=False)
    for ax, panel in zip(axes.flat, panels, strict=False):
        panel.draw(ax)
    for ax in list(axes.flat)[len(panels) :]:
        ax.axis("off")
    fig.suptitle(title)
    fig.savefig(path, dpi=80)
    plt.close(fig)


def swept(frame: Any) -> dict[str, list[str]]:
    """Each parameter that takes more than one value, with its values in the order first played."""
    values: dict[str, list[str]] = {}
    for text in frame["params"]:
        for key, value in json.loads(text).items():
            shown = show_value(value)
            if shown not in values.setdefault(key, []):
                values[key].append(shown)
    return {k: v for k, v in values.items() if len(v) > 1}


def tournament_table(frame: Any) -> dict[str, dict[str, tuple[float, int]]]:
    """Entrant -> opponent -> (win rate, games), over two-side games between different entrants.

    A side's entrant is its fleet's design where a plan set one for every side (``fleet.SIDE``), else its
    bot: a design in one side against a bot in the other is no pairing of like with like.
    """
    tally: dict[str, dict[str, list[int]]] = {}
    rows = zip(frame["bots"], frame["sides"], frame["params"], frame["winner"], strict=True)
    for bots_text, sides_text, params_text, winner in rows:
        bots, sides, params = json.loads(bots_text), json.loads(sides_text), json.loads(params_text)
        by_fleet = all(f"fleet.{side}" in params for side in sides)
        entrant = {side: str(params[f"fleet.{side}"] if by_fleet else bots[side]) for side in sides}
        if len(sides) != 2 or entrant[sides[0]] == entrant[sides[1]]:
            continue
        for side, other in (sides, sides[::-1]):
            cell = tally.setdefault(entrant[side], {}).setdefault(entrant[other], [0, 0])
            cell[0] += side in winner.split(",")
            cell[1] += 1
    return {a: {b: (w / n, n) for b, (w, n) in row.items()} for a, row in tally.items()}


def sides_of(frame: Any) -> list[str]:
    """Every side in the results, in the order first seen."""
    sides: list[str] = []
    for text in frame["sides"]:
        for side in json.loads(text):
            if side not in sides:
                sides.append(side)
    return sides


def show_value(value: object) -> str:
    """A swept value as the page shows it: text as it is, anything else as JSON."""
    return json.dumps(value) if not isinstance(value, str) else value


def _slug(name: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in name)


def _side_rates(ax: Any, games: Games, groups: list[list[int]], **style: Any) -> None:
    """Each side's win rate in each group of rows, with error bars, the sides nudged apart to stay readable."""
    sides = games.sides
    for offset, side in enumerate(sides):
        rates = [wilson(sum(side in games.winners[i] for i in rows), len(rows)) for rows in groups]
        xs = [i + (offset - (len(sides) - 1) / 2) * 0.08 for i in range(len(groups))]
        ax.errorbar(
            xs,
            [r[0] for r in rates],
            yerr=[[r[0] - r[1] for r in rates], [r[2] - r[0] for r in rates]],
            marker="o",
            **style,
            capsize=3,
            label=side,
        )


def _sweep_panels(games: Games) -> list[Panel]:
    panels = []
    for name, values in swept(games.frame).items():

        def draw_sweep(ax: Any, name: str = name, values: list[str] = values) -> list[str]:
            groups = [
                [i for i, p in enumerate(games.params) if name in p and show_value(p[name]) == value]
                for value in values
            ]
            _side_rates(ax, games, groups)
            ax.set_xticks(range(len(values)), values)
            ax.set_ylim(0, 1)
            ax.set_xlabel(name)
            ax.set_ylabel("win rate (95% CI)")
            ax.set_title(f"win rate against {name}")
            ax.legend(fontsize="small")
            return values

        per_value = len(games.frame) // max(1, len(values))
        caption = (
            f"Win rate of each side for each value of {name}, with 95% Wilson intervals "
            f"(about {per_value} games a value, the other swept values mixed in)."
        )
        panels.append(Panel(f"winrate-{_slug(name)}", draw_sweep, caption))
    return panels


def _setup_panels(games: Games) -> list[Panel]:
    frame = games.frame
    jobs = sorted({int(j) for j in frame["job"]})
    if len(jobs) < 2:
        return []
    names = {int(j): str(label) or f"set-up {int(j)}" for j, label in zip(frame["job"], frame["label"], strict=True)}

    def draw_setups(ax: Any) -> list[str]:
        groups = [[i for i, j in enumerate(frame["job"]) if int(j) == job] for job in jobs]
        _side_rates(ax, games, groups, linestyle="none")
        shown = [names[job] for job in jobs]
        ax.set_xticks(range(len(jobs)), shown, rotation=20, ha="right", fontsize="small")
        ax.set_ylim(0, 1)
        ax.set_ylabel("win rate (95% CI)")
        ax.set_title("win rate by set-up")
        ax.legend(fontsize="small")
        return shown

    caption = (
        f"Win rate of each side in each set-up, with 95% Wilson intervals ({len(frame) // len(jobs)} games "
        "a set-up where all are alike)."
    )
    return [Panel("winrate-setups", draw_setups, caption)]


def _shares(ax: Any, names: list[str], stats: list[tuple[float, float, float]]) -> None:
    """Bars of shares of games with their intervals."""
    ax.bar(names, [s[0] for s in stats], yerr=[[s[0] - s[1] for s in stats], [s[2] - s[0] for s in stats]])
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of games (95% CI)")


def _sides_panel(games: Games) -> Panel:
    winners = games.winners

    def draw_sides(ax: Any) -> list[str]:
        names = [*games.sides, "draw"]
        stats = [wilson(sum(s in w for w in winners), len(winners)) for s in games.sides]
        stats.append(wilson(sum(not w for w in winners), len(winners)))
        _shares(ax, names, stats)
        ax.set_title(f"side advantage ({len(winners)} games)")
        return names

    caption = (
        f"Side advantage: each side's share of wins and the share of draws over all {len(games.frame)} games, "
        "with 95% Wilson intervals."
    )
    return Panel("sides", draw_sides, caption)


def _length_panel(frame: Any) -> Panel:
    def draw_lengths(ax: Any) -> list[str]:
        turns = [int(t) for t in frame["turns"]]
        ax.hist(turns, bins=range(min(turns, default=0), max(turns, default=0) + 2), align="left")
        ax.set_xlabel("turns")
        ax.set_ylabel("games")
        ax.set_title("game length")
        return []

    return Panel("length", draw_lengths, "Game length: how many games lasted each number of turns.")


def _lucks(frame: Any, side: str) -> list[float]:
    out = []
    for text in frame["luck"]:
        figure = json.loads(text).get(side, {}).get("luck")
        if figure is not None:
            out.append(float(figure))
    return out


def _luck_panels(games: Games) -> list[Panel]:
    lucks = {side: _lucks(games.frame, side) for side in games.sides}
    if not any(lucks.values()):
        return []  # no shot with settled odds: nothing to measure luck against

    def draw_luck(ax: Any) -> list[str]:
        shown = [side for side in games.sides if lucks[side]]
        ax.hist([lucks[side] for side in shown], bins=20, label=shown)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel("hits scored less hits expected, per game")
        ax.set_ylabel("games")
        ax.set_title("luck")
        ax.legend(fontsize="small")
        return shown

    caption = (
        "Luck: in each game, the hits a side's dice scored less the hits the odds of its shots promised "
        "(right of 0: luckier than the odds)."
    )
    return [Panel("luck", draw_luck, caption)]


def _first_mover_panels(games: Games) -> list[Panel]:
    movers = [(str(m), w) for m, w in zip(games.frame["initiative"], games.winners, strict=True) if m]
    if not movers:
        return []  # the system rolls no initiative

    def draw_initiative(ax: Any) -> list[str]:
        names = ["first mover wins", "draw", "first mover loses"]
        counts = [
            sum(m in w for m, w in movers),
            sum(not w for _, w in movers),
            sum(bool(w) and m not in w for m, w in movers),
        ]
        _shares(ax, names, [wilson(c, len(movers)) for c in counts])
        ax.set_title(f"first-mover advantage (turn-1 initiative, {len(movers)} games)")
        return names

    caption = (
        f"First-mover advantage: how the side first in turn 1's initiative fared in {len(movers)} games, "
        "with 95% Wilson intervals."
    )
    return [Panel("first-mover", draw_initiative, caption)]


def _tournament_panels(table: dict[str, dict[str, tuple[float, int]]]) -> list[Panel]:
    if not table:
        return []

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

    caption = "Tournament: each row entrant's win rate against each column entrant, from both sides."
    return [Panel("tournament", draw_tournament, caption)]


def _rating_panels(frame: Any) -> list[Panel]:
    """Each entrant's Elo with its 95% interval, strongest on top; none without two-side games between entrants."""
    outcomes = outcomes_of(frame)
    if not outcomes:
        return []
    try:
        fit = fit_ratings(outcomes)
    except RatingError:
        return []  # entrants with no chain of games between them: no common scale to draw
    ratings = sorted(fit.ratings, key=lambda r: r.elo)

    def draw_ratings(ax: Any) -> list[str]:
        names = [r.player for r in ratings]
        ax.errorbar(
            [r.elo for r in ratings],
            range(len(ratings)),
            xerr=[[r.elo - r.lo for r in ratings], [r.hi - r.elo for r in ratings]],
            marker="o",
            linestyle="none",
            capsize=3,
        )
        ax.set_yticks(range(len(ratings)), [f"{r.player} ({r.games})" for r in ratings])
        ax.axvline(0, color="grey", linewidth=0.8)
        ax.set_xlabel("Elo (95% CI), mean 0")
        ax.set_title("ratings")
        return names

    caption = (
        f"Ratings: each entrant's Elo from a Bradley-Terry fit of {len(outcomes)} two-side games (a draw counts "
        "half), with 95% intervals from the Fisher information, games played in brackets."
    )
    return [Panel("ratings", draw_ratings, caption)]
