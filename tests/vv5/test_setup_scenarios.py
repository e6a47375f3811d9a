"""VV5 scenarios 2-6 and 9 set up as the text says: purchases, bombs, escorts, placements, allies.

docs/rulings/vv5.md: *VV5 the scenarios' purchases*, *VV5 bombs bought*, *VV5 placing the body and the pod*,
*VV5 invasion players*.
"""

from __future__ import annotations

import pytest

from vectorwar.catalogue import builtin_scenario
from vectorwar.errors import IllegalOrderError
from vectorwar.events import Rolled
from vectorwar.game import Game
from vectorwar.play import play_out
from vectorwar.registry import get_system
from vectorwar.scenario import scenario_from_data
from vectorwar.systems.vv5.specials.cargo_runs import bombs_of
from vectorwar.systems.vv5.state import PodState

SCENARIOS = [
    "vv5-strike-force-purchase",
    "vv5-assault-force-purchase",
    "vv5-stasis-pod-place",
    "vv5-pirates-purchase",
    "vv5-alien-starship-purchase",
    "vv5-invasion-purchase",
    "vv5-invasion-2",
]


def game(name: str, seed: int = 1, points: int | None = None) -> Game:
    data = builtin_scenario(name).to_data()
    if points is not None:
        data["setup"]["purchase"]["points"] = points
    return Game.new(get_system("vv5"), scenario_from_data(data, "test"), seed)


def budget_rolls(g: Game) -> list[int]:
    return [e.total for e in g.events if isinstance(e, Rolled) and e.purpose == "purchase points for every side"]


def test_strike_force_buys_as_the_dogfight_with_one_roll() -> None:
    g = game("vv5-strike-force-purchase", seed=4)
    [roll] = budget_rolls(g)
    assert dict(g.state.purchase.points) == {"strike": roll + 8, "intercept": roll + 8}
    assert g.prompt is not None
    assert g.prompt.sides == ("strike",)


def test_the_strike_forces_first_buy_carries_two_bombs_at_least() -> None:
    g = game("vv5-strike-force-purchase", points=20)
    with pytest.raises(IllegalOrderError, match="bomb"):
        g.submit("strike", "done")
    with pytest.raises(IllegalOrderError, match="bomb"):
        g.submit("strike", "buy 2 harpy")  # no bombs at all
    with pytest.raises(IllegalOrderError, match="bomb"):
        g.submit("strike", "buy 1 harpy bombs 1")  # one bomb is short of two
    with pytest.raises(IllegalOrderError, match="bomb"):
        g.submit("strike", "buy 2 dynamo bombs 2")  # a Dynamo has one missile to swap
    g.submit("strike", "buy 2 harpy bombs 1")
    g.submit("intercept", "buy 2 harpy")
    g.submit("strike", "buy 1 ghost")  # later buys may keep their missiles
    while g.state.purchase is not None:
        prompt = g.prompt
        assert prompt is not None
        g.submit(prompt.sides[0], "done")
    strike = {s.id: s for s in g.state.ships_of("strike")}
    assert sorted(strike) == ["X1", "X2", "X3"]
    assert [bombs_of(strike[x]) for x in ("X1", "X2", "X3")] == [1, 1, 0]
    assert strike["X1"].missiles_ready == 3  # four launchers, one holding a bomb
    assert g.state.phase in ("choose-order", "plot")


def test_assault_force_gets_a_courier_per_pair_of_fighters() -> None:
    g = game("vv5-assault-force-purchase", points=20)
    g.submit("assault", "buy 3 ghost")
    g.submit("intercept", "buy 2 harpy")
    while g.state.purchase is not None:
        prompt = g.prompt
        assert prompt is not None
        g.submit(prompt.sides[0], "done")
    assault = sorted((s.id, s.design) for s in g.state.ships_of("assault"))
    # Three fighters are two elements (a pair and a single): two transports.
    assert assault == [("T1", "courier"), ("T2", "courier"), ("X1", "ghost"), ("X2", "ghost"), ("X3", "ghost")]
    g2 = game("vv5-assault-force-purchase", points=14)
    g2.submit("assault", "buy 2 harpy")
    g2.submit("intercept", "buy 2 harpy")
    assert sorted(s.design for s in g2.state.ships_of("assault")) == ["courier", "harpy", "harpy"]


