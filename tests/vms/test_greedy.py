"""VMS greedy's shortcut: plots whose ceiling cannot beat the best are never fully scored, and nothing changes."""

from __future__ import annotations

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.play import bot_order
from vectorwar.setup import set_up
from vectorwar.systems.vms.bots import FIRE_WEIGHT, _predict, _Scorer, _spoiled
from vectorwar.systems.vms.state import VMSState

from .game_helpers import VMS

SCENARIOS = [f"vms-{kind}-{combat}" for kind in ("capital-duel", "fighter-screen") for combat in ("msc", "vv5")]


def _plots(scenario: str, seed: int, wanted: int) -> list[tuple[VMSState, str]]:
    """Up to ``wanted`` plot prompts of a greedy game against random, each with a seat that plots there."""
    setup = set_up(builtin_scenario(scenario), {"red": "greedy", "blue": "random"}, seed=seed)
    game, bots = setup.game, setup.bots
    found: list[tuple[VMSState, str]] = []
    while not game.is_over and len(found) < wanted:
        for seat in game.waiting_for:
            state = game.state
            if isinstance(state, VMSState) and state.phase == "plot":
                found.append((state, seat))
            game.submit(seat, bot_order(game, seat, bots[seat]))
    return found


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_best_plots_are_the_plots_that_score_best_when_every_plot_is_scored(scenario: str) -> None:
    pruned = 0
    for state, seat in _plots(scenario, seed=7, wanted=10):
        enemies = _predict(state, seat)
        for ship in VMS.movers(state, seat):
            options = VMS.plots_for(state, ship)
            scorer = _Scorer(state, ship, enemies, VMS)
            scored = [(scorer.score(r), p) for p, r in options]
            top = max(score for score, _ in scored)
            quick = _Scorer(state, ship, enemies, VMS)
            assert quick.best(options) == [p for score, p in scored if score == top]
            # The shortcut is taken: fewer ends fully scored than plots offered, most of the time.
            pruned += len(quick.cache) < len(options)
    assert pruned > 0


def test_a_ceiling_is_never_below_the_score() -> None:
    """Each plot's ceiling (every weapon bearing at its best range, no enemy weapon on it) bounds its score."""
    for scenario in SCENARIOS:
        for state, seat in _plots(scenario, seed=11, wanted=4):
            enemies = _predict(state, seat)
            for ship in VMS.movers(state, seat):
                scorer = _Scorer(state, ship, enemies, VMS)
                if scorer.most is None or not enemies:
                    continue
                for _, result in VMS.plots_for(state, ship):
                    terms = scorer._terms(result)
                    if terms is None:
                        continue
                    spoiled = _spoiled(result.hexsides_turned, scorer.base.penalty_per_hexside)
                    ceiling = scorer._total(FIRE_WEIGHT * (spoiled * scorer.most), terms)
                    assert scorer.score(result) <= ceiling
