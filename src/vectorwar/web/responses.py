"""The one shape of a refusal every HTTP route answers with, for the OpenAPI document.

Routers live in several modules (games, tutorials, rules pages, play by e-mail); they all name
their error answers through :func:`error_responses`, so a client (and schemathesis) reads one
``ErrorOut`` model whatever route refused it.
"""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field


class ErrorDetail(BaseModel):
    type: str
    message: str
    input: str | None = None
    rule: str | None = None
    step: int | None = None
    clock: str | None = None
    fields: list[dict[str, str]] | None = Field(default=None, description="A malformed request's problems: where, what")


class ErrorOut(BaseModel):
    error: ErrorDetail


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route may give."""
    return {status: {"model": ErrorOut} for status in statuses}


def error(status: int, kind: str, message: str, **extra: Any) -> JSONResponse:
    """A refusal in the ``ErrorOut`` shape: its kind, what is wrong, and any detail (``rule``, ``input``...)."""
    return JSONResponse({"error": {"type": kind, "message": message, **extra}}, status_code=status)
