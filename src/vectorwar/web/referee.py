"""The referee: what the server decides about its games, with no I/O (docs/web.md, "The referee").

State in, decisions out. Given a game and a request, the referee says
whether the request may be made (the token's sides, the prompt's step),
what the game becomes, what the computer players then order, what must be
recorded, and what each viewer sees. It never waits, stores, sends, draws
random numbers or reads a clock: the async layer (:mod:`vectorwar.web.service`)
does all of that, and runs the costly functions here on worker threads, each
within a time budget.

A game on a :class:`Table` is never changed in place. Every change is made
on a copy (:func:`copy_game`) that the async layer puts on the table once
it is stored, so work running off the event loop reads a game that nobody
writes, and a request refused part-way (over its budget, a failed commit,
a bug in a rule system) leaves the table as it was.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from vectorwar.autopilot import Standing
from vectorwar.errors import IllegalOrderError, SetupError
from vectorwar.game import Game, OrderBatch
from vectorwar.play import bot_accepts_end, bot_turns
from vectorwar.registry import get_system
from vectorwar.rules import Bot, Clock, Order
from vectorwar.scenario import Scenario, scenario_from_data
from vectorwar.scene import build_scene
from vectorwar.serial import from_data, to_data
from vectorwar.setup import HUMAN, SetUp, find_scenario, make_bots, scenario_from_text, set_up
from vectorwar.web.store import NewGame, Progress, StoredGame, token_hash

BOT_PREFIX = "bot:"
#: A side's controller in a new game's request: a human side no token is handed out for yet (POST .../join).
OPEN = "open"


#: What a game id may be: the server makes ``g_`` and 12 hex digits; the games column holds 40.
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")


class GameNotFound(LookupError):
    def __init__(self, game_id: str) -> None:
        # An id that no game could have is not repeated back (it may be long or hold anything).
        shown = repr(game_id) if GAME_ID.fullmatch(game_id) else "with that id (a game id is g_ and 12 hex digits)"
        super().__init__(f"no game {shown}")


class SideForbidden(PermissionError):
    def __init__(self, side: str) -> None:
        super().__init__(f"this token does not hold side {side!r}")


class StalePrompt(ValueError):
    """The order was written for a prompt that is no longer the game's.

    Prompts are numbered by ``step``, the count of resolved batches, which a
    scene carries: two prompts in a row may read the same clock (VV5's missile
    launches, side after side), but never share a step.
    """

    def __init__(self, given: int, step: int, clock: str | None, note: str = "") -> None:
        self.step = step
        self.clock = clock
        now = f"step {step} ({clock})" if clock is not None else f"step {step} (the game is over)"
        super().__init__(f"the order was written for step {given} but the game is at {now}{note}")


# -- a table: one game with what the server knows around it -------------------


@dataclass(eq=False)
class Table:
    """One game on the server: the game, who plays it, the tokens' sides, drafts, bots and scenes built."""

    id: str
    game: Game
    #: side -> ``human`` or ``bot:NAME`` (the API's spelling).
    controllers: dict[str, str]
    #: token hash -> the sides it holds.
    tokens: dict[str, tuple[str, ...]]
    drafts: dict[str, str]
    bots: dict[str, Bot]
    #: side -> the standing orders its player left (:mod:`vectorwar.autopilot`); absent: ask at every prompt.
    standing: dict[str, Standing] = field(default_factory=dict)
    _scenes: dict[tuple[str, ...], str] = field(default_factory=dict)
    _scenes_of: Game | None = None
    #: An open offer to end the game by agreement (stored with the game, so every server shows it).
    end_offer: EndOffer | None = None
    #: What came of the last offer or concession, in words, for every viewer ("" for nothing), and the step it
    #: was said at: it is shown until the game moves on (:meth:`note_ending`).
    end_note: str = ""
    end_note_step: int = 0
    #: The creator fixed the seed (a practice game): every viewer is told, since whoever chose it
    #: can foresee every roll.
    practice: bool = False
    #: The game a side started as this finished one's rematch, if any.
    rematch: str | None = None
    #: The finished game this one is the rematch of: its free sides are kept for that game's players.
    rematch_of: str | None = None
    #: The stored version this table is (web/store.py, ``StaleGame``): every change is written for it.
    version: int = 0
    #: The stored secret version, and each side's mark: the secret version at its last secret change
    #: (web/store.py, ``Stamps``). A view checks only the public version and its own sides' marks.
    secret_version: int = 0
    marks: dict[str, int] = field(default_factory=dict)

    def free_sides(self) -> tuple[str, ...]:
        """Human sides that no token holds: open for anyone to join."""
        held = {side for sides in self.tokens.values() for side in sides}
        return tuple(s for s, c in self.controllers.items() if c == HUMAN and s not in held)

    def sides_of(self, token: str | None) -> tuple[str, ...]:
        """The sides ``token`` holds here; none for no token or a stranger's (a spectator)."""
        return self.tokens.get(token_hash(token), ()) if token else ()

    def acting_for(self, token: str | None, side: str) -> tuple[str, ...]:
        """The token's sides, provided they include ``side``; raises :class:`SideForbidden`."""
        viewer = self.sides_of(token)
        if side not in viewer:
            raise SideForbidden(side)
        return viewer

    def note_ending(self, offer: EndOffer | None, note: str) -> None:
        """Keep the open offer (``None``: none) and what came of the last request, said at the game's step now."""
        self.end_offer = offer
        self.end_note = note
        self.end_note_step = len(self.game.history)

    def cached_scene(self, sides: Sequence[str]) -> str | None:
        """The scene built for these sides of the game now on the table, if there is one."""
        if self._scenes_of is not self.game:
            return None
        return self._scenes.get(tuple(sides))

    def keep_scene(self, game: Game, sides: Sequence[str], base: str) -> None:
        """Keep a scene built for ``game``, unless another game has been put on the table since."""
        if game is not self.game:
            return
        if self._scenes_of is not game:
            self._scenes = {}
            self._scenes_of = game
        self._scenes[tuple(sides)] = base

    def put(self, game: Game, private_to: Sequence[str] | None = None) -> None:
        """Put ``game`` on the table in place of the one there.

        ``private_to``: the change shows only to these sides (:func:`private_to`),
        so every scene kept for a set of sides without any of them is kept for
        ``game``: another side's view is then read from what it was read from before.
        """
        kept: dict[tuple[str, ...], str] = {}
        if private_to is not None and self._scenes_of is self.game:
            kept = {key: base for key, base in self._scenes.items() if not set(key) & set(private_to)}
        self.game = game
        self._scenes = kept
        self._scenes_of = game

    def keep_secret(self, secret_version: int, sides: Sequence[str]) -> None:
        """Note a secret change of ``sides`` stored as the game's secret version ``secret_version``."""
        self.secret_version = secret_version
        for side in sides:
            self.marks[side] = secret_version

    def scenes_from(self, older: Table) -> None:
        """Keep the scenes ``older`` (this game as this server had it) built that still hold here.

        They hold when the public version is the same and for sets of sides
        whose marks are the same: nothing such a set sees changed since. So
        reading a game again because one side's secret changed elsewhere rebuilds
        that side's scene only.
        """
        if older.version != self.version or older._scenes_of is not older.game or self._scenes_of is not None:
            return
        changed = {s for s in {*self.marks, *older.marks} if self.marks.get(s, 0) != older.marks.get(s, 0)}
        self._scenes = {key: base for key, base in older._scenes.items() if not changed & set(key)}
        self._scenes_of = self.game

    def dressed(self, sides: Sequence[str], base: str) -> str:
        """The viewer's scene text: the game's scene plus what the server adds (id, players, own drafts)."""
        extra = {
            "game": self.id,
            "players": self.controllers,
            "drafts": {s: self.drafts[s] for s in sides if s in self.drafts},
            "standing": {s: self.standing[s].to_data() for s in sides if s in self.standing},
            "end_offer": None if self.end_offer is None or self.game.is_over else self.end_offer.data(self.game),
            "end_note": self.end_note if self.end_note_step == len(self.game.history) else "",
            "practice": self.practice,
            "free_sides": list(self.free_sides()),
            # Only to a side's holder, who asks POST .../rematch for its own link to it.
            "rematch": self.rematch if sides else None,
        }
        # build_scene has none of these keys, so prefixing them gives one well-formed object.
        return json.dumps(extra, separators=(",", ":"))[:-1] + "," + base[1:]


