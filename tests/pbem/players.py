"""Players of a play-by-e-mail game who share nothing but the file's text (tests only)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field

from vectorwar.catalogue import builtin_scenario
from vectorwar.pbem import Keyring, PbemGame, check_keyring, game_from_data, new_keyring
from vectorwar.players import computer_players
from vectorwar.rules import Bot


def random_hex(rng: random.Random, digits: int = 64) -> str:
    return f"{rng.getrandbits(digits * 4):0{digits}x}"


def new_game(
    scenario_id: str, seed: int, max_turns: int = 2, deadline_hours: int | None = None, whole_turns: bool = False
) -> PbemGame:
    scenario = builtin_scenario(scenario_id).model_copy(update={"max_turns": max_turns})
    return PbemGame.new(scenario, random_hex(random.Random(seed), 32), None, deadline_hours, whole_turns)


def text_of(pbem: PbemGame) -> str:
    return json.dumps(pbem.to_data())


@dataclass
class Player:
    """One side's player: its own keyring and random source, and a bot that picks its plots."""

    side: str
    rng: random.Random
    bot: Bot | None = None
    keyring: Keyring | None = None
    seen: list[str] = field(default_factory=list)

    def load(self, text: str) -> PbemGame:
        pbem = game_from_data(json.loads(text))
        if self.keyring is not None:
            check_keyring(pbem, self.keyring)
        return pbem

    def act(self, text: str, plot: str | None = None) -> str:
        """Whatever this side owes in the file ``text``: commit (its bot's plot, or ``plot``) or reveal."""
        pbem = self.load(text)
        keyring = self.keyring or new_keyring(pbem, self.side)
        owed = pbem.owed().get(self.side)
        if owed == "commit":
            if plot is None:
                plot = self.choose(pbem)
            sealed = pbem.seal(self.side, plot, random_hex(self.rng), random_hex(self.rng))
            pbem.commit(self.side, *sealed.hashes(pbem.game_id, self.side))
            keyring = keyring.keep(sealed)
        elif owed == "reveal":
            kept = keyring.sealed_at(pbem.step)
            assert kept is not None
            pbem.reveal(self.side, kept.plot, kept.salt, kept.secret)
        self.keyring = keyring.saw(pbem)
        return text_of(pbem)

    def choose(self, pbem: PbemGame) -> str:
        if self.side not in pbem.prompted or pbem.game is None:
            return ""
        if self.bot is None:
            raise AssertionError(f"{self.side} has orders to give and no bot")
        game = pbem.game
        view = game.system.side_view(game.state, self.side)
        return str(self.bot.choose(view, self.side, self.rng))


def players_for(pbem: PbemGame, bot: str = "random", seed: int = 0) -> list[Player]:
    bots = computer_players(pbem.system)
    return [Player(side, random.Random(f"{seed}:{side}"), bots[bot]()) for side in pbem.sides]


def play_by_mail(text: str, players: list[Player], max_passes: int = 10_000) -> str:
    """Pass the file round the table, each player doing what it owes, until the game is over."""
    for n in range(max_passes):
        player = players[n % len(players)]
        text = player.act(text)
        if game_from_data(json.loads(text)).is_over:
            return text
    raise AssertionError("the game did not end")


@dataclass
class Mailer:
    """One side's player who sends one file a step: each pass does everything the side owes (``PbemGame.turn``).

    ``clock`` is the time this player's machine reads (the test moves it); the keyring records when each
    file first reached the player by that clock.
    """

    side: str
    rng: random.Random
    bot: Bot | None = None
    keyring: Keyring | None = None
    clock: int | None = None
    #: Standing fire written after every plot of this player's (``fire at any 30%``); ``""``: none.
    fire: str = ""

    def load(self, text: str) -> PbemGame:
        pbem = game_from_data(json.loads(text))
        if self.keyring is None:
            self.keyring = new_keyring(pbem, self.side)
        check_keyring(pbem, self.keyring, self.side, self.clock)
        # Opening the file is the player's record of when it arrived.
        self.keyring = self.keyring.saw(pbem, self.clock)
        return pbem

    def act(self, text: str, plot: str | None = None) -> str:
        """One pass: reveal, see the result, commit the next plot (the bot's, or ``plot``), reveal if last."""
        pbem = self.load(text)
        assert self.keyring is not None
        done = pbem.turn(self.keyring, plot, random_hex(self.rng), random_hex(self.rng), self.clock)
        if done.needs_orders:
            order = self.choose(pbem)
            done = pbem.turn(done.keyring, order, random_hex(self.rng), random_hex(self.rng), self.clock)
        self.keyring = done.keyring
        return text_of(pbem)

    def choose(self, pbem: PbemGame) -> str:
        if self.bot is None or pbem.game is None:
            raise AssertionError(f"{self.side} has orders to give and no bot")
        game = pbem.game
        order = str(self.bot.choose(game.system.side_view(game.state, self.side), self.side, self.rng))
        return f"{order} | {self.fire}" if self.fire else order


def mailers_for(pbem: PbemGame, bot: str = "random", seed: int = 0, clock: int | None = None) -> list[Mailer]:
    bots = computer_players(pbem.system)
    return [Mailer(side, random.Random(f"{seed}:{side}"), bots[bot](), clock=clock) for side in pbem.sides]
