"""The FastAPI application: the HTTP API, the WebSocket and the browser UI's files (docs/web.md)."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator
from starlette.exceptions import HTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from vectorwar.autopilot import MAX_TARGET_CHARS, Flow, Standing
from vectorwar.errors import IllegalOrderError, OrderSyntaxError, SetupError
from vectorwar.limits import MAX_ORDER_CHARS, MAX_SIDES, MAX_TURNS, text_problem
from vectorwar.web import clock_api, imports, pbem, workshop
from vectorwar.web.botpool import BotPool
from vectorwar.web.chat import KEY_PATTERN, MAX_CHAT_CHARS, ChatForbidden, ChatKeyReused, ChatLine, ChatRefused
from vectorwar.web.clocks import PaceRefused, TimeSource, bots_of
from vectorwar.web.deadlines import Deadlines
from vectorwar.web.fanout import fanout_for
from vectorwar.web.hub import POLICY_VIOLATION, Hub, Viewer
from vectorwar.web.ratelimit import RateLimit, RateLimiter, RateLimits, SharedBuckets
from vectorwar.web.reminders import ContactRefused, Sender, Settings
from vectorwar.web.responses import error, error_responses
from vectorwar.web.rulebook import router as rulebook
from vectorwar.web.service import (
    Budgets,
    Created,
    GameNotFound,
    GameService,
    LiveGame,
    OverBudget,
    Player,
    PracticeGame,
    RematchRefused,
    SideForbidden,
    SideTaken,
    StaleGame,
    StalePrompt,
    Submitted,
    TooManyBotGames,
    catalogue,
)
from vectorwar.web.store import Store, default_db_url
from vectorwar.web.tokens import Token
from vectorwar.web.tutorials import router as tutorials

STATIC = Path(__file__).resolve().parent / "static"

ORDER_MAX = MAX_ORDER_CHARS  # the kernel refuses longer orders anyway; this answers before reading them
NAME_MAX = 200
SCENARIO_MAX = 60_000
#: No request the API takes comes near this; a larger body is refused before it is read.
BODY_MAX = 64 * 1024
#: Bytes of one message a client sends over a socket (it only ever sends a ping): larger ones
#: close the socket with 1009 unparsed. `vectorwar serve` has the server refuse them while
#: they arrive (uvicorn's ws_max_size); the check here holds under any server.
WS_MESSAGE_MAX = 4 * 1024
#: WebSocket close code for a message too big to take.
MESSAGE_TOO_BIG = 1009
#: Seconds a socket refused for being one too many is told to wait (a place frees when a page closes).
SOCKET_RETRY_AFTER_S = 10


#: Each client address's limits on creating games and on refused requests (docs/web.md, Deployment and limits).
DEFAULT_RATE_LIMITS = RateLimits()

#: Options one request may set (every system has far fewer).
OPTIONS_MAX = 64


def _plain_text(text: str) -> str:
    # No NUL (PostgreSQL refuses it: a 500 instead of a 422), no other control character but line
    # breaks and tabs, no direction override or zero-width character: the text reaches the
    # database, other players' screens and the logs. Lengths are the fields' own max_length.
    problem = text_problem(text, len(text), lines=True)
    if problem:
        raise ValueError(problem)
    return text


#: Text from a client that is stored or shown: refused when it holds what :func:`_plain_text` names.
PlainText = Annotated[str, AfterValidator(_plain_text)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewGameBody(_Body):
    scenario: str | None = Field(
        default=None, min_length=1, max_length=NAME_MAX, description="Built-in scenario id, e.g. vv5-dogfight"
    )
    scenario_toml: str | None = Field(
        default=None,
        min_length=1,
        max_length=SCENARIO_MAX,
        description="A scenario file's text (TOML, as `vectorwar schema scenario` describes), instead of `scenario`",
    )
    sides: dict[Annotated[str, Field(max_length=NAME_MAX)], Annotated[str, Field(max_length=NAME_MAX)]] = Field(
        default_factory=dict,
        max_length=MAX_SIDES,
        description='side -> "human", "open" (a human side left for anyone to join: no token is made for it) '
        'or "bot:NAME"; sides left out are human',
    )
    hotseat: bool = Field(default=False, description="One player (one token) holds every human side")
    seed: int | None = Field(
        default=None,
        ge=0,
        lt=2**63,
        description=(
            "The game's dice seed, to repeat a game: whoever knows it can foresee every roll, so the game is "
            "marked a practice game to every viewer (the scene's practice, the lobby list, the log). "
            "Left out, the server draws a secret 128-bit seed that no player is shown while the game is on"
        ),
    )
    options: dict[
        Annotated[str, Field(max_length=NAME_MAX)], bool | int | Annotated[str, Field(max_length=NAME_MAX)]
    ] = Field(default_factory=dict, max_length=OPTIONS_MAX, description="Rule options by name")
    pace: clock_api.PaceBody | None = Field(
        default=None,
        description="Deadlines or a clock for every side (docs/web.md, Deadlines and clocks); none: no hurry",
    )

    @model_validator(mode="after")
    def _one_scenario(self) -> NewGameBody:
        if (self.scenario is None) == (self.scenario_toml is None):
            raise ValueError("give either scenario (a built-in id) or scenario_toml (a scenario file's text)")
        return self


class OrderBody(_Body):
    side: str = Field(min_length=1, max_length=NAME_MAX)
    text: PlainText = Field(max_length=ORDER_MAX, description="The order in the system's notation")
    step: int = Field(
        ge=0,
        lt=2**31,
        description="The scene's step (resolved batches so far) the order was written for; a retry sends the same",
    )


class CheckBody(_Body):
    side: str = Field(min_length=1, max_length=NAME_MAX)
    text: PlainText = Field(max_length=ORDER_MAX)


class DraftBody(_Body):
    text: PlainText = Field(max_length=ORDER_MAX, description="The order being edited; empty deletes the draft")
    step: int | None = Field(
        default=None,
        ge=0,
        lt=2**31,
        description="The scene's step the draft was written at: a draft that arrives once that prompt has passed "
        "(it raced its own order) is dropped",
    )


class StandingBody(_Body):
    flow: Literal["ask", "decision"] = Field(
        default="ask",
        description="ask: stop at every prompt; decision: answer the prompts where nothing new is to be decided",
    )
    skip_through_turn: int = Field(
        default=0, ge=0, le=MAX_TURNS, description="Hold, with the standing fire, through the end of this turn"
    )
    fire_at: PlainText = Field(
        default="", max_length=MAX_TARGET_CHARS, description="Standing fire at this ship, * for any enemy, empty: none"
    )
    min_chance: int = Field(default=0, ge=0, le=100, description="The least chance, in percent, of a standing shot")
    now: bool = Field(default=False, description="Also answer the prompt this side owes now with the standing orders")


class ChatBody(_Body):
    side: str = Field(min_length=1, max_length=NAME_MAX, description="The side speaking: one the token holds")
    # Longer than a line may be, so that the refusal can name the limit (MAX_CHAT_CHARS) and the length.
    text: str = Field(max_length=4 * MAX_CHAT_CHARS, description=f"At most {MAX_CHAT_CHARS} characters")
    key: str | None = Field(
        default=None,
        pattern=KEY_PATTERN,
        description="An id the client makes for the line (8-64 letters, digits, - or _; e.g. a UUID); a retry "
        "sends the same key and is answered the stored line (200) instead of storing it twice",
    )


class SideBody(_Body):
    side: str = Field(min_length=1, max_length=NAME_MAX, description="The side acting: one the token holds")


class JoinBody(SideBody):
    practice: bool = Field(
        default=False,
        description=(
            "Consent to play a practice game, whose creator fixed the dice seed and so can foresee every roll: "
            "joining such a game without it is refused (409 PracticeGame)"
        ),
    )


# Answers, as OpenAPI shows them (the routes return JSON directly, already in these shapes).


class PlayerOut(BaseModel):
    sides: list[str]
    token: str = Field(description="Keep it secret: it acts for these sides")
    url: str = Field(description="The player's game page, /games/{id}?token=TOKEN")


class OpenGameOut(BaseModel):
    id: str
    system: str
    scenario: str
    title: str
    free: list[str] = Field(description="The sides nobody holds yet: POST /api/games/{id}/join takes one")
    created: str = Field(description="When the game was created (ISO 8601, UTC)")
    practice: bool = Field(description="Its creator fixed the seed: join with practice set to agree to that")
    pace: str | None = Field(
        default=None, description='The table\'s pace in words ("1 day a decision"); none: no hurry'
    )


class RematchOut(PlayerOut):
    id: str = Field(description="The rematch's game id")


class CreatedOut(BaseModel):
    id: str
    players: list[PlayerOut]
    spectate_url: str


class ScenarioOut(BaseModel):
    id: str
    title: str
    description: str
    sides: list[str]
    options: dict[str, bool | int | str] = Field(description="Options the scenario sets over the system's defaults")


class OptionOut(BaseModel):
    name: str
    default: bool | int | str
    description: str
    choices: list[bool | int | str] = Field(
        description="The allowed values; empty when any value of the default's type is (within least and most)"
    )
    least: int | None = Field(default=None, description="A number option's smallest value (without choices)")
    most: int | None = Field(default=None, description="A number option's largest value (without choices)")


class SystemOut(BaseModel):
    name: str
    title: str
    bots: list[str]
    scenarios: list[ScenarioOut]
    options: list[OptionOut] = Field(description="Optional and house rules a game may set in POST /api/games")


class GameOut(BaseModel):
    id: str
    system: str
    scenario: str
    title: str
    turn: int
    over: bool
    sides: dict[str, str] = Field(description='side -> "human" or "bot:NAME"')
    practice: bool = Field(description="Its creator fixed the seed, so can foresee every roll")
    pace: str | None = Field(
        default=None, description='The table\'s pace in words ("1 day a decision"); none: no hurry'
    )


class OrderOut(BaseModel):
    accepted: bool
    resolved: bool = Field(description="This order completed its prompt, which was resolved")
    duplicate: bool = Field(description="A retry of an order already accepted for that step; nothing changed")
    scene: dict[str, Any] = Field(description="The caller's scene after the order and the bots' answers")


class CheckOut(BaseModel):
    ok: bool
    canonical: str


class TimelineStep(BaseModel):
    step: int = Field(description="Index of the batch in the game's history (0 is the first)")
    clock: str = Field(description="The prompt the batch answered, e.g. 'turn 2, segment 3, orders'")
    turn: int
    segment: int = Field(description="AV:T's segment (1-8); 0 in systems without segments")


class TimelineOut(BaseModel):
    steps: list[TimelineStep]


class ChatLineOut(BaseModel):
    n: int = Field(description="The line's number in the game's chat, 1 for the first")
    side: str
    text: str = Field(description="As typed (trimmed): plain text, to be shown escaped")
    at: str = Field(description="When the server stored it (ISO 8601, UTC)")


class ChatOut(BaseModel):
    lines: list[ChatLineOut]


_errors = error_responses


SCENE_DOC = "The viewer's scene (docs/web.md, The scene)"


def create_app(
    db_url: str | None = None,
    budgets: Budgets | None = None,
    bot_workers: int = 0,
    reminders: Settings | None = None,
    time: TimeSource | None = None,
    deadline_every: float = 30.0,
    rate_limits: RateLimits | None = DEFAULT_RATE_LIMITS,
) -> FastAPI:
    """The server's application on the database at ``db_url`` (default: SQLite in the user data dir).

    ``budgets``: how long each kind of game work may take (:class:`Budgets`; tests set small ones).
    ``bot_workers``: worker processes for the computer players' decisions (``vectorwar serve``
    starts one a core but one); 0 keeps them on the server's threads.
    ``reminders``: the operator's SMTP server and webhook choice (none: no reminders leave the server);
    ``time``: where the deadlines read the time (tests give a clock they move); ``deadline_every``:
    seconds between the background checks of the deadlines.
    ``rate_limits``: how many games and refused requests one client address may have (:class:`RateLimits`);
    ``None`` sets none (only for a test that floods the server on purpose).
    """
    store = Store(db_url or default_db_url())
    service = GameService(store, budgets=budgets, bot_pool=BotPool(bot_workers) if bot_workers > 0 else None)
    hub = Hub(service.viewer_scenes)
    service.on_change(hub.publish)
    deadlines = Deadlines(service, time, Sender(reminders or Settings()))

    async def chat_to_hub(live: LiveGame, line: ChatLine) -> None:
        hub.chat(live, line)

    service.on_chat(chat_to_hub)
    # Other servers on the same PostgreSQL: their changes reach this one's sockets (docs/web.md, Several processes).
    fanout = fanout_for(store, service, hub)
    # On PostgreSQL the per-address buckets are the database's, shared with the other servers (web/ratelimit.py).
    shared_limits = SharedBuckets.on(store.url, rate_limits) if rate_limits is not None and store.announces else None

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if service.bot_pool is not None:
            # Before the first request: a worker starts by loading every rule system.
            await asyncio.to_thread(service.bot_pool.warm)
        watch = asyncio.get_running_loop().create_task(deadlines.run(deadline_every), name="vectorwar-deadlines")
        if fanout is not None:
            await fanout.start()
        yield
        watch.cancel()
        if fanout is not None:
            await fanout.stop()
        service.close()
        if shared_limits is not None:
            shared_limits.close()
        store.close()

    app = FastAPI(
        title="vectorwar",
        summary="Tactical starship combat in the browser: games, orders, live scenes.",
        lifespan=lifespan,
        # Any request may meet its address's rate limits (web/ratelimit.py).
        responses=error_responses(429) if rate_limits is not None else None,
    )
    app.state.service = service
    app.state.store = store
    app.state.hub = hub
    app.state.deadlines = deadlines
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    _error_handlers(app)
    wider = {"/api/pbem/": pbem.PBEM_BODY_MAX, imports.IMPORT_PATH: imports.MAX_IMPORT_BYTES}
    app.add_middleware(BodyLimit, limit=BODY_MAX, wider=wider)
    if rate_limits is not None:
        # Outside the body limit: an address past its limits is answered before its body is read.
        app.state.rate_limiter = RateLimiter(rate_limits)
        app.state.shared_limits = shared_limits
        app.add_middleware(RateLimit, limiter=app.state.rate_limiter, shared=shared_limits)
    for router in (pages, lobby, games, clock_api.router, sockets, tutorials, rulebook):
        app.include_router(router)
    pbem.install(app)
    workshop.install(app, store)
    return app


def _service(request: HTTPConnection) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(_service)]


def _deadlines(request: HTTPConnection) -> Deadlines:
    deadlines: Deadlines = request.app.state.deadlines
    return deadlines


DeadlinesDep = Annotated[Deadlines, Depends(_deadlines)]

# -- the browser's pages -----------------------------------------------------

pages = APIRouter(include_in_schema=False)


@pages.get("/")
async def index() -> Response:
    return _page("index.html")


@pages.get("/workshop")
async def workshop_page() -> Response:
    return _page("workshop.html")


@pages.get("/pbem")
async def pbem_page() -> Response:
    return _page("pbem.html")


@pages.get("/games/{game_id}")
async def game_page(game_id: str, service: Service) -> Response:
    try:
        await service.get(game_id)
    except GameNotFound:
        return HTMLResponse(_NO_GAME.format(game=html.escape(game_id[:40])), status_code=404)
    return _page("game.html")


# -- the lobby: systems, games, creating one --------------------------------

lobby = APIRouter(prefix="/api", tags=["lobby"])


@lobby.get("/systems", summary="Rule systems, their bots and built-in scenarios", response_model=list[SystemOut])
async def list_systems() -> JSONResponse:
    return JSONResponse(await asyncio.to_thread(catalogue))


@lobby.get("/games", summary="Games on this server, newest first", response_model=list[GameOut])
async def list_games(service: Service, deadlines: DeadlinesDep) -> JSONResponse:
    fields = ("id", "system", "scenario", "title", "turn", "over", "sides", "practice")
    found = await service.games()
    paces = await deadlines.paces([g.id for g in found])
    return JSONResponse(
        [{**{f: getattr(g, f) for f in fields}, "pace": clock_api.pace_words(paces, g.id)} for g in found]
    )


#: The most games GET /api/games/open lists (of the newest 200 not over).
OPEN_GAMES_MAX = 50


@lobby.get(
    "/games/open",
    summary="Games not over with sides nobody holds yet, newest first",
    response_model=list[OpenGameOut],
)
async def list_open_games(service: Service, deadlines: DeadlinesDep) -> JSONResponse:
    found = (await service.open_games())[:OPEN_GAMES_MAX]
    paces = await deadlines.paces([g.id for g in found])
    return JSONResponse(
        [
            {
                "id": g.id,
                "system": g.system,
                "scenario": g.scenario,
                "title": g.title,
                "free": list(g.free),
                "created": g.created.isoformat(),
                "practice": g.practice,
                "pace": clock_api.pace_words(paces, g.id),
            }
            for g in found
        ]
    )


@lobby.post(
    "/games",
    status_code=201,
    summary="Create a game; answers one token per player",
    response_model=CreatedOut,
    responses=_errors(413, 422, 429),
)
async def new_game(body: NewGameBody, request: Request, service: Service, deadlines: DeadlinesDep) -> JSONResponse:
    pace = None if body.pace is None else body.pace.pace()
    if pace is not None:
        # Before the game is stored: a pace the game cannot keep leaves nothing behind.
        with contextlib.suppress(SetupError):  # an unknown scenario is the set-up's to refuse, as without a pace
            pace.check_bot(await asyncio.to_thread(bots_of, body.scenario or "", body.scenario_toml))
    new = await service.create(
        body.scenario or "",
        body.sides,
        body.hotseat,
        body.seed,
        body.options,
        scenario_toml=body.scenario_toml,
        client=request.client.host if request.client is not None else None,
    )
    if pace is not None:
        await deadlines.start(new.id, pace)
    return _created(new)


@lobby.post(
    "/quickstart",
    status_code=201,
    summary="A VV5 Dogfight against the greedy bot, for newcomers",
    response_model=CreatedOut,
)
async def quickstart(service: Service) -> JSONResponse:
    return _created(await service.quickstart())


def _player_out(game_id: str, player: Player) -> dict[str, Any]:
    return {"sides": list(player.sides), "token": player.token, "url": f"/games/{game_id}?token={player.token}"}


def _created(new: Created) -> JSONResponse:
    players = [_player_out(new.id, p) for p in new.players]
    return JSONResponse({"id": new.id, "players": players, "spectate_url": f"/games/{new.id}"}, status_code=201)


# -- one game: its scene, orders, drafts, replay -----------------------------

games = APIRouter(prefix="/api/games/{game_id}", tags=["game"])


@games.get(
    "",
    summary="The scene the caller's token may see",
    response_description=SCENE_DOC,
    responses=_errors(404, 422),
)
async def game_scene(game_id: str, token: Token, service: Service) -> Response:
    return _json_text(await service.scene(game_id, token))


@games.post(
    "/orders",
    summary="Give a side's order for the prompt at step",
    response_model=OrderOut,
    responses=_errors(400, 403, 404, 409, 413, 422),
)
async def give_order(game_id: str, body: OrderBody, token: Token, service: Service) -> Response:
    return _order_answer(await service.submit(game_id, token, body.side, body.text, body.step))


def _order_answer(done: Submitted) -> Response:
    head = json.dumps({"accepted": True, "resolved": done.resolved, "duplicate": done.duplicate})
    # The scene is JSON text already (the same text the sockets get): spliced in, not re-encoded.
    return _json_text(head[:-1] + ', "scene": ' + done.scene_text + "}")


@games.post(
    "/check",
    summary="Check an order without giving it",
    response_model=CheckOut,
    responses=_errors(400, 403, 404, 413, 422),
)
async def check_order(game_id: str, body: CheckBody, token: Token, service: Service) -> JSONResponse:
    canonical = await service.check(game_id, token, body.side, body.text)
    return JSONResponse({"ok": True, "canonical": canonical})


@games.delete(
    "/orders/{side}",
    status_code=204,
    summary="Take back an unresolved plot",
    responses=_errors(403, 404),
)
async def withdraw(game_id: str, side: str, token: Token, service: Service) -> Response:
    await service.withdraw(game_id, token, side)
    return Response(status_code=204)


@games.put(
    "/drafts/{side}",
    status_code=204,
    summary="Keep the order being edited",
    responses=_errors(403, 404, 413),
)
async def put_draft(game_id: str, side: str, body: DraftBody, token: Token, service: Service) -> Response:
    await service.set_draft(game_id, token, side, body.text, body.step)
    return Response(status_code=204)


@games.put(
    "/standing/{side}",
    summary="Leave standing orders for a side: skip to the next decision or the end of the turn, standing fire",
    response_model=OrderOut,
    responses=_errors(400, 403, 404, 409, 413, 422),
)
async def put_standing(game_id: str, side: str, body: StandingBody, token: Token, service: Service) -> Response:
    standing = Standing(Flow(body.flow), body.skip_through_turn, body.fire_at, body.min_chance)
    return _order_answer(await service.set_standing(game_id, token, side, standing, now=body.now))


@games.get(
    "/replay",
    summary="The spectator's scene after N resolved order batches",
    response_description=SCENE_DOC,
    responses=_errors(404, 422),
)
async def replay(game_id: str, service: Service, step: Annotated[int, Query(ge=0)] = 0) -> JSONResponse:
    scene = await service.replay(game_id, step)
    if scene is None:
        return error(404, "NoSuchStep", f"game {game_id} has no step {step}")
    return JSONResponse(scene)


@games.get(
    "/timeline",
    summary="Each resolved order batch's clock, for scrubbing a replay by turn or segment",
    response_model=TimelineOut,
    responses=_errors(404),
)
async def timeline(game_id: str, service: Service) -> JSONResponse:
    return JSONResponse({"steps": await service.timeline(game_id)})


@games.get(
    "/chat",
    summary="The chat between the game's sides (players only)",
    response_model=ChatOut,
    responses=_errors(403, 404),
)
async def read_chat(game_id: str, token: Token, service: Service) -> JSONResponse:
    return JSONResponse({"lines": [line.data() for line in await service.chat(game_id, token)]})


@games.post(
    "/chat",
    status_code=201,
    summary="Say a line to the game's other sides; live viewers holding a side get it over the socket",
    response_model=ChatLineOut,
    responses=_errors(403, 404, 409, 413, 422),
)
async def say(game_id: str, body: ChatBody, token: Token, service: Service) -> JSONResponse:
    line, new = await service.say(game_id, token, body.side, body.text, body.key)
    return JSONResponse(line.data(), status_code=201 if new else 200)


# -- ending a game outside the rules (docs/web.md, *Ending a game*) ------------


class SceneOut(BaseModel):
    scene: dict[str, Any] = Field(description="The caller's scene afterwards (every socket of the game gets its own)")


def _scene_answer(scene_text: str) -> Response:
    return _json_text('{"scene": ' + scene_text + "}")


@games.post(
    "/concede",
    summary="Concede the game for a side: the other sides win",
    response_model=SceneOut,
    responses=_errors(400, 403, 404, 422),
)
async def concede(game_id: str, body: SideBody, token: Token, service: Service) -> Response:
    return _scene_answer(await service.concede(game_id, token, body.side))


@games.post(
    "/end-offer",
    summary="Offer to end the game as a draw, or accept the open offer; it ends when every side agrees",
    response_model=SceneOut,
    responses=_errors(400, 403, 404, 422),
)
async def offer_end(game_id: str, body: SideBody, token: Token, service: Service) -> Response:
    return _scene_answer(await service.offer_end(game_id, token, body.side))


@games.post(
    "/end-offer/decline",
    summary="Decline the open offer to end the game; play goes on",
    response_model=SceneOut,
    responses=_errors(400, 403, 404, 422),
)
async def decline_end(game_id: str, body: SideBody, token: Token, service: Service) -> Response:
    return _scene_answer(await service.decline_end(game_id, token, body.side))


# -- open sides and rematches (docs/web.md, *Open sides and rematches*) ------------


@games.post(
    "/join",
    status_code=201,
    summary="Take a side nobody holds yet; answers its token, once",
    response_model=PlayerOut,
    responses=_errors(404, 409, 413, 422),
)
async def join(game_id: str, body: JoinBody, service: Service) -> JSONResponse:
    player = await service.join(game_id, body.side, practice=body.practice)
    return JSONResponse(_player_out(game_id, player), status_code=201)


@games.post(
    "/rematch",
    summary="Start the finished game's rematch (the same scenario, the sides swapped), or take your side in it",
    response_model=RematchOut,
    responses=_errors(403, 404, 409, 413, 422),
)
async def rematch(
    game_id: str, body: SideBody, token: Token, service: Service, deadlines: DeadlinesDep
) -> JSONResponse:
    new_id, player = await service.rematch(game_id, token, body.side)
    await deadlines.follow(game_id, new_id)
    return JSONResponse({"id": new_id, **_player_out(new_id, player)})


# -- live scenes over a WebSocket ---------------------------------------------

sockets = APIRouter()


@sockets.websocket("/ws/games/{game_id}")
async def live_scenes(websocket: WebSocket, game_id: str, service: Service) -> None:
    hub: Hub = websocket.app.state.hub
    client = websocket.client.host if websocket.client is not None else ""
    problem = hub.admit(game_id, client)
    if problem:
        await _refuse_socket(websocket, problem)
        return
    viewer: Viewer | None = None
    try:
        await websocket.accept()
        token = websocket.query_params.get("token")
        # Read for this viewer's sides only (another side's secrets may be older here: they show to it alone).
        async with service.locked(game_id, lambda table: table.sides_of(token)) as live:
            viewer = Viewer(websocket, live.sides_of(token), client)
            # Joined under the game's lock, so no change slips between this scene and the next.
            hub.join(game_id, viewer, admitted=True)
            viewer.offer_scene(await service.viewer_scene(live, viewer.sides))
    except BaseException as err:
        # The place admitted goes back however the opening failed (a client gone, a server stopping).
        if viewer is None:
            hub.release(game_id, client)
        else:
            hub.leave(game_id, viewer)
        if isinstance(err, GameNotFound):
            await websocket.close(code=4404, reason=str(err))
        elif isinstance(err, OverBudget):
            await websocket.close(code=1013, reason="building the scene took too long; try again later")
        else:
            raise
        return
    if viewer is None:  # pragma: no cover - the block above either joins a viewer or returns
        return
    pump = asyncio.create_task(hub.pump(viewer))
    try:
        while True:
            raw = await websocket.receive()
            if raw["type"] == "websocket.disconnect":
                break
            text, data = raw.get("text"), raw.get("bytes")
            if len(text or "") > WS_MESSAGE_MAX or len(data or b"") > WS_MESSAGE_MAX:
                # Never parsed: a client only ever sends a ping of a few bytes.
                await websocket.close(code=MESSAGE_TOO_BIG, reason=f"a message may be at most {WS_MESSAGE_MAX} bytes")
                break
            await viewer.send(_answer(text))
    except WebSocketDisconnect:
        pass
    finally:
        hub.leave(game_id, viewer)
        pump.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pump


async def _refuse_socket(websocket: WebSocket, problem: str) -> None:
    """Refuse a socket one too many before its handshake: a 429 answer, so a burst of them costs little.

    A server without the ASGI denial-response extension gets the socket accepted and closed
    with the policy-violation code instead.
    """
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        answer = error(429, "TooManySockets", problem)
        answer.headers["Retry-After"] = str(SOCKET_RETRY_AFTER_S)
        await websocket.send_denial_response(answer)
        return
    await websocket.accept()
    await websocket.close(code=POLICY_VIOLATION, reason=problem)


def _answer(text: str | None) -> dict[str, Any]:
    """The answer to a client's message: clients only ever need to ping."""
    try:
        message = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):  # RecursionError: nested past the parser's depth
        message = None
    if isinstance(message, dict) and message.get("type") == "ping":
        return {"type": "pong"}
    return {"type": "error", "message": 'the socket only takes {"type": "ping"}; send orders with POST'}


