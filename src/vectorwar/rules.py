"""The contract between the kernel and a rule system plug-in.

A rule system is an object implementing :class:`RuleSystem`, registered under
the ``vectorwar.systems`` entry-point group. The kernel never looks inside a
system's state: it asks the system *who must act now and with what kind of
order* (:meth:`RuleSystem.prompt`), checks orders through it, and hands it
the orders to resolve with the game's dice. Resolution is a pure function of
``(state, orders, dice)``, which is what makes save, replay, undo and network
play simple.

Turns can be cut finer than phases: :class:`Clock` carries a ``segment``
(AV:T resolves 8 per turn) and a ``subphase`` (VMS moves ship classes in
subphases), so the kernel's data model already holds both.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from vectorwar.dice import Dice
from vectorwar.display import News, PlotWarning
from vectorwar.errors import IllegalOrderError, OrderSyntaxError
from vectorwar.events import Event
from vectorwar.notation import entries, is_hold
from vectorwar.serial import from_data, to_data

if TYPE_CHECKING:
    from vectorwar.display import Card, CardTable, Counter, MoveOption, OrderPiece, SetupMenu, ShotOption
    from vectorwar.hexes import Hex
    from vectorwar.maps import HexMap
    from vectorwar.odds import Odds
    from vectorwar.scenario import Scenario

OptionValue = bool | int | str
#: A rule row a prompt links (docs/web.md, *Rules at hand*): (phase word, page, the row's first cell).
#: A prompt whose phase contains the word links the row of ``docs/rules/PAGE.md``; the word "" matches every prompt.
PromptRule = tuple[str, str, str]


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A named rule option (house rule or optional rule) and its default.

    Every option is bounded: a number by ``choices`` or by ``least`` and ``most`` (both
    required, so no number a game sets can make a rule loop or allocate without end), a
    text by ``choices``.
    """

    name: str
    default: OptionValue
    description: str
    choices: tuple[OptionValue, ...] = ()
    least: int | None = None
    most: int | None = None

    def __post_init__(self) -> None:
        if self.choices:
            return
        if isinstance(self.default, str):
            raise ValueError(f"option {self.name}: a text option needs its choices")
        number = isinstance(self.default, int) and not isinstance(self.default, bool)
        if number and (self.least is None or self.most is None or not self.least <= int(self.default) <= self.most):
            raise ValueError(f"option {self.name}: a number option needs least <= default <= most")

    def check(self, value: object) -> OptionValue:
        if type(value) is not type(self.default):
            raise ValueError(f"option {self.name} takes a {type(self.default).__name__}, got {value!r}")
        if self.choices and value not in self.choices:
            raise ValueError(f"option {self.name} must be one of {', '.join(map(str, self.choices))}, got {value!r}")
        least, most = self.least, self.most
        number = isinstance(value, int) and not isinstance(value, bool)
        if number and least is not None and most is not None and not least <= int(value) <= most:
            raise ValueError(f"option {self.name} must be from {self.least} to {self.most}, got {value}")
        return value


@dataclass(frozen=True, slots=True)
class PhaseSpec:
    """One phase of the system's turn, as its sequence of play lists it."""

    name: str
    description: str
    orders: str = ""  # the order kind players give in this phase ("" for none)
    simultaneous: bool = False


@dataclass(frozen=True, slots=True)
class Manifest:
    """What a system is: its phases, its dice, its options and their defaults."""

    name: str
    title: str
    source: str
    phases: tuple[PhaseSpec, ...]
    dice: tuple[str, ...]
    options: tuple[OptionSpec, ...] = ()
    segments_per_turn: int = 1
    subphases: tuple[str, ...] = ()
    min_sides: int = 2
    max_sides: int = 2

    def option(self, name: str) -> OptionSpec:
        for spec in self.options:
            if spec.name == name:
                return spec
        known = ", ".join(o.name for o in self.options) or "none"
        raise KeyError(f"{self.name} has no option {name!r} (known: {known})")

    def side_limit_problem(self, sides: int) -> str | None:
        """Why ``sides`` sides cannot play this system (naming the limit), or None if they can."""
        if sides < self.min_sides:
            return f"{sides} sides, but {self.name} needs at least {self.min_sides} (min_sides)"
        if sides > self.max_sides:
            return f"{sides} sides, but {self.name} plays at most {self.max_sides} (max_sides)"
        return None

    def resolve_options(self, given: Mapping[str, object]) -> dict[str, OptionValue]:
        """Defaults overlaid with ``given``; raises ``ValueError`` on unknown or bad values."""
        out: dict[str, OptionValue] = {o.name: o.default for o in self.options}
        for name, value in given.items():
            try:
                spec = self.option(name)
            except KeyError as err:
                raise ValueError(err.args[0]) from None
            out[name] = spec.check(value)
        return out


