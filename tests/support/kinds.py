"""Playing a game while checking each prompt against the order kind its system says is due (issue 55's kinds)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from vectorwar.game import Game
from vectorwar.orderkinds import OrderKind
from vectorwar.rules import Bot


def play_checking_kinds(
    game: Game, due: Callable[[Any], OrderKind[Any] | None], bot: Bot, rng: random.Random, most: int = 10_000
) -> list[tuple[OrderKind[Any], str]]:
    """``bot`` plays every side of ``game`` (at most ``most`` prompts); every prompt must be the one the kind
    ``due`` names asks, under the kind's name. Each prompt's kind and clock, in order."""
    asked: list[tuple[OrderKind[Any], str]] = []
    while (prompt := game.prompt) is not None and len(asked) < most:
        state = game.state
        kind = due(state)
        assert kind is not None, f"no kind is due at {prompt.clock}, which asks for {prompt.kind}"
        assert kind.name == prompt.kind
        assert kind.prompt(state) == prompt
        asked.append((kind, str(prompt.clock)))
        for side in prompt.sides:
            game.submit(side, str(bot.choose(state, side, rng)))
    return asked
