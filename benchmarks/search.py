"""The search bot's engine figures: run with ``python benchmarks/search.py`` and read them.

For one two-side scenario of each system, from positions reached by greedy play:

* resolve: milliseconds per ``RuleSystem.resolve`` of the greedy orders (states are frozen values, so a
  rollout starts from the position itself: the "copy" is a reference, and the only copy cost is what
  ``resolve`` builds anew, measured here with it);
* a JSON round trip of the state (``state_to_data`` then ``state_from_data``), for comparison: what a copy
  would cost if states were not immutable;
* rollouts per second: the search bot's own rollouts (resolve, then its fast bot to the end of the next turn);
* the search bot's decision time at the default budget (``search``), mean and worst, in CPU seconds of this
  process, so a busy shared machine does not inflate it (wall seconds are printed beside them).

``--level N`` measures ``search:N`` instead; ``--decisions N`` sets how many decisions per scenario are timed;
``--each`` prints every decision's own figures too (its turn, the side, its rollouts and their rate), in the
order timed, so a scenario whose positions differ in cost shows where its figure comes from.
Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from vectorwar.dice import Dice
from vectorwar.game import Game
from vectorwar.play import bot_order
from vectorwar.search import LEVELS, SearchBot, level_name, search_bots
from vectorwar.setup import set_up

SCENARIOS = ("msc-duel", "msc-fleet", "vv5-dogfight", "vms-capital-duel-msc", "vms-fighter-screen-vv5", "avt-duel-wasp")


def positions(scenario: str, count: int) -> list[tuple[Game, str]]:
    """``count`` positions of a greedy game, each with the side to decide, spread through the game."""
    setup = set_up(scenario, seed=11, default="greedy")
    game, bots = setup.game, setup.bots
    found: list[tuple[Game, str]] = []
    step = 0
    while not game.is_over:
        for side in game.waiting_for:
            if step % 3 == 0:
                snapshot = Game(game.system, game.scenario, game.seed, game.options, game.state, game.dice_count)
                found.append((snapshot, side))
            game.submit(side, bot_order(game, side, bots[side]))
            step += 1
    return found[:count] if len(found) <= count else found[:: max(1, len(found) // count)][:count]


def resolve_figures(places: list[tuple[Game, str]]) -> tuple[float, float]:
    """Milliseconds per resolve of the greedy orders, and per state JSON round trip."""
    resolves: list[float] = []
    copies: list[float] = []
    for game, _ in places:
        system = game.system
        greedy = system.bots()["greedy"]()
        prompt = system.prompt(game.state)
        assert prompt is not None  # a position is taken only while the game is on
        orders = {s: greedy.choose(game.state, s, random.Random(1)) for s in prompt.sides}
        start = time.process_time()
        for i in range(20):
            system.resolve(game.state, orders, Dice(i))
        resolves.append((time.process_time() - start) / 20 * 1000)
        start = time.process_time()
        for _ in range(20):
            system.state_from_data(system.state_to_data(game.state))
        copies.append((time.process_time() - start) / 20 * 1000)
    return statistics.mean(resolves), statistics.mean(copies)


def _side_view(game: Game, side: str) -> Any:
    """What ``side`` sees of the game, by the name the measured commit has for it: ``compare.py`` runs this
    script against older commits, where it was ``seat_view``."""
    for name in ("side_view", "seat_view"):
        view = getattr(game.system, name, None)
        if view is not None:
            return view(game.state, side)
    raise AttributeError("the rule system has no side_view")


def level_bot(system: Any, level: int) -> SearchBot:
    """The bot a game makes for ``search:LEVEL`` (``search_bots``): where trials roll their dice (MSC) a
    level's budget is ``ROLLED_LEVELS``', not ``LEVELS``'."""
    return search_bots(system)[level_name(level)]()


def decision_figures(places: list[tuple[Game, str]], level: int) -> dict[str, float]:
    cpu: list[float] = []
    wall: list[float] = []
    rollouts = 0
    for game, side in places:
        bot = level_bot(game.system, level)
        view = _side_view(game, side)
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        bot.choose(view, side, random.Random(0))
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
        rollouts += bot.rollouts
    spent = sum(cpu)
    return {
        "mean": statistics.mean(cpu),
        "worst": max(cpu),
        "wall": statistics.mean(wall),
        "rollouts": rollouts / len(places),
        "per_second": rollouts / spent if spent else 0.0,
    }


def decisions_parser(description: str) -> argparse.ArgumentParser:
    """The arguments of a script that times search decisions: ``--level``, ``--decisions`` and the scenarios."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--level", type=int, default=1, choices=sorted(LEVELS))
    parser.add_argument("--decisions", type=int, default=6)
    parser.add_argument("scenarios", nargs="*", default=list(SCENARIOS))
    return parser


def combined(each: list[dict[str, float]]) -> dict[str, float]:
    """:func:`decision_figures`' answer for several decisions, from each one's own (one decision apiece)."""
    spent = sum(f["mean"] for f in each)
    rollouts = sum(f["rollouts"] for f in each)
    return {
        "mean": spent / len(each),
        "worst": max(f["worst"] for f in each),
        "wall": statistics.mean(f["wall"] for f in each),
        "rollouts": rollouts / len(each),
        "per_second": rollouts / spent if spent else 0.0,
    }


def each_line(game: Game, side: str, figures: dict[str, float]) -> str:
    """One decision's own figures, for ``--each``: where it was taken, its rollouts, their rate and its time."""
    prompt = game.system.prompt(game.state)
    where = f"turn {prompt.clock.turn}" if prompt is not None else "over"
    return (
        f"  {where:<8} {side:<10} {figures['rollouts']:>8.0f} rollouts {figures['per_second']:>8.0f}/s "
        f"{figures['mean']:>8.3f} s"
    )


def main(argv: list[str] | None = None) -> None:
    parser = decisions_parser(__doc__.splitlines()[0])
    parser.add_argument("--each", action="store_true", help="every decision's own figures too")
    args = parser.parse_args(argv)
    name = level_name(args.level)
    print(
        f"{name}: {LEVELS[args.level]} (MSC's rolled trials: ROLLED_LEVELS); "
        f"CPU seconds of this process ({args.decisions} decisions a scenario)"
    )
    header = (
        f"{'scenario':<24} {'resolve ms':>10} {'json copy ms':>12} {'rollouts/s':>10} "
        f"{'rollouts':>8} {'decision s':>10} {'worst s':>8} {'wall s':>7}"
    )
    print(header)
    for scenario in args.scenarios:
        places = positions(scenario, args.decisions)
        resolve_ms, copy_ms = resolve_figures(places)
        if args.each:
            # Each decision timed on its own, in turn (the process warmed by the ones before, never by its own), and
            # the scenario's figures made of theirs: timing the whole again would find every position's memo full.
            each = [decision_figures([place], args.level) for place in places]
            lines = [each_line(game, side, f) for (game, side), f in zip(places, each, strict=True)]
            d: dict[str, Any] = combined(each)
        else:
            d = decision_figures(places, args.level)
        print(
            f"{scenario:<24} {resolve_ms:>10.2f} {copy_ms:>12.2f} {d['per_second']:>10.0f} "
            f"{d['rollouts']:>8.0f} {d['mean']:>10.3f} {d['worst']:>8.3f} {d['wall']:>7.3f}",
            flush=True,
        )
        if args.each:
            print("\n".join(lines), flush=True)


if __name__ == "__main__":
    main()
