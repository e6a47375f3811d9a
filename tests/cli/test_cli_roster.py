"""``vectorwar roster``: a VV5 crew roster shown and updated from finished save files."""

from __future__ import annotations

import json
from pathlib import Path

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.savefile import save_game
from vectorwar.scenario import Scenario
from vectorwar.systems.vv5 import crews
from vectorwar.systems.vv5.state import VV5State

from .helpers import run

BOTS = {"red": "greedy", "blue": "random"}
POINTS = {"X1": 12, "X2": 0, "Y1": 4, "Y2": 7}  # an Ace, a Rookie, a Regular and a Veteran


def crewed_dogfight() -> Scenario:
    scenario = builtin_scenario("vv5-dogfight")
    sides = []
    for side in scenario.sides:
        ships = [
            placed.model_copy(
                update={"loadout": [*placed.loadout, crews.crew_tag(f"crew-{placed.id}", POINTS[placed.id])]}
            )
            for placed in side.ships
        ]
        sides.append(side.model_copy(update={"ships": ships}))
    return scenario.model_copy(update={"sides": sides})


def saved(path: Path, game: Game) -> Path:
    save_game(game, path, BOTS)
    return path


def finished(tmp_path: Path, crews_on: bool = True, seed: int = 0) -> tuple[Path, Game]:
    options = {crews.OPTION: True} if crews_on else {}
    game = play_out(crewed_dogfight(), BOTS, seed, options)
    assert game.result is not None
    return saved(tmp_path / f"game-{seed}-{crews_on}.json", game), game


def test_adding_a_finished_game_fills_the_roster_and_shows_it(tmp_path: Path) -> None:
    save, game = finished(tmp_path)
    roster = tmp_path / "crews.json"
    code, out, err = run("roster", str(roster), "--add-game", str(save))
    assert code == 0, err
    expected = crews.update_roster(crews.CrewRoster(), game)
    assert crews.load_roster(roster) == expected  # the file holds exactly what the library computes
    state = game.state
    assert isinstance(state, VV5State)
    for record in expected.crews:
        line = next(line for line in out.splitlines() if record.name in line)
        assert str(record.experience) in line
        assert crews.rating(record.experience) in line
        assert record.status in line
    # Seed 0: red wins, so each red crew gains at least its point for winning.
    assert state.winners == ("red",)
    for record in expected.crews:
        if record.name in ("crew-X1", "crew-X2"):
            assert record.experience > POINTS[record.name.removeprefix("crew-")]
    # Showing it again (no --add-game) prints the same table and leaves the file alone.
    before = roster.read_text()
    code, again, _ = run("roster", str(roster))
    assert code == 0
    assert "crew-X1" in again
    assert "rating" in again
    assert roster.read_text() == before


def test_the_same_game_is_not_counted_twice(tmp_path: Path) -> None:
    save, _ = finished(tmp_path)
    roster = tmp_path / "crews.json"
    assert run("roster", str(roster), "--add-game", str(save))[0] == 0
    before = roster.read_text()
    code, _, err = run("roster", str(roster), "--add-game", str(save))
    assert code == 1
    assert err.count("\n") == 1
    assert err.startswith("error:")
    assert "already counts" in err
    assert roster.read_text() == before
    assert len(json.loads(before)["games"]) == 1


def test_unfinished_games_are_refused(tmp_path: Path) -> None:
    game = Game.new(get_system("vv5"), crewed_dogfight(), 0, {crews.OPTION: True})
    save = saved(tmp_path / "going.json", game)
    roster = tmp_path / "crews.json"
    code, _, err = run("roster", str(roster), "--add-game", str(save))
    assert code == 1
    assert err.count("\n") == 1
    assert "not finished" in err
    assert not roster.exists()


def test_games_without_experienced_crews_are_refused(tmp_path: Path) -> None:
    save, _ = finished(tmp_path, crews_on=False)
    roster = tmp_path / "crews.json"
    code, _, err = run("roster", str(roster), "--add-game", str(save))
    assert code == 1
    assert err.count("\n") == 1
    assert "experienced_crews" in err
    assert not roster.exists()


def test_an_empty_or_missing_roster_says_so(tmp_path: Path) -> None:
    code, out, _ = run("roster", str(tmp_path / "none.json"))
    assert code == 0
    assert "no crews yet" in out
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    code, _, err = run("roster", str(bad))
    assert code == 1
    assert "not a VV5 crew roster" in err
