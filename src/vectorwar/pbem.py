"""Play by e-mail with sealed orders: the protocol, with no I/O (docs/pbem.md).

A play-by-e-mail game is a list of *actions* that players append to one
file and pass on. Every prompt of the game is one *step* (step 0 draws the
dice of the set-up), and every step goes the same way for every side, prompted
or not:

1. **commit**: each side adds ``plot_hash`` = H(game, step, seat, plot, salt)
   and ``key_hash`` = H(game, step, seat, salt, secret). ``plot`` is the side's
   order at this prompt ("" when the prompt does not name it) and ``salt`` and
   ``secret`` are fresh random values the side keeps in its own keyring;
2. **reveal**, once every side has committed: each side adds its plot, salt and
   secret, which must open both of its hashes;
3. when the last side has revealed, the step resolves with dice seeded by
   H(game, step, every side's secret), so no side can choose or foresee them.

H is SHA-256 over the parts written as a compact JSON array (:func:`digest`).
Each state of the file also carries the hash of the state before it (the
chain), so a player's keyring remembers the last state it saw and refuses an
older or rewritten file. Everything is recorded, so a file replays exactly.

A player's pass of the file (:meth:`PbemGame.turn`) does everything the seat
owes at once: the reveal of one step and the commitment to the next, which is
revealed at once when it is the step's last, so a step costs one file from
each side. A game may be set up with a deadline in hours a step; then every
action records the time its writer claims, and once the file's last action
is that old, a side that has done its part may add a :class:`Claim`: the
silent seats hold and add no secret to the dice. Anyone can replay a claim
from the file; the silent player's keyring also checks it against its own
record of when the file arrived (:func:`check_keyring`).

The front ends draw the random values (salts, secrets, game ids) and read and
write the files; this module only checks and applies.

>>> from vectorwar.catalogue import builtin_scenario
>>> pbem = PbemGame.new(builtin_scenario("msc-duel"), "0" * 32)
>>> pbem.step, pbem.owed()
(0, {'red': 'commit', 'blue': 'commit'})
>>> for seat, byte in (("red", "1"), ("blue", "2")):
...     sealed = pbem.seal(seat, "", byte * 64, byte * 64)
...     _ = pbem.commit(seat, *sealed.hashes(pbem.game_id, seat))
>>> _ = pbem.reveal("red", "", "1" * 64, "1" * 64)
>>> _ = pbem.reveal("blue", "", "2" * 64, "2" * 64)
>>> pbem.step, pbem.game is not None and pbem.game.prompt.kind
(1, 'plot')
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vectorwar import __version__
from vectorwar.autopilot import Standing, standing_order
from vectorwar.errors import (
    DoubleCommitError,
    EarlyClaimError,
    EarlyRevealError,
    ForeignActionError,
    OutOfStepError,
    PbemError,
    PbemFileError,
    PlotChangedError,
    StaleFileError,
    SwappedFileError,
    VectorwarError,
    WrongRevealError,
)
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.limits import MAX_HISTORY, MAX_ORDER_CHARS, MAX_PBEM_ACTIONS, MAX_SIDES
from vectorwar.registry import get_system
from vectorwar.rules import OptionValue, Result, RuleSystem
from vectorwar.scenario import Scenario, format_validation_error, scenario_from_data

FORMAT = "vectorwar-pbem"
KEYRING_FORMAT = "vectorwar-pbem-keyring"
VERSION = 1
#: Hex digits of a salt and of a secret (256 bits each) and of every hash.
HEX_DIGITS = 64
#: Hex digits of a game id (128 bits).
GAME_ID_DIGITS = 32
_HEX = re.compile(rf"[0-9a-f]{{{HEX_DIGITS}}}")
_NAME_MAX = 100
#: The computer player whose orders a claimed seat gives where the rules have no hold.
HOLD_BOT = "greedy"
#: The longest deadline a game may set for one step: a year.
MAX_DEADLINE_HOURS = 24 * 366
#: The latest time an action may record (Unix seconds): the year 9999.
_MAX_TIME = 253_402_300_799

Owed = Literal["commit", "reveal"]


def digest(*parts: Any) -> str:
    """SHA-256, in hex, of ``parts`` written as one compact JSON array (keys sorted): no two part lists collide."""
    text = json.dumps(list(parts), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def plot_commitment(game_id: str, step: int, seat: str, plot: str, salt: str) -> str:
    return digest("vectorwar-pbem-plot", game_id, step, seat, plot, salt)


def key_commitment(game_id: str, step: int, seat: str, salt: str, secret: str) -> str:
    return digest("vectorwar-pbem-key", game_id, step, seat, salt, secret)


def dice_seed(game_id: str, step: int, secrets: Mapping[str, str]) -> int:
    """The seed of a step's dice: every side's secret (in seat order by name), the game and the step.

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
    seat: str
    plot_hash: str
    key_hash: str
    #: When its writer says it was made (Unix seconds, UTC); ``None`` in a game with no deadline.
    at: int | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": "commit",
            "step": self.step,
            "seat": self.seat,
            "plot_hash": self.plot_hash,
            "key_hash": self.key_hash,
        }
        return _timed(data, self.at)


