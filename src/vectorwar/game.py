"""A game in progress: the turn engine every rule system runs on.

The game holds the setup (scenario, options, seed), the system's current
state, the dice counter, the event log and the history of resolved orders.
It answers :attr:`Game.prompt` ("who must act now?"), takes orders with
:meth:`Game.submit` and, once every side the prompt names has ordered, asks
the rule system to resolve them.

Secret simultaneous plots wait in :attr:`Game.pending` and are never part of
the state or of any side's view but their author's. An order that is
rejected leaves the game exactly as it was.

>>> from vectorwar.registry import get_system
>>> from vectorwar.catalogue import builtin_scenario
>>> game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)
>>> game.prompt.kind, game.prompt.sides
('plot', ('red', 'blue'))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vectorwar.dice import Dice
from vectorwar.errors import IllegalOrderError, NotYourTurnError, OrderLimitError
from vectorwar.events import Conceded, EndedByAgreement, Event, GameOver, Rolled
from vectorwar.limits import MAX_ORDER_CHARS, cite
from vectorwar.maps import HexMap
from vectorwar.rules import Clock, OptionValue, Order, Prompt, Result, RuleSystem
from vectorwar.scenario import Scenario

#: The words an ending batch gives each side it names (:attr:`OrderBatch.end`).
CONCEDE = "concede"
AGREE = "agree"


@dataclass(frozen=True, slots=True)
class OrderBatch:
    """The orders one prompt received, as canonical text, in side order."""

    clock: Clock
    orders: tuple[tuple[str, str], ...]
    #: ``""`` for orders the rules resolved; :data:`CONCEDE` or :data:`AGREE` for a batch that ended the game
    #: at ``clock`` instead (:meth:`Game.concede`, :meth:`Game.end_by_agreement`), naming the sides that did.
    end: str = ""


@dataclass(slots=True)
class Game:
    system: RuleSystem[Any]
    scenario: Scenario
    seed: int
    options: dict[str, OptionValue]
    state: Any
    dice_count: int = 0
    events: list[Event] = field(default_factory=list)
    history: list[OrderBatch] = field(default_factory=list)
    pending: dict[str, Order] = field(default_factory=dict)
    #: The state at the prompt before this one (``None`` before the first resolution): what a player
    #: who skips ahead compares with to see what is new (:mod:`vectorwar.autopilot`). Not part of the
    #: record: a replay sets it again.
    previous: Any = field(default=None, repr=False, compare=False)
    #: The result of a game ended by a concession or by agreement, outside the rules (``None``: not so ended).
    ended: Result | None = None
    #: The state :attr:`prompt` last asked the rules about (recognised by identity: states are frozen) and their
    #: answer: asked several times for every order given, by the bot loops and by :meth:`submit`.
    _asked: tuple[Any, Prompt | None] = field(default=(None, None), init=False, repr=False, compare=False)

    @classmethod
    def new(
        cls,
        system: RuleSystem[Any],
        scenario: Scenario,
        seed: int,
        options: Mapping[str, object] | None = None,
    ) -> Game:
        """Set up ``scenario``; ``options`` override the scenario's, which override defaults."""
        from vectorwar.errors import ScenarioError

        if scenario.system != system.manifest.name:
            raise ScenarioError(f"scenario {scenario.id!r} is for {scenario.system!r}, not {system.manifest.name!r}")
        if problem := system.manifest.side_limit_problem(len(scenario.sides)):
            raise ScenarioError(f"scenario {scenario.id!r}: sides: {problem}")
        unknown = sorted(set(scenario.setup) - set(system.setup_steps))
        if unknown:
            known = ", ".join(system.setup_steps) or "none"
            raise ScenarioError(
                f"scenario {scenario.id!r}: setup.{unknown[0]}: "
                f"{system.manifest.name} has no such set-up step (known: {known})"
            )
        try:
            resolved = system.manifest.resolve_options({**scenario.options, **(options or {})})
        except ValueError as err:
            raise ScenarioError(f"scenario {scenario.id!r}: options: {err}") from None
        state = system.new_state(scenario, resolved)
        game = cls(system, scenario, seed, resolved, state)
        dice = Dice(seed)
        game.state, events = system.start(state, dice)
        game._absorb(dice, events)
        return game

    # -- asking -------------------------------------------------------------

    @property
    def prompt(self) -> Prompt | None:
        if self.ended is not None:
            return None
        state, found = self._asked
        if state is not self.state or state is None:
            found = self.system.prompt(self.state)
            self._asked = (self.state, found)
        return found

    @property
    def clock(self) -> Clock | None:
        p = self.prompt
        return p.clock if p else None

    @property
    def waiting_for(self) -> tuple[str, ...]:
        """Sides whose orders the current prompt still needs."""
        p = self.prompt
        if p is None:
            return ()
        # Asked before and after every order given: with nothing pending, the prompt's own sides.
        return tuple(s for s in p.sides if s not in self.pending) if self.pending else tuple(p.sides)

    @property
    def result(self) -> Result | None:
        if self.ended is not None:
            return self.ended
        return self.system.result(self.state)

    @property
    def sides(self) -> tuple[str, ...]:
        """Every side of the game, in the scenario's order."""
        return tuple(side.id for side in self.scenario.sides)

    @property
    def board(self) -> HexMap:
        """The map as it is now: the scenario's, with whatever the rules laid on it (:meth:`RuleSystem.board`)."""
        return self.system.board(self.state) or self.scenario.hex_map()

    @property
    def is_over(self) -> bool:
        return self.prompt is None

    @property
    def turn(self) -> int:
        return len(self.history)

    # -- ordering -----------------------------------------------------------

    def parse(self, side: str, text: str) -> Order:
        """Read ``text`` as an order for ``side`` at the current prompt."""
        self._prompt_for(side, text)
        _check_length(text)
        return self.system.parse_order(self.state, side, text)

    def check(self, side: str, order: Order | str) -> Order:
        """Parse and validate without submitting; raises like :meth:`submit`."""
        self._prompt_for(side, order)
        if isinstance(order, str):
            _check_length(order)
        parsed = self.system.parse_order(self.state, side, order) if isinstance(order, str) else order
        self.system.check_order(self.state, side, parsed)
        return parsed

    def submit(self, side: str, order: Order | str) -> list[Event]:
        """Give ``side``'s order for the current prompt.

        A simultaneous plot may be replaced until the last side's plot is in.
        Returns the events of the resolution, or ``[]`` if still waiting.
        Raises :class:`OrderSyntaxError` or :class:`IllegalOrderError`,
        leaving the game untouched.
        """
        parsed = self.check(side, order)
        self.pending[side] = parsed
        if self.waiting_for:
            return []
        return self._resolve()

    def rekey(self, seed: int) -> None:
        """Throw the dice of the next resolution from ``seed``, counting from its first die.

        Play by e-mail (:mod:`vectorwar.pbem`) keys every resolution with a seed
        all sides made together once their orders were sealed, so no one seed
        fixes the whole game; everywhere else a game keeps the seed it began with.
        """
        self.seed = seed
        self.dice_count = 0

    def withdraw(self, side: str) -> None:
        """Take back a plot not yet resolved."""
        self.pending.pop(side, None)

    def _prompt_for(self, side: str, order: Order | str) -> Prompt:
        # The order is written out only for a refusal: a bot's order, checked on every step, never is.
        p = self.prompt
        if p is None:
            raise IllegalOrderError(str(order), "the game is over", "game end")
        if side not in p.sides:
            raise NotYourTurnError(
                str(order),
                f"{side} has no orders to give now; waiting for {', '.join(p.sides)} ({p.kind}, {p.clock})",
                "sequence of play",
            )
        return p

    def _resolve(self) -> list[Event]:
        p = self.prompt
        if p is None:  # pragma: no cover - submit() checked the prompt
            raise RuntimeError("nothing to resolve")
        orders = {s: self.pending[s] for s in p.sides}
        batch = OrderBatch(p.clock, tuple((s, str(o)) for s, o in orders.items()))
        dice = Dice(self.seed, self.dice_count)
        new_state, events = self.system.resolve(self.state, orders, dice)
        self.previous = self.state
        self.state = new_state
        self.pending.clear()
        self.history.append(batch)
        return self._absorb(dice, events)

    def _absorb(self, dice: Dice, events: list[Event]) -> list[Event]:
        logged = len([e for e in events if isinstance(e, Rolled)])
        if logged != len(dice.log):
            # A roll that is not in the log would break "every roll is shown".
            raise RuntimeError(f"{self.system.manifest.name} rolled {len(dice.log)} times but logged {logged} rolls")
        self.dice_count = dice.count
        self.events.extend(events)
        return events

    # -- views, replay, undo --------------------------------------------------

    def view(self, side: str | None) -> dict[str, Any]:
        """What ``side`` may see now (``None``: a spectator), as plain data."""
        from vectorwar.events import event_to_data

        p = self.prompt
        own = self.pending.get(side) if side is not None else None
        return {
            "system": self.system.manifest.name,
            "scenario": self.scenario.id,
            "side": side,
            "prompt": None
            if p is None
            else {
                "clock": str(p.clock),
                "kind": p.kind,
                "sides": list(p.sides),
                "simultaneous": p.simultaneous,
                "waiting_for": list(self.waiting_for),
                "help": p.help,
            },
            "my_pending_order": None if own is None else str(own),
            "state": self.system.observe(self.state, side),
            "events": [event_to_data(e) for e in self.events],
        }

    @classmethod
    def replay(
        cls,
        system: RuleSystem[Any],
        scenario: Scenario,
        seed: int,
        options: Mapping[str, object],
        history: Sequence[OrderBatch],
    ) -> Game:
        """Rebuild a game from its setup and orders. Raises if an order no longer fits."""
        game = cls.new(system, scenario, seed, options)
        for number, batch in enumerate(history, 1):
            if game.clock != batch.clock:
                raise IllegalOrderError(
                    str(batch.orders),
                    f"order batch {number} was given at {batch.clock} but the game is at {game.clock}",
                    "replay",
                )
            game.replay_batch(batch)
        return game

    def replay_batch(self, batch: OrderBatch) -> list[Event]:
        """Give a recorded batch again: its orders, or the end it recorded; returns the events."""
        if batch.end == CONCEDE and len(batch.orders) == 1 and batch.orders[0][1] == CONCEDE:
            return self.concede(batch.orders[0][0])
        if batch.end == AGREE and all(text == AGREE for _, text in batch.orders):
            return self.end_by_agreement(side for side, _ in batch.orders)
        if batch.end:
            raise IllegalOrderError(str(batch.orders), f"a batch cannot end the game by {batch.end!r}", "replay")
        events: list[Event] = []
        for side, text in batch.orders:
            events.extend(self.submit(side, text))
        return events

    def undo(self) -> Game:
        """The game as it was before the last resolved batch of orders.

        Everyone has seen that batch, and the seed replays the same dice: a
        front end offers this only when the table agrees or in practice
        (docs/engine.md, *Save, replay, undo*).
        """
        return Game.replay(self.system, self.scenario, self.seed, self.options, self.history[:-1])

    # -- ending outside the rules: a concession, an end by agreement ---------------

    def concede(self, side: str) -> list[Event]:
        """``side`` gives up, at any moment before the game is over: the other sides win.

        Recorded in the history as a batch of its own, so a replay ends the same
        way; plots still waiting are dropped. With more than two sides the
        others share the win (docs/rulings/every-system.md, *Conceding and ending by agreement*).
        """
        self._not_over(CONCEDE)
        self._known_side(side, CONCEDE)
        others = tuple(s for s in self.sides if s != side)
        return self._end(
            OrderBatch(self._end_clock(), ((side, CONCEDE),), CONCEDE),
            [Conceded(side), GameOver(others, f"{side} conceded")],
            Result(others, f"{side} conceded"),
        )

    def end_by_agreement(self, sides: Iterable[str]) -> list[Event]:
        """End the game as a draw, once every side has agreed (``sides``: those that did)."""
        agreed = tuple(sides)
        self._not_over(AGREE)
        for side in agreed:
            self._known_side(side, AGREE)
        missing = [s for s in self.sides if s not in agreed]
        if missing:
            verb = "has" if len(missing) == 1 else "have"
            raise IllegalOrderError(
                AGREE,
                f"every side must agree to end the game, and {', '.join(missing)} {verb} not",
                "ending by agreement",
            )
        reason = "ended by agreement"
        return self._end(
            OrderBatch(self._end_clock(), tuple((s, AGREE) for s in self.sides), AGREE),
            [EndedByAgreement(self.sides), GameOver((), reason)],
            Result((), reason),
        )

    def _not_over(self, what: str) -> None:
        if self.prompt is None:
            raise IllegalOrderError(what, "the game is over", "game end")

    def _known_side(self, side: str, what: str) -> None:
        if side not in self.sides:
            raise IllegalOrderError(what, f"there is no side {side!r} (sides: {', '.join(self.sides)})", "game end")

    def _end_clock(self) -> Clock:
        p = self.prompt
        if p is None:  # pragma: no cover - _not_over checked the prompt
            raise RuntimeError("the game is over")
        return p.clock

    def _end(self, batch: OrderBatch, events: list[Event], result: Result) -> list[Event]:
        self.pending.clear()
        self.history.append(batch)
        self.ended = result
        self.events.extend(events)
        return events


def _check_length(text: str) -> None:
    """Refuse an order too long to be worth reading before any system parses it."""
    if len(text) > MAX_ORDER_CHARS:
        raise OrderLimitError(
            f"{text[:40]}...",
            "the order's length in characters",
            str(len(text)),
            MAX_ORDER_CHARS,
            cite(MAX_ORDER_CHARS),
        )