def scene_base(game: Game, sides: Sequence[str]) -> str:
    """What these sides see of ``game``, as compact JSON text (built once per game and sides, then kept).

    Plot options are costly to build, and the same scene goes to an order's
    answer and to every socket of those sides. Kept as one string rather
    than thousands of small dicts, the cached scenes of many live games also
    keep the garbage collector's full passes short.
    """
    return json.dumps(build_scene(game, tuple(sides)), separators=(",", ":"))


def private_to(before: Game, after: Game) -> tuple[str, ...] | None:
    """The sides whose plots alone changed from ``before`` to ``after``; ``None`` when any viewer may see the change.

    A plot replaced before the prompt resolves changes what its own side sees
    and nothing else: the state, the batches and who has plotted stay as they
    were (a first plot, or one taken back, changes whom the prompt waits for,
    which every viewer sees).
    """
    if (
        after.state is not before.state
        or len(after.history) != len(before.history)
        or after.ended != before.ended
        or after.pending.keys() != before.pending.keys()
    ):
        return None
    return tuple(side for side, order in after.pending.items() if str(order) != str(before.pending[side]))


def copy_game(game: Game) -> Game:
    """A game to change without touching ``game`` (states are frozen, so only the lists are copied)."""
    return Game(
        game.system,
        game.scenario,
        game.seed,
        game.options,
        game.state,
        game.dice_count,
        list(game.events),
        list(game.history),
        dict(game.pending),
        game.previous,
        ended=game.ended,
    )


