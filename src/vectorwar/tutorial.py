"""Guided tutorials: steps kept as data beside a scenario, each checked by the rules that check play.

A tutorial is a TOML file in a system's ``data/tutorials/`` (beside its
``data/scenarios/``): which scenario it plays, which side the learner takes,
who plays the other sides, the seed (so the computer's answers and the dice
are the same every time), and ordered steps. Each step says what to do, the
control the page should point at (a CSS selector), the action it expects,
what to say about a legal but different action, and what happened after it.

The expected action is either ``order`` (one or more order texts, compared
with the player's order once both are in the system's canonical notation)
or ``match`` (a regular expression the canonical order must match in full,
with ``play`` an example that does). Whether an order is legal at all is
decided by :meth:`vectorwar.game.Game.check`, the same code that takes an
order in play, so an illegal order is explained in the engine's own words
and a tutorial can never teach an order the game would refuse (the
conformance test plays every tutorial through). New tutorials need no code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import as_file, files
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from vectorwar.errors import IllegalOrderError, OrderSyntaxError, ScenarioError, TutorialError
from vectorwar.game import Game
from vectorwar.players import computer_players
from vectorwar.registry import systems
from vectorwar.scenario import IDENT, read_toml, validate_model

#: A tutorial file is read only up to this size: far above any real one (a few kilobytes).
MAX_TUTORIAL_BYTES = 200_000
#: Steps in one tutorial.
MAX_STEPS = 200
#: Characters in one text of a step.
MAX_TEXT = 2000
#: Characters in a selector, an order or a pattern.
MAX_SHORT = 300

Short = Annotated[str, Field(min_length=1, max_length=MAX_SHORT)]
Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Step(_Strict):
    """One step: what to do, where, what is expected, and what to say either way."""

    text: Text = Field(description="What to do now, in the tutorial's own words")
    highlight: list[Short] = Field(
        min_length=1,
        max_length=12,
        description="CSS selectors of the controls to use, in the order they are used (the page falls back to the "
        "orders panel when none is on the page)",
    )
    look: Short | None = Field(default=None, description="CSS selector of something to look at (the AVID, the log)")
    look_fallback: Short = Field(
        default="#tab-ships", description="Shown instead of look when the page has no such element"
    )
    order: list[Short] = Field(
        default_factory=list, max_length=20, description="The expected order, or alternatives, as order texts"
    )
    match: Short | None = Field(default=None, description="Instead of order: a regular expression the order matches")
    play: Short | None = Field(default=None, description="With match: an order that matches, for tests and demos")
    wrong: Text = Field(description="Said when the order is legal but not what the step asks for")
    after: Text = Field(description="Said once the order is played: what happened and why")

    @field_validator("highlight", mode="before")
    @classmethod
    def _one_or_many(cls, value: object) -> object:
        return [value] if isinstance(value, str) else value

    @field_validator("match")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as err:
                raise ValueError(f"not a regular expression: {err}") from None
        return value

    @model_validator(mode="after")
    def _one_expectation(self) -> Step:
        if bool(self.order) == (self.match is not None):
            raise ValueError("give exactly one of order (the expected order texts) or match (a pattern)")
        if self.match is not None:
            if self.play is None:
                raise ValueError("a step with match needs play: an order that matches it")
            if re.fullmatch(self.match, self.play) is None:
                raise ValueError(f"play {self.play!r} does not match the pattern {self.match!r}")
        elif self.play is not None and self.play not in self.order:
            raise ValueError("play must be one of the step's orders")
        return self

    @property
    def example(self) -> str:
        """The order a player following the step would give (tests and the page's demo use it)."""
        return self.play if self.play is not None else self.order[0]


class Tutorial(_Strict):
    id: Annotated[str, Field(pattern=IDENT, max_length=80)]
    title: Short
    system: Annotated[str, Field(pattern=IDENT, max_length=40)]
    scenario: Annotated[str, Field(pattern=IDENT, max_length=80)]
    side: Annotated[str, Field(pattern=IDENT, max_length=40)] = Field(description="The learner's side")
    sides: dict[Annotated[str, Field(max_length=40)], Short] = Field(
        default_factory=dict, max_length=8, description='The other sides: "bot:NAME" (sides left out play nothing)'
    )
    seed: int = Field(ge=0, lt=2**63, description="The game's seed, so every answer and roll repeats")
    intro: Text
    done: Text = Field(description="Said when the last step is played")
    steps: list[Step] = Field(min_length=1, max_length=MAX_STEPS)

    @model_validator(mode="after")
    def _sides(self) -> Tutorial:
        if self.side in self.sides:
            raise ValueError(f"sides: {self.side!r} is the learner's side; name only the other sides")
        for side, player in self.sides.items():
            if not player.startswith("bot:"):
                raise ValueError(f"sides.{side}: {player!r} is not 'bot:NAME' (the learner is the only person)")
        return self

    def players(self) -> dict[str, str]:
        """Who plays each side, as :func:`vectorwar.setup.set_up` reads it."""
        return {self.side: "human", **{side: player.removeprefix("bot:") for side, player in self.sides.items()}}


def tutorial_from_data(data: dict[str, object], source: str) -> Tutorial:
    """A tutorial from a TOML file's tables, checked against its system and scenario."""
    try:
        tutorial = validate_model(Tutorial, data, source)
    except ScenarioError as err:
        raise TutorialError(str(err)) from None
    # Imported here: the catalogue finds files through the registry, which finds this module's callers.
    from vectorwar.catalogue import builtin_scenario

    if tutorial.system not in systems():
        raise TutorialError(f"{source}: system: no rule system {tutorial.system!r} (known: {', '.join(systems())})")
    try:
        scenario = builtin_scenario(tutorial.scenario)
    except ScenarioError as err:
        raise TutorialError(f"{source}: scenario: {err}") from None
    if scenario.system != tutorial.system:
        raise TutorialError(
            f"{source}: scenario: {tutorial.scenario!r} is a {scenario.system} scenario, not {tutorial.system}"
        )
    sides = [side.id for side in scenario.sides]
    for key, side in [("side", tutorial.side), *((f"sides.{s}", s) for s in tutorial.sides)]:
        if side not in sides:
            raise TutorialError(f"{source}: {key}: the scenario has no side {side!r} (its sides: {', '.join(sides)})")
    bots = computer_players(systems()[tutorial.system])
    for side, player in tutorial.sides.items():
        if player.removeprefix("bot:") not in bots:
            raise TutorialError(f"{source}: sides.{side}: no computer player {player!r} (known: {', '.join(bots)})")
    return tutorial


def load_tutorial(path: Path) -> Tutorial:
    """A tutorial file (its id defaults to the file name), refused with ``FILE: KEY: PROBLEM`` if invalid."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise TutorialError(f"{path}: no such file") from None
    if size > MAX_TUTORIAL_BYTES:
        raise TutorialError(f"{path}: {size} bytes is above the limit of {MAX_TUTORIAL_BYTES} for a tutorial file")
    try:
        data = read_toml(path)
    except TutorialError:
        raise
    except ScenarioError as err:
        raise TutorialError(str(err)) from None
    data.setdefault("id", path.stem)
    return tutorial_from_data(data, str(path))


def tutorial_paths() -> dict[str, Path]:
    """Built-in tutorial files by id, across every registered system."""
    found: dict[str, Path] = {}
    for system in systems().values():
        package = type(system).__module__.rsplit(".", 1)[0]
        with as_file(files(package) / "data" / "tutorials") as folder:
            if folder.is_dir():
                for path in sorted(folder.glob("*.toml")):
                    found[path.stem] = path
    return found


@cache
def _builtin(path: Path) -> Tutorial:
    return load_tutorial(path)


def builtin_tutorial(tutorial_id: str) -> Tutorial:
    paths = tutorial_paths()
    if tutorial_id not in paths:
        raise TutorialError(f"no tutorial called {tutorial_id!r} (built-in: {', '.join(paths) or 'none'})")
    return _builtin(paths[tutorial_id])


def builtin_tutorials() -> list[Tutorial]:
    """Every built-in tutorial, in the order of their ids."""
    return [_builtin(path) for _id, path in sorted(tutorial_paths().items())]


# -- following a tutorial in a game ------------------------------------------


Kind = Literal["expected", "unexpected", "illegal", "finished"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the tutorial says of an order: ``expected`` (play it), ``unexpected`` (legal, but not this
    step's: ``message`` is the step's explanation) or ``illegal`` (``message`` is the engine's refusal
    and ``rule`` the rule it cites); ``finished`` when every step is done (any legal order may follow)."""

    kind: Kind
    message: str
    canonical: str | None = None
    rule: str | None = None

    @property
    def ok(self) -> bool:
        return self.kind in ("expected", "finished")


def progress(tutorial: Tutorial, game: Game) -> int:
    """How many steps the learner has played: the resolved prompts their side answered."""
    return sum(1 for batch in game.history if any(side == tutorial.side for side, _ in batch.orders))


def expected_orders(step: Step, game: Game, side: str) -> tuple[str, ...]:
    """The step's orders in the system's canonical notation now (raises if the tutorial is wrong)."""
    return tuple(str(game.check(side, text)) for text in step.order)


def check_action(tutorial: Tutorial, game: Game, text: str) -> Verdict:
    """Whether ``text``, given now by the learner, is legal and is what the current step expects.

    Legality first, by the engine's own check, so an illegal order is explained in the words play
    would use; then the step's expectation. Nothing about the game changes.
    """
    try:
        canonical = str(game.check(tutorial.side, text))
    except IllegalOrderError as err:
        return Verdict("illegal", str(err), rule=err.rule)
    except OrderSyntaxError as err:
        return Verdict("illegal", str(err), rule=getattr(err, "rule", None))
    index = progress(tutorial, game)
    if index >= len(tutorial.steps):
        return Verdict("finished", "The tutorial is over: play on as you like.", canonical)
    step = tutorial.steps[index]
    if step.match is not None:
        hit = re.fullmatch(step.match, canonical) is not None
    else:
        hit = canonical in expected_orders(step, game, tutorial.side)
    if hit:
        return Verdict("expected", step.after, canonical)
    return Verdict("unexpected", step.wrong, canonical)
