"""Order checks shared by the tests of several systems."""

from __future__ import annotations

from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.game import Game


def accepted(game: Game, side: str, text: str) -> bool:
    """Whether ``text`` is a legal order for ``side`` now (the game is left as it was)."""
    try:
        game.check(side, text)
    except (OrderSyntaxError, IllegalOrderError):
        return False
    return True
