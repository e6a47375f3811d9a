"""Standing orders: how far a game may go on for a person before it asks them again.

At a paper table every player answers every prompt, even when nothing has
changed since the last one: an AV:T turn is eight segments of "same as
before". A person may leave standing instructions for their side instead:

* **flow** ``ask`` (the default) stops at every prompt, as the table does;
  ``decision`` answers a prompt for them while there is nothing new to
  decide: the system says nothing changed that the orders standing from
  before do not already answer (:meth:`RuleSystem.decision_news`). A new
  turn is always something to decide. (Every system already skips a fire
  declaration for a side with no shot in reach, so a prompt with a single
  sensible answer is never put to anyone.)
* **skip through turn N**: hold through every prompt up to the end of turn N
  whatever happens ("skip to the end of the turn").
* **standing fire** at a target (a ship, or :data:`ANY` enemy) with a least
  chance: every weapon that reaches the target with at least that chance
  fires at it whenever the game answers for the side.

The answers are ordinary orders, given through :meth:`Game.submit` like a
person's, so the record, replays and the other sides see nothing different;
an answer the rules would refuse is never given (the game stops instead).

>>> from vectorwar.registry import get_system
>>> from vectorwar.catalogue import builtin_scenario
>>> from vectorwar.game import Game
>>> game = Game.new(get_system("avt"), builtin_scenario("avt-duel-wasp"), seed=1)
>>> standing_order(game, "red", Standing()) is None  # "ask": the person decides
True
>>> standing_order(game, "red", Standing(skip_through_turn=1))
'hold'
>>> Standing.from_data({"flow": "decision", "fire_at": "*", "min_chance": 30}).to_data()
{'flow': 'decision', 'skip_through_turn': 0, 'fire_at': '*', 'min_chance': 30}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from vectorwar.display import News, ShotOption
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, VectorwarError
from vectorwar.game import Game
from vectorwar.limits import MAX_TURNS

__all__ = ["ANY", "Flow", "Standing", "StandingError", "news", "standing_fire", "standing_order"]

#: ``fire_at`` for "whichever enemy each weapon reaches best".
ANY = "*"
#: The longest target id a standing order names (ship ids are short words).
MAX_TARGET_CHARS = 64


class Flow(StrEnum):
    ASK = "ask"
    DECISION = "decision"


class StandingError(VectorwarError, ValueError):
    """Standing instructions that cannot be followed (an unknown flow, a chance outside 0-100)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """A side's standing instructions (module docstring)."""

    flow: Flow = Flow.ASK
    #: Hold (with the standing fire) through every prompt of this turn and the ones before it; 0: none.
    skip_through_turn: int = 0
    #: Fire every weapon that reaches this target: a ship id, :data:`ANY`, or ``""`` for no standing fire.
    fire_at: str = ""
    #: The least chance, in percent, of a shot the standing fire takes.
    min_chance: int = 0

    def __post_init__(self) -> None:
        if not 0 <= self.min_chance <= 100:
            raise StandingError(f"min_chance: {self.min_chance} is not a percentage from 0 to 100")
        if not 0 <= self.skip_through_turn <= MAX_TURNS:
            raise StandingError(f"skip_through_turn: {self.skip_through_turn} is not a turn from 0 to {MAX_TURNS}")
        if len(self.fire_at) > MAX_TARGET_CHARS:
            raise StandingError(f"fire_at: a target id is at most {MAX_TARGET_CHARS} characters")

    def to_data(self) -> dict[str, Any]:
        return {
            "flow": self.flow.value,
            "skip_through_turn": self.skip_through_turn,
            "fire_at": self.fire_at,
            "min_chance": self.min_chance,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Standing:
        """Read standing instructions from plain data; raises :class:`StandingError` naming the bad key."""
        unknown = sorted(set(data) - {"flow", "skip_through_turn", "fire_at", "min_chance"})
        if unknown:
            raise StandingError(f"{unknown[0]}: no such standing instruction")
        try:
            flow = Flow(data.get("flow", Flow.ASK.value))
        except ValueError:
            raise StandingError(f"flow: {data.get('flow')!r} is not one of ask, decision") from None
        turn, chance, target = data.get("skip_through_turn", 0), data.get("min_chance", 0), data.get("fire_at", "")
        for key, value, kind in (
            ("skip_through_turn", turn, int),
            ("min_chance", chance, int),
            ("fire_at", target, str),
        ):
            if not isinstance(value, kind) or isinstance(value, bool):
                raise StandingError(f"{key}: {value!r} is not a {kind.__name__}")
        return cls(flow, turn, target, chance)


def standing_fire(game: Game, side: str, standing: Standing) -> dict[str, list[ShotOption]]:
    """Ship id -> the shots the standing fire would take now, best chance first.

    Every shot at the target (or at any enemy) with at least the least chance;
    :func:`standing_order` then takes them in that order while the rules allow
    (a laser fires once, so of two shots from it at different targets only the
    better one goes).
    """
    if not standing.fire_at:
        return {}
    chosen: dict[str, list[ShotOption]] = {}
    for ship, options in game.system.fire_options(game.state, side).items():
        wanted = [o for o in options if standing.fire_at in (ANY, o.target) and _chance(o) * 100 >= standing.min_chance]
        if wanted:
            chosen[ship] = sorted(wanted, key=_chance, reverse=True)
    return chosen


def news(game: Game, side: str, standing: Standing) -> tuple[News, ...] | None:
    """What is new for ``side`` to decide at this prompt, less what the standing fire answers.

    ``None``: the system cannot tell, so the prompt is a decision. A new turn
    is always news; so is the first prompt of the game.
    """
    prompt = game.prompt
    before = game.previous
    if prompt is None or before is None:
        return None
    earlier = game.system.prompt(before)
    if earlier is None or earlier.clock.turn != prompt.clock.turn:
        return (News(f"turn {prompt.clock.turn} begins"),)
    found = game.system.decision_news(before, game.state, side)
    if found is None:
        return None
    covered = {(ship, o.weapon, o.target) for ship, shots in standing_fire(game, side, standing).items() for o in shots}
    return tuple(n for n in found if not n.weapon or (n.ship, n.weapon, n.target) not in covered)


def standing_order(game: Game, side: str, standing: Standing, *, now: bool = False) -> str | None:
    """The order the game gives for ``side`` now under ``standing``, or ``None`` to wait for the person.

    ``now`` answers this prompt whatever is new (the person pressed a skip
    button). The answer is checked by the rules first: one they refuse is
    never given.
    """
    prompt = game.prompt
    if prompt is None or side not in game.waiting_for:
        return None
    if not now and prompt.clock.turn > standing.skip_through_turn:
        if standing.flow is Flow.ASK:
            return None
        found = news(game, side, standing)
        if found is None or found:
            return None
    return _volley(game, side, standing_fire(game, side, standing))


def _volley(game: Game, side: str, shots: Mapping[str, Sequence[ShotOption]]) -> str | None:
    """The side's order holding course and taking ``shots``; a shot the rules refuse beside the others is left out."""
    taken: dict[str, list[str]] = {}
    for ship, options in shots.items():
        for option in options:
            trial = {**taken, ship: [*taken.get(ship, []), option.piece]}
            if _legal(game, side, _written(trial)) is not None:
                taken = trial
    return _legal(game, side, _written(taken))


def _written(pieces: Mapping[str, Sequence[str]]) -> str:
    return "; ".join(f"{ship} {' '.join(p)}" for ship, p in pieces.items() if p) or "hold"


def _legal(game: Game, side: str, text: str) -> str | None:
    try:
        return str(game.check(side, text))
    except (OrderSyntaxError, IllegalOrderError):
        return None


def _chance(option: ShotOption) -> float:
    return float(option.odds.chance) if option.odds is not None else 0.0