def test_only_the_pirates_pursuers_buy_and_start_in_their_two_corners() -> None:
    g = game("vv5-pirates-purchase", points=12)
    assert g.prompt is not None
    assert g.prompt.sides == ("interceptors",)
    assert [s.id for s in g.state.ships] == ["P1"]
    g.submit("interceptors", "buy 2 dynamo")
    hex_map = g.scenario.hex_map()
    x1, x2 = g.state.ship("X1"), g.state.ship("X2")
    assert (x1.hex, str(x1.facing), x1.velocity.speed) == (hex_map.locate("A@0,0"), "C", 2)
    assert (x2.hex, str(x2.facing), x2.velocity.speed) == (hex_map.locate("K@0,7"), "B", 2)


def test_the_alien_starship_purchase_is_2d6_plus_10() -> None:
    g = game("vv5-alien-starship-purchase", seed=3)
    [roll] = budget_rolls(g)
    assert set(dict(g.state.purchase.points).values()) == {roll + 10}
    # The troopers' transports are already there, rolled for before the buying.
    assert {s.kind for s in g.state.ships if s.side in ("red", "blue")} == {"transport"}


def test_two_invasion_players_are_allies() -> None:
    g = game("vv5-invasion-2", points=14)
    g.submit("blue", "buy 2 harpy")
    g.submit("green", "buy 2 harpy")
    state = g.state
    assert state.allied("blue", "green")
    assert {s.side for s in state.enemies_of("blue")} == {"aliens"}
    assert {s.side for s in state.enemies_of("green")} == {"aliens"}
    # A one-flight invasion has nobody to be allied with.
    solo = game("vv5-invasion-purchase", points=14)
    solo.submit("humans", "buy 2 harpy")
    assert solo.state.allies == ()


def test_an_ally_is_no_target() -> None:
    g = game("vv5-invasion-2", points=14)
    g.submit("blue", "buy 2 harpy")
    g.submit("green", "buy 2 harpy")
    system = g.system
    state = g.state
    from dataclasses import replace

    state = replace(state, phase="missiles", declare_order=("blue", "green"), declaring=0)
    order = system.parse_order(state, "blue", "B1 1>G1")
    with pytest.raises(IllegalOrderError, match="own side"):
        system.check_order(state, "blue", order)


def test_the_players_place_the_body_at_the_centre_then_the_pod_next_to_it() -> None:
    g = game("vv5-stasis-pod-place")
    assert g.prompt is not None
    assert (g.prompt.kind, g.prompt.sides) == ("place", ("red",))
    rolls_before = len(g.events)
    with pytest.raises(IllegalOrderError, match="centre of the map"):
        g.submit("red", "place body A@0,0")
    with pytest.raises(IllegalOrderError, match="body is to be placed"):
        g.submit("red", "place pod H@5,3")
    g.submit("red", "place body H@5,4")
    assert g.prompt is not None
    assert g.prompt.sides == ("blue",)
    with pytest.raises(IllegalOrderError, match="next to the body"):
        g.submit("blue", "place pod H@7,7")
    g.submit("blue", "place pod H@5,5")
    pod = g.state.special
    assert isinstance(pod, PodState)
    hex_map = g.scenario.hex_map()
    assert (pod.body, pod.pod) == (hex_map.locate("H@5,4"), hex_map.locate("H@5,5"))
    # Only now is the feature rolled and the body laid on the map.
    assert any(getattr(e, "purpose", "") == "what is near the stasis pod" for e in g.events[rolls_before:])
    assert g.state.map.terrain_at(pod.body) is not None
    assert g.state.phase in ("choose-order", "plot")


def test_the_fixed_stasis_pod_file_still_opens_on_turn_1() -> None:
    g = game("vv5-stasis-pod")
    assert g.state.placing == ()
    assert g.prompt is not None
    assert g.prompt.kind != "place"


@pytest.mark.parametrize("name", SCENARIOS)
@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_bots_buy_place_and_play_each_scenario(name: str, bot: str) -> None:
    scenario = builtin_scenario(name)
    played = play_out(scenario, {s.id: bot for s in scenario.sides}, 2)
    assert played.result is not None
    phases = [h.clock.phase for h in played.history]
    assert phases[0] in ("purchase", "place")
    assert any(s.side != "aliens" and s.kind != "adp" for s in played.state.ships)
