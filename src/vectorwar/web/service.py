"""Games on the server: kept in memory, rebuilt from the store by replay, changed one at a time.

Every change to a game (an order, a withdrawn plot, a bot's move) happens
under that game's asyncio lock, and is written to the store before anyone
is told: an acknowledged order is a committed order. Bots give their orders
through the same ``Game.submit`` as people, right after each change, and
their orders are stored the same way. If a write fails, the game is dropped
from memory and the next request rebuilds it from what the store holds, so
memory is never ahead of the database for long.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from vectorwar.catalogue import builtin_scenario, scenario_paths
from vectorwar.dice import new_seed
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError, UnknownSystemError, VectorwarError
from vectorwar.game import Game, OrderBatch
from vectorwar.play import bot_rng
from vectorwar.registry import get_system, systems
from vectorwar.rules import Bot, Clock, Order
from vectorwar.scenario import Scenario, load_scenario, scenario_from_data, scenario_from_toml
from vectorwar.scene import build_scene
from vectorwar.serial import from_data, to_data
from vectorwar.web.store import GameSummary, NewGame, Progress, Store, StoredGame, token_hash

log = logging.getLogger("vectorwar.web")

HUMAN = "human"
BOT_PREFIX = "bot:"

QUICKSTART_SCENARIO = "vv5-dogfight"
QUICKSTART_SEATS = {"red": HUMAN, "blue": "bot:greedy"}


class GameNotFound(LookupError):
    def __init__(self, game_id: str) -> None:
        super().__init__(f"no game {game_id!r}")


class SeatForbidden(PermissionError):
    def __init__(self, seat: str) -> None:
        super().__init__(f"this token does not hold seat {seat!r}")


class StalePrompt(ValueError):
    """The order was written for a prompt that is no longer the game's.

    Prompts are numbered by ``step``, the count of resolved batches, which a
    scene carries: two prompts in a row may read the same clock (VV5's missile
    launches, seat after seat), but never share a step.
    """

    def __init__(self, given: int, step: int, clock: str | None, note: str = "") -> None:
        self.step = step
        self.clock = clock
        now = f"step {step} ({clock})" if clock is not None else f"step {step} (the game is over)"
        super().__init__(f"the order was written for step {given} but the game is at {now}{note}")


class BadSetup(ValueError):
    """A request to create a game that cannot be set up (unknown scenario, seat, bot or option)."""


@dataclass(frozen=True, slots=True)
class Player:
    seats: tuple[str, ...]
    token: str


@dataclass(frozen=True, slots=True)
class Created:
    id: str
    players: tuple[Player, ...]


@dataclass(frozen=True, slots=True)
class Submitted:
    resolved: bool
    duplicate: bool
    #: The caller's scene after the order, as JSON text (see :meth:`LiveGame.scene_text`).
    scene_text: str

    @property
    def scene(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.scene_text)
        return parsed


@dataclass(eq=False)
class LiveGame:
    """One game in memory with what the server needs around it."""

    id: str
    game: Game
    controllers: dict[str, str]
    tokens: dict[str, tuple[str, ...]]
    drafts: dict[str, str]
    bots: dict[str, Bot]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    #: Set when the game was dropped from memory; whoever waited on its lock must fetch it again.
    stale: bool = False
    _scenes: dict[tuple[str, ...], str] = field(default_factory=dict)

    def seats_of(self, token: str | None) -> tuple[str, ...]:
        """The seats ``token`` holds here; none for no token or a stranger's (a spectator)."""
        if not token:
            return ()
        return self.tokens.get(token_hash(token), ())

    def changed(self) -> None:
        self._scenes.clear()

    def scene_text(self, seats: Sequence[str]) -> str:
        """The viewer's scene as JSON text, built and encoded once per change for each set of seats.

        Plot options are costly to build, and the same scene goes to the order's
        answer and to every socket of those seats. Keeping it as one string
        rather than thousands of small dicts also keeps the garbage collector's
        full passes short while many games are live.
        """
        key = tuple(seats)
        base = self._scenes.get(key)
        if base is None:
            base = self._scenes[key] = json.dumps(build_scene(self.game, key), separators=(",", ":"))
        extra = {
            "game": self.id,
            "players": self.controllers,
            "drafts": {s: self.drafts[s] for s in key if s in self.drafts},
        }
        # build_scene has none of these keys, so prefixing them gives one well-formed object.
        return json.dumps(extra, separators=(",", ":"))[:-1] + "," + base[1:]

    def scene(self, seats: Sequence[str]) -> dict[str, Any]:
        """The viewer's scene as data (see :meth:`scene_text`)."""
        parsed: dict[str, Any] = json.loads(self.scene_text(seats))
        return parsed


