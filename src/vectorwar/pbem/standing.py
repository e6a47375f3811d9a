"""The orders a play-by-e-mail step takes from the file alone: standing fire, and a silent side's orders.

No computer player is asked for any of them, so every copy of the game, of any version with the same rules,
replays them the same (docs/pbem.md, *One file a turn* and *Deadlines and claims*).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from vectorwar.autopilot import ANY, Standing, standing_order
from vectorwar.errors import IllegalOrderError, OutOfStepError
from vectorwar.game import Game
from vectorwar.pbem.protocol import digest
from vectorwar.roster import id_lookup


def checked_standing(game: Game | None, side: str, text: str, standing: Standing) -> Standing:
    """The standing fire's target as the game spells it: ``any``, or a ship of another side."""
    if not standing.fire_at or standing.fire_at == ANY:
        return standing
    if game is None:
        raise OutOfStepError("no orders are given while the set-up draws the dice")
    enemies = id_lookup(c.id for c in game.system.counters(game.state) if c.side != side)
    target = enemies.get(standing.fire_at.lower())
    if target is None:
        known = ", ".join(sorted(enemies.values())) or "none"
        raise IllegalOrderError(
            text, f"standing fire names {standing.fire_at!r}, no ship of another side (theirs: {known})",
            "standing fire",
        )  # fmt: skip
    return replace(standing, fire_at=target)


def silent_orders(
    game: Game, sides: tuple[str, ...], standing: Mapping[str, Standing], game_id: str, step: int
) -> dict[str, str]:
    """The orders each of ``sides`` (silenced by a claim, each named by the prompt) gives at this step.

    The side's standing orders (the standing fire of its last plot that named one, with a hold), else the
    rules' own order that changes nothing (:meth:`RuleSystem.idle_order`: a hold, or each ship keeping its
    course). Where the rules have none (a set-up choice), their random legal order drawn from the game id,
    the step and the side.
    """
    orders: dict[str, str] = {}
    for side in sides:
        order = standing_order(game, side, standing.get(side, Standing()), now=True)
        if order is None:
            idle = game.system.idle_order(game.state, side)
            order = None if idle is None else str(idle)
        if order is None:
            rng = random.Random(digest("vectorwar-pbem-hold", game_id, step, side))
            order = str(game.check(side, str(game.system.random_order(game.state, side, rng))))
        orders[side] = order
    return orders


def run_on(game: Game, standing: Mapping[str, Standing], turn: int) -> None:
    """The rest of ``turn`` answered by every side's standing orders, on this step's dice.

    It stops at the turn's end, or at a prompt some side's standing orders cannot answer (one the rules
    allow no hold at): that prompt is the next step, with orders from every side it names.
    """
    while game.prompt is not None and game.prompt.clock.turn == turn:
        answers = {side: standing_order(game, side, standing.get(side, Standing()), now=True)
                   for side in game.prompt.sides}  # fmt: skip
        given = {side: order for side, order in answers.items() if order is not None}
        if len(given) < len(answers):
            return
        for side, order in given.items():
            game.submit(side, order)
