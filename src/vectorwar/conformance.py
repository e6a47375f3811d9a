"""The conformance kit: checks every registered rule system must pass.

For each of a system's built-in scenarios and a few seeds it plays random
legal games to the end and checks that

* every order a bot gives is legal and its text notation reads back to the
  same order (``parse(str(order)) == order``);
* a rejected order leaves the game untouched;
* an order object is refused whenever its text would be: another side's
  order (naming that side's ships) given by this side as an object, not as
  text, is refused as surely as its text is, with the game untouched;
* saving and loading gives the identical state and event log;
* replaying the orders from the setup gives the identical state and log;
* the same seed gives the same game, every roll is logged with a purpose;
* a side's secret plot shows in its own view and nowhere else: while it is
  pending, every other side's ``Game.view`` and browser scene, and the
  spectator's, are exactly what they were before it was given (but for the
  list of sides still to plot);
* every scenario can be conceded by any side and ended by agreement, with a
  plot waiting, and the end survives save, load and replay
  (:func:`check_endings`; every computer player can answer an offer);

and, given a golden game (a bot game's event log in words, kept by the
system's tests), that the same bots and seed replay it line for line and that
it too survives save, load and replay (:func:`check_golden`).

Run it from a test suite (``tests/test_conformance.py`` does) or by hand::

    from vectorwar.conformance import check_system
    check_system("msc")
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.events import Rolled, event_to_data
from vectorwar.game import Game
from vectorwar.play import bot_accepts_end, bot_rng, play_out
from vectorwar.registry import get_system
from vectorwar.rules import Order, RuleSystem
from vectorwar.savefile import game_from_data, game_to_data
from vectorwar.scenario import Scenario
from vectorwar.scene import build_scene

#: Secret plots checked for leaks per game: enough to cover each kind of simultaneous prompt early on,
#: few enough that building every side's scene does not dominate the kit's time.
SECRECY_CHECKS = 4
#: Other sides' orders tried as objects per kind of prompt and game (each round of tries fingerprints the game twice).
BORROWED_CHECKS = 2


class ConformanceError(AssertionError):
    """A rule system broke one of the kernel's guarantees."""


@dataclass(frozen=True)
class Report:
    system: str
    scenario: str
    seed: int
    turns: int
    orders: int
    rolls: int
    winners: tuple[str, ...]


def _fail(where: str, problem: str) -> ConformanceError:
    return ConformanceError(f"{where}: {problem}")


def _fingerprint(game: Game) -> str:
    return json.dumps([game.system.state_to_data(game.state), [event_to_data(e) for e in game.events]], sort_keys=True)


def play_random_game(
    system: RuleSystem[Any], scenario: Scenario, seed: int, max_orders: int = 5000, secrets: int = SECRECY_CHECKS
) -> Game:
    """A game where every side is the ``random`` bot, checked order by order (the first ``secrets`` plots for leaks)."""
    where = f"{system.manifest.name}/{scenario.id}/seed {seed}"
    game = Game.new(system, scenario, seed)
    bot = system.bots()["random"]()
    given = 0
    secrets_checked = 0
    borrowed_checked: dict[str, int] = {}
    # The last order each side gave at each kind of prompt: what another side may try to pass off as its own.
    recent: dict[str, dict[str, Order]] = {}
    while not game.is_over:
        if given >= max_orders:
            raise _fail(where, f"game not over after {max_orders} orders")
        side = game.waiting_for[0]
        # Like every bot, it sees only what its side may see.
        order = bot.choose(system.side_view(game.state, side), side, bot_rng(seed, side, given))
        text = str(order)
        try:
            reread = system.parse_order(game.state, side, text)
        except OrderSyntaxError as err:
            raise _fail(where, f"order {text!r} does not read back: {err}") from None
        if reread != order:
            raise _fail(where, f"order {text!r} reads back as {reread!r}, not {order!r}")
        kind = game.prompt.kind if game.prompt is not None else ""
        if borrowed_checked.get(kind, 0) < BORROWED_CHECKS:
            tried = _check_borrowed_orders(game, side, recent.get(kind, {}), where)
            borrowed_checked[kind] = borrowed_checked.get(kind, 0) + tried
            recent.setdefault(kind, {})[side] = order
        before = _fingerprint(game)
        secret = secrets_checked < secrets and _is_secret_plot(game, side)
        others = _others_views(game, side) if secret else {}
        try:
            game.submit(side, order)
        except IllegalOrderError as err:
            raise _fail(where, f"random bot gave an illegal order: {err}") from None
        if secret:
            secrets_checked += 1
            _check_secret_kept(game, side, text, others, where)
        given += 1
        if given % 7 == 0 and not game.is_over:
            _check_rejection_is_harmless(game, where)
        if _fingerprint(game) == before and not game.pending:
            raise _fail(where, "resolving orders changed nothing")
    return game


