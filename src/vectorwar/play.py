"""Running games with computer players: one game, or many for designers.

>>> from vectorwar.catalogue import builtin_scenario
>>> game = play_out(builtin_scenario("msc-duel"), {"red": "greedy", "blue": "random"}, seed=5)
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from vectorwar.autopilot import Standing, standing_order
from vectorwar.errors import SetupError
from vectorwar.game import Game
from vectorwar.rules import Bot, Order, RuleSystem
from vectorwar.scenario import Scenario
from vectorwar.setup import HUMAN, make_bots, set_up

__all__ = [
    "SeededOnUse",
    "Summary",
    "bot_accepts_end",
    "bot_decision",
    "bot_order",
    "bot_rng",
    "bot_turns",
    "make_bots",
    "play_out",
    "simulate",
]


def bot_rng(seed: int, side: str, step: int) -> random.Random:
    """A bot's own random source: apart from the game's dice, yet reproducible.

    It draws exactly what ``random.Random(f"bot:{seed}:{side}:{step}")`` draws; it is seeded at its first
    draw (:class:`SeededOnUse`), as most greedy decisions draw nothing.
    """
    return SeededOnUse(f"bot:{seed}:{side}:{step}")


class SeededOnUse(random.Random):
    """``random.Random(text)``, seeded from ``text`` only when a draw needs its state.

    Seeding from text (a SHA-512, then the 624 words of the generator's state) costs as much as a small
    bot decision, and one is made for every decision while most draw nothing: a greedy fire declaration
    never draws, a plot only to break a tie. A choice among one (``_randbelow(1)``, whose answer is 0
    whatever the state) is owed instead, and made on the seeded state before the first real draw, so the
    draws and the state are exactly those of ``random.Random(text)`` in the same order. Once seeded the
    object is a plain ``random.Random`` (its class is switched), drawing at full speed; a method of this
    class bound before the switch (``shuffle`` and ``gauss`` keep one) passes straight through.
    """

    _text: str
    _owed: int

    def __new__(cls, text: str) -> SeededOnUse:
        # random.Random's C part seeds itself on creation: from 0 here (cheap), a state no draw ever reads.
        return super().__new__(cls, 0)  # type: ignore[call-arg]

    def __init__(self, text: str) -> None:  # no super().__init__(): that seeds from ``text`` at once
        self._text = text
        self._owed = 0
        self.gauss_next = None

    def _randbelow(self, n: int) -> int:
        if n == 1 and type(self) is SeededOnUse:
            self._owed += 1
            return 0
        return _seeded(self)._randbelow(n)  # type: ignore[attr-defined, no-any-return]

    def random(self) -> float:
        return _seeded(self).random()

    def getrandbits(self, k: int, /) -> int:
        return _seeded(self).getrandbits(k)

    def getstate(self) -> tuple[Any, ...]:
        return _seeded(self).getstate()

    def seed(self, a: Any = None, version: int = 2) -> None:
        _plain(self)  # a caller's own seed: the text's is never needed
        random.Random.seed(self, a, version)

    def setstate(self, state: tuple[Any, ...]) -> None:
        _plain(self)
        random.Random.setstate(self, state)

    def __reduce__(self) -> str | tuple[Any, ...]:
        return _seeded(self).__reduce__()


def _seeded(rng: random.Random) -> random.Random:
    """``rng`` as a plain ``random.Random``, seeded from its text and its owed choices made if it was waiting."""
    if isinstance(rng, SeededOnUse):
        text, owed = rng._text, rng._owed
        _plain(rng)
        random.Random.seed(rng, text)
        for _ in range(owed):
            random.Random._randbelow(rng, 1)  # type: ignore[attr-defined]
    return rng


def _plain(rng: random.Random) -> None:
    if isinstance(rng, SeededOnUse):
        del rng._text, rng._owed
        rng.__class__ = random.Random  # type: ignore[assignment]


def bot_order(game: Game, side: str, bot: Bot) -> Order:
    """What ``bot`` orders for ``side`` now, seeing only what that side may see.

    The bot is handed :meth:`RuleSystem.side_view` (the state :meth:`RuleSystem.observe`
    shows the side), never the game: other sides' secret plots wait in
    :attr:`Game.pending`, outside any state a bot is given.
    """
    return bot_decision(game.system, game.state, game.seed, len(game.history), side, bot)


def bot_decision(system: RuleSystem[Any], state: Any, seed: int, step: int, side: str, bot: Bot) -> Order:
    """:func:`bot_order` from no more than it reads of the game: the state, the seed and the step.

    The server hands a bot's decision to another process with just these
    (docs/web.md, "Deployment and limits"), so the order is the one given here.
    """
    view = system.side_view(state, side)
    return bot.choose(view, side, bot_rng(seed, side, step))


def bot_accepts_end(game: Game, side: str) -> bool:
    """Whether the computer player at ``side`` agrees to end the game now as a draw.

    It agrees unless it is ahead: its standing (:meth:`RuleSystem.standing`, read
    on the side's view) above every other side's (docs/rulings/every-system.md, *Conceding and
    ending by agreement*). Computer players never offer an end themselves.
    """
    standing = game.system.standing(game.system.side_view(game.state, side))
    others = [value for other, value in standing.items() if other != side]
    return not others or standing.get(side, 0.0) <= max(others)


def bot_turns(
    game: Game,
    bots: Mapping[str, Bot],
    *,
    beside_people: bool = True,
    standing: Mapping[str, Standing] | None = None,
) -> Iterator[str]:
    """The one bot loop: bots give every order they owe now, until a person must act or the game ends.

    Yields the side of each order given. A person's side with ``standing``
    instructions is answered here too while they say so
    (:func:`vectorwar.autopilot.standing_order`). With ``beside_people`` off,
    bots wait while any person still owes an order to the same prompt: a
    terminal's save file must not hold a bot's secret plot where the person
    could read it. The server keeps plots where no player can see them, so its
    bots plot at once.
    """
    standing = standing or {}
    while not game.is_over:
        waiting = game.waiting_for
        answers: dict[str, str] = {}
        for side in waiting:
            if side not in bots and side in standing:
                answer = standing_order(game, side, standing[side])
                if answer is not None:
                    answers[side] = answer
        due = [s for s in waiting if s in bots or s in answers]
        if not due or (not beside_people and len(due) < len(waiting)):
            return
        for side in due:
            game.submit(side, answers[side] if side in answers else bot_order(game, side, bots[side]))
            yield side


def play_out(
    scenario: Scenario,
    controllers: Mapping[str, str],
    seed: int,
    options: Mapping[str, object] | None = None,
) -> Game:
    """Play a whole game between bots."""
    sides = [s.id for s in scenario.sides]
    missing = [s for s in sides if controllers.get(s, HUMAN) == HUMAN]
    if missing:
        raise SetupError(f"every side needs a computer player to play out; none for {', '.join(missing)}")
    setup = set_up(scenario, controllers, seed=seed, options=options)
    for _ in bot_turns(setup.game, setup.bots):
        pass
    return setup.game


@dataclass
class Summary:
    """What many games came to."""

    games: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    draws: int = 0
    turns: list[int] = field(default_factory=list)

    def add(self, game: Game) -> None:
        result = game.result
        self.games += 1
        self.turns.append(game.history[-1].clock.turn if game.history else 0)
        if result is None or not result.winners:
            self.draws += 1
        else:
            for w in result.winners:
                self.wins[w] += 1

    @property
    def average_turns(self) -> float:
        return sum(self.turns) / len(self.turns) if self.turns else 0.0

    def to_data(self, sides: list[str]) -> dict[str, Any]:
        return {
            "games": self.games,
            "wins": {s: self.wins.get(s, 0) for s in sides},
            "draws": self.draws,
            "average_turns": round(self.average_turns, 3),
        }


def simulate(
    scenario: Scenario,
    controllers: Mapping[str, str],
    games: int,
    first_seed: int = 0,
    options: Mapping[str, object] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play ``games`` bot games with seeds ``first_seed, first_seed + 1, ...``."""
    summary = Summary()
    for i in range(games):
        summary.add(play_out(scenario, controllers, first_seed + i, options))
        if progress is not None:
            progress(i + 1)
    return summary