# -- creating and rebuilding ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class Opening:
    """A game set up for the server: the kernel's set-up, the sides' controllers and the players' sides."""

    setup: SetUp
    controllers: dict[str, str]
    #: The sides of each player who gets a token: one each, or all of them for hot-seat play.
    groups: tuple[tuple[str, ...], ...]
    #: Human sides left open: no token is made for them until someone joins.
    open_sides: tuple[str, ...] = ()


def open_game(
    scenario: str | Scenario,
    sides: Mapping[str, str],
    hotseat: bool,
    seed: int,
    options: Mapping[str, object] | None = None,
    scenario_toml: str | None = None,
) -> Opening:
    """Set up a game as a request asks (through the kernel's :func:`set_up`); raises :class:`SetupError`.

    The seed is the caller's to draw: the referee draws no random numbers.
    """
    if scenario_toml is not None:
        chosen = scenario_from_text(scenario_toml)
    else:
        chosen = find_scenario(scenario) if isinstance(scenario, str) else scenario
    players = {side: _kernel_player(side, controller) for side, controller in sides.items()}
    setup = set_up(chosen, players, seed=seed, options=options)
    controllers = {side: api_player(player) for side, player in setup.players.items()}
    left_open = tuple(s for s in setup.players if sides.get(s) == OPEN)
    people = [s for s, p in setup.players.items() if p == HUMAN and s not in left_open]
    groups = (tuple(people),) if hotseat and people else tuple((s,) for s in people)
    return Opening(setup, controllers, groups, left_open)


def rematch_controllers(controllers: Mapping[str, str]) -> dict[str, str]:
    """Each side's controller moved on to the next side (for two sides, the sides swapped)."""
    sides = list(controllers)
    return {side: controllers[sides[i - 1]] for i, side in enumerate(sides)}


def rematch_sides(controllers: Mapping[str, str], sides: Sequence[str]) -> tuple[str, ...]:
    """Where a player who held ``sides`` sits in the rematch (:func:`rematch_controllers`)."""
    ring = list(controllers)
    moved = {old: ring[(i + 1) % len(ring)] for i, old in enumerate(ring)}
    return tuple(sorted((moved[s] for s in sides), key=ring.index))


def api_player(player: str) -> str:
    """A kernel player name as the API spells it: ``human`` or ``bot:NAME``."""
    return player if player == HUMAN else BOT_PREFIX + player