Listener = Callable[[LiveGame], Awaitable[None]]


class GameService:
    def __init__(self, store: Store, max_live: int = 500) -> None:
        self.store = store
        #: Games in memory, least recently used first; the oldest idle ones are dropped past ``max_live``.
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self.max_live = max_live
        self._loading: dict[str, asyncio.Lock] = {}
        self._listeners: list[Listener] = []

    def on_change(self, listener: Listener) -> None:
        self._listeners.append(listener)

    # -- reading ------------------------------------------------------------

    async def get(self, game_id: str) -> LiveGame:
        """The game in memory, replayed from the store on a miss; raises :class:`GameNotFound`."""
        live = self._live.get(game_id)
        if live is not None:
            self._live.move_to_end(game_id)
            return live
        loading = self._loading.setdefault(game_id, asyncio.Lock())
        async with loading:
            live = self._live.get(game_id)
            if live is None:
                stored = await asyncio.to_thread(self.store.load, game_id)
                if stored is None:
                    self._loading.pop(game_id, None)
                    raise GameNotFound(game_id)
                live = _rebuild(stored)
                self._remember(live)
        self._loading.pop(game_id, None)
        # Bots owe their orders as soon as the game is back, as after any change.
        async with self.locked(game_id) as live:
            before = len(live.game.history)
            moved = await asyncio.to_thread(self._bots_move, live)
            if moved:
                await self._persist(live, before)
        if moved:
            await self._notify(live)
        return live

    @asynccontextmanager
    async def locked(self, game_id: str) -> AsyncIterator[LiveGame]:
        """Hold ``game_id``'s lock, on the game as it is in memory now."""
        while True:
            live = await self.get_cached_or_load(game_id)
            async with live.lock:
                if live.stale:
                    continue
                yield live
                return

    async def get_cached_or_load(self, game_id: str) -> LiveGame:
        live = self._live.get(game_id)
        return live if live is not None else await self.get(game_id)

    async def scene(self, game_id: str, token: str | None) -> str:
        """The scene ``token`` may see, as JSON text."""
        async with self.locked(game_id) as live:
            return live.scene_text(live.seats_of(token))

    async def games(self) -> list[GameSummary]:
        return await asyncio.to_thread(self.store.games)

    async def timeline(self, game_id: str) -> list[dict[str, Any]]:
        """What each resolved batch was: its step, clock, turn and segment, for a replay's scrubber.

        Replaying to ``step`` shows the game after that many batches, so the
        batch at index ``step`` is what comes next from there.
        """
        async with self.locked(game_id) as live:
            return [
                {"step": i, "clock": str(b.clock), "turn": b.clock.turn, "segment": b.clock.segment}
                for i, b in enumerate(live.game.history)
            ]

    async def replay(self, game_id: str, step: int) -> dict[str, Any] | None:
        """The spectator's scene after ``step`` resolved batches; ``None`` past the end."""
        async with self.locked(game_id) as live:
            game = live.game
            if not 0 <= step <= len(game.history):
                return None
            history = game.history[:step]
            controllers = dict(live.controllers)
        past = await asyncio.to_thread(Game.replay, game.system, game.scenario, game.seed, game.options, history)
        return {**build_scene(past, ()), "game": game_id, "players": controllers, "drafts": {}}

    # -- creating -----------------------------------------------------------

    async def create(
        self,
        scenario_id: str | Scenario,
        seats: Mapping[str, str],
        hotseat: bool = False,
        seed: int | None = None,
        options: Mapping[str, object] | None = None,
    ) -> Created:
        """A new game of a built-in scenario (by id) or of a scenario a player brought (see :func:`read_scenario`)."""
        if isinstance(scenario_id, Scenario):
            scenario: Scenario | None = scenario_id
        else:
            try:
                scenario = builtin_scenario(scenario_id) if scenario_id in scenario_paths() else None
            except ScenarioError as err:
                raise BadSetup(str(err)) from None
        if scenario is None:
            raise BadSetup(f"no scenario called {scenario_id!r} (known: {', '.join(scenario_paths())})")
        try:
            system = get_system(scenario.system)
        except UnknownSystemError as err:
            raise BadSetup(f"scenario {scenario.id}: {err}") from None
        sides = [s.id for s in scenario.sides]
        unknown = [s for s in seats if s not in sides]
        if unknown:
            raise BadSetup(f"scenario {scenario.id} has no side {unknown[0]!r} (sides: {', '.join(sides)})")
        controllers = {side: seats.get(side, HUMAN) for side in sides}
        bots = _bots(system.bots(), controllers)
        # Drawn in secret unless the creator chose one; it never leaves the server while the game is on.
        seed = new_seed() if seed is None else seed
        try:
            game = Game.new(system, scenario, seed, options)
        except VectorwarError as err:
            raise BadSetup(str(err)) from None
        people = [s for s, c in controllers.items() if c == HUMAN]
        groups = [tuple(people)] if hotseat and people else [(s,) for s in people]
        players = tuple(Player(group, secrets.token_urlsafe(24)) for group in groups)
        game_id = "g_" + secrets.token_hex(6)
        tokens = {token_hash(p.token): p.seats for p in players}
        new = NewGame(
            id=game_id,
            system=system.manifest.name,
            scenario_id=scenario.id,
            title=scenario.title,
            scenario=scenario.to_data(),
            seed=seed,
            options=dict(game.options),
            controllers=controllers,
            tokens=tokens,
        )
        await asyncio.to_thread(self.store.create, new)
        self._remember(LiveGame(game_id, game, controllers, tokens, {}, bots))
        async with self.locked(game_id) as live:
            if await asyncio.to_thread(self._bots_move, live):
                await self._persist(live, 0)
        return Created(game_id, players)

    async def quickstart(self) -> Created:
        """A game a newcomer can play at once: the VV5 Dogfight against the greedy bot."""
        return await self.create(QUICKSTART_SCENARIO, QUICKSTART_SEATS)

    # -- changing -----------------------------------------------------------

    async def submit(self, game_id: str, token: str | None, seat: str, text: str, step: int) -> Submitted:
        """Take ``seat``'s order written for the prompt at ``step``; raises order errors, 403, 409."""
        async with self.locked(game_id) as live:
            viewer = live.seats_of(token)
            if seat not in viewer:
                raise SeatForbidden(seat)
            game = live.game
            done = _already_given(game, seat, text, step)
            if done is not None:
                return Submitted(resolved=done, duplicate=True, scene_text=live.scene_text(viewer))
            before = len(game.history)
            # Resolving and the bots' turns can take a while: off the event loop, under the game's lock.
            await asyncio.to_thread(self._apply, live, seat, text)
            resolved = len(game.history) > before
            live.drafts.pop(seat, None)
            await self._persist(live, before, cleared_drafts=(seat,))
            live.changed()
            scene = live.scene_text(viewer)
        await self._notify(live)
        return Submitted(resolved=resolved, duplicate=False, scene_text=scene)

    async def check(self, game_id: str, token: str | None, seat: str, text: str) -> str:
        """The canonical text of ``text`` as ``seat``'s order now; nothing is stored."""
        async with self.locked(game_id) as live:
            if seat not in live.seats_of(token):
                raise SeatForbidden(seat)
            return str(live.game.check(seat, text))

    async def withdraw(self, game_id: str, token: str | None, seat: str) -> None:
        async with self.locked(game_id) as live:
            if seat not in live.seats_of(token):
                raise SeatForbidden(seat)
            if seat not in live.game.pending:
                return
            live.game.withdraw(seat)
            await self._persist(live, len(live.game.history))
            live.changed()
        await self._notify(live)

    async def set_draft(self, game_id: str, token: str | None, seat: str, text: str, step: int | None = None) -> None:
        """Keep what ``seat`` is editing; a draft written at a ``step`` that has passed is dropped.

        A browser saves drafts a moment after each edit, so the last save can
        arrive after the order it became (which cleared the draft): kept, it
        would come back as a stale draft at the next prompt.
        """
        async with self.locked(game_id) as live:
            if seat not in live.seats_of(token):
                raise SeatForbidden(seat)
            if step is not None and step != len(live.game.history):
                return
            await asyncio.to_thread(self.store.set_draft, game_id, seat, text)
            if text:
                live.drafts[seat] = text
            else:
                live.drafts.pop(seat, None)

    # -- inside -------------------------------------------------------------

    def _remember(self, live: LiveGame) -> None:
        self._live[live.id] = live
        self._live.move_to_end(live.id)
        while len(self._live) > self.max_live:
            # Only an idle game may go: everything it did is in the store already.
            idle = next((gid for gid, old in self._live.items() if not old.lock.locked()), None)
            if idle is None:
                return
            self._live.pop(idle).stale = True

    def _apply(self, live: LiveGame, seat: str, text: str) -> None:
        """Give the order and the bots' answers (they go into the same transaction: one commit per order).

        A refused order leaves the game untouched (the kernel's promise). Any
        other failure may have left it half-resolved, so the game is dropped
        from memory and rebuilt from the store, which never saw the change.
        """
        try:
            live.game.submit(seat, text)
        except (OrderSyntaxError, IllegalOrderError):
            raise
        except BaseException:
            log.exception("game %s: resolving %s's order failed; reloading it from the store", live.id, seat)
            self._forget(live)
            raise
        self._bots_move(live)

    def _forget(self, live: LiveGame) -> None:
        live.stale = True
        self._live.pop(live.id, None)

    def _bots_move(self, live: LiveGame) -> bool:
        """Let the bots give every order they owe now; returns whether any did (the caller stores them)."""
        game = live.game
        given = False
        try:
            while not game.is_over:
                due = [s for s in game.waiting_for if s in live.bots]
                if not due:
                    break
                for seat in due:
                    order: Order = live.bots[seat].choose(game.state, seat, bot_rng(game.seed, seat, len(game.history)))
                    game.submit(seat, order)
                    given = True
        except Exception:
            # A bot's bug must not take the server down; the game waits for that seat instead.
            log.exception("game %s: a bot failed", live.id)
        if given:
            live.changed()
        return given

    async def _persist(self, live: LiveGame, before: int, cleared_drafts: tuple[str, ...] = ()) -> None:
        game = live.game
        clock = game.clock
        progress = Progress(
            first_step=before,
            batches=tuple((to_data(b.clock, Clock), b.orders) for b in game.history[before:]),
            pending={seat: str(order) for seat, order in game.pending.items()},
            clock="" if clock is None else str(clock),
            turn=_turn(game),
            over=clock is None,
            cleared_drafts=cleared_drafts,
        )
        try:
            await asyncio.to_thread(self.store.record, live.id, progress)
        except BaseException:
            # Memory may now be ahead of the store: forget it and rebuild from the store next time.
            self._forget(live)
            raise

    async def _notify(self, live: LiveGame) -> None:
        for listener in self._listeners:
            await listener(live)


