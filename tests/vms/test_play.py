"""VMS games end to end: every scenario under both combat pairings, saves, the CLI, conformance, a golden log."""

from __future__ import annotations

import json
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.support.golden import check_golden
from vectorwar.catalogue import builtin_scenario
from vectorwar.cli import app
from vectorwar.conformance import check_system, scenarios_of
from vectorwar.events import Fired
from vectorwar.game import Game
from vectorwar.play import bot_turns, make_bots, play_out
from vectorwar.savefile import game_from_data, game_to_data, load_game
from vectorwar.systems.vms.orders import WORD_OF
from vectorwar.systems.vms.state import VMSState
from vectorwar.systems.vv5.events import GunsFired

from .game_helpers import VMS

SCENARIOS = [
    f"vms-{kind}-{combat}" for kind in ("capital-duel", "fighter-screen", "mixed-fleet") for combat in ("msc", "vv5")
]


def test_three_scenarios_each_with_both_combat_modules() -> None:
    found = {s.id: s for s in scenarios_of("vms")}
    assert sorted(found) == sorted(SCENARIOS)
    for sid in SCENARIOS:
        assert found[sid].options["combat"] == sid.rsplit("-", 1)[1]


MATCHES = ((1, "greedy", "greedy"), (2, "greedy", "random"), (3, "random", "greedy"))


def _play(scenario: str, matches: tuple[tuple[int, str, str], ...]) -> int:
    """Play each (seed, red, blue) to the end; the number of shots fired in all of them."""
    shots = 0
    for seed, red, blue in matches:
        game = play_out(builtin_scenario(scenario), {"red": red, "blue": blue}, seed=seed)
        assert game.is_over
        assert game.result is not None
        shots += sum(isinstance(e, (Fired, GunsFired)) for e in game.events)
    return shots


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_plays_bot_against_bot_to_the_end(scenario: str) -> None:
    assert _play(scenario, MATCHES) > 0  # the bots find each other and fight


@pytest.mark.slow
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_plays_to_the_end_over_more_seeds(scenario: str) -> None:
    more = tuple((seed, red, blue) for seed in range(4, 10) for _, red, blue in MATCHES[:2])
    assert _play(scenario, more) > 0


def _mid_game() -> Game:
    """A few turns of greedy play, stopped at a simultaneous plot."""
    game = Game.new(VMS, builtin_scenario("vms-mixed-fleet-vv5"), 4)
    bots = make_bots(VMS, {"red": "greedy", "blue": "greedy"})
    for step, _ in enumerate(bot_turns(game, bots)):
        prompt = game.prompt
        if step > 12 and prompt is not None and prompt.simultaneous and len(game.waiting_for) == 2:
            break
    return game


def test_save_and_load_reproduce_a_game_in_progress_with_a_secret_plot_pending() -> None:
    game = _mid_game()
    assert not game.is_over
    side = game.waiting_for[0]
    game.submit(side, VMS.bots()["greedy"]().choose(game.state, side, __import__("random").Random(1)))
    data = json.loads(json.dumps(game_to_data(game)))
    loaded, _ = game_from_data(data, "test")
    assert loaded.state == game.state
    assert loaded.events == game.events
    assert loaded.pending == game.pending
    assert isinstance(loaded.state, VMSState)


def test_the_cli_plays_vms_through_the_ordinary_commands(tmp_path: Path) -> None:
    runner = CliRunner(env={"FORCE_COLOR": None, "COLUMNS": "200"})
    file = str(tmp_path / "g.json")
    made = runner.invoke(app, ["new", "vms-capital-duel-vv5", file, "--seed", "3", "--side", "blue=greedy"])
    assert made.exit_code == 0, made.stdout
    assert "capital ships" in made.stdout
    # The README's example order.
    given = runner.invoke(app, ["orders", file, "red", "Tern aft1:A=8 port1:rot=3 R1"])
    assert given.exit_code == 0, given.stdout
    game, _ = load_game(Path(file))
    assert game.history[0].orders[0] == ("red", "Tern aft1:A=8 port1:rot=3 R1")
    shown = runner.invoke(app, ["show", file])
    assert shown.exit_code == 0
    assert "A=3" in shown.stdout  # the vector record on the card: A=1 and 2 more


@pytest.mark.skipif(
    bool(entry_points(group="vectorwar.systems", name="vms")),
    reason="installed: tests/test_conformance.py runs the kit over vms",
)
def test_conformance_kit_until_the_entry_point_is_installed() -> None:
    reports = check_system("vms", seeds=(0,))
    assert len(reports) == len(SCENARIOS)
    assert all(r.orders > 0 and r.rolls > 0 for r in reports)


def test_golden_playthrough() -> None:
    check_golden("vms-mixed-fleet-msc-seed5.txt", "vms-mixed-fleet-msc", {"red": "greedy", "blue": "random"}, 5)


def test_the_initiative_help_names_the_ships_with_a_choice_and_its_example_is_legal() -> None:
    scenario = builtin_scenario("vms-fighter-screen-vv5")
    for seed in range(20):
        game = Game.new(VMS, scenario, seed)
        prompt = game.prompt
        if prompt is not None and prompt.kind == "initiative":
            break
    else:
        pytest.fail("no seed gave an initiative choice on turn 1")
    example = prompt.help.rsplit("e.g. '", 1)[1].rstrip("'")
    side = prompt.sides[0]
    assert str(game.check(side, example)) == example
    choosers = VMS.choosers(game.state, side)
    assert choosers
    for ship in choosers:
        assert f"{ship.id} ({' or '.join(WORD_OF[c] for c in ship.choices)})" in prompt.help
