"""The guided tutorials over HTTP: the list for the lobby, a tutorial's steps for its panel, starting
one, and the learner's progress and order checks, judged by :mod:`vectorwar.tutorial` (docs/web.md)."""

from __future__ import annotations

import asyncio
import functools
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from vectorwar.errors import TutorialError
from vectorwar.game import Game
from vectorwar.limits import MAX_ORDER_CHARS
from vectorwar.tutorial import Tutorial, builtin_tutorial, builtin_tutorials, check_action, progress
from vectorwar.web.responses import error, error_responses
from vectorwar.web.service import GameService
from vectorwar.web.tokens import Token

router = APIRouter(prefix="/api", tags=["tutorials"])

TutorialId = Annotated[str, Path(min_length=1, max_length=80, pattern=r"^[A-Za-z][A-Za-z0-9_-]*$")]


def _service(request: HTTPConnection) -> GameService:
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(_service)]


class TutorialCheckBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    side: str = Field(min_length=1, max_length=200)
    text: str = Field(max_length=MAX_ORDER_CHARS, description="The order the learner is about to give")


class TutorialOut(BaseModel):
    id: str
    title: str
    system: str
    scenario: str
    steps: int = Field(description="How many steps it has")


class StepOut(BaseModel):
    text: str
    highlight: list[str] = Field(description="CSS selectors of the controls to use, in order")
    look: str | None
    look_fallback: str
    after: str = Field(description="What happened, said once the step's order is played")


class TutorialStepsOut(BaseModel):
    id: str
    title: str
    system: str
    scenario: str
    side: str
    intro: str
    done: str
    steps: list[StepOut]


class StartedPlayerOut(BaseModel):
    sides: list[str]
    token: str
    url: str


class StartedOut(BaseModel):
    id: str
    players: list[StartedPlayerOut]
    spectate_url: str


class ProgressOut(BaseModel):
    index: int = Field(description="Steps played so far (the current step's index)")
    total: int
    finished: bool
    kind: str | None = Field(default=None, description="expected, unexpected, illegal or finished")
    ok: bool | None = None
    message: str | None = Field(default=None, description="The step's words, or the rules' refusal")
    canonical: str | None = None
    rule: str | None = None


class NotThisTutorial(Exception):
    """The game was not set up for the tutorial asked about."""


def _summary(t: Tutorial) -> dict[str, Any]:
    return {"id": t.id, "title": t.title, "system": t.system, "scenario": t.scenario, "steps": len(t.steps)}


def _tutorial(tutorial_id: str) -> Tutorial:
    try:
        return builtin_tutorial(tutorial_id)
    except TutorialError as err:
        raise LookupError(str(err)) from None


def _not_found(message: str) -> JSONResponse:
    return error(404, "NotFound", message)


@router.get("/tutorials", summary="The guided tutorials, one or more per rule system", response_model=list[TutorialOut])
async def list_tutorials() -> JSONResponse:
    return JSONResponse([_summary(t) for t in await asyncio.to_thread(builtin_tutorials)])


@router.get(
    "/tutorials/{tutorial_id}",
    summary="A tutorial's texts and the controls each step points at",
    response_model=TutorialStepsOut,
    responses=error_responses(404, 422),
)
async def tutorial_steps(tutorial_id: TutorialId) -> JSONResponse:
    try:
        t = await asyncio.to_thread(_tutorial, tutorial_id)
    except LookupError as err:
        return _not_found(str(err))
    steps = [
        {"text": s.text, "highlight": s.highlight, "look": s.look, "look_fallback": s.look_fallback, "after": s.after}
        for s in t.steps
    ]
    return JSONResponse({**_summary(t), "side": t.side, "intro": t.intro, "done": t.done, "steps": steps})


@router.post(
    "/tutorials/{tutorial_id}/start",
    status_code=201,
    summary="A new game set up for the tutorial",
    response_model=StartedOut,
    responses=error_responses(404, 413, 422),
)
async def start_tutorial(tutorial_id: TutorialId, service: Service) -> JSONResponse:
    try:
        t = await asyncio.to_thread(_tutorial, tutorial_id)
    except LookupError as err:
        return _not_found(str(err))
    sides = {t.side: "human", **t.sides}
    new = await service.create(t.scenario, sides, False, t.seed, {})
    players = [
        {"sides": list(p.sides), "token": p.token, "url": f"/games/{new.id}?token={p.token}&tutorial={t.id}"}
        for p in new.players
        # Sides the tutorial leaves out (AV:T's chocolates) are sides nobody plays: they never act.
        if t.side in p.sides
    ]
    return JSONResponse({"id": new.id, "players": players, "spectate_url": f"/games/{new.id}"}, status_code=201)


def _judge(t: Tutorial, text: str | None, game: Game) -> dict[str, Any]:
    if game.scenario.id != t.scenario:
        raise NotThisTutorial(f"this game plays {game.scenario.id}, not the tutorial {t.id}'s {t.scenario}")
    done = progress(t, game)
    answer: dict[str, Any] = {"index": done, "total": len(t.steps), "finished": done >= len(t.steps)}
    if text is not None:
        verdict = check_action(t, game, text)
        answer.update(
            kind=verdict.kind, ok=verdict.ok, message=verdict.message, canonical=verdict.canonical, rule=verdict.rule
        )
    return answer


async def _answer(
    service: GameService, game_id: str, token: str | None, side: str | None, t: Tutorial, text: str | None
) -> JSONResponse:
    try:
        found = await service.inspect(game_id, token, side, "checking the order", functools.partial(_judge, t, text))
    except NotThisTutorial as err:
        return error(422, "NotThisTutorial", str(err))
    return JSONResponse(found)


@router.get(
    "/games/{game_id}/tutorial/{tutorial_id}",
    summary="How far the learner has come in the tutorial",
    response_model=ProgressOut,
    responses=error_responses(404, 422),
)
async def tutorial_progress(game_id: str, tutorial_id: TutorialId, service: Service) -> JSONResponse:
    try:
        t = await asyncio.to_thread(_tutorial, tutorial_id)
    except LookupError as err:
        return _not_found(str(err))
    return await _answer(service, game_id, None, None, t, None)


@router.post(
    "/games/{game_id}/tutorial/{tutorial_id}/check",
    summary="Judge an order against the tutorial's step: expected, unexpected (explained) or illegal",
    response_model=ProgressOut,
    responses=error_responses(403, 404, 413, 422),
)
async def tutorial_check(
    game_id: str, tutorial_id: TutorialId, body: TutorialCheckBody, service: Service, token: Token
) -> JSONResponse:
    try:
        t = await asyncio.to_thread(_tutorial, tutorial_id)
    except LookupError as err:
        return _not_found(str(err))
    return await _answer(service, game_id, token, body.side, t, body.text)
