"""The quick VMS bot: the fast bot of a search's trials in VMS, and nowhere else (vectorwar.systems.vms.quick)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from vectorwar.errors import VectorwarError
from vectorwar.players import computer_players
from vectorwar.registry import get_system
from vectorwar.search import Judging, SearchBot
from vectorwar.setup import set_up
from vectorwar.systems.vms import greedy_kept, quick
from vectorwar.systems.vms.bots import GreedyBot, Scorer
from vectorwar.systems.vms.greedy_kept import predict
from vectorwar.systems.vms.orders import MovePlot
from vectorwar.systems.vms.quick import QuickBot
from vectorwar.systems.vms.state import VMSState

#: Scenarios and options of every kind of VMS ship and rule the quick bot plans under.
PLAYED = [
    ("vms-capital-duel-msc", {}),
    ("vms-fighter-screen-vv5", {}),
    ("vms-mixed-fleet-msc", {"vms_advanced_rotation": True}),
    ("vms-capital-duel-vv5", {"vms_rotate_before_thrust": True}),
]


def _plots(scenario: str, options: dict[str, Any], seed: int, every: int = 2) -> Iterator[tuple[Any, VMSState, str]]:
    """Every ``every``-th plot of a greedy game of ``scenario``: the system, the state and the side to plot."""
    game = set_up(scenario, seed=seed, options=options, default="greedy").game
    found = 0
    for _ in range(2000):
        if game.is_over:
            return
        for side in game.waiting_for:
            state = game.state
            assert isinstance(state, VMSState)
            if state.phase == "plot":
                found += 1
                if found % every == 0:
                    yield game.system, state, side
            greedy = game.system.bots()["greedy"]()
            game.submit(side, greedy.choose(game.system.side_view(state, side), side, random.Random(seed)))


@pytest.mark.parametrize(("scenario", "options"), PLAYED)
def test_the_quick_bots_plots_are_legal_and_move_every_ship_that_moves_now(
    scenario: str, options: dict[str, Any]
) -> None:
    seen = 0
    for system, state, side in _plots(scenario, options, seed=2):
        bot = QuickBot(system)
        order = bot.choose(state, side, random.Random(seen))
        system.check_order(state, side, order)  # raises on an illegal plot
        assert isinstance(order, MovePlot)
        assert [ship for ship, _ in order.moves] == [s.id for s in system.movers(state, side)]
        seen += 1
    assert seen >= 5


def test_the_quick_bot_plays_greedys_own_score_at_the_ends_it_looks_at() -> None:
    # With every end looked at, its pick scores (by greedy's own scorer) what greedy's best does where neither
    # turns flat: the terms it works out by arithmetic are greedy's.
    matched = looked = 0
    for system, state, side in _plots("vms-capital-duel-msc", {}, seed=1, every=1):
        enemies = predict(state, side)
        for ship in system.movers(state, side):
            menu = system.plots_for(state, ship)
            if not menu or any(p.flat_turn for p, _ in menu):
                continue
            scorer = Scorer(state, ship, enemies, system)
            best = max(scorer.score(r) for _, r in menu)
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(quick, "ENDS", 1000)
                plots = quick.quick_plots(state, ship, enemies, system, None)
            by_plot = dict(menu)
            looked += 1
            matched += scorer.score(by_plot[plots[0]]) == pytest.approx(best)
    assert looked >= 5
    assert matched == looked


def test_vms_search_trials_play_the_quick_bot_and_its_candidates_stay_greedys() -> None:
    vms = get_system("vms")
    assert vms.rollout_bot() == "quick"
    bot = SearchBot(vms)
    assert bot.trials == "quick"
    assert isinstance(bot.fast, QuickBot)
    assert isinstance(bot.policy, GreedyBot)
    # Players never meet it: it is a fast bot for trials only.
    assert "quick" not in computer_players(vms)
    assert "quick" in vms.rollout_bots()
    # Named, the trials play greedy as before, at greedy's cost.
    old = SearchBot(vms, trials="greedy")
    assert isinstance(old.fast, GreedyBot)
    with pytest.raises(VectorwarError, match="no such fast bot"):
        SearchBot(vms, trials="nobody")


def test_a_vms_search_decision_plays_its_trials_with_the_quick_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"quick": 0, "greedy": 0}
    quick_choose, greedy_choose = QuickBot.choose, GreedyBot.choose

    def counted_quick(self: QuickBot, state: VMSState, side: str, rng: random.Random) -> Any:
        calls["quick"] += 1
        return quick_choose(self, state, side, rng)

    def counted_greedy(self: GreedyBot, state: VMSState, side: str, rng: random.Random) -> Any:
        calls["greedy"] += 1
        return greedy_choose(self, state, side, rng)

    monkeypatch.setattr(QuickBot, "choose", counted_quick)
    monkeypatch.setattr(GreedyBot, "choose", counted_greedy)
    for system, state, side in _plots("vms-capital-duel-msc", {}, seed=3):
        bot = SearchBot(system)  # VMS's own rollout bot
        assert bot.judging(state) is Judging.PROSPECT
        calls.update(quick=0, greedy=0)
        bot.choose(state, side, random.Random(0))
        if bot.rollouts:
            # Greedy gives the candidates and the guess of the other side (one each); every trial plays quick.
            assert calls["quick"] >= bot.rollouts
            assert calls["greedy"] <= 2 + bot.rollouts // 10
            return
    pytest.fail("no searched plot")


@pytest.mark.parametrize("name", ["msc", "vv5", "avt"])
def test_every_other_systems_search_trials_play_its_greedy_bot(name: str) -> None:
    system = get_system(name)
    assert system.rollout_bot() == "greedy"
    assert set(system.rollout_bots()) == set(system.bots())
    bot = SearchBot(system)
    assert bot.trials == "greedy"
    assert type(bot.fast) is type(system.bots()["greedy"]())


def _fresh() -> None:
    """Everything the quick bot and its aims keep between asks, emptied."""
    for kept in (quick._PLOTS, quick._RANKED, quick._ENDS, quick._BY_SHIP, quick._CHANGES, quick._RESTS):
        kept.clear()
    for numbers in (quick._TOKENS, greedy_kept._TARGETS):
        numbers.kept.clear()
    greedy_kept._AIMS.clear()


@pytest.mark.parametrize("scenario", ["vms-fighter-screen-vv5", "vms-capital-duel-msc"])
def test_the_quick_bots_kept_plots_are_the_plots_worked_out_afresh(
    scenario: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A search's trials ask the quick bot of one ship again and again, each trial moving some other ship, and it keeps
    # its answers (and their parts) by what they read: every plot it gave in a search's trials, kept or not, is the
    # one worked out with nothing kept.
    asked: list[tuple[VMSState, Any, list[Any], Any, list[Any]]] = []
    real = quick.quick_plots

    def recorded(state: VMSState, ship: Any, enemies: Any, engine: Any, aims: Any, token: int = 0) -> list[Any]:
        found = real(state, ship, enemies, engine, aims, token)
        asked.append((state, ship, list(enemies), engine, found))
        return found

    monkeypatch.setattr(quick, "quick_plots", recorded)
    searched = 0
    for system, state, side in _plots(scenario, {}, seed=11):
        bot = SearchBot(system)
        bot.choose(state, side, random.Random(0))
        searched += bool(bot.rollouts)
        if searched == 2:
            break
    kept = sum(1 for _, _, enemies, _, _ in asked if enemies)
    assert kept >= 100
    for state, ship, enemies, engine, found in asked:
        _fresh()
        assert real(state, ship, enemies, engine, None) == found