def _kernel_player(side: str, controller: str) -> str:
    if controller in (HUMAN, OPEN):
        return HUMAN
    if controller.startswith(BOT_PREFIX):
        return controller.removeprefix(BOT_PREFIX)
    raise SetupError(f"side {side}: no player {controller!r} (a player is {HUMAN}, {OPEN} or {BOT_PREFIX}NAME)")


def record_of(
    game_id: str,
    opening: Opening,
    tokens: Mapping[str, tuple[str, ...]],
    *,
    practice: bool = False,
    rematch_of: str | None = None,
) -> NewGame:
    """What the store keeps of a new game (``tokens``: token hash -> sides)."""
    return game_record(
        game_id, opening.setup.game, opening.controllers, tokens, practice=practice, rematch_of=rematch_of
    )


def game_record(
    game_id: str,
    game: Game,
    controllers: Mapping[str, str],
    tokens: Mapping[str, tuple[str, ...]],
    *,
    practice: bool = False,
    rematch_of: str | None = None,
    played: Progress | None = None,
) -> NewGame:
    """What the store keeps of ``game``: its set-up and sides, and ``played``, the batches already resolved."""
    return NewGame(
        id=game_id,
        system=game.system.manifest.name,
        scenario_id=game.scenario.id,
        title=game.scenario.title,
        scenario=game.scenario.to_data(),
        seed=game.seed,
        options=dict(game.options),
        controllers=dict(controllers),
        tokens=dict(tokens),
        seed_fixed=practice,
        rematch_of=rematch_of,
        played=played,
    )


def new_table(
    game_id: str, opening: Opening, tokens: Mapping[str, tuple[str, ...]], *, practice: bool = False
) -> Table:
    game = opening.setup.game
    return Table(
        game_id, game, dict(opening.controllers), dict(tokens), {}, dict(opening.setup.bots), practice=practice
    )


def rebuild(stored: StoredGame, known: Game | None = None) -> Table:
    """Replay a stored game; the pending plots go back in as their authors gave them.

    ``known``: an earlier state of the same game, as this server stored it (its
    copy before another process changed the game): only the batches resolved
    since are replayed on it, when its history is where the stored one begins.
    """
    system = get_system(stored.system)
    scenario = scenario_from_data(stored.scenario, f"game {stored.id}: scenario")
    history = [OrderBatch(from_data(Clock, clock), tuple(orders)) for clock, orders in stored.batches]
    if stored.ending and history:
        history[-1] = OrderBatch(history[-1].clock, history[-1].orders, stored.ending)
    game = None if known is None else caught_up(known, history)
    if game is None:
        game = Game.replay(system, scenario, stored.seed, stored.options, history)
    for side, (clock, text) in stored.pending.items():
        if str(game.clock) == clock:
            game.submit(side, text)
    controllers = dict(stored.controllers)
    bots = make_bots(system, {s: c.removeprefix(BOT_PREFIX) for s, c in controllers.items()})
    standing = {side: Standing.from_data(data) for side, data in stored.standing.items()}
    drafts = dict(stored.drafts)
    return Table(
        stored.id,
        game,
        controllers,
        dict(stored.tokens),
        drafts,
        bots,
        standing,
        practice=stored.seed_fixed,
        rematch=stored.rematch,
        rematch_of=stored.rematch_of,
        version=stored.version,
        secret_version=stored.secret_version,
        marks=dict(stored.marks),
        end_offer=None if stored.end_offer is None else EndOffer(stored.end_offer),
        end_note=stored.end_note,
        end_note_step=stored.end_note_step,
    )


def caught_up(known: Game, history: Sequence[OrderBatch]) -> Game | None:
    """``known`` brought to the end of ``history`` by replaying only the batches it lacks, with no plot waiting.

    The same game :meth:`Game.replay` makes of ``history``: a replay gives each
    batch in turn to the game after the last, and a plot waiting changes
    nothing but the plots waiting (which are dropped here), so the game after
    ``known``'s batches is the one a replay reaches there. ``None`` when
    ``history`` does not begin with ``known``'s batches.
    """
    done = len(known.history)
    if len(history) < done or list(known.history) != list(history[:done]):
        return None
    game = copy_game(known)
    game.pending.clear()
    for batch in history[done:]:
        if game.clock != batch.clock:
            return None
        game.replay_batch(batch)
    return game


