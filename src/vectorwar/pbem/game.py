"""A play-by-e-mail game: its set-up, its actions and the game they have played (:mod:`vectorwar.pbem`)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from vectorwar import __version__
from vectorwar.autopilot import Standing
from vectorwar.errors import (
    DoubleCommitError,
    EarlyClaimError,
    EarlyRevealError,
    OutOfStepError,
    PbemError,
    PlotChangedError,
    VectorwarError,
    WrongRevealError,
)
from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.pbem.protocol import (
    FORMAT,
    GAME_ID_DIGITS,
    MAX_DEADLINE_HOURS,
    MAX_TIME,
    VERSION,
    Action,
    Agree,
    Claim,
    Commit,
    Concede,
    Keyring,
    Owed,
    Reveal,
    Sealed,
    Turn,
    check_hex,
    dice_seed,
    digest,
    fresh_value,
    key_commitment,
    link,
    plot_commitment,
    plot_text,
    split_plot,
    time_text,
    wire,
)
from vectorwar.pbem.standing import checked_standing, run_on, silent_orders
from vectorwar.registry import get_system
from vectorwar.rules import OptionValue, Result, RuleSystem
from vectorwar.scenario import Scenario

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
    #: Hours each step may wait for a side before the others can claim it; ``None``: no deadline.
    deadline_hours: int | None = None
    #: The sides claimed against at this step: they owe nothing more at it.
    forfeited: dict[str, Claim] = field(default_factory=dict)
    #: A step is a whole turn: each plot carries standing fire that answers the turn's later prompts.
    whole_turns: bool = False
    #: Each side's standing orders, from its last revealed plot that named them (``Hawk 1 | fire at any``).
    standing: dict[str, Standing] = field(default_factory=dict)
    #: The version of the file format the game is written in (a game started in version 1 stays in it).
    version: int = VERSION
    #: The sides that agreed at this step to end the game as a draw (an open offer; it lapses when the step resolves).
    agreed: dict[str, Agree] = field(default_factory=dict)

    @classmethod
    def new(
        cls,
        scenario: Scenario,
        game_id: str,
        options: Mapping[str, object] | None = None,
        deadline_hours: int | None = None,
        whole_turns: bool = False,
        version: int = VERSION,
    ) -> PbemGame:
        """A game of ``scenario`` at step 0, before any side committed; ``game_id`` is 32 random hex digits.

        ``deadline_hours`` writes a deadline per step into the set-up (and so into the genesis hash), and
        ``whole_turns`` makes a step a whole turn (docs/pbem.md, *One file a turn*).
        """
        if not re.fullmatch(rf"[0-9a-f]{{{GAME_ID_DIGITS}}}", game_id):
            raise PbemError(f"game id: {GAME_ID_DIGITS} hex digits, not {game_id[:40]!r}")
        if deadline_hours is not None and not 1 <= deadline_hours <= MAX_DEADLINE_HOURS:
            raise PbemError(f"deadline: {deadline_hours} hours a step is not from 1 to {MAX_DEADLINE_HOURS}")
        system = get_system(scenario.system)
        # A trial set-up checks the scenario and options now, not after every side has committed.
        trial = Game.new(system, scenario, 0, options)
        pbem = cls(
            game_id,
            system,
            scenario,
            dict(trial.options),
            deadline_hours=deadline_hours,
            whole_turns=whole_turns,
            version=version,
        )
        pbem.chain.append(pbem.genesis())
        return pbem

    def genesis(self) -> str:
        """The hash of the file's first state: the game id and everything the game is set up from."""
        parts: list[Any] = [
            "vectorwar-pbem-genesis", FORMAT, self.version, self.game_id, self.system.manifest.name,
            self.scenario.to_data(), self.options,
        ]  # fmt: skip
        if self.deadline_hours is not None:
            # Only a game with a deadline hashes one, so a game without keeps the genesis it always had.
            parts.append({"deadline_hours": self.deadline_hours})
        if self.whole_turns:
            parts.append({"whole_turns": True})
        return digest(*parts)

    # -- asking ---------------------------------------------------------------

    @property
    def sides(self) -> tuple[str, ...]:
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
        """The sides with orders to give at this step (none at step 0, the set-up's dice)."""
        prompt = self.game.prompt if self.game is not None else None
        return prompt.sides if prompt is not None else ()

    @property
    def moment(self) -> str:
        """The step in words: ``set-up: drawing the dice``, the game's clock, or ``game over``."""
        if self.game is None:
            return "set-up: drawing the dice"
        return "game over" if self.game.is_over else str(self.game.clock)

    def owed(self) -> dict[str, Owed]:
        """What each side owes now, by side: a commitment, or a reveal once every side committed."""
        if self.is_over:
            return {}
        active = self.active
        if any(s not in self.commits for s in active):
            return {s: "commit" for s in active if s not in self.commits}
        return {s: "reveal" for s in active if s not in self.reveals}

    @property
    def active(self) -> tuple[str, ...]:
        """The sides that take part in this step: every side but those a claim has silenced at it."""
        return tuple(s for s in self.sides if s not in self.forfeited)

    @property
    def last_time(self) -> int | None:
        """The time the file's last action records (``None``: none recorded)."""
        return self.actions[-1].at if self.actions else None

    def claimable_at(self) -> int | None:
        """When the sides owing something now may be claimed against: the last action's time plus the deadline."""
        last = self.last_time
        if self.deadline_hours is None or last is None or self.is_over:
            return None
        return last + self.deadline_hours * 3600

    # -- sealing, committing, revealing ----------------------------------------

    def check_plot(self, side: str, text: str) -> str:
        """``text`` as ``side``'s plot at this step, in its canonical form, checked as play checks it.

        After ``|`` a plot may add standing fire (``Hawk 2L1 | fire at Raven 50%``): in a game of whole
        turns it answers the turn's later fire prompts, and in any game it answers for the side if a claim
        silences it. A side the prompt does not name may give standing fire alone (``| fire at any``).
        """
        self.check_side(side)
        orders, standing = split_plot(text)
        if standing is not None:
            standing = checked_standing(self.game, side, text, standing)
        if side not in self.prompted:
            if orders:
                waiting = ", ".join(self.prompted) or "no one: the set-up only draws the dice"
                raise OutOfStepError(f"{side} has no orders to give at {self.moment} (waiting for {waiting}); "
                                     "commit with no plot")  # fmt: skip
            return plot_text("", standing)
        if self.game is None:  # pragma: no cover - step 0 prompts no one
            raise OutOfStepError("no orders are given while the set-up draws the dice")
        return plot_text(str(self.game.check(side, orders)), standing)

    def seal(self, side: str, text: str, salt: str, secret: str) -> Sealed:
        """``side``'s plot sealed with a fresh ``salt`` and ``secret``, ready to commit; nothing is added."""
        self._owes(side, "commit")
        check_hex("salt", salt)
        check_hex("secret", secret)
        return Sealed(self.step, self.check_plot(side, text), salt, secret)

    def commit(self, side: str, plot_hash: str, key_hash: str, at: int | None = None) -> Commit:
        self.check_side(side)
        self._not_over()
        self._not_silenced(side)
        self._check_time(at)
        if side in self.commits:
            raise DoubleCommitError(
                f"{side} has already committed at step {self.step} ({self.moment}); a commitment binds, "
                "so a second one is refused"
            )
        check_hex("plot_hash", plot_hash)
        check_hex("key_hash", key_hash)
        action = Commit(self.step, side, plot_hash, key_hash, at)
        self.commits[side] = action
        self._append(action)
        return action

    def reveal_sealed(self, keyring: Keyring, at: int | None = None) -> tuple[Sealed, list[Event]]:
        """Reveal what ``keyring`` sealed for this step: that plot, and the events its reveal resolved
        (none until the step's last reveal). Raises :class:`OutOfStepError` if nothing is sealed for it."""
        sealed = keyring.sealed_at(self.step)
        if sealed is None:
            raise OutOfStepError(
                f"the keyring of {keyring.side} holds no sealed plot for step {self.step}: commit first"
            )
        start = len(self.game.events) if self.game is not None else 0
        self.reveal(keyring.side, sealed.plot, sealed.salt, sealed.secret, at)
        return sealed, list(self.game.events[start:]) if self.game is not None else []

    def reveal(self, side: str, plot: str, salt: str, secret: str, at: int | None = None) -> Reveal:
        """Open ``side``'s commitment; the last reveal of a step resolves it with the dice of every secret."""
        self.check_side(side)
        self._not_over()
        self._not_silenced(side)
        self._check_time(at)
        if side in self.reveals:
            raise OutOfStepError(f"{side} has already revealed at step {self.step} ({self.moment})")
        missing = [s for s in self.active if s not in self.commits]
        if missing:
            raise EarlyRevealError(
                f"{side} cannot reveal at step {self.step} ({self.moment}) before every side has committed; "
                f"waiting for the commitment of {', '.join(missing)}"
            )
        committed = self.commits[side]
        if key_commitment(self.game_id, self.step, side, salt, secret) != committed.key_hash:
            raise WrongRevealError(
                f"{side}'s salt or secret is not the one committed to at step {self.step} ({self.moment}); "
                "reveal from the keyring that made the commitment"
            )
        if plot_commitment(self.game_id, self.step, side, plot, salt) != committed.plot_hash:
            raise PlotChangedError(
                f"{side}'s revealed plot {plot[:60]!r} is not the plot committed to at step {self.step} "
                f"({self.moment}): a plot cannot change once committed"
            )
        if self.check_plot(side, plot) != plot:
            # Only a plot written by hand gets here: the same plot but not in its canonical words.
            raise PlotChangedError(f"{side}'s revealed plot {plot[:60]!r} is not written as the game writes it")
        action = Reveal(self.step, side, plot, salt, secret, at)
        reveals = {**self.reveals, side: action}
        if len(reveals) == len(self.active):
            self._resolve(reveals)
        else:
            self.reveals[side] = action
        self._append(action)
        return action

    def turn(self, keyring: Keyring, order: str | None, salt: str, secret: str, at: int | None = None) -> Turn:
        """Everything ``keyring``'s side owes in one pass of the file, so a step costs one file from each side.

        In order: reveal what the side sealed for this step, if it owes that reveal (the last reveal resolves
        the step); then, if the side owes a commitment, seal ``order`` (``None`` for a side the prompt does not
        name: a secret only) with ``salt`` and ``secret`` and commit it; then, if that commitment was the last
        one of the step, reveal it at once, since every other side is already bound. It stops where the side
        needs orders it has not given (``order`` is ``None`` and the prompt names it, or was used already).

        A refusal (an order the rules refuse at the new step, say) leaves the game as it was.
        """
        side = keyring.side
        before = list(self.actions)
        start = len(self.game.events) if self.game is not None else 0
        done = Turn(keyring)
        try:
            done = self._turn(done, order, salt, secret, at)
        except VectorwarError:
            self._rewind(before)
            raise
        events = list(self.game.events[start:]) if self.game is not None else []
        needs = self.owed().get(side) == "commit" and side in self.prompted
        return replace(done, keyring=done.keyring.saw(self, at), events=tuple(events), needs_orders=needs)

    def _turn(self, done: Turn, order: str | None, salt: str, secret: str, at: int | None) -> Turn:
        keyring = done.keyring
        side = keyring.side
        commits = 0
        while True:
            owed = self.owed().get(side)
            if owed == "reveal":
                sealed, _ = self.reveal_sealed(keyring, at)
                keyring = keyring.saw(self, at)
                done = replace(done, revealed=(*done.revealed, sealed))
            elif owed == "commit" and (side not in self.prompted or order is not None):
                # A fresh salt and secret are needed for each commitment: a side that commits a second secret
                # in one pass (no orders at two steps running) derives it from the first, never reusing it.
                plot = order if side in self.prompted and order is not None else ""
                sealed = self.seal(side, plot, fresh_value(salt, commits), fresh_value(secret, commits))
                commits += 1
                keyring = keyring.keep(sealed)
                self.commit(side, *sealed.hashes(self.game_id, side), at)
                keyring = keyring.saw(self, at)
                done = replace(done, committed=sealed if side in self.prompted else done.committed)
                if side in self.prompted:
                    order = None
            else:
                return replace(done, keyring=keyring)

    def _rewind(self, actions: list[Action]) -> None:
        """This game back at the state after ``actions`` (the actions before a refused pass), replayed."""
        again = PbemGame.new(
            self.scenario, self.game_id, self.options, self.deadline_hours, self.whole_turns, self.version
        )
        for action in actions:
            again.apply(action)
        for name in ("actions", "chain", "game", "step", "commits", "reveals", "forfeited", "standing", "agreed"):
            setattr(self, name, getattr(again, name))

    def claim(self, side: str, at: int) -> Claim:
        """``side`` claims the step against every side still owing something, once the deadline has passed.

        The deadline runs from the time the file's last action records (when its writer sent the file on)
        and the game's hours per step. Each silent side's plot is taken as a hold (refused if the rules
        allow no hold here) and its secret is left out of the dice; a claim that leaves nothing owed
        resolves the step at once.
        """
        self.check_side(side)
        self._not_over()
        if self.deadline_hours is None:
            raise OutOfStepError("this game was started with no deadline: no step can be claimed")
        owed = self.owed()
        if side in owed:
            raise OutOfStepError(f"{side} owes its own {owed[side]} at step {self.step} ({self.moment}): "
                                 "a side claims only once it has done its part")  # fmt: skip
        since = self.last_time
        if since is None:
            raise OutOfStepError("the file's last action records no time: the deadline cannot be counted")
        self._check_time(at)
        due = since + self.deadline_hours * 3600
        if at < due:
            raise EarlyClaimError(
                f"{side} cannot claim step {self.step} ({self.moment}) at {time_text(at)}: the file's last action "
                f"was at {time_text(since)} and the deadline of {self.deadline_hours} h ends at {time_text(due)}"
            )
        against = tuple(owed)
        holds = self._holds(against)
        action = Claim(self.step, side, against, since, at)
        self.forfeited.update(dict.fromkeys(against, action))
        if all(s in self.reveals for s in self.active):
            self._resolve(dict(self.reveals), holds)
        self._append(action)
        return action

    def concede(self, side: str, at: int | None = None) -> Concede:
        """``side`` gives the game up: it ends at this step and the other sides win (docs/pbem.md, *Conceding*).

        A side may concede at any step once the set-up's dice are drawn, whatever it owes; the step's
        commitments and reveals so far resolve nothing, and the game's record ends with the concession.
        """
        self.check_side(side)
        self._not_over()
        if self.game is None:
            raise OutOfStepError(
                "the game has not begun (the set-up's dice are still being drawn): there is nothing to concede yet"
            )
        self._check_time(at)
        action = Concede(self.step, side, at)
        self.game.concede(side)
        self._append(action)
        return action

    def agree(self, side: str, at: int | None = None) -> Agree:
        """``side`` offers to end the game as a draw, or agrees to the offer open at this step.

        Once every side has agreed at the same step the game ends drawn (as at the online table); an offer
        lapses when the step resolves, so a side declines by playing on.
        """
        self.check_side(side)
        self._not_over()
        if self.game is None:
            raise OutOfStepError(
                "the game has not begun (the set-up's dice are still being drawn): there is nothing to end yet"
            )
        if side in self.agreed:
            raise OutOfStepError(f"{side} has already agreed to a draw at step {self.step} ({self.moment})")
        self._check_time(at)
        action = Agree(self.step, side, at)
        self.agreed[side] = action
        if all(s in self.agreed for s in self.sides):
            self.game.end_by_agreement(self.sides)
        self._append(action)
        return action

    def _holds(self, sides: tuple[str, ...]) -> dict[str, str]:
        """The orders each of ``sides`` gives at this step's prompt when claimed against (:func:`silent_orders`)."""
        if self.game is None:
            return {}
        silent = tuple(side for side in sides if side in self.prompted)
        return silent_orders(self.game, silent, self.standing, self.game_id, self.step)

    def apply(self, action: Action) -> None:
        """Add a recorded action (replaying a file), checked as when it was first made."""
        if action.step != self.step:
            raise OutOfStepError(f"an action of step {action.step} when the game is at step {self.step}")
        if isinstance(action, Commit):
            self.commit(action.side, action.plot_hash, action.key_hash, action.at)
        elif isinstance(action, Reveal):
            self.reveal(action.side, action.plot, action.salt, action.secret, action.at)
        elif isinstance(action, Concede):
            self.concede(action.side, action.at)
        elif isinstance(action, Agree):
            self.agree(action.side, action.at)
        else:
            # The claim's own words must be what the file gives: who owes, and since when.
            against, since = tuple(self.owed()), self.last_time
            if (action.against, action.since) != (against, since):
                raise OutOfStepError(
                    f"the claim names {', '.join(action.against)} silent since {time_text(action.since)}; the file "
                    f"gives {', '.join(against) or 'no one'} since {'no time' if since is None else time_text(since)}"
                )
            self.claim(action.side, action.at)

    def _resolve(self, reveals: Mapping[str, Reveal], holds: Mapping[str, str] | None = None) -> None:
        # The dice come from the secrets revealed: a side silenced by a claim adds none.
        seed = dice_seed(self.game_id, self.step, {s: r.secret for s, r in reveals.items()})
        if self.game is None:
            self.game = Game.new(self.system, self.scenario, seed, self.options)
        else:
            if holds is None:
                holds = self._holds(tuple(self.forfeited))
            plots = {side: split_plot(reveal.plot) for side, reveal in reveals.items()}
            # Every order read before the dice are rekeyed, so nothing changes if one were refused.
            orders = {
                side: self.game.check(side, plots[side][0] if side in plots else holds[side]) for side in self.prompted
            }
            for side, (_, standing) in plots.items():
                if standing is not None:
                    self.standing[side] = standing
                elif side in self.prompted:
                    self.standing.pop(side, None)
            turn = self.game.prompt.clock.turn if self.game.prompt is not None else 0
            self.game.rekey(seed)
            for side, order in orders.items():
                self.game.submit(side, order)
            if self.whole_turns:
                run_on(self.game, self.standing, turn)
        self.step += 1
        self.commits.clear()
        self.reveals.clear()
        self.forfeited.clear()
        self.agreed.clear()

    def _append(self, action: Action) -> None:
        self.actions.append(action)
        self.chain.append(link(self.chain[-1], action, self.version))

    def check_side(self, side: str) -> None:
        if side not in self.sides:
            raise PbemError(f"this game has no side {side!r} (sides: {', '.join(self.sides)})")

    def _not_silenced(self, side: str) -> None:
        if side in self.forfeited:
            claim = self.forfeited[side]
            raise OutOfStepError(
                f"{claim.side} claimed step {self.step} ({self.moment}) against {side} at {time_text(claim.at)}: "
                f"{side} plays no part in it"
            )

    def _check_time(self, at: int | None) -> None:
        """A time recorded must be there exactly when the game has a deadline, and never go back."""
        if (at is None) != (self.deadline_hours is None):
            needed = "a time (this game has a deadline)" if at is None else "no time (this game has no deadline)"
            raise OutOfStepError(f"an action here records {needed}")
        last = self.last_time
        if at is not None:
            if not 0 <= at <= MAX_TIME:
                raise PbemError(f"time {at} is not a time from 1970 to 9999 in Unix seconds")
            if last is not None and at < last:
                raise OutOfStepError(
                    f"an action at {time_text(at)} comes after one at {time_text(last)}: recorded times never go back"
                )

    def _not_over(self) -> None:
        if self.is_over:
            raise OutOfStepError("the game is over: nothing more can be committed, revealed, claimed or conceded")

    def _owes(self, side: str, what: Owed) -> None:
        self.check_side(side)
        self._not_over()
        owed = self.owed().get(side)
        if owed == what:
            return
        if what == "commit" and side in self.commits:
            raise DoubleCommitError(f"{side} has already committed at step {self.step} ({self.moment})")
        raise OutOfStepError(f"{side} owes {owed or 'nothing'} at step {self.step} ({self.moment}), not a {what}")

    # -- the file ------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": self.version,
            "vectorwar": __version__,
            "game": self.game_id,
            "system": self.system.manifest.name,
            "options": dict(self.options),
            "scenario": self.scenario.to_data(),
            **({} if self.deadline_hours is None else {"deadline_hours": self.deadline_hours}),
            **({"whole_turns": True} if self.whole_turns else {}),
            "actions": [wire(a.to_data(), self.version) for a in self.actions],
            "sequence": self.sequence,
            "previous": self.previous,
            "head": self.head,
        }