@dataclass(frozen=True, slots=True)
class Reveal:
    """A side opening its commitment: the plot, the salt and the secret."""

    step: int
    seat: str
    plot: str
    salt: str
    secret: str
    at: int | None = None

    def to_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": "reveal",
            "step": self.step,
            "seat": self.seat,
            "plot": self.plot,
            "salt": self.salt,
            "secret": self.secret,
        }
        return _timed(data, self.at)


@dataclass(frozen=True, slots=True)
class Claim:
    """A side claiming a step after the game's deadline: the seats ``against`` it, silent since ``since``.

    Each silent seat's plot is taken as a hold and its secret is left out of the step's dice; ``since`` is the
    time the file's last action before the claim records, ``at`` the time the claimer says it claimed.
    """

    step: int
    seat: str
    against: tuple[str, ...]
    since: int
    at: int

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": "claim",
            "step": self.step,
            "seat": self.seat,
            "against": list(self.against),
            "since": self.since,
            "at": self.at,
        }


Action = Commit | Reveal | Claim


def _timed(data: dict[str, Any], at: int | None) -> dict[str, Any]:
    # A game with no deadline records no times, so its files hash as they always have.
    if at is not None:
        data["at"] = at
    return data


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


def link(previous: str, action: Action) -> str:
    """The hash of the file's state after ``action``, given the hash of the state before it."""
    return digest("vectorwar-pbem-link", previous, action.to_data())


@dataclass(frozen=True, slots=True)
class Sealed:
    """What a side keeps to itself between committing and revealing a step."""

    step: int
    plot: str
    salt: str
    secret: str

    def hashes(self, game_id: str, seat: str) -> tuple[str, str]:
        """``(plot_hash, key_hash)`` of this sealed plot."""
        return (
            plot_commitment(game_id, self.step, seat, self.plot, self.salt),
            key_commitment(game_id, self.step, seat, self.salt, self.secret),
        )

    def opens(self, action: Action, game_id: str) -> bool:
        """Whether ``action`` (by the keyring's seat) is the one this sealed plot makes."""
        if isinstance(action, Commit):
            return (action.plot_hash, action.key_hash) == self.hashes(game_id, action.seat)
        if isinstance(action, Reveal):
            return (action.plot, action.salt, action.secret) == (self.plot, self.salt, self.secret)
        return False


@dataclass(frozen=True, slots=True)
class Keyring:
    """A player's own file for one seat: sealed plots not yet resolved, and the last state of the game seen.

    It never travels: the shared file only ever holds hashes until the reveal.
    """

    game: str
    seat: str
    seen_sequence: int
    seen_hash: str
    sealed: tuple[Sealed, ...] = ()
    #: When this player's tools first saw the state ``seen_sequence`` (Unix seconds, by this player's clock).
    seen_at: int | None = None

    def sealed_at(self, step: int) -> Sealed | None:
        return next((s for s in self.sealed if s.step == step), None)

    def keep(self, sealed: Sealed) -> Keyring:
        return replace(self, sealed=(*(s for s in self.sealed if s.step != sealed.step), sealed))

    def saw(self, pbem: PbemGame, at: int | None = None) -> Keyring:
        """This keyring after its player has seen ``pbem`` at ``at`` (sealed plots of resolved steps dropped).

        The time kept is when the state was first seen: opening the same file again keeps it, so it
        stays the player's own record of when the file reached them.
        """
        kept = tuple(s for s in self.sealed if s.step >= pbem.step)
        same = (self.seen_sequence, self.seen_hash) == (pbem.sequence, pbem.head)
        seen_at = self.seen_at if same and self.seen_at is not None else at
        return replace(self, seen_sequence=pbem.sequence, seen_hash=pbem.head, sealed=kept, seen_at=seen_at)

    def to_data(self) -> dict[str, Any]:
        return {
            "format": KEYRING_FORMAT,
            "version": VERSION,
            "game": self.game,
            "seat": self.seat,
            "seen": _timed({"sequence": self.seen_sequence, "hash": self.seen_hash}, self.seen_at),
            "sealed": [{"step": s.step, "plot": s.plot, "salt": s.salt, "secret": s.secret} for s in self.sealed],
        }


@dataclass(frozen=True, slots=True)
class Turn:
    """What one pass of the file did for a seat (:meth:`PbemGame.turn`)."""

    keyring: Keyring
    #: The plots revealed, in order (the first usually the step before, the last maybe the one just committed).
    revealed: tuple[Sealed, ...] = ()
    #: The orders committed for the step the seat is prompted at, if any.
    committed: Sealed | None = None
    #: What the reveals resolved.
    events: tuple[Event, ...] = ()
    #: The seat owes orders at this step that it has not given yet.
    needs_orders: bool = False