def read_scenario(text: str, source: str = "uploaded scenario") -> Scenario:
    """A scenario file's TOML text, checked as ``vectorwar`` checks its own; raises :class:`BadSetup`.

    The file is self-contained: designs of its own go in its ``[designs]``
    table, the rest come from the system's catalogue. It is stored with the
    game, so the game resumes and replays without the file.
    """
    try:
        return scenario_from_toml(text, source, "custom")
    except ScenarioError as err:
        raise BadSetup(str(err)) from None


def _already_given(game: Game, seat: str, text: str, step: int) -> bool | None:
    """Whether this is a retry of ``seat``'s order for the prompt at ``step``.

    ``True``: that order was resolved; ``False``: it is waiting, unchanged;
    ``None``: it is a new order for the current prompt. Any other request
    written for a past prompt is stale (:class:`StalePrompt`): a retry repeats
    the text it sent, so a different text for a past step is not one.
    """
    now = len(game.history)
    current = None if game.clock is None else str(game.clock)
    if step == now and current is not None:
        waiting = game.pending.get(seat)
        if waiting is None:
            return None
        try:
            same = str(game.system.parse_order(game.state, seat, text)) == str(waiting)
        except ValueError:
            return None
        # A different plot replaces the waiting one, as the kernel allows until the last is in.
        return False if same else None
    if 0 <= step < now:
        given = dict(game.history[step].orders).get(seat)
        if given is not None and _same_text(given, text):
            return True
        note = f"; {seat}'s order then was {given!r}" if given is not None else ""
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


