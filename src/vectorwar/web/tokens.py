"""How a request names its player: a token, by ``Authorization: Bearer`` or ``?token=`` (docs/web.md).

One definition for every router, so OpenAPI shows one pair of security schemes.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Security
from fastapi.security import APIKeyQuery, HTTPAuthorizationCredentials, HTTPBearer

_BEARER = HTTPBearer(
    auto_error=False,
    scheme_name="token",
    description="A player's token, as created with the game: it names the sides it may act for",
)
_QUERY_TOKEN = APIKeyQuery(
    name="token",
    auto_error=False,
    scheme_name="token in the query",
    description="The same token as a query parameter (join links and WebSockets use it)",
)


def request_token(
    header: Annotated[HTTPAuthorizationCredentials | None, Security(_BEARER)],
    query: Annotated[str | None, Security(_QUERY_TOKEN)],
) -> str | None:
    """The caller's token, from ``Authorization: Bearer`` or ``?token=``; none: a spectator."""
    return header.credentials if header is not None else query


Token = Annotated[str | None, Depends(request_token)]


__all__ = ["Token", "request_token"]
