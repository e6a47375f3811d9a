"""The HTTP routes of a table's deadlines: its clocks, a side's reminders, taking a side back (web/clocks.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Depends
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from vectorwar.web.clocks import LEAST_SECONDS, MOST_MISSES, MOST_SECONDS, Contact, Pace
from vectorwar.web.deadlines import Deadlines
from vectorwar.web.reminders import EMAIL_MAX, WEBHOOK_MAX
from vectorwar.web.responses import error_responses
from vectorwar.web.tokens import Token

NAME_MAX = 200


def _deadlines(request: HTTPConnection) -> Deadlines:
    deadlines: Deadlines = request.app.state.deadlines
    return deadlines


DeadlinesDep = Annotated[Deadlines, Depends(_deadlines)]


class PaceBody(BaseModel):
    """A table's pace, chosen at its creation (docs/web.md, *Deadlines and clocks*)."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["deadline", "clock"] = Field(
        description="deadline: so long for every decision; clock: each side a bank of time that runs while it owes "
        "orders"
    )
    seconds: int = Field(
        ge=LEAST_SECONDS, le=MOST_SECONDS, description="deadline: seconds per decision; clock: each side's time"
    )
    increment: int = Field(default=0, ge=0, le=MOST_SECONDS, description="clock: seconds added after each decision")
    bot: str = Field(
        default="greedy",
        min_length=1,
        max_length=NAME_MAX,
        description="The computer player that plays a side past its deadline, until its player takes it back",
    )
    remind_before: int = Field(
        default=0,
        ge=0,
        lt=MOST_SECONDS,
        description="Seconds before a deadline a side's player is reminded (by the channels they gave); 0: no reminder",
    )

    misses: int = Field(
        default=0,
        ge=0,
        le=MOST_MISSES,
        description="Deadlines a side may miss and keep: at each the computer gives that decision's orders only",
    )

    def pace(self) -> Pace:
        return Pace(self.kind, self.seconds, self.increment, self.bot, self.remind_before, self.misses)


class RemindersBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str = Field(default="", max_length=EMAIL_MAX, description="Where the reminders are mailed; empty: no mail")
    webhook: str = Field(
        default="", max_length=WEBHOOK_MAX, description="A URL the reminders are POSTed to as JSON; empty: none"
    )
    remind_before: int | None = Field(
        default=None, ge=0, lt=MOST_SECONDS, description="Seconds before the deadline; none: the table's choice"
    )


class TakeBackBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    side: str = Field(min_length=1, max_length=NAME_MAX, description="The side taken back: one the token holds")


class SideClockOut(BaseModel):
    owes: bool = Field(description="The side owes orders now and its time runs")
    deadline: str | None = Field(description="When its time runs out (ISO 8601, UTC); none while it owes nothing")
    time_left: float | None = Field(description="A clock's seconds left now; none for a deadline pace")
    late: bool = Field(description="It missed a deadline: a computer plays it until its player takes it back")
    computer: str | None = Field(description="The computer player playing it, while it is late")
    missed: int = Field(description="Deadlines it missed and kept the side (the pace's misses)")


class PaceOut(BaseModel):
    kind: str
    seconds: int
    increment: int
    bot: str
    remind_before: int
    misses: int
    words: str = Field(description='The pace in words, e.g. "1 day a decision"')


class ContactOut(BaseModel):
    email: str
    webhook: str
    remind_before: int | None


class ClockEventOut(BaseModel):
    at: str
    side: str
    text: str


class ClockOut(BaseModel):
    pace: PaceOut | None = Field(description="None: the table has no deadlines")
    now: str = Field(description="The server's time (ISO 8601, UTC), to count down from")
    sides: dict[str, SideClockOut]
    events: list[ClockEventOut] = Field(description="What the deadlines did, oldest first")
    contacts: dict[str, ContactOut] = Field(description="Where the caller's own sides are reminded (no one else's)")


router = APIRouter(prefix="/api/games/{game_id}", tags=["game"])


@router.get(
    "/clock",
    summary="The table's pace, each side's deadline or time left, and what the deadlines did",
    response_model=ClockOut,
    responses=error_responses(404),
)
async def table_clock(game_id: str, token: Token, deadlines: DeadlinesDep) -> JSONResponse:
    return JSONResponse(await deadlines.view(game_id, token))


@router.put(
    "/sides/{side}/reminders",
    summary="Where this side's player is reminded before a deadline: e-mail, webhook, how long before",
    response_model=ClockOut,
    responses=error_responses(403, 404, 413, 422),
)
async def set_reminders(
    game_id: str,
    side: Annotated[str, Field(max_length=NAME_MAX)],
    body: RemindersBody,
    token: Token,
    deadlines: DeadlinesDep,
) -> JSONResponse:
    contact = Contact(body.email.strip(), body.webhook.strip(), body.remind_before)
    await deadlines.set_contact(game_id, token, side, contact, deadlines.sender.settings.webhooks)
    return JSONResponse(await deadlines.view(game_id, token))


@router.post(
    "/take-back",
    summary="Play your side again after a computer took it over at a deadline",
    response_model=ClockOut,
    responses=error_responses(403, 404, 413, 422),
)
async def take_back(game_id: str, body: TakeBackBody, token: Token, deadlines: DeadlinesDep) -> JSONResponse:
    await deadlines.take_back(game_id, token, body.side)
    return JSONResponse(await deadlines.view(game_id, token))


def pace_words(paces: dict[str, Pace], game_id: str) -> str | None:
    pace = paces.get(game_id)
    return None if pace is None else pace.words()


__all__ = ["PaceBody", "pace_words", "router"]
