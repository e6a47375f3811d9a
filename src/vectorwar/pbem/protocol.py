"""The play-by-e-mail protocol's pieces: hashes and commitments, the actions a file holds, a player's keyring."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Protocol

from vectorwar.autopilot import ANY, Standing
from vectorwar.errors import (
    OrderSyntaxError,
    PbemError,
)
from vectorwar.events import Event

FORMAT = "vectorwar-pbem"
KEYRING_FORMAT = "vectorwar-pbem-keyring"
#: The file format's version. Version 2 names a side's id ``side``; a game file of version 1 names it
#: ``seat``, and its hashes were made with that word, so it is read and played on in version 1 (:func:`wire`).
VERSION = 2
VERSIONS = (1, 2)
#: Hex digits of a salt and of a secret (256 bits each) and of every hash.
HEX_DIGITS = 64
#: Hex digits of a game id (128 bits).
GAME_ID_DIGITS = 32
_HEX = re.compile(rf"[0-9a-f]{{{HEX_DIGITS}}}")
NAME_MAX = 100
#: Between a plot's orders and its standing fire: ``Hawk 2L1 | fire at Raven 50%``.
STANDING_MARK = "|"
_STANDING = re.compile(r"fire(?:\s+at)?\s+(?P<target>[^\s%]+)(?:\s+(?:from\s+)?(?P<chance>\d{1,3})\s*%?)?", re.I)
_NO_FIRE = ("hold fire", "no fire", "")
#: The longest deadline a game may set for one step: a year.
MAX_DEADLINE_HOURS = 24 * 366
#: The latest time an action may record (Unix seconds): the year 9999.
MAX_TIME = 253_402_300_799

Owed = Literal["commit", "reveal"]


def digest(*parts: Any) -> str:
    """SHA-256, in hex, of ``parts`` written as one compact JSON array (keys sorted): no two part lists collide."""
    text = json.dumps(list(parts), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def plot_commitment(game_id: str, step: int, side: str, plot: str, salt: str) -> str:
    return digest("vectorwar-pbem-plot", game_id, step, side, plot, salt)


def key_commitment(game_id: str, step: int, side: str, salt: str, secret: str) -> str:
    return digest("vectorwar-pbem-key", game_id, step, side, salt, secret)


def dice_seed(game_id: str, step: int, secrets: Mapping[str, str]) -> int:
    """The seed of a step's dice: every side's secret (in side order by name), the game and the step.

    >>> a = dice_seed("0" * 32, 1, {"red": "1" * 64, "blue": "2" * 64})
    >>> a == dice_seed("0" * 32, 1, {"blue": "2" * 64, "red": "1" * 64}), a == dice_seed("0" * 32, 2, {"red": "1" * 64})
    (True, False)
    """
    return int(digest("vectorwar-pbem-dice", game_id, step, sorted(secrets.items())), 16)


# -- actions ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Commit:
    """A side's sealed plot for a step: hashes only; the plot, salt and secret stay in its keyring."""

    step: int
    side: str
    plot_hash: str
    key_hash: str
    #: When its writer says it was made (Unix seconds, UTC); ``None`` in a game with no deadline.
    at: int | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": "commit",
            "step": self.step,
            "side": self.side,
            "plot_hash": self.plot_hash,
            "key_hash": self.key_hash,
        }
        return _timed(data, self.at)


@dataclass(frozen=True, slots=True)
class Reveal:
    """A side opening its commitment: the plot, the salt and the secret."""

    step: int
    side: str
    plot: str
    salt: str
    secret: str
    at: int | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": "reveal",
            "step": self.step,
            "side": self.side,
            "plot": self.plot,
            "salt": self.salt,
            "secret": self.secret,
        }
        return _timed(data, self.at)


@dataclass(frozen=True, slots=True)
class Claim:
    """A side claiming a step after the game's deadline: the sides ``against`` it, silent since ``since``.

    Each silent side's plot is taken as a hold and its secret is left out of the step's dice; ``since`` is the
    time the file's last action before the claim records, ``at`` the time the claimer says it claimed.
    """

    step: int
    side: str
    against: tuple[str, ...]
    since: int
    at: int

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": "claim",
            "step": self.step,
            "side": self.side,
            "against": list(self.against),
            "since": self.since,
            "at": self.at,
        }


@dataclass(frozen=True, slots=True)
class Concede:
    """A side giving the game up at ``step``: the game ends there and the other sides win.

    ``at`` is the time its writer says it conceded (``None`` in a game with no deadline).
    """

    step: int
    side: str
    at: int | None = None

    def to_data(self) -> dict[str, Any]:
        return _timed({"kind": "concede", "step": self.step, "side": self.side}, self.at)