def _fresh(value: str, n: int) -> str:
    """The ``n``-th fresh value of a pass from the one the front end drew (itself for the first)."""
    return value if n == 0 else digest("vectorwar-pbem-fresh", value, n)


# -- the game ----------------------------------------------------------------------


@dataclass(slots=True)
class PbemGame:
    """A play-by-e-mail game: its set-up, every action so far, and the game they have played.

    Every method that adds an action checks everything first: a refused action
    changes nothing.
    """

    game_id: str
    system: RuleSystem[Any]
    scenario: Scenario
    options: dict[str, OptionValue]
    actions: list[Action] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)
    game: Game | None = None
    step: int = 0
    commits: dict[str, Commit] = field(default_factory=dict)
    reveals: dict[str, Reveal] = field(default_factory=dict)
    #: Hours each step may wait for a seat before the others can claim it; ``None``: no deadline.
    deadline_hours: int | None = None
    #: The seats claimed against at this step: they owe nothing more at it.
    forfeited: dict[str, Claim] = field(default_factory=dict)

    @classmethod
    def new(
        cls,
        scenario: Scenario,
        game_id: str,
        options: Mapping[str, object] | None = None,
        deadline_hours: int | None = None,
    ) -> PbemGame:
        """A game of ``scenario`` at step 0, before any side committed; ``game_id`` is 32 random hex digits.

        ``deadline_hours`` writes a deadline per step into the set-up (and so into the genesis hash).
        """
        if not re.fullmatch(rf"[0-9a-f]{{{GAME_ID_DIGITS}}}", game_id):
            raise PbemError(f"game id: {GAME_ID_DIGITS} hex digits, not {game_id[:40]!r}")
        if deadline_hours is not None and not 1 <= deadline_hours <= MAX_DEADLINE_HOURS:
            raise PbemError(f"deadline: {deadline_hours} hours a step is not from 1 to {MAX_DEADLINE_HOURS}")
        system = get_system(scenario.system)
        # A trial set-up checks the scenario and options now, not after every side has committed.
        trial = Game.new(system, scenario, 0, options)
        pbem = cls(game_id, system, scenario, dict(trial.options), deadline_hours=deadline_hours)
        pbem.chain.append(pbem.genesis())
        return pbem

    def genesis(self) -> str:
        """The hash of the file's first state: the game id and everything the game is set up from."""
        parts: list[Any] = [
            "vectorwar-pbem-genesis", FORMAT, VERSION, self.game_id, self.system.manifest.name,
            self.scenario.to_data(), self.options,
        ]  # fmt: skip
        if self.deadline_hours is not None:
            # Only a game with a deadline hashes one, so a game without keeps the genesis it always had.
            parts.append({"deadline_hours": self.deadline_hours})
        return digest(*parts)

    # -- asking ---------------------------------------------------------------

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(side.id for side in self.scenario.sides)

    @property
    def sequence(self) -> int:
        """How many actions the file holds: the number of its state."""
        return len(self.actions)

    @property
    def head(self) -> str:
        return self.chain[-1]

    @property
    def previous(self) -> str | None:
        return self.chain[-2] if len(self.chain) > 1 else None

    @property
    def is_over(self) -> bool:
        return self.game is not None and self.game.is_over

    @property
    def result(self) -> Result | None:
        return self.game.result if self.game is not None and self.game.is_over else None

    @property
    def prompted(self) -> tuple[str, ...]:
        """The seats with orders to give at this step (none at step 0, the set-up's dice)."""
        prompt = self.game.prompt if self.game is not None else None
        return prompt.seats if prompt is not None else ()

    @property
    def moment(self) -> str:
        """The step in words: ``set-up: drawing the dice``, the game's clock, or ``game over``."""
        if self.game is None:
            return "set-up: drawing the dice"
        return "game over" if self.game.is_over else str(self.game.clock)

    def owed(self) -> dict[str, Owed]:
        """What each side owes now, by seat: a commitment, or a reveal once every side committed."""
        if self.is_over:
            return {}
        active = self.active
        if any(s not in self.commits for s in active):
            return {s: "commit" for s in active if s not in self.commits}
        return {s: "reveal" for s in active if s not in self.reveals}

    @property
    def active(self) -> tuple[str, ...]:
        """The seats that take part in this step: every seat but those a claim has silenced at it."""
        return tuple(s for s in self.seats if s not in self.forfeited)

    @property
    def last_time(self) -> int | None:
        """The time the file's last action records (``None``: none recorded)."""
        return self.actions[-1].at if self.actions else None

    def claimable_at(self) -> int | None:
        """When the seats owing something now may be claimed against: the last action's time plus the deadline."""
        last = self.last_time
        if self.deadline_hours is None or last is None or self.is_over:
            return None
        return last + self.deadline_hours * 3600

    # -- sealing, committing, revealing ----------------------------------------

    def check_plot(self, seat: str, text: str) -> str:
        """``text`` as ``seat``'s plot at this step, in its canonical form, checked as play checks it."""
        self.check_seat(seat)
        if seat not in self.prompted:
            if text.strip():
                waiting = ", ".join(self.prompted) or "no one: the set-up only draws the dice"
                raise OutOfStepError(f"{seat} has no orders to give at {self.moment} (waiting for {waiting}); "
                                     "commit with no plot")  # fmt: skip
            return ""
        if self.game is None:  # pragma: no cover - step 0 prompts no one
            raise OutOfStepError("no orders are given while the set-up draws the dice")
        return str(self.game.check(seat, text))

    def seal(self, seat: str, text: str, salt: str, secret: str) -> Sealed:
        """``seat``'s plot sealed with a fresh ``salt`` and ``secret``, ready to commit; nothing is added."""
        self._owes(seat, "commit")
        _hex("salt", salt)
        _hex("secret", secret)
        return Sealed(self.step, self.check_plot(seat, text), salt, secret)

    def commit(self, seat: str, plot_hash: str, key_hash: str, at: int | None = None) -> Commit:
        self.check_seat(seat)
        self._not_over()
        self._not_silenced(seat)
        self._check_time(at)
        if seat in self.commits:
            raise DoubleCommitError(
                f"{seat} has already committed at step {self.step} ({self.moment}); a commitment binds, "
                "so a second one is refused"
            )
        _hex("plot_hash", plot_hash)
        _hex("key_hash", key_hash)
        action = Commit(self.step, seat, plot_hash, key_hash, at)
        self.commits[seat] = action
        self._append(action)
        return action

    def reveal_sealed(self, keyring: Keyring, at: int | None = None) -> tuple[Sealed, list[Event]]:
        """Reveal what ``keyring`` sealed for this step: that plot, and the events its reveal resolved
        (none until the step's last reveal). Raises :class:`OutOfStepError` if nothing is sealed for it."""
        sealed = keyring.sealed_at(self.step)
        if sealed is None:
            raise OutOfStepError(
                f"the keyring of {keyring.seat} holds no sealed plot for step {self.step}: commit first"
            )
        start = len(self.game.events) if self.game is not None else 0
        self.reveal(keyring.seat, sealed.plot, sealed.salt, sealed.secret, at)
        return sealed, list(self.game.events[start:]) if self.game is not None else []

    def reveal(self, seat: str, plot: str, salt: str, secret: str, at: int | None = None) -> Reveal:
        """Open ``seat``'s commitment; the last reveal of a step resolves it with the dice of every secret."""
        self.check_seat(seat)
        self._not_over()
        self._not_silenced(seat)
        self._check_time(at)
        if seat in self.reveals:
            raise OutOfStepError(f"{seat} has already revealed at step {self.step} ({self.moment})")
        missing = [s for s in self.active if s not in self.commits]
        if missing:
            raise EarlyRevealError(
                f"{seat} cannot reveal at step {self.step} ({self.moment}) before every side has committed; "
                f"waiting for the commitment of {', '.join(missing)}"
            )
        committed = self.commits[seat]
        if key_commitment(self.game_id, self.step, seat, salt, secret) != committed.key_hash:
            raise WrongRevealError(
                f"{seat}'s salt or secret is not the one committed to at step {self.step} ({self.moment}); "
                "reveal from the keyring that made the commitment"
            )
        if plot_commitment(self.game_id, self.step, seat, plot, salt) != committed.plot_hash:
            raise PlotChangedError(
                f"{seat}'s revealed plot {plot[:60]!r} is not the plot committed to at step {self.step} "
                f"({self.moment}): a plot cannot change once committed"
            )
        if self.check_plot(seat, plot) != plot:
            # Only a plot written by hand gets here: the same plot but not in its canonical words.
            raise PlotChangedError(f"{seat}'s revealed plot {plot[:60]!r} is not written as the game writes it")
        action = Reveal(self.step, seat, plot, salt, secret, at)
        reveals = {**self.reveals, seat: action}
        if len(reveals) == len(self.active):
            self._resolve(reveals)
        else:
            self.reveals[seat] = action
        self._append(action)
        return action

    def turn(self, keyring: Keyring, order: str | None, salt: str, secret: str, at: int | None = None) -> Turn:
        """Everything ``keyring``'s seat owes in one pass of the file, so a step costs one file from each side.

        In order: reveal what the seat sealed for this step, if it owes that reveal (the last reveal resolves
        the step); then, if the seat owes a commitment, seal ``order`` (``None`` for a seat the prompt does not
        name: a secret only) with ``salt`` and ``secret`` and commit it; then, if that commitment was the last
        one of the step, reveal it at once, since every other side is already bound. It stops where the seat
        needs orders it has not given (``order`` is ``None`` and the prompt names it, or was used already).

        A refusal (an order the rules refuse at the new step, say) leaves the game as it was.
        """
        seat = keyring.seat
        before = list(self.actions)
        start = len(self.game.events) if self.game is not None else 0
        done = Turn(keyring)
        try:
            done = self._turn(done, order, salt, secret, at)
        except VectorwarError:
            self._rewind(before)
            raise
        events = list(self.game.events[start:]) if self.game is not None else []
        needs = self.owed().get(seat) == "commit" and seat in self.prompted
        return replace(done, keyring=done.keyring.saw(self, at), events=tuple(events), needs_orders=needs)

    def _turn(self, done: Turn, order: str | None, salt: str, secret: str, at: int | None) -> Turn:
        keyring = done.keyring
        seat = keyring.seat
        commits = 0
        while True:
            owed = self.owed().get(seat)
            if owed == "reveal":
                sealed, _ = self.reveal_sealed(keyring, at)
                keyring = keyring.saw(self, at)
                done = replace(done, revealed=(*done.revealed, sealed))
            elif owed == "commit" and (seat not in self.prompted or order is not None):
                # A fresh salt and secret are needed for each commitment: a seat that commits a second secret
                # in one pass (no orders at two steps running) derives it from the first, never reusing it.
                plot = order if seat in self.prompted and order is not None else ""
                sealed = self.seal(seat, plot, _fresh(salt, commits), _fresh(secret, commits))
                commits += 1
                keyring = keyring.keep(sealed)
                self.commit(seat, *sealed.hashes(self.game_id, seat), at)
                keyring = keyring.saw(self, at)
                done = replace(done, committed=sealed if seat in self.prompted else done.committed)
                if seat in self.prompted:
                    order = None
            else:
                return replace(done, keyring=keyring)

    def _rewind(self, actions: list[Action]) -> None:
        """This game back at the state after ``actions`` (the actions before a refused pass), replayed."""
        again = PbemGame.new(self.scenario, self.game_id, self.options, self.deadline_hours)
        for action in actions:
            again.apply(action)
        for name in ("actions", "chain", "game", "step", "commits", "reveals", "forfeited"):
            setattr(self, name, getattr(again, name))

    def claim(self, seat: str, at: int) -> Claim:
        """``seat`` claims the step against every seat still owing something, once the deadline has passed.

        The deadline runs from the time the file's last action records (when its writer sent the file on)
        and the game's hours per step. Each silent seat's plot is taken as a hold (refused if the rules
        allow no hold here) and its secret is left out of the dice; a claim that leaves nothing owed
        resolves the step at once.
        """
        self.check_seat(seat)
        self._not_over()
        if self.deadline_hours is None:
            raise OutOfStepError("this game was started with no deadline: no step can be claimed")
        owed = self.owed()
        if seat in owed:
            raise OutOfStepError(f"{seat} owes its own {owed[seat]} at step {self.step} ({self.moment}): "
                                 "a side claims only once it has done its part")  # fmt: skip
        since = self.last_time
        if since is None:
            raise OutOfStepError("the file's last action records no time: the deadline cannot be counted")
        self._check_time(at)
        due = since + self.deadline_hours * 3600
        if at < due:
            raise EarlyClaimError(
                f"{seat} cannot claim step {self.step} ({self.moment}) at {time_text(at)}: the file's last action "
                f"was at {time_text(since)} and the deadline of {self.deadline_hours} h ends at {time_text(due)}"
            )
        against = tuple(owed)
        holds = self._holds(against)
        action = Claim(self.step, seat, against, since, at)
        self.forfeited.update(dict.fromkeys(against, action))
        if all(s in self.reveals for s in self.active):
            self._resolve(dict(self.reveals), holds)
        self._append(action)
        return action

    def _holds(self, seats: tuple[str, ...]) -> dict[str, str]:
        """The orders each of ``seats`` gives at this step's prompt when claimed against, checked by the rules.

        A hold where the rules have one (an AV:T segment's ``hold``); where they have none (an MSC or VV5
        plot names every ship's move), the orders of the system's ``greedy`` computer player, its random
        choices drawn from the game id, the step and the seat, so every copy of the file replays the same.
        """
        holds: dict[str, str] = {}
        game = self.game
        for seat in seats:
            if seat not in self.prompted or game is None:
                continue
            order = standing_order(game, seat, Standing(), now=True)
            if order is None:
                bots = self.system.bots()
                bot = bots.get(HOLD_BOT) or next(iter(bots.values()))
                rng = random.Random(digest("vectorwar-pbem-hold", self.game_id, self.step, seat))
                order = str(game.check(seat, str(bot().choose(game.system.seat_view(game.state, seat), seat, rng))))
            holds[seat] = order
        return holds

    def apply(self, action: Action) -> None:
        """Add a recorded action (replaying a file), checked as when it was first made."""
        if action.step != self.step:
            raise OutOfStepError(f"an action of step {action.step} when the game is at step {self.step}")
        if isinstance(action, Commit):
            self.commit(action.seat, action.plot_hash, action.key_hash, action.at)
        elif isinstance(action, Reveal):
            self.reveal(action.seat, action.plot, action.salt, action.secret, action.at)
        else:
            # The claim's own words must be what the file gives: who owes, and since when.
            against, since = tuple(self.owed()), self.last_time
            if (action.against, action.since) != (against, since):
                raise OutOfStepError(
                    f"the claim names {', '.join(action.against)} silent since {time_text(action.since)}; the file "
                    f"gives {', '.join(against) or 'no one'} since {'no time' if since is None else time_text(since)}"
                )
            self.claim(action.seat, action.at)

    def _resolve(self, reveals: Mapping[str, Reveal], holds: Mapping[str, str] | None = None) -> None:
        # The dice come from the secrets revealed: a seat silenced by a claim adds none.
        seed = dice_seed(self.game_id, self.step, {s: r.secret for s, r in reveals.items()})
        if self.game is None:
            self.game = Game.new(self.system, self.scenario, seed, self.options)
        else:
            if holds is None:
                holds = self._holds(tuple(self.forfeited))
            # Every order read before the dice are rekeyed, so nothing changes if one were refused.
            orders = {
                seat: self.game.check(seat, reveals[seat].plot if seat in reveals else holds[seat])
                for seat in self.prompted
            }
            self.game.rekey(seed)
            for seat, order in orders.items():
                self.game.submit(seat, order)
        self.step += 1
        self.commits.clear()
        self.reveals.clear()
        self.forfeited.clear()

    def _append(self, action: Action) -> None:
        self.actions.append(action)
        self.chain.append(link(self.chain[-1], action))

    def check_seat(self, seat: str) -> None:
        if seat not in self.seats:
            raise PbemError(f"this game has no seat {seat!r} (seats: {', '.join(self.seats)})")

    def _not_silenced(self, seat: str) -> None:
        if seat in self.forfeited:
            claim = self.forfeited[seat]
            raise OutOfStepError(
                f"{claim.seat} claimed step {self.step} ({self.moment}) against {seat} at {time_text(claim.at)}: "
                f"{seat} plays no part in it"
            )

    def _check_time(self, at: int | None) -> None:
        """A time recorded must be there exactly when the game has a deadline, and never go back."""
        if (at is None) != (self.deadline_hours is None):
            needed = "a time (this game has a deadline)" if at is None else "no time (this game has no deadline)"
            raise OutOfStepError(f"an action here records {needed}")
        last = self.last_time
        if at is not None:
            if not 0 <= at <= _MAX_TIME:
                raise PbemError(f"time {at} is not a time from 1970 to 9999 in Unix seconds")
            if last is not None and at < last:
                raise OutOfStepError(
                    f"an action at {time_text(at)} comes after one at {time_text(last)}: recorded times never go back"
                )

    def _not_over(self) -> None:
        if self.is_over:
            raise OutOfStepError("the game is over: nothing more can be committed or revealed")

    def _owes(self, seat: str, what: Owed) -> None:
        self.check_seat(seat)
        self._not_over()
        owed = self.owed().get(seat)
        if owed == what:
            return
        if what == "commit" and seat in self.commits:
            raise DoubleCommitError(f"{seat} has already committed at step {self.step} ({self.moment})")
        raise OutOfStepError(f"{seat} owes {owed or 'nothing'} at step {self.step} ({self.moment}), not a {what}")

    # -- the file ------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "vectorwar": __version__,
            "game": self.game_id,
            "system": self.system.manifest.name,
            "options": dict(self.options),
            "scenario": self.scenario.to_data(),
            **({} if self.deadline_hours is None else {"deadline_hours": self.deadline_hours}),
            "actions": [a.to_data() for a in self.actions],
            "sequence": self.sequence,
            "previous": self.previous,
            "head": self.head,
        }


