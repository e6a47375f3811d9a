"""Play by e-mail in the browser: a stateless API over the kernel's protocol (docs/pbem.md).

Every request brings the game file and the caller's keyring and gets the new
ones back; the server keeps nothing, so any vectorwar server (the player's own
``vectorwar serve`` first of all) can do the hashing and the legality checks
with the same code as the command line. The salts and secrets are drawn here,
from the operating system's secret source, and returned in the keyring only.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from vectorwar.errors import PbemError, PbemFileError, ScenarioError, SetupError
from vectorwar.limits import MAX_ORDER_CHARS
from vectorwar.pbem import (
    GAME_ID_DIGITS,
    HEX_DIGITS,
    MAX_DEADLINE_HOURS,
    Keyring,
    PbemGame,
    check_keyring,
    game_from_data,
    keyring_from_data,
    new_keyring,
    rebuild,
    time_text,
)
from vectorwar.scene import build_scene
from vectorwar.setup import find_scenario, system_of
from vectorwar.setup import game_options as checked_options
from vectorwar.web.responses import error, error_responses
from vectorwar.web.service_core import within_budget

R = TypeVar("R")

#: A game file of a long AV:T game runs to a few hundred kilobytes; this leaves room and still bounds the work.
PBEM_BODY_MAX = 4 * 1024 * 1024
#: Seconds one request may spend replaying and checking a file before it is refused.
PBEM_BUDGET = 10.0
NAME_MAX = 200


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class NewBody(_Body):
    scenario: str = Field(min_length=1, max_length=NAME_MAX, description="Built-in scenario id")
    side: str = Field(min_length=1, max_length=NAME_MAX, description="The creator's side")
    max_turns: int | None = Field(default=None, ge=1, le=200, description="End the game after this turn")
    options: dict[str, bool | int | str] = Field(default_factory=dict, description="Rule options by name")
    deadline_hours: int | None = Field(
        default=None, ge=1, le=MAX_DEADLINE_HOURS, description="Hours a step may wait for a side before a claim"
    )
    whole_turns: bool = Field(
        default=False, description="One file a turn: each plot's standing fire answers the turn's later prompts"
    )


class SideBody(_Body):
    file: dict[str, Any] = Field(description="The game file, as JSON")
    side: str = Field(min_length=1, max_length=NAME_MAX)
    keyring: dict[str, Any] | None = Field(
        default=None, description="The side's keyring; left out, a new one (the side has not committed yet)"
    )


class PlotBody(SideBody):
    order: str = Field(default="", max_length=MAX_ORDER_CHARS, description="The side's orders; empty when it has none")


class TurnBody(SideBody):
    order: str | None = Field(
        default=None,
        max_length=MAX_ORDER_CHARS,
        description="The orders for the step the side commits to; left out, the pass stops where they are needed",
    )


class PbemOut(BaseModel):
    file: dict[str, Any] = Field(description="The new game file: offer it for download and pass it on")
    keyring: dict[str, Any] = Field(description="The side's new keyring: keep it, never pass it on")
    view: dict[str, Any] = Field(description="What the side sees: step, who owes what, its sealed plot, the scene")
    events: list[str] = Field(default_factory=list, description="What a reveal that resolved the step did, in words")


_REFUSALS = error_responses(400, 409, 413, 422)

router = APIRouter(prefix="/api/pbem", tags=["play by e-mail"])


def install(app: FastAPI, clock: Callable[[], float] = time.time) -> None:
    """The routes and the answers to the protocol's refusals; ``clock`` is the time the server records.

    The server's clock stands for the player's machine: the time an action records, and the time a
    keyring notes when its player first saw a file (which a claim against the side is checked against).
    """
    app.state.pbem_clock = clock
    app.include_router(router)

    @app.exception_handler(PbemError)
    async def refused(_request: Request, err: Exception) -> JSONResponse:
        # A file that cannot be read is a bad request body; any other refusal is the file's state
        # against the step asked for (an old file, a wrong reveal, a second commitment...).
        status = 422 if isinstance(err, PbemFileError) else 409
        return error(status, type(err).__name__, str(err))


async def _off_loop(fn: Callable[..., R], *args: Any) -> R:
    return await within_budget(PBEM_BUDGET, _over_budget, fn, *args)


def _over_budget(seconds: float) -> PbemFileError:
    return PbemFileError(f"checking the file took longer than the server's budget of {seconds:g} s")


@router.post(
    "/new",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="A new game file, with the creator's set-up secret committed",
)
async def new(body: NewBody, request: Request) -> JSONResponse:
    return JSONResponse(await _off_loop(_new, body, _now(request)))


@router.post(
    "/view",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="The side's view of a game file (the keyring, if given, is checked and updated)",
)
async def view(body: SideBody, request: Request) -> JSONResponse:
    return JSONResponse(await _off_loop(_view, body, _now(request)))


@router.post(
    "/plot",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="Commit the side's orders: the file gets their hash, the keyring the rest",
)
async def plot(body: PlotBody, request: Request) -> JSONResponse:
    return JSONResponse(await _off_loop(_plot, body, _now(request)))


@router.post(
    "/reveal",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="Reveal the side's committed orders; the last reveal resolves the step",
)
async def reveal(body: SideBody, request: Request) -> JSONResponse:
    return JSONResponse(await _off_loop(_reveal, body, _now(request)))


@router.post(
    "/turn",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="Everything the side owes in one pass: reveal, then commit the orders given, revealed at once if last",
)
async def turn(body: TurnBody, request: Request) -> JSONResponse:
    return JSONResponse(await _off_loop(_turn, body, _now(request)))


@router.post(
    "/claim",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="Claim the step against the silent sides after the deadline, then the rest of the side's pass",
)
async def claim(body: TurnBody, request: Request) -> JSONResponse:
    return JSONResponse(await _off_loop(_claim, body, _now(request)))


@router.post(
    "/concede",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="The side gives the game up: it ends now and the other sides win",
)
async def concede(body: SideBody, request: Request) -> JSONResponse:
    return JSONResponse(await _off_loop(_concede, body, _now(request)))


@router.post(
    "/draw",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="The side offers to end the game as a draw, or agrees to the open offer",
)
async def draw(body: SideBody, request: Request) -> JSONResponse:
    return JSONResponse(await _off_loop(_draw, body, _now(request)))


@router.post(
    "/rebuild",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="The file the side sent last, rebuilt from the file that pass answered and the side's keyring",
)
async def rebuild_file(body: SideBody, request: Request) -> JSONResponse:
    return JSONResponse(await _off_loop(_rebuild, body, _now(request)))


def _now(request: Request) -> int:
    return int(request.app.state.pbem_clock())


def _stamp(pbem: PbemGame, now: int) -> int | None:
    """The time an action records: none in a game with no deadline, and never before the file's last one."""
    return None if pbem.deadline_hours is None else max(now, pbem.last_time or 0)