@dataclass(frozen=True, slots=True)
class Agree:
    """A side offering, or agreeing, to end the game as a draw at ``step``.

    The game ends drawn once every side has agreed at the same step; agreements lapse when the step resolves.
    """

    step: int
    side: str
    at: int | None = None

    def to_data(self) -> dict[str, Any]:
        return _timed({"kind": "agree", "step": self.step, "side": self.side}, self.at)


Action = Commit | Reveal | Claim | Concede | Agree


def _timed(data: dict[str, Any], at: int | None) -> dict[str, Any]:
    # A game with no deadline records no times, so its files hash as they always have.
    if at is not None:
        data["at"] = at
    return data


def split_plot(text: str) -> tuple[str, Standing | None]:
    """A plot's orders and its standing fire (``None``: the plot names none).

    >>> split_plot("Hawk 2L1 | fire at Raven from 50%")
    ('Hawk 2L1', Standing(flow=<Flow.ASK: 'ask'>, skip_through_turn=0, fire_at='Raven', min_chance=50))
    >>> split_plot("Hawk 2L1")[1] is None, split_plot("| fire at any")[1].fire_at, split_plot("Hawk 1 | hold fire")[1]
    (True, '*', Standing(flow=<Flow.ASK: 'ask'>, skip_through_turn=0, fire_at='', min_chance=0))
    """
    orders, mark, rest = text.partition(STANDING_MARK)
    if not mark:
        return text.strip(), None
    said = " ".join(rest.split())
    if said.lower() in _NO_FIRE:
        return orders.strip(), Standing()
    found = _STANDING.fullmatch(said)
    if found is None:
        raise OrderSyntaxError(
            text,
            f"after {STANDING_MARK!r} comes standing fire, like 'fire at Raven 50%' or 'fire at any', or 'hold fire'",
        )
    target = found["target"]
    chance = int(found["chance"] or 0)
    if chance > 100:
        raise OrderSyntaxError(text, f"standing fire takes shots from a chance of 0 to 100%, not {chance}%")
    return orders.strip(), Standing(fire_at=ANY if target.lower() in ("any", ANY) else target, min_chance=chance)


def plot_text(orders: str, standing: Standing | None) -> str:
    """A plot in its canonical words: the orders, then the standing fire if it names any.

    >>> plot_text("Hawk 2L1", Standing(fire_at="*", min_chance=30)), plot_text("Hawk 1", Standing())
    ('Hawk 2L1 | fire at any 30%', 'Hawk 1 | hold fire')
    """
    if standing is None:
        return orders
    said = "hold fire" if not standing.fire_at else f"fire at {'any' if standing.fire_at == ANY else standing.fire_at}"
    if standing.fire_at:
        said += f" {standing.min_chance}%"
    return f"{orders} {STANDING_MARK} {said}".strip()