# -- reading files -------------------------------------------------------------------


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Hex64 = Annotated[str, Field(pattern=rf"^[0-9a-f]{{{HEX_DIGITS}}}$")]
SeatName = Annotated[str, Field(min_length=1, max_length=_NAME_MAX)]
StepNumber = Annotated[int, Field(ge=0, le=MAX_HISTORY)]
Time = Annotated[int, Field(ge=0, le=_MAX_TIME)]


class _CommitModel(_Model):
    kind: Literal["commit"]
    step: StepNumber
    seat: SeatName
    plot_hash: Hex64
    key_hash: Hex64
    at: Time | None = None


class _RevealModel(_Model):
    kind: Literal["reveal"]
    step: StepNumber
    seat: SeatName
    plot: str = Field(max_length=MAX_ORDER_CHARS)
    salt: Hex64
    secret: Hex64
    at: Time | None = None


class _ClaimModel(_Model):
    kind: Literal["claim"]
    step: StepNumber
    seat: SeatName
    against: list[SeatName] = Field(min_length=1, max_length=MAX_SIDES)
    since: Time
    at: Time


class _FileModel(_Model):
    format: Literal["vectorwar-pbem"]
    version: Literal[1]
    vectorwar: str = Field(max_length=_NAME_MAX)
    game: str = Field(pattern=rf"^[0-9a-f]{{{GAME_ID_DIGITS}}}$")
    system: str = Field(max_length=_NAME_MAX)
    options: dict[str, bool | int | str] = Field(max_length=_NAME_MAX)
    scenario: dict[str, Any]
    deadline_hours: int | None = Field(default=None, ge=1, le=MAX_DEADLINE_HOURS)
    actions: list[Annotated[_CommitModel | _RevealModel | _ClaimModel, Field(discriminator="kind")]] = Field(
        max_length=MAX_PBEM_ACTIONS
    )
    sequence: int = Field(ge=0, le=MAX_PBEM_ACTIONS)
    previous: Hex64 | None
    head: Hex64


