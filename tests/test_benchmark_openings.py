"""benchmarks/openings.py: it finds each side's first searched decision, and plays on only where the orders differ."""

from __future__ import annotations

from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(autouse=True)
def _benchmarks_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # benchmarks/ is a folder of scripts that import each other by name, imported so here as in test_benchmark_sprt.
    monkeypatch.syspath_prepend(str(BENCHMARKS))


def test_the_position_is_the_first_searched_decision_of_a_game_greedy_plays() -> None:
    from openings import first_searched
    from vectorwar.play import bot_order
    from vectorwar.search.bot import SearchBot
    from vectorwar.setup import make_bots, set_up

    # MSC's deploy scenario opens with a set-up choice (where the fleet enters), which the search does not try.
    found = first_searched("msc-deploy", "red", "search", 0)
    assert found is not None
    setup = set_up("msc-deploy", {"red": "greedy", "blue": "greedy"}, seed=0)
    game = setup.game
    while True:
        if "red" in game.waiting_for:
            search = make_bots(game.system, {"red": "search"})["red"]
            assert isinstance(search, SearchBot)
            order = bot_order(game, "red", search)
            if search.rollouts:
                break
        for side in game.waiting_for:
            game.submit(side, bot_order(game, side, setup.bots[side]))
    assert game.history, "a set-up decision came first, made by greedy"
    assert found.game.history == game.history
    assert found.game.state == game.state
    assert str(found.searched) == str(order)
    assert str(found.greedy) == str(bot_order(game, "red", setup.bots["red"]))


def test_a_side_whose_search_gives_greedys_order_plays_no_games() -> None:
    from openings import opening, row

    same = opening(("msc-duel", "red", "search", 0, 3, "greedy"))
    assert same.searched == same.greedy
    assert same.scores == ()
    assert row(same) == "| msc-duel | red | 1 | `Hawk 3` | `Hawk 3` | the same order, no games |  |"
    # Greedy in the side never runs a trial: no searched decision, no games.
    never = opening(("avt-damage", "blue", "greedy", 0, 3, "greedy"))
    assert (never.searched, never.scores) == (None, ())
    assert row(never) == "| avt-damage | blue | - | never searched | - | no games |  |"


def test_a_departing_opening_is_played_on_with_each_order() -> None:
    from openings import opening

    found = opening(("avt-damage", "blue", "search", 0, 3, "greedy"))
    assert (found.turn, found.searched, found.greedy) == (1, "Blue pivot D-", "Blue pivot C--")
    assert len(found.scores) == 3
    assert all(s in (0.0, 0.5, 1.0) and g in (0.0, 0.5, 1.0) for s, g in found.scores)


def test_each_pair_is_played_on_the_same_dice() -> None:
    from departures import paired
    from openings import first_searched

    found = first_searched("avt-damage", "blue", "search", 0)
    assert found is not None
    twice = paired(found.game, "blue", (found.greedy, found.greedy), 0, 6)
    assert len(twice) == 6
    assert all(a == b for a, b in twice)  # the same order twice: worth exactly nothing
    assert found.game.history == []  # the position played on from is left as it was


def test_rows_carry_the_worth_and_its_flag() -> None:
    from openings import HEADER, Opening, row

    def made(scores: list[tuple[float, float]]) -> Opening:
        return Opening("avt-damage", "blue", 1, "Blue pivot D-", "Blue pivot C--", tuple(scores))

    worse = made([(0.0, 1.0)] * 3 + [(1.0, 1.0)])
    assert worse.worth == -0.75
    assert worse.flag == "worse"
    assert row(worse) == "| avt-damage | blue | 1 | `Blue pivot D-` | `Blue pivot C--` | -0.750 +/- 0.250 | worse |"
    assert made([(1.0, 0.0)] * 3 + [(0.5, 0.5)]).flag == "better"
    assert made([(1.0, 0.0), (0.0, 1.0), (0.5, 0.0)]).flag == ""  # within two standard errors of nothing
    assert made([(1.0, 1.0)] * 2).flag == ""  # worth nothing, no error: neither
    assert row(made([(1.0, 0.0)])).endswith("| +1.000 +/- nan |  |")  # one game: no error to judge by
    assert len(row(worse).split("|")) == len(HEADER.splitlines()[0].split("|"))
    assert "\\|" in row(Opening("s", "a", None, "x | y", "x", ((0.0, 0.0),)))  # a bar in an order stays in its cell


def test_the_scenarios_are_the_ladders() -> None:
    from openings import contested, jobs
    from vectorwar.lab.ladder import ladder_scenarios

    assert contested(["msc"]) == ladder_scenarios("msc")
    assert jobs(["msc-duel"], "search", 4, 10) == [
        ("msc-duel", "red", "search", 4, 10, "greedy"),
        ("msc-duel", "blue", "search", 4, 10, "greedy"),
    ]
    assert jobs(["msc-duel"], "search", 4, 10, "search")[0][-1] == "search"


def test_counts_from_the_command_line_are_one_or_more() -> None:
    from openings import main

    for bad in (["--games", "0"], ["--workers", "0"], ["--games", "-3"]):
        with pytest.raises(SystemExit):
            main(["avt-damage", *bad])


def test_the_table_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    from openings import main

    main(["msc-duel", "--games", "2"])
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("| scenario | side |")
    assert [line.split(" | ")[1] for line in out[3:5]] == ["red", "blue"]
    assert out[-1].startswith("cpu ")