def _new(body: NewBody, now: int) -> dict[str, Any]:
    scenario = find_scenario(body.scenario)
    if body.max_turns is not None:
        scenario = scenario.model_copy(update={"max_turns": body.max_turns})
    options = checked_options(system_of(scenario), scenario, body.options)
    try:
        pbem = PbemGame.new(
            scenario, secrets.token_hex(GAME_ID_DIGITS // 2), options, body.deadline_hours, body.whole_turns
        )
    except ScenarioError as err:
        raise SetupError(str(err)) from None
    if body.side not in pbem.sides:
        raise SetupError(f"scenario {scenario.id} has no side {body.side!r} (sides: {', '.join(pbem.sides)})")
    keyring = _commit(pbem, new_keyring(pbem, body.side), "", _stamp(pbem, now)).saw(pbem, now)
    return _answer(pbem, keyring, now)


def _view(body: SideBody, now: int) -> dict[str, Any]:
    pbem, keyring = _open(body, now)
    return _answer(pbem, keyring, now)


def _plot(body: PlotBody, now: int) -> dict[str, Any]:
    pbem, keyring = _open(body, now)
    return _answer(pbem, _commit(pbem, keyring, body.order, _stamp(pbem, now)), now)


def _reveal(body: SideBody, now: int) -> dict[str, Any]:
    pbem, keyring = _open(body, now)
    _, events = pbem.reveal_sealed(keyring, _stamp(pbem, now))
    return {**_answer(pbem, keyring.saw(pbem, now), now), "events": [e.describe() for e in events]}


def _turn(body: TurnBody, now: int) -> dict[str, Any]:
    pbem, keyring = _open(body, now)
    return _pass(pbem, keyring, body.order, now, [])


def _claim(body: TurnBody, now: int) -> dict[str, Any]:
    pbem, keyring = _open(body, now)
    start = len(pbem.game.events) if pbem.game is not None else 0
    # A game with no deadline refuses the claim itself; one with a deadline records the server's time.
    claim = pbem.claim(keyring.side, _stamp(pbem, now) or now)
    events = list(pbem.game.events[start:]) if pbem.game is not None else []
    silent = ", ".join(claim.against)
    said = f"{claim.side} claimed step {claim.step} against {silent}, silent since {time_text(claim.since)}"
    return _pass(pbem, keyring.saw(pbem, now), body.order, now, [said] + [e.describe() for e in events])


def _concede(body: SideBody, now: int) -> dict[str, Any]:
    return _ending(body, now, PbemGame.concede)


def _draw(body: SideBody, now: int) -> dict[str, Any]:
    return _ending(body, now, PbemGame.agree)


def _ending(body: SideBody, now: int, act: Callable[[PbemGame, str, int | None], object]) -> dict[str, Any]:
    """A concession or an agreement to a draw by the body's side, and the events it ended the game with."""
    pbem, keyring = _open(body, now)
    start = len(pbem.game.events) if pbem.game is not None else 0
    act(pbem, keyring.side, _stamp(pbem, now))
    events = list(pbem.game.events[start:]) if pbem.game is not None else []
    return {**_answer(pbem, keyring.saw(pbem, now), now), "events": [e.describe() for e in events]}


def _rebuild(body: SideBody, now: int) -> dict[str, Any]:
    pbem = game_from_data(body.file, "the game file")
    pbem.check_side(body.side)
    if body.keyring is None:
        raise PbemError("rebuilding needs the keyring that made the lost file")
    keyring = keyring_from_data(body.keyring, "the keyring")
    if keyring.side != body.side:
        raise PbemError(f"the keyring is {keyring.side}'s, not {body.side}'s")
    return _answer(rebuild(pbem, keyring), keyring, now)


def _pass(pbem: PbemGame, keyring: Keyring, order: str | None, now: int, said: list[str]) -> dict[str, Any]:
    when = _stamp(pbem, now)
    done = pbem.turn(keyring, None, _fresh(), _fresh(), when)
    if done.needs_orders and order is not None:
        later = pbem.turn(done.keyring, order, _fresh(), _fresh(), when)
        done = replace(later, events=done.events + later.events)
    return {**_answer(pbem, done.keyring, now), "events": said + [e.describe() for e in done.events]}


def _open(body: SideBody, now: int) -> tuple[PbemGame, Keyring]:
    """The file and the side's keyring, checked, the keyring noting that its player has seen the file now."""
    pbem = game_from_data(body.file, "the game file")
    pbem.check_side(body.side)
    if body.keyring is None:
        return pbem, new_keyring(pbem, body.side).saw(pbem, now)
    keyring = keyring_from_data(body.keyring, "the keyring")
    check_keyring(pbem, keyring, body.side, now)
    return pbem, keyring.saw(pbem, now)


def _fresh() -> str:
    return secrets.token_hex(HEX_DIGITS // 2)


def _commit(pbem: PbemGame, keyring: Keyring, order: str, at: int | None) -> Keyring:
    sealed = pbem.seal(keyring.side, order, _fresh(), _fresh())
    pbem.commit(keyring.side, *sealed.hashes(pbem.game_id, keyring.side), at)
    return keyring.keep(sealed).saw(pbem)


def _answer(pbem: PbemGame, keyring: Keyring, now: int) -> dict[str, Any]:
    sealed = keyring.sealed_at(pbem.step)
    result = pbem.result
    due = pbem.claimable_at()
    owed = pbem.owed()
    return {
        "file": pbem.to_data(),
        "keyring": keyring.to_data(),
        "view": {
            "game": pbem.game_id,
            "side": keyring.side,
            "sides": list(pbem.sides),
            "step": pbem.step,
            "moment": pbem.moment,
            "sequence": pbem.sequence,
            "owed": owed,
            "prompted": list(pbem.prompted),
            "sealed": None if sealed is None else sealed.plot,
            "over": pbem.is_over,
            # The open offer to end the game as a draw at this step: who agreed, who has not yet.
            "draw_offer": None
            if not pbem.agreed or pbem.is_over
            else {"agreed": list(pbem.agreed), "waiting": [s for s in pbem.sides if s not in pbem.agreed]},
            "result": None if result is None else {"winners": list(result.winners), "reason": result.reason},
            "scene": None if pbem.game is None else build_scene(pbem.game, [keyring.side]),
            "deadline_hours": pbem.deadline_hours,
            "whole_turns": pbem.whole_turns,
            "last_time": pbem.last_time,
            "claimable_at": due,
            "claimable": due is not None and now >= due and keyring.side not in owed and bool(owed),
            "now": now,
        },
        "events": [],
    }