# -- orders ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ruling:
    """What an order comes to: a retry of one already taken (``game`` is ``None``), or the game after it."""

    duplicate: bool
    resolved: bool
    game: Game | None


def rule_on_order(game: Game, side: str, text: str, step: int) -> Ruling:
    """``side``'s order written for the prompt at ``step``; raises the rules' errors or :class:`StalePrompt`."""
    done = already_given(game, side, text, step)
    if done is not None:
        return Ruling(duplicate=True, resolved=done, game=None)
    after = copy_game(game)
    after.submit(side, text)
    return Ruling(duplicate=False, resolved=len(after.history) > len(game.history), game=after)


def check_order(game: Game, side: str, text: str) -> str:
    """The canonical text of ``text`` as ``side``'s order now; raises the rules' errors."""
    return str(game.check(side, text))


@dataclass(frozen=True, slots=True)
class BotAnswer:
    """The game after the computer players' orders (``None``: none were owed) and a bot's failure, if any."""

    game: Game | None
    failure: Exception | None = None


def bots_answer(game: Game, bots: Mapping[str, Bot], standing: Mapping[str, Standing] | None = None) -> BotAnswer:
    """Every order the bots owe now, and those the players' standing orders give, through the kernel's bot loop.

    Each order is given on a fresh copy, so a bot (or resolution) that fails
    leaves the game as it was after the last order that went in: that side
    then waits, rather than the server going down.
    """
    current = game
    try:
        while True:
            after = copy_game(current)
            if next(bot_turns(after, bots, standing=standing), None) is None:
                break
            current = after
    except Exception as err:  # a bot's bug must not take the server down
        return BotAnswer(None if current is game else current, err)
    return BotAnswer(None if current is game else current)


def next_bot_side(game: Game, bots: Mapping[str, Bot]) -> str | None:
    """The side whose bot gives the next order, as the kernel's bot loop takes them; ``None``: no bot owes one.

    One decision at a time, in the order :func:`vectorwar.play.bot_turns` gives
    them, so the server can hand each to a worker process and still play the
    kernel's game.
    """
    if game.is_over:
        return None
    return next((side for side in game.waiting_for if side in bots), None)


def with_bot_order(game: Game, side: str, order: Order) -> Game:
    """The game after a bot's order for ``side`` (given on a copy; raises the rules' errors)."""
    after = copy_game(game)
    after.submit(side, order)
    return after


def has_people(controllers: Mapping[str, str]) -> bool:
    """Whether a person holds any side (side -> ``human`` or ``bot:NAME``); else the game is computer players' only."""
    return any(controller == HUMAN for controller in controllers.values())


def withdrawn(game: Game, side: str) -> Game | None:
    """The game with ``side``'s unresolved plot taken back; ``None`` when it has none."""
    if side not in game.pending:
        return None
    after = copy_game(game)
    after.withdraw(side)
    return after


def draft_applies(game: Game, step: int | None) -> bool:
    """Whether a draft written at ``step`` is still for the current prompt (a late one raced its order)."""
    return step is None or step == len(game.history)


def progress(before: Game, after: Game, cleared_drafts: tuple[str, ...] = ()) -> Progress:
    """What the store must record for the game to go from ``before`` to ``after``."""
    first = len(before.history)
    clock = after.clock
    return Progress(
        first_step=first,
        batches=tuple((to_data(b.clock, Clock), b.orders) for b in after.history[first:]),
        pending={side: str(order) for side, order in after.pending.items()},
        clock="" if clock is None else str(clock),
        turn=_turn(after),
        over=clock is None,
        cleared_drafts=cleared_drafts,
        ending=after.history[-1].end if len(after.history) > first else "",
    )