_NO_GAME = """<!doctype html><html lang="en"><meta charset="utf-8"><title>No such game - vectorwar</title>
<body><h1>No such game</h1><p>This server has no game <code>{game}</code>.
<a href="/">Back to the lobby</a>.</p></body></html>"""


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413, whether or not they say their length.

    ``wider``: larger limits for paths under a prefix (play by e-mail brings a whole game file).
    """

    def __init__(self, app: ASGIApp, limit: int, wider: dict[str, int] | None = None) -> None:
        self.app = app
        self.default = limit
        self.wider = dict(wider or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))
        limit = next((n for prefix, n in self.wider.items() if path.startswith(prefix)), self.default)
        length = dict(scope["headers"]).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await self._refuse(limit, scope, receive, send)
            return
        # A body sent in chunks is read here, up to the limit, and handed on whole.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            if size > limit:
                await self._refuse(limit, scope, receive, send)
                return
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, limit: int, scope: Scope, receive: Receive, send: Send) -> None:
        answer = error(413, "TooLarge", f"a request body may be at most {limit} bytes")
        await answer(scope, receive, send)


def _json_text(text: str) -> Response:
    return Response(text, media_type="application/json")


def _page(name: str) -> Response:
    path = STATIC / name
    if not path.is_file():
        return error(404, "NotFound", f"the browser UI has no {name} yet")
    return FileResponse(path)


def _framework_handlers(app: FastAPI) -> None:
    """The framework's own refusals in the shape every other error has."""

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, err: Exception) -> JSONResponse:
        if not isinstance(err, RequestValidationError):  # pragma: no cover - registered for this type
            raise err
        # Where and what, never the value sent back: a client may have sent anything.
        fields = [
            {"where": ".".join(str(part) for part in e.get("loc", ())), "problem": str(e.get("msg", "invalid"))}
            for e in err.errors()
        ]
        message = "; ".join(f"{f['where']}: {f['problem']}" for f in fields) or "the request is malformed"
        return error(422, "InvalidRequest", message, fields=fields)

    @app.exception_handler(HTTPException)
    async def framework(_request: Request, err: Exception) -> JSONResponse:
        # The framework's own refusals (a body that is not JSON text, an unknown route) in the same
        # shape as every other error, which the schema promises, instead of its {"detail": ...}.
        if not isinstance(err, HTTPException):  # pragma: no cover - registered for this type
            raise err
        if err.status_code == 400:
            # A body the framework could not even decode (not UTF-8, nested past the parser's
            # depth): malformed like any other bad body, so the same 422 every route documents.
            problem = f"cannot be read as JSON: {err.detail}"
            return error(422, "InvalidRequest", f"body: {problem}", fields=[{"where": "body", "problem": problem}])
        kind = {404: "NotFound", 405: "MethodNotAllowed"}.get(err.status_code, "HTTPError")
        answer = error(err.status_code, kind, str(err.detail))
        answer.headers.update(err.headers or {})
        return answer


