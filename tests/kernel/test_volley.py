"""What a shot option tells a front end about queues: the one-click volley and the queues the rules refuse.

"Every weapon that reaches this target" (the browser's orders/queue.js ``volleyAt``) queues each
weapon's ``volley`` pieces while ``uses``/``limit``, ``unit`` and ``cost``/``budget`` allow; here
the same choice is made in Python and the rules must accept it, in every system, and must refuse
what those fields say is refused.
"""

from __future__ import annotations

import random

import pytest

from tests.kernel.test_odds import SCENARIOS, to_shot
from tests.support.orders import accepted
from vectorwar.catalogue import builtin_scenario
from vectorwar.display import ShotOption
from vectorwar.game import Game
from vectorwar.registry import get_system


def problem(options: list[ShotOption], chosen: list[ShotOption], option: ShotOption) -> bool:
    """Whether the fields refuse ``option`` after ``chosen`` (queue.js ``shotProblem``)."""
    if option.unit and any(o.unit == option.unit for o in chosen):
        return True
    if option.budget and sum(o.cost for o in chosen) + option.cost > option.budget:
        return True
    used = sum(o.uses for o in chosen if o.weapon == option.weapon)
    return bool(option.limit) and used + option.uses > option.limit


def volley_at(options: list[ShotOption], target: str) -> list[ShotOption]:
    """The shots the one-click volley at ``target`` queues from nothing chosen (queue.js ``volleyAt``)."""
    added: list[ShotOption] = []
    for weapon in dict.fromkeys(o.weapon for o in options if o.target == target):
        for o in options:
            if o.weapon != weapon or o.target != target:
                continue
            for _ in range(o.volley):
                if problem(options, added, o):
                    break
                added.append(o)
    return added


@pytest.mark.parametrize(("system", "scenario"), SCENARIOS)
@pytest.mark.parametrize("seed", [2, 5])
def test_every_weapon_at_a_target_is_a_legal_order(system: str, scenario: str, seed: int) -> None:
    game = Game.new(get_system(system), builtin_scenario(scenario), seed=seed)
    found = to_shot(game, random.Random(seed))
    assert found is not None, scenario
    side, options = found
    for ship, shots in options.items():
        for target in dict.fromkeys(o.target for o in shots):
            volley = volley_at(shots, target)
            # Every weapon that reaches the target fires at it, at least once.
            assert {o.weapon for o in volley} == {o.weapon for o in shots if o.target == target}, (ship, target)
            text = f"{ship} {' '.join(o.piece for o in volley)}"
            assert accepted(game, side, text), text


def test_avt_a_laser_fires_once_and_the_batteries_pay_for_every_shot() -> None:
    game = Game.new(get_system("avt"), builtin_scenario("avt-duel-wasp"), seed=3)
    options = game.system.fire_options(game.state, "blue")["Rafik"]
    lasers = [o.unit for o in options]
    assert lasers == ["A1", "A2", "B1", "C1"]
    assert all(o.piece == f"fire {o.unit}>Wasp" and o.volley == 1 for o in options)
    assert all((o.cost, o.budget) == (3, game.state.ship("Rafik").battery) for o in options)
    # One click at the Wasp fires all four; the same laser twice is what the rules refuse.
    assert [o.piece for o in volley_at(list(options), "Wasp")] == [o.piece for o in options]
    assert problem(list(options), [options[0]], options[0])
    assert not accepted(game, "blue", "Rafik fire A1>Wasp fire A1>Wasp")


def test_vv5_guns_fire_the_whole_mount_twice_and_one_missile() -> None:
    game = Game.new(get_system("vv5"), builtin_scenario("vv5-dogfight"), seed=3)
    rng = random.Random(3)
    kinds: set[str] = set()
    while kinds != {"missiles", "guns"}:
        found = to_shot(game, rng)
        assert found is not None, kinds
        for shots in found[1].values():
            for o in shots:
                if o.weapon == "msl":
                    kinds.add("missiles")
                    assert o.volley == 1
                else:
                    # Each gun fires twice (rapid fire): the volley is the mount's every gun, twice.
                    kinds.add("guns")
                    assert o.volley == (2 if o.uses * 2 == o.limit else 0), o
        side = found[0]
        game.submit(side, "hold")
