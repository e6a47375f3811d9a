"""The viewer scene: legal plots with true ghosts, secrecy, plain JSON."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vectorwar.catalogue import builtin_scenario
from vectorwar.game import Game
from vectorwar.registry import get_system
from vectorwar.scene import build_scene

PLOTTED = [("msc", "msc-duel"), ("msc", "msc-fleet"), ("vv5", "vv5-dogfight"), ("vv5", "vv5-strike-force")]


def new_game(system: str, scenario: str, seed: int = 1) -> Game:
    return Game.new(get_system(system), builtin_scenario(scenario), seed=seed)


def first_side(game: Game) -> str:
    """The first side the prompt asks for an order (the game must still be on)."""
    prompt = game.prompt
    assert prompt is not None
    return prompt.sides[0]


def to_plot(game: Game, rng: random.Random) -> None:
    """Play random orders until the prompt is a simultaneous plot with move options."""
    for _ in range(200):
        prompt = game.prompt
        assert prompt is not None, "the game ended before a plot"
        if prompt.simultaneous and game.system.move_options(game.state, prompt.sides[0]):
            return
        side = prompt.sides[0]
        game.submit(side, game.system.random_order(game.state, side, rng))
    raise AssertionError("no plot prompt reached")


@pytest.mark.parametrize(("system", "scenario"), PLOTTED)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_every_move_option_is_legal_and_its_ghost_is_where_the_ship_goes(
    system: str, scenario: str, data: st.DataObject
) -> None:
    game = new_game(system, scenario, seed=data.draw(st.integers(0, 50)))
    rng = random.Random(data.draw(st.integers(0, 1000)))
    for _ in range(data.draw(st.integers(0, 3))):
        to_plot(game, rng)
        side = first_side(game)
        game.submit(side, game.system.random_order(game.state, side, rng))
        if game.is_over:
            return
    to_plot(game, rng)
    prompt = game.prompt
    assert prompt is not None
    ghosts = {}
    start = len(game.events)
    for side in prompt.sides:
        scene = build_scene(game, [side])
        options = scene["move_options"]
        assert options, f"{side} must plot but is offered nothing"
        at = {c["id"]: c["hex"] for c in scene["counters"]}
        picks = []
        for ship, choices in options.items():
            for choice in choices:
                assert choice["path"][0]["hex"] == at[ship]
                assert choice["end"] == choice["path"][-1]
            pick = data.draw(st.sampled_from(choices))
            picks.append(pick["text"])
            ghosts[ship] = pick
        # Every offered entry is accepted as part of the side's order.
        game.submit(side, "; ".join(picks))
    moved = {c["id"]: c for c in build_scene(game, [])["counters"]}
    knocked = {e["text"].split()[0] for e in build_scene(game, [])["events"] if e["kind"] in ("Collided", "Pulled")}
    # The VV5 Dogfight's board shift moves every ship together once all have moved: resolution's business too.
    shifted = any(e.kind == "vv5-board-shifted" for e in game.events[start:])
    for ship, ghost in ghosts.items():
        if ship in knocked or moved[ship]["status"] != "active":
            continue  # collisions and gravity are resolution's business, not the preview's
        if not shifted:
            assert moved[ship]["hex"] == ghost["end"]["hex"], ghost["text"]
        assert moved[ship]["facing"] == ghost["facing"]


@pytest.mark.parametrize(("system", "scenario"), PLOTTED)
def test_move_options_are_distinct_places_or_headings(system: str, scenario: str) -> None:
    game = new_game(system, scenario)
    side = first_side(game)
    for ship, options in build_scene(game, [side])["move_options"].items():
        ends = [(o["end"]["hex"], o["facing"]) for o in options]
        if system == "vv5":
            assert len(ends) == len(set(ends)), ship
        assert len({o["text"] for o in options}) == len(options), ship


def test_another_sides_plot_never_shows() -> None:
    game = new_game("vv5", "vv5-dogfight")
    before = build_scene(game, ["blue"])
    spectator_before = build_scene(game, [])
    plot = "; ".join(opts[-1]["text"] for opts in build_scene(game, ["red"])["move_options"].values())
    game.submit("red", plot)
    after = build_scene(game, ["blue"])
    assert after["pending"] == {}
    assert build_scene(game, ["red"])["pending"] == {"red": plot}
    # The only thing blue learns is that red is no longer awaited.
    assert before["prompt"]["waiting_for"] == ["red", "blue"]
    assert after["prompt"]["waiting_for"] == ["blue"]
    before["prompt"]["waiting_for"] = after["prompt"]["waiting_for"]
    assert before == after
    spectator_after = build_scene(game, [])
    spectator_before["prompt"]["waiting_for"] = spectator_after["prompt"]["waiting_for"]
    assert spectator_before == spectator_after


def test_spectators_and_waiting_sides_get_no_choices_or_arcs() -> None:
    game = new_game("msc", "msc-duel")
    spectator = build_scene(game, [])
    assert spectator["viewer"] == []
    assert spectator["move_options"] == {}
    assert spectator["arcs"] == {}
    assert spectator["my_turn"] == []
    red = build_scene(game, ["red", "no-such-side"])
    assert red["viewer"] == ["red"]
    assert red["my_turn"] == ["red"]
    assert set(red["arcs"]) == {c["id"] for c in red["counters"] if c["side"] == "red"}


@pytest.mark.parametrize("scenario", ["msc-duel", "vv5-dogfight", "avt-drift"])
def test_scene_is_plain_json(scenario: str) -> None:
    system = scenario.split("-")[0]
    game = new_game(system, scenario)
    side = first_side(game)
    scene = build_scene(game, [side])
    assert json.loads(json.dumps(scene)) == scene
    assert scene["system"] == system
    assert scene["sides"][0]["colour"].startswith("#")
    assert scene["map"]["sections"]
    assert all(e["text"] for e in scene["events"])


def test_events_carry_the_turn_they_happened_in() -> None:
    game = new_game("msc", "msc-duel")
    game.submit("red", "Hawk 2")
    game.submit("blue", "Raven 2")
    turns = [e["turn"] for e in build_scene(game, [])["events"]]
    assert turns[0] == 1
    assert turns == sorted(turns)


def test_vv5_counters_show_velocity_and_the_vector_marker() -> None:
    game = new_game("vv5", "vv5-dogfight")
    for counter in build_scene(game, [])["counters"]:
        assert counter["velocity"]
        if counter["velocity"] != "0":
            assert len(counter["markers"]) == 1
            assert counter["markers"][0] != counter["hex"]


@pytest.mark.parametrize(("system", "scenario"), PLOTTED)
def test_every_fire_option_is_a_legal_order_alone_and_together(system: str, scenario: str) -> None:
    rng = random.Random(3)
    offered = 0
    for seed in range(6):
        game = new_game(system, scenario, seed)
        for _ in range(60):
            prompt = game.prompt
            if prompt is None:
                break
            side = game.waiting_for[0]
            options = build_scene(game, [side])["fire_options"]
            for ship, shots in options.items():
                for shot in shots:
                    game.check(side, f"{ship} {shot['piece']}")
                    offered += 1
                assert {s["weapon"] for s in shots} <= set(build_scene(game, [side])["arcs"][ship])
            if options:
                # One shot per weapon from every ship together is one legal declaration.
                together = []
                for ship, shots in options.items():
                    firsts = {s["weapon"]: s["piece"] for s in reversed(shots)}
                    together.append(f"{ship} {' '.join(firsts.values())}")
                game.check(side, "; ".join(together))
            game.submit(side, game.system.random_order(game.state, side, rng))
    assert offered, "no shot was ever offered"


@pytest.mark.parametrize(
    ("system", "scenario"),
    [("vms", "vms-fighter-screen-msc"), ("vms", "vms-capital-duel-vv5"), ("avt", "avt-drift")],
)
def test_vms_and_avt_scenes_carry_legal_shots(system: str, scenario: str) -> None:
    offered = 0
    for seed in range(4):
        game = new_game(system, scenario, seed)
        bots = game.system.bots()
        bot = bots.get("greedy", bots["random"])()
        for _ in range(120):
            if game.prompt is None:
                break
            side = game.waiting_for[0]
            scene = build_scene(game, [side])
            options = scene["fire_options"]
            for ship, shots in options.items():
                for shot in shots:
                    assert shot["target"] != ship
                    game.check(side, f"{ship} {shot['piece']}")
                    offered += 1
                assert {s["weapon"] for s in shots} <= set(scene["arcs"][ship])
            if scene["prompt"]["kind"] != "fire" and system == "vms":
                assert options == {}
            game.submit(side, bot.choose(game.state, side, random.Random(seed)))
    assert offered, "no shot was ever offered"


@pytest.mark.parametrize(
    ("system", "scenario"), [("msc", "msc-duel"), ("vv5", "vv5-dogfight"), ("vms", "vms-capital-duel-msc")]
)
def test_bounded_maps_are_not_geomorphic_and_carry_no_ranges(system: str, scenario: str) -> None:
    scene = build_scene(new_game(system, scenario), [])
    assert scene["map"]["geomorphic"] is False
    assert scene["ranges"] == {}


def test_avt_scene_says_the_map_is_geomorphic_and_gives_the_ralt_range_between_ships() -> None:
    game = new_game("avt", "avt-duel-wasp")
    scene = build_scene(game, [])
    assert scene["map"]["geomorphic"] is True
    at = {c["id"]: (c["hex"], c["altitude"]) for c in scene["counters"]}
    assert at == {"Rafik": ("15,32", 0), "Wasp": ("15,7", 0)}
    # 25 hexes apart at one altitude: the RALT gives 25, Wasp dead ahead of Rafik (A) and Rafik behind Wasp (D).
    assert scene["ranges"]["Rafik"]["Wasp"].startswith("range 25 by the RALT (25 out, level), seen through A ")
    assert scene["ranges"]["Wasp"]["Rafik"].startswith("range 25 by the RALT (25 out, level), seen through D ")


def test_avt_range_words_count_altitude_by_the_ralt() -> None:
    from vectorwar.display import Counter
    from vectorwar.hexes import Position

    game = new_game("avt", "avt-duel-wasp")
    origin = Counter("A", "blue", Position.parse("0,0@1"), None)
    target = Counter("B", "red", Position.parse("-2,-4@-1"), None)
    # 5 out (A5.152's example offset) and 2 down: floor(sqrt(25 + 4)) = 5, seen through F/A blue below.
    words = game.system.range_words(game.state, origin, target)
    assert words == "range 5 by the RALT (5 out, 2 down), seen through F/A- (A5.153)"


def test_avt_plots_off_the_printed_sheet_carry_no_leaving_the_board_warning() -> None:
    game = new_game("avt", "avt-duel-wasp")
    # Rafik thrusts toward the Wasp every segment until its plots run off the top of the sheet (row 0).
    for _ in range(40):
        scene = build_scene(game, ["blue"])
        ends = [int(o["end"]["hex"].split(",")[1]) for o in scene["move_options"].get("Rafik", [])]
        if ends and min(ends) < 0:
            break
        game.submit("blue", "Rafik thrust 3, bias A")
        game.submit("red", "hold")
    else:
        raise AssertionError("the Rafik's plots never left the printed sheet")
    warnings = [w["reason"] for o in scene["move_options"]["Rafik"] for w in o["warnings"]]
    assert not [w for w in warnings if "leaves the board" in w], warnings


@settings(max_examples=50, deadline=None)
@given(st.lists(st.frozensets(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), max_size=40), max_size=6))
def test_arc_hexes_are_listed_as_their_names_sorted(pairs: list[frozenset[tuple[int, int]]]) -> None:
    """Each arc lists its hexes' names sorted as text, whether the arcs share hex objects or hold equal copies."""
    from vectorwar.hexes import Hex
    from vectorwar.scene import _HexNames

    shared = {pair: Hex(*pair) for arc in pairs for pair in arc}
    arcs = [frozenset(shared[p] for p in arc) for arc in pairs]
    copies = [frozenset(Hex(*p) for p in arc) for arc in pairs]
    names = _HexNames(frozenset().union(*arcs))
    for arc, copy in zip(arcs, copies, strict=True):
        expected = sorted(map(str, arc))
        assert names.listed(arc) == expected
        assert names.listed(copy) == expected