class _SeenModel(_Model):
    sequence: int = Field(ge=0, le=MAX_PBEM_ACTIONS)
    hash: Hex64
    at: Time | None = None


class _SealedModel(_Model):
    step: StepNumber
    plot: str = Field(max_length=MAX_ORDER_CHARS)
    salt: Hex64
    secret: Hex64


class _KeyringModel(_Model):
    format: Literal["vectorwar-pbem-keyring"]
    version: Literal[1]
    game: str = Field(pattern=rf"^[0-9a-f]{{{GAME_ID_DIGITS}}}$")
    seat: SeatName
    seen: _SeenModel
    sealed: list[_SealedModel] = Field(max_length=MAX_SIDES)


def _validated(model: type[_Model], data: Any, source: str, what: str, fmt: str) -> Any:
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise PbemFileError(f"{source}: not a vectorwar {what} (its format is not {fmt!r})")
    if data.get("version") != VERSION:
        raise PbemFileError(f"{source}: {what} version {data.get('version')!r}, this vectorwar reads {VERSION}")
    try:
        return model.model_validate(data)
    except ValidationError as err:
        raise PbemFileError(format_validation_error(source, err, ())) from None


def game_from_data(data: Any, source: str = "pbem file") -> PbemGame:
    """A game file's data, checked: its schema and limits, then every action replayed, then its hash chain."""
    model: _FileModel = _validated(_FileModel, data, source, "play-by-e-mail game file", FORMAT)
    try:
        scenario = scenario_from_data(model.scenario, f"{source}: scenario")
        if scenario.system != model.system:
            raise PbemFileError(f"{source}: the scenario is for {scenario.system}, the file says {model.system}")
        pbem = PbemGame.new(scenario, model.game, model.options, model.deadline_hours)
    except PbemFileError:
        raise
    except VectorwarError as err:
        raise PbemFileError(f"{source}: cannot set the game up: {err}") from None
    for number, raw in enumerate(model.actions, 1):
        action = _action(raw)
        try:
            pbem.apply(action)
        except VectorwarError as err:
            raise PbemFileError(
                f"{source}: action {number} ({action.to_data()['kind']} by {action.seat} at step {action.step}) "
                f"does not replay: {err}"
            ) from None
    if (model.sequence, model.previous, model.head) != (pbem.sequence, pbem.previous, pbem.head):
        raise PbemFileError(
            f"{source}: the file's sequence and hashes do not match its actions (the chain gives state "
            f"{pbem.sequence} with hash {pbem.head[:12]}..., the file says {model.sequence} and "
            f"{model.head[:12]}...): it was edited"
        )
    return pbem


