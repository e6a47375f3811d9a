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
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vectorwar import __version__
from vectorwar.errors import (
    DoubleCommitError,
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

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": "commit",
            "step": self.step,
            "seat": self.seat,
            "plot_hash": self.plot_hash,
            "key_hash": self.key_hash,
        }


@dataclass(frozen=True, slots=True)
class Reveal:
    """A side opening its commitment: the plot, the salt and the secret."""

    step: int
    seat: str
    plot: str
    salt: str
    secret: str

    def to_data(self) -> dict[str, Any]:
        return {
            "kind": "reveal",
            "step": self.step,
            "seat": self.seat,
            "plot": self.plot,
            "salt": self.salt,
            "secret": self.secret,
        }


Action = Commit | Reveal


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
        return (action.plot, action.salt, action.secret) == (self.plot, self.salt, self.secret)


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

    def sealed_at(self, step: int) -> Sealed | None:
        return next((s for s in self.sealed if s.step == step), None)

    def keep(self, sealed: Sealed) -> Keyring:
        return replace(self, sealed=(*(s for s in self.sealed if s.step != sealed.step), sealed))

    def saw(self, pbem: PbemGame) -> Keyring:
        """This keyring after its player has seen ``pbem`` (sealed plots of resolved steps dropped)."""
        kept = tuple(s for s in self.sealed if s.step >= pbem.step)
        return replace(self, seen_sequence=pbem.sequence, seen_hash=pbem.head, sealed=kept)

    def to_data(self) -> dict[str, Any]:
        return {
            "format": KEYRING_FORMAT,
            "version": VERSION,
            "game": self.game,
            "seat": self.seat,
            "seen": {"sequence": self.seen_sequence, "hash": self.seen_hash},
            "sealed": [{"step": s.step, "plot": s.plot, "salt": s.salt, "secret": s.secret} for s in self.sealed],
        }


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

    @classmethod
    def new(cls, scenario: Scenario, game_id: str, options: Mapping[str, object] | None = None) -> PbemGame:
        """A game of ``scenario`` at step 0, before any side committed; ``game_id`` is 32 random hex digits."""
        if not re.fullmatch(rf"[0-9a-f]{{{GAME_ID_DIGITS}}}", game_id):
            raise PbemError(f"game id: {GAME_ID_DIGITS} hex digits, not {game_id[:40]!r}")
        system = get_system(scenario.system)
        # A trial set-up checks the scenario and options now, not after every side has committed.
        trial = Game.new(system, scenario, 0, options)
        pbem = cls(game_id, system, scenario, dict(trial.options))
        pbem.chain.append(pbem.genesis())
        return pbem

    def genesis(self) -> str:
        """The hash of the file's first state: the game id and everything the game is set up from."""
        return digest(
            "vectorwar-pbem-genesis", FORMAT, VERSION, self.game_id, self.system.manifest.name,
            self.scenario.to_data(), self.options,
        )  # fmt: skip

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
        if len(self.commits) < len(self.seats):
            return {s: "commit" for s in self.seats if s not in self.commits}
        return {s: "reveal" for s in self.seats if s not in self.reveals}

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

    def commit(self, seat: str, plot_hash: str, key_hash: str) -> Commit:
        self.check_seat(seat)
        self._not_over()
        if seat in self.commits:
            raise DoubleCommitError(
                f"{seat} has already committed at step {self.step} ({self.moment}); a commitment binds, "
                "so a second one is refused"
            )
        _hex("plot_hash", plot_hash)
        _hex("key_hash", key_hash)
        action = Commit(self.step, seat, plot_hash, key_hash)
        self.commits[seat] = action
        self._append(action)
        return action

    def reveal_sealed(self, keyring: Keyring) -> tuple[Sealed, list[Event]]:
        """Reveal what ``keyring`` sealed for this step: that plot, and the events its reveal resolved
        (none until the step's last reveal). Raises :class:`OutOfStepError` if nothing is sealed for it."""
        sealed = keyring.sealed_at(self.step)
        if sealed is None:
            raise OutOfStepError(
                f"the keyring of {keyring.seat} holds no sealed plot for step {self.step}: commit first"
            )
        start = len(self.game.events) if self.game is not None else 0
        self.reveal(keyring.seat, sealed.plot, sealed.salt, sealed.secret)
        return sealed, list(self.game.events[start:]) if self.game is not None else []

    def reveal(self, seat: str, plot: str, salt: str, secret: str) -> Reveal:
        """Open ``seat``'s commitment; the last reveal of a step resolves it with the dice of every secret."""
        self.check_seat(seat)
        self._not_over()
        if seat in self.reveals:
            raise OutOfStepError(f"{seat} has already revealed at step {self.step} ({self.moment})")
        missing = [s for s in self.seats if s not in self.commits]
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
        action = Reveal(self.step, seat, plot, salt, secret)
        if len(self.reveals) + 1 == len(self.seats):
            self._resolve({**self.reveals, seat: action})
        else:
            self.reveals[seat] = action
        self._append(action)
        return action

    def apply(self, action: Action) -> None:
        """Add a recorded action (replaying a file), checked as when it was first made."""
        if action.step != self.step:
            raise OutOfStepError(f"an action of step {action.step} when the game is at step {self.step}")
        if isinstance(action, Commit):
            self.commit(action.seat, action.plot_hash, action.key_hash)
        else:
            self.reveal(action.seat, action.plot, action.salt, action.secret)

    def _resolve(self, reveals: Mapping[str, Reveal]) -> None:
        seed = dice_seed(self.game_id, self.step, {s: r.secret for s, r in reveals.items()})
        if self.game is None:
            self.game = Game.new(self.system, self.scenario, seed, self.options)
        else:
            # Every order read before the dice are rekeyed, so nothing changes if one were refused.
            orders = {seat: self.game.check(seat, reveals[seat].plot) for seat in self.prompted}
            self.game.rekey(seed)
            for seat, order in orders.items():
                self.game.submit(seat, order)
        self.step += 1
        self.commits.clear()
        self.reveals.clear()

    def _append(self, action: Action) -> None:
        self.actions.append(action)
        self.chain.append(link(self.chain[-1], action))

    def check_seat(self, seat: str) -> None:
        if seat not in self.seats:
            raise PbemError(f"this game has no seat {seat!r} (seats: {', '.join(self.seats)})")

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


