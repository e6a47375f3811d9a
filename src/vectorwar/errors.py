"""The exceptions vectorwar raises.

Every error a player or a designer can cause has one specific type, and its
message holds the offending input and, for rule violations, the rule that
forbids it. Nothing is changed or written when one of these is raised.
"""

from __future__ import annotations


class VectorwarError(Exception):
    """Base of every error vectorwar raises on purpose."""


class OrderSyntaxError(VectorwarError, ValueError):
    """An order's text does not parse in the system's notation."""

    def __init__(self, text: str, problem: str) -> None:
        self.text = text
        self.problem = problem
        super().__init__(f"cannot read order {text!r}: {problem}")


class OrderLimitError(OrderSyntaxError):
    """A number in an order is beyond the limit of its field; it was refused before any work was done.

    ``field`` says what the number is for, ``limit`` is the largest allowed
    and ``rule`` names the rule or the engine limit (:mod:`vectorwar.limits`)
    that sets it.
    """

    def __init__(self, text: str, field: str, value: str, limit: int, rule: str) -> None:
        self.field = field
        self.value = value
        self.limit = limit
        self.rule = rule
        shown = value if len(value) <= 24 else f"{value[:20]}... ({len(value)} digits)"
        super().__init__(text, f"{field} {shown} is above the limit of {limit} ({rule})")


class IllegalOrderError(VectorwarError, ValueError):
    """An order parses but a rule forbids it.

    ``rule`` cites the rule (for example ``"MSC 6.0 Moving a Ship"``) so the
    player can look it up in one step.
    """

    def __init__(self, order: str, problem: str, rule: str) -> None:
        self.order = order
        self.problem = problem
        self.rule = rule
        super().__init__(f"illegal order {order!r}: {problem} ({rule})")


class NotYourTurnError(IllegalOrderError):
    """A side tried to give orders when the game is not waiting for it."""


class ScenarioError(VectorwarError, ValueError):
    """A scenario or ship file is invalid; the message names file, key and problem."""


class SetupError(ScenarioError):
    """A game that cannot be set up as asked: unknown scenario, side, player or option.

    Raised by :mod:`vectorwar.setup` for every front end alike, so the same
    mistake reads the same from the command line and from the web API.
    """


class DesignError(ScenarioError):
    """A ship design breaks its system's design rules."""


class SaveFileError(VectorwarError, ValueError):
    """A save file cannot be read or does not replay to the state it records."""


class UnknownSystemError(VectorwarError, LookupError):
    """No rule system is registered under that name."""


class PbemError(VectorwarError, ValueError):
    """A step of a play-by-e-mail game refused (docs/pbem.md); the game and its file are unchanged."""


class PbemFileError(PbemError, SaveFileError):
    """A play-by-e-mail game file or keyring that cannot be read: not one, malformed, over a limit, or its
    recorded steps do not replay."""


class OutOfStepError(PbemError):
    """A commitment or a reveal at a moment the protocol does not allow it."""


class DoubleCommitError(OutOfStepError):
    """A side committed a second time to the same step: its first commitment binds it."""


class EarlyRevealError(OutOfStepError):
    """A reveal before every side has committed: it would let the others choose after seeing it."""


class RevealMismatchError(PbemError):
    """A reveal that does not open the commitment the side made."""


class WrongRevealError(RevealMismatchError):
    """The salt or the secret revealed is not the one committed to."""


class PlotChangedError(RevealMismatchError):
    """The salt and secret are the committed ones but the plot is not: it was changed after committing."""


class StaleFileError(PbemError):
    """A file older than one the player has already seen, or whose history differs from what they saw."""


class SwappedFileError(PbemError):
    """A file of another game, or a keyring of another game or side."""


class ForeignActionError(PbemError):
    """The file holds a commitment or a reveal for the player's own side that the player did not make."""


class EarlyClaimError(OutOfStepError):
    """A claim against a silent side before the game's deadline for the step has passed."""


class TutorialError(ScenarioError):
    """A tutorial file is invalid; the message names the file, the key and the problem."""
