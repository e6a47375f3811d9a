"""Play by e-mail in the browser: a stateless API over the kernel's protocol (docs/pbem.md).

Every request brings the game file and the caller's keyring and gets the new
ones back; the server keeps nothing, so any vectorwar server (the player's own
``vectorwar serve`` first of all) can do the hashing and the legality checks
with the same code as the command line. The salts and secrets are drawn here,
from the operating system's secret source, and returned in the keyring only.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from vectorwar.errors import PbemError, PbemFileError, ScenarioError, SetupError
from vectorwar.limits import MAX_ORDER_CHARS
from vectorwar.pbem import (
    GAME_ID_DIGITS,
    HEX_DIGITS,
    Keyring,
    PbemGame,
    check_keyring,
    game_from_data,
    keyring_from_data,
    new_keyring,
)
from vectorwar.scene import build_scene
from vectorwar.setup import find_scenario, system_of
from vectorwar.setup import game_options as checked_options
from vectorwar.web.responses import error, error_responses

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
    seat: str = Field(min_length=1, max_length=NAME_MAX, description="The creator's seat")
    max_turns: int | None = Field(default=None, ge=1, le=200, description="End the game after this turn")
    options: dict[str, bool | int | str] = Field(default_factory=dict, description="Rule options by name")


class SeatBody(_Body):
    file: dict[str, Any] = Field(description="The game file, as JSON")
    seat: str = Field(min_length=1, max_length=NAME_MAX)
    keyring: dict[str, Any] | None = Field(
        default=None, description="The seat's keyring; left out, a new one (the seat has not committed yet)"
    )


class PlotBody(SeatBody):
    order: str = Field(default="", max_length=MAX_ORDER_CHARS, description="The seat's orders; empty when it has none")


class PbemOut(BaseModel):
    file: dict[str, Any] = Field(description="The new game file: offer it for download and pass it on")
    keyring: dict[str, Any] = Field(description="The seat's new keyring: keep it, never pass it on")
    view: dict[str, Any] = Field(description="What the seat sees: step, who owes what, its sealed plot, the scene")
    events: list[str] = Field(default_factory=list, description="What a reveal that resolved the step did, in words")


_REFUSALS = error_responses(400, 409, 413, 422)

router = APIRouter(prefix="/api/pbem", tags=["play by e-mail"])


def install(app: FastAPI) -> None:
    """The routes and the answers to the protocol's refusals."""
    app.include_router(router)

    @app.exception_handler(PbemError)
    async def refused(_request: Request, err: Exception) -> JSONResponse:
        # A file that cannot be read is a bad request body; any other refusal is the file's state
        # against the step asked for (an old file, a wrong reveal, a second commitment...).
        status = 422 if isinstance(err, PbemFileError) else 409
        return error(status, type(err).__name__, str(err))


async def _off_loop(fn: Callable[..., R], *args: Any) -> R:
    try:
        return await asyncio.wait_for(asyncio.to_thread(fn, *args), PBEM_BUDGET)
    except TimeoutError:
        raise PbemFileError(f"checking the file took longer than the server's budget of {PBEM_BUDGET:g} s") from None


@router.post(
    "/new",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="A new game file, with the creator's set-up secret committed",
)
async def new(body: NewBody) -> JSONResponse:
    return JSONResponse(await _off_loop(_new, body))


@router.post(
    "/view",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="The seat's view of a game file (the keyring, if given, is checked and updated)",
)
async def view(body: SeatBody) -> JSONResponse:
    return JSONResponse(await _off_loop(_view, body))


@router.post(
    "/plot",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="Commit the seat's orders: the file gets their hash, the keyring the rest",
)
async def plot(body: PlotBody) -> JSONResponse:
    return JSONResponse(await _off_loop(_plot, body))


@router.post(
    "/reveal",
    response_model=PbemOut,
    responses=_REFUSALS,
    summary="Reveal the seat's committed orders; the last reveal resolves the step",
)
async def reveal(body: SeatBody) -> JSONResponse:
    return JSONResponse(await _off_loop(_reveal, body))


def _new(body: NewBody) -> dict[str, Any]:
    scenario = find_scenario(body.scenario)
    if body.max_turns is not None:
        scenario = scenario.model_copy(update={"max_turns": body.max_turns})
    options = checked_options(system_of(scenario), scenario, body.options)
    try:
        pbem = PbemGame.new(scenario, secrets.token_hex(GAME_ID_DIGITS // 2), options)
    except ScenarioError as err:
        raise SetupError(str(err)) from None
    if body.seat not in pbem.seats:
        raise SetupError(f"scenario {scenario.id} has no side {body.seat!r} (sides: {', '.join(pbem.seats)})")
    keyring = _commit(pbem, new_keyring(pbem, body.seat), "")
    return _answer(pbem, keyring)


def _view(body: SeatBody) -> dict[str, Any]:
    pbem, keyring = _open(body)
    return _answer(pbem, keyring.saw(pbem))


def _plot(body: PlotBody) -> dict[str, Any]:
    pbem, keyring = _open(body)
    return _answer(pbem, _commit(pbem, keyring, body.order))


def _reveal(body: SeatBody) -> dict[str, Any]:
    pbem, keyring = _open(body)
    _, events = pbem.reveal_sealed(keyring)
    return {**_answer(pbem, keyring.saw(pbem)), "events": [e.describe() for e in events]}


def _open(body: SeatBody) -> tuple[PbemGame, Keyring]:
    pbem = game_from_data(body.file, "the game file")
    pbem.check_seat(body.seat)
    if body.keyring is None:
        return pbem, new_keyring(pbem, body.seat)
    keyring = keyring_from_data(body.keyring, "the keyring")
    check_keyring(pbem, keyring, body.seat)
    return pbem, keyring


def _commit(pbem: PbemGame, keyring: Keyring, order: str) -> Keyring:
    sealed = pbem.seal(keyring.seat, order, secrets.token_hex(HEX_DIGITS // 2), secrets.token_hex(HEX_DIGITS // 2))
    pbem.commit(keyring.seat, *sealed.hashes(pbem.game_id, keyring.seat))
    return keyring.keep(sealed).saw(pbem)


def _answer(pbem: PbemGame, keyring: Keyring) -> dict[str, Any]:
    sealed = keyring.sealed_at(pbem.step)
    result = pbem.result
    return {
        "file": pbem.to_data(),
        "keyring": keyring.to_data(),
        "view": {
            "game": pbem.game_id,
            "seat": keyring.seat,
            "seats": list(pbem.seats),
            "step": pbem.step,
            "moment": pbem.moment,
            "sequence": pbem.sequence,
            "owed": pbem.owed(),
            "prompted": list(pbem.prompted),
            "sealed": None if sealed is None else sealed.plot,
            "over": pbem.is_over,
            "result": None if result is None else {"winners": list(result.winners), "reason": result.reason},
            "scene": None if pbem.game is None else build_scene(pbem.game, [keyring.seat]),
        },
        "events": [],
    }
