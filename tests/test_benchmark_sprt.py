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
    "argv",
    [
        ["greedy", "search"],
        ["greedy", "search", "vv5-dogfight-3"],
        ["a", "b", "msc-duel", "--elo1", "0"],
        ["a", "b", "msc-duel", "--gauntlet", "a"],
        ["a", "b", "msc-duel", "--gauntlet", "c", "--gauntlet", "c"],
        ["a", "b", "msc-duel", "--gauntlet", "c", "--gauntlet-margin", "0"],
    ],
)
def test_bad_arguments_are_refused(argv: list[str]) -> None:
    from sprt import parse_args

    with pytest.raises(SystemExit):
        parse_args(argv)


def test_greedy_is_accepted_as_stronger_than_random_and_random_is_not_stronger_than_greedy() -> None:
    from sprt import main

    stronger = main(["random", "greedy", "msc-duel", "--workers", "1", "--max-pairs", "60"])
    assert stronger.head.decision.startswith("H1")
    assert stronger.decision == "accepted"
    weaker = main(["greedy", "random", "msc-duel", "--workers", "1", "--max-pairs", "60"])
    assert weaker.head.decision.startswith("H0")
    assert weaker.decision == "refused"
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


def test_a_gauntlet_holds_when_new_scores_as_well_against_its_player_and_falls_when_it_scores_worse() -> None:
    from sprt import holding

    even = [(1.0, 0.5), (0.5, 0.0), (1.0, 1.0), (0.5, 0.5)] * 10
    # NEW scoring just as OLD pair by pair: no difference, and the virtual pairs' floor on the variance lets that
    # count as evidence that the score holds, slowly (a handful of pairs is not enough), never that it falls.
    few = holding("greedy", even[:8], even[:8], 0.05, 0.05, 0.05)
    assert few.difference == 0.0
    assert 0.0 < few.llr < few.upper
    same = holding("greedy", even, even, 0.05, 0.05, 0.05)
    assert same.llr > few.llr
    assert same.decision == "H1 accepted: NEW's score against greedy holds"
    better = holding("greedy", [(1.0, 1.0), (1.0, 0.5)] * 20, even, 0.05, 0.05, 0.05)
    assert better.difference > 0
    assert better.decision == "H1 accepted: NEW's score against greedy holds"
    worse = holding("greedy", even, [(1.0, 1.0), (1.0, 0.5)] * 20, 0.05, 0.05, 0.05)
    assert worse.difference < 0
    assert worse.decision == "H0 accepted: NEW's score against greedy falls"
    assert (worse.games, worse.new_points) == (80, sum(a + b for a, b in even))


class _InOrder:
    """A pool that plays its jobs here, one after another."""

    def __init__(self, play: object) -> None:
        self.jobs: list[tuple[str, int, str, str]] = []
        self.play = play

    def map(self, _function: object, jobs: list[tuple[str, int, str, str]]) -> list[tuple[float, float]]:
        self.jobs.extend(jobs)
        return [self.play(job) for job in jobs]  # type: ignore[operator]


def test_the_gate_refuses_a_player_that_beats_its_old_self_but_falls_against_the_gauntlet() -> None:
    from sprt import Record, parse_args, play_round

    args = parse_args(["old", "new", "msc-duel", "--gauntlet", "greedy"])

    def play(job: tuple[str, int, str, str]) -> tuple[float, float]:
        _scenario, seed, first, second = job
        if (first, second) == ("old", "new"):
            return (1.0, 1.0) if seed % 8 else (0.5, 1.0)  # NEW beats OLD
        if second == "new":
            return (1.0, 0.5) if seed % 2 else (0.5, 0.5)  # ... but scores less than OLD against greedy
        return (1.0, 0.5) if seed % 3 else (1.0, 1.0)

    pool, record = _InOrder(play), Record()
    seeds_played: list[int] = []
    gate = record.judge(args)
    for seed in range(200):
        play_round(pool, record, [("msc-duel", seed)], args)
        seeds_played.append(seed)
        gate = record.judge(args)
        if gate.decision != "no verdict yet":
            break
    assert gate.decision == "refused"
    assert gate.holdings[0].decision.startswith("H0")
    assert record.pairs == len(seeds_played)
    # The head to head settled first: its games stopped there, while the gauntlet's went on to its own verdict.
    assert gate.head.decision.startswith("H1")
    assert gate.head.games < 2 * record.pairs == gate.holdings[0].games
    assert gate.games == gate.head.games + 2 * gate.holdings[0].games
    assert sum(1 for job in pool.jobs if job[2:] == ("old", "new")) == gate.head.games // 2
    assert sum(1 for job in pool.jobs if job[2] == "greedy") == 2 * record.pairs


def test_a_gauntlet_run_plays_new_and_old_against_its_player_on_the_same_seeds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import remote_bot
    from sprt import main
    from vectorwar.registry import get_system

    msc = type(get_system("msc"))
    monkeypatch.setattr(msc, "bots", msc.bots)  # put back afterwards
    monkeypatch.setattr(remote_bot, "_TREES", {})
    found = main(["random", "greedy", "msc-duel", "--workers", "1", "--max-pairs", "40", "--gauntlet", "random@HEAD"])
    (against,) = found.holdings
    # Greedy beats the gauntlet's random player where random is even with it: the score holds (it rises).
    assert against.difference > 0.25
    assert found.decision == "accepted"
    assert found.games == found.head.games + 2 * against.games
    printed = capsys.readouterr().out
    assert "against random@HEAD" in printed
    assert "greedy: accepted" in printed
