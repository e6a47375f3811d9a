"""benchmarks/sprt.py: the log-likelihood ratio, its bounds, and a run that reaches each verdict."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(autouse=True)
def _benchmarks_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # benchmarks/ is a folder of scripts that import each other by name, imported so here as in test_benchmark_compare.
    monkeypatch.syspath_prepend(str(BENCHMARKS))


def test_bounds_are_the_walds_for_alpha_and_beta() -> None:
    from sprt import bounds

    lower, upper = bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19))
    assert upper == pytest.approx(math.log(19))


def test_expected_scores_of_equal_and_stronger_players() -> None:
    from sprt import expected_score

    assert expected_score(0) == 0.5
    assert expected_score(10) == pytest.approx(0.5144, abs=1e-4)
    assert expected_score(-10) == pytest.approx(1 - expected_score(10))


def test_the_llr_leans_to_the_side_the_scores_lie_on() -> None:
    from sprt import llr

    level = [0.5, 0.25, 0.75, 0.5] * 10
    # Scores right between the hypotheses' expectations weigh for neither; more pairs the same way weigh more.
    middle = llr(level, -10, 10)
    assert middle == pytest.approx(0.0)
    ahead = [0.75, 0.5, 1.0, 0.75] * 10
    assert llr(ahead, 0, 10) > llr(ahead[:20], 0, 10) > 0
    assert llr([1.0 - s for s in ahead], 0, 10) < 0


def test_a_verdict_counts_every_game_and_pairs_them() -> None:
    from sprt import verdict

    found = verdict([(1.0, 1.0), (1.0, 0.5), (0.0, 1.0)], 0, 10, 0.05, 0.05)
    assert (found.games, found.wins, found.draws, found.losses) == (6, 4, 1, 1)


@pytest.mark.parametrize(
    "argv", [["greedy", "search"], ["greedy", "search", "vv5-dogfight-3"], ["a", "b", "msc-duel", "--elo1", "0"]]
)
def test_bad_arguments_are_refused(argv: list[str]) -> None:
    from sprt import parse_args

    with pytest.raises(SystemExit):
        parse_args(argv)


def test_greedy_is_accepted_as_stronger_than_random_and_random_is_not_stronger_than_greedy() -> None:
    from sprt import main

    stronger = main(["random", "greedy", "msc-duel", "--workers", "1", "--max-pairs", "60"])
    assert stronger.decision.startswith("H1")
    weaker = main(["greedy", "random", "msc-duel", "--workers", "1", "--max-pairs", "60"])
    assert weaker.decision.startswith("H0")
    assert weaker.games <= 120


def test_a_player_at_a_commit_plays_as_the_bot_of_that_commit(monkeypatch: pytest.MonkeyPatch) -> None:
    import remote_bot
    from sprt import add_old_bot, play_pair
    from vectorwar.registry import get_system

    msc = type(get_system("msc"))
    monkeypatch.setattr(msc, "bots", msc.bots)  # put back afterwards
    monkeypatch.setattr(remote_bot, "_TREES", {})  # no tree checked out yet in this process
    add_old_bot("greedy@HEAD", ["msc-duel"])
    assert "greedy@head" in get_system("msc").bots()
    # Checked out in this process, before any worker starts, so the workers forked after share the one tree.
    assert list(remote_bot._TREES) == ["HEAD"]
    assert (remote_bot._TREES["HEAD"] / "src" / "vectorwar").is_dir()
    # The bot of the last commit, in a process of its own, plays as today's greedy: the same games.
    first, second = play_pair(("msc-duel", 3, "greedy", "greedy@HEAD"))
    again = play_pair(("msc-duel", 3, "greedy", "greedy"))
    assert (first, second) == again
    # Taken away with the temporary folder made for it (as at the process's exit), nothing left behind.
    tree = remote_bot._TREES["HEAD"]
    remote_bot.remove_tree(tree)
    assert not tree.parent.exists()
    with pytest.raises(SystemExit):
        add_old_bot("search@", ["msc-duel"])


def test_a_remote_search_decides_as_the_search_of_this_process() -> None:
    from remote_bot import RemoteBot
    from vectorwar.play import bot_rng
    from vectorwar.search import SearchBot
    from vectorwar.setup import set_up

    game = set_up("msc-duel", seed=4).game
    side = game.waiting_for[0]
    view = game.system.side_view(game.state, side)
    here = SearchBot(game.system).choose(view, side, bot_rng(4, side, 0))
    there = RemoteBot(game.system, "search", "HEAD").choose(view, side, bot_rng(4, side, 0))
    assert str(there) == str(here)
    # The child draws from the very random source it is handed: a greedy order that draws shows it.
    rng = random.Random(9)
    assert str(RemoteBot(game.system, "random", "HEAD").choose(view, side, rng)) == str(
        game.system.bots()["random"]().choose(view, side, random.Random(9))
    )


def test_every_worker_gets_a_pair_a_round_and_the_standing_is_printed_as_asked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from sprt import main

    found = main(["random", "greedy", "msc-duel", "--workers", "2", "--max-pairs", "4", "--progress", "2"])
    # One scenario and two workers: each round plays two seeds, so the standing is printed after each.
    assert found.games <= 8
    printed = [line for line in capsys.readouterr().out.splitlines() if " pairs: " in line]
    assert [line.split()[0] for line in printed] == [str(2 * (i + 1)) for i in range(len(printed))]
    assert printed


def test_a_search_level_with_named_trials_is_offered_and_a_bad_one_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from sprt import add_search_trials
    from vectorwar.registry import get_system
    from vectorwar.search import LEVELS, SearchBot

    vms = type(get_system("vms"))
    monkeypatch.setattr(vms, "bots", vms.bots)  # put back afterwards
    add_search_trials("search:2/greedy", ["vms-capital-duel-msc"])
    made = get_system("vms").bots()["search:2/greedy"]()
    assert isinstance(made, SearchBot)
    assert (made.budget, made.trials) == (LEVELS[2], "greedy")
    for bad in ("search/nobody", "greedy/greedy", "search:9/greedy", "search/"):
        with pytest.raises(SystemExit):
            add_search_trials(bad, ["vms-capital-duel-msc"])


def test_a_tree_from_before_the_search_levels_serves_its_own_bots() -> None:
    # docs/rules/avt-bots.md quotes `sprt.py greedy@d432991 greedy ...`: that tree has no vectorwar.players.
    from remote_bot import RemoteBot
    from vectorwar.setup import set_up

    game = set_up("avt-duel-wasp", seed=0).game
    side = game.waiting_for[0]
    view = game.system.side_view(game.state, side)
    order = RemoteBot(game.system, "greedy", "d432991").choose(view, side, random.Random(0))
    game.system.check_order(view, side, order)  # raises if the old bot's order were not one today's rules take
    game.submit(side, order)


def test_a_side_scores_a_win_one_a_draw_or_shared_win_a_half_and_a_loss_nothing() -> None:
    from sprt import side_score
    from vectorwar.rules import Result

    assert side_score(Result(("blue",), "eliminated"), "blue") == 1.0
    assert side_score(Result(("red",), "eliminated"), "blue") == 0.0
    assert side_score(Result((), "turn limit"), "blue") == 0.5
    assert side_score(Result(("red", "blue"), "shared"), "blue") == 0.5
    assert side_score(None, "blue") == 0.5
