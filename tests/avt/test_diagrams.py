"""The AVID and firing arc diagrams sent to front ends, checked against the tutorial's sample games."""

from __future__ import annotations

import json
from typing import Any

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.scene import build_scene
from vectorwar.systems.avt.arcs import ALL_ARC_WINDOWS
from vectorwar.systems.avt.avid import ALL_WINDOWS

from .helpers import AVT
from .test_ssd_card import damage_game


def game_at(scenario: str, orders: dict[int, str], segment: int) -> Game:
    """A sample game played with ``orders`` (by segment) until ``segment`` begins."""
    game = Game.new(AVT, builtin_scenario(scenario), seed=0)
    while game.state.segment < segment:
        game.submit("blue", orders.get(game.state.segment, "hold"))
    return game


def avid(game: Game, ship: str = "Rafik") -> dict[str, Any]:
    data: dict[str, Any] = AVT.diagrams(game.state)["ships"][ship]
    return data


def symbols(data: dict[str, Any]) -> dict[str, list[str]]:
    return {s["name"]: s["windows"] for s in data["symbols"]}


def test_sample_game_one_segment_5_puts_the_triangle_in_the_lower_blue_f_a_window() -> None:
    game = game_at("avt-drift", {}, 5)
    data = avid(game)
    # A5.163, A5.1651: the nose triangle faces A, the Top star is in the purple window.
    assert symbols(data) == {
        "nose": ["A"],
        "top": ["up"],
        "starboard": ["B/C"],
        "port": ["E/F"],
        "aft": ["D"],
        "bottom": ["down"],
    }
    targets = {t["id"]: t for t in data["targets"]}
    triangle = targets["Triangle"]
    # A5.162: range 5 in the F/A blue ring below the map, circled.
    assert (triangle["window"], triangle["range"], triangle["ring"], triangle["below"], triangle["circled"]) == (
        "F/A-",
        5,
        "blue",
        True,
        True,
    )
    # A5.1652, A5.166: one down and to port of the nose, where only mounts A and B reach.
    assert triangle["arc"] == ["11-"]
    assert triangle["mounts"] == ["A", "B"]
    # The square was eaten in segment 3 (A5.141): no marker for it.
    assert "Square" not in targets
    # A5.11: vectors of 6 in A, 3 in B and 1 up in the arrows' white part; no thrust, so no dots.
    values = {v["arrow"]: (v["value"], v["dots"]) for v in data["vectors"]}
    assert values == {
        "A": (6, 0),
        "B": (3, 0),
        "C": (0, 0),
        "D": (0, 0),
        "E": (0, 0),
        "F": (0, 0),
        "up": (1, 0),
        "down": (0, 0),
    }
    assert data["turning"] is None
    assert data["incoming"] is None


def test_sample_game_one_segment_6_sees_the_circle_through_upper_blue_a() -> None:
    game = game_at("avt-drift", {}, 6)
    circle = {t["id"]: t for t in avid(game)["targets"]}["Circle"]
    # A5.171: range 7 through the blue ring in A, above the map: not circled.
    assert (circle["window"], circle["range"], circle["circled"], circle["arc"]) == ("A+", 7, False, ["12+"])


def test_a_pivot_under_way_shows_each_window_with_the_segment_it_is_reached() -> None:
    # Sample game two (A5.26-A5.281): a 90 degree pivot to B/C begun in segment 5 under thrust.
    orders = {1: "Rafik pivot A", 3: "Rafik thrust 5", 5: "Rafik pivot B/C"}
    data = avid(game_at("avt-pivot-thrust", orders, 6))
    assert symbols(data)["nose"] == ["A/B"]
    turning = data["turning"]
    assert turning["kind"] == "pivot"
    assert turning["from"] == "A/B"
    reached = [(s["window"], s["turn"], s["segment"]) for s in turning["stops"] if not s["passed"]]
    assert reached == [("B", 1, 6), ("B/C", 1, 7)]
    # A5.262: three dots laid in A's gray part so far this burn.
    assert {v["arrow"]: v["dots"] for v in data["vectors"] if v["dots"]} == {"A": 3}
    assert data["thrust"] == {"setting": 5, "cell": 3}


def test_a_roll_arrow_follows_the_top() -> None:
    # A level ship rolling 90 degrees to starboard: its Top leans toward the starboard side, B/C.
    data = avid(game_at("avt-drift", {1: "Rafik roll stbd 3"}, 2))
    turning = data["turning"]
    assert turning["kind"] == "roll"
    assert turning["order"] == "roll stbd 3"
    assert [(s["window"], s["segment"], s["passed"]) for s in turning["stops"]] == [
        ("B++", 1, True),
        ("B/C+", 2, False),
        ("B/C", 3, False),
    ]
    assert symbols(data)["nose"] == ["A"]


def test_the_two_spheres_have_fifty_windows_each_and_the_scene_carries_them() -> None:
    game = game_at("avt-drift", {}, 5)
    scene = build_scene(game, ["blue"])
    diagrams = scene["diagrams"]
    assert diagrams["kind"] == "avid"
    assert (diagrams["turn"], diagrams["segment"]) == (1, 5)
    assert {w["name"] for w in diagrams["windows"]} == {str(w) for w in ALL_WINDOWS}
    assert {w["name"] for w in diagrams["arc_windows"]} == {str(w) for w in ALL_ARC_WINDOWS}
    # Chocolates have no AVID of their own; the data is plain JSON.
    assert list(diagrams["ships"]) == ["Rafik"]
    assert json.loads(json.dumps(diagrams)) == diagrams
    # Every mount's arc names windows of the diagram.
    names = {w["name"] for w in diagrams["arc_windows"]}
    for mount in diagrams["ships"]["Rafik"]["mounts"]:
        assert mount["arc"]
        assert set(mount["arc"]) <= names


def test_other_systems_send_no_diagrams() -> None:
    game = Game.new(get_system("msc"), builtin_scenario("msc-duel"), seed=1)
    assert build_scene(game, ["red"])["diagrams"] == {}


def test_incoming_damage_is_marked_in_the_window_the_shot_came_through() -> None:
    game = damage_game()
    game.submit("blue", "Blue fire A1>Red A2>Red")
    game.submit("red", "hold")
    data = AVT.diagrams(game.state)["ships"]
    # A5.42: the blue ship sees red below D, so red marks "I" in A upper blue; the shooter marks nothing.
    assert (data["Red"]["incoming"], data["Blue"]["incoming"]) == ("A+", None)
