"""Reading play-by-e-mail files and keyrings, and checking a file against what its player has seen."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vectorwar.errors import (
    EarlyClaimError,
    ForeignActionError,
    PbemFileError,
    StaleFileError,
    SwappedFileError,
    VectorwarError,
)
from vectorwar.limits import MAX_HISTORY, MAX_ORDER_CHARS, MAX_PBEM_ACTIONS, MAX_SIDES
from vectorwar.pbem.game import PbemGame
from vectorwar.pbem.protocol import (
    FORMAT,
    GAME_ID_DIGITS,
    HEX_DIGITS,
    KEYRING_FORMAT,
    MAX_DEADLINE_HOURS,
    MAX_TIME,
    NAME_MAX,
    VERSIONS,
    Action,
    Agree,
    Claim,
    Commit,
    Concede,
    Keyring,
    Reveal,
    Sealed,
    time_text,
    unwire,
)
from vectorwar.scenario import format_validation_error, scenario_from_data

# -- reading files -------------------------------------------------------------------


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


Hex64 = Annotated[str, Field(pattern=rf"^[0-9a-f]{{{HEX_DIGITS}}}$")]
SideName = Annotated[str, Field(min_length=1, max_length=NAME_MAX)]
StepNumber = Annotated[int, Field(ge=0, le=MAX_HISTORY)]
Time = Annotated[int, Field(ge=0, le=MAX_TIME)]


class _CommitModel(_Model):
    kind: Literal["commit"]
    step: StepNumber
    side: SideName
    plot_hash: Hex64
    key_hash: Hex64
    at: Time | None = None


class _RevealModel(_Model):
    kind: Literal["reveal"]
    step: StepNumber
    side: SideName
    plot: str = Field(max_length=MAX_ORDER_CHARS)
    salt: Hex64
    secret: Hex64
    at: Time | None = None


class _ClaimModel(_Model):
    kind: Literal["claim"]
    step: StepNumber
    side: SideName
    against: list[SideName] = Field(min_length=1, max_length=MAX_SIDES)
    since: Time
    at: Time


class _ConcedeModel(_Model):
    kind: Literal["concede"]
    step: StepNumber
    side: SideName
    at: Time | None = None


class _AgreeModel(_Model):
    kind: Literal["agree"]
    step: StepNumber
    side: SideName
    at: Time | None = None


_RawAction = _CommitModel | _RevealModel | _ClaimModel | _ConcedeModel | _AgreeModel
_ActionModel = Annotated[_RawAction, Field(discriminator="kind")]


class _FileModel(_Model):
    format: Literal["vectorwar-pbem"]
    version: Literal[1, 2]
    vectorwar: str = Field(max_length=NAME_MAX)
    game: str = Field(pattern=rf"^[0-9a-f]{{{GAME_ID_DIGITS}}}$")
    system: str = Field(max_length=NAME_MAX)
    options: dict[str, bool | int | str] = Field(max_length=NAME_MAX)
    scenario: dict[str, Any]
    deadline_hours: int | None = Field(default=None, ge=1, le=MAX_DEADLINE_HOURS)
    whole_turns: Literal[True] | None = None
    actions: list[_ActionModel] = Field(max_length=MAX_PBEM_ACTIONS)
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
    version: Literal[1, 2]
    game: str = Field(pattern=rf"^[0-9a-f]{{{GAME_ID_DIGITS}}}$")
    side: SideName
    seen: _SeenModel
    sealed: list[_SealedModel] = Field(max_length=MAX_SIDES)
    sent: list[_ActionModel] = Field(default_factory=list, max_length=MAX_PBEM_ACTIONS)


def _validated(model: type[_Model], data: Any, source: str, what: str, fmt: str) -> Any:
    if not isinstance(data, dict) or data.get("format") != fmt:
        raise PbemFileError(f"{source}: not a vectorwar {what} (its format is not {fmt!r})")
    version = data.get("version")
    if version not in VERSIONS:
        readable = " and ".join(str(v) for v in VERSIONS)
        raise PbemFileError(f"{source}: {what} version {version!r}, this vectorwar reads versions {readable}")
    # An older version's words are this one's before the schema reads them (protocol.wire).
    data = unwire(data, version)
    for key in ("actions", "sent"):
        if isinstance(data.get(key), list):
            data = {**data, key: [unwire(a, version) if isinstance(a, dict) else a for a in data[key]]}
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
        pbem = PbemGame.new(
            scenario, model.game, model.options, model.deadline_hours, bool(model.whole_turns), model.version
        )
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
                f"{source}: action {number} ({action.to_data()['kind']} by {action.side} at step {action.step}) "
                f"does not replay: {err}"
            ) from None
    if (model.sequence, model.previous, model.head) != (pbem.sequence, pbem.previous, pbem.head):
        raise PbemFileError(
            f"{source}: the file's sequence and hashes do not match its actions (the chain gives state "
            f"{pbem.sequence} with hash {pbem.head[:12]}..., the file says {model.sequence} and "
            f"{model.head[:12]}...): it was edited"
        )
    return pbem


def _action(raw: _RawAction) -> Action:
    if isinstance(raw, _ConcedeModel):
        return Concede(raw.step, raw.side, raw.at)
    if isinstance(raw, _AgreeModel):
        return Agree(raw.step, raw.side, raw.at)
    if isinstance(raw, _CommitModel):
        return Commit(raw.step, raw.side, raw.plot_hash, raw.key_hash, raw.at)
    if isinstance(raw, _RevealModel):
        return Reveal(raw.step, raw.side, raw.plot, raw.salt, raw.secret, raw.at)
    return Claim(raw.step, raw.side, tuple(raw.against), raw.since, raw.at)


def keyring_from_data(data: Any, source: str = "keyring") -> Keyring:
    model: _KeyringModel = _validated(_KeyringModel, data, source, "play-by-e-mail keyring", KEYRING_FORMAT)
    sealed = tuple(Sealed(s.step, s.plot, s.salt, s.secret) for s in model.sealed)
    sent = tuple(_action(a) for a in model.sent)
    if any(a.side != model.side for a in sent):
        raise PbemFileError(f"{source}: the keyring's last pass holds another side's action")
    seen = model.seen
    return Keyring(model.game, model.side, seen.sequence, seen.hash, sealed, seen.at, sent, model.version)


def new_keyring(pbem: PbemGame, side: str) -> Keyring:
    """A side's first keyring for ``pbem``, checked against the whole file.

    A new keyring has seen only the file's first state and sealed nothing, so a file that already holds
    an action for ``side`` (another player wrote it before this one ever opened the file) is refused
    with :class:`ForeignActionError`: no one can commit, reveal or plot for a side but its own player.

    >>> from vectorwar.catalogue import builtin_scenario
    >>> pbem = PbemGame.new(builtin_scenario("msc-duel"), "0" * 32)
    >>> _ = pbem.commit("blue", "1" * 64, "2" * 64)  # red writes blue's commitment
    >>> new_keyring(pbem, "blue")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    vectorwar.errors.ForeignActionError: the file holds a commitment for blue at step 0 that blue's keyring ...
    """
    pbem.check_side(side)
    keyring = Keyring(pbem.game_id, side, 0, pbem.chain[0], version=pbem.version)
    check_keyring(pbem, keyring, side)
    return keyring.saw(pbem)


def check_keyring(pbem: PbemGame, keyring: Keyring, side: str | None = None, now: int | None = None) -> None:
    """Refuse a file that does not follow from what ``keyring``'s player (of ``side``) has seen.

    Another game's file, a side the keyring is not for, a file older than the last
    one seen or with a different history, and an action for the keyring's side that
    its player did not make are each refused with their own error. A claim against
    the keyring's side is checked against the player's own record of when the file
    reached them and against ``now`` (this player's clock): one made before the
    deadline by that record is refused with :class:`EarlyClaimError`.
    """
    if side is not None and keyring.side != side:
        raise SwappedFileError(f"the keyring is {keyring.side}'s, not {side}'s: a keyring of another side")
    if keyring.game != pbem.game_id:
        raise SwappedFileError(
            f"this file is game {pbem.game_id}, but the keyring of {keyring.side} is for game {keyring.game}: "
            "a file of another game"
        )
    if keyring.side not in pbem.sides:
        raise SwappedFileError(f"the keyring is for side {keyring.side!r}, which this game does not have")
    if keyring.seen_sequence > pbem.sequence:
        raise StaleFileError(
            f"this file is at state {pbem.sequence} ({pbem.moment}), but {keyring.side} has already seen state "
            f"{keyring.seen_sequence} of this game: an old or replayed file"
        )
    if pbem.chain[keyring.seen_sequence] != keyring.seen_hash:
        raise StaleFileError(
            f"this file's history differs from the one {keyring.side} saw at state {keyring.seen_sequence}: "
            "an earlier action was changed or the file was forked"
        )
    for number, action in enumerate(pbem.actions[keyring.seen_sequence :], keyring.seen_sequence):
        if isinstance(action, Claim):
            if keyring.side in action.against and number == keyring.seen_sequence:
                _check_claim_by_record(pbem, keyring, action, now)
            continue
        if action.side != keyring.side:
            continue
        if isinstance(action, Concede | Agree):
            # A player's own concession or agreement is behind what its keyring has seen (its tools saw the
            # file after adding it), so one still ahead of it was written by someone else.
            kind = "a concession" if isinstance(action, Concede) else "an agreement to a draw"
            raise ForeignActionError(
                f"the file holds {kind} by {keyring.side} at step {action.step} that {keyring.side}'s "
                "keyring did not make: someone else wrote it"
            )
        sealed = keyring.sealed_at(action.step)
        if sealed is None or not sealed.opens(action, pbem.game_id):
            kind = "commitment" if isinstance(action, Commit) else "reveal"
            raise ForeignActionError(
                f"the file holds a {kind} for {keyring.side} at step {action.step} that {keyring.side}'s keyring "
                "did not make: someone else wrote it"
            )


def _check_claim_by_record(pbem: PbemGame, keyring: Keyring, claim: Claim, now: int | None) -> None:
    """The silent side's own check of a claim against it: by its record, had the deadline passed?

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
            f"{claim.side} claimed step {claim.step} against {keyring.side}, but by {keyring.side}'s own record the "
            f"file reached it at {time_text(keyring.seen_at)}, so the deadline of {pbem.deadline_hours} h ends at "
            f"{time_text(due)} and {when}: a claim before the deadline"
        )


