"""Order kinds as objects: all a rule system knows of one kind of decision, in one place.

Every prompt names the kind of order it asks for (:attr:`vectorwar.rules.Prompt.kind`: a fleet to
build, a movement plot, a fire declaration, ...). A system that keeps its kinds as
:class:`OrderKind` objects finds the kind due now once and asks it, instead of testing its phase
in every method of the contract: the kind asks its prompt, reads and checks its orders, resolves
them, draws a random legal one, offers its menus and names the rule rows a player needs for it.
Adding a kind to such a system is one new class and one entry in its table of kinds, and
:class:`KindedRules` answers the contract's order methods from the kind due, so the system
writes only how to find it.

Nothing here knows a rule system: ``S`` is the system's state type. A kind subclasses the
protocol to inherit the empty menus, so it writes only those it has.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar

from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.rules import RuleSystem

if TYPE_CHECKING:
    from vectorwar.dice import Dice
    from vectorwar.display import MoveOption, SetupMenu, ShotOption
    from vectorwar.events import Event
    from vectorwar.rules import Order, Prompt

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class RuleRow:
    """A row of a system's rule-by-rule document, ``docs/rules/PAGE.md``, named by its first cell."""

    page: str
    row: str


class OrderKind(Protocol[S]):
    """One kind of order of a system whose state is ``S``, answering for it wherever the contract asks."""

    @property
    def name(self) -> str:
        """The kind as prompts name it (``Prompt.kind``) and the manifest's ``PhaseSpec.orders`` lists it."""
        ...

    @property
    def rules(self) -> tuple[RuleRow, ...]:
        """The rule rows a player giving this kind of order needs at hand."""
        ...

    def prompt(self, state: S) -> Prompt | None:
        """Who gives this kind of order now (its ``kind`` is :attr:`name`); ``None`` if nobody can."""
        ...

    def parse(self, state: S, side: str, text: str) -> Order:
        """``text`` read as this kind of order; raises :class:`~vectorwar.errors.OrderSyntaxError`."""
        ...

    def check(self, state: S, side: str, order: Order) -> None:
        """Raise :class:`~vectorwar.errors.IllegalOrderError`, naming the rule, if ``order`` may not be given."""
        ...

    def resolve(self, state: S, orders: Mapping[str, Order], dice: Dice) -> tuple[S, list[Event]]:
        """Apply the prompt's orders and run on to the next decision (:meth:`RuleSystem.resolve`)."""
        ...

    def random_order(self, state: S, side: str, rng: random.Random) -> Order:
        """A uniformly chosen legal order of this kind for ``side`` (never illegal)."""
        ...

    def move_options(self, state: S, side: str) -> Mapping[str, Sequence[MoveOption]]:
        """Ship id -> every legal movement plot, where this kind plots movement (default: none)."""
        return {}

    def fire_options(self, state: S, side: str) -> Mapping[str, Sequence[ShotOption]]:
        """Ship id -> every legal single shot, where this kind declares fire (default: none)."""
        return {}

    def setup_menu(self, state: S, side: str) -> SetupMenu | None:
        """The menu of a set-up choice, where this kind is one (default: ``None``)."""
        return None


def kind_table(kinds: Iterable[OrderKind[S]]) -> dict[str, OrderKind[S]]:
    """The kinds by name, refusing two of one name (a prompt's kind must say which one answers it)."""
    table: dict[str, OrderKind[S]] = {}
    for kind in kinds:
        if kind.name in table:
            raise ValueError(f"two order kinds are called {kind.name!r}")
        table[kind.name] = kind
    return table


class KindedRules(RuleSystem[S]):
    """A rule system whose every decision is an :class:`OrderKind`: the contract's order methods ask the kind
    due now (:meth:`order_kind`), and none is due once the game is over.

    A system writes :meth:`order_kind` (typically its kinds module's ``due``, as a ``staticmethod``) and, if the
    end of a game leaves work for a resolve, :meth:`resolve_over`; the rest of the contract is its own.
    """

    @abstractmethod
    def order_kind(self, state: S) -> OrderKind[S] | None:
        """The kind of order the game asks for now, or ``None`` once it is over."""

    def resolve_over(self, state: S, dice: Dice) -> tuple[S, list[Event]]:
        """A resolve asked of a game that is over: nothing to do (default)."""
        return state, []

    def prompt(self, state: S) -> Prompt | None:
        kind = self.order_kind(state)
        return None if kind is None else kind.prompt(state)

    def parse_order(self, state: S, side: str, text: str) -> Order:
        kind = self.order_kind(state)
        if kind is None:
            raise OrderSyntaxError(text, "the game is over")
        return kind.parse(state, side, text)

    def check_order(self, state: S, side: str, order: Order) -> None:
        kind = self.order_kind(state)
        if kind is None:
            raise IllegalOrderError(str(order), "the game is over", "game end")
        kind.check(state, side, order)

    def resolve(self, state: S, orders: Mapping[str, Order], dice: Dice) -> tuple[S, list[Event]]:
        kind = self.order_kind(state)
        return self.resolve_over(state, dice) if kind is None else kind.resolve(state, orders, dice)

    def random_order(self, state: S, side: str, rng: random.Random) -> Order:
        kind = self.order_kind(state)
        if kind is None:
            raise IllegalOrderError("", "the game is over", "game end")
        return kind.random_order(state, side, rng)

    def move_options(self, state: S, side: str) -> Mapping[str, Sequence[MoveOption]]:
        kind = self.order_kind(state)
        return {} if kind is None else kind.move_options(state, side)

    def fire_options(self, state: S, side: str) -> Mapping[str, Sequence[ShotOption]]:
        kind = self.order_kind(state)
        return {} if kind is None else kind.fire_options(state, side)

    def setup_menu(self, state: S, side: str) -> SetupMenu | None:
        kind = self.order_kind(state)
        return None if kind is None else kind.setup_menu(state, side)