def _action(raw: _CommitModel | _RevealModel | _ClaimModel) -> Action:
    if isinstance(raw, _CommitModel):
        return Commit(raw.step, raw.seat, raw.plot_hash, raw.key_hash, raw.at)
    if isinstance(raw, _RevealModel):
        return Reveal(raw.step, raw.seat, raw.plot, raw.salt, raw.secret, raw.at)
    return Claim(raw.step, raw.seat, tuple(raw.against), raw.since, raw.at)


def keyring_from_data(data: Any, source: str = "keyring") -> Keyring:
    model: _KeyringModel = _validated(_KeyringModel, data, source, "play-by-e-mail keyring", KEYRING_FORMAT)
    sealed = tuple(Sealed(s.step, s.plot, s.salt, s.secret) for s in model.sealed)
    return Keyring(model.game, model.seat, model.seen.sequence, model.seen.hash, sealed, model.seen.at)


def new_keyring(pbem: PbemGame, seat: str) -> Keyring:
    """A seat's first keyring for ``pbem``, checked against the whole file.

    A new keyring has seen only the file's first state and sealed nothing, so a file that already holds
    an action for ``seat`` (another player wrote it before this one ever opened the file) is refused
    with :class:`ForeignActionError`: no one can commit, reveal or plot for a seat but its own player.

    >>> from vectorwar.catalogue import builtin_scenario
    >>> pbem = PbemGame.new(builtin_scenario("msc-duel"), "0" * 32)
    >>> _ = pbem.commit("blue", "1" * 64, "2" * 64)  # red writes blue's commitment
    >>> new_keyring(pbem, "blue")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    vectorwar.errors.ForeignActionError: the file holds a commitment for blue at step 0 that blue's keyring ...
    """
    pbem.check_seat(seat)
    keyring = Keyring(pbem.game_id, seat, 0, pbem.chain[0])
    check_keyring(pbem, keyring, seat)
    return keyring.saw(pbem)


