"""A replay's trails and shots (web/tracks.py), checked against the game replayed by the kernel."""

from __future__ import annotations

from functools import cache

from tests.web.helpers import Mirror
from vectorwar.events import TurnBegan
from vectorwar.game import Game
from vectorwar.scene import build_scene
from vectorwar.web.tracks import replay_with_tracks

SCENARIO = "vv5-dogfight"
SEED = 3
BOTS = {"red": "bot:greedy", "blue": "bot:greedy"}


@cache
def finished() -> Game:
    game = Mirror.of(SCENARIO, SEED, BOTS).game
    assert game.result is not None
    return game


def turn_starts(game: Game) -> list[int]:
    """The step at which each turn's first batch comes (index 0: turn 1)."""
    starts = [0]
    for step in range(1, len(game.history)):
        if game.history[step].clock.turn != game.history[step - 1].clock.turn:
            starts.append(step)
    return starts


def test_the_scene_is_the_replayed_games_and_past_the_end_is_none() -> None:
    game = finished()
    for step in (0, 5, len(game.history)):
        scene = replay_with_tracks(game, step)
        assert scene is not None
        scene.pop("tracks")
        past = Game.replay(game.system, game.scenario, game.seed, game.options, game.history[:step])
        assert scene == build_scene(past, ())
    assert replay_with_tracks(game, len(game.history) + 1) is None
    assert replay_with_tracks(game, -1) is None


def test_a_trail_has_a_point_for_every_turn_begun_and_ends_where_the_ship_is() -> None:
    game = finished()
    starts = turn_starts(game)
    for turn in (1, 2, 5):
        scene = replay_with_tracks(game, starts[turn - 1])
        assert scene is not None
        trails = scene["tracks"]["trails"]
        here = {c["id"]: {"hex": c["hex"], "altitude": c["altitude"]} for c in scene["counters"]}
        assert set(trails) == set(here)
        for ship, points in trails.items():
            assert len(points) == turn, ship
            assert points[-1] == here[ship]
    # Between two turns' starts (a turn of more than one batch), the moment shown is one point more.
    busy = next(k for k in range(len(starts) - 1) if starts[k + 1] - starts[k] > 1)
    assert busy >= 3
    scene = replay_with_tracks(game, starts[busy] + 1)
    assert scene is not None
    assert {len(p) for p in scene["tracks"]["trails"].values()} == {busy + 2}
    # The trail's points are the counters at each turn's start.
    at_three = replay_with_tracks(game, starts[2])
    assert at_three is not None
    for counter in at_three["counters"]:
        assert scene["tracks"]["trails"][counter["id"]][2]["hex"] == counter["hex"]


def test_every_shot_in_the_log_is_a_shot_line_of_its_turn() -> None:
    game = finished()
    expected: list[tuple[int, str, str, str]] = []
    turn = 0
    for event in game.events:
        if isinstance(event, TurnBegan):
            turn = event.turn
        if event.kind in {"vv5-guns", "vv5-missile", "vv5-launch"}:
            expected.append((turn, event.kind, getattr(event, "ship", ""), getattr(event, "target", "")))
    assert expected, "the bots' game should hold some shots"
    scene = replay_with_tracks(game, len(game.history))
    assert scene is not None
    tracks = scene["tracks"]
    assert [(s["turn"], s["kind"], s["shooter"], s["target"]) for s in tracks["shots"]] == expected
    assert tracks["turn"] == game.history[-1].clock.turn
    first = tracks["shots"][0]
    # The line joins the two ships where they stood after the batch that fired.
    after = Game.replay(game.system, game.scenario, game.seed, game.options, game.history[: first["step"] + 1])
    where = {c.id: str(c.position.hex) for c in after.system.counters(after.state)}
    assert (first["from"]["hex"], first["to"]["hex"]) == (where[first["shooter"]], where[first["target"]])
    # A launch is not yet a hit or a miss (its missile attacks later); a gun shot or a missile's attack is.
    for shot in tracks["shots"]:
        assert (shot["hit"] is None) == (shot["kind"] == "vv5-launch"), shot
    # Nothing shot yet at the start of the game.
    opening = replay_with_tracks(game, 0)
    assert opening is not None
    assert opening["tracks"]["shots"] == []
    assert opening["tracks"]["turn"] is None