def _check_borrowed_orders(game: Game, side: str, others: Mapping[str, Order], where: str) -> int:
    """``side`` gives, as objects, the orders other sides gave at this kind of prompt; count the tries.

    Front ends and bots hand the engine order objects, not only text, so a check that lives only in the
    parser (``this ship is not yours``) is no check. Whenever the text is refused, the object must be too.
    """
    tries: list[_Try] = []
    for other, order in others.items():
        if other == side:
            continue
        try:
            game.check(side, str(order))
        except (OrderSyntaxError, IllegalOrderError):
            tries.append(
                _Try(side, order, f"{side} gave {other}'s order {str(order)!r} as an object and it was accepted")
            )
        # Else the same words are a fair order for this side too (a pass, say): nothing to try.
    if tries:
        borrowed = ", ".join(repr(str(one.order)) for one in tries)
        _check_refused(game, tries, where, f"{side}'s refused borrowed orders {borrowed} changed the game")
    return len(tries)


def _is_secret_plot(game: Game, side: str) -> bool:
    """Is ``side`` about to give a secret plot that others still wait on (so it stays pending)?"""
    prompt = game.prompt
    return prompt is not None and prompt.simultaneous and len(game.waiting_for) > 1 and side in game.waiting_for


def _without_waiting(view: dict[str, Any]) -> dict[str, Any]:
    """A view or scene less the list of sides still to act, which may change when anyone plots."""
    out = dict(view)
    if isinstance(out.get("prompt"), dict):
        out["prompt"] = {k: v for k, v in out["prompt"].items() if k != "waiting_for"}
    return out


def _others_views(game: Game, side: str) -> dict[str, str]:
    """Every other side's view and scene, and a spectator's, as comparable text."""
    out: dict[str, str] = {}
    for other in [s.id for s in game.scenario.sides if s.id != side] + [None]:
        out[f"view of {other or 'a spectator'}"] = json.dumps(_without_waiting(game.view(other)), sort_keys=True)
        scene = build_scene(game, [other] if other else [])
        out[f"scene of {other or 'a spectator'}"] = json.dumps(_without_waiting(scene), sort_keys=True)
    return out


def _check_secret_kept(game: Game, side: str, text: str, before: dict[str, str], where: str) -> None:
    if game.view(side)["my_pending_order"] != text:
        raise _fail(where, f"{side}'s own view does not show its pending plot {text!r}")
    after = _others_views(game, side)
    for name, seen in before.items():
        if after[name] != seen:
            raise _fail(where, f"{side}'s secret plot {text!r} changed the {name} before every plot was in")


@dataclass(frozen=True)
class _Try:
    """An order the kit expects the game to refuse, the complaint if it does not, and the errors that count."""

    side: str
    order: Order | str
    complaint: str
    refusals: tuple[type[Exception], ...] = (OrderSyntaxError, IllegalOrderError)


def _check_refused(game: Game, tries: Sequence[_Try], where: str, changed: str) -> None:
    """Each try, submitted in turn, must be refused (else fail with its complaint), and the game, pending
    plots included, must be as it was before them all (else fail with ``changed``)."""
    before = _fingerprint(game)
    pending = dict(game.pending)
    for one in tries:
        try:
            game.submit(one.side, one.order)
        except one.refusals:
            continue
        raise _fail(where, one.complaint)
    if _fingerprint(game) != before or game.pending != pending:
        raise _fail(where, changed)


def _check_rejection_is_harmless(game: Game, where: str) -> None:
    prompt = game.prompt
    if prompt is None:
        return
    side = game.waiting_for[0] if game.waiting_for else prompt.sides[0]
    tries = [_Try(side, junk, f"junk order {junk!r} was accepted") for junk in ("", "%%%", "no such order at all 999")]
    tries.append(
        _Try("no-such-side", "x", "an order from a side that does not exist was accepted", (IllegalOrderError,))
    )
    _check_refused(game, tries, where, "a rejected order changed the game")