def _bots(available: Mapping[str, Callable[[], Bot]], controllers: Mapping[str, str]) -> dict[str, Bot]:
    bots: dict[str, Bot] = {}
    for seat, controller in controllers.items():
        if controller == HUMAN:
            continue
        name = controller.removeprefix(BOT_PREFIX)
        if not controller.startswith(BOT_PREFIX) or name not in available:
            known = ", ".join([HUMAN, *(BOT_PREFIX + b for b in available)])
            raise BadSetup(f"seat {seat}: no player {controller!r} (known: {known})")
        bots[seat] = available[name]()
    return bots


def _rebuild(stored: StoredGame) -> LiveGame:
    """Replay a stored game; the pending plots go back in as their authors gave them."""
    system = get_system(stored.system)
    scenario = scenario_from_data(stored.scenario, f"game {stored.id}: scenario")
    history = [OrderBatch(from_data(Clock, clock), tuple(orders)) for clock, orders in stored.batches]
    game = Game.replay(system, scenario, stored.seed, stored.options, history)
    for seat, (clock, text) in stored.pending.items():
        if str(game.clock) == clock:
            game.submit(seat, text)
    live = LiveGame(stored.id, game, dict(stored.controllers), dict(stored.tokens), dict(stored.drafts), {})
    live.bots = _bots(system.bots(), live.controllers)
    return live


@cache
def catalogue() -> list[dict[str, Any]]:
    """Every registered system with its bots, built-in scenarios and rule options, for the lobby."""
    paths = scenario_paths()
    out: list[dict[str, Any]] = []
    for name, system in systems().items():
        scenarios = []
        for sid, path in paths.items():
            try:
                sc = load_scenario(path)
            except ScenarioError:
                continue
            if sc.system == name:
                scenarios.append(
                    {
                        "id": sid,
                        "title": sc.title,
                        "description": sc.description,
                        "sides": [s.id for s in sc.sides],
                        "options": dict(sc.options),
                    }
                )
        options = [
            {"name": o.name, "default": o.default, "description": o.description, "choices": list(o.choices)}
            for o in system.manifest.options
        ]
        out.append(
            {
                "name": name,
                "title": system.manifest.title,
                "bots": list(system.bots()),
                "scenarios": scenarios,
                "options": options,
            }
        )
    return out
