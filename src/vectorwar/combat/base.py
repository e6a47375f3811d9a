"""The contract between a movement system and a combat module.

A movement system (VMS) owns where ships are and how they move; a combat
module owns weapons, to-hit rolls and damage. They meet in three places:

* the movement side hands the module a :class:`CombatView`: each ship as a
  neutral :class:`Combatant` (position, facing, hexsides turned and thrust
  used this turn, whether it can still thrust, status) plus the module's own
  card for it and the map;
* the module's card for a ship is built from the combat section of the
  ship's design (:meth:`CombatModule.card`), and lives in the movement
  system's state as plain data;
* damage comes back as the module's updated cards and a list of neutral
  :class:`Effect` records ("thrust lost", "destroyed", "disabled",
  "weapon lost") that the movement side applies to its own record.

A movement system never names a module: it looks one up by the name the
scenario gives (:func:`vectorwar.combat.module`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from vectorwar.dice import Dice
from vectorwar.display import ShotOption
from vectorwar.events import Event, Rolled
from vectorwar.hexes import Direction, Hex
from vectorwar.maps import HexMap
from vectorwar.rules import OptionSpec, OptionValue, Order, PhaseSpec

Status = Literal["active", "destroyed", "disabled", "disengaged"]
EffectKind = Literal["thrust lost", "destroyed", "disabled", "weapon lost"]


@dataclass(frozen=True, slots=True)
class Combatant:
    """What a combat module may know of a ship's movement, in neutral terms.

    ``hexsides_turned`` is every hexside the facing changed this turn (VMS
    gives -2 to hit per hexside through it); ``thrust_used`` the thrust
    points spent this turn; ``accelerated`` the hexes per turn of velocity
    change those points bought, in every direction together (VV5's "G of
    acceleration", which moves incoming missiles down the track);
    ``can_thrust`` whether any thrust is left to it.
    """

    id: str
    side: str
    name: str
    hex: Hex
    facing: Direction
    hexsides_turned: int = 0
    thrust_used: int = 0
    can_thrust: bool = True
    status: Status = "active"
    accelerated: int = 0

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True, slots=True)
class Effect:
    """A result of damage the movement side must apply.

    ``thrust lost``: ``parts`` more of ``of`` equal parts of the ship's thrust
    are gone (an MSC ENGINE point of a rating of 3 is 1 of 3);
    ``destroyed``/``disabled``: the ship is out of the fight (a wreck, or a
    hulk with its crew dead); ``weapon lost``: ``what`` no longer fires
    (for the log and the bots; the module's card already says so).
    """

    ship: str
    kind: EffectKind
    parts: int = 1
    of: int = 1
    what: str = ""


class _Kept:
    """A slot outside :class:`CombatView`'s fields for what its look-ups found, kept on first use: the view is
    frozen, so an answer once found stays true (as :class:`~vectorwar.roster.Roster` keeps its index). Not a field,
    so no part of a view's equality or repr."""

    __slots__ = ("_found",)

    _found: dict[tuple[str, str], Any]


@dataclass(frozen=True, slots=True)
class CombatView(_Kept):
    """The neutral snapshot a module reads: every ship, the module's cards, the map, the turning penalty, options."""

    ships: tuple[Combatant, ...]
    cards: Mapping[str, Any]
    map: HexMap
    #: To-hit points a shooter loses per hexside it turned this turn (VMS: 2).
    penalty_per_hexside: int = 0
    #: The game's options; the module reads its own (:attr:`CombatModule.options`) here.
    options: Mapping[str, OptionValue] = field(default_factory=dict)

    def _kept(self) -> dict[tuple[str, str], Any]:
        # Bots ask these of one view for every enemy and every candidate move of a big battle.
        try:
            found = self._found
        except AttributeError:
            found = {}
            for s in self.ships:
                found.setdefault(("ship", s.id), s)  # the first ship of an id, as a scan would find
            object.__setattr__(self, "_found", found)
        return found

    def ship(self, ship_id: str) -> Combatant:
        found: Combatant | None = self._kept().get(("ship", ship_id))
        if found is None:
            raise KeyError(ship_id)
        return found

    def ships_of(self, side: str) -> tuple[Combatant, ...]:
        found = self._kept()
        key = ("of", side)
        ships: tuple[Combatant, ...] | None = found.get(key)
        if ships is None:
            ships = found[key] = tuple(s for s in self.ships if s.side == side and s.active)
        return ships

    def enemies_of(self, side: str) -> tuple[Combatant, ...]:
        found = self._kept()
        key = ("against", side)
        ships: tuple[Combatant, ...] | None = found.get(key)
        if ships is None:
            ships = found[key] = tuple(s for s in self.ships if s.side != side and s.active)
        return ships


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a step of combat did: the cards it changed (by ship id) and the effects to apply."""

    cards: Mapping[str, Any]
    effects: tuple[Effect, ...] = ()


class CombatModule(ABC):
    """A combat system that plays under a movement system (see the module docstring)."""

    name: str
    title: str
    source: str
    dice: tuple[str, ...]
    #: The combat phase as the movement system's manifest lists it.
    phase: PhaseSpec
    fire_help: str
    #: What :meth:`strength` counts, as a result line prints it after the number ("3 shields left").
    strength_label: str
    #: The module's own rule options; a movement system lists them in its manifest beside its own.
    options: tuple[OptionSpec, ...] = ()

    @abstractmethod
    def card(self, name: str, data: Mapping[str, Any], source: str) -> Any:
        """A fresh card from a design's combat table for this module.

        Raises :class:`~vectorwar.errors.DesignError` naming ``source``.
        """

    @abstractmethod
    def fire_order(self, sides: Sequence[str], dice: Dice, events: list[Event]) -> tuple[str, ...]:
        """The order in which sides declare and resolve fire this turn."""

    def fire_initiative(
        self, view: CombatView, sides: Sequence[str], holder: str, dice: Dice, events: list[Event]
    ) -> str | None:
        """The side of ``sides`` that holds the initiative this turn and picks the order in which sides declare
        fire (``holder``: last turn's, ``""`` on the first); ``None`` (the default): no side picks, and
        :meth:`fire_order` orders them."""
        return None

    @abstractmethod
    def parse_fire(self, view: CombatView, side: str, text: str) -> Order:
        """Read a side's fire declaration (raises :class:`~vectorwar.errors.OrderSyntaxError`)."""

    @abstractmethod
    def check_fire(self, view: CombatView, side: str, order: Order) -> None:
        """Raise :class:`~vectorwar.errors.IllegalOrderError` if a rule forbids ``order``."""

    @abstractmethod
    def legal_shots(self, view: CombatView, side: str) -> list[Order]:
        """Every single shot the side could declare now, each as an order on its own."""

    def can_fire(self, view: CombatView, side: str) -> bool:
        """Whether the side has any shot to declare now: :meth:`legal_shots` is not empty. A module may override it
        to stop at the first shot it finds (the movement side asks it of every side at every fire step)."""
        return bool(self.legal_shots(view, side))

    @abstractmethod
    def shot_options(self, view: CombatView, ship_id: str) -> list[ShotOption]:
        """Every single shot ``ship_id`` could declare now, as order pieces for front ends.

        Each piece written after the ship's id is a legal declaration on its
        own; ``weapon`` is named as :meth:`arc_hexes` names it. Empty for a
        ship out of the fight.
        """

    def bearing(self, view: CombatView, ship_id: str) -> dict[tuple[str, str], int]:
        """(weapon, target) -> how many of :meth:`shot_options`' pieces fire that weapon at that target.

        What bears, without what each shot would do: a bot asks this for every
        candidate move, so a module whose odds cost much overrides it with a
        cheaper count. It must agree with :meth:`shot_options` (a property
        test checks both modules over many positions).
        """
        return dict(Counter((o.weapon, o.target) for o in self.shot_options(view, ship_id)))

    def bearing_from(self, view: CombatView, ship_id: str, at: Hex, facing: Direction) -> dict[tuple[str, str], int]:
        """:meth:`bearing` with ``ship_id`` moved to ``at``, facing ``facing`` (a bot's candidate end).

        By default the view with the ship moved; a module whose :meth:`bearing` reads nothing of the
        shooter but where it is, which way it faces and its card overrides it to skip building that view
        (a VMS bot asks this for every candidate plot).
        """
        ships = tuple(replace(s, hex=at, facing=facing) if s.id == ship_id else s for s in view.ships)
        return self.bearing(replace(view, ships=ships), ship_id)

    def bearing_on(self, view: CombatView, ship_id: str, target_id: str, at: Hex) -> dict[str, int]:
        """Weapon -> pieces: :meth:`bearing`'s entries for the one target ``target_id``, moved to ``at``.

        A target's entries depend on nothing but the shooter, that target and the map, so a bot that moves one
        ship asks the enemy's weapons on it here, and keeps their entries on the other ships. By default the
        view with the target moved; a module overrides it to look at the one target only (a VMS bot asks this
        of every enemy for every candidate end).
        """
        ships = tuple(replace(s, hex=at) if s.id == target_id else s for s in view.ships)
        bearing = self.bearing(replace(view, ships=ships), ship_id)
        return {weapon: n for (weapon, target), n in bearing.items() if target == target_id}

    def arsenal(self, view: CombatView, ship_id: str) -> dict[str, int] | None:
        """Weapon -> the most pieces :meth:`bearing` can count for it at one target, wherever the ships are:
        every count :meth:`bearing` and :meth:`bearing_from` give is at most this (a property test checks both
        modules). A bot bounds what a candidate move can bring to bear with it, and skips working out the
        moves that cannot beat its best. ``None`` (the default): not known, nothing is skipped.
        """
        return None

    def most_bearing_from(self, view: CombatView, ship_id: str, at: Hex) -> int | None:
        """The most weapons of ``ship_id`` that :meth:`bearing_from` ``at`` can find bearing, whatever the facing
        (a bound, as :meth:`arsenal` bounds each weapon's count; a property test checks it). A bot bounds what
        every candidate move ending at ``at`` can bring to bear with it. ``None`` (the default): not known."""
        return None

    @abstractmethod
    def random_fire(self, view: CombatView, side: str, rng: random.Random) -> Order:
        """A random legal declaration (may be ``hold``)."""

    @abstractmethod
    def greedy_fire(self, view: CombatView, side: str) -> Order:
        """Every weapon that bears, at the enemy it is most likely to finish."""

    @abstractmethod
    def expected_losses(self, view: CombatView, side: str, order: Order) -> dict[str, float]:
        """Ship id -> the :meth:`strength` that ship is expected to lose to ``side``'s checked declaration
        ``order``, every shot at its true odds, all of it where the ship is expected out of the fight.

        Not a rule: the search bot's judge of the fire still to come
        (``RuleSystem.fire_in_prospect``), so a trial can stop where the moves are made.
        """

    @abstractmethod
    def fire(self, view: CombatView, side: str, order: Order, dice: Dice, events: list[Event]) -> Outcome:
        """Resolve a checked declaration."""

    def after_fire(self, view: CombatView, dice: Dice, events: list[Event]) -> Outcome:
        """Steps once every side has fired (default: none)."""
        return Outcome({})

    def after_movement(self, view: CombatView, dice: Dice, events: list[Event]) -> Outcome:
        """Steps once every ship has moved, before the fire phase (default: none; VV5: incoming missiles)."""
        return Outcome({})

    def after_movement_in_prospect(self, view: CombatView) -> tuple[Outcome, dict[str, float]]:
        """:meth:`after_movement` with its dice counted in expectation, for the search bot's trials: the cards
        as that step leaves them but for its damage, and the :meth:`strength` each ship is expected to lose to
        it (default: no step, nothing lost)."""
        return Outcome({}), {}

    @abstractmethod
    def structure_damage(self, view: CombatView, ship_id: str, dice: int, total: int, events: list[Event]) -> Outcome:
        """Damage the movement rules inflict on the primary structure: ``dice`` d10 that came to ``total``."""

    @abstractmethod
    def card_rows(self, card: Any) -> list[tuple[str, str]]:
        """The card's lines for a record sheet."""

    @abstractmethod
    def arc_hexes(self, view: CombatView, ship_id: str) -> dict[str, frozenset[Hex]]:
        """Weapon name -> map hexes in its arc and range."""

    @abstractmethod
    def strength(self, card: Any) -> float:
        """How much fight is left in a card (scores at the end of a game)."""


def roll_off(sides: Sequence[str], dice: Dice, events: list[Event], purpose: str = "fire order") -> tuple[str, ...]:
    """Each side rolls a d6, highest first; sides tied re-roll among themselves."""
    rolls: dict[str, int] = {}
    for side in sides:
        roll = dice.roll("d6", f"{purpose} for {side}")
        events.append(Rolled.of(roll))
        rolls[side] = roll.total
    order: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = tuple(s for s in sides if rolls[s] == value)
        order.extend(tied if len(tied) == 1 else roll_off(tied, dice, events, purpose))
    return tuple(order)