class _CommitModel(_Model):
    kind: Literal["commit"]
    step: StepNumber
    seat: SeatName
    plot_hash: Hex64
    key_hash: Hex64


class _RevealModel(_Model):
    kind: Literal["reveal"]
    step: StepNumber
    seat: SeatName
    plot: str = Field(max_length=MAX_ORDER_CHARS)
    salt: Hex64
    secret: Hex64


class _FileModel(_Model):
    format: Literal["vectorwar-pbem"]
    version: Literal[1]
    vectorwar: str = Field(max_length=_NAME_MAX)
    game: str = Field(pattern=rf"^[0-9a-f]{{{GAME_ID_DIGITS}}}$")
    system: str = Field(max_length=_NAME_MAX)
    options: dict[str, bool | int | str] = Field(max_length=_NAME_MAX)
    scenario: dict[str, Any]
    actions: list[Annotated[_CommitModel | _RevealModel, Field(discriminator="kind")]] = Field(
        max_length=MAX_PBEM_ACTIONS
    )
    sequence: int = Field(ge=0, le=MAX_PBEM_ACTIONS)
    previous: Hex64 | None
    head: Hex64


class _SeenModel(_Model):
    sequence: int = Field(ge=0, le=MAX_PBEM_ACTIONS)
    hash: Hex64


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
        pbem = PbemGame.new(scenario, model.game, model.options)
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


def _action(raw: _CommitModel | _RevealModel) -> Action:
    if isinstance(raw, _CommitModel):
        return Commit(raw.step, raw.seat, raw.plot_hash, raw.key_hash)
    return Reveal(raw.step, raw.seat, raw.plot, raw.salt, raw.secret)


def keyring_from_data(data: Any, source: str = "keyring") -> Keyring:
    model: _KeyringModel = _validated(_KeyringModel, data, source, "play-by-e-mail keyring", KEYRING_FORMAT)
    sealed = tuple(Sealed(s.step, s.plot, s.salt, s.secret) for s in model.sealed)
    return Keyring(model.game, model.seat, model.seen.sequence, model.seen.hash, sealed)


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


def check_keyring(pbem: PbemGame, keyring: Keyring, seat: str | None = None) -> None:
    """Refuse a file that does not follow from what ``keyring``'s player (of ``seat``) has seen.

    Another game's file, a seat the keyring is not for, a file older than the last
    one seen or with a different history, and an action for the keyring's seat that
    its player did not make are each refused with their own error.
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
    for action in pbem.actions[keyring.seen_sequence :]:
        if action.seat != keyring.seat:
            continue
        sealed = keyring.sealed_at(action.step)
        if sealed is None or not sealed.opens(action, pbem.game_id):
            kind = "commitment" if isinstance(action, Commit) else "reveal"
            raise ForeignActionError(
                f"the file holds a {kind} for {keyring.seat} at step {action.step} that {keyring.seat}'s keyring "
                "did not make: someone else wrote it"
            )


def _hex(what: str, value: str) -> None:
    if not _HEX.fullmatch(value):
        raise PbemError(f"{what}: {HEX_DIGITS} lower-case hex digits, not {value[:24]!r}")


__all__ = [
    "FORMAT",
    "KEYRING_FORMAT",
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