def check_keyring(pbem: PbemGame, keyring: Keyring, seat: str | None = None, now: int | None = None) -> None:
    """Refuse a file that does not follow from what ``keyring``'s player (of ``seat``) has seen.

    Another game's file, a seat the keyring is not for, a file older than the last
    one seen or with a different history, and an action for the keyring's seat that
    its player did not make are each refused with their own error. A claim against
    the keyring's seat is checked against the player's own record of when the file
    reached them and against ``now`` (this player's clock): one made before the
    deadline by that record is refused with :class:`EarlyClaimError`.
    """
    if seat is not None and keyring.seat != seat:
        raise SwappedFileError(f"the keyring is {keyring.seat}'s, not {seat}'s: a keyring of another seat")
    if keyring.game != pbem.game_id:
        raise SwappedFileError(
            f"this file is game {pbem.game_id}, but the keyring of {keyring.seat} is for game {keyring.game}: "
            "a file of another game"
        )
    if keyring.seat not in pbem.seats:
        raise SwappedFileError(f"the keyring is for seat {keyring.seat!r}, which this game does not have")
    if keyring.seen_sequence > pbem.sequence:
        raise StaleFileError(
            f"this file is at state {pbem.sequence} ({pbem.moment}), but {keyring.seat} has already seen state "
            f"{keyring.seen_sequence} of this game: an old or replayed file"
        )
    if pbem.chain[keyring.seen_sequence] != keyring.seen_hash:
        raise StaleFileError(
            f"this file's history differs from the one {keyring.seat} saw at state {keyring.seen_sequence}: "
            "an earlier action was changed or the file was forked"
        )
    for number, action in enumerate(pbem.actions[keyring.seen_sequence :], keyring.seen_sequence):
        if isinstance(action, Claim):
            if keyring.seat in action.against and number == keyring.seen_sequence:
                _check_claim_by_record(pbem, keyring, action, now)
            continue
        if action.seat != keyring.seat:
            continue
        sealed = keyring.sealed_at(action.step)
        if sealed is None or not sealed.opens(action, pbem.game_id):
            kind = "commitment" if isinstance(action, Commit) else "reveal"
            raise ForeignActionError(
                f"the file holds a {kind} for {keyring.seat} at step {action.step} that {keyring.seat}'s keyring "
                "did not make: someone else wrote it"
            )


