"""Standing orders (vectorwar.autopilot): the game answers for a person only where they said it may."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from vectorwar.autopilot import ANY, Flow, Standing, StandingError, news, standing_fire, standing_order
from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.play import bot_turns
from vectorwar.registry import get_system
from vectorwar.rules import Bot
from vectorwar.setup import set_up


def new_game(scenario: str, seed: int = 1) -> Game:
    found = builtin_scenario(scenario)
    return Game.new(get_system(found.system), found, seed=seed)


def play_with_standing(
    scenario: str, person: str, standing: Standing, seed: int
) -> tuple[Game, int, Mapping[str, Bot]]:
    """A person holding at every stop against greedy, under ``standing``: the game and the stops it made."""
    found = builtin_scenario(scenario)
    other = next(s.id for s in found.sides if s.id != person)
    setup = set_up(found, {person: "human", other: "greedy"}, seed=seed)
    game, stops = setup.game, 0
    while True:
        for _ in bot_turns(game, setup.bots, standing={person: standing}):
            pass
        if game.is_over:
            return game, stops, setup.bots
        stops += 1
        game.submit(person, "hold")


class TestStandingValues:
    def test_plain_data_round_trip(self) -> None:
        standing = Standing(Flow.DECISION, 3, "Wasp", 40)
        assert Standing.from_data(standing.to_data()) == standing

    @pytest.mark.parametrize("chance", [-1, 101])
    def test_a_chance_outside_a_percentage_is_refused(self, chance: int) -> None:
        with pytest.raises(StandingError, match="min_chance"):
            Standing(min_chance=chance)

    def test_the_ends_of_the_percentage_are_accepted(self) -> None:
        assert Standing(min_chance=0).min_chance == 0
        assert Standing(min_chance=100).min_chance == 100

    @pytest.mark.parametrize(
        ("data", "key"),
        [
            ({"flow": "always"}, "flow"),
            ({"min_chance": "50"}, "min_chance"),
            ({"skip_through_turn": True}, "skip_through_turn"),
            ({"fire_at": 3}, "fire_at"),
            ({"speed": 1}, "speed"),
            ({"skip_through_turn": 10_000}, "skip_through_turn"),
            ({"fire_at": "x" * 65}, "fire_at"),
        ],
    )
    def test_bad_data_names_its_key(self, data: dict[str, object], key: str) -> None:
        with pytest.raises(StandingError, match=key):
            Standing.from_data(data)


class TestWhenTheGameAnswers:
    def test_ask_never_answers(self) -> None:
        game = new_game("avt-duel-wasp")
        assert standing_order(game, "blue", Standing()) is None

    def test_skip_through_a_turn_holds_up_to_its_end_and_no_further(self) -> None:
        game = new_game("avt-duel-wasp")
        skip = Standing(skip_through_turn=1)
        for _ in range(8):
            assert standing_order(game, "blue", skip) == "hold"
            game.submit("blue", "hold")
            game.submit("red", "hold")
        assert game.clock is not None
        assert game.clock.turn == 2
        assert standing_order(game, "blue", skip) is None

    def test_a_new_turn_is_always_news(self) -> None:
        game = new_game("avt-duel-wasp")
        for _ in range(8):
            game.submit("blue", "hold")
            game.submit("red", "hold")
        found = news(game, "blue", Standing(Flow.DECISION))
        assert found is not None
        assert [n.text for n in found] == ["turn 2 begins"]
        assert standing_order(game, "blue", Standing(Flow.DECISION)) is None

    def test_a_quiet_segment_is_held_in_decision_flow(self) -> None:
        game = new_game("avt-duel-wasp")
        game.submit("blue", "hold")
        game.submit("red", "hold")
        assert news(game, "blue", Standing(Flow.DECISION)) == ()
        assert standing_order(game, "blue", Standing(Flow.DECISION)) == "hold"

    def test_the_first_prompt_of_the_game_is_a_decision(self) -> None:
        game = new_game("avt-duel-wasp")
        assert news(game, "blue", Standing(Flow.DECISION)) is None
        assert standing_order(game, "blue", Standing(Flow.DECISION)) is None

    def test_now_answers_whatever_is_new(self) -> None:
        game = new_game("avt-duel-wasp")
        assert standing_order(game, "blue", Standing(), now=True) == "hold"

    def test_a_side_that_owes_nothing_gets_nothing(self) -> None:
        game = new_game("avt-duel-wasp")
        game.submit("blue", "hold")
        assert standing_order(game, "blue", Standing(), now=True) is None

    def test_a_system_that_cannot_tell_stops_at_every_prompt_with_a_choice(self) -> None:
        game = new_game("msc-duel")
        game.submit("red", "Hawk 1")
        game.submit("blue", "Raven 1")
        # The plot resolved into a fire prompt; MSC says nothing of what is new, so a shot is a decision.
        if get_system("msc").fire_options(game.state, game.waiting_for[0]):
            assert standing_order(game, game.waiting_for[0], Standing(Flow.DECISION)) is None


class TestEveryFirePromptHasAShot:
    @pytest.mark.parametrize(
        ("scenario", "kinds"),
        [("msc-duel", {"fire"}), ("vv5-dogfight", {"missiles", "guns"}), ("vms-capital-duel-msc", {"fire"})],
    )
    def test_no_side_is_asked_to_fire_without_a_shot(self, scenario: str, kinds: set[str]) -> None:
        # So the flow never has to answer a fire prompt whose one answer is hold (vectorwar.autopilot).
        found = builtin_scenario(scenario)
        setup = set_up(found, {s.id: "greedy" for s in found.sides}, seed=3)
        game, bots, asked = setup.game, setup.bots, 0
        while game.prompt is not None:
            side = game.waiting_for[0]
            if game.prompt.kind in kinds:
                asked += 1
                assert game.system.fire_options(game.state, side), f"{side} asked to fire at {game.clock}"
            game.submit(side, str(bots[side].choose(game.system.side_view(game.state, side), side, _rng())))
        assert asked


class TestStandingFire:
    def test_it_fires_every_ready_laser_that_reaches_the_target(self) -> None:
        game = _avt_until_a_shot()
        side = game.waiting_for[0]
        options = game.system.fire_options(game.state, side)
        lasers = {o.piece.split(">")[0].removeprefix("fire ") for shots in options.values() for o in shots}
        order = standing_order(game, side, Standing(fire_at=ANY), now=True)
        assert order is not None
        # Each laser once (A5.371): every laser with a target is in the order, none twice.
        fired = [word.split(">")[0] for word in order.split() if ">" in word]
        assert sorted(fired) == sorted(lasers)
        game.submit(side, order)

    def test_a_shot_below_the_least_chance_is_not_taken(self) -> None:
        game = _avt_until_a_shot()
        side = game.waiting_for[0]
        chances = [
            float(o.odds.chance) * 100
            for shots in game.system.fire_options(game.state, side).values()
            for o in shots
            if o.odds is not None
        ]
        best = max(chances)
        at_best = standing_fire(game, side, Standing(fire_at=ANY, min_chance=int(best)))
        above = standing_fire(game, side, Standing(fire_at=ANY, min_chance=int(best) + 1))
        assert at_best
        assert not above

    def test_a_named_target_only(self) -> None:
        game = _avt_until_a_shot()
        side = game.waiting_for[0]
        assert standing_fire(game, side, Standing(fire_at="nobody")) == {}
        assert standing_fire(game, side, Standing()) == {}


class TestWholeGames:
    @pytest.mark.parametrize("person", ["blue", "red"])
    def test_an_avt_duel_stops_only_where_something_is_new(self, person: str) -> None:
        standing = Standing(Flow.DECISION, fire_at=ANY, min_chance=20)
        found = builtin_scenario("avt-duel-wasp")
        other = next(s.id for s in found.sides if s.id != person)
        for seed in range(2):
            setup = set_up(found, {person: "human", other: "greedy"}, seed=seed)
            game, stops, turns = setup.game, 0, set()
            while True:
                for _ in bot_turns(game, setup.bots, standing={person: standing}):
                    pass
                if game.is_over:
                    break
                stops += 1
                assert game.clock is not None
                turns.add(game.clock.turn)
                reasons = news(game, person, standing)
                # Every stop has a reason: the game's first prompt (None), a new turn, damage, an arc.
                assert reasons is None or reasons, f"seed {seed}: stopped at {game.clock} with nothing new"
                game.submit(person, "hold")
            # Eight segments a turn, but the person is asked at under a third of them.
            assert 3 * stops <= len(game.history), f"seed {seed}: {stops} stops over {len(game.history)} prompts"
            assert stops >= len(turns)  # and at the start of every turn

    def test_a_game_played_with_standing_orders_replays_exactly(self) -> None:
        game, _, _ = play_with_standing("avt-duel-wasp", "blue", Standing(Flow.DECISION, fire_at=ANY), seed=4)
        again = Game.replay(game.system, game.scenario, game.seed, game.options, game.history)
        assert again.state == game.state
        assert [e.describe() for e in again.events] == [e.describe() for e in game.events]


def _rng() -> random.Random:
    return random.Random(0)


def _avt_until_a_shot() -> Game:
    """The AV:T duel played by greedy until a side has a shot."""
    found = builtin_scenario("avt-duel-wasp")
    setup = set_up(found, {s.id: "greedy" for s in found.sides}, seed=2)
    game = setup.game
    while not game.is_over:
        for side in game.waiting_for:
            if game.system.fire_options(game.state, side):
                return game
        for side in list(game.waiting_for):
            bot = setup.bots[side]
            game.submit(side, str(bot.choose(game.system.side_view(game.state, side), side, _rng())))
    pytest.fail("no shot in a whole greedy duel")
