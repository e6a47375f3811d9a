"""A claimed side's orders come from the file alone: its standing orders, else the rules' own (docs/pbem.md)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

import pytest

from tests.pbem.players import Mailer, mailers_for, new_game, text_of
from vectorwar.autopilot import Standing, standing_order
from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.pbem import PbemGame, digest, game_from_data
from vectorwar.registry import get_system
from vectorwar.rules import Bot, RuleSystem

T0 = 1_800_000_000
HOUR = 3600


def load(text: str) -> PbemGame:
    return game_from_data(json.loads(text))


@pytest.fixture
def forget_bots(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Takes every computer player away, as in a later version whose bots play differently: a claim needs none."""

    def gone(self: RuleSystem[Any]) -> Mapping[str, Callable[[], Bot]]:
        raise AssertionError("a claim asked a computer player")

    def forget() -> None:
        for name in ("msc", "avt", "vv5", "vms"):
            monkeypatch.setattr(type(get_system(name)), "bots", gone)

    return forget


def pass_until(text: str, mailers: list[Mailer], first: int, done: Callable[[PbemGame], bool]) -> tuple[str, int]:
    """Pass the file round from ``mailers[first]`` until ``done`` holds; the file and whose pass is next."""
    n = first
    while not done(load(text)):
        assert not load(text).is_over, "the game ended first"
        text = mailers[n % len(mailers)].act(text)
        n += 1
    return text, n % len(mailers)


def claim_and_play_on(text: str, claimer: Mailer, at: int) -> PbemGame:
    """``claimer`` claims the step and makes the rest of its pass, as `vectorwar pbem claim` does."""
    game = claimer.load(text)
    game.claim(claimer.side, at)
    assert claimer.keyring is not None
    game.turn(claimer.keyring.saw(game, at), None, "c" * 64, "d" * 64, at)
    return game


def test_a_claimed_msc_plot_keeps_every_ship_on_course_with_no_computer_player(
    forget_bots: Callable[[], None],
) -> None:
    pbem = new_game("msc-duel", seed=31, deadline_hours=24)
    red, blue = mailers_for(pbem, seed=31, clock=T0)
    text = blue.act(red.act(text_of(pbem)))
    red.bot = None
    text = red.act(text, plot="Hawk 1")
    game = load(text)
    assert game.owed() == {"blue": "commit"}
    assert game.game is not None
    raven = game.game.state.ship("Raven")
    red.clock = T0 + 24 * HOUR
    forget_bots()
    claimed = claim_and_play_on(text, red, T0 + 24 * HOUR)
    assert claimed.game is not None
    batch = claimed.game.history[0]
    # MSC has no hold at a plot: the rules' order that changes nothing flies straight on at the SPEED kept.
    assert dict(batch.orders)["blue"] == f"Raven {min(raven.speed, raven.engine)}"
    # Anyone replays the claim from the file alone, with no computer player to ask.
    again = load(text_of(claimed))
    assert again.head == claimed.head
    assert again.game is not None
    assert again.game.history == claimed.game.history


def test_a_claimed_side_fires_by_the_standing_fire_of_its_last_plot() -> None:
    pbem = new_game("msc-duel", seed=21, max_turns=8, deadline_hours=24)
    mailers = mailers_for(pbem, bot="greedy", seed=21, clock=T0)
    red, blue = mailers
    blue.fire = "fire at any 0%"
    text = red.act(text_of(pbem))

    def blue_to_fire_and_red_done(game: PbemGame) -> bool:
        return game.prompted == ("blue",) and game.owed() == {"blue": "commit"}

    text, _ = pass_until(text, mailers, 1, blue_to_fire_and_red_done)
    game = load(text)
    assert game.game is not None
    assert game.standing["blue"] == Standing(fire_at="*")
    expected = standing_order(game.game, "blue", Standing(fire_at="*"), now=True)
    assert expected is not None
    assert ">" in expected
    shots = len(game.game.history)
    at = (game.last_time or T0) + 24 * HOUR
    red.clock = at
    claimed = claim_and_play_on(text, red, at)
    assert claimed.game is not None
    assert claimed.game.history[shots].orders == (("blue", expected),)
    assert load(text_of(claimed)).head == claimed.head


def test_a_claim_at_a_set_up_choice_draws_the_rules_own_order_from_the_file(forget_bots: Callable[[], None]) -> None:
    pbem = new_game("msc-deploy", seed=32, deadline_hours=2)
    red, blue = mailers_for(pbem, seed=32, clock=T0)
    text = blue.act(red.act(text_of(pbem)))
    game = load(text)
    forget_bots()
    # red reveals its set-up secret and deploys by hand (its bot is gone with the others); blue stays silent.
    assert red.keyring is not None
    done = game.turn(red.keyring, None, "a" * 64, "b" * 64, T0)
    assert done.needs_orders
    assert game.game is not None
    assert game.game.prompt is not None
    assert game.game.prompt.kind == "deploy"
    order = str(game.system.random_order(game.game.state, "red", random.Random(1)))
    red.keyring = game.turn(done.keyring, order, "e" * 64, "f" * 64, T0).keyring
    text = text_of(game)
    state, step = game.game.state, game.step
    drawn = random.Random(digest("vectorwar-pbem-hold", game.game_id, step, "blue"))
    expected = str(game.system.random_order(state, "blue", drawn))
    red.clock = T0 + 2 * HOUR
    first = claim_and_play_on(text, red, T0 + 2 * HOUR)
    second = claim_and_play_on(text, red, T0 + 2 * HOUR)
    # Nothing of the machine that claimed went into blue's deployment: every copy draws the same.
    assert first.head == second.head
    assert first.game is not None
    assert second.game is not None
    assert first.game.history[0] == second.game.history[0]
    assert dict(first.game.history[0].orders)["blue"] == expected
    assert load(text_of(first)).head == first.head


@pytest.mark.parametrize(
    "scenario",
    ["msc-duel", "msc-deploy", "vv5-dogfight", "vv5-strike-force-place", "vms-capital-duel-msc", "avt-duel-wasp"],
)
def test_the_rules_idle_order_is_legal_wherever_it_is_given_and_every_plot_has_one(scenario: str) -> None:
    chosen = builtin_scenario(scenario).model_copy(update={"max_turns": 2})
    system = get_system(chosen.system)
    game = Game.new(system, chosen, 7)
    rng = random.Random(7)
    prompts = 0
    while not game.is_over and prompts < 60:
        prompt = game.prompt
        assert prompt is not None
        for side in prompt.sides:
            idle = system.idle_order(game.state, side)
            if idle is None:
                # Only a set-up choice (placing, buying, building, the order of declaring) has none.
                assert system.move_options(game.state, side) == {}
                assert system.checked_order(game.state, side, "hold") is None
            else:
                assert str(game.check(side, str(idle))) == str(idle)
            if system.move_options(game.state, side):
                assert idle is not None, f"{scenario}: no idle order at a plot"
        for side in prompt.sides:
            game.submit(side, str(system.random_order(game.state, side, rng)))
        prompts += 1