def _check_claim_by_record(pbem: PbemGame, keyring: Keyring, claim: Claim, now: int | None) -> None:
    """The silent seat's own check of a claim against it: by its record, had the deadline passed?

    The keyring's ``seen_at`` is when this player's tools first opened the state the claim follows, so the
    deadline by the player's own record ends ``deadline_hours`` later; a claim stamped before it, or
    arriving before it by this player's clock, was not made after the deadline.
    """
    if keyring.seen_at is None or pbem.deadline_hours is None:
        return
    due = keyring.seen_at + pbem.deadline_hours * 3600
    if claim.at < due or (now is not None and now < due):
        when = (
            f"the claim says {time_text(claim.at)}" if claim.at < due or now is None else f"it is now {time_text(now)}"
        )
        raise EarlyClaimError(
            f"{claim.seat} claimed step {claim.step} against {keyring.seat}, but by {keyring.seat}'s own record the "
            f"file reached it at {time_text(keyring.seen_at)}, so the deadline of {pbem.deadline_hours} h ends at "
            f"{time_text(due)} and {when}: a claim before the deadline"
        )


def _hex(what: str, value: str) -> None:
    if not _HEX.fullmatch(value):
        raise PbemError(f"{what}: {HEX_DIGITS} lower-case hex digits, not {value[:24]!r}")


__all__ = [
    "FORMAT",
    "KEYRING_FORMAT",
    "Claim",
    "Commit",
    "Keyring",
    "PbemGame",
    "Reveal",
    "Sealed",
    "check_keyring",
    "dice_seed",
    "digest",
    "game_from_data",
    "keyring_from_data",
    "new_keyring",
]