@settings(max_examples=50, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 12), st.integers(1, 12)), min_size=1, max_size=3
    ),
    st.integers(min_value=0),
    st.tuples(st.integers(-2, 30), st.integers(-2, 30)),
)
def test_hex_set_holds_lists_and_compares_as_the_set_of_its_hexes(
    sections: list[tuple[int, int, int, int]], bits: int, probe: tuple[int, int]
) -> None:
    """A HexSet of a map's hexes (overlapping sections too) names them as ``sorted(map(str, ...))`` does, holds exactly
    them and equals the frozenset of them; the scene lists it by those names."""
    from collections.abc import Set as AbstractSet

    from vectorwar.hexes import Hex
    from vectorwar.maps import HexMap, HexSet, MapSection, hex_order

    hex_map = HexMap(tuple(MapSection(f"s{i}", c, r, w, h) for i, (c, r, w, h) in enumerate(sections)))
    order = hex_order(hex_map)
    assert len(set(order.hexes)) == len(order.hexes)
    assert all(hex_map.contains(h) for h in order.hexes)
    bits &= (1 << len(order.hexes)) - 1
    arc = HexSet(order, bits)
    plain = frozenset(h for place, h in enumerate(order.hexes) if bits & order.bit(place))
    as_set: AbstractSet[Hex] = arc  # compared as the Set it is: equal to the frozenset of the same hexes
    assert as_set == plain
    assert len(arc) == len(plain)
    assert set(arc) == plain
    assert arc.names() == sorted(map(str, plain))
    h = Hex.from_offset(*probe)
    assert (h in arc) == (h in plain)
    with pytest.raises(ValueError, match="beyond the map"):
        HexSet(order, 1 << len(order.hexes))


def test_the_log_in_words_is_each_events_description_asked_again_or_not() -> None:
    """Each event's words are kept by the event's identity: a scene built again gives the same log, an equal event
    (another object) is described for itself, and the table stays bounded."""
    from vectorwar import scene
    from vectorwar.events import Note, TurnBegan

    events = [Note("one"), TurnBegan(1), Note("two"), Note("one")]
    expected = [
        {"turn": 0, "kind": "Note", "text": "one"},
        {"turn": 1, "kind": "TurnBegan", "text": "--- turn 1 ---"},
        {"turn": 1, "kind": "Note", "text": "two"},
        {"turn": 1, "kind": "Note", "text": "one"},
    ]
    assert scene.events_data(events) == expected
    assert scene.events_data(events) == expected
    assert all(scene._WORDS[id(e)] == (e, e.describe()) for e in events)
    for n in range(scene._WORDS_KEPT + 1):
        scene._words(Note(str(n)))
    assert len(scene._WORDS) <= scene._WORDS_KEPT