@dataclass(frozen=True, slots=True, order=True)
class Clock:
    """Where in the game we are: turn, segment (AV:T), subphase (VMS), phase."""

    turn: int
    phase: str
    segment: int = 0
    subphase: str = ""

    def __str__(self) -> str:
        parts = [f"turn {self.turn}"]
        if self.segment:
            parts.append(f"segment {self.segment}")
        if self.subphase:
            parts.append(self.subphase)
        parts.append(self.phase)
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Prompt:
    """The answer to "who must act now, and with what kind of order?".

    ``simultaneous`` prompts are secret plots: every listed side orders,
    nobody sees another's order until all are in. Otherwise the single listed
    side declares in turn order and sees everything so far.
    """

    clock: Clock
    sides: tuple[str, ...]
    kind: str
    simultaneous: bool
    help: str = ""


@dataclass(frozen=True, slots=True)
class Result:
    winners: tuple[str, ...]
    reason: str
    scores: Mapping[str, float] = field(default_factory=dict)
    #: What a score counts, printed after the number ("3 shields left"); only VV5 has victory points.
    score_label: str = "points"


class Order(Protocol):
    """An order value: printing it gives the text notation that parses back."""

    def __str__(self) -> str: ...


S = TypeVar("S")


class Bot(Protocol):
    """A computer player. It sees what its side may see and returns an order.

    ``state`` is the side's view (:meth:`RuleSystem.side_view`); the kernel's
    one bot loop (:func:`vectorwar.play.bot_turns`) never hands a bot more.
    """

    def choose(self, state: Any, side: str, rng: random.Random) -> Order: ...