def check_game(game: Game) -> None:
    """Save/load identity, replay identity and the dice log of a finished game."""
    where = f"{game.system.manifest.name}/{game.scenario.id}/seed {game.seed}"
    data = game_to_data(game)
    loaded, _ = game_from_data(json.loads(json.dumps(data)), where)
    if loaded.state != game.state or loaded.events != game.events:
        raise _fail(where, "save and load did not give the identical game")
    replayed = Game.replay(game.system, game.scenario, game.seed, game.options, game.history)
    if replayed.state != game.state or replayed.events != game.events:
        raise _fail(where, "replaying the orders did not give the identical game")
    state_again = game.system.state_from_data(json.loads(json.dumps(game.system.state_to_data(game.state))))
    if state_again != game.state:
        raise _fail(where, "the state does not survive JSON and back")
    rolls = [e for e in game.events if isinstance(e, Rolled)]
    logged_dice = sum(len(r.faces) for r in rolls)
    if logged_dice != game.dice_count:
        raise _fail(where, f"{game.dice_count} dice thrown but {logged_dice} logged")
    if any(not r.purpose for r in rolls):
        raise _fail(where, "a roll was logged without its purpose")


@dataclass(frozen=True)
class Golden:
    """A golden game: bots, seed and the event log in words they must reproduce."""

    name: str
    scenario: str
    controllers: Mapping[str, str] = field(hash=False)
    seed: int
    log: str


def event_log(game: Game) -> str:
    """A game's events in words, one a line (the golden files' format)."""
    return "".join(f"{e.describe()}\n" for e in game.events)


def check_golden(golden: Golden) -> Game:
    """Replay a golden game with its bots and seed; the log must match line for line."""
    where = f"golden {golden.name}"
    game = play_out(builtin_scenario(golden.scenario), dict(golden.controllers), seed=golden.seed)
    if not game.is_over:
        raise _fail(where, "the game did not finish")
    actual = event_log(game)
    if actual != golden.log:
        diff = "".join(
            difflib.unified_diff(golden.log.splitlines(True), actual.splitlines(True), golden.name, "this run")
        )
        raise _fail(where, f"the event log changed:\n{diff}")
    check_game(game)
    return game


def check_scenario(system_name: str, scenario: Scenario, seeds: Iterable[int] = (0, 1, 2)) -> list[Report]:
    system = get_system(system_name)
    reports: list[Report] = []
    for seed in seeds:
        game = play_random_game(system, scenario, seed)
        check_game(game)
        again = play_random_game(system, scenario, seed, secrets=0)
        if _fingerprint(again) != _fingerprint(game):
            raise _fail(f"{system_name}/{scenario.id}/seed {seed}", "the same seed gave a different game")
        result = game.result
        if result is None:
            raise _fail(f"{system_name}/{scenario.id}/seed {seed}", "game over but no result")
        reports.append(
            Report(
                system_name,
                scenario.id,
                seed,
                game.history[-1].clock.turn if game.history else 0,
                sum(len(b.orders) for b in game.history),
                game.dice_count,
                result.winners,
            )
        )
    return reports


def scenarios_of(system_name: str) -> list[Scenario]:
    out = []
    for name in scenario_paths():
        scenario = builtin_scenario(name)
        if scenario.system == system_name:
            out.append(scenario)
    return out


def check_system(system_name: str, seeds: Iterable[int] = (0, 1, 2)) -> list[Report]:
    """Run the whole kit over every built-in scenario of ``system_name``."""
    scenarios = scenarios_of(system_name)
    if not scenarios:
        raise _fail(system_name, "ships no scenario, so nothing can be checked")
    seeds = tuple(seeds)
    for scenario in scenarios:
        check_endings(get_system(system_name), scenario)
    return [r for s in scenarios for r in check_scenario(system_name, s, seeds)]


def check_endings(system: RuleSystem[Any], scenario: Scenario, seed: int = 0, orders: int = 3) -> None:
    """After a few random orders (the last maybe a plot still waiting), each side's concession and an
    agreed end end the game with the kernel's result, and replay to the same end."""
    where = f"{system.manifest.name}/{scenario.id}/seed {seed}: ending"
    game = Game.new(system, scenario, seed)
    bot = system.bots()["random"]()
    for given in range(orders):
        if game.is_over:
            return
        side = game.waiting_for[0]
        game.submit(side, bot.choose(system.side_view(game.state, side), side, bot_rng(seed, side, given)))
    for side in game.sides:
        bot_accepts_end(game, side)  # a computer player can always answer an offer
    ends: list[tuple[str, tuple[str, ...]]] = [(side, tuple(s for s in game.sides if s != side)) for side in game.sides]
    for who, winners in [*ends, ("", ())]:
        ended = Game.replay(system, scenario, seed, game.options, game.history)
        ended.pending.update(game.pending)
        if who:
            ended.concede(who)
        else:
            ended.end_by_agreement(game.sides)
        result = ended.result
        if not ended.is_over or ended.prompt is not None or result is None or result.winners != winners:
            raise _fail(where, f"{'conceding ' + who if who else 'an agreed end'} gave {result}, not winners {winners}")
        check_game(ended)
