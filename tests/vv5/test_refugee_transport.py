"""VV5 scenario 8, Refugees: the refugee side's transport is randomly determined."""

from __future__ import annotations

from typing import Any

from vectorwar.catalogue import builtin_scenario
from vectorwar.events import Rolled
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.vv5.movement import move_ships
from vectorwar.systems.vv5.state import VV5State

from .conftest import LoadedDice

PURPOSE = "which transport refugees gets"


def refugee_game(seed: int, loadout: list[str] | None = None) -> Game:
    data: dict[str, Any] = builtin_scenario("vv5-refugees").to_data()
    if loadout is not None:
        transport = next(s for s in data["sides"][1]["ships"] if s["id"] == "T1")
        transport["loadout"] = loadout
    return Game.new(get_system("vv5"), scenario_from_data(data, "test"), seed)


def test_the_refugee_transport_is_rolled_for_courier_or_hauler() -> None:
    seen = {}
    for seed in range(12):
        game = refugee_game(seed)
        rolls = [e for e in game.events if isinstance(e, Rolled) and e.purpose == PURPOSE]
        assert len(rolls) == 1  # one transport, one roll; nobody else rolls for one
        t1 = game.state.ship("T1")
        expected = "courier" if rolls[0].total <= 3 else "hauler"
        assert t1.design == expected
        seen[expected] = t1.cargo.boxes
    assert seen == {"courier": 6, "hauler": 10}


def test_the_rolled_transport_still_starts_on_the_asteroid_and_lifts_off() -> None:
    for seed in range(6):
        state = refugee_game(seed).state
        assert isinstance(state, VV5State)
        rock = state.map.locate("H@4,3")
        t1 = state.ship("T1")
        assert t1.hex == rock
        assert (t1.facing.name, t1.velocity.speed) == ("E", 1)  # as the file placed it
        assert {s.hex for s in state.ships_of("refugees")} == {rock}
        moved = move_ships(state, {}, LoadedDice(), [])
        assert all(s.active and s.hex != rock for s in moved.ships_of("refugees"))


def test_the_crew_stays_aboard_whatever_hull_is_rolled() -> None:
    for seed in range(4):
        t1 = refugee_game(seed, ["crew:Ivanova:12"]).state.ship("T1")
        assert (t1.crew, t1.experience) == ("Ivanova", 12)