def time_text(at: int) -> str:
    """``at`` (Unix seconds) as UTC in ISO 8601: ``2026-11-29T08:00:00Z``.

    >>> time_text(0), time_text(951_782_400), time_text(1_800_000_000)
    ('1970-01-01T00:00:00Z', '2000-02-29T00:00:00Z', '2027-01-15T08:00:00Z')
    """
    # Worked out by hand, not by ``datetime``: the protocol module imports nothing that can read a clock.
    days, seconds = divmod(at, 86400)
    hour, seconds = divmod(seconds, 3600)
    minute, second = divmod(seconds, 60)
    # Days since 1970-01-01 to a civil date (proleptic Gregorian), counting years from March.
    z = days + 719468
    era, day_of_era = divmod(z, 146097)
    year_of_era = (day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    year = year_of_era + era * 400 + (month <= 2)
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


def wire(data: dict[str, Any], version: int) -> dict[str, Any]:
    """``data`` (an action's or a keyring's) in the words of a file of ``version``: version 1 says ``seat``.

    >>> wire({"kind": "concede", "step": 3, "side": "red"}, 1)
    {'kind': 'concede', 'step': 3, 'seat': 'red'}
    >>> unwire(wire({"side": "red"}, 1), 1), wire({"side": "red"}, 2)
    ({'side': 'red'}, {'side': 'red'})
    """
    if version == 1 and "side" in data:
        return {("seat" if key == "side" else key): value for key, value in data.items()}
    return data


def unwire(data: dict[str, Any], version: int) -> dict[str, Any]:
    """``data`` as read from a file of ``version``, in this version's words (the reverse of :func:`wire`)."""
    if version == 1 and "seat" in data:
        return {("side" if key == "seat" else key): value for key, value in data.items()}
    return data


def link(previous: str, action: Action, version: int = VERSION) -> str:
    """The hash of the file's state after ``action``, given the hash of the state before it."""
    return digest("vectorwar-pbem-link", previous, wire(action.to_data(), version))


@dataclass(frozen=True, slots=True)
class Sealed:
    """What a side keeps to itself between committing and revealing a step."""

    step: int
    plot: str
    salt: str
    secret: str

    def hashes(self, game_id: str, side: str) -> tuple[str, str]:
        """``(plot_hash, key_hash)`` of this sealed plot."""
        return (
            plot_commitment(game_id, self.step, side, self.plot, self.salt),
            key_commitment(game_id, self.step, side, self.salt, self.secret),
        )

    def opens(self, action: Action, game_id: str) -> bool:
        """Whether ``action`` (by the keyring's side) is the one this sealed plot makes."""
        if isinstance(action, Commit):
            return (action.plot_hash, action.key_hash) == self.hashes(game_id, action.side)
        if isinstance(action, Reveal):
            return (action.plot, action.salt, action.secret) == (self.plot, self.salt, self.secret)
        return False


class FileState(Protocol):
    """Where a game file stands: what a keyring records having seen (a :class:`~vectorwar.pbem.PbemGame` is one)."""

    @property
    def step(self) -> int: ...
    @property
    def sequence(self) -> int: ...
    @property
    def head(self) -> str: ...
    @property
    def actions(self) -> Sequence[Action]: ...


@dataclass(frozen=True, slots=True)
class Keyring:
    """A player's own file for one side: sealed plots not yet resolved, and the last state of the game seen.

    It never travels: the shared file only ever holds hashes until the reveal.
    """

    game: str
    side: str
    seen_sequence: int
    seen_hash: str
    sealed: tuple[Sealed, ...] = ()
    #: When this player's tools first saw the state ``seen_sequence`` (Unix seconds, by this player's clock).
    seen_at: int | None = None
    #: The actions this side added after the others' last one, up to ``seen_sequence``: the player's last
    #: pass, which no one else's file holds yet, kept so a lost newest file can be rebuilt (:func:`rebuild`).
    sent: tuple[Action, ...] = ()
    #: The version of its game's file, whose words it is written in.
    version: int = VERSION

    def sealed_at(self, step: int) -> Sealed | None:
        return next((s for s in self.sealed if s.step == step), None)

    def keep(self, sealed: Sealed) -> Keyring:
        return replace(self, sealed=(*(s for s in self.sealed if s.step != sealed.step), sealed))

    def saw(self, pbem: FileState, at: int | None = None) -> Keyring:
        """This keyring after its player has seen ``pbem`` at ``at`` (sealed plots of resolved steps dropped).

        The time kept is when the state was first seen: opening the same file again keeps it, so it
        stays the player's own record of when the file reached them.
        """
        kept = tuple(s for s in self.sealed if s.step >= pbem.step)
        same = (self.seen_sequence, self.seen_hash) == (pbem.sequence, pbem.head)
        seen_at = self.seen_at if same and self.seen_at is not None else at
        actions = pbem.actions
        start = len(actions)
        while start > 0 and actions[start - 1].side == self.side:
            start -= 1
        sent = tuple(actions[start:])
        return replace(self, seen_sequence=pbem.sequence, seen_hash=pbem.head, sealed=kept, seen_at=seen_at, sent=sent)

    def to_data(self) -> dict[str, Any]:
        data = {
            "format": KEYRING_FORMAT,
            "version": self.version,
            "game": self.game,
            "side": self.side,
            "seen": _timed({"sequence": self.seen_sequence, "hash": self.seen_hash}, self.seen_at),
            "sealed": [{"step": s.step, "plot": s.plot, "salt": s.salt, "secret": s.secret} for s in self.sealed],
            "sent": [wire(a.to_data(), self.version) for a in self.sent],
        }
        return wire(data, self.version)


@dataclass(frozen=True, slots=True)
class Turn:
    """What one pass of the file did for a side (:meth:`PbemGame.turn`)."""

    keyring: Keyring
    #: The plots revealed, in order (the first usually the step before, the last maybe the one just committed).
    revealed: tuple[Sealed, ...] = ()
    #: The orders committed for the step the side is prompted at, if any.
    committed: Sealed | None = None
    #: What the reveals resolved.
    events: tuple[Event, ...] = ()
    #: The side owes orders at this step that it has not given yet.
    needs_orders: bool = False


def fresh_value(value: str, n: int) -> str:
    """The ``n``-th fresh value of a pass from the one the front end drew (itself for the first)."""
    return value if n == 0 else digest("vectorwar-pbem-fresh", value, n)


def check_hex(what: str, value: str) -> None:
    if not _HEX.fullmatch(value):
        raise PbemError(f"{what}: {HEX_DIGITS} lower-case hex digits, not {value[:24]!r}")