class RuleSystem(ABC, Generic[S]):
    """A rule system plug-in. Subclass, fill in the manifest, register it."""

    manifest: Manifest
    state_type: type[S]
    #: Names of the pre-game steps a scenario's ``[setup]`` table may ask for.
    setup_steps: tuple[str, ...] = ()
    #: Whether the search bot's trials resolve every prompt by :meth:`resolve_in_prospect` (AV:T's, whose fire
    #: comes with the moves). A system whose :meth:`fire_in_prospect` judges its trials may offer that method
    #: for its moves alone and say ``False`` (VMS's missiles in flight).
    holds_fire: bool = False
    #: Moves a search trial plays where :meth:`fire_in_prospect` judges it, each after the first at half
    #: the weight of the one before (``SearchBot._moves_in_prospect``).
    prospect_moves: int = 2
    #: Whether the search bot plays another order than its fast bot's only when it is clearly better (by a
    #: margin and a standard error of its trials). A system whose trials it has measured stronger without
    #: says ``False`` (VV5, docs/bots.md).
    search_margin: bool = True
    #: The rule rows its prompts link in the browser (none: a prompt links the system's rules page).
    prompt_rules: tuple[PromptRule, ...] = ()

    def scenario_rules(self) -> Mapping[str, tuple[PromptRule, ...]]:
        """Per scenario id, or the start of a family's ids (``vv5-dogfight`` for ``vv5-dogfight-3``), the
        rows its prompts link in place of :attr:`prompt_rules` (a lesson's own steps, a scenario's victory)."""
        return {}

    @abstractmethod
    def new_state(self, scenario: Scenario, options: Mapping[str, OptionValue]) -> S:
        """The state at the start of turn 1, from a validated scenario.

        Raises :class:`~vectorwar.errors.ScenarioError` for system-specific
        problems (unknown design, illegal starting speed...).
        """

    def start(self, state: S, dice: Dice) -> tuple[S, list[Event]]:
        """Run any chance steps before the first decision (default: none)."""
        return state, []

    @abstractmethod
    def prompt(self, state: S) -> Prompt | None:
        """Who must act now; ``None`` once the game is over."""

    @abstractmethod
    def parse_order(self, state: S, side: str, text: str) -> Order:
        """Read ``text`` in the notation of the current prompt's order kind.

        Raises :class:`~vectorwar.errors.OrderSyntaxError`.
        """

    @abstractmethod
    def check_order(self, state: S, side: str, order: Order) -> None:
        """Raise :class:`~vectorwar.errors.IllegalOrderError` if a rule forbids ``order``."""

    @abstractmethod
    def resolve(self, state: S, orders: Mapping[str, Order], dice: Dice) -> tuple[S, list[Event]]:
        """Apply the prompt's orders, then run on until the next decision or the end."""

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The outcome once the game is over, else ``None``."""

    @abstractmethod
    def random_order(self, state: S, side: str, rng: random.Random) -> Order:
        """A uniformly chosen legal order for the current prompt (never illegal)."""

    def idle_order(self, state: S, side: str) -> Order | None:
        """The order that leaves everything ``side`` decides now as it is, or ``None`` where the rules have none.

        Given for a side that said nothing in time (a play-by-e-mail claim), so it must depend on the rules
        alone, never on a computer player. Default: ``hold`` where the rules take it (a fire phase, an AV:T
        segment); a system whose plot must name every ship's move says how a ship keeps its course.
        """
        return self.checked_order(state, side, "hold")

    def checked_order(self, state: S, side: str, text: str) -> Order | None:
        """``text`` as ``side``'s order now if the rules take it, else ``None``."""
        try:
            order = self.parse_order(state, side, text)
            self.check_order(state, side, order)
        except (OrderSyntaxError, IllegalOrderError):
            return None
        return order

    def bots(self) -> Mapping[str, Callable[[], Bot]]:
        """The system's own computer players by name: ``random`` always; a system adds its own (``greedy``).

        The ``search`` levels, which play any system through this contract, are offered beside these by
        :func:`vectorwar.players.computer_players`; ``search`` plays its trials with :meth:`rollout_bot`.
        """
        return {"random": lambda: _RandomBot(self)}

    def rollout_bots(self) -> Mapping[str, Callable[[], Bot]]:
        """Every fast bot a search may play its trials with, by name: :meth:`bots` by default. A system whose
        ``greedy`` is dear adds a cheaper one of its own here, for the trials alone (players never meet it)."""
        return self.bots()

    def rollout_bot(self) -> str:
        """The name of the fast bot (of :meth:`rollout_bots`) a search plays its trials with: ``greedy`` by default
        (``random`` where the system has none). Its candidates and its guesses of the others' orders stay
        ``greedy``'s whatever this names; :meth:`rollout_cost` says what a trial it plays costs."""
        return "greedy" if "greedy" in self.bots() else "random"

    def standing(self, state: S) -> Mapping[str, float]:
        """Each side's standing as one number, more is better, comparable over time (a search bot's yardstick).

        Read by :mod:`vectorwar.search` to judge a rollout that stops before the game ends, from the
        change since the decision. Default: each side's pieces in play; systems count their own
        strength (shields, victory points).
        """
        sides: dict[str, float] = {}
        for counter in self.counters(state):
            sides[counter.side] = sides.get(counter.side, 0.0) + (1.0 if counter.status == "active" else 0.0)
        return sides

    def greedy_orders_legal(self, state: S) -> bool:
        """Whether every order the system's ``greedy`` bot and its :meth:`rollout_bot` give at ``state`` is legal by
        construction (built from the moves and shots the rules allow, as the check would find them), so a search
        trial plays it unchecked (``Trials._fast_order``). Default ``False``: each is checked, and one refused is
        replaced by :meth:`random_order`."""
        return False

    def plan_ahead(self, state: S, side: str) -> int:
        """One-ship changes of its fast bot's next plot a search trial from ``state`` judged by
        :meth:`fire_in_prospect` tries for the searching ``side`` (``SearchBot._planned``); by default 0, the
        fast bot's next plot alone."""
        return 0

    def search_declaration(self, state: S, side: str, order: Order) -> Order:
        """The fire declaration in turn the search bot gives, from its fast bot's ``order`` (``state`` is the
        side's view).

        Read by :mod:`vectorwar.search`, which does not search a declaration made in turn (its trials would
        differ by luck alone) and gives the fast bot's. Default: ``order`` itself. A system whose fast bot
        keeps back or aims what a searcher was measured stronger spending now or aiming otherwise says how (VV5:
        every missile ready, at the target the fast bot chose, and the guns at the targets where they are worth
        most together; docs/bots.md). The bot checks the answer and falls back to ``order``
        if it is not legal.
        """
        return order

    def rollout_cost(self, state: S, bot: str) -> float:
        """How many times a typical rollout's cost one from ``state`` takes, its trials played by the fast bot
        named ``bot`` (of :meth:`rollout_bots`; 1.0: typical).

        Read by :mod:`vectorwar.search`, which divides its rollouts by it so a decision keeps within its
        time: a count, not a clock, so a decision stays reproducible. Default 1.0; a system whose fast
        bot's cost grows with the ships in play says so, and one whose rollouts are much cheaper than most
        says that (below 1.0), and gets more of them.
        """
        return 1.0

    def fire_in_prospect(self, state: S) -> Mapping[str, float] | None:
        """Each side's expected gain from the fire still to come this turn, if :meth:`standing` counts it.

        Read by :mod:`vectorwar.search`: a system whose standing counts the fire still to come from where
        the moves left the ships, in expectation, lets the bot judge a trial where the moves are made (at
        the first declaration in turn after them, or the next turn's start), no shot rolled, and hold the
        fire of the moves after (:attr:`prospect_moves`, ``SearchBot._moves_in_prospect``). VV5's fire opens
        the next turn; VMS's follows the moves in the same turn. ``None`` (the default): the standing counts
        only what has happened, and trials roll the fire.
        """
        return None

    def resolve_in_prospect(
        self, state: S, orders: Mapping[str, Order], dice: Dice
    ) -> tuple[S, Mapping[str, float]] | None:
        """:meth:`resolve` with the fire of ``orders`` counted in expectation, not rolled, if the system offers it.

        Read by :mod:`vectorwar.search` for a system whose fire is given in the same simultaneous orders as
        the moves (AV:T), where a trial has no prompt between the moves and the shots to stop at (as
        :meth:`fire_in_prospect`'s have): the state after the prompt, its shots spent but their damage not
        done, and the standing each side is expected to lose to them. ``None`` (the default): not offered. A
        system whose every trial is resolved so says so in :attr:`holds_fire`. A system judged by
        :meth:`fire_in_prospect` may offer it where dice are thrown without a prompt after the moves (VMS under
        VV5 combat: the missiles in flight, rolled once every ship has moved), and its trials' moves use it.
        """
        return None

    def side_view(self, state: S, side: str | None) -> S:
        """``state`` as ``side`` may know it, hidden parts removed (``None``: a spectator).

        Bots are handed this, never the state itself. The default is the whole
        state, which is right for every shipped system: their only secrets are
        simultaneous plots not yet resolved, and those wait in the kernel
        (:attr:`Game.pending`), outside the state. A system that keeps
        something hidden in its state (a cup's order, a hand of cards) blanks
        it here, and :meth:`observe` follows.
        """
        return state

    def observe(self, state: S, side: str | None) -> Any:
        """What ``side`` may see of ``state`` as plain data: :meth:`side_view`, serialised."""
        return to_data(self.side_view(state, side), self.state_type)

    # -- flow: where a person must decide (vectorwar.autopilot) ---------------

    def decision_news(self, before: S, after: S, side: str) -> Sequence[News] | None:
        """What ``side`` may want to decide at ``after``'s prompt that it could not at ``before``'s.

        ``before`` is the state at the previous prompt of the same turn. An
        empty answer means the orders standing from before still say all there
        is to say, so a player who asked to skip to the next decision is not
        stopped here; ``None`` (the default) means the system cannot tell, and
        every prompt is a decision.
        """
        return None

    # -- display protocol: plain data for front ends (vectorwar.display) ------

    def board(self, state: S) -> HexMap | None:
        """The map as the game has it now, when set-up or play changed the scenario's (default: ``None``).

        A scenario's special rules may lay terrain of their own (VV5's Pirates
        fills whole sections with an asteroid field); front ends draw this map.
        """
        return None

    def edge_rule(self, state: S) -> tuple[str, str]:
        """What flying off the board does in this game, in words, and the rule that says so."""
        return ("the ship leaves the battle", f"{self.manifest.title}: the map edge")

    def edge_warning(self, state: S, option: MoveOption, board: HexMap) -> PlotWarning | None:
        """What the board's edge will do to ``option``, if anything (``None``: nothing).

        The default is the common rule: a plot whose path leaves ``board``
        takes the ship out where it crosses (:meth:`edge_rule` says what that
        means here). A system whose edge works otherwise says so here: one
        whose ships fly on past the frame warns of nothing, one that judges
        only where the move ends looks only there.
        """
        # On a geomorphic map there is no edge to leave: another sheet is laid down.
        off = None if self.geomorphic(state) else next((p for p in option.path if not board.contains(p.hex)), None)
        if off is None:
            return None
        effect, rule = self.edge_rule(state)
        return PlotWarning(f"leaves the board at {off.hex}: {effect}", rule)

    def plot_warnings(self, state: S, option: MoveOption, board: HexMap) -> tuple[PlotWarning, ...]:
        """What a player should know before choosing ``option``: what the edge does to it, or it ends on terrain.

        The plot is legal (the menu holds only legal ones); a warning says
        what it will do that a player may not mean: what the board's edge
        does to it (:meth:`edge_warning`), or that it ends in a hex of terrain
        the system gives a meaning (asteroids, a blocking hex). Systems with
        further conditions add theirs.
        """
        found: list[PlotWarning] = []
        edge = self.edge_warning(state, option, board)
        if edge is not None:
            found.append(edge)
        end = option.path[-1].hex
        kind = board.terrain_at(end) if edge is None else None
        if kind:
            found.append(PlotWarning(f"ends in a hex of {kind} at {end}", f"{self.manifest.title}: terrain"))
        return tuple(found)

    def counters(self, state: S) -> list[Counter]:
        """The pieces on the map (default: none, so a front end draws a bare map)."""
        return []

    def ship_cards(self, state: S) -> list[Card]:
        """Each ship's record sheet (default: none)."""
        return []

    def geomorphic(self, state: S) -> bool:
        """Whether ships fly on past the scenario's map (default: no, its edge is an edge).

        Where another sheet is laid down as ships reach the edge (AV:T), the
        scenario's map only frames the display: front ends draw the hex
        sheet wherever the ships go.
        """
        return False

    def can_attack(self, state: S, side: str) -> bool | None:
        """Whether ``side`` can still bring a weapon to bear on an enemy by its own moves: a ship of it in play
        that both has a weapon left and can move (default ``None``: the system does not say).

        Where no side can, the game is a stalemate that only a blunder ends: the bot audit
        (:mod:`vectorwar.lab.audit`) does not call such a game's run to the turn limit a drift.
        """
        return None

    def range_words(self, state: S, origin: Counter, target: Counter) -> str | None:
        """The range from ``origin`` to ``target`` in words, where it is more than the hexes between them.

        Front ends measure hexes themselves; a system whose range also counts
        something else (AV:T: the altitude, through the RALT) says so here.
        Default: ``None``.
        """
        return None

    def diagrams(self, state: S) -> dict[str, Any]:
        """A system's own record-sheet diagrams as plain data (default: none).

        For drawings no other system shares, like AV:T's AVID and firing arc
        diagrams: the system decides where everything goes and says so in
        JSON-ready data tagged with a ``kind``; front ends that know the kind
        draw it and the rest ignore it.
        """
        return {}

    def arc_hexes(self, state: S, ship_id: str) -> Mapping[str, AbstractSet[Hex]]:
        """Weapon name -> map hexes in its arc and range; raises ``KeyError`` for an unknown ship.

        A :class:`~vectorwar.maps.HexSet` of the map's hexes is named and put in order by the scene without
        hashing a hex; any other set is hashed and sorted."""
        return {}

    def move_options(self, state: S, side: str) -> Mapping[str, Sequence[MoveOption]]:
        """Ship id -> every legal movement plot for it, when ``side`` must plot movement now.

        Front ends offer these as the only choices and draw each one's path as
        a ghost; the union of their end hexes is the ship's reachable area.
        Default: none (the front end falls back to typed orders).
        """
        return {}

    def with_move(self, state: S, side: str, order: Order, ship: str, move: MoveOption) -> Order:
        """``order`` with ``ship``'s movement changed to ``move`` (one of its :meth:`move_options`).

        The search bot builds its variants of the fast bot's order this way. The
        default replaces the ship's whole entry (``;``-separated, ship first) with
        the option's text, right where an entry is movement only. A system whose
        entry also carries what is not movement (AV:T's shots) keeps that part.
        Raises what :meth:`parse_order` raises; the caller checks the result.
        """
        text = str(order)
        kept = [] if is_hold(text) else [e for e in entries(text) if e.split()[0].lower() != ship.lower()]
        return self.parse_order(state, side, "; ".join([*kept, move.text]))

    def order_variants(self, state: S, side: str, order: Order) -> Sequence[Order]:
        """Other orders for the search bot to try beside ``order`` (its fast bot's), besides the moves of
        :meth:`move_options` (``state`` is the side's view).

        Read by :mod:`vectorwar.search`, which tries every one-ship change of the movement but knows nothing of
        what else an entry carries. Default: none. A system whose orders carry a choice the movement menu does
        not (AV:T's pivots) offers its likeliest changes of it here, a handful a ship: each costs a trial. The
        bot checks each and drops those that are not legal.
        """
        return ()

    def fire_options(self, state: S, side: str) -> Mapping[str, Sequence[ShotOption]]:
        """Ship id -> every legal single shot, when ``side`` must declare fire now.

        Front ends offer these as buttons (weapon, then target) instead of
        asking players to type the notation. Each option carries its
        :class:`~vectorwar.odds.Odds` (what the die must show, every modifier
        named, the damage it can do) and the weapon in words. Default: none.
        """
        return {}

    def shot_odds(self, state: S, side: str, ship_id: str, piece: str) -> Odds | None:
        """The odds of ``ship_id`` firing ``piece`` (as a :class:`ShotOption` writes it) now, or ``None``.

        ``None`` when it is no legal shot of ``side``'s at this moment. The
        systems build these with the function their resolution reads the
        number from, so the answer is what the dice will be compared with.
        """
        for option in self.fire_options(state, side).get(ship_id, ()):
            if option.piece == piece:
                return option.odds
        return None

    def order_pieces(self, state: S, side: str) -> Mapping[str, Sequence[OrderPiece]]:
        """Ship id -> the other actions a ship may add to its entry now, when ``side`` must order.

        For systems whose one entry per ship joins movement, fire and other
        choices (AV:T's pivots, rolls, bias, reactors and radiators). Front
        ends offer one choice per :attr:`OrderPiece.group` (or none) and
        compose the ship's entry, separated by spaces, from the ship id, the
        chosen move option's text without the ship id (``hold`` contributes
        nothing when anything else is chosen), the chosen pieces in group
        order, then the chosen shots' pieces (:meth:`fire_options`). Only
        pieces legal on their own are offered; the order check judges them
        together. Default: none.
        """
        return {}

    def setup_menu(self, state: S, side: str) -> SetupMenu | None:
        """The set-up phase ``side`` must order now as a menu (purchases, placements, fleets); ``None``: none.

        Every option's order is one the system's own check accepts, so a front
        end can offer buttons instead of a text box.
        """
        return None

    def catalogue_table(self) -> CardTable | None:
        """The built-in designs as a table for people (default: ``None``, show the raw files)."""
        return None

    def design_cards(self, tables: Mapping[str, Any], source: str) -> list[Card] | None:
        """Check a file of designs (key -> table) and show each as a card; ``None``: no designer.

        Raises :class:`~vectorwar.errors.DesignError` naming ``source``, the key and the rule broken.
        """
        return None

    def design_schema(self) -> dict[str, Any] | None:
        """JSON Schema of the system's ship design format, if it has one."""
        return None

    def state_to_data(self, state: S) -> Any:
        return to_data(state, self.state_type)

    def state_from_data(self, data: Any) -> S:
        return from_data(self.state_type, data)


class _RandomBot:
    def __init__(self, system: RuleSystem[Any]) -> None:
        self.system = system

    def choose(self, state: Any, side: str, rng: random.Random) -> Order:
        return self.system.random_order(state, side, rng)
