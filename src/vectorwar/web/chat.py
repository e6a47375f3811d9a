"""Table talk: the chat between a game's sides, its limits and the checks a line passes.

A line is stored with its game (:meth:`Store.add_chat`) and sent over the hub
to the viewers holding a side of that game only; spectators neither read nor
write it (docs/web.md, *Chat*). The limits below bound what one side can make
the server store and send: a line's length, lines in a short window, and
lines in one game. Each refusal names its limit, like the engine's
(:mod:`vectorwar.limits`).

>>> check_text("  gg  ")
'gg'
>>> check_text("g\u200bg \u202eevil")
'gg evil'
>>> try:
...     check_text("x" * 501)
... except ChatRefused as err:
...     print(err)
a chat line may be at most 500 characters; this one has 501 (vectorwar limit MAX_CHAT_CHARS)
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from vectorwar.limits import Limit, strip_invisible

#: Characters in one chat line (after trimming blanks at both ends).
MAX_CHAT_CHARS = Limit(500, "MAX_CHAT_CHARS")
#: Lines one side may send within CHAT_WINDOW_SECONDS.
MAX_CHAT_BURST = Limit(5, "MAX_CHAT_BURST")
#: The window MAX_CHAT_BURST counts over.
CHAT_WINDOW_SECONDS = Limit(10, "CHAT_WINDOW_SECONDS")
#: Lines stored for one game, all sides together.
MAX_CHAT_LINES = Limit(2000, "MAX_CHAT_LINES")
#: A line's idempotency key as the client makes it (a random id, e.g. a UUID): a retry sends the same.
KEY_PATTERN = r"^[A-Za-z0-9_-]{8,64}$"


class ChatRefused(ValueError):
    """A chat line the server will not take; the message names the limit. Nothing was stored."""

    def __init__(self, message: str, limit: Limit) -> None:
        self.limit = limit
        super().__init__(f"{message} (vectorwar limit {limit.name})")


class ChatKeyReused(ValueError):
    """A chat line's idempotency key already names another line of the game (409); nothing was stored."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the key {key} already names another line of this chat: make a new key for each line")


class ChatForbidden(PermissionError):
    """The chat is between a game's sides: a token holding none of them may not read or write it."""

    def __init__(self) -> None:
        super().__init__("the chat is between the game's players; a spectator's link does not show it")


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One stored line: its number within the game (1 for the first), the side that said it, when."""

    number: int
    side: str
    text: str
    at: datetime

    def data(self) -> dict[str, Any]:
        return {"n": self.number, "side": self.side, "text": self.text, "at": self.at.isoformat()}


def check_text(text: str) -> str:
    """The line as stored: trimmed; refused when empty, too long or holding control characters.

    Direction overrides and zero-width characters (:data:`vectorwar.limits.INVISIBLE`) are
    taken out rather than refused: they show nothing, and a player pasting text that holds
    one would not know why the line was refused. Taken out, no line can reorder the text
    shown after it or pass for another.
    """
    line = strip_invisible(text).strip()
    if not line:
        raise ChatRefused("a chat line needs some text", MAX_CHAT_CHARS)
    if len(line) > MAX_CHAT_CHARS:
        raise ChatRefused(
            f"a chat line may be at most {MAX_CHAT_CHARS} characters; this one has {len(line)}", MAX_CHAT_CHARS
        )
    if any((ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0 for c in line):
        raise ChatRefused("a chat line may hold no control characters but line breaks and tabs", MAX_CHAT_CHARS)
    return line


class ChatGate:
    """How often each side of each game has spoken lately: at most MAX_CHAT_BURST lines a window.

    Kept in memory: a restart forgets it, which only lets a side speak again sooner.
    ``clock`` gives seconds (monotonic); tests hand in their own.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._recent: dict[tuple[str, str], deque[float]] = {}

    def admit(self, game_id: str, side: str) -> None:
        """Count a line from ``side`` now, or raise :class:`ChatRefused` if it has said enough lately."""
        now = self._clock()
        recent = self._recent.setdefault((game_id, side), deque())
        while recent and now - recent[0] >= CHAT_WINDOW_SECONDS:
            recent.popleft()
        if len(recent) >= MAX_CHAT_BURST:
            wait = CHAT_WINDOW_SECONDS - (now - recent[0])
            raise ChatRefused(
                f"{side} may send at most {MAX_CHAT_BURST} chat lines in {CHAT_WINDOW_SECONDS} seconds; "
                f"try again in {max(wait, 0.1):.1f} s",
                MAX_CHAT_BURST,
            )
        recent.append(now)
        if len(self._recent) > 10_000:
            # Forget sides that have been quiet for a whole window, so the map cannot grow without end.
            for key in [k for k, v in self._recent.items() if not v or now - v[-1] >= CHAT_WINDOW_SECONDS]:
                del self._recent[key]