def rebuild(others: PbemGame, keyring: Keyring) -> PbemGame:
    """The file ``keyring``'s player last sent, rebuilt from ``others`` (the file that pass followed) and the keyring.

    The keyring keeps the actions of its player's last pass (:attr:`Keyring.sent`), so the file it made is
    ``others`` with them added again; the rebuilt file must end in exactly the state the keyring last saw
    (its hash), or it is refused. ``others`` is changed in place and returned.
    """
    if keyring.game != others.game_id:
        raise SwappedFileError(
            f"this file is game {others.game_id}, but the keyring of {keyring.side} is for game {keyring.game}"
        )
    if others.sequence >= keyring.seen_sequence:
        check_keyring(others, keyring)
        raise StaleFileError(
            f"nothing to rebuild: this file is at state {others.sequence} and already holds state "
            f"{keyring.seen_sequence}, the newest {keyring.side} made: play on from it"
        )
    base = keyring.seen_sequence - len(keyring.sent)
    if not keyring.sent or others.sequence != base:
        raise StaleFileError(
            f"{keyring.side}'s last pass followed state {base} of the game, and this file is at state "
            f"{others.sequence}: rebuild from the file {keyring.side} answered last"
        )
    for action in keyring.sent:
        try:
            others.apply(action)
        except VectorwarError as err:
            raise StaleFileError(f"{keyring.side}'s last pass does not follow this file: {err}") from None
    if others.head != keyring.seen_hash:
        raise StaleFileError(
            f"the rebuilt file's hash {others.head[:12]}... is not the {keyring.seen_hash[:12]}... {keyring.side} "
            "saw last: this file's history differs from the one that pass followed"
        )
    return others
