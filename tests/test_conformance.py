"""The conformance kit over every registered rule system."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.golden import GOLDEN_DIR
from vectorwar.catalogue import builtin_scenario
from vectorwar.conformance import (
    ConformanceError,
    Golden,
    check_endings,
    check_golden,
    check_system,
    play_random_game,
)
from vectorwar.game import Game
from vectorwar.registry import get_system, systems
from vectorwar.rules import Order
from vectorwar.systems.msc import MinimalSpaceCombat
from vectorwar.systems.msc.state import MSCState

#: Each system's golden game (also diffed by the system's own tests, with VECTORWAR_UPDATE_GOLDEN to rewrite).
GOLDEN = {
    "msc": ("msc-duel-seed7.txt", "msc-duel", {"red": "greedy", "blue": "random"}, 7),
    "vv5": ("vv5-dogfight-seed3.txt", "vv5-dogfight", {"red": "greedy", "blue": "random"}, 3),
    "vms": ("vms-mixed-fleet-msc-seed5.txt", "vms-mixed-fleet-msc", {"red": "greedy", "blue": "random"}, 5),
    "avt": ("avt-duel-wasp-seed2.txt", "avt-duel-wasp", {"blue": "greedy", "red": "random"}, 2),
    # The system under tests only (tests/support/fifth) has no bot but the random one.
    "fifth": ("fifth-duel-seed6.txt", "fifth-duel", {"red": "random", "blue": "random"}, 6),
}
#: Systems whose golden game is still to come.
GOLDEN_TO_COME: set[str] = set()


def golden(name: str) -> Golden:
    file, scenario, controllers, seed = GOLDEN[name]
    return Golden(file, scenario, controllers, seed, (GOLDEN_DIR / file).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", list(systems()))
def test_every_system_conforms(name: str) -> None:
    reports = check_system(name, seeds=(0, 1))
    assert reports
    assert all(r.orders > 0 and r.rolls > 0 for r in reports)


def test_a_conceded_game_whose_result_is_wrong_fails_the_kit(monkeypatch: pytest.MonkeyPatch) -> None:
    """check_system runs check_endings over every scenario; here it must catch a concession scored as a draw."""
    check_endings(get_system("msc"), builtin_scenario("msc-duel"))
    monkeypatch.setattr(Game, "concede", lambda self, _side: self.end_by_agreement(self.sides))
    with pytest.raises(ConformanceError, match="conceding red gave"):
        check_endings(get_system("msc"), builtin_scenario("msc-duel"))


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_every_system_replays_its_golden_game(name: str) -> None:
    game = check_golden(golden(name))
    assert game.is_over
    assert len(game.events) > 20


def test_every_system_has_a_golden_game_or_is_listed_as_to_come() -> None:
    assert set(systems()) == set(GOLDEN) | GOLDEN_TO_COME
    assert not set(GOLDEN) & GOLDEN_TO_COME


def test_a_changed_golden_log_fails_with_the_diff() -> None:
    real = golden("msc")
    lines = real.log.splitlines(keepends=True)
    wrong = Golden(real.name, real.scenario, real.controllers, real.seed, "".join([*lines[:3], "no such event\n"]))
    with pytest.raises(ConformanceError, match=r"(?s)event log changed.*-no such event"):
        check_golden(wrong)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(systems()))
def test_every_system_conforms_over_many_seeds(name: str) -> None:
    reports = check_system(name, seeds=range(2, 12))
    assert len({r.winners for r in reports}) > 1  # random games do not all end alike


class LeakyMSC(MinimalSpaceCombat):
    """MSC that lets every side see the last order it checked: a secret plot leaks."""

    last_checked = ""

    def check_order(self, state: MSCState, side: str, order: Order) -> None:
        super().check_order(state, side, order)
        self.last_checked = str(order)

    def observe(self, state: MSCState, side: str | None) -> Any:
        return {"state": super().observe(state, side), "last": self.last_checked}


def test_a_secret_plot_seen_by_another_side_fails_the_kit() -> None:
    with pytest.raises(ConformanceError, match=r"secret plot .* changed the view of blue before every plot was in"):
        play_random_game(LeakyMSC(), builtin_scenario("msc-duel"), 0)
    assert play_random_game(MinimalSpaceCombat(), builtin_scenario("msc-duel"), 0).is_over


class TrustingMSC(MinimalSpaceCombat):
    """MSC that checks a plot's ships only in the parser: an order object may move the enemy's ships."""

    def check_order(self, state: MSCState, side: str, order: Order) -> None:
        if state.phase != "plot":
            super().check_order(state, side, order)


def test_an_order_object_accepted_where_its_text_is_refused_fails_the_kit() -> None:
    with pytest.raises(ConformanceError, match=r"blue gave red's order '.*' as an object and it was accepted"):
        play_random_game(TrustingMSC(), builtin_scenario("msc-duel"), 0)


def test_every_golden_game_plays_the_same_in_processes_with_different_string_hashing() -> None:
    """Python salts string hashes per process, so a set iterated in rule code could make a replay differ.

    Each system's golden game is played in two fresh processes with different ``PYTHONHASHSEED``s; the
    state after every order must be the same data.
    """
    import json
    import os
    import subprocess
    import sys

    games = {name: [scenario, controllers, seed] for name, (_, scenario, controllers, seed) in GOLDEN.items()}
    script = (
        "import hashlib, json, sys\n"
        "from vectorwar.catalogue import builtin_scenario\n"
        "from vectorwar.play import bot_turns\n"
        "from vectorwar.setup import set_up\n"
        f"games = {json.dumps(games)}\n"
        "out = {}\n"
        "for name, (scenario, controllers, seed) in games.items():\n"
        "    setup = set_up(builtin_scenario(scenario), controllers, seed=seed)\n"
        "    game, digests = setup.game, []\n"
        "    for _ in bot_turns(game, setup.bots):\n"
        "        data = json.dumps(game.system.state_to_data(game.state), sort_keys=True)\n"
        "        digests.append(hashlib.sha256(data.encode()).hexdigest())\n"
        "    out[name] = digests\n"
        "json.dump(out, sys.stdout)\n"
    )
    runs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        runs.append(json.loads(done.stdout))
    assert runs[0] == runs[1]
