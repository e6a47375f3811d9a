"""Setting up a game: the one way every front end starts one (CLI, web server, env, tests).

A request names a scenario (a built-in id, a file for the command line, or
a scenario's text brought to the web server), who plays each side
(``human`` or a computer player by name), rule options and perhaps a seed.
Every problem with it is a :class:`~vectorwar.errors.SetupError` worded
here, so the same mistake reads the same whichever front end made it.

>>> setup = set_up("msc-duel", {"blue": "greedy"}, seed=1)
>>> setup.players, sorted(setup.bots)
({'red': 'human', 'blue': 'greedy'}, ['blue'])
>>> set_up("msc-duel", {"green": "greedy"})
Traceback (most recent call last):
...
vectorwar.errors.SetupError: scenario msc-duel has no side 'green' (sides: red, blue)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from vectorwar.catalogue import scenario_paths
from vectorwar.dice import SEED_BITS
from vectorwar.errors import ScenarioError, SetupError, UnknownSystemError
from vectorwar.game import Game
from vectorwar.players import computer_players
from vectorwar.registry import get_system
from vectorwar.rules import Bot, OptionValue, RuleSystem
from vectorwar.scenario import Scenario, load_scenario, scenario_from_toml

HUMAN = "human"

T = TypeVar("T")

#: Who plays a side when the request does not say: a fixed name, or one chosen by the side's position.
Default = str | Callable[[int], str]

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True, slots=True)
class SetUp:
    """A new game, who plays each of its sides, and the computer players' bots (by side)."""

    game: Game
    players: dict[str, str]
    bots: dict[str, Bot]


def new_seed() -> int:
    """A seed nobody can guess, for a game whose request did not choose one (the one place seeds are drawn).

    ``SEED_BITS`` random bits from :mod:`secrets`; a leading 1 above them makes every drawn seed the same
    length, so its size tells nothing and the test of its strength is simply its bit length.

    >>> new_seed().bit_length() == SEED_BITS + 1
    True
    """
    return (1 << SEED_BITS) | secrets.randbits(SEED_BITS)


def find_scenario(name: str, *, files: bool = False) -> Scenario:
    """A built-in scenario by id; with ``files``, also a ``.toml`` path (the command line's choice).

    The web server leaves ``files`` off: a name from a request never opens a file on the server.
    """
    if files and (name.endswith(".toml") or "/" in name):
        return _checked(lambda: load_scenario(Path(name)))
    paths = scenario_paths()
    if name not in paths:
        raise SetupError(f"no scenario called {name!r} (built-in: {', '.join(paths) or 'none'})")
    return _checked(lambda: load_scenario(paths[name]))


def scenario_from_text(text: str, source: str = "uploaded scenario") -> Scenario:
    """A scenario file's TOML text, checked as files are; it is self-contained (designs in ``[designs]``)."""
    return _checked(lambda: scenario_from_toml(text, source, "custom"))


def system_of(scenario: Scenario) -> RuleSystem[Any]:
    try:
        return get_system(scenario.system)
    except UnknownSystemError as err:
        raise SetupError(f"scenario {scenario.id}: {err}") from None


def side_players(
    scenario: Scenario, system: RuleSystem[Any], chosen: Mapping[str, str], default: Default = HUMAN
) -> dict[str, str]:
    """Who plays every side: ``chosen`` (side names in any case) over ``default``.

    A player is ``human`` or the name of one of the system's computer players.
    """
    sides = [s.id for s in scenario.sides]
    by_name = {s.lower(): s for s in sides}
    named: dict[str, str] = {}
    for name, player in chosen.items():
        side = by_name.get(name.lower())
        if side is None:
            raise SetupError(f"scenario {scenario.id} has no side {name!r} (sides: {', '.join(sides)})")
        named[side] = player.lower()
    players = {side: named.get(side, default(i) if callable(default) else default) for i, side in enumerate(sides)}
    known = computer_players(system)
    for side, player in players.items():
        if player != HUMAN and player not in known:
            raise SetupError(_no_bot(side, player, system))
    return players


def make_bots(system: RuleSystem[Any], players: Mapping[str, str]) -> dict[str, Bot]:
    """Bots for every side a computer player plays (``human`` sides are skipped)."""
    available = computer_players(system)
    bots: dict[str, Bot] = {}
    for side, name in players.items():
        if name == HUMAN:
            continue
        if name not in available:
            raise SetupError(_no_bot(side, name, system))
        bots[side] = available[name]()
    return bots


def game_options(
    system: RuleSystem[Any], scenario: Scenario, given: Mapping[str, object], *, as_text: bool = False
) -> dict[str, object]:
    """The options a request sets; ``as_text`` reads each value as words for the option's type.

    Names, types and allowed values are then checked by :meth:`Game.new`, in the same words as here.
    """
    options: dict[str, object] = {}
    for name, value in given.items():
        if as_text and isinstance(value, str):
            try:
                spec = system.manifest.option(name)
            except KeyError as err:
                raise SetupError(f"scenario {scenario.id!r}: options: {err.args[0]}") from None
            value = _option_from_text(name, spec.default, value)
        options[name] = value
    return options


def set_up(
    scenario: Scenario | str,
    players: Mapping[str, str] | None = None,
    *,
    seed: int | None = None,
    options: Mapping[str, object] | None = None,
    options_as_text: bool = False,
    default: Default = HUMAN,
) -> SetUp:
    """A new game of ``scenario`` (a :class:`Scenario`, or a built-in id) with its players and bots."""
    chosen = find_scenario(scenario) if isinstance(scenario, str) else scenario
    system = system_of(chosen)
    played = side_players(chosen, system, players or {}, default)
    settings = game_options(system, chosen, options or {}, as_text=options_as_text)
    game = _checked(lambda: Game.new(system, chosen, new_seed() if seed is None else seed, settings))
    return SetUp(game, played, make_bots(system, played))


def _no_bot(side: str, name: str, system: RuleSystem[Any]) -> str:
    return f"side {side}: no computer player called {name!r} (known: {', '.join(computer_players(system))}; or {HUMAN})"


def _option_from_text(name: str, default: OptionValue, raw: str) -> OptionValue:
    if isinstance(default, bool):
        if raw.lower() not in _TRUE | _FALSE:
            raise SetupError(f"option {name} is true or false, got {raw!r}")
        return raw.lower() in _TRUE
    if isinstance(default, int):
        try:
            return int(raw)
        except ValueError:
            raise SetupError(f"option {name} takes a whole number, got {raw!r}") from None
    return raw


def _checked(make: Callable[[], T]) -> T:
    """``make()``, its scenario errors turned into set-up errors (same words)."""
    try:
        return make()
    except SetupError:
        raise
    except ScenarioError as err:
        raise SetupError(str(err)) from err
