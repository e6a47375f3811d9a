"""Tutorials: the loader refuses bad files clearly, the checker uses play's legality, and every
built-in tutorial plays through in its scenario with each step's expected order (a conformance test)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from vectorwar.errors import IllegalOrderError, TutorialError
from vectorwar.game import Game
from vectorwar.play import bot_turns
from vectorwar.rules import Bot
from vectorwar.scene import build_scene
from vectorwar.setup import set_up
from vectorwar.tutorial import (
    MAX_TUTORIAL_BYTES,
    Tutorial,
    builtin_tutorial,
    builtin_tutorials,
    check_action,
    load_tutorial,
    progress,
    tutorial_paths,
)

GOOD = """
title = "A test tutorial"
system = "msc"
scenario = "msc-duel"
side = "blue"
seed = 2
sides = { red = "bot:random" }
intro = "Fly."
done = "Done."

[[steps]]
text = "Three ahead."
highlight = "#orders .commit"
order = ["Raven 3"]
wrong = "Three ahead, please."
after = "You moved three."

[[steps]]
text = "Anything that turns right."
highlight = ["#orders .commit"]
match = 'Raven \\d?R.*'
play = "Raven 1R1"
wrong = "Turn right somewhere."
after = "You turned."
"""


def write(tmp_path: Path, text: str, name: str = "my-tutorial.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def start(tutorial: Tutorial) -> tuple[Game, dict[str, Bot]]:
    setup = set_up(tutorial.scenario, tutorial.players(), seed=tutorial.seed)
    for _ in bot_turns(setup.game, setup.bots):
        pass
    return setup.game, dict(setup.bots)


def test_a_valid_file_loads_with_its_id_from_the_file_name(tmp_path: Path) -> None:
    tutorial = load_tutorial(write(tmp_path, GOOD))
    assert tutorial.id == "my-tutorial"
    assert [s.example for s in tutorial.steps] == ["Raven 3", "Raven 1R1"]
    assert tutorial.steps[0].highlight == ["#orders .commit"]
    assert tutorial.players() == {"blue": "human", "red": "random"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('order = ["Raven 3"]', ""), "give exactly one of order"),
        (('order = ["Raven 3"]', 'order = ["Raven 3"]\nmatch = "x"'), "give exactly one of order"),
        (('play = "Raven 1R1"', 'play = "Raven 3"'), "does not match the pattern"),
        (('play = "Raven 1R1"', ""), "needs play"),
        ((r"match = 'Raven \d?R.*'", "match = 'Raven ('"), "not a regular expression"),
        (('scenario = "msc-duel"', 'scenario = "no-such"'), "scenario: no scenario called 'no-such'"),
        (('scenario = "msc-duel"', 'scenario = "vv5-dogfight"'), "is a vv5 scenario, not msc"),
        (('side = "blue"', 'side = "green"'), "side: the scenario has no side 'green'"),
        (('red = "bot:random"', 'red = "bot:cunning"'), "no computer player 'bot:cunning'"),
        (('red = "bot:random"', 'red = "human"'), "is not 'bot:NAME'"),
        (('text = "Three ahead."', 'text = ""'), "steps.0.text"),
        (('title = "A test tutorial"', 'title = "A test tutorial"\nsurprise = 1'), "surprise"),
        (("seed = 2", "seed = -1"), "seed"),
    ],
)
def test_a_bad_file_is_refused_naming_the_file_the_key_and_the_problem(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    old, new = change
    assert old in GOOD
    path = write(tmp_path, GOOD.replace(old, new, 1))
    with pytest.raises(TutorialError, match=r"my-tutorial\.toml") as err:
        load_tutorial(path)
    assert message in str(err.value)


def test_a_file_that_is_not_toml_or_too_large_or_missing_is_refused(tmp_path: Path) -> None:
    with pytest.raises(TutorialError, match="not valid TOML"):
        load_tutorial(write(tmp_path, "title = "))
    with pytest.raises(TutorialError, match=f"above the limit of {MAX_TUTORIAL_BYTES}"):
        load_tutorial(write(tmp_path, GOOD + "#" * MAX_TUTORIAL_BYTES))
    with pytest.raises(TutorialError, match="no such file"):
        load_tutorial(tmp_path / "absent.toml")
    with pytest.raises(TutorialError, match="no tutorial called 'absent'"):
        builtin_tutorial("absent")


def test_the_checker_explains_illegal_orders_in_the_engines_words_and_unexpected_ones_in_the_steps(
    tmp_path: Path,
) -> None:
    tutorial = load_tutorial(write(tmp_path, GOOD))
    game, _bots = start(tutorial)
    before = (game.state, len(game.history), dict(game.pending))
    # Illegal: the same words and rule as play's refusal.
    illegal = check_action(tutorial, game, "Raven 9")
    with pytest.raises(IllegalOrderError) as refused:
        game.check("blue", "Raven 9")
    assert (illegal.kind, illegal.message) == ("illegal", str(refused.value))
    assert illegal.rule is not None
    unreadable = check_action(tutorial, game, "Raven fly away")
    assert unreadable.kind == "illegal"
    assert "cannot read order" in unreadable.message
    # Legal but not this step's: the step's explanation.
    other = check_action(tutorial, game, "Raven 2")
    assert (other.kind, other.message, other.canonical) == ("unexpected", "Three ahead, please.", "Raven 2")
    # Expected, in any spelling the parser reads to the same order.
    right = check_action(tutorial, game, "  raven 3 ")
    assert (right.kind, right.message, right.ok) == ("expected", "You moved three.", True)
    assert (game.state, len(game.history), dict(game.pending)) == before


def test_progress_counts_the_learners_answered_prompts_and_ends_in_free_play(tmp_path: Path) -> None:
    tutorial = load_tutorial(write(tmp_path, GOOD))
    game, bots = start(tutorial)
    assert progress(tutorial, game) == 0
    game.submit("blue", "Raven 3")
    for _ in bot_turns(game, bots):
        pass
    assert progress(tutorial, game) == 1
    assert check_action(tutorial, game, "Raven 1R1").kind == "expected"
    assert check_action(tutorial, game, "Raven 1L1").kind == "unexpected"
    game.submit("blue", "Raven 1R1")
    for _ in bot_turns(game, bots):
        pass
    assert progress(tutorial, game) == 2
    free = check_action(tutorial, game, str(game.prompt and "Raven F>Hawk"))
    assert free.kind in ("finished", "illegal")
    if free.kind == "finished":
        assert free.ok


def test_every_system_has_a_tutorial_and_avt_has_the_four_sample_games() -> None:
    tutorials = builtin_tutorials()
    assert {t.system for t in tutorials} == {"avt", "msc", "vv5", "vms"}
    assert {t.scenario for t in tutorials if t.system == "avt"} >= {
        "avt-drift",
        "avt-pivot-thrust",
        "avt-pitch-and-climb",
        "avt-damage",
    }
    # Kept beside the scenarios they play.
    for tutorial_id, path in tutorial_paths().items():
        assert (path.parent.parent / "scenarios" / f"{builtin_tutorial(tutorial_id).scenario}.toml").is_file()


@pytest.mark.parametrize("tutorial_id", sorted(tutorial_paths()))
def test_conformance_every_tutorial_plays_through_with_its_expected_orders(tutorial_id: str) -> None:
    tutorial = builtin_tutorial(tutorial_id)
    game, bots = start(tutorial)
    for number, step in enumerate(tutorial.steps, 1):
        where = f"{tutorial_id} step {number}"
        assert game.prompt is not None, f"{where}: the game ended before the step"
        assert tutorial.side in game.waiting_for, f"{where}: the learner has nothing to order"
        assert progress(tutorial, game) == number - 1, where
        for text in step.order:  # every alternative the step offers is legal
            game.check(tutorial.side, text)
        verdict = check_action(tutorial, game, step.example)
        assert verdict.kind == "expected", f"{where}: {verdict.message}"
        assert verdict.message == step.after
        game.submit(tutorial.side, step.example)
        for _ in bot_turns(game, bots):
            pass
    assert progress(tutorial, game) == len(tutorial.steps)


def offered(scene: dict[str, Any]) -> dict[str, set[str]]:
    """What the orders panel offers now, by the attribute a tutorial's selector names it with."""
    moves = {o["text"] for opts in scene["move_options"].values() for o in opts}
    pieces = {p["text"] for opts in (scene["order_pieces"] or {}).values() for p in opts}
    shots = [o for opts in (scene["fire_options"] or {}).values() for o in opts]
    return {
        "value": moves | pieces,
        "data-weapon": {o["weapon"] for o in shots},
        "data-piece": {o["piece"] for o in shots},
    }


@pytest.mark.parametrize("tutorial_id", sorted(tutorial_paths()))
def test_conformance_every_control_a_step_names_is_offered_at_that_step(tutorial_id: str) -> None:
    """A plot, piece or weapon a step rings (by its value, weapon or piece) is one the orders panel
    builds at that moment, so the page can point at it (the browser test clicks them)."""
    tutorial = builtin_tutorial(tutorial_id)
    game, bots = start(tutorial)
    for number, step in enumerate(tutorial.steps, 1):
        have = offered(build_scene(game, (tutorial.side,)))
        for selector in step.highlight:
            for attribute, value in re.findall(r'\[(value|data-weapon|data-piece)="([^"]+)"\]', selector):
                assert value in have[attribute], f"{tutorial_id} step {number}: {selector} is not offered"
        game.submit(tutorial.side, step.example)
        for _ in bot_turns(game, bots):
            pass
