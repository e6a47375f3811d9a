"""The kernel's one game set-up and one bot loop, as every front end uses them."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import ScenarioError, SetupError
from vectorwar.game import Game
from vectorwar.play import bot_turns, play_out
from vectorwar.rules import Order
from vectorwar.setup import find_scenario, game_options, set_up, system_of
from vectorwar.systems.msc import MinimalSpaceCombat


def test_set_up_sides_players_in_any_case_and_reads_text_options() -> None:
    setup = set_up("msc-duel", {"BLUE": "Greedy"}, seed=3, options={"map_edge": "forbid"})
    assert setup.players == {"red": "human", "blue": "greedy"}
    assert list(setup.bots) == ["blue"]
    assert setup.game.seed == 3
    assert setup.game.options["map_edge"] == "forbid"
    scenario = find_scenario("msc-duel")
    assert game_options(system_of(scenario), scenario, {"strict_turn_spacing": "yes"}, as_text=True) == {
        "strict_turn_spacing": True
    }


@pytest.mark.parametrize(
    ("players", "options", "says"),
    [
        ({"green": "greedy"}, {}, "scenario msc-duel has no side 'green' (sides: red, blue)"),
        ({"red": "nobody"}, {}, "side red: no computer player called 'nobody' (known: "),
        ({}, {"warp_drive": True}, "scenario 'msc-duel': options: msc has no option 'warp_drive'"),
        ({}, {"map_edge": "wrap"}, "options: option map_edge must be one of"),
    ],
)
def test_every_set_up_problem_is_a_set_up_error(players: dict[str, str], options: dict[str, object], says: str) -> None:
    with pytest.raises(SetupError) as caught:
        set_up("msc-duel", players, seed=1, options=options)
    assert says in str(caught.value)
    # Callers that catch scenario errors still catch these.
    assert isinstance(caught.value, ScenarioError)


def test_a_request_never_opens_a_file_unless_files_are_allowed(tmp_path: Any) -> None:
    with pytest.raises(SetupError, match=r"no scenario called '/etc/passwd' \(built-in: "):
        find_scenario("/etc/passwd")
    with pytest.raises(SetupError, match="no such file"):
        find_scenario(str(tmp_path / "missing.toml"), files=True)


def test_play_out_needs_a_computer_player_in_every_side() -> None:
    with pytest.raises(SetupError, match="none for red"):
        play_out(builtin_scenario("msc-duel"), {"blue": "greedy"}, seed=1)


class Watched(MinimalSpaceCombat):
    """MSC whose side view is a copy of the state, so what a bot is handed can be told apart."""

    def __init__(self) -> None:
        super().__init__()
        self.views: list[tuple[str | None, Any]] = []

    def side_view(self, state: Any, side: str | None) -> Any:
        view = replace(state)
        self.views.append((side, view))
        return view


class Recording:
    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: list[tuple[str, Any]] = []

    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        self.seen.append((side, state))
        order: Order = self.inner.choose(state, side, rng)
        return order


def test_the_bot_loop_hands_each_bot_its_sides_view_and_nothing_else() -> None:
    system = Watched()
    game = Game.new(system, builtin_scenario("msc-duel"), seed=5)
    bots = {side: Recording(system.bots()["greedy"]()) for side in ("red", "blue")}
    for _ in zip(range(12), bot_turns(game, bots), strict=False):
        pass
    seen = [pair for bot in bots.values() for pair in bot.seen]
    assert len(seen) >= 12
    views = {id(view): side for side, view in system.views}
    for side, state in seen:
        # The very object the system's side view made for that side, never the game's own state.
        assert views[id(state)] == side
        assert state is not game.state


def test_bots_beside_people_plot_at_once_or_wait_for_them() -> None:
    setup = set_up("msc-duel", {"blue": "greedy"}, seed=2)
    # The terminal's way: a bot does not plot while a person still owes the same secret prompt.
    assert list(bot_turns(setup.game, setup.bots, beside_people=False)) == []
    assert setup.game.pending == {}
    # The server's way: the bot's plot waits where no player can read it.
    assert list(bot_turns(setup.game, setup.bots)) == ["blue"]
    assert list(setup.game.pending) == ["blue"]
