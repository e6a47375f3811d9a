"""A replay's trails and shots: where each ship was turn by turn, and who shot at whom.

The replay scrubber shows the game after some number of resolved batches;
these are drawn over it. They are worked out by replaying the batches one
at a time (as :meth:`Game.replay` does), so they need nothing stored beyond
the orders, and they hold only what every spectator has seen: counters on
the map and events in the log.

A ship's trail is its position at the start of every turn up to the moment
shown, then where it is at that moment if that is not a turn's start. A
shot is any event that names a ``ship`` and a ``target`` (a gun, a laser, a
missile launched or striking), with both ships' positions after the batch
that fired it, so a line joins them as they stood then.
"""

from __future__ import annotations

from typing import Any

from vectorwar.events import Event
from vectorwar.game import Game
from vectorwar.scene import build_scene, position_data


def replay_with_tracks(game: Game, step: int) -> dict[str, Any] | None:
    """The spectator's scene after ``step`` batches, with ``tracks``; ``None`` past the end."""
    if not 0 <= step <= len(game.history):
        return None
    past = Game.new(game.system, game.scenario, game.seed, game.options)
    trails: dict[str, list[dict[str, Any]]] = {}
    shots: list[dict[str, Any]] = []

    def where() -> dict[str, dict[str, Any]]:
        return {c.id: position_data(c.position) for c in past.system.counters(past.state)}

    def mark(at: dict[str, dict[str, Any]]) -> None:
        for ship, position in at.items():
            trails.setdefault(ship, []).append(position)

    mark(where())
    marked_turn = _turn(past)
    marked_at = 0
    for index, batch in enumerate(game.history[:step]):
        before = where()
        events: list[Event] = []
        # The same orders in the same order as Game.replay: the same game, roll for roll (or the same end).
        events.extend(past.replay_batch(batch))
        after = where()
        for event in events:
            shooter, target = getattr(event, "ship", None), getattr(event, "target", None)
            if not (isinstance(shooter, str) and isinstance(target, str)):
                continue
            start = after.get(shooter) or before.get(shooter)
            end = after.get(target) or before.get(target)
            if start is None or end is None:
                continue
            hit = getattr(event, "hit", None)
            shots.append(
                {
                    "step": index,
                    "turn": batch.clock.turn,
                    "shooter": shooter,
                    "target": target,
                    "kind": event.kind,
                    "hit": hit if isinstance(hit, bool) else None,
                    "from": start,
                    "to": end,
                }
            )
        turn = _turn(past)
        if turn is not None and turn != marked_turn:
            mark(after)
            marked_turn, marked_at = turn, index + 1
    if marked_at != step:
        mark(where())
    scene = build_scene(past, ())
    # The turn of the last batch shown: its shots are the ones the browser draws.
    shown_turn = game.history[step - 1].clock.turn if step else None
    scene["tracks"] = {"trails": trails, "shots": shots, "turn": shown_turn}
    return scene


def _turn(game: Game) -> int | None:
    clock = game.clock
    return None if clock is None else clock.turn
