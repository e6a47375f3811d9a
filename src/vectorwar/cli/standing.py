"""Standing orders at the keyboard: ``skip``, ``skip turn``, ``fire at TARGET [PERCENT]``, ``ask``.

The words of :mod:`vectorwar.autopilot` for ``vectorwar play``; the browser's
Standing orders box sets the same values.

>>> describe(Standing(Flow.DECISION, fire_at="*", min_chance=30))
'go on until something new can be decided; fire at any enemy in reach with 30% or better'
"""

from __future__ import annotations

from dataclasses import replace

from vectorwar.autopilot import ANY, Flow, Standing, StandingError
from vectorwar.cli.common import UserError
from vectorwar.game import Game


def standing_change(current: Standing | None, line: str, game: Game) -> Standing | None:
    """The standing orders after the table command ``line``, or ``None`` when ``line`` is no such command."""
    words = line.lower().split()
    standing = current or Standing()
    if words == ["skip"]:
        return replace(standing, flow=Flow.DECISION)
    if words == ["skip", "turn"] and game.clock is not None:
        return replace(standing, skip_through_turn=game.clock.turn)
    if words == ["ask"]:
        return replace(standing, flow=Flow.ASK, skip_through_turn=0)
    if len(words) in (3, 4) and words[:2] == ["fire", "at"]:
        return _fire_at(standing, line.split()[2], words[3:], game)
    return None


def _fire_at(standing: Standing, target: str, chance: list[str], game: Game) -> Standing:
    ships = {c.id.lower(): c.id for c in game.system.counters(game.state)}
    if target.lower() == "none":
        return replace(standing, fire_at="")
    if target.lower() in ("any", ANY):
        found = ANY
    elif target.lower() in ships:
        found = ships[target.lower()]
    else:
        raise UserError(f"fire at {target}: no such ship (ships: {', '.join(sorted(ships.values()))}, or 'any')")
    percent = chance[0].rstrip("%") if chance else str(standing.min_chance)
    if not percent.isdigit() or len(percent) > 3:
        raise UserError(f"fire at {target} {chance[0]}: the least chance is a whole percentage from 0 to 100")
    try:
        return replace(standing, fire_at=found, min_chance=int(percent))
    except StandingError as err:
        raise UserError(str(err)) from None


def describe(standing: Standing) -> str:
    """The standing orders in words."""
    parts = ["go on until something new can be decided" if standing.flow is Flow.DECISION else "stop at every prompt"]
    if standing.skip_through_turn:
        parts.append(f"hold through turn {standing.skip_through_turn}")
    if standing.fire_at:
        target = "any enemy in reach" if standing.fire_at == ANY else standing.fire_at
        parts.append(f"fire at {target} with {standing.min_chance}% or better")
    return "; ".join(parts)