#: Refusals answered with a status, a type and the error's own words, nothing more.
_PLAIN_REFUSALS: dict[type[Exception], tuple[int, str]] = {
    GameNotFound: (404, "NotFound"),
    SideForbidden: (403, "Forbidden"),
    ChatForbidden: (403, "Forbidden"),
    ChatKeyReused: (409, "ChatKeyReused"),
    SideTaken: (409, "SideTaken"),
    PracticeGame: (409, "PracticeGame"),
    PaceRefused: (422, "BadPace"),
    ContactRefused: (422, "BadContact"),
    RematchRefused: (409, "NotOver"),
    OverBudget: (422, "OverBudget"),
}


def _plain_refusal(status: int, kind: str) -> Callable[[Request, Exception], Awaitable[JSONResponse]]:
    async def refused(_request: Request, err: Exception) -> JSONResponse:
        return error(status, kind, str(err))

    return refused


def _error_handlers(app: FastAPI) -> None:
    _framework_handlers(app)
    for refusal, (status, kind) in _PLAIN_REFUSALS.items():
        app.add_exception_handler(refusal, _plain_refusal(status, kind))

    @app.exception_handler(OrderSyntaxError)
    async def syntax(_request: Request, err: Exception) -> JSONResponse:
        if not isinstance(err, OrderSyntaxError):  # pragma: no cover - registered for this type
            raise err
        return error(400, type(err).__name__, str(err), input=err.text, rule=None)

    @app.exception_handler(IllegalOrderError)
    async def illegal(_request: Request, err: Exception) -> JSONResponse:
        if not isinstance(err, IllegalOrderError):  # pragma: no cover - registered for this type
            raise err
        return error(400, type(err).__name__, str(err), input=err.order, rule=err.rule)

    @app.exception_handler(ChatRefused)
    async def chat_refused(_request: Request, err: Exception) -> JSONResponse:
        if not isinstance(err, ChatRefused):  # pragma: no cover - registered for this type
            raise err
        return error(422, "ChatRefused", str(err), rule=err.limit.name)

    @app.exception_handler(StaleGame)
    async def changed_meanwhile(_request: Request, err: Exception) -> JSONResponse:
        # Other servers changed the game first, try after try (web/service.py, STALE_TRIES): nothing
        # of this request was written, and sending it again is safe (an order names its step).
        answer = error(503, "GameChanged", f"{err}; nothing was written, send the request again")
        answer.headers["Retry-After"] = "1"
        return answer

    @app.exception_handler(StalePrompt)
    async def stale(_request: Request, err: Exception) -> JSONResponse:
        if not isinstance(err, StalePrompt):  # pragma: no cover - registered for this type
            raise err
        return error(409, "StalePrompt", str(err), step=err.step, clock=err.clock)

    @app.exception_handler(SetupError)
    async def bad_setup(_request: Request, err: Exception) -> JSONResponse:
        # The kernel's set-up error, word for word as the command line prints it.
        return error(422, "BadSetup", str(err))

    @app.exception_handler(TooManyBotGames)
    async def too_many_bot_games(_request: Request, err: Exception) -> JSONResponse:
        if not isinstance(err, TooManyBotGames):  # pragma: no cover - registered for this type
            raise err
        answer = error(429, "TooManyBotGames", str(err))
        answer.headers["Retry-After"] = str(max(1, round(err.retry_after)))
        return answer