def already_given(game: Game, side: str, text: str, step: int) -> bool | None:
    """Whether this is a retry of ``side``'s order for the prompt at ``step``.

    ``True``: that order was resolved; ``False``: it is waiting, unchanged;
    ``None``: it is a new order for the current prompt. Any other request
    written for a past prompt is stale (:class:`StalePrompt`): a retry repeats
    the text it sent, so a different text for a past step is not one.
    """
    now = len(game.history)
    current = None if game.clock is None else str(game.clock)
    if step == now and current is not None:
        waiting = game.pending.get(side)
        if waiting is None:
            return None
        try:
            same = str(game.system.parse_order(game.state, side, text)) == str(waiting)
        except ValueError:
            return None
        # A different plot replaces the waiting one, as the kernel allows until the last is in.
        return False if same else None
    if 0 <= step < now:
        given = dict(game.history[step].orders).get(side)
        if given is not None and _same_text(given, text):
            return True
        note = f"; {side}'s order then was {given!r}" if given is not None else ""
        raise StalePrompt(step, now, current, note)
    raise StalePrompt(step, now, current)


def _same_text(recorded: str, sent: str) -> bool:
    """A recorded canonical order and a client's text agree up to spacing and case."""
    return " ".join(recorded.split()).lower() == " ".join(sent.split()).lower()


def _turn(game: Game) -> int:
    clock = game.clock
    if clock is not None:
        return clock.turn
    return game.history[-1].clock.turn if game.history else 1


# -- looking back ----------------------------------------------------------------


def timeline(game: Game) -> list[dict[str, Any]]:
    """What each resolved batch was: its step, clock, turn and segment, for a replay's scrubber.

    Replaying to ``step`` shows the game after that many batches, so the
    batch at index ``step`` is what comes next from there.
    """
    return [
        {"step": i, "clock": str(b.clock), "turn": b.clock.turn, "segment": b.clock.segment}
        for i, b in enumerate(game.history)
    ]


# -- ending outside the rules: a concession, an end by agreement (docs/web.md, *Ending a game*) ---------


@dataclass(frozen=True, slots=True)
class EndOffer:
    """An offer to end the game as a draw: the sides that have agreed so far, the one who offered first."""

    agreed: tuple[str, ...]

    def data(self, game: Game) -> dict[str, Any]:
        return {
            "by": self.agreed[0],
            "agreed": list(self.agreed),
            "waiting": [s for s in game.sides if s not in self.agreed],
        }


@dataclass(frozen=True, slots=True)
class EndAnswer:
    """What an offer or an answer to one comes to: the game ended (``game``), or the offer still open, in words."""

    game: Game | None
    offer: EndOffer | None
    note: str


def conceded(game: Game, side: str) -> Game:
    """The game after ``side`` concedes; raises :class:`IllegalOrderError` once it is over."""
    after = copy_game(game)
    after.concede(side)
    return after


def agree_to_end(game: Game, offer: EndOffer | None, sides: Sequence[str], bots: Mapping[str, Bot]) -> EndAnswer:
    """``sides`` offer (or agree) to end the game as a draw; the computer players answer at once.

    A bot agrees unless it is ahead (:func:`vectorwar.play.bot_accepts_end`), and
    one that does not ends the offer. When every side has agreed, the game ends.
    """
    if game.is_over:
        raise IllegalOrderError("agree", "the game is over", "game end")
    agreed = offer.agreed if offer is not None else ()
    agreed += tuple(s for s in sides if s not in agreed)
    for side in game.sides:
        if side in bots and side not in agreed:
            if not bot_accepts_end(game, side):
                return EndAnswer(None, None, f"{side} (a computer player) will not end the game: it is ahead")
            agreed += (side,)
    if all(s in agreed for s in game.sides):
        after = copy_game(game)
        after.end_by_agreement(agreed)
        return EndAnswer(after, None, "")
    waiting = ", ".join(s for s in game.sides if s not in agreed)
    return EndAnswer(None, EndOffer(agreed), f"{agreed[0]} offers to end the game as a draw; waiting for {waiting}")


def decline_end(game: Game, offer: EndOffer | None, side: str) -> str:
    """What ``side`` declining the open offer says; raises :class:`IllegalOrderError` when none is open."""
    if game.is_over:
        raise IllegalOrderError("decline", "the game is over", "game end")
    if offer is None:
        raise IllegalOrderError("decline", "no side has offered to end the game", "ending by agreement")
    return f"{side} declines to end the game; play goes on"
