"""Two plots a trial: VV5's search trials search the side's next plot too (``RuleSystem.plan_ahead``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest

from vectorwar.dice import Dice
from vectorwar.game import Game
from vectorwar.search import Judging, SearchBot, trials
from vectorwar.search.near import by_nearness, chosen_move, entry_map, gap
from vectorwar.setup import set_up
from vectorwar.systems.vv5.rules import PLAN_AHEAD, system


def movement_plots(scenario: str, side: str, seed: int, count: int) -> Iterator[Game]:
    """The first ``count`` movement plots ``side`` makes in a game of greedy bots."""
    setup = set_up(scenario, seed=seed, default="greedy")
    game = setup.game
    while count and not game.is_over:
        prompt = game.system.prompt(game.state)
        assert prompt is not None
        if prompt.kind == "plot" and side in game.waiting_for:
            count -= 1
            yield game
        for s in list(game.waiting_for):
            game.submit(s, setup.bots[s].choose(game.state, s, random.Random(0)))


def rank(bot: SearchBot, end: trials.Trial, side: str) -> tuple[float, float]:
    fixed, gain = bot._outcome(end, side, {})
    return (0.5 if fixed is None else fixed), gain


def test_the_next_plots_tried_are_legal_one_ship_changes_of_the_fast_bots_ending_nearest_first() -> None:
    # The assault force makes the run: a transport and its escort, so a change may move any of them.
    game = next(movement_plots("vv5-assault-force", "assault", 3, 2))
    bot = SearchBot(system)
    state = game.state
    assert system.plan_ahead(state, "assault") == PLAN_AHEAD == 8
    base = bot.policy.choose(state, "assault", random.Random(0))
    plots = bot._next_plots(state, "assault", base)
    assert len(plots) == PLAN_AHEAD
    assert len({str(p) for p in plots}) == len(plots)
    assert str(base) not in {str(p) for p in plots}
    options = system.move_options(state, "assault")
    gaps = []
    for plot in plots:
        system.check_order(state, "assault", plot)
        changed = [ship for ship, text in entry_map(str(plot)).items() if entry_map(str(base)).get(ship) != text]
        assert len(changed) == 1
        ship = next(s for s in options if s.lower() == changed[0])
        gaps.append(gap(chosen_move(str(plot), ship, options[ship]), chosen_move(str(base), ship, options[ship])))
    assert gaps == sorted(gaps)
    assert gaps[-1] <= _gap_at(len(plots), str(base), options)


def _gap_at(index: int, base: str, options: Mapping[str, Sequence[Any]]) -> int:
    """How far from the fast bot's the ``index``-th nearest one-ship change of all ends (no change skipped)."""
    ship, move = by_nearness(base, options)[index - 1]
    return gap(move, chosen_move(base, ship, options[ship]))


def test_a_trial_that_plays_every_next_plot_out_ends_no_worse_for_the_side_than_the_fast_bots(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every plot tried is played to the trial's end, the fast bot's among them: the best cannot be worse.
    monkeypatch.setattr(trials, "PLAN_KEPT", 99)
    better = 0
    for game in movement_plots("vv5-pirates", "pirate", 0, 3):
        bot = SearchBot(system)
        state = game.state
        orders = {s: bot.policy.choose(state, s, random.Random(0)) for s in game.waiting_for}
        plain = bot._rollout(state, orders, 7, Judging.PROSPECT)
        planned = bot._rollout(state, orders, 7, Judging.PROSPECT, "pirate")
        assert rank(bot, planned, "pirate") >= rank(bot, plain, "pirate")
        better += rank(bot, planned, "pirate") > rank(bot, plain, "pirate")
    assert better > 0  # the pirate's own next plot is worth searching in these positions


def test_a_trial_searches_the_named_sides_next_plot_only_if_it_makes_a_run() -> None:
    game = next(movement_plots("vv5-pirates", "pirate", 0, 2))
    state = game.state
    bot = SearchBot(system)
    orders = {s: bot.policy.choose(state, s, random.Random(0)) for s in game.waiting_for}
    plain = bot._rollout(state, orders, 7, Judging.PROSPECT)
    # The pirate makes the run: its next plot is searched. Its pursuers' is the fast bot's.
    assert system.plan_ahead(state, "pirate") == PLAN_AHEAD
    assert system.plan_ahead(state, "interceptors") == 0
    assert bot._rollout(state, orders, 7, Judging.PROSPECT, "pirate") != plain
    assert bot._rollout(state, orders, 7, Judging.PROSPECT, "interceptors") == plain
    # Where the system does not plan ahead, the named side's next plot is the fast bot's too: Strike Force's
    # bombers (a run, measured weaker with it), a VV5 fight that is not a run (the Dogfight), and VMS.
    bombing = next(movement_plots("vv5-strike-force", "strike", 0, 2))
    assert system.plan_ahead(bombing.state, "strike") == 0
    bombing_orders = {s: bot.policy.choose(bombing.state, s, random.Random(0)) for s in bombing.waiting_for}
    assert bot._rollout(bombing.state, bombing_orders, 7, Judging.PROSPECT, "strike") == bot._rollout(
        bombing.state, bombing_orders, 7, Judging.PROSPECT
    )
    fight = next(movement_plots("vv5-dogfight", "red", 0, 2))
    assert system.plan_ahead(fight.state, "red") == 0
    fight_orders = {s: bot.policy.choose(fight.state, s, random.Random(0)) for s in fight.waiting_for}
    assert bot._rollout(fight.state, fight_orders, 7, Judging.PROSPECT, "red") == bot._rollout(
        fight.state, fight_orders, 7, Judging.PROSPECT
    )
    vms = next(movement_plots("vms-capital-duel-vv5", "red", 0, 1))
    assert vms.system.plan_ahead(vms.state, "red") == 0
    vms_bot = SearchBot(vms.system)
    vms_orders = {s: vms_bot.policy.choose(vms.state, s, random.Random(0)) for s in vms.waiting_for}
    assert vms_bot.judging(vms.state) is Judging.PROSPECT
    assert vms_bot._rollout(vms.state, vms_orders, 7, Judging.PROSPECT, "red") == vms_bot._rollout(
        vms.state, vms_orders, 7, Judging.PROSPECT
    )


def _started(state: Any, orders: Mapping[str, Any], turn: int) -> tuple[Any, Dice, random.Random, trials.Progress]:
    """A prospect trial's start, as ``SearchBot._rollout`` makes it on dice seed 7."""
    dice = Dice(7)
    after, _ = system.resolve(state, orders, dice)
    dice.log.clear()
    return after, dice, random.Random(7), trials.Progress(moved=turn)


def test_a_trial_cut_at_a_stop_goes_on_from_there_as_if_it_had_never_stopped() -> None:
    # The runner's branches are judged at their next stop and the best go on from there (``_planned``).
    for game in movement_plots("vv5-assault-force", "assault", 2, 3):
        bot = SearchBot(system)
        state = game.state
        orders = {s: bot.policy.choose(state, s, random.Random(0)) for s in game.waiting_for}
        prompt = system.prompt(state)
        assert prompt is not None
        whole = bot._moves_in_prospect(*_started(state, orders, prompt.clock.turn), None)
        after, dice, rng, progress = _started(state, orders, prompt.clock.turn)
        cut, _ = bot._moves_in_prospect(after, dice, rng, progress, None, until=1)
        assert progress.stops == 1 < system.prospect_moves
        assert progress.moved is None
        assert cut != whole[0]
        assert bot._moves_in_prospect(cut, dice, rng, progress, None) == whole
