"""benchmarks/departures.py: it finds exactly the decisions where the search left greedy's order, and plays each on."""

from __future__ import annotations

from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(autouse=True)
def _benchmarks_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    # benchmarks/ is a folder of scripts that import each other by name, imported so here as in test_benchmark_sprt.
    monkeypatch.syspath_prepend(str(BENCHMARKS))


def test_greedy_in_the_side_never_departs_from_greedy() -> None:
    from departures import departures, summary

    found = list(departures("avt-damage", "blue", "greedy", 0, 2))
    assert found == []
    assert summary(found, 2) == "no departures"


def test_each_departure_differs_from_greedy_and_is_played_on_paired() -> None:
    from departures import departures, summary
    from vectorwar.play import bot_order
    from vectorwar.setup import set_up

    found = list(departures("avt-damage", "blue", "search", 3, 2))
    # The same game played again: its decisions where the search's order is not greedy's, in order.
    setup = set_up("avt-damage", {"blue": "search", "red": "greedy"}, seed=3)
    greedy = set_up("avt-damage", {"blue": "greedy", "red": "greedy"}, seed=3).bots["blue"]
    game, expected = setup.game, []
    while not game.is_over:
        for side in game.waiting_for:
            order = bot_order(game, side, setup.bots[side])
            if side == "blue" and str(order) != str(plain := bot_order(game, side, greedy)):
                expected.append((str(order), str(plain)))
            game.submit(side, order)
    assert [(d.searched, d.greedy) for d in found] == expected
    assert found, "the search leaves greedy's order somewhere in this game"
    for d in found:
        assert d.searched != d.greedy
        assert len(d.scores) == 2
        assert all(s in (0.0, 0.5, 1.0) and g in (0.0, 0.5, 1.0) for s, g in d.scores)
        assert d.worth == sum(s - g for s, g in d.scores) / 2
    assert summary(found, 2).startswith(f"{len(found)} departures, 2 games each order: worth ")


def test_a_game_played_on_is_the_same_on_the_same_dice() -> None:
    from departures import played_on
    from vectorwar.play import bot_order
    from vectorwar.setup import set_up

    setup = set_up("avt-damage", {"blue": "greedy", "red": "greedy"}, seed=0)
    game = setup.game
    order = bot_order(game, "blue", setup.bots["blue"])
    assert played_on(game, "blue", order, 5) == played_on(game, "blue", order, 5)
    assert game.history == []  # the position played on from is left as it was


def test_counts_from_the_command_line_are_one_or_more() -> None:
    from departures import main

    with pytest.raises(SystemExit):
        main(["avt-damage", "--side", "blue", "--games", "0"])
    with pytest.raises(SystemExit):
        main(["avt-damage", "--side", "blue", "--seeds", "-1"])


def test_each_searched_game_plays_its_departures_on_dice_of_its_own() -> None:
    from departures import continuation_seeds

    # The opening is the same position in every game: its copies must not share their continuations' dice.
    seen = [set(continuation_seeds(seed, 40)) for seed in range(5)]
    assert all(len(s) == 40 for s in seen)
    assert all(a.isdisjoint(b) for i, a in enumerate(seen) for b in seen[i + 1 :])
    assert min(continuation_seeds(0, 3)) >= 1_000_000  # apart from the searched games' own seeds


def test_a_game_is_played_on_with_the_side_given_to_the_bot_named() -> None:
    from departures import played_on
    from vectorwar.play import bot_order
    from vectorwar.setup import set_up

    setup = set_up("avt-damage", {"blue": "greedy", "red": "greedy"}, seed=0)
    game = setup.game
    order = bot_order(game, "blue", setup.bots["blue"])
    # Random plays blue on: a different game from greedy's on the same dice, and never better than a greedy
    # red lets it be here; both read back the same when played again.
    assert played_on(game, "blue", order, 7, on="random") == played_on(game, "blue", order, 7, on="random")
    scores = {played_on(game, "blue", order, k, on="random") for k in range(6)}
    assert scores == {0.0}
